import Foundation
import LensCore
import PostgresNIO

/// What `lens watch` keeps of the files in the folders it watches, in PostgreSQL: paths that went
/// away, renames, and the paths under a folder (to reconcile with the disk at start).
extension PostgresStore {
    func markGone(path: String, now: Double) throws {
        try withSession { session in
            _ = try session.execute("UPDATE path SET gone_at = \(now) WHERE path = \(path) AND gone_at IS NULL")
        }
    }

    func movePath(from: String, to: String, size: Int, modifiedAt: Double, now: Double) throws -> Bool {
        try transaction { session in
            guard try session.value("SELECT 1 FROM path WHERE path = \(from)", as: Int32.self) != nil else { return false }
            _ = try session.execute("DELETE FROM path WHERE path = \(to)")
            _ = try session.execute("""
                UPDATE path SET path = \(to), size = \(Int64(size)), modified_at = \(modifiedAt), last_seen_at = \(now), gone_at = NULL
                WHERE path = \(from)
                """)
            return true
        }
    }

    /// Byte order (`COLLATE "C"`), as SQLite compares: `folder/` < a path inside < `folder0`.
    func livePaths(under folder: String) throws -> [String] {
        let range = LensDatabase.pathRange(inside: folder)
        return try withSession { session in
            try session.rows("""
                SELECT path FROM path WHERE gone_at IS NULL AND path > \(range.lower) COLLATE "C" AND path < \(range.upper) COLLATE "C"
                """).map { try $0.get("path", as: String.self) }
        }
    }
}
