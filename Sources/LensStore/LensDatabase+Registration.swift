import Foundation
import GRDB
import LensCore

/// Files seen on disk: contents by hash, the paths holding them.
extension LensDatabase {
    // MARK: - Registering files

    /// Records that a file with known content was seen at a path.
    ///
    /// New content is queued for OCR; known content (the same bytes anywhere) only gains the path.
    /// A path that now holds different bytes moves to the new content.
    /// With `batch`, new content is recorded as that batch's (so `lens undo` can take it out).
    /// Registering content that was removed on purpose brings it back: the caller decides whether
    /// to (``wasRemoved(sha256:)``).
    public func register(_ file: FileObservation, batch: Int64? = nil) throws -> Registration {
        if let postgres { return try postgres.register(file, batch: batch) }
        return try writer().write { db in
            let now = file.seenAt
            if let row = try Row.fetchOne(db, sql: "SELECT id, state, last_error FROM screenshot WHERE sha256 = ?",
                                          arguments: [file.sha256]) {
                let id: Int64 = row["id"]
                let existing = try Row.fetchOne(db, sql: "SELECT screenshot_id, gone_at FROM path WHERE path = ?",
                                                arguments: [file.path])
                let isNewPath = existing == nil || existing?["screenshot_id"] != id
                try Self.upsertPath(db, file, screenshotID: id, now: now)
                return .known(id: id, state: QueueState(rawValue: row["state"]) ?? .queued,
                              lastError: row["last_error"], isNewPath: isNewPath)
            }
            try db.execute(sql: """
                INSERT INTO screenshot (sha256, byte_count, format, captured_at, imported_at)
                VALUES (?, ?, ?, ?, ?)
                """, arguments: [file.sha256, file.size, file.format.rawValue, file.modifiedAt, now])
            let id = db.lastInsertedRowID
            try Self.upsertPath(db, file, screenshotID: id, now: now)
            try db.execute(sql: "DELETE FROM removed_content WHERE sha256 = ?", arguments: [file.sha256])
            if let batch {
                try db.execute(sql: "INSERT OR IGNORE INTO batch_item (batch_id, sha256) VALUES (?, ?)", arguments: [batch, file.sha256])
            }
            return .added(id: id)
        }
    }

    static func upsertPath(_ db: Database, _ file: FileObservation, screenshotID: Int64, now: Double) throws {
        try db.execute(sql: """
            INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(path) DO UPDATE SET
                screenshot_id = excluded.screenshot_id, size = excluded.size,
                modified_at = excluded.modified_at, last_seen_at = excluded.last_seen_at, gone_at = NULL
            """, arguments: [screenshotID, file.path, file.size, file.modifiedAt, now, now])
    }

    /// The screenshot already recorded at `path` if the file's size and modification time are
    /// unchanged since then, so re-scanning a folder need not re-hash every file.
    public func unchangedScreenshot(atPath path: String, size: Int, modifiedAt: Double) throws -> ScreenshotState? {
        if let postgres { return try postgres.unchangedScreenshot(atPath: path, size: size, modifiedAt: modifiedAt) }
        return try writer().read { db in
            // Cached: a scan asks this for every file (100,000 in a big folder).
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT s.id, s.state, s.last_error FROM path p JOIN screenshot s ON s.id = p.screenshot_id
                WHERE p.path = ? AND p.size = ? AND p.modified_at = ? AND p.gone_at IS NULL
                """), arguments: [path, size, modifiedAt]).map {
                ScreenshotState(id: $0["id"], state: QueueState(rawValue: $0["state"]) ?? .queued, lastError: $0["last_error"])
            }
        }
    }
}
