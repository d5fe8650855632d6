import Foundation
@testable import LensCore
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

    /// 2024-06-15 (a Saturday), noon UTC: when the screenshot was taken.
    static let seen = Date(timeIntervalSince1970: 1_718_452_800)

    /// Forms beyond the corpus: ordinals, dotted and slashed month names, "of" and "in", ranges,
    /// two-digit years, year first with a month name, dates without a year.
    @Test(arguments: [
        ("Paid on 04th Jan 2019.", "04th Jan 2019", "2019-01-04"),
        ("October, 1st 2020 it was", "October, 1st 2020", "2020-10-01"),
        ("born 05-Aug-2016 in", "05-Aug-2016", "2016-08-05"),
        ("filed 2019/aug/01 late", "2019/aug/01", "2019-08-01"),
        ("on 28 june in 2020 we", "28 june in 2020", "2020-06-28"),
        ("the 1st of March 2015", "the 1st of March 2015", "2015-03-01"),
        ("DECEMBER 21, 2022", "DECEMBER 21, 2022", "2022-12-21"),
        ("Sept. 3, 2014 at 4:05 p.m.", "Sept. 3, 2014 at 4:05 p.m.", "2014-09-03T16:05"),
        ("The conference is June 12-14, 2021 in Boston.", "June 12-14, 2021", "2021-06-12/2021-06-14"),
        ("12-14 June 2021", "12-14 June 2021", "2021-06-12/2021-06-14"),
        ("2020/10/9 2:26 PM", "2020/10/9 2:26 PM", "2020-10-09T14:26"),
        ("due 1/1/16 sharp", "1/1/16", "2016-01-01"),
        ("Tue Jan 5 10:00:00,2021", "Tue Jan 5 10:00:00,2021", "2021-01-05T10:00:00"),
        // Without a year: the nearest such day on or before 2024-06-15.
        ("see you Tue May 9", "Tue May 9", "2023-05-09"),          // 9 May 2024 is a Thursday; 2023's a Tuesday
        ("on December 27 we met", "December 27", "2023-12-27"),
        ("30 December", "30 December", "2023-12-30"),
        ("Oct/2", "Oct/2", "2023-10-02"),
        ("Sept 1st and", "Sept 1st", "2023-09-01"),
        ("June 15 at 9:30 AM", "June 15 at 9:30 AM", "2024-06-15T09:30"),
        ("15 february 15:00", "15 february 15:00", "2024-02-15T15:00"),
    ])
    func moreFormsAreFound(text: String, shown: String, normalized: String) throws {
        let found = DateExtraction.entities(in: text, region: "US", reference: Self.seen)
        #expect(found.map(\.value) == [shown], "\(found)")
        #expect(found.first?.normalized == normalized)
    }

    @Test func theCaptureDayIsTheLocalDay() {
        // 2024-06-15 23:30 UTC is already June 16 in Tokyo: "June 16" is this year there, last year in UTC.
        let lateEvening = Date(timeIntervalSince1970: 1_718_494_200)
        #expect(DateExtraction.entities(in: "June 16", reference: lateEvening).map(\.normalized) == ["2023-06-16"])
        #expect(DateExtraction.entities(in: "June 16", reference: lateEvening, timeZone: TimeZone(identifier: "Asia/Tokyo")!)
            .map(\.normalized) == ["2024-06-16"])
    }

    @Test func datesWithoutAYearNeedWhenTheTextWasSeen() {
        #expect(DateExtraction.entities(in: "see you Tue May 9", reference: nil).isEmpty)
        #expect(DateExtraction.entities(in: "see you Tue May 9 2023", reference: nil).map(\.normalized) == ["2023-05-09"])
    }

    @Test(arguments: ["version 2023.10.1", "Mayor 5 votes", "May I come", "mar 32", "1/2/345", "12.-14.x",
                      "Sun 5 points", "Marketing 2024", "build 2024-1", "Dec 2024"])
    func notDatesEvenWithAReference(text: String) {
        #expect(DateExtraction.entities(in: text, region: "US", reference: Self.seen).isEmpty,
                "\(DateExtraction.entities(in: text, region: "US", reference: Self.seen))")
    }

    @Test func weekdaysAreCounted() {
        // Zeller's congruence against Foundation's calendar over ten years.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for offset in stride(from: 0, to: 3650, by: 37) {
            let date = Date(timeIntervalSince1970: 1_500_000_000 + Double(offset) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let day = DateExtraction.CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)
            #expect(day.weekday == parts.weekday! - 1)
        }
    }
}
