import Foundation
import LensCore
import PostgresNIO

extension PostgresStore {
    /// `lens stats` on a shared library: the SQLite store's figures, computed by the server (the
    /// facets' folder and type counts, months in UTC as SQLite's `strftime` gives them).
    func statistics(counts: [QueueState: Int]) throws -> CollectionStatistics {
        let facets = try facets()
        return try withSession { session in
            func count(_ query: PostgresQuery) throws -> Int { Int(try session.value(query, as: Int64.self) ?? 0) }
            let byMonth = try session.rows("""
                SELECT to_char(to_timestamp(captured_at) AT TIME ZONE 'UTC', 'YYYY-MM') AS k, count(*) AS n
                FROM screenshot GROUP BY k ORDER BY k DESC
                """).map { CollectionStatistics.Count(key: try $0.get("k"), count: Int(try $0.get("n", as: Int64.self))) }
            let times = try session.rows("""
                SELECT recognized_at FROM screenshot WHERE recognized_at IS NOT NULL
                ORDER BY recognized_at DESC LIMIT \(Int64(LensDatabase.lastRunLimit))
                """).map { try $0.get("recognized_at", as: Double.self) }
            let run = LensDatabase.lastRun(of: times)
            return CollectionStatistics(
                screenshots: facets.screenshots, done: counts[.done] ?? 0, queued: (counts[.queued] ?? 0) + (counts[.running] ?? 0),
                failed: counts[.failed] ?? 0,
                poisoned: try count("SELECT count(*) FROM screenshot WHERE state = 'failed' AND crashes >= \(Int32(LensDatabase.poisonCrashCount))"),
                withText: try count("""
                    SELECT count(*) FROM screenshot_text t JOIN screenshot s ON s.id = t.id AND s.state = 'done'
                    WHERE t.body ~ '[A-Za-z0-9]'
                    """),
                withEntities: try count("SELECT count(DISTINCT screenshot_id) FROM entity"),
                byEntityType: facets.types, byFolder: facets.folders, byMonth: byMonth,
                meanOCRSeconds: try session.value("SELECT avg(ocr_seconds) FROM screenshot WHERE state = 'done' AND ocr_seconds IS NOT NULL",
                                                  as: Double.self),
                lastRunImages: run.images, lastRunImagesPerSecond: run.perSecond, databaseBytes: databaseBytes())
        }
    }
}
