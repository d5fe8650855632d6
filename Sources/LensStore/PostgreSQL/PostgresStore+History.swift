import Foundation
import LensCore
import PostgresNIO

/// The batch log on PostgreSQL (`lens history`, `lens delete`, `lens undo`, `lens redo`, the
/// expiry part of `lens gc`), with the SQLite store's contract (see History.swift).
///
/// Two things differ because the library is shared by hosts:
/// - Whether a batch is still running cannot be asked of a process id (it may be another host's).
///   A running batch holds a session-level advisory lock on a connection of its own, taken in the
///   transaction that creates the batch, so nobody sees the batch without its lock; the server lets
///   go of the lock when the connection ends, cleanly or because the process died (`kill -9`, a
///   host lost). Undo asks for the lock: refused means running.
/// - Edits of the log (delete, undo, redo) take one transaction-level advisory lock, so two hosts
///   undoing at once undo two batches, or one batch once.
extension PostgresStore {
    /// `pg_advisory_lock(key, batch)`: the first key of the two-key form, for running batches.
    static let batchLockKey: Int32 = 0x4C45_4E42
    /// `pg_advisory_xact_lock`: edits of the batch log, in this database.
    static let historyLockKey: Int64 = 0x4C45_4E53_0002

    func beginBatch(_ kind: BatchRecord.Kind, summary: String, pid: Int32, now: Double) throws -> Int64 {
        let connection = try listeningConnection()
        let session = PostgresSession(connection: connection, logger: logger)
        do {
            try session.execute("BEGIN")
            let id = try session.value("""
                INSERT INTO batch (kind, started_at, summary, pid, worker) VALUES (\(kind.rawValue), \(now), \(summary), \(pid), \(workerID))
                RETURNING id
                """, as: Int64.self)!
            try session.execute("SELECT pg_advisory_lock(\(Self.batchLockKey), (\(id) & 2147483647)::int4)")
            try session.execute("COMMIT")
            batchLocks.withLock { $0[id] = connection }
            return id
        } catch {
            Self.close(connection)
            throw error
        }
    }

    func finishBatch(_ id: Int64, droppingIfEmpty: Bool, now: Double) throws {
        defer {
            // Closing the connection lets go of the batch's lock: it is no longer running.
            if let connection = batchLocks.withLock({ $0.removeValue(forKey: id) }) { Self.close(connection) }
        }
        try transaction { session in
            if droppingIfEmpty, try session.value("SELECT NOT EXISTS (SELECT 1 FROM batch_item WHERE batch_id = \(id))", as: Bool.self) == true {
                try session.execute("DELETE FROM batch WHERE id = \(id)")
                return
            }
            try session.execute("UPDATE batch SET finished_at = \(now) WHERE id = \(id)")
        }
    }

    func batches(limit: Int) throws -> [BatchRecord] {
        try withSession { session in
            try session.rows("""
                SELECT b.*, (SELECT count(*) FROM batch_item i WHERE i.batch_id = b.id) AS items
                FROM batch b ORDER BY b.id DESC LIMIT \(Int64(max(0, limit)))
                """).map { try Self.batchRecord(from: $0) }
        }
    }

    private static func batchRecord(from row: PostgresRandomAccessRow) throws -> BatchRecord {
        BatchRecord(id: try row.get("id"), kind: BatchRecord.Kind(rawValue: try row.get("kind")) ?? .import,
                    startedAt: Date(timeIntervalSince1970: try row.get("started_at")),
                    finishedAt: try row.optional("finished_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                    undoneAt: try row.optional("undone_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                    redoneAt: try row.optional("redone_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                    pid: try row.optional("pid", as: Int32.self), summary: try row.get("summary"),
                    items: Int(try row.optional("items", as: Int64.self) ?? 0))
    }

    func deleteScreenshots(ids: [Int64], summary: String, now: Double) throws -> (batch: Int64, removed: [ArchivedScreenshot]) {
        try transaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.historyLockKey))")
            let batch = try session.value("""
                INSERT INTO batch (kind, started_at, finished_at, summary, pid, worker)
                VALUES ('delete', \(now), \(now), \(summary), \(getpid()), \(workerID)) RETURNING id
                """, as: Int64.self)!
            var removed: [ArchivedScreenshot] = []
            for id in ids {
                guard let archive = try takeOut(id: id, batch: batch, in: session) else { continue }
                removed.append(archive)
            }
            return (batch, removed)
        }
    }

    func recordTrashed(_ files: [TrashedFile], sha256: String, batch: Int64) throws {
        let json = String(decoding: try JSONEncoder().encode(files), as: UTF8.self)
        try withSession { session in
            try session.execute("UPDATE batch_item SET trashed = \(json) WHERE batch_id = \(batch) AND sha256 = \(sha256)")
        }
    }

    func undoCandidate(batch id: Int64?, expiredBefore: Double, undoDays: Int) throws -> BatchRecord {
        try transaction { session in try undoCandidate(id, expiredBefore: expiredBefore, undoDays: undoDays, in: session) }
    }

    private func undoCandidate(_ id: Int64?, expiredBefore: Double, undoDays: Int, in session: PostgresSession) throws -> BatchRecord {
        try refuseWhileRunning(in: session)
        let batch = try batchRecord(id, undone: false, orElse: .nothingToUndo, in: session)
        try batch.checkUndoable(expiredBefore: expiredBefore, undoDays: undoDays)
        return batch
    }

    func undo(batch id: Int64?, expiredBefore: Double, undoDays: Int, now: Double) throws -> UndoOutcome {
        try transaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.historyLockKey))")
            var batch = try undoCandidate(id, expiredBefore: expiredBefore, undoDays: undoDays, in: session)
            var outcome = UndoOutcome(batch: batch, removed: 0, restoredIDs: [], trashed: [])
            switch batch.kind {
            case .replace:
                throw UndoError.notUndoable(batch.id, reason: "a 'lens restore --replace' replaced the whole index")
            case .import, .restore:
                outcome.removed = try takeOut(batch: batch.id, in: session)
            case .delete:
                let items = try session.rows("SELECT record, trashed FROM batch_item WHERE batch_id = \(batch.id) ORDER BY sha256")
                let records = try items.map { try $0.optional("record", as: String.self) }
                if records.contains(where: { $0 == nil }) { throw UndoError.expired(batch.id, days: undoDays) }
                outcome.restoredIDs = try putBack(records.compactMap { $0 }, in: session)
                for item in items {
                    if let trashed = try item.optional("trashed", as: String.self) {
                        outcome.trashed += try JSONDecoder().decode([TrashedFile].self, from: Data(trashed.utf8))
                    }
                }
            }
            try session.execute("UPDATE batch SET undone_at = \(now) WHERE id = \(batch.id)")
            batch.undoneAt = Date(timeIntervalSince1970: now)
            outcome.batch = batch
            return outcome
        }
    }

    func redo(batch id: Int64?, expiredBefore: Double, undoDays: Int, now: Double) throws -> UndoOutcome {
        try transaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.historyLockKey))")
            try refuseWhileRunning(in: session)
            var batch = try batchRecord(id, undone: true, orElse: .nothingToRedo, in: session)
            try batch.checkRedoable(expiredBefore: expiredBefore, undoDays: undoDays)
            var outcome = UndoOutcome(batch: batch, removed: 0, restoredIDs: [], trashed: [])
            switch batch.kind {
            case .replace:
                throw UndoError.notUndoable(batch.id, reason: "a 'lens restore --replace' replaced the whole index")
            case .delete:
                // Deleted from the index again; its files stay where the undo put them.
                try session.execute("UPDATE batch_item SET trashed = NULL WHERE batch_id = \(batch.id)")
                outcome.removed = try takeOut(batch: batch.id, in: session)
            case .import, .restore:
                let records = try session.rows("SELECT record FROM batch_item WHERE batch_id = \(batch.id) ORDER BY sha256")
                    .map { try $0.optional("record", as: String.self) }
                if records.contains(where: { $0 == nil }) && !records.isEmpty {
                    throw UndoError.notUndoable(batch.id, reason: "what its undo took out was not kept; 'lens import' of its files recognizes them again")
                }
                outcome.restoredIDs = try putBack(records.compactMap { $0 }, in: session)
                try session.execute("UPDATE batch_item SET record = NULL WHERE batch_id = \(batch.id)")
            }
            try session.execute("UPDATE batch SET undone_at = NULL, redone_at = \(now) WHERE id = \(batch.id)")
            batch.undoneAt = nil
            batch.redoneAt = Date(timeIntervalSince1970: now)
            outcome.batch = batch
            return outcome
        }
    }

    func expireBatches(startedBefore: Double) throws -> [TrashedFile] {
        try transaction { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(Self.historyLockKey))")
            var trashed: [TrashedFile] = []
            for row in try session.rows("""
                SELECT i.trashed FROM batch_item i JOIN batch b ON b.id = i.batch_id
                WHERE b.started_at < \(startedBefore) AND i.trashed IS NOT NULL AND b.undone_at IS NULL
                """) {
                let value = try row.get("trashed", as: String.self)
                trashed += (try? JSONDecoder().decode([TrashedFile].self, from: Data(value.utf8))) ?? []
            }
            try session.execute("""
                UPDATE batch_item SET record = NULL, trashed = NULL
                WHERE (record IS NOT NULL OR trashed IS NOT NULL) AND batch_id IN (SELECT id FROM batch WHERE started_at < \(startedBefore))
                """)
            return trashed
        }
    }

    // MARK: Parts

    /// Refuses while any batch still runs: one whose lock a process holds, on any host (this
    /// process's own batches too: their locks are held by connections of their own). One
    /// statement, however many interrupted batches the log has gathered.
    private func refuseWhileRunning(in session: PostgresSession) throws {
        guard let row = try session.rows("""
            SELECT id, kind, pid, worker FROM batch WHERE finished_at IS NULL AND undone_at IS NULL
              AND NOT pg_try_advisory_xact_lock_shared(\(Self.batchLockKey), (id & 2147483647)::int4)
            ORDER BY id DESC LIMIT 1
            """).first else { return }
        let id = try row.get("id", as: Int64.self)
        let kind = BatchRecord.Kind(rawValue: try row.get("kind")) ?? .import
        if let worker = try row.optional("worker", as: String.self), worker != workerID {
            throw UndoError.runningElsewhere(id, kind: kind, worker: worker)
        }
        throw UndoError.running(id, kind: kind, pid: try row.optional("pid", as: Int32.self) ?? 0)
    }

    /// Batch `id`, or the newest undone (most recently undone first) or not undone.
    private func batchRecord(_ id: Int64?, undone: Bool, orElse missing: UndoError, in session: PostgresSession) throws -> BatchRecord {
        let items = "(SELECT count(*) FROM batch_item i WHERE i.batch_id = b.id) AS items"
        if let id {
            guard let row = try session.rows("SELECT b.*, \(unescaped: items) FROM batch b WHERE id = \(id)").first else {
                throw UndoError.noSuchBatch(id)
            }
            return try Self.batchRecord(from: row)
        }
        let condition = undone ? "undone_at IS NOT NULL" : "undone_at IS NULL"
        guard let row = try session.rows("""
            SELECT b.*, \(unescaped: items) FROM batch b WHERE \(unescaped: condition) ORDER BY coalesce(undone_at, 0) DESC, id DESC LIMIT 1
            """).first else { throw missing }
        return try Self.batchRecord(from: row)
    }

    /// Takes screenshot `id` out of the index into batch `batch`'s item (archived, so undo or
    /// redo can bring it back) and remembers its content as removed.
    private func takeOut(id: Int64, batch: Int64, in session: PostgresSession) throws -> ArchivedScreenshot? {
        guard let archive = try archive(id: id, in: session) else { return nil }
        let json = String(decoding: try JSONEncoder().encode(archive), as: UTF8.self)
        try session.execute("""
            INSERT INTO batch_item (batch_id, sha256, record) VALUES (\(batch), \(archive.sha256), \(json))
            ON CONFLICT (batch_id, sha256) DO UPDATE SET record = EXCLUDED.record
            """)
        try session.execute("""
            INSERT INTO removed_content (sha256, batch_id) VALUES (\(archive.sha256), \(batch))
            ON CONFLICT (sha256) DO UPDATE SET batch_id = EXCLUDED.batch_id
            """)
        try session.execute("DELETE FROM screenshot WHERE id = \(id)")
        return archive
    }

    /// Takes out every screenshot of batch `batch` still here; returns how many.
    private func takeOut(batch: Int64, in session: PostgresSession) throws -> Int {
        let ids = try session.rows("""
            SELECT s.id FROM batch_item i JOIN screenshot s ON s.sha256 = i.sha256 WHERE i.batch_id = \(batch) ORDER BY s.id
            """).map { try $0.get("id", as: Int64.self) }
        var removed = 0
        for id in ids {
            if try takeOut(id: id, batch: batch, in: session) != nil { removed += 1 }
        }
        return removed
    }

    /// Puts archived screenshots back, ids kept where free, then the links among them (both ends
    /// exist only now). Returns their ids, sorted.
    private func putBack(_ records: [String], in session: PostgresSession) throws -> [Int64] {
        var restored: [(Int64, [ArchivedScreenshot.ArchivedLink])] = []
        for record in records {
            let archive = try JSONDecoder().decode(ArchivedScreenshot.self, from: Data(record.utf8))
            try session.execute("DELETE FROM removed_content WHERE sha256 = \(archive.sha256)")
            if let id = try insert(archive, keepingID: true, in: session) { restored.append((id, archive.links)) }
        }
        for (id, links) in restored { try insertLinks(links, of: id, in: session) }
        if !restored.isEmpty { try session.execute("SELECT pg_notify(\(Self.queueChannel), '')") }
        return restored.map(\.0).sorted()
    }
}

/// `lens gc` on PostgreSQL: screenshots whose every path is long gone leave the library. The
/// space their rows held is PostgreSQL's to reuse (autovacuum); Lens does not run `VACUUM FULL`,
/// which would lock the shared library's tables while it rewrites them.
extension PostgresStore {
    func collectGarbage(goneBefore: Double, dryRun: Bool) throws -> GarbageReport {
        try transaction { session in
            let size = "SELECT pg_database_size(current_database())"
            let before = Int(try session.value(PostgresQuery(unsafeSQL: size), as: Int64.self) ?? 0)
            let removed = try session.rows("""
                SELECT s.id, array_agg(p.path ORDER BY p.path COLLATE "C") AS paths FROM screenshot s JOIN path p ON p.screenshot_id = s.id
                GROUP BY s.id HAVING count(p.gone_at) = count(*) AND max(p.gone_at) < \(goneBefore) ORDER BY s.id
                """).map { GarbageReport.Removed(id: try $0.get("id"), paths: try $0.get("paths")) }
            if !dryRun, !removed.isEmpty {
                try session.execute("DELETE FROM screenshot WHERE id = ANY(\(removed.map(\.id)))")
            }
            let after = Int(try session.value(PostgresQuery(unsafeSQL: size), as: Int64.self) ?? 0)
            return GarbageReport(removed: removed, bytesBefore: before, bytesAfter: after, vacuumed: false)
        }
    }
}

/// Links a person draws between two screenshots (`lens link`): kept, exported, restored and
/// brought back by undo on PostgreSQL too; the mind map that shows them is SQLite's for now.
extension PostgresStore {
    func link(_ x: Int64, _ y: Int64, note: String?, now: Double) throws -> Bool {
        guard x != y else { return false }
        return try withSession { session in
            // One statement: both screenshots exist when the link is written, or nothing is.
            try session.execute("""
                INSERT INTO manual_link (a, b, note, created_at)
                SELECT \(min(x, y)), \(max(x, y)), \(note), \(now)
                WHERE (SELECT count(*) FROM screenshot WHERE id IN (\(x), \(y))) = 2
                ON CONFLICT (a, b) DO UPDATE SET note = EXCLUDED.note
                """) > 0
        }
    }

    func unlink(_ x: Int64, _ y: Int64) throws -> Bool {
        try withSession { session in
            try session.execute("DELETE FROM manual_link WHERE a = \(min(x, y)) AND b = \(max(x, y))") > 0
        }
    }
}
