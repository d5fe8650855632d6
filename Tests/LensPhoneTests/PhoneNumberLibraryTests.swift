import LensCore
import LensPhone
import Testing

struct PhoneNumberLibraryTests {
    let library = PhoneNumberLibrary()

    /// Forms from the corpus generator: national, international, dashed, dotted, parenthesised, `(0)`.
    @Test(arguments: [
        ("Call (415) 555-0132 today", "US", "(415) 555-0132", "+14155550132"),
        ("Call +1 415-555-0132 today", "US", "+1 415-555-0132", "+14155550132"),
        ("Call 415.555.0132 today", "US", "415.555.0132", "+14155550132"),
        ("Ring +44 (0)20 7946 0018 now", "US", "+44 (0)20 7946 0018", "+442079460018"),
        ("Ring 020 7946 0018 now", "GB", "020 7946 0018", "+442079460018"),
        ("Tel. 089 6410349", "DE", "089 6410349", "+49896410349"),
        ("Tél : 06 15 95 05 01", "FR", "06 15 95 05 01", "+33615950501"),
        ("WhatsApp +91-95443-34129", "US", "+91-95443-34129", "+919544334129"),
    ])
    func numbersAreFoundAndNormalized(text: String, region: String, shown: String, e164: String) throws {
        let found = library.phoneNumbers(in: text, region: region)
        let number = try #require(found.first, "nothing found in \(text)")
        #expect(found.count == 1)
        #expect(number.e164 == e164)
        let utf8 = Array(text.utf8)
        #expect(String(decoding: utf8[number.start..<number.end], as: UTF8.self) == shown)
    }

    @Test func extensionsAreKept() throws {
        let number = try #require(library.phoneNumbers(in: "Desk: (415) 555-0132 ext. 204", region: "US").first)
        #expect(number.e164 == "+14155550132")
        #expect(number.extensionNumber == "204")
        #expect(number.region == "US")
    }

    @Test func offsetsAreUTF8BytesAfterAccentedText() throws {
        let text = "Crème brûlée — appelez le 06 15 95 05 01"
        let number = try #require(library.phoneNumbers(in: text, region: "FR").first)
        #expect(String(decoding: Array(text.utf8)[number.start..<number.end], as: UTF8.self) == "06 15 95 05 01")
    }

    @Test func manyNumbersAreAllReturned() {
        let text = (0..<40).map { "line \($0): (415) 555-01\(String(format: "%02d", $0))" }.joined(separator: "\n")
        #expect(library.phoneNumbers(in: text, region: "US").count == 40) // more than the first buffer holds
    }

    @Test func nonNumbersAndUnknownRegionsGiveNothing() {
        #expect(library.phoneNumbers(in: "order 4417, total 15.70, version 2.4.1", region: "US").isEmpty)
        #expect(library.phoneNumbers(in: "(415) 555-0132", region: "XX").isEmpty)
        #expect(library.phoneNumbers(in: "", region: "US").isEmpty)
        #expect(library.isSupported(region: "GB") && !library.isSupported(region: "XX"))
    }
}
