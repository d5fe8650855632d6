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

    public func phoneNumbers(in text: String, region: String, exactGrouping: Bool) -> [FoundPhoneNumber] {
        var utf8 = Array(text.utf8)
        guard !utf8.isEmpty else { return [] }
        var capacity = 16
        while true {
            var matches = [lens_phone_match](repeating: lens_phone_match(), count: capacity)
            let found = utf8.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    lens_phone_find_grouped(chars.baseAddress, chars.count, region, exactGrouping ? 1 : 0, &matches, Int32(capacity))
                }
            }
            guard found >= 0 else { return [] }
            guard Int(found) <= capacity else {
                capacity = Int(found)
                continue
            }
            return matches.prefix(Int(found)).map { match in
                var match = match
                let e164 = withUnsafeBytes(of: &match.e164) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                let ext = withUnsafeBytes(of: &match.extension) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                let owner = withUnsafeBytes(of: &match.region) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                return FoundPhoneNumber(start: Int(match.start), end: Int(match.end), e164: e164,
                                        extensionNumber: ext.isEmpty ? nil : ext,
                                        region: owner.isEmpty || owner == "ZZ" ? nil : owner)
            }
        }
    }

    public func regionsWriting(_ written: String) -> [String] {
        var utf8 = Array(written.utf8)
        guard !utf8.isEmpty else { return [] }
        var capacity = 32
        while true {
            var codes = [CChar](repeating: 0, count: 3 * capacity)
            let count = Int(utf8.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    codes.withUnsafeMutableBytes { out in
                        lens_phone_grouped_regions(chars.baseAddress, chars.count, out.baseAddress!.assumingMemoryBound(to: (CChar, CChar, CChar).self),
                                                   Int32(capacity))
                    }
                }
            })
            guard count <= capacity else {
                capacity = count
                continue
            }
            return (0..<count).map { i in String(decoding: codes[(3 * i)..<(3 * i + 2)].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        }
    }

    /// How `e164` is written in its own country (`+442079460018` → `020 7946 0018`).
    public func nationalFormat(of e164: String) -> String? {
        var out = [CChar](repeating: 0, count: 64)
        guard lens_phone_national_format(e164, &out, out.count) != 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
