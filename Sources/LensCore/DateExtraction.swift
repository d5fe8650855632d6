import Foundation

/// Finds the dates people see on screens and normalizes them to ISO 8601: `2024-03-05`, or
/// `2024-03-05T14:30[:SS][+00:00]` when a time (and zone) is shown, or an interval
/// `2021-06-12/2021-06-14` for a range of days (`June 12-14, 2021`).
///
/// The grammar is built from parts rather than listed formats: a month is a name or an
/// abbreviation in any case, with or without a dot (`Sept.`, `DECEMBER`); a day may carry an
/// ordinal (`1st`, `04th`); parts are joined by spaces, commas, `-`, `/` or `of` and `in`
/// (`the 1st of March 2015`, `28 june in 2020`, `05-Aug-2016`, `2019/aug/01`). Numeric forms:
/// ISO and log timestamps, `2020/10/9`, `05.03.2024`, and `a/b/yyyy` or `a/b/yy`, month or day
/// first by region. git and RFC 2822 headers keep their zone. A date shown without a year
/// (`Tue May 9`, `December 27`, `Oct/2`) is resolved against `reference` (when the screenshot
/// was taken): the nearest such date on or before it, or with a weekday the nearest year whose
/// date falls on that weekday. Impossible dates (`31/02/2024`) are not dates.
public enum DateExtraction {
    /// Regions that write numeric dates month first; everywhere else the day comes first.
    static let monthFirstRegions: Set<String> = ["US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "VI", "UM"]

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let monthName = #"(?i:(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?))\.?(?![\p{L}])"#
    static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    static let weekday = #"(?i:(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(?:day|sday|nesday|rsday|urday|s|t|r|rs)?)\.?"#
    static let zone = #"(Z|UTC|GMT|[+-]\d{2}:?\d{2})"#
    static let day = #"(\d{1,2})(?!\d)(?i:st|nd|rd|th)?"#
    /// `at 2:30 PM`, `, 17:30`, `10:00:00`: hour, minute, second, meridiem.
    static let time = #"(?:,?\s+(?:at\s+|@\s*)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:\s?((?i:[ap]\.?m\.?)))?)?"#
    /// Between a day and a month, or a month and a year.
    static let joint = #"(?:\s*[,/-]\s*|\s+(?:of\s+|in\s+)?)"#

    /// Each form with the roles of its groups, tried in this order; earlier forms win overlaps.
    enum Form {
        case git, iso, yearMonthDay, yearMonthNameDay, monthDayYear, dayMonthYear, dotted, slashed, monthDay, dayMonth
        var needsMonthName: Bool { ![.iso, .yearMonthDay, .dotted, .slashed].contains(self) }
    }
    static let forms: [(Form, TextMatcher)] = [
        // Tue Mar 5 14:30:00 2024 +0000 (git), and with a comma before the year
        (.git, TextMatcher(#"(?<![\p{L}\p{N}])"# + weekday + #"\s+"# + monthName + #"\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s*,?\s*(\d{4})(?:\s+([+-]\d{4}))?\b"#)),
        (.iso, TextMatcher(#"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:\s?"# + zone + #")?)?(?![\d-])"#)),
        // 2020/10/9 [time] (not with dots: `2023.10.1` is a version more often than a date)
        (.yearMonthDay, TextMatcher(#"(?<![\d./])(\d{4})(/)(\d{1,2})/(\d{1,2})(?![\d./]\d)"# + time)),
        // 2019/aug/01, 2019-Aug-01, 2019 Aug 1
        (.yearMonthNameDay, TextMatcher(#"(?<![\p{L}\p{N}])(\d{4})(?:\s*[-/]\s*|\s+)"# + monthName + #"(?:\s*[-/]\s*|\s+)(\d{1,2})(?![\p{N}:])"#)),
        // [Tue, ]Mar 5[-7][,] 2024[, at 2:30 PM]
        (.monthDayYear, TextMatcher(#"(?<![\p{L}\p{N}])(?:"# + weekday + #",?\s+)?"# + monthName + #"(?:,?\s+|\s*[-/]\s*)"# + day
                                    + #"(?:\s*[-–]\s*(\d{1,2})(?i:st|nd|rd|th)?)?(?:,?\s+(?:in\s+)?|\s*[,/-]\s*)(\d{4})(?![\p{N}])"# + time)),
        // [Tue, ]5[-7] March[,] 2024[ 14:30[ +0000]], 05-Aug-2016, the 1st of March 2015
        (.dayMonthYear, TextMatcher(#"(?<![\p{L}\p{N}.])(?:"# + weekday + #",?\s+)?(?:the\s+)?"# + day + #"(?:\s*[-–]\s*(\d{1,2})(?i:st|nd|rd|th)?)?"#
                                    + joint + monthName + joint + #"(\d{4})(?![\p{N}])(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+"# + zone + #")?)?"#)),
        (.dotted, TextMatcher(#"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?![\d.]\d)"#)),
        // 03/05/2024, 1/1/16 [9:02:43]
        (.slashed, TextMatcher(#"(?<![\d/.])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d/])"# + time)),
        // Without a year: [Tue ]May 9, Oct/2, October, 1st [at 10:00]
        (.monthDay, TextMatcher(#"(?<![\p{L}\p{N}])(?:"# + weekday + #",?\s+)?"# + monthName + #"(?:,?\s+|/)"# + day + #"(?![\p{N}:.,/-]\d|\p{L})"# + time)),
        // Without a year: [Tue ]9 May, 30 December, the 1st of March [15:00]
        (.dayMonth, TextMatcher(#"(?<![\p{L}\p{N}.:/-])(?:"# + weekday + #",?\s+)?(?:the\s+)?"# + day + #"(?:\s+of)?\s+"# + monthName + #"(?!\s*[,/-]?\s*\d{4})"# + time)),
    ]

    /// The dates in `text`; numeric `a/b/yyyy` dates are read month first in `region`'s custom
    /// (US) and day first elsewhere, unless only one reading is a real date. Dates without a year
    /// need `reference`; without it they are not found.
    /// `timeZone` is the one `reference` is read in (the screenshot's day is a local day).
    public static func entities(in text: String, region: String = "US", reference: Date? = nil,
                                timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> [Entity] {
        var found: [Entity] = []
        let context = Context(monthFirst: monthFirstRegions.contains(region.uppercased()), reference: reference.map { CalendarDay($0, timeZone: timeZone) })
        let searchable = UTF16Text(text)
        let whole = [searchable.whole]
        let nearMonths = monthWindows(in: searchable.units)
        for (form, matcher) in forms {
            let windows = form.needsMonthName ? nearMonths : whole
            guard !windows.isEmpty else { continue }
            for match in matcher.matches(in: searchable, within: windows) {
                guard !found.contains(where: { $0.start < match.end && match.start < $0.end }),
                      let normalized = normalize(match, form: form, context: context) else { continue }
                found.append(Entity(type: .date, value: match.text, normalized: normalized, start: match.start, end: match.end))
            }
        }
        return found.sorted { $0.start < $1.start }
    }

    /// UTF-16 windows around the words that start like a month name (`jan`…`dec`, any case):
    /// the forms that need one are searched only there.
    static func monthWindows(in units: [UInt16]) -> [NSRange] {
        func lower(_ u: UInt16) -> UInt16 { u >= 0x41 && u <= 0x5A ? u | 0x20 : u }
        func isLetter(_ u: UInt16) -> Bool { (u | 0x20) >= 0x61 && (u | 0x20) <= 0x7A || u >= 0xC0 }
        var windows: [NSRange] = []
        var index = 0
        while index + 2 < units.count {
            defer { index += 1 }
            guard isLetter(units[index]), index == 0 || !isLetter(units[index - 1]) else { continue }
            let key = (lower(units[index]), lower(units[index + 1]), lower(units[index + 2]))
            guard monthPrefixes.contains(where: { $0 == key }) else { continue }
            // Room for a weekday, a day range and "the … of" before; a day, year and time after.
            let start = max(0, index - 40), end = min(units.count, index + 60)
            if let last = windows.last, last.location + last.length >= start {
                windows[windows.count - 1].length = end - last.location
            } else {
                windows.append(NSRange(location: start, length: end - start))
            }
        }
        return windows
    }

    static let monthPrefixes: [(UInt16, UInt16, UInt16)] = months.map { name in
        let u = Array(name.utf16)
        return (u[0], u[1], u[2])
    }

    struct Context {
        var monthFirst: Bool
        var reference: CalendarDay?
    }

    /// A day in the proleptic Gregorian calendar.
    struct CalendarDay {
        var year: Int, month: Int, day: Int
        init(year: Int, month: Int, day: Int) { (self.year, self.month, self.day) = (year, month, day) }
        init(_ date: Date, timeZone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        }
        /// 0 = Sunday (Zeller's congruence, Gregorian).
        var weekday: Int {
            let m = month < 3 ? month + 12 : month, y = month < 3 ? year - 1 : year
            let h = (day + 13 * (m + 1) / 5 + y % 100 + (y % 100) / 4 + (y / 100) / 4 + 5 * (y / 100)) % 7
            return (h + 6) % 7
        }
    }

    static func normalize(_ m: TextMatcher.Match, form: Form, context: Context) -> String? {
        func int(_ i: Int) -> Int? { m[i].flatMap { Int($0) } }
        func month(_ i: Int) -> Int? {
            guard let name = m[i]?.lowercased().prefix(3) else { return nil }
            return months.firstIndex(of: String(name)).map { $0 + 1 }
        }
        func weekdayIndex(_ i: Int) -> Int? {
            m[i].flatMap { weekdayNames.firstIndex(of: String($0.lowercased().prefix(3))) }
        }
        switch form {
        case .git:
            return iso(year: int(7), month: month(2), day: int(3), hour: int(4), minute: int(5), second: int(6), zone: m[8])
        case .iso:
            return iso(year: int(1), month: int(2), day: int(3), hour: int(4), minute: int(5), second: int(6), zone: m[7])
        case .yearMonthDay:
            return iso(year: int(1), month: int(3), day: int(4), hour: twentyFourHour(int(5), m[8]), minute: int(6), second: int(7), zone: nil)
        case .yearMonthNameDay:
            return iso(year: int(1), month: month(2), day: int(3), hour: nil, minute: nil, second: nil, zone: nil)
        case .monthDayYear:
            return range(iso(year: int(5), month: month(2), day: int(3), hour: twentyFourHour(int(6), m[9]), minute: int(7), second: int(8),
                             zone: nil),
                         endDay: int(4), year: int(5), month: month(2))
        case .dayMonthYear:
            return range(iso(year: int(5), month: month(4), day: int(2), hour: int(6), minute: int(7), second: int(8), zone: m[9]),
                         endDay: int(3), year: int(5), month: month(4))
        case .dotted:
            return iso(year: int(3), month: int(2), day: int(1), hour: int(4), minute: int(5), second: int(6), zone: nil)
        case .slashed:
            guard let a = int(1), let b = int(2), let written = m[3], var year = Int(written) else { return nil }
            if written.count == 2 {
                // Two-digit years: the century that puts the date at most ten years after the reference.
                let now = context.reference?.year ?? 2000
                year += (now / 100) * 100
                if year > now + 10 { year -= 100 }
            }
            let (month, day) = a > 12 ? (b, a) : b > 12 ? (a, b) : context.monthFirst ? (a, b) : (b, a)
            return iso(year: year, month: month, day: day, hour: twentyFourHour(int(4), m[7]), minute: int(5), second: int(6), zone: nil)
        case .monthDay:
            guard let reference = context.reference, let month = month(2), let day = int(3),
                  let year = year(month: month, day: day, weekday: weekdayIndex(1), before: reference) else { return nil }
            return iso(year: year, month: month, day: day, hour: twentyFourHour(int(4), m[7]), minute: int(5), second: int(6), zone: nil)
        case .dayMonth:
            guard let reference = context.reference, let month = month(3), let day = int(2),
                  let year = year(month: month, day: day, weekday: weekdayIndex(1), before: reference) else { return nil }
            return iso(year: year, month: month, day: day, hour: twentyFourHour(int(4), m[7]), minute: int(5), second: int(6), zone: nil)
        }
    }

    /// The year of a date shown without one: the nearest on or before `reference`; with a
    /// weekday, the nearest year (that one, the next, then earlier ones) where it falls on it.
    static func year(month: Int, day: Int, weekday: Int?, before reference: CalendarDay) -> Int? {
        let onOrBefore = (month, day) <= (reference.month, reference.day) ? reference.year : reference.year - 1
        let candidates = [onOrBefore, onOrBefore + 1] + (1...27).map { onOrBefore - $0 }
        for year in candidates where day <= daysIn(month: month, year: year) {
            guard let weekday else { return year }
            if CalendarDay(year: year, month: month, day: day).weekday == weekday { return year }
        }
        return nil
    }

    /// `2021-06-12` and an end day 14 → `2021-06-12/2021-06-14`.
    static func range(_ start: String?, endDay: Int?, year: Int?, month: Int?) -> String? {
        guard let start, let endDay else { return start }
        guard let end = iso(year: year, month: month, day: endDay, hour: nil, minute: nil, second: nil, zone: nil),
              end > String(start.prefix(10)) else { return nil }
        return String(start.prefix(10)) + "/" + end
    }

    /// `2:30 PM` → 14; `12:24 AM` → 0; a 24-hour time as written; -1 (no valid hour, so the
    /// match is not a date) for `13:30 PM`.
    static func twentyFourHour(_ hour: Int?, _ meridiem: String?) -> Int? {
        guard let hour, let meridiem = meridiem?.lowercased().first else { return hour }
        guard (1...12).contains(hour) else { return -1 }
        return meridiem == "p" ? (hour % 12) + 12 : hour % 12
    }

    static func iso(year: Int?, month: Int?, day: Int?, hour: Int?, minute: Int?, second: Int?, zone: String?) -> String? {
        guard let year, let month, let day, (1...12).contains(month), (1900...2199).contains(year),
              day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var out = String(format: "%04d-%02d-%02d", year, month, day)
        guard let hour, let minute else { return out }
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second ?? 0) else { return nil }
        out += String(format: "T%02d:%02d", hour, minute)
        if let second { out += String(format: ":%02d", second) }
        if let zone { out += isoZone(zone) }
        return out
    }

    /// `+0000`, `Z`, `UTC`, `GMT` → `+00:00`; `-0530` → `-05:30`.
    static func isoZone(_ zone: String) -> String {
        let digits = zone.filter(\.isNumber)
        guard let sign = zone.first, sign == "+" || sign == "-", digits.count == 4 else { return "+00:00" }
        return "\(sign)\(digits.prefix(2)):\(digits.suffix(2))"
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
