import LensCore
import Testing

struct DateExtractionTests {
    /// The formats of the corpus and the issue, each with the region it was written for.
    @Test(arguments: [
        ("due 2024-03-05.", "US", "2024-03-05", "2024-03-05"),
        ("2024-12-19 04:11:22 INFO ocr worker started", "US", "2024-12-19 04:11:22", "2024-12-19T04:11:22"),
        ("at 2024-05-04T00:50Z", "US", "2024-05-04T00:50Z", "2024-05-04T00:50+00:00"),
        ("on 03/05/2024 we", "US", "03/05/2024", "2024-03-05"),
        ("on 03/05/2024 we", "GB", "03/05/2024", "2024-05-03"),
        ("on 09/23/2025 we", "GB", "09/23/2025", "2025-09-23"), // only one reading is a date
        ("am 05.03.2024 um", "DE", "05.03.2024", "2024-03-05"),
        ("03.10.2023 12:29 Uhr", "DE", "03.10.2023 12:29", "2023-10-03T12:29"),
        ("born 5 March 2024", "US", "5 March 2024", "2024-03-05"),
        ("Fri, 20 Sep 2024", "US", "Fri, 20 Sep 2024", "2024-09-20"),
        ("sent Mar 5, 2024", "US", "Mar 5, 2024", "2024-03-05"),
        ("September 6, 2024 —", "US", "September 6, 2024", "2024-09-06"),
        ("On Tue, Mar 5, 2024 at 2:30 PM, Priya wrote", "US", "Tue, Mar 5, 2024 at 2:30 PM", "2024-03-05T14:30"),
        ("Sat, Oct 5, 2024 at 12:24 AM", "US", "Sat, Oct 5, 2024 at 12:24 AM", "2024-10-05T00:24"),
        ("Date: Tue, 26 Sep 2023 07:38:15 +0000", "US", "Tue, 26 Sep 2023 07:38:15 +0000", "2023-09-26T07:38:15+00:00"),
        ("Date:   Thu Apr 6 02:06:14 2023 +0000", "US", "Thu Apr 6 02:06:14 2023 +0000", "2023-04-06T02:06:14+00:00"),
        ("Date:   Wed May 7 14:48:26 2025 -0530", "US", "Wed May 7 14:48:26 2025 -0530", "2025-05-07T14:48:26-05:30"),
        ("leap 29/02/2024 ok", "GB", "29/02/2024", "2024-02-29"),
    ])
    func datesAreFoundAndNormalized(text: String, region: String, shown: String, normalized: String) throws {
        let found = DateExtraction.entities(in: text, region: region)
        #expect(found.count == 1, "\(found)")
        let date = try #require(found.first)
        #expect(date.value == shown)
        #expect(date.normalized == normalized)
        #expect(String(decoding: Array(text.utf8)[date.start..<date.end], as: UTF8.self) == shown)
    }

    @Test(arguments: ["31/02/2024", "2024-13-01", "version 2.4.1", "192.168.1.10", "12/2024", "10:30", "1.2.3.2024",
                      "Mar 32, 2024", "Tue, Mar 5, 2024 at 13:30 PM"])
    func nonDatesAreNotDates(text: String) {
        #expect(DateExtraction.entities(in: text, region: "GB").isEmpty, "\(DateExtraction.entities(in: text, region: "GB"))")
    }

    @Test func aLogTailGivesOneDatePerLine() {
        let log = (0..<5).map { "2024-12-19 04:1\($0):22 INFO job \($0) done" }.joined(separator: "\n")
        #expect(DateExtraction.entities(in: log).map(\.normalized) == (0..<5).map { "2024-12-19T04:1\($0):22" })
    }
}
