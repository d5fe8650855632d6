import Foundation
import Glibc
import LensCore
import Logging

/// Watches folder trees with the kernel's inotify API and reports ``WatchEvent``s.
///
/// Kernel inotify through Glibc rather than libinotifytools: the library keeps process-global
/// state (one instance per process, its own path table) and is GPL-2, while the raw API is a few
/// calls. A dedicated thread `poll()`s the inotify descriptor and a stop pipe, so the blocking
/// wait never occupies Swift's cooperative pool; events reach callers through an `AsyncStream`.
///
/// A watch is added to every folder of a tree (inotify is not recursive). A new subfolder gets its
/// watch first and is then reported as ``WatchEvent/directoryAppeared(_:)``, so the consumer's scan
/// finds what was written before the watch existed; files written after it are reported twice at
/// worst, which content hashing makes harmless.
public final class DirectoryWatcher: @unchecked Sendable {
    /// The events, in kernel order. Finishes when ``stop()`` is called.
    public let events: AsyncStream<WatchEvent>
    private let continuation: AsyncStream<WatchEvent>.Continuation

    private let fd: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let logger: Logger
    private let lock = NSLock()
    // Guarded by `lock`.
    private var pathsByDescriptor: [Int32: String] = [:]
    private var descriptorsByPath: [String: Int32] = [:]
    private var thread: Thread?
    private var isStopped = false
    /// Renames out whose `IN_MOVED_TO` has not been read yet (reader thread only). The kernel queues
    /// the pair back to back, but a read can end between them.
    private var unpairedMoves: [UInt32: (path: String, isDirectory: Bool)] = [:]

    /// Event mask: completed writes, renames in and out, creations (for folders), deletions.
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    public enum SetupError: Error, CustomStringConvertible {
        case inotifyUnavailable(String)
        public var description: String {
            switch self {
            case .inotifyUnavailable(let reason): return "cannot start inotify: \(reason)"
            }
        }
    }

    public init(logger: Logger = Logger(label: "lens.watch")) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SetupError.inotifyUnavailable(String(cString: strerror(errno))) }
        var fds: [Int32] = [0, 0]
        // Swift's Glibc module has no pipe2 or eventfd; a plain pipe is enough to wake poll().
        guard pipe(&fds) == 0 else {
            close(fd)
            throw SetupError.inotifyUnavailable("pipe: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        stopPipe = (fds[0], fds[1])
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(of: WatchEvent.self, bufferingPolicy: .unbounded)
    }

    deinit {
        stop()
        close(fd)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Watches `root` and every folder below it (hidden folders excepted).
    /// Returns `false`, after reporting ``WatchEvent/watchLimitReached(_:)``, if the watch limit
    /// stopped it part-way.
    @discardableResult
    public func watch(_ root: String) -> Bool {
        addWatches(under: root)
    }

    /// Stops watching `root` and the folders below it.
    public func unwatch(_ root: String) {
        lock.lock()
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let doomed = descriptorsByPath.filter { $0.key == root || $0.key.hasPrefix(prefix) }
        for (path, wd) in doomed {
            inotify_rm_watch(fd, wd)
            descriptorsByPath[path] = nil
            pathsByDescriptor[wd] = nil
        }
        lock.unlock()
    }

    /// The folders currently watched.
    public var watchedFolders: Set<String> {
        lock.lock(); defer { lock.unlock() }
        return Set(descriptorsByPath.keys)
    }

    /// Starts the reading thread. Events that happened since ``watch(_:)`` are not lost:
    /// the kernel queues them.
    public func start() {
        lock.lock()
        defer { lock.unlock() }
        guard thread == nil, !isStopped else { return }
        let thread = Thread { [self] in readLoop() }
        thread.name = "lens-inotify"
        self.thread = thread
        thread.start()
    }

    /// Stops the reading thread and finishes ``events``.
    public func stop() {
        lock.lock()
        let wasStopped = isStopped
        isStopped = true
        lock.unlock()
        guard !wasStopped else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        lock.lock()
        let isRunning = thread != nil
        lock.unlock()
        if !isRunning { continuation.finish() }
    }

    // MARK: - Watches

    private func addWatches(under root: String) -> Bool {
        var pending = [root]
        var visited = Set<String>()
        while let folder = pending.popLast() {
            guard visited.insert(folder).inserted else { continue }
            let wd = folder.withSystemPath({ inotify_add_watch(fd, $0, Self.mask) })
            if wd < 0 {
                let code = errno
                if code == ENOSPC {
                    logger.error("inotify watch limit reached; this tree will be polled instead. Raise fs.inotify.max_user_watches (e.g. sysctl fs.inotify.max_user_watches=524288)",
                                 metadata: ["folder": "\(folder)"])
                    continuation.yield(.watchLimitReached(root))
                    return false
                }
                if code != ENOENT && code != ENOTDIR {
                    logger.warning("cannot watch folder", metadata: ["folder": "\(folder)", "reason": "\(String(cString: strerror(code)))"])
                }
                continue
            }
            lock.lock()
            if let old = pathsByDescriptor[wd], old != folder { descriptorsByPath[old] = nil }
            pathsByDescriptor[wd] = folder
            descriptorsByPath[folder] = wd
            lock.unlock()
            guard let names = Self.names(in: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                let child = folder == "/" ? "/" + name : folder + "/" + name
                var info = stat()
                // lstat: a symlink to a folder is not followed (no loops, no escaping the tree).
                if child.withSystemPath({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR { pending.append(child) }
            }
        }
        return true
    }

    // MARK: - Reading

    private func readLoop() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            // While a rename's second half is outstanding, wait 10 ms for it, then call it a removal.
            let ready = poll(&fds, 2, unpairedMoves.isEmpty ? -1 : 10)
            if ready < 0 {
                if errno == EINTR { continue }
                logger.error("inotify poll failed", metadata: ["reason": "\(String(cString: strerror(errno)))"])
                break
            }
            if fds[1].revents != 0 { break }
            if ready == 0 {
                for event in flushUnpairedMoves() { continuation.yield(event) }
                continue
            }
            guard fds[0].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                logger.error("inotify read failed", metadata: ["reason": "\(String(cString: strerror(errno)))"])
                break
            }
            for event in decode(buffer, count: count) { continuation.yield(event) }
        }
        for event in flushUnpairedMoves() { continuation.yield(event) }
        continuation.finish()
    }

    /// Renames out that found no partner: the file or folder left the watched trees.
    private func flushUnpairedMoves() -> [WatchEvent] {
        let moves = unpairedMoves.values.sorted { $0.path < $1.path }
        unpairedMoves.removeAll()
        return moves.map { move in
            if move.isDirectory {
                unwatch(move.path)
                return .directoryRemoved(move.path)
            }
            return .fileRemoved(move.path)
        }
    }

    /// The names in a folder (without `.` and `..`), via readdir so that an unreadable folder is
    /// an error rather than empty; names that are not UTF-8 are kept by ``SystemPath``. Nil, with
    /// `errno` set, when the folder cannot be read. The scanner lists folders with it too.
    public static func names(in folder: String) -> [String]? {
        guard let dir = folder.withSystemPath({ opendir($0) }) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let all = raw.bindMemory(to: UInt8.self)
                return Array(all[..<(all.firstIndex(of: 0) ?? all.count)])
            }
            let name = SystemPath.string(fromBytes: bytes)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Turns one read's raw events into ``WatchEvent``s, pairing renames by cookie (across reads).
    private func decode(_ buffer: [UInt8], count: Int) -> [WatchEvent] {
        var out: [WatchEvent] = []
        var offset = 0
        let headerSize = MemoryLayout<inotify_event>.size
        while offset + headerSize <= count {
            let (wd, mask, cookie, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, UInt32, Int) in
                let e = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (e.wd, e.mask, e.cookie, Int(e.len))
            }
            let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
            let name = SystemPath.string(fromBytes: nameBytes.prefix { $0 != 0 })
            offset += headerSize + length

            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                out.append(.overflow)
                continue
            }
            lock.lock()
            let folder = pathsByDescriptor[wd]
            if mask & UInt32(IN_IGNORED) != 0, let folder {
                pathsByDescriptor[wd] = nil
                if descriptorsByPath[folder] == wd { descriptorsByPath[folder] = nil }
            }
            lock.unlock()
            guard let folder else { continue }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                continue // reported by the parent as a delete or move of a folder
            }
            guard !name.isEmpty, !name.hasPrefix(".") else { continue }
            let path = folder == "/" ? "/" + name : folder + "/" + name
            let isDirectory = mask & UInt32(IN_ISDIR) != 0

            if mask & UInt32(IN_MOVED_FROM) != 0 {
                unpairedMoves[cookie] = (path, isDirectory)
            } else if mask & UInt32(IN_MOVED_TO) != 0 {
                let source = unpairedMoves.removeValue(forKey: cookie)
                if let source, !isDirectory, !source.isDirectory {
                    out.append(.fileMoved(from: source.path, to: path))
                } else if isDirectory {
                    if let source, source.isDirectory {
                        unwatch(source.path)
                        out.append(.directoryRemoved(source.path))
                    }
                    _ = addWatches(under: path)
                    out.append(.directoryAppeared(path))
                } else {
                    out.append(.fileChanged(path))
                }
            } else if mask & UInt32(IN_CREATE) != 0 {
                var info = stat()
                if isDirectory {
                    _ = addWatches(under: path)
                    out.append(.directoryAppeared(path))
                } else if path.withSystemPath({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFLNK {
                    // A new symbolic link gets no IN_CLOSE_WRITE: it is complete once created.
                    // The reader decides whether to follow it (the symlink policy).
                    out.append(.fileChanged(path))
                }
            } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                out.append(.fileChanged(path))
            } else if mask & UInt32(IN_DELETE) != 0 {
                if isDirectory {
                    unwatch(path)
                    out.append(.directoryRemoved(path))
                } else {
                    out.append(.fileRemoved(path))
                }
            }
        }
        return out
    }
}
