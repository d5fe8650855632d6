import Crypto
import Foundation
import LensCore
import LensStore
import LensWatch

/// A file found by the scanner, identified by content.
struct ScannedImage: Sendable {
    var path: String
    var size: Int
    var modifiedAt: Double
    var format: ImageFormat
    var sha256: String
}

/// A per-file problem: reported with the path, never fatal to the run.
public struct FileFailure: Error, Sendable, Equatable, Codable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Walks files and folders, recognizing images by their bytes.
struct FileScanner {
    static let notAnImage = "not an image (its bytes match no supported image format)"
    static let emptyFile = "empty file"

    /// Files larger than this are refused without being read.
    var maximumFileBytes: Int
    /// Which symbolic links found inside the roots are followed.
    var symlinks: LensConfiguration.SymlinkPolicy = .inside
    /// Lens's own files (the database, its WAL and journals), never read as input even when
    /// the database lives inside a folder being imported.
    var ownFiles: Set<String> = []

    /// The files that belong to the database at `path`.
    static func ownFiles(of database: LensDatabase) -> Set<String> {
        guard let path = database.path else { return [] }
        return Set([path, path + "-wal", path + "-shm", path + "-journal", path + ".crashes"].map {
            URL(fileURLWithPath: $0).standardizedFileURL.path
        })
    }

    /// What to do with a path found inside `roots` that may be a symbolic link.
    enum LinkVerdict: Equatable {
        case read
        case skip
        case refuse(FileFailure)
    }

    /// Applies the symlink policy to `path` (found inside `roots`, given as real paths). Only the
    /// last component can be a link: a walk never enters a folder link it was not allowed, and
    /// the watcher does not follow folder links at all.
    func verdict(on path: String, roots: [String]) -> LinkVerdict {
        var info = stat()
        guard path.withSystemPath({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK else { return .read }
        switch symlinks {
        case .follow: return .read
        case .never: return .skip
        case .inside:
            guard let resolved = path.withSystemPath({ realpath($0, nil) }) else { return .read } // a loop or a dangling link: stat reports it
            defer { free(resolved) }
            let target = SystemPath.string(fromBytes: UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
            if roots.contains(where: { target == $0 || target.hasPrefix($0 == "/" ? "/" : $0 + "/") }) { return .read }
            return .refuse(FileFailure(path: path, reason: "symbolic link to \(target), outside the folders being read "
                                       + "(symlinks = \"follow\" in the config allows it)"))
        }
    }

    /// The real paths of `folders`, for `verdict(on:roots:)`.
    static func realRoots(_ folders: [String]) -> [String] {
        folders.map { folder in
            guard let resolved = folder.withSystemPath({ realpath($0, nil) }) else { return folder }
            defer { free(resolved) }
            return SystemPath.string(fromBytes: UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
        }
    }

    /// Every regular file under `roots` (recursive), in a stable order. Hidden entries inside
    /// folders are skipped; symlinks inside them follow the `symlinks` policy, and each folder
    /// is visited once, so link loops end. Unreadable entries are reported through `failure`.
    func files(under roots: [String], failure: (FileFailure) -> Void) -> [FoundFile] {
        var found: [FoundFile] = []
        var visited = Set<DirectoryKey>()
        let realRoots = Self.realRoots(roots)
        func visit(_ path: String, explicit: Bool) {
            if ownFiles.contains(path) { return }
            if !explicit {
                switch verdict(on: path, roots: realRoots) {
                case .read: break
                case .skip: return
                case .refuse(let refusal): failure(refusal); return
                }
            }
            var info = stat()
            guard path.withSystemPath({ stat($0, &info) }) == 0 else {
                let reason = errno == ELOOP ? "symbolic link loop" : String(cString: strerror(errno))
                failure(FileFailure(path: path, reason: explicit ? "cannot open: \(reason)" : reason))
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                found.append(FoundFile(path: path, info: info, isExplicit: explicit))
            case S_IFDIR:
                guard visited.insert(DirectoryKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))).inserted else { return }
                guard let entries = DirectoryWatcher.names(in: path) else {
                    failure(FileFailure(path: path, reason: "cannot list folder: \(String(cString: strerror(errno)))"))
                    return
                }
                for name in entries.sorted() where !name.hasPrefix(".") {
                    visit(path == "/" ? "/" + name : path + "/" + name, explicit: false)
                }
            default:
                // A FIFO, socket or device: never opened. Reported when asked for, or named like an image.
                if explicit || FoundFile.hasImageExtension(path) { failure(FileFailure(path: path, reason: Self.notRegular(info))) }
            }
        }
        for root in roots { visit(root, explicit: true) }
        return found
    }

    static func isRegular(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Why a file that is not a regular file is not read: opening a FIFO blocks until a writer
    /// comes, and a device or socket has no bytes of an image.
    static func notRegular(_ info: stat) -> String {
        let kind = switch info.st_mode & S_IFMT {
        case S_IFIFO: "a named pipe (FIFO)"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "neither a file nor a folder"
        }
        return "not a regular file: it is \(kind)"
    }

    /// Reads the file once: the first bytes decide whether it is an image, the rest feed SHA-256.
    func examine(path: String, info: stat) -> Result<ScannedImage, FileFailure> {
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(FileFailure(path: path, reason: Self.notRegular(info))) }
        let size = Int(info.st_size)
        guard size > 0 else { return .failure(FileFailure(path: path, reason: Self.emptyFile)) }
        guard size <= maximumFileBytes else {
            return .failure(FileFailure(path: path, reason: "file is \(size) bytes, over the \(maximumFileBytes)-byte limit"))
        }
        // O_NONBLOCK: a file replaced by a FIFO since it was examined must not block the scan.
        let fd = path.withSystemPath({ open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) })
        guard fd >= 0 else { return .failure(FileFailure(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var reopened = stat()
        guard fstat(fd, &reopened) == 0, reopened.st_mode & S_IFMT == S_IFREG else {
            return .failure(FileFailure(path: path, reason: Self.notRegular(reopened)))
        }
        var hasher = SHA256()
        // 64 KB reads: a 1 MB buffer per file cost a megabyte of zeroing for every text file in a
        // folder of 100,000 (half the scan time), and hashing is no faster with larger reads.
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var format: ImageFormat?
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileFailure(path: path, reason: "read error: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            if total == 0 {
                guard let sniffed = ImageFormat(sniffing: buffer[0..<n]) else {
                    return .failure(FileFailure(path: path, reason: FileScanner.notAnImage))
                }
                format = sniffed
            }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            total += n
        }
        guard let format else { return .failure(FileFailure(path: path, reason: Self.emptyFile)) }
        let digest = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        return .success(ScannedImage(path: path, size: total, modifiedAt: Self.modificationTime(info),
                                     format: format, sha256: digest))
    }

    /// What one file came to when it was examined and recorded.
    enum Ingestion {
        case registered(Registration)
        /// Not an image and not named like one (a notes.txt beside the screenshots): not a problem.
        case skipped
        case failed(FileFailure)
        /// Content taken out of the index on purpose (lens delete, an undone import): left out.
        case removedOnPurpose
    }

    /// Hashes `file` and records it in `database`: the one step from a file on disk to queued
    /// content, shared by `lens import` and the daemon.
    ///
    /// - Parameters:
    ///   - batch: the import run new content belongs to, so `lens undo` can take it out again.
    ///   - respectingRemovals: leave out content removed on purpose (the daemon does; `lens import`,
    ///     asked for these files by name or folder, brings it back).
    func ingest(_ file: FoundFile, into database: LensDatabase, batch: Int64? = nil, respectingRemovals: Bool = false) throws -> Ingestion {
        switch examine(path: file.path, info: file.info) {
        case .failure(let failure) where ([Self.notAnImage, Self.emptyFile].contains(failure.reason) || !Self.isRegular(file.info)) && !file.claimsToBeImage:
            return .skipped
        case .failure(let failure):
            return .failed(failure)
        case .success(let image):
            if respectingRemovals, try database.wasRemoved(sha256: image.sha256) { return .removedOnPurpose }
            return .registered(try database.register(FileObservation(
                path: image.path, size: image.size, modifiedAt: image.modifiedAt, sha256: image.sha256,
                format: image.format, seenAt: Date().timeIntervalSince1970), batch: batch))
        }
    }

    static func modificationTime(_ info: stat) -> Double {
        Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
    }
}

/// A regular file the walk reached.
struct FoundFile {
    var path: String
    var info: stat
    /// Named on the command line, rather than found inside a folder.
    var isExplicit: Bool

    /// Extensions that claim "I am an image": such a file that is not one is a failure, not noise.
    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "jpe", "webp", "tif", "tiff", "gif", "bmp"]

    /// Whether a non-image here is worth reporting: it was asked for, or its name says it is an image.
    var claimsToBeImage: Bool {
        isExplicit || Self.hasImageExtension(path)
    }

    static func hasImageExtension(_ path: String) -> Bool {
        imageExtensions.contains((path as NSString).pathExtension.lowercased())
    }
}

private struct DirectoryKey: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// SHA-256 of bytes in memory, as lowercase hex.
func sha256Hex(_ bytes: [UInt8]) -> String {
    SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
}
