import CICU
import Foundation
import Synchronization

/// A regular expression of ICU (Debian's libicu, through ``CICU``), searched over a ``UTF16Text``.
///
/// Why not `NSRegularExpression`: on Linux it copies the searched string to UTF-16 for every
/// search (see ``UTF16Text``); ICU's C API searches units Lens already holds. It is the engine
/// `NSRegularExpression` wraps (Foundation bundles ICU 76, Debian 12 has 72), with the same
/// pattern syntax, options and bounds: the secret scan's masks on 267,000 texts did not change
/// (round 155), and `ICURegexTests` compares the two.
///
/// A compiled pattern is shared; a search needs a matcher of its own (it holds the text and the
/// position), cloned from the pattern once and kept for the next search, as CoreFoundation does.
final class ICURegex: @unchecked Sendable {
    // (@unchecked: `template` is only read, by `uregex_clone`, which ICU allows from any thread;
    // the idle matchers are behind the mutex.)
    private let template: OpaquePointer
    private let idle = Mutex<[Matcher]>([])
    /// A clone of the pattern that one search at a time uses.
    private struct Matcher: @unchecked Sendable { let pointer: OpaquePointer }
    /// How many capture groups the pattern has.
    let groupCount: Int

    struct Error: Swift.Error, CustomStringConvertible {
        let pattern: String
        let code: Int32
        var description: String { "ICU could not compile the pattern (error \(code)): \(pattern)" }
    }

    struct Options: OptionSet, Sendable {
        let rawValue: Int
        /// Only a match that starts where the searched range does (with `first`).
        static let anchored = Options(rawValue: 1)
        /// Look-arounds and `\b` see the text outside the searched range.
        static let transparentBounds = Options(rawValue: 2)
        /// `^` and `$` do not match at the searched range's ends (only at the text's and lines').
        static let withoutAnchoringBounds = Options(rawValue: 4)
    }

    /// How many UTF-16 units on either side of a searched range ``results(in:range:options:first:)``
    /// lets the pattern's look-arounds and anchors see (no pattern of Lens looks further): a
    /// search of a window costs the window, not the text.
    static let searchContext = 256

    init(_ pattern: String, caseInsensitive: Bool = false) throws(Error) {
        let units = Array(pattern.utf16)
        var status: Int32 = 0
        guard let compiled = lens_icu_regex_open(units, Int32(units.count), caseInsensitive ? 1 : 0, &status) else {
            throw Error(pattern: pattern, code: status)
        }
        template = compiled
        groupCount = Int(lens_icu_regex_group_count(compiled, &status))
    }

    deinit {
        idle.withLock { matchers in matchers.forEach { lens_icu_regex_close($0.pointer) } }
        lens_icu_regex_close(template)
    }

    /// The matches inside `range` of `text` (UTF-16 units), each with its groups' ranges; with
    /// `first`, at most one.
    func results(in text: UTF16Text, range: NSRange, options: Options = [], first: Bool = false) -> [RegexResult] {
        precondition(!options.contains(.anchored) || first, "an anchored search takes the first match only")
        // The units the matcher sees, as CoreFoundation gives them to ICU: with transparent bounds,
        // the range and `searchContext` units around it; otherwise the range alone (and a unit
        // on either side without anchoring bounds). (ICU's opaque bounds alone let a look-behind
        // see before the range.)
        var from = range.location, to = NSMaxRange(range)
        if options.contains(.transparentBounds) {
            from = 0
            to = text.length
            if text.length > Self.searchContext, range != text.whole {
                from = max(0, range.location - Self.searchContext)
                to = min(text.length, NSMaxRange(range) + Self.searchContext)
            }
        } else if options.contains(.withoutAnchoringBounds) {
            from = max(0, from - 1)
            to = min(text.length, to + 1)
        }
        // (Not between the two halves of a surrogate pair.)
        if from > 0, from < range.location, (0xDC00...0xDFFF).contains(text.units[from]) { from -= 1 }
        if to < text.length, to > NSMaxRange(range), (0xDC00...0xDFFF).contains(text.units[to]) { to += 1 }
        let taken = idle.withLock { $0.popLast() } ?? clone()
        defer { idle.withLock { $0.append(taken) } }
        let matcher = taken.pointer
        var found: [RegexResult] = []
        var status: Int32 = 0
        func result() -> RegexResult {
            RegexResult(ranges: (0...groupCount).map { group in
                let start = Int(lens_icu_regex_start(matcher, Int32(group), &status))
                let end = Int(lens_icu_regex_end(matcher, Int32(group), &status))
                return start < 0 ? NSRange(location: NSNotFound, length: 0) : NSRange(location: start + from, length: end - start)
            })
        }
        // (Run while the units are pinned: ICU reads them by pointer.)
        func search(_ units: UnsafePointer<UInt16>) {
            lens_icu_regex_set_text(matcher, units, Int32(to - from), Int32(range.location - from), Int32(NSMaxRange(range) - from),
                                    options.contains(.transparentBounds) ? 1 : 0, options.contains(.withoutAnchoringBounds) ? 0 : 1, &status)
            guard status <= 0 else { return }
            if options.contains(.anchored) {
                if lens_icu_regex_looking_at(matcher, &status) != 0 { found.append(result()) }
            } else {
                while lens_icu_regex_find_next(matcher, &status) != 0 {
                    found.append(result())
                    if first { break }
                }
            }
        }
        text.units.withUnsafeBufferPointer { buffer in
            // (An empty array has no address; an empty text still needs one.)
            if let base = buffer.baseAddress { search(base + from) } else { withUnsafePointer(to: UInt16(0)) { search($0) } }
        }
        // (The matcher keeps no pointer into the units past this call.)
        withUnsafePointer(to: UInt16(0)) { empty in lens_icu_regex_set_text(matcher, empty, 0, 0, 0, 0, 1, &status) }
        return found
    }

    private func clone() -> Matcher {
        var status: Int32 = 0
        // (Cloning fails only when memory runs out.)
        guard let matcher = lens_icu_regex_clone(template, &status) else { fatalError("uregex_clone failed: \(status)") }
        return Matcher(pointer: matcher)
    }
}

