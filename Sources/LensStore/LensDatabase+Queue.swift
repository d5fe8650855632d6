import Foundation
import GRDB
import LensCore

/// The OCR queue: claims, recorded recognitions and failures, retries, state counts.
extension LensDatabase {
    // MARK: - Queue

    /// Puts back items left `running` by processes that are gone (crash, kill -9), so no work is lost.
    ///
    /// - Parameter isAlive: tells whether a process id still runs (a live process keeps its claims,
    ///   so an import and a daemon can share one database).
    @discardableResult
    public func requeueAbandoned(isAlive: (Int32) -> Bool) throws -> Int {
        if let postgres { return try postgres.requeueAbandoned(isAlive: isAlive) }
        return try writer().write { db in
            let owners = try Int32.fetchAll(db, sql: "SELECT DISTINCT claimed_by FROM screenshot WHERE state = 'running'")
            var count = 0
            for owner in owners where !isAlive(owner) {
                try db.execute(sql: """
                    UPDATE screenshot SET state = 'queued', claimed_by = NULL, claimed_at = NULL
                    WHERE state = 'running' AND claimed_by = ?
                    """, arguments: [owner])
                count += db.changesCount
            }
            return count
        }
    }

    /// Atomically takes the oldest queued item for `owner` (a process id), marking it running.
    public func claimNext(owner: Int32, now: Double = Date().timeIntervalSince1970) throws -> ClaimedItem? {
        if let postgres { return try postgres.claimNext(now: now, lease: lease) }
        return try writer().write { db in
            guard let row = try Row.fetchOne(db, sql: """
                UPDATE screenshot SET state = 'running', claimed_by = ?, claimed_at = ?, attempts = attempts + 1
                WHERE id = (SELECT id FROM screenshot WHERE state = 'queued' AND (retry_at IS NULL OR retry_at <= ?)
                            ORDER BY id LIMIT 1)
                RETURNING id, sha256, attempts, captured_at
                """, arguments: [owner, now, now]) else { return nil }
            let id: Int64 = row["id"]
            let paths = try String.fetchAll(db, sql: """
                SELECT path FROM path WHERE screenshot_id = ? AND gone_at IS NULL ORDER BY last_seen_at DESC
                """, arguments: [id])
            return ClaimedItem(id: id, sha256: row["sha256"], attempts: row["attempts"], paths: paths,
                               capturedAt: Date(timeIntervalSince1970: row["captured_at"]))
        }
    }

    /// Extends the leases of the items this worker holds to a full lease from `now`, so a
    /// recognition that runs long is not taken over while it is still being read; returns how
    /// many. `lens worker` renews every third of a lease. A SQLite library has no leases (its
    /// claims belong to a process of this host): 0.
    @discardableResult
    public func renewLeases(now: Double = Date().timeIntervalSince1970) throws -> Int {
        guard let postgres else { return 0 }
        return try postgres.renewLeases(now: now, lease: lease)
    }

    /// The length of a claim's lease in a shared library, in seconds.
    public var leaseSeconds: Double { lease }

    /// Stores the OCR result of a claimed item and marks it done; the text enters the index.
    /// `recognition` must already be masked (LensApp's privacy filter); `codeEntities` are entities
    /// found in its code payloads, stored without offsets.
    /// Returns false, storing nothing, when the screenshot was taken out of the library (`lens
    /// delete`, an undo) while it was being recognized.
    @discardableResult
    public func recordRecognition(_ recognition: Recognition, entities: [Entity] = [], codeEntities: [Entity] = [],
                                  for id: Int64, seconds: Double, now: Double = Date().timeIntervalSince1970) throws -> Bool {
        if let postgres { return try postgres.recordRecognition(recognition, entities: entities, codeEntities: codeEntities, for: id, seconds: seconds, now: now) }
        return try writer().write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'done', confidence = ?, width = ?, height = ?,
                    ocr_seconds = ?, recognized_at = ?, last_error = NULL, claimed_by = NULL, claimed_at = NULL,
                    retry_at = NULL
                WHERE id = ?
                """, arguments: [recognition.meanConfidence, recognition.width, recognition.height, seconds, now, id])
            guard db.changesCount > 0 else { return false }
            try Self.storeText(of: recognition, entities: entities, codeEntities: codeEntities, for: id, in: db)
            return true
        }
    }

    /// Writes (or replaces) a screenshot's text, word boxes, code payloads and entities, marked as
    /// checked for secrets: the recognition must already be masked. Shared by recognition and by
    /// the masking of stored texts (`maskStoredTexts`).
    static func storeText(of recognition: Recognition, entities: [Entity], codeEntities: [Entity], for id: Int64, in db: Database) throws {
        let payloads = recognition.codes.isEmpty ? nil : recognition.codes.map(\.payload).joined(separator: "\n")
        try db.execute(sql: """
            INSERT INTO screenshot_text (id, body, words, codes, privacy_checked) VALUES (?, ?, ?, ?, 1)
            ON CONFLICT(id) DO UPDATE SET body = excluded.body, words = excluded.words, codes = excluded.codes,
                privacy_checked = 1
            """, arguments: [id, Data(TextCompression.deflate(recognition.text)),
                             Data(TextCompression.deflate(bytes: Recognition.encode(recognition.words))), payloads])
        try db.execute(sql: "DELETE FROM code WHERE screenshot_id = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM entity WHERE screenshot_id = ?", arguments: [id])
        try insertTextEntities(entities, of: id, in: db)
        try insertCodeEntities(codeEntities, of: id, in: db)
        for code in recognition.codes {
            try db.execute(sql: "INSERT INTO code (screenshot_id, symbology, payload) VALUES (?, ?, ?)",
                           arguments: [id, code.symbology, code.payload])
            if let url = WebAddress(code.payload) {
                try db.execute(sql: """
                    INSERT INTO entity (screenshot_id, type, value, normalized, source) VALUES (?, 'url', ?, ?, 'code')
                    """, arguments: [id, code.payload, url.normalized])
            }
        }
    }

    /// Marks a claimed item failed with a reason the user can act on.
    public func recordFailure(_ reason: String, for id: Int64) throws {
        if let postgres { return try postgres.recordFailure(reason, for: id) }
        return try writer().write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'failed', last_error = ?, claimed_by = NULL, claimed_at = NULL,
                    retry_at = NULL WHERE id = ?
                """, arguments: [reason, id])
        }
    }

    /// Returns a claimed item to the queue after a transient failure, to be claimed again no
    /// earlier than `retryAt`; the reason stays visible (`lens status`, `lens show`) meanwhile.
    public func deferItem(_ id: Int64, reason: String, retryAt: Double) throws {
        if let postgres { return try postgres.deferItem(id, reason: reason, retryAt: retryAt) }
        return try writer().write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'queued', last_error = ?, retry_at = ?, claimed_by = NULL, claimed_at = NULL
                WHERE id = ?
                """, arguments: [reason, retryAt, id])
        }
    }

    /// Whether some queued item may be claimed now (not waiting out a backoff).
    public func hasClaimableWork(now: Double = Date().timeIntervalSince1970) throws -> Bool {
        if let postgres { return try postgres.hasClaimableWork(now: now) }
        return try writer().read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM screenshot WHERE state = 'queued' AND (retry_at IS NULL OR retry_at <= ?))
                """, arguments: [now]) ?? false
        }
    }

    /// When the earliest item waiting after a transient failure may be claimed, if any waits.
    public func nextRetryTime() throws -> Double? {
        if let postgres { return try postgres.nextRetryTime() }
        return try writer().read { db in
            try Double.fetchOne(db, sql: "SELECT min(retry_at) FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL")
        }
    }

    /// When each of `ids` that still waits after a transient failure may be claimed again.
    public func retryTimes(ids: [Int64]) throws -> [Int64: Double] {
        if let postgres { return try postgres.retryTimes(ids: ids) }
        guard !ids.isEmpty else { return [:] }
        return try writer().read { db in
            var times: [Int64: Double] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT id, retry_at FROM screenshot
                WHERE state = 'queued' AND retry_at IS NOT NULL AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments(ids)) {
                times[row["id"]] = row["retry_at"]
            }
            return times
        }
    }

    /// How many queued items wait for a retry after a transient failure.
    public func waitingForRetryCount() throws -> Int {
        if let postgres { return try postgres.waitingForRetryCount() }
        return try writer().read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL") ?? 0
        }
    }

    /// Whether `error` is the storage refusing a write for now (disk full, I/O error, a lock held
    /// past the busy timeout): the work is worth retrying later, the item is not at fault.
    /// What a storage error means for the person at the keyboard, naming `path` and the fix; nil
    /// for errors that are not about the database file.
    public static func explanation(of error: any Error, path: String) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            return "the disk holding \(path) is full: free some space (what was stored before is intact, "
                + "and unfinished work stays queued for the next run or the daemon's next try)"
        case .SQLITE_READONLY:
            return "\(path) cannot be written (a read-only file, folder or mount): Lens needs write access to it"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "\(path) stayed locked by another process for more than 10 s (an open sqlite3 shell or a backup "
                + "holding a write transaction?): close it and run the command again"
        case .SQLITE_CANTOPEN:
            return "cannot open \(path): check that its folder exists and can be written"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "\(path) is damaged or is not a Lens database (\(error.message ?? "")): restore it from a backup or move it away"
        case .SQLITE_IOERR:
            return "reading or writing \(path) failed (\(error.message ?? "I/O error")): check the disk"
        default:
            return nil
        }
    }

    /// Which of `ids` are in the library and recognized now (an import's report counts only
    /// what is really stored when it ends).
    public func recognizedIDs(among ids: some Collection<Int64>) throws -> Set<Int64> {
        if let postgres { return try postgres.recognizedIDs(among: Array(ids)) }
        guard !ids.isEmpty else { return [] }
        return try writer().read { db in
            var found = Set<Int64>()
            for chunk in Array(ids).chunked(500) {
                found.formUnion(try Int64.fetchAll(db, sql: """
                    SELECT id FROM screenshot WHERE state = 'done' AND id IN (\(databaseQuestionMarks(count: chunk.count)))
                    """, arguments: StatementArguments(chunk)))
            }
            return found
        }
    }

    public static func isTransientStorageError(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM].contains(error.resultCode)
    }

    /// How many items are in each queue state.
    public func stateCounts() throws -> [QueueState: Int] {
        if let postgres { return try postgres.stateCounts() }
        return try writer().read { db in
            var counts = Dictionary(uniqueKeysWithValues: QueueState.allCases.map { ($0, 0) })
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM screenshot GROUP BY state") {
                if let state = QueueState(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    /// Paths that failed, with the reason, for items whose content is `failed`.
    public func failures(ids: [Int64]) throws -> [(path: String, reason: String)] {
        if let postgres { return try postgres.failures(ids: ids) }
        guard !ids.isEmpty else { return [] }
        return try writer().read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.path, s.last_error FROM screenshot s JOIN path p ON p.screenshot_id = s.id
                WHERE s.state = 'failed' AND s.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                ORDER BY p.path
                """, arguments: StatementArguments(ids)).map { ($0["path"], $0["last_error"] ?? "unknown error") }
        }
    }
}

extension Array {
    /// Consecutive slices of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
