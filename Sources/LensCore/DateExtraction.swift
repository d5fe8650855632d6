import Foundation

/// Finds the dates people see on screens and normalizes them to ISO 8601: `2024-03-05`, or
/// `2024-03-05T14:30[:SS][+00:00]` when a time (and zone) is shown.
///
/// Formats: ISO and log timestamps (`2024-12-19 04:11:22`), numeric `03/05/2024` (month or day
/// first by region), `05.03.2024 [12:29]`, `5 March 2024`, `Mar 5, 2024`,
/// `Tue, Mar 5, 2024 at 2:30 PM`, RFC 2822 (`Tue, 05 Mar 2024 14:30:00 +0000`) and git
/// (`Tue Mar 5 14:30:00 2024 +0000`). Impossible dates (`31/02/2024`) are not dates.
public enum DateExtraction {
    /// Regions that write numeric dates month first; everywhere else the day comes first.
    static let monthFirstRegions: Set<String> = ["US", "PH", "FM", "MH", "PW", "AS", "GU", "MP", "PR", "VI", "UM"]

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let monthName = #"(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"#
    static let weekday = #"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\.?"#
    static let zone = #"(Z|UTC|GMT|[+-]\d{2}:?\d{2})"#

    /// Each form with the roles of its groups, tried in this order; earlier forms win overlaps.
    enum Form { case git, iso, monthDayYear, dayMonthYear, dotted, slashed }
    static let forms: [(Form, TextMatcher)] = [
        (.git, TextMatcher(#"\b"# + weekday + #"\s+"# + monthName + #"\s+(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})\s+(\d{4})(?:\s+([+-]\d{4}))?\b"#)),
        (.iso, TextMatcher(#"\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(?:\s?"# + zone + #")?)?(?![\d-])"#)),
        (.monthDayYear, TextMatcher(#"\b(?:"# + weekday + #",?\s+)?"# + monthName + #"\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:,?\s+(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s?([AaPp][Mm]))?)?\b"#)),
        (.dayMonthYear, TextMatcher(#"\b(?:"# + weekday + #",?\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+"# + monthName + #",?\s+(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s+"# + zone + #")?)?\b"#)),
        (.dotted, TextMatcher(#"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?(?![\d.]\d)"#)),
        (.slashed, TextMatcher(#"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])"#)),
    ]

    /// The dates in `text`; numeric `a/b/yyyy` dates are read month first in `region`'s custom
    /// (US) and day first elsewhere, unless only one reading is a real date.
    public static func entities(in text: String, region: String = "US") -> [Entity] {
        var found: [Entity] = []
        for (form, matcher) in forms {
            for match in matcher.matches(in: text) {
                guard !found.contains(where: { $0.start < match.end && match.start < $0.end }),
                      let normalized = normalize(match, form: form, region: region) else { continue }
                found.append(Entity(type: .date, value: match.text, normalized: normalized, start: match.start, end: match.end))
            }
        }
        return found.sorted { $0.start < $1.start }
    }

    static func normalize(_ m: TextMatcher.Match, form: Form, region: String) -> String? {
        func int(_ i: Int) -> Int? { m[i].flatMap { Int($0) } }
        func month(_ i: Int) -> Int? {
            guard let name = m[i]?.lowercased().prefix(3) else { return nil }
            return months.firstIndex(of: String(name)).map { $0 + 1 }
        }
        switch form {
        case .git:
            return iso(year: int(6), month: month(1), day: int(2), hour: int(3), minute: int(4), second: int(5), zone: m[7])
        case .iso:
            return iso(year: int(1), month: int(2), day: int(3), hour: int(4), minute: int(5), second: int(6), zone: m[7])
        case .monthDayYear:
            return iso(year: int(3), month: month(1), day: int(2), hour: twentyFourHour(int(4), m[7]), minute: int(5),
                       second: int(6), zone: nil)
        case .dayMonthYear:
            return iso(year: int(3), month: month(2), day: int(1), hour: int(4), minute: int(5), second: int(6), zone: m[7])
        case .dotted:
            return iso(year: int(3), month: int(2), day: int(1), hour: int(4), minute: int(5), second: int(6), zone: nil)
        case .slashed:
            guard let a = int(1), let b = int(2) else { return nil }
            let monthFirst = monthFirstRegions.contains(region.uppercased())
            let (month, day) = a > 12 ? (b, a) : b > 12 ? (a, b) : monthFirst ? (a, b) : (b, a)
            return iso(year: int(3), month: month, day: day, hour: nil, minute: nil, second: nil, zone: nil)
        }
    }

    /// `2:30 PM` → 14; `12:24 AM` → 0; a 24-hour time as written; -1 (no valid hour, so the
    /// match is not a date) for `13:30 PM`.
    static func twentyFourHour(_ hour: Int?, _ meridiem: String?) -> Int? {
        guard let hour, let meridiem = meridiem?.uppercased() else { return hour }
        guard (1...12).contains(hour) else { return -1 }
        return meridiem == "PM" ? (hour % 12) + 12 : hour % 12
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
