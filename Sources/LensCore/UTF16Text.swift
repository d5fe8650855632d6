import Foundation

/// A text as the UTF-16 units ICU searches (``ICURegex``), made once and shared by every search
/// of it, with what `NSString` offered the extractors (`length`, `character(at:)`,
/// `substring(with:)`) and the way back to UTF-8 offsets.
///
/// Why it exists: Foundation's `NSRegularExpression` on Linux copies the whole string to UTF-16,
/// one `character(at:)` call a unit, for every search, whatever its range. A screenshot's secret
/// scan runs about 75 searches; that copy was 8 % of its time (round 155). A scan makes this once.
final class UTF16Text: Sendable {
    let string: String
    let units: [UInt16]
    /// The UTF-8 offset of each UTF-16 offset (one more than the units; -1 inside a surrogate
    /// pair), or nil when the text is ASCII and the two are the same.
    private let utf8Offsets: [Int32]?

    init(_ string: String) {
        self.string = string
        let units = Array(string.utf16)
        self.units = units
        // (As many UTF-16 units as UTF-8 bytes only when every character is ASCII.)
        if units.count == string.utf8.count {
            utf8Offsets = nil
        } else {
            var offsets: [Int32] = []
            offsets.reserveCapacity(units.count + 1)
            var offset: Int32 = 0
            for scalar in string.unicodeScalars {
                offsets.append(offset)
                if scalar.value > 0xFFFF { offsets.append(-1) }
                offset += Int32(UTF8.width(scalar))
            }
            offsets.append(offset)
            utf8Offsets = offsets
        }
    }

    var length: Int { units.count }

    var whole: NSRange { NSRange(location: 0, length: units.count) }

    func character(at index: Int) -> UInt16 { units[index] }

    /// The text of `range` (UTF-16 units); half a surrogate pair at an end becomes U+FFFD.
    func substring(with range: NSRange) -> String {
        String(decoding: units[range.location..<NSMaxRange(range)], as: UTF16.self)
    }

    /// The UTF-8 offset of UTF-16 offset `index`, or nil inside a surrogate pair.
    func utf8Offset(_ index: Int) -> Int? {
        guard let utf8Offsets else { return index }
        let offset = utf8Offsets[index]
        return offset < 0 ? nil : Int(offset)
    }

    /// `range` (UTF-16 units) as UTF-8 offsets, or nil when an end splits a surrogate pair.
    func utf8Range(_ range: NSRange) -> Range<Int>? {
        guard let start = utf8Offset(range.location), let end = utf8Offset(NSMaxRange(range)) else { return nil }
        return start..<end
    }
}
