import CPhoneNumber
import LensCore

/// libphonenumber's matcher (leniency VALID): finds numbers written in any national or
/// international form and formats them as E.164.
public struct PhoneNumberLibrary: PhoneNumberFinding {
    public init() {}

    public func isSupported(region: String) -> Bool {
        lens_phone_is_supported_region(region) != 0
    }

    public func phoneNumbers(in text: String, region: String) -> [FoundPhoneNumber] {
        phoneNumbers(in: text, region: region, exactGrouping: false)
    }

    /// The text is searched a piece of whole lines at a time (``pieces(of:)``): libphonenumber's
    /// matcher turns the rest of its text into UTF-8 again for every candidate it tries
    /// (`PhoneNumberMatcher::Find` calls `text->ToString()`), so one search of a long text cost its
    /// length times its candidates, and a page of numbers the square of its length.
    public func phoneNumbers(in text: String, region: String, exactGrouping: Bool) -> [FoundPhoneNumber] {
        let utf8 = Array(text.utf8)
        return Self.pieces(of: utf8).flatMap { piece in
            let found = Self.filled(capacity: 16, of: lens_phone_match(), from: utf8[piece]) { chars, length, matches, capacity in
                lens_phone_find_grouped(chars, length, region, exactGrouping ? 1 : 0, matches, capacity)
            }
            return found.map { match in
                var match = match
                let e164 = withUnsafeBytes(of: &match.e164) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                let ext = withUnsafeBytes(of: &match.extension) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                let owner = withUnsafeBytes(of: &match.region) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                return FoundPhoneNumber(start: piece.lowerBound + Int(match.start), end: piece.lowerBound + Int(match.end), e164: e164,
                                        extensionNumber: ext.isEmpty ? nil : ext,
                                        region: owner.isEmpty || owner == "ZZ" ? nil : owner)
            }
        }
    }

    /// About how many bytes one search of the matcher reads.
    static let pieceSize = 1_024

    /// The text cut into pieces of about ``pieceSize`` bytes: after a line break, or else (a
    /// longer line) at a space with no digit on either side, or else (no such space) at a
    /// character's boundary. A number is read on one line (the ones wrapped across two are
    /// found apart), so no number is cut.
    static func pieces(of utf8: [UInt8]) -> [Range<Int>] {
        var pieces: [Range<Int>] = []
        var start = 0
        func isDigit(_ index: Int) -> Bool { index >= 0 && index < utf8.count && (0x30...0x39).contains(utf8[index]) }
        while start < utf8.count {
            var end = min(utf8.count, start + pieceSize)
            if end < utf8.count {
                if let lineBreak = utf8[start..<end].lastIndex(of: 0x0A), lineBreak > start {
                    end = lineBreak + 1
                } else if let space = utf8[(start + 1)..<end].lastIndex(where: { ($0 == 0x20 || $0 == 0x09) }),
                          case let gap = utf8[..<space].lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) ?? space,
                          !isDigit(gap), !isDigit(space + 1), utf8[space + 1] != 0x2B, utf8[space + 1] != 0x28 {
                    end = space + 1
                } else {
                    while end > start + 1, utf8[end] & 0xC0 == 0x80 { end -= 1 }
                }
            }
            pieces.append(start..<end)
            start = end
        }
        return pieces
    }

    public func regionsWriting(_ written: String) -> [String] {
        // Three bytes a code ("GB\0"): a region is a triple of chars.
        let codes = Self.filled(capacity: 32, of: (CChar(0), CChar(0), CChar(0)), from: written) { chars, length, out, capacity in
            out.withMemoryRebound(to: CChar.self, capacity: 3 * Int(capacity)) { lens_phone_grouped_regions(chars, length, $0, capacity) }
        }
        return codes.map { String(decoding: [UInt8(bitPattern: $0.0), UInt8(bitPattern: $0.1)], as: UTF8.self) }
    }

    /// Calls a C function of the shim that writes at most `capacity` results and returns how many
    /// there are in all (negative: an error), with more room until all fit.
    private static func filled<Result>(capacity: Int, of empty: Result, from text: String,
                                       _ call: (UnsafePointer<CChar>, Int, UnsafeMutablePointer<Result>, Int32) -> Int32) -> [Result] {
        filled(capacity: capacity, of: empty, from: Array(text.utf8)[...], call)
    }

    private static func filled<Result>(capacity: Int, of empty: Result, from bytes: ArraySlice<UInt8>,
                                       _ call: (UnsafePointer<CChar>, Int, UnsafeMutablePointer<Result>, Int32) -> Int32) -> [Result] {
        var utf8 = Array(bytes)
        guard !utf8.isEmpty else { return [] }
        var capacity = capacity
        while true {
            var results = [Result](repeating: empty, count: capacity)
            let found = Int(utf8.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    results.withUnsafeMutableBufferPointer { call(chars.baseAddress!, chars.count, $0.baseAddress!, Int32(capacity)) }
                }
            })
            guard found >= 0 else { return [] }
            guard found <= capacity else {
                capacity = found
                continue
            }
            return Array(results.prefix(found))
        }
    }

    /// How `e164` is written in its own country (`+442079460018` → `020 7946 0018`).
    public func nationalFormat(of e164: String) -> String? {
        formatted(e164, with: lens_phone_national_format)
    }

    /// `e164` grouped for reading, with its country code (`+14155550132` → `+1 415-555-0132`).
    public func internationalFormat(of e164: String) -> String? {
        formatted(e164, with: lens_phone_international_format)
    }

    private func formatted(_ e164: String, with format: (UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String? {
        var out = [CChar](repeating: 0, count: 64)
        guard format(e164, &out, out.count) != 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
