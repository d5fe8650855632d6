import Foundation
import GRDB

/// A summary of the collection, for `lens stats`.
public struct CollectionStatistics: Sendable, Equatable, Encodable {
    public struct Count: Sendable, Equatable, Encodable {
        public var key: String
        public var count: Int
    }

    public var screenshots: Int
    public var done: Int
    public var queued: Int
    public var failed: Int
    /// Failed because recognizing them crashed the process twice.
    public var poisoned: Int
    /// Recognized screenshots with at least one letter or digit of text.
    public var withText: Int
    public var withEntities: Int
    /// Screenshots having at least one entity of each type.
    public var byEntityType: [Count]
    /// By the folder of their first present path, most first.
    public var byFolder: [Count]
    /// By the month they were taken (`2024-03`), newest first.
    public var byMonth: [Count]
    public var meanOCRSeconds: Double?
    /// The last run of recognitions (no gap over 60 s between two): images and images/s.
    public var lastRunImages: Int
    public var lastRunImagesPerSecond: Double?
    public var databaseBytes: Int
}

/// What the page's filters offer: folders, entity types and tags, each with its count.
public struct Facets: Sendable, Equatable, Encodable {
    public var folders: [CollectionStatistics.Count]
    public var types: [CollectionStatistics.Count]
    public var tags: [CollectionStatistics.Count]
    public var screenshots: Int
}

extension LensDatabase {
    /// The parts of ``statistics()`` the page's filters need, without reading any text.
    public func facets() throws -> Facets {
        if let postgres { return try postgres.facets() }
        return try writer().read { db in
            func pairs(_ sql: String) throws -> [CollectionStatistics.Count] {
                try Row.fetchAll(db, sql: sql).map { .init(key: $0["k"] ?? "", count: $0["n"]) }
            }
            return Facets(
                folders: try pairs(Self.byFolderSQL).map(Self.trimmingSlash),
                types: try pairs("SELECT type AS k, count(DISTINCT screenshot_id) AS n FROM entity GROUP BY type ORDER BY n DESC, k"),
                tags: try pairs("""
                    SELECT j.value AS k, count(*) AS n FROM screenshot_text t INDEXED BY screenshot_text_tags, json_each(t.tags) j
                    WHERE t.tags <> '[]' GROUP BY j.value ORDER BY n DESC, k
                    """),
                screenshots: try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot") ?? 0)
        }
    }

    /// Screenshots by the folder of their first present path.
    static let byFolderSQL = """
        SELECT rtrim(p.path, replace(p.path, '/', '')) AS k, count(*) AS n FROM screenshot s
        JOIN path p ON p.id = (SELECT id FROM path WHERE screenshot_id = s.id AND gone_at IS NULL ORDER BY first_seen_at LIMIT 1)
        GROUP BY k ORDER BY n DESC, k
        """

    static func trimmingSlash(_ count: CollectionStatistics.Count) -> CollectionStatistics.Count {
        CollectionStatistics.Count(key: count.key.count > 1 ? String(count.key.dropLast()) : count.key, count: count.count)
    }

    /// How many recognitions since which the last run (no gap over 60 s between two) made, and
    /// their rate; `times` are recognition times, newest first.
    static func lastRun(of times: [Double]) -> (images: Int, perSecond: Double?) {
        var run = times.isEmpty ? 0 : 1
        while run < times.count, times[run - 1] - times[run] <= 60 { run += 1 }
        let span = run > 1 ? times[0] - times[run - 1] : 0
        return (run, span > 0 ? Double(run) / span : nil)
    }

    /// The most recognition times the last run is looked for in.
    static let lastRunLimit = 100_000

    public func statistics() throws -> CollectionStatistics {
        let counts = try stateCounts()
        if let postgres { return try postgres.statistics(counts: counts) }
        return try writer().read { db in
            func pairs(_ sql: String) throws -> [CollectionStatistics.Count] {
                try Row.fetchAll(db, sql: sql).map { .init(key: $0["k"] ?? "", count: $0["n"]) }
            }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot") ?? 0
            let poisoned = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE state = 'failed' AND crashes >= ?",
                                            arguments: [Self.poisonCrashCount]) ?? 0
            // Text is stored deflated: read it through the view, once per screenshot.
            let withText = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM screenshot_content c JOIN screenshot s ON s.id = c.id AND s.state = 'done'
                WHERE c.text GLOB '*[A-Za-z0-9]*'
                """) ?? 0
            let withEntities = try Int.fetchOne(db, sql: "SELECT count(DISTINCT screenshot_id) FROM entity") ?? 0
            let byType = try pairs("SELECT type AS k, count(DISTINCT screenshot_id) AS n FROM entity GROUP BY type ORDER BY n DESC, k")
            let byFolder = try pairs(Self.byFolderSQL).map(Self.trimmingSlash)
            let byMonth = try pairs("""
                SELECT strftime('%Y-%m', captured_at, 'unixepoch') AS k, count(*) AS n FROM screenshot GROUP BY k ORDER BY k DESC
                """)
            let meanOCR = try Double.fetchOne(db, sql: "SELECT avg(ocr_seconds) FROM screenshot WHERE state = 'done' AND ocr_seconds IS NOT NULL")
            // The last run: walk back from the newest recognition while gaps stay under a minute.
            let run = Self.lastRun(of: try Double.fetchAll(db, sql: """
                SELECT recognized_at FROM screenshot WHERE recognized_at IS NOT NULL ORDER BY recognized_at DESC LIMIT \(Self.lastRunLimit)
                """))
            return CollectionStatistics(
                screenshots: total, done: counts[.done] ?? 0, queued: (counts[.queued] ?? 0) + (counts[.running] ?? 0),
                failed: counts[.failed] ?? 0, poisoned: poisoned, withText: withText, withEntities: withEntities,
                byEntityType: byType, byFolder: byFolder, byMonth: byMonth, meanOCRSeconds: meanOCR,
                lastRunImages: run.images, lastRunImagesPerSecond: run.perSecond, databaseBytes: fileSize())
        }
    }
}
