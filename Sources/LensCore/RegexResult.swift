import Foundation

/// A match of a regular expression: its ranges (the whole, then each group; `NSNotFound` for a
/// group that did not take part) in UTF-16 units of the text searched.
struct RegexResult {
    var ranges: [NSRange]
    var range: NSRange { ranges[0] }
    var numberOfRanges: Int { ranges.count }
    func range(at index: Int) -> NSRange { ranges[index] }

    init(_ result: NSTextCheckingResult, offset: Int = 0) {
        ranges = (0..<result.numberOfRanges).map { index in
            let range = result.range(at: index)
            return range.location == NSNotFound ? range : NSRange(location: range.location + offset, length: range.length)
        }
    }
}

extension NSRegularExpression {
    /// How many UTF-16 units on either side of a searched range ``results(in:_:options:range:first:)``
    /// lets the pattern's look-arounds and anchors see.
    static let searchContext = 256

    /// The matches inside `range` of `string` (`text` is the same as an `NSString`), as
    /// `matches(in:options:range:)` finds them, at a cost that follows the range rather than the
    /// text.
    ///
    /// Foundation's regular expressions on Linux copy the whole string to UTF-16 for every search,
    /// whatever the range (measured: 0.19 ms per search of a 32 KB text, 0.45 ms of 128 KB), so
    /// searching each of many lines of a long text cost the square of its length. Here only the
    /// range and ``searchContext`` units on either side are copied and searched; look-arounds see
    /// that far (no pattern of Lens looks further).
    func results(in string: String, _ text: NSString, options: MatchingOptions = [], range: NSRange, first: Bool = false) -> [RegexResult] {
        if range.location == 0, range.length == text.length || text.length <= Self.searchContext {
            if first { return firstMatch(in: string, options: options, range: range).map { [RegexResult($0)] } ?? [] }
            return matches(in: string, options: options, range: range).map { RegexResult($0) }
        }
        var from = max(0, range.location - Self.searchContext)
        var to = min(text.length, NSMaxRange(range) + Self.searchContext)
        // (Not between the two halves of a surrogate pair.)
        if from > 0, (0xDC00...0xDFFF).contains(text.character(at: from)) { from -= 1 }
        if to < text.length, (0xDC00...0xDFFF).contains(text.character(at: to)) { to += 1 }
        // (Cut from the Swift string: NSString's `substring(with:)` decodes UTF-16 again, several
        // times slower.)
        let piece = String(string[String.Index(utf16Offset: from, in: string)..<String.Index(utf16Offset: to, in: string)])
        let inPiece = NSRange(location: range.location - from, length: range.length)
        if first { return firstMatch(in: piece, options: options, range: inPiece).map { [RegexResult($0, offset: from)] } ?? [] }
        return matches(in: piece, options: options, range: inPiece).map { RegexResult($0, offset: from) }
    }
}
