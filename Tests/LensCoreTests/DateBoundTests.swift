import Foundation
import LensCore
import Testing

struct DateBoundTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let now = Date(timeIntervalSince1970: 1_709_596_800 + 15 * 3600) // 2024-03-05T15:00:00Z

    static func at(_ iso: String) -> Date { try! Date(iso, strategy: .iso8601) }

    @Test(arguments: [
        ("2024-03-05", DateBound.Edge.start, "2024-03-05T00:00:00Z"),
        ("2024-03-05", .end, "2024-03-06T00:00:00Z"),
        ("2024-02-29", .end, "2024-03-01T00:00:00Z"),
        ("2024-03-05T14:30", .start, "2024-03-05T14:30:00Z"),
        ("2024-03-05t14:30:15", .end, "2024-03-05T14:30:15Z"),
        ("today", .start, "2024-03-05T00:00:00Z"),
        ("yesterday", .end, "2024-03-05T00:00:00Z"),
        ("7d", .start, "2024-02-27T15:00:00Z"),
        ("2w", .start, "2024-02-20T15:00:00Z"),
        ("1m", .start, "2024-02-05T15:00:00Z"),
        ("3h", .start, "2024-03-05T12:00:00Z"),
    ])
    func parses(input: String, edge: DateBound.Edge, expected: String) throws {
        #expect(try DateBound.parse(input, edge: edge, now: Self.now, timeZone: Self.utc) == Self.at(expected))
    }

    @Test(arguments: ["", "2024-13-01", "2023-02-29", "2024-03-05T25:00", "05/03/2024", "last tuesday", "7x", "-3d", "2024-03"])
    func refuses(input: String) {
        #expect(throws: DateBound.ParseError.self) {
            try DateBound.parse(input, edge: .start, now: Self.now, timeZone: Self.utc)
        }
    }

    @Test func honorsTheTimeZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(try DateBound.parse("2024-03-05", edge: .start, now: Self.now, timeZone: berlin) == Self.at("2024-03-04T23:00:00Z"))
    }
}
