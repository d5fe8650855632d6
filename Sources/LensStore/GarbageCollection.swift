import Foundation
import GRDB

/// What `lens gc` removed, or would remove.
public struct GarbageReport: Sendable, Equatable {
    public struct Removed: Sendable, Equatable {
        public var id: Int64
        public var paths: [String]
    }

    public var removed: [Removed]
    public var bytesBefore: Int
    public var bytesAfter: Int
    /// Whether the file was rewritten (`VACUUM`) to give the space back.
    public var vacuumed: Bool
}

extension LensDatabase {
    /// Removes the screenshots whose every path has been gone since before `goneBefore` (seconds
    /// since 1970): their text, index rows, entities, codes and edges go with them (foreign keys
    /// cascade; the FTS trigger removes what it indexed). Then merges the full-text index and,
    /// when a fifth or more of the file is free pages, runs `VACUUM`. With `dryRun`, only reports.
    /// On PostgreSQL the database's size is reported before and after; its space is reused, not
    /// given back (no `VACUUM FULL` of a shared library).
    public func collectGarbage(goneBefore: Double, dryRun: Bool) throws -> GarbageReport {
        if let postgres { return try postgres.collectGarbage(goneBefore: goneBefore, dryRun: dryRun) }
        let before = fileSize()
        let removed = try writer().write { db -> [GarbageReport.Removed] in
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.id, group_concat(p.path, char(10)) AS paths FROM screenshot s JOIN path p ON p.screenshot_id = s.id
                GROUP BY s.id HAVING count(p.gone_at) = count(*) AND max(p.gone_at) < ? ORDER BY s.id
                """, arguments: [goneBefore])
            let found = rows.map { GarbageReport.Removed(id: $0["id"], paths: (($0["paths"] as String?) ?? "").split(separator: "\n").map(String.init)) }
            if !dryRun {
                for item in found { try db.execute(sql: "DELETE FROM screenshot WHERE id = ?", arguments: [item.id]) }
            }
            return found
        }
        guard !dryRun, !removed.isEmpty else { return GarbageReport(removed: removed, bytesBefore: before, bytesAfter: before, vacuumed: false) }
        try writer().write(Self.mergeSearchIndex)
        let (free, total) = try writer().read { db in
            (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0, try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1)
        }
        var vacuumed = false
        if free * 5 >= total {
            try writer().barrierWriteWithoutTransaction { db in try db.execute(sql: "VACUUM") }
            vacuumed = true
        }
        try checkpoint()
        return GarbageReport(removed: removed, bytesBefore: before, bytesAfter: fileSize(), vacuumed: vacuumed)
    }
}

extension LensDatabase {
    /// Merges the full-text index into one segment when a tenth or more of it lies outside its
    /// largest segment; says whether it did.
    ///
    /// FTS5 writes a segment per transaction and merges them only four at a time (`automerge`),
    /// so a library indexed one screenshot at a time holds some 20 segments, and every query
    /// term is looked up and walked in each (searches 10 % slower at 100,000 screenshots than
    /// with one). A full merge (`optimize`) rewrites the index (1.6 s at 100,000): done after
    /// the library has grown by a tenth, it costs about ten rewrites of the index over a
    /// library's life. Every segment has at least one row in `screenshot_fts_idx`, one per
    /// leaf page that starts a term, which measures the segments.
    @discardableResult
    public func mergeSearchIndexIfFragmented() throws -> Bool {
        if postgres != nil { return false }
        let pages = try writer().read { db in
            try Int.fetchAll(db, sql: "SELECT count(*) FROM screenshot_fts_idx GROUP BY segid")
        }
        let total = pages.reduce(0, +), largest = pages.max() ?? 0
        guard pages.count > 1, (total - largest) * 10 >= total else { return false }
        try writer().write(Self.mergeSearchIndex)
        return true
    }

    /// FTS5's `optimize`: every segment of the index merged into one, deleted entries dropped.
    static func mergeSearchIndex(in db: Database) throws {
        try db.execute(sql: "INSERT INTO screenshot_fts(screenshot_fts) VALUES ('optimize')")
    }
}
