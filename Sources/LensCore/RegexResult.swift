import Foundation

/// A match of a regular expression: its ranges (the whole, then each group; `NSNotFound` for a
/// group that did not take part) in UTF-16 units of the text searched.
struct RegexResult {
    var ranges: [NSRange]
    var range: NSRange { ranges[0] }
    var numberOfRanges: Int { ranges.count }
    func range(at index: Int) -> NSRange { ranges[index] }
}
