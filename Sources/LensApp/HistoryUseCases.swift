import Foundation
import LensCore
import LensStore

/// What `lens delete` did.
public struct DeleteReport: Sendable, Encodable {
    public struct Removed: Sendable, Encodable {
        public var id: Int64
        public var paths: [String]
    }

    /// What happened to one file on disk (`--file`).
    public struct FileAction: Sendable, Encodable {
        public enum Action: String, Sendable, Encodable { case trashed, deleted, kept, restored }
        public var path: String
        public var action: Action
        /// Why a file was kept, or where it went in the trash.
        public var detail: String?
    }

    public var batch: Int64
    public var removed: [Removed]
    public var files: [FileAction]
}

/// What `lens undo` did.
public struct UndoReport: Sendable, Encodable {
    public var batch: BatchRecord
    /// Screenshots taken out (undoing an import or restore).
    public var removed: Int
    /// Screenshots put back (undoing a delete).
    public var restored: [Int64]
    /// Files moved back from the trash, and those that could not be.
    public var files: [DeleteReport.FileAction]
}

/// `lens delete`, `lens undo`, `lens history`: edits of the library that are batches in its log.
public enum HistoryUseCases {
    /// Takes screenshots out of the index as one batch. With `deletingFiles`, their files go too:
    /// into `trashFolder` when there is one (so undo can put them back), else for good. A file
    /// is touched only if its bytes still hash to the screenshot's content: a file changed since
    /// it was indexed is someone's new work and is kept.
    public static func delete(_ library: Library, ids: [Int64], deletingFiles: Bool, trashFolder: String?,
                              maximumFileBytes: Int = 4 << 30) throws -> DeleteReport {
        var seen = Set<Int64>()
        let unique = ids.filter { seen.insert($0).inserted }
        let summary = unique.map { "#\($0)" }.joined(separator: " ") + (deletingFiles ? " with files" : "")
        let (batch, archives) = try library.database.deleteScreenshots(ids: unique, summary: summary)
        var report = DeleteReport(batch: batch, removed: archives.map {
            DeleteReport.Removed(id: $0.id, paths: $0.paths.filter { $0.goneAt == nil }.map(\.path))
        }, files: [])
        guard deletingFiles else { return report }
        for archive in archives {
            var trashed: [TrashedFile] = []
            for path in archive.paths where path.goneAt == nil {
                let action = removeFile(path.path, expecting: archive.sha256, trash: trashFolder.map { "\($0)/\(batch)" },
                                        maximumFileBytes: maximumFileBytes)
                if action.action == .trashed, let place = action.detail { trashed.append(TrashedFile(path: path.path, trash: place)) }
                report.files.append(action)
            }
            if !trashed.isEmpty { try library.database.recordTrashed(trashed, sha256: archive.sha256, batch: batch) }
        }
        return report
    }

    private static func removeFile(_ path: String, expecting sha256: String, trash: String?, maximumFileBytes: Int) -> DeleteReport.FileAction {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path, limit: maximumFileBytes)
        } catch {
            return .init(path: path, action: .kept, detail: "cannot read it: \(error)")
        }
        guard sha256Hex(bytes) == sha256 else {
            return .init(path: path, action: .kept, detail: "it changed since it was indexed")
        }
        guard let trash else {
            guard path.withSystemPath({ unlink($0) }) == 0 else { return .init(path: path, action: .kept, detail: String(cString: strerror(errno))) }
            return .init(path: path, action: .deleted, detail: nil)
        }
        do {
            try FileManager.default.createDirectory(atPath: trash, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let place = uniqueName(in: trash, for: (path as NSString).lastPathComponent)
            try move(path, to: place)
            return .init(path: path, action: .trashed, detail: place)
        } catch {
            return .init(path: path, action: .kept, detail: "cannot move it to the trash \(trash): \(error.localizedDescription)")
        }
    }

    /// `name`, or `name` with a number before its extension, whichever is free in `folder`.
    private static func uniqueName(in folder: String, for name: String) -> String {
        var candidate = folder + "/" + name
        var n = 1
        while candidate.withSystemPath({ access($0, F_OK) }) == 0 {
            n += 1
            let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
            candidate = folder + "/" + base + "-\(n)" + (ext.isEmpty ? "" : "." + ext)
        }
        return candidate
    }

    /// Renames, or copies and unlinks when the two places are on different file systems.
    private static func move(_ from: String, to: String) throws {
        if from.withSystemPath({ old in to.withSystemPath { new in rename(old, new) } }) == 0 { return }
        guard errno == EXDEV else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        try FileManager.default.copyItem(atPath: from, toPath: to)
        guard from.withSystemPath({ unlink($0) }) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: to)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
    }

    /// Reverts a batch (the newest not yet undone, or `batch`). Screenshots put back get their
    /// connections again; trashed files go back where they were (unless something is there now).
    public static func undo(_ library: Library, batch: Int64?, undoDays: Int, now: Date = Date()) throws -> UndoReport {
        let outcome = try library.database.undo(batch: batch, expiredBefore: now.timeIntervalSince1970 - Double(undoDays) * 86_400,
                                                undoDays: undoDays, isAlive: isProcessAlive, now: now.timeIntervalSince1970)
        var files: [DeleteReport.FileAction] = []
        for file in outcome.trashed {
            if file.path.withSystemPath({ access($0, F_OK) }) == 0 {
                files.append(.init(path: file.path, action: .kept, detail: "left in the trash at \(file.trash): a file is at its place now"))
                continue
            }
            do {
                try move(file.trash, to: file.path)
                files.append(.init(path: file.path, action: .restored, detail: "back from \(file.trash)"))
            } catch {
                files.append(.init(path: file.path, action: .kept, detail: "left in the trash at \(file.trash): \(error.localizedDescription)"))
            }
        }
        if let keeper = ConnectionKeeper.ifKept(by: library.database) {
            for id in outcome.restoredIDs { try keeper.connect(id) }
        }
        return UndoReport(batch: outcome.batch, removed: outcome.removed, restored: outcome.restoredIDs, files: files)
    }

    /// Undoing an import, or a batch of more than this many screenshots, is confirmed first.
    public static let largeBatch = 100

    /// The batch `undo` would revert, and whether undoing it must be confirmed (an import, or more
    /// than ``largeBatch`` screenshots). Changes nothing.
    public static func undoCandidate(_ library: Library, batch: Int64?, undoDays: Int, now: Date = Date()) throws
        -> (batch: BatchRecord, needsConfirmation: Bool) {
        let record = try library.database.undoCandidate(batch: batch, expiredBefore: now.timeIntervalSince1970 - Double(undoDays) * 86_400,
                                                        undoDays: undoDays, isAlive: isProcessAlive)
        return (record, record.kind == .import || record.items > largeBatch)
    }

    /// Brings an undone batch back without OCR (the newest undone, or `batch`); the screenshots
    /// that return get their connections again.
    public static func redo(_ library: Library, batch: Int64?, undoDays: Int, now: Date = Date()) throws -> UndoReport {
        let outcome = try library.database.redo(batch: batch, expiredBefore: now.timeIntervalSince1970 - Double(undoDays) * 86_400,
                                                undoDays: undoDays, isAlive: isProcessAlive, now: now.timeIntervalSince1970)
        if let keeper = ConnectionKeeper.ifKept(by: library.database) {
            for id in outcome.restoredIDs { try keeper.connect(id) }
        }
        return UndoReport(batch: outcome.batch, removed: outcome.removed, restored: outcome.restoredIDs, files: [])
    }

    /// Lets go of what batches older than `undoDays` kept for undo, trashed files included;
    /// returns how many trashed files were deleted. Part of `lens gc`.
    public static func expire(_ library: Library, undoDays: Int, now: Date = Date()) throws -> Int {
        let trashed = try library.database.expireBatches(startedBefore: now.timeIntervalSince1970 - Double(undoDays) * 86_400)
        return trashed.reduce(0) { count, file in file.trash.withSystemPath({ unlink($0) }) == 0 ? count + 1 : count }
    }
}
