import LensCore
import LensPhone
import Synchronization
import Testing

/// The extractor's reading of numbers beyond one region's matcher (see ``PhoneEvidence``), with
/// the real libphonenumber.
struct PhoneEvidenceTests {
    static let suffixes = PublicSuffixList(parsing: "com\nde\norg\nio\nfr\n")

    func phones(_ text: String, region: String = "US", fallback: [String] = []) -> [String] {
        EntityExtractor(region: region, fallbackRegions: fallback, suffixes: Self.suffixes, phoneFinder: PhoneNumberLibrary())
            .entities(in: text).filter { $0.type == .phone }.map(\.normalized)
    }

    /// A national number is read where the same text says it is from.
    @Test(arguments: [
        ("Mobile +49 30 9018 2000\nOffice 030 901820", ["+493090182000", "+4930901820"]),  // a number in international form
        ("Write to anna@lumen-optics.de or call 030 901820", ["+4930901820"]),            // a .de address
        ("Our Berlin office, Germany: 030 901820", ["+4930901820"]),                       // the country named
        ("Appelez le 01 42 68 53 00 (France)", ["+33142685300"]),
    ])
    func nationalNumbersByEvidence(text: String, expected: [String]) {
        #expect(phones(text) == expected)
    }

    @Test func withoutEvidenceANationalNumberNeedsTheConfiguredRegions() {
        #expect(phones("Call 030 901820 now").isEmpty)
        #expect(phones("Call 030 901820 now", fallback: ["FR", "DE"]) == ["+4930901820"])
        // A number of the default region keeps its reading whatever else the text says.
        #expect(phones("Call (415) 555-0132, Germany", fallback: ["DE"]) == ["+14155550132"])
    }

    /// Without evidence in the text, a national number is the one of its readings the library
    /// already holds in international form, and none when it holds none or several.
    @Test(arguments: [
        (Set(["+442079460018"]), ["+442079460018"]),
        (Set<String>(), []),
        (Set(["+14155550132"]), []),
    ])
    func nationalNumbersTheLibraryKnows(held: Set<String>, expected: [String]) {
        var extractor = EntityExtractor(region: "US", suffixes: Self.suffixes, phoneFinder: PhoneNumberLibrary())
        let asked = Mutex<[String]>([])
        extractor.knownPhoneNumbers = { numbers in
            asked.withLock { $0 = numbers }
            return held.intersection(numbers)
        }
        #expect(extractor.entities(in: "Tidewater Books\nTel: 020 7946 0018").filter { $0.type == .phone }.map(\.normalized) == expected)
        // Its readings are those of every country that groups numbers so, not of Britain alone.
        let readings = asked.withLock { $0 }
        #expect(readings.contains("+442079460018") && readings.count > 1, "\(readings)")
    }

    @Test func severalKnownReadingsAreNoAnswer() {
        let library = PhoneNumberLibrary()
        let readings = library.regionsWriting("020 7946 0018")
        #expect(readings.contains("GB") && readings.count > 1, "\(readings)")
        var extractor = EntityExtractor(region: "US", suffixes: Self.suffixes, phoneFinder: library)
        let all = Set(readings.flatMap { region in library.phoneNumbers(in: "020 7946 0018", region: region, exactGrouping: true).map(\.e164) })
        extractor.knownPhoneNumbers = { all.intersection($0) }
        #expect(extractor.entities(in: "Tel: 020 7946 0018").filter { $0.type == .phone }.isEmpty)
    }

    @Test(arguments: [
        ("Call +49 30\n901820 today", ["+4930901820"]),
        ("Phone: (415)\n555-0132", ["+14155550132"]),
    ])
    func numbersWrappedByTheLayoutAreJoined(text: String, expected: [String]) {
        #expect(phones(text) == expected)
    }

    @Test(arguments: ["Order 4417\n2024 total", "Fixed CVE-2026-106181 and CVE-2025-113176", "see RFC-2119555 today",
                      "build_2024010123", "chromium (136.0.7103.92-1) unstable", "gcc-12 (12-20211117-1) experimental",
                      "Closes: #928512, Germany", "commit 2164b4989504d1468 in Berlin, Germany"])
    func identifiersAndSeparateLinesAreNotNumbers(text: String) {
        #expect(phones(text).isEmpty, "\(phones(text))")
    }
}
