import LensCore
import Testing

/// File names that are not UTF-8 round-trip through text.
struct SystemPathTests {
    @Test(arguments: [
        ([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x70, 0x6E, 0x67], "caf\\xE9.png"),      // Latin-1 é
        ([0x2F, 0x74, 0x6D, 0x70, 0x2F, 0xFF, 0xFE], "/tmp/\\xFF\\xFE"),
        ([0xC3, 0x28], "\\xC3("),                                                  // a lead byte without its continuation
        ([0xED, 0xA0, 0x80], "\\xED\\xA0\\x80"),                                   // an encoded surrogate
        ([0xC0, 0xAF], "\\xC0\\xAF"),                                              // an overlong slash
        ([0xF4, 0x8F, 0xBE, 0x80], "\\xF4\\x8F\\xBE\\x80"),                        // a real U+10FF80: escaped, so the mapping is one-to-one
    ] as [([UInt8], String)])
    func namesThatAreNotUTF8RoundTrip(bytes: [UInt8], shown: String) {
        let text = SystemPath.string(fromBytes: bytes)
        #expect(SystemPath.bytes(of: text) == bytes)
        #expect(SystemPath.isEscaped(text))
        #expect(SystemPath.visible(text) == shown)
        #expect(text.withSystemPath { pointer in (0..<bytes.count).map { UInt8(bitPattern: pointer[$0]) } } == bytes)
    }

    @Test func utf8NamesAreUnchanged() {
        for name in ["/home/u/Pictures/Screenshot 2024-03-05 at 10.14.png", "Café Lumière.png", "東京.png", "😀.png", ""] {
            #expect(SystemPath.string(fromBytes: Array(name.utf8)) == name)
            #expect(SystemPath.bytes(of: name) == Array(name.utf8))
            #expect(!SystemPath.isEscaped(name))
            #expect(SystemPath.visible(name) == name)
        }
    }

    @Test func everyByteStringRoundTrips() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let length = Int(state % 24)
            let bytes = (0..<length).map { i -> UInt8 in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                // Mostly high bytes, so that valid and broken sequences mix.
                return UInt8(truncatingIfNeeded: i % 3 == 0 ? state % 128 : 0x80 | state % 128)
            }.filter { $0 != 0 }
            #expect(SystemPath.bytes(of: SystemPath.string(fromBytes: bytes)) == bytes, "\(bytes)")
        }
    }
}
