import Foundation

/// Parses the dates people type in filters (`--since 2024-03-05`, `--until yesterday`, `--since 7d`).
///
/// Pure: the caller passes the current time and the time zone, so results are reproducible in tests.
public enum DateBound {
    public enum Edge: Sendable { case start, end }

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var input: String
        public var description: String {
            "'\(input)' is not a date: use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS], today, yesterday, or a span such as 3d, 2w, 6m."
        }
    }

    /// The instant `input` denotes. A whole day resolves to its first instant for `.start`
    /// and to the first instant of the next day for `.end` (use it as an exclusive bound).
    public static func parse(_ input: String, edge: Edge, now: Date, timeZone: TimeZone) throws(ParseError) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let text = input.trimmingCharacters(in: .whitespaces).lowercased()
        func day(_ date: Date) -> Date {
            let start = calendar.startOfDay(for: date)
            return edge == .start ? start : calendar.date(byAdding: .day, value: 1, to: start)!
        }
        switch text {
        case "today": return day(now)
        case "yesterday": return day(calendar.date(byAdding: .day, value: -1, to: now)!)
        default: break
        }
        if let unit = text.last, let count = Int(text.dropLast()), count >= 0, count < 100_000 {
            let component: Calendar.Component? = switch unit {
            case "h": .hour
            case "d": .day
            case "w": .weekOfYear
            case "m": .month
            case "y": .year
            default: nil
            }
            if let component { return calendar.date(byAdding: component, value: -count, to: now)! }
        }
        let parts = text.split(separator: "t", maxSplits: 1).map(String.init)
        let ymd = parts.first?.split(separator: "-").compactMap { Int($0) } ?? []
        guard ymd.count == 3, (1...9999).contains(ymd[0]), (1...12).contains(ymd[1]), (1...31).contains(ymd[2]) else {
            throw ParseError(input: input)
        }
        var components = DateComponents(year: ymd[0], month: ymd[1], day: ymd[2])
        if parts.count == 2 {
            let hms = parts[1].split(separator: ":").compactMap { Int($0) }
            guard (2...3).contains(hms.count), (0...23).contains(hms[0]), (0...59).contains(hms[1]),
                  hms.count == 2 || (0...60).contains(hms[2]) else { throw ParseError(input: input) }
            components.hour = hms[0]
            components.minute = hms[1]
            components.second = hms.count == 3 ? hms[2] : 0
        }
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            throw ParseError(input: input)
        }
        return parts.count == 2 ? date : day(date)
    }
}
