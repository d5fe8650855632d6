import Foundation
import GRDB
import LensCore

/// One entry of the append-only batch log (`lens history`): an import run, a delete, a restore.
public struct BatchRecord: Sendable, Equatable, Encodable {
    public enum Kind: String, Sendable, Encodable { case `import`, delete, restore, replace }
    public var id: Int64
    public var kind: Kind
    public var startedAt: Date
    public var finishedAt: Date?
    public var undoneAt: Date?
    /// When it was last brought back by `lens redo` (it may be undone again).
    public var redoneAt: Date?
    /// The process running it, while it runs (an import).
    public var pid: Int32?
    /// What it was about: the folders imported, the screenshots deleted, the file restored.
    public var summary: String
    /// Screenshots it added (import, restore) or removed (delete).
    public var items: Int

    enum CodingKeys: String, CodingKey {
        case id, kind, summary, items
        case startedAt = "started_at", finishedAt = "finished_at", undoneAt = "undone_at", redoneAt = "redone_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(summary, forKey: .summary)
        try container.encode(items, forKey: .items)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(finishedAt, forKey: .finishedAt)
        try container.encode(undoneAt, forKey: .undoneAt)
        try container.encodeIfPresent(redoneAt, forKey: .redoneAt)
    }
}

extension BatchRecord {
    /// Refuses, with the reason, a batch `lens undo` cannot revert: already undone, expired, or a
    /// whole-index replacement. Both stores check a candidate so.
    func checkUndoable(expiredBefore: Double, undoDays: Int) throws {
        if let undoneAt { throw UndoError.alreadyUndone(id, at: undoneAt) }
        if startedAt.timeIntervalSince1970 < expiredBefore { throw UndoError.expired(id, days: undoDays) }
        if kind == .replace {
            throw UndoError.notUndoable(id, reason: "a 'lens restore --replace' replaced the whole index; restore the export taken before it")
        }
    }

    /// Refuses, with the reason, a batch `lens redo` cannot bring back: not undone, or expired.
    func checkRedoable(expiredBefore: Double, undoDays: Int) throws {
        guard undoneAt != nil else { throw UndoError.notUndone(id) }
        if startedAt.timeIntervalSince1970 < expiredBefore { throw UndoError.expired(id, days: undoDays) }
    }
}

/// A file that `lens delete --file` moved to the trash folder, so `lens undo` can put it back.
public struct TrashedFile: Codable, Sendable, Equatable {
    public var path: String
    public var trash: String

    public init(path: String, trash: String) {
        self.path = path
        self.trash = trash
    }
}

/// What `lens undo` did.
public struct UndoOutcome: Sendable, Equatable {
    public var batch: BatchRecord
    /// Screenshots taken out of the index (undoing an import or a restore).
    public var removed: Int
    /// Screenshots put back (undoing a delete), with their ids.
    public var restoredIDs: [Int64]
    /// Files to move back from the trash (undoing a delete --file); the caller moves them.
    public var trashed: [TrashedFile]
}

/// Why a batch cannot be undone. Each message says what to do instead.
public enum UndoError: Error, Equatable, CustomStringConvertible {
    case nothingToUndo
    case noSuchBatch(Int64)
    case alreadyUndone(Int64, at: Date)
    case expired(Int64, days: Int)
    case notUndoable(Int64, reason: String)
    /// Another process is running this batch (an import): its screenshots are still arriving.
    case running(Int64, kind: BatchRecord.Kind, pid: Int32)
    /// The same, in a library shared by hosts: `worker` is `host:pid`.
    case runningElsewhere(Int64, kind: BatchRecord.Kind, worker: String)
    case nothingToRedo
    case notUndone(Int64)

    public var description: String {
        switch self {
        case .nothingToUndo: "there is nothing to undo (lens history lists the batches)"
        case .noSuchBatch(let id): "there is no batch \(id) (lens history lists the batches)"
        case .alreadyUndone(let id, let at): "batch \(id) was already undone on \(ISO8601DateFormatter().string(from: at))"
        case .expired(let id, let days):
            "batch \(id) is older than \(days) days (undo_days) and has expired: what it needed to undo was let go by lens gc"
        case .notUndoable(let id, let reason): "batch \(id) cannot be undone: \(reason)"
        case .running(let id, let kind, let pid):
            "batch \(id) (\(kind.rawValue)) is still running in process \(pid): wait for it to finish (or stop it), then undo"
        case .runningElsewhere(let id, let kind, let worker):
            "batch \(id) (\(kind.rawValue)) is still running on \(worker.split(separator: ":").dropLast().joined(separator: ":")) "
                + "in process \(worker.split(separator: ":").last ?? ""): wait for it to finish (or stop it), then undo"
        case .nothingToRedo: "there is nothing to redo: no batch is undone (lens history lists the batches)"
        case .notUndone(let id): "batch \(id) is not undone, so there is nothing to redo"
        }
    }
}

extension LensDatabase {
    /// Opens a batch in the log; its items are recorded as the work goes.
    /// `pid`: the process running it, so that `lens undo` can tell a running batch from one
    /// whose process died.
    public func beginBatch(_ kind: BatchRecord.Kind, summary: String, pid: Int32 = getpid(),
                           now: Double = Date().timeIntervalSince1970) throws -> Int64 {
        if let postgres { return try postgres.beginBatch(kind, summary: summary, pid: pid, now: now) }
        return try writer().write { db in
            try db.execute(sql: "INSERT INTO batch (kind, started_at, summary, pid) VALUES (?, ?, ?, ?)",
                           arguments: [kind.rawValue, now, summary, pid])
            return db.lastInsertedRowID
        }
    }

    /// Closes a batch; with `droppingIfEmpty`, a batch that recorded nothing leaves no line (an
    /// import that found nothing new is nothing to undo).
    public func finishBatch(_ id: Int64, droppingIfEmpty: Bool = false, now: Double = Date().timeIntervalSince1970) throws {
        if let postgres { return try postgres.finishBatch(id, droppingIfEmpty: droppingIfEmpty, now: now) }
        return try writer().write { db in
            if droppingIfEmpty, try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM batch_item WHERE batch_id = ?)", arguments: [id]) == true {
                try db.execute(sql: "DELETE FROM batch WHERE id = ?", arguments: [id])
                return
            }
            try db.execute(sql: "UPDATE batch SET finished_at = ? WHERE id = ?", arguments: [now, id])
        }
    }

    /// The most recent batches, newest first.
    public func batches(limit: Int = 20) throws -> [BatchRecord] {
        if let postgres { return try postgres.batches(limit: limit) }
        return try writer().read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.*, (SELECT count(*) FROM batch_item i WHERE i.batch_id = b.id) AS items
                FROM batch b ORDER BY b.id DESC LIMIT ?
                """, arguments: [limit]).map(Self.batchRecord)
        }
    }

    private static func batchRecord(_ row: Row) -> BatchRecord {
        BatchRecord(id: row["id"], kind: BatchRecord.Kind(rawValue: row["kind"]) ?? .import,
                    startedAt: Date(timeIntervalSince1970: row["started_at"]),
                    finishedAt: (row["finished_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    undoneAt: (row["undone_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    redoneAt: (row["redone_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    pid: row["pid"], summary: row["summary"], items: row["items"] ?? 0)
    }

    /// Whether this content was taken out of the index on purpose (lens delete, or an undone
    /// import): the daemon's scans leave it out; `lens import` of its file brings it back.
    public func wasRemoved(sha256: String) throws -> Bool {
        if let postgres { return try postgres.wasRemoved(sha256: sha256) }
        return try writer().read { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM removed_content WHERE sha256 = ?)"),
                              arguments: [sha256]) ?? false
        }
    }

    /// A number that changes whenever screenshots are added or taken out by another process's
    /// batch (import, delete, undo, restore), or the mind map is rebuilt: a long-lived in-memory
    /// index compares it to know when to reload.
    public func batchLogVersion() throws -> [Int64] {
        if let postgres { return try postgres.batchLogVersion() }
        return try writer().read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT coalesce(max(id), 0), count(finished_at), count(undone_at),
                       (SELECT generation FROM mind_map_generation) FROM batch
                """)
            return [row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0, row?[3] ?? 0]
        }
    }

    /// Takes screenshots out of the index as one `delete` batch: their text, index rows,
    /// entities, codes and edges go; an archive of each stays in the batch so `lens undo` can put
    /// it back without OCR, and the content is remembered as removed so the daemon does not
    /// index its file again. Returns the batch id and the archives (with their live paths).
    public func deleteScreenshots(ids: [Int64], summary: String, now: Double = Date().timeIntervalSince1970) throws
        -> (batch: Int64, removed: [ArchivedScreenshot]) {
        if let postgres { return try postgres.deleteScreenshots(ids: ids, summary: summary, now: now) }
        return try writer().write { db in
            try db.execute(sql: "INSERT INTO batch (kind, started_at, finished_at, summary) VALUES ('delete', ?, ?, ?)",
                           arguments: [now, now, summary])
            let batch = db.lastInsertedRowID
            var removed: [ArchivedScreenshot] = []
            for id in ids {
                guard let archive = try Self.archive(id: id, in: db) else { continue }
                let json = String(decoding: try JSONEncoder().encode(archive), as: UTF8.self)
                try db.execute(sql: "INSERT OR REPLACE INTO batch_item (batch_id, sha256, record) VALUES (?, ?, ?)",
                               arguments: [batch, archive.sha256, json])
                try db.execute(sql: "INSERT OR REPLACE INTO removed_content (sha256, batch_id) VALUES (?, ?)",
                               arguments: [archive.sha256, batch])
                try db.execute(sql: "DELETE FROM screenshot WHERE id = ?", arguments: [id])
                removed.append(archive)
            }
            return (batch, removed)
        }
    }

    /// Notes that a deleted screenshot's file went to the trash folder (so undo can return it).
    public func recordTrashed(_ files: [TrashedFile], sha256: String, batch: Int64) throws {
        if let postgres { return try postgres.recordTrashed(files, sha256: sha256, batch: batch) }
        return try writer().write { db in
            try db.execute(sql: "UPDATE batch_item SET trashed = ? WHERE batch_id = ? AND sha256 = ?",
                           arguments: [String(decoding: try JSONEncoder().encode(files), as: UTF8.self), batch, sha256])
        }
    }

    /// Reverts batch `id` (or the newest batch not yet undone): an import's or a restore's new
    /// screenshots leave the index (and are remembered as removed); a delete's come back as they
    /// were, ids included when free. Batches that started before `expiredBefore` are refused.
    /// The batch `lens undo` would revert (`id`, or the newest not yet undone), with its item
    /// count, checked as ``undo(batch:expiredBefore:undoDays:isAlive:now:)`` checks it; nothing
    /// changes. The command line asks before undoing an import or a large batch.
    public func undoCandidate(batch id: Int64? = nil, expiredBefore: Double, undoDays: Int,
                              isAlive: (Int32) -> Bool) throws -> BatchRecord {
        if let postgres { return try postgres.undoCandidate(batch: id, expiredBefore: expiredBefore, undoDays: undoDays) }
        return try writer().read { db in try Self.undoCandidate(id, expiredBefore: expiredBefore, undoDays: undoDays, isAlive: isAlive, in: db) }
    }

    private static func undoCandidate(_ id: Int64?, expiredBefore: Double, undoDays: Int, isAlive: (Int32) -> Bool,
                                      in db: Database) throws -> BatchRecord {
        try refuseWhileRunning(isAlive: isAlive, in: db)
        let row = try batchRow(id, newestWhere: "undone_at IS NULL", orElse: .nothingToUndo, in: db)
        let batch = Self.batchRecord(row)
        try batch.checkUndoable(expiredBefore: expiredBefore, undoDays: undoDays)
        return batch
    }

    /// Reverts batch `id` (or the newest batch not yet undone): an import's or a restore's new
    /// screenshots leave the index (archived in the batch, so ``redo(batch:expiredBefore:undoDays:now:)``
    /// brings them back without OCR, and remembered as removed); a delete's come back as they
    /// were, ids included when free. Refused while a batch is running in a live process
    /// (`isAlive`), and for batches that started before `expiredBefore`.
    public func undo(batch id: Int64? = nil, expiredBefore: Double, undoDays: Int, isAlive: (Int32) -> Bool = { _ in false },
                     now: Double = Date().timeIntervalSince1970) throws -> UndoOutcome {
        if let postgres { return try postgres.undo(batch: id, expiredBefore: expiredBefore, undoDays: undoDays, now: now) }
        return try writer().write { db in
            var batch = try Self.undoCandidate(id, expiredBefore: expiredBefore, undoDays: undoDays, isAlive: isAlive, in: db)
            var outcome = UndoOutcome(batch: batch, removed: 0, restoredIDs: [], trashed: [])
            switch batch.kind {
            case .replace:
                throw UndoError.notUndoable(batch.id, reason: "a 'lens restore --replace' replaced the whole index")
            case .import, .restore:
                outcome.removed = try Self.takeOut(batch: batch.id, in: db)
            case .delete:
                let items = try Row.fetchAll(db, sql: "SELECT sha256, record, trashed FROM batch_item WHERE batch_id = ?",
                                             arguments: [batch.id])
                if items.contains(where: { ($0["record"] as String?) == nil }) {
                    throw UndoError.expired(batch.id, days: undoDays)
                }
                var restored: [(Int64, [ArchivedScreenshot.ArchivedLink])] = []
                for item in items {
                    let archive = try JSONDecoder().decode(ArchivedScreenshot.self, from: Data((item["record"] as String).utf8))
                    try db.execute(sql: "DELETE FROM removed_content WHERE sha256 = ?", arguments: [archive.sha256])
                    if let id = try Self.insert(archive, keepingID: true, in: db) {
                        restored.append((id, archive.links))
                    }
                    if let trashed = item["trashed"] as String? {
                        outcome.trashed += try JSONDecoder().decode([TrashedFile].self, from: Data(trashed.utf8))
                    }
                }
                // Links among screenshots of the same batch: both ends exist only now.
                for (id, links) in restored { try Self.insertLinks(links, of: id, in: db) }
                outcome.restoredIDs = restored.map(\.0).sorted()
            }
            try db.execute(sql: "UPDATE batch SET undone_at = ? WHERE id = ?", arguments: [now, batch.id])
            batch.undoneAt = Date(timeIntervalSince1970: now)
            outcome.batch = batch
            return outcome
        }
    }

    /// A batch still running in a live process (an import adding screenshots): undoing it, or any
    /// other, while it runs would take screenshots out from under it, and its report would be false.
    private static func refuseWhileRunning(isAlive: (Int32) -> Bool, in db: Database) throws {
        for row in try Row.fetchAll(db, sql: """
            SELECT id, kind, pid FROM batch WHERE finished_at IS NULL AND undone_at IS NULL AND pid IS NOT NULL ORDER BY id DESC
            """) where isAlive(row["pid"]) {
            throw UndoError.running(row["id"], kind: BatchRecord.Kind(rawValue: row["kind"]) ?? .import, pid: row["pid"])
        }
    }

    /// Batch `id` with its item count, or the newest (most recently undone, for redo) matching
    /// `condition` when `id` is nil.
    private static func batchRow(_ id: Int64?, newestWhere condition: String, orElse missing: UndoError, in db: Database) throws -> Row {
        let items = "(SELECT count(*) FROM batch_item i WHERE i.batch_id = b.id) AS items"
        if let id {
            guard let row = try Row.fetchOne(db, sql: "SELECT b.*, \(items) FROM batch b WHERE id = ?", arguments: [id]) else {
                throw UndoError.noSuchBatch(id)
            }
            return row
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT b.*, \(items) FROM batch b WHERE \(condition) ORDER BY coalesce(undone_at, 0) DESC, id DESC LIMIT 1") else {
            throw missing
        }
        return row
    }

    /// Takes the screenshots of batch `id` out of the index (those an import or restore added, or
    /// those a delete removed, for its redo), archiving each in its item (for redo, or for undo
    /// of the delete) and remembering its content as removed. Returns how many were there.
    private static func takeOut(batch id: Int64, in db: Database) throws -> Int {
        var removed = 0
        let hashes = try String.fetchAll(db, sql: "SELECT sha256 FROM batch_item WHERE batch_id = ?", arguments: [id])
        for sha in hashes {
            guard let screenshot = try Int64.fetchOne(db, sql: "SELECT id FROM screenshot WHERE sha256 = ?", arguments: [sha]),
                  let archive = try Self.archive(id: screenshot, in: db) else { continue }
            try db.execute(sql: "UPDATE batch_item SET record = ? WHERE batch_id = ? AND sha256 = ?",
                           arguments: [String(decoding: try JSONEncoder().encode(archive), as: UTF8.self), id, sha])
            try db.execute(sql: "DELETE FROM screenshot WHERE id = ?", arguments: [screenshot])
            try db.execute(sql: "INSERT OR REPLACE INTO removed_content (sha256, batch_id) VALUES (?, ?)", arguments: [sha, id])
            removed += 1
        }
        return removed
    }

    /// Brings back batch `id` (or the newest undone batch) as it was before its undo, without
    /// OCR: an undone import's or restore's screenshots return from what the undo archived (ids,
    /// text, tags, notes, links), an undone delete is deleted again (its files stay where undo put
    /// them). The batch can then be undone again. Refused once the batch has expired.
    public func redo(batch id: Int64? = nil, expiredBefore: Double, undoDays: Int, isAlive: (Int32) -> Bool = { _ in false },
                     now: Double = Date().timeIntervalSince1970) throws -> UndoOutcome {
        if let postgres { return try postgres.redo(batch: id, expiredBefore: expiredBefore, undoDays: undoDays, now: now) }
        return try writer().write { db in
            try Self.refuseWhileRunning(isAlive: isAlive, in: db)
            let row = try Self.batchRow(id, newestWhere: "undone_at IS NOT NULL", orElse: .nothingToRedo, in: db)
            var batch = Self.batchRecord(row)
            try batch.checkRedoable(expiredBefore: expiredBefore, undoDays: undoDays)
            var outcome = UndoOutcome(batch: batch, removed: 0, restoredIDs: [], trashed: [])
            switch batch.kind {
            case .replace:
                throw UndoError.notUndoable(batch.id, reason: "a 'lens restore --replace' replaced the whole index")
            case .delete:
                // Deleted from the index again; its files stay where the undo put them.
                try db.execute(sql: "UPDATE batch_item SET trashed = NULL WHERE batch_id = ?", arguments: [batch.id])
                outcome.removed = try Self.takeOut(batch: batch.id, in: db)
            case .import, .restore:
                let records = try String?.fetchAll(db, sql: "SELECT record FROM batch_item WHERE batch_id = ?", arguments: [batch.id])
                if records.contains(where: { $0 == nil }) && !records.isEmpty {
                    // Undone before Lens archived what an undo takes out, or expired by lens gc.
                    throw UndoError.notUndoable(batch.id, reason: "what its undo took out was not kept; 'lens import' of its files recognizes them again")
                }
                var restored: [(Int64, [ArchivedScreenshot.ArchivedLink])] = []
                for record in records.compactMap({ $0 }) {
                    let archive = try JSONDecoder().decode(ArchivedScreenshot.self, from: Data(record.utf8))
                    try db.execute(sql: "DELETE FROM removed_content WHERE sha256 = ?", arguments: [archive.sha256])
                    if let id = try Self.insert(archive, keepingID: true, in: db) { restored.append((id, archive.links)) }
                }
                for (id, links) in restored { try Self.insertLinks(links, of: id, in: db) }
                try db.execute(sql: "UPDATE batch_item SET record = NULL WHERE batch_id = ?", arguments: [batch.id])
                outcome.restoredIDs = restored.map(\.0).sorted()
            }
            try db.execute(sql: "UPDATE batch SET undone_at = NULL, redone_at = ? WHERE id = ?", arguments: [now, batch.id])
            batch.undoneAt = nil
            batch.redoneAt = Date(timeIntervalSince1970: now)
            outcome.batch = batch
            return outcome
        }
    }

    /// Lets go of what expired batches kept to be undone (archives of deleted screenshots) and
    /// returns the trashed files they held, for the caller to delete. The log lines stay.
    public func expireBatches(startedBefore: Double) throws -> [TrashedFile] {
        if let postgres { return try postgres.expireBatches(startedBefore: startedBefore) }
        return try writer().write { db in
            var trashed: [TrashedFile] = []
            for value in try String.fetchAll(db, sql: """
                SELECT i.trashed FROM batch_item i JOIN batch b ON b.id = i.batch_id
                WHERE b.started_at < ? AND i.trashed IS NOT NULL AND b.undone_at IS NULL
                """, arguments: [startedBefore]) {
                trashed += (try? JSONDecoder().decode([TrashedFile].self, from: Data(value.utf8))) ?? []
            }
            try db.execute(sql: """
                UPDATE batch_item SET record = NULL, trashed = NULL
                WHERE (record IS NOT NULL OR trashed IS NOT NULL) AND batch_id IN (SELECT id FROM batch WHERE started_at < ?)
                """, arguments: [startedBefore])
            return trashed
        }
    }
}

/// What `lens restore` did.
public struct RestoreReport: Sendable, Equatable, Encodable {
    public var batch: Int64
    /// Screenshots the backup added.
    public var added: Int
    /// Screenshots of the backup whose content was already here: the local record was kept.
    public var kept: Int
    /// Whether the index was emptied first (`--replace`).
    public var replaced: Bool
}

extension LensDatabase {
    /// Restores archived screenshots in one transaction: either all of them or, on any error,
    /// none. `records` is called with a sink and feeds it every archive (it can stream a file).
    /// With `replacing`, the index is emptied first and archived ids are kept; otherwise content
    /// already here keeps its local record (text, tags, note) and the backup adds the rest.
    public func restore(replacing: Bool, summary: String, now: Double = Date().timeIntervalSince1970,
                        records: ((ArchivedScreenshot) throws -> Void) throws -> Void) throws -> RestoreReport {
        if let postgres { return try postgres.restore(replacing: replacing, summary: summary, now: now, records: records) }
        return try writer().write { db in
            if replacing {
                try db.execute(sql: "DELETE FROM screenshot; DELETE FROM removed_content;")
            }
            try db.execute(sql: "INSERT INTO batch (kind, started_at, summary) VALUES (?, ?, ?)",
                           arguments: [replacing ? "replace" : "restore", now, summary])
            let batch = db.lastInsertedRowID
            var report = RestoreReport(batch: batch, added: 0, kept: 0, replaced: replacing)
            var links: [(Int64, [ArchivedScreenshot.ArchivedLink])] = []
            try records { archive in
                guard let id = try Self.insert(archive, keepingID: replacing, in: db) else {
                    report.kept += 1
                    return
                }
                report.added += 1
                try db.execute(sql: "DELETE FROM removed_content WHERE sha256 = ?", arguments: [archive.sha256])
                try db.execute(sql: "INSERT OR IGNORE INTO batch_item (batch_id, sha256) VALUES (?, ?)", arguments: [batch, archive.sha256])
                if !archive.links.isEmpty { links.append((id, archive.links)) }
            }
            for (id, list) in links { try Self.insertLinks(list, of: id, in: db) }
            try db.execute(sql: "UPDATE batch SET finished_at = ? WHERE id = ?", arguments: [Date().timeIntervalSince1970, batch])
            return report
        }
    }
}
