import LensCore
import LensPhone
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
