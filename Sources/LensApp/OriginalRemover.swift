import Foundation
import LensCore
import LensStore
import Logging

/// `delete_after_import = true`: removes an original once Lens holds what it needs from it.
///
/// A file is deleted only when all of this holds, in this order: it lies in a folder that asks
/// for it; its content's record is `done` with its text stored; the database has been flushed
/// to disk (a commit alone survives a crash, not a power cut); and the file's bytes, read again
/// just before the unlink, still hash to that content. Anything else keeps the file and says why.
struct OriginalRemover: Sendable {
    let database: LensDatabase
    let folders: WatchedFolders
    let maximumFileBytes: Int
    let logger: Logger

    /// Deletes those of `paths` (files holding screenshot `id`) whose folder asks for it.
    func removeOriginals(of id: Int64, at paths: [String]) {
        let candidates = paths.filter { path in
            guard let folder = folders.folder(holding: path), folder.deletesAfterImport else { return false }
            return Self.liesInside(path, folder: folder.path)
        }
        guard !candidates.isEmpty else { return }
        do {
            guard let record = try database.screenshot(id: id), record.state == .done, record.text != nil else { return }
            try database.syncToDisk()
            for path in candidates {
                remove(path, expecting: record.sha256)
            }
        } catch {
            logger.error("kept \(candidates) (delete_after_import): the database could not confirm the record: \(error)")
        }
    }

    /// Whether the file's real folder lies inside the configured folder's real path. The path
    /// names the folder, but with `symlinks = "follow"` it can run through a link to elsewhere;
    /// only files really inside a folder that asks for it are ever deleted.
    static func liesInside(_ path: String, folder: String) -> Bool {
        func real(_ p: String) -> String? {
            guard let resolved = p.withSystemPath({ realpath($0, nil) }) else { return nil }
            defer { free(resolved) }
            return SystemPath.string(fromBytes: UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
        }
        guard let parent = real((path as NSString).deletingLastPathComponent), let root = real(folder) else { return false }
        return parent == root || parent.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    private func remove(_ path: String, expecting sha256: String) {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path, limit: maximumFileBytes)
        } catch {
            logger.warning("kept \(OutputStyle.visible(path)) (delete_after_import): cannot read it again: \(error)")
            return
        }
        guard sha256Hex(bytes) == sha256 else {
            logger.warning("kept \(OutputStyle.visible(path)) (delete_after_import): it changed after it was recognized")
            return
        }
        guard path.withSystemPath({ unlink($0) }) == 0 else {
            let code = errno
            let hint = code == EROFS || code == EACCES || code == EPERM
                ? " (under systemd, add the folder to ReadWritePaths= in the unit)" : ""
            logger.error("kept \(OutputStyle.visible(path)) (delete_after_import): \(String(cString: strerror(code)))\(hint)")
            return
        }
        try? database.markGone(path: path)
        logger.debug("deleted the original after import", metadata: ["path": "\(path)"])
    }

    /// Folders with `delete_after_import` that Lens cannot write to, with the reason.
    func unwritableFolders() -> [(path: String, reason: String)] {
        folders.enabled.filter(\.deletesAfterImport).compactMap { folder in
            access(folder.path, W_OK) == 0 ? nil : (folder.path, String(cString: strerror(errno)))
        }
    }
}
