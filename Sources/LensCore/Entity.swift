import Foundation

/// The kinds of things Lens finds in a screenshot's text.
public enum EntityType: String, Sendable, CaseIterable, Codable {
    case url, email, phone, person, date, money
    /// A masked secret: its value is the marker (`[card ••••4242]`), its normalized form the
    /// ``SecretKind`` (`card`). The secret itself is never stored.
    case secret
}

/// One thing found in a text: its value as shown, its normalized form and where it is.
public struct Entity: Sendable, Equatable, Hashable {
    public var type: EntityType
    /// The text as shown (as read).
    public var value: String
    /// The comparable form: E.164 phone, ISO-8601 date, `1234.50 EUR`, lower-cased e-mail…
    public var normalized: String
    /// UTF-8 byte offsets of ``value`` in the text.
    public var start: Int, end: Int

    public init(type: EntityType, value: String, normalized: String, start: Int, end: Int) {
        self.type = type
        self.value = value
        self.normalized = normalized
        self.start = start
        self.end = end
    }
}

/// A text's Unicode scalars with the UTF-8 offset of each (and of the end), for extractors that
/// walk scalars but report entities in UTF-8 offsets.
struct ScalarOffsets {
    let scalars: [Unicode.Scalar]
    /// `utf8[i]` is where `scalars[i]` starts; the last element is the text's UTF-8 length.
    let utf8: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var offsets: [Int] = [], offset = 0
        offsets.reserveCapacity(scalars.count + 1)
        for scalar in scalars { offsets.append(offset); offset += UTF8.width(scalar) }
        offsets.append(offset)
        utf8 = offsets
    }

    /// The index of the scalar that starts at UTF-8 offset `target` (or the first after it).
    func scalarIndex(ofUTF8 target: Int) -> Int {
        var low = 0, high = utf8.count - 1
        while low < high { let mid = (low + high) / 2; if utf8[mid] < target { low = mid + 1 } else { high = mid } }
        return low
    }
}

/// Pattern matching over a text with UTF-8 offsets, shared by the extractors.
///
/// ICU's regular expressions (``ICURegex``, the engine of Foundation's `NSRegularExpression`)
/// rather than Swift `Regex`: on Linux they are several times faster for the alternations used
/// here, and extraction runs over every indexed text. A text searched many times is made a
/// ``UTF16Text`` once and passed as such.
struct TextMatcher {
    let regex: ICURegex

    init(_ pattern: String, caseInsensitive: Bool = false) {
        // The patterns are constants of this module: a bad one is a programming error.
        do { regex = try ICURegex(pattern, caseInsensitive: caseInsensitive) } catch { preconditionFailure("\(error)") }
    }

    /// A match: the whole range and each capture group (nil when it did not take part), as strings
    /// and UTF-8 offsets.
    struct Match {
        var text: String
        var start: Int, end: Int
        var groups: [String?]
        /// Each group's range in UTF-16 units (`NSNotFound` when it did not take part).
        var groupRanges: [NSRange] = []
        subscript(_ index: Int) -> String? { index < groups.count ? groups[index] : nil }

        /// A group's range as UTF-8 offsets into the text that was searched, worked out within the
        /// match (its cost is the match's length, not the text's).
        func range(_ index: Int) -> Range<Int>? {
            guard index < groupRanges.count, let group = groups[index], let whole = groupRanges.first,
                  case let offset = groupRanges[index].location - whole.location, offset >= 0 else { return nil }
            let start = self.start + String(decoding: Array(text.utf16.prefix(offset)), as: UTF16.self).utf8.count
            return start..<(start + group.utf8.count)
        }
    }

    /// The first match, or nil (the search stops there).
    func firstMatch(in text: String) -> Match? {
        firstMatch(in: UTF16Text(text))
    }

    func firstMatch(in text: UTF16Text) -> Match? {
        regex.results(in: text, range: text.whole, first: true).first.flatMap { match(of: $0, in: text) }
    }

    func match(of result: RegexResult, in text: UTF16Text) -> Match? {
        guard let range = text.utf8Range(result.range) else { return nil }
        let groups = result.ranges.map { $0.location == NSNotFound ? nil : text.substring(with: $0) }
        return Match(text: groups[0] ?? "", start: range.lowerBound, end: range.upperBound, groups: groups, groupRanges: result.ranges)
    }

    func matches(in text: String) -> [Match] {
        matches(in: UTF16Text(text))
    }

    func matches(in text: UTF16Text) -> [Match] {
        matches(in: text, within: [text.whole])
    }

    func matches(in text: String, within windows: [NSRange]) -> [Match] {
        matches(in: UTF16Text(text), within: windows)
    }

    /// The matches that start inside `windows` (UTF-16 ranges, sorted, not overlapping); the
    /// pattern's look-arounds see the text outside them. For patterns that can only match near
    /// a rare anchor (a month name), searching windows around the anchors costs a fraction of a
    /// scan of the whole text.
    func matches(in text: UTF16Text, within windows: [NSRange]) -> [Match] {
        var out: [Match] = []
        for window in windows {
            for result in regex.results(in: text, range: window, options: [.transparentBounds]) {
                if let made = match(of: result, in: text) { out.append(made) }
            }
        }
        return out
    }
}
