import Foundation
import Glibc
import LensStore

/// Remembers which items were being recognized when the process crashed, so that a file that
/// crashes Tesseract is poisoned after two crashes while a `kill -9` from outside (which no handler
/// sees) never counts against a file.
///
/// Hand-written: workers store the ids in flight in fixed slots; a handler for fatal signals
/// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) writes them with `write(2)`, which is async-signal-safe,
/// to a file opened beforehand (`<database>.crashes`), then re-raises the signal with its default action.
public enum CrashJournal {
    static let slotCount = 64
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Int64> = {
        let p = UnsafeMutablePointer<Int64>.allocate(capacity: slotCount)
        p.initialize(repeating: 0, count: slotCount)
        return p
    }()
    nonisolated(unsafe) static var journalDescriptor: Int32 = -1
    /// The handlers installed before ours (e.g. Swift's backtracer), restored and re-raised to.
    nonisolated(unsafe) static let previousActions: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        p.initialize(repeating: sigaction(), count: 65)
        return p
    }()
    nonisolated(unsafe) static var isInstalled = false
    private static let lock = NSLock()

    /// Opens the journal beside the database and installs the fatal-signal handlers, then reports
    /// the crashes a previous process journalled (and empties the journal).
    public static func install(databasePath: String, database: LensDatabase) throws -> (crashed: [Int64], poisoned: [Int64]) {
        let path = databasePath + ".crashes"
        var crashed: [Int64] = []
        if let data = FileManager.default.contents(atPath: path) {
            crashed = stride(from: 0, to: data.count - data.count % 8, by: 8).map { offset in
                data[offset..<offset + 8].withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }
            }.filter { $0 > 0 }
        }
        let poisoned = try database.recordCrashes(ids: crashed)
        lock.withLock {
            if journalDescriptor >= 0 { close(journalDescriptor) }
            journalDescriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o600)
        }
        lock.withLock {
            guard !isInstalled else { return }
            isInstalled = true
            for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] {
                var action = sigaction()
                action.__sigaction_handler.sa_handler = { signal in
                    let fd = CrashJournal.journalDescriptor
                    if fd >= 0 {
                        for index in 0..<CrashJournal.slotCount {
                            var id = CrashJournal.slots[index]
                            if id > 0 { _ = Glibc.write(fd, &id, 8) }
                        }
                    }
                    // Hand the signal to whoever had it before (Swift's backtracer, or the default).
                    sigaction(signal, CrashJournal.previousActions + Int(signal), nil)
                    raise(signal)
                }
                action.sa_flags = 0
                sigemptyset(&action.sa_mask)
                sigaction(signal, &action, previousActions + Int(signal))
            }
        }
        return (crashed, poisoned)
    }

    /// Marks `id` as being recognized on the current thread until `body` returns.
    static func recognizing<T>(_ id: Int64, _ body: () throws -> T) rethrows -> T {
        let slot: Int? = lock.withLock {
            guard let free = (0..<slotCount).first(where: { slots[$0] == 0 }) else { return nil }
            slots[free] = id
            return free
        }
        defer { if let slot { lock.withLock { slots[slot] = 0 } } }
        return try body()
    }

    /// Test-only trigger (see the fault tests): with `LENS_TEST_CRASH_MARKER` set, an image whose bytes
    /// contain the marker aborts the process inside recognition, as a Tesseract crash would.
    static let testCrashMarker: [UInt8]? = ProcessInfo.processInfo.environment["LENS_TEST_CRASH_MARKER"].map { Array($0.utf8) }

    static func crashIfMarked(_ bytes: [UInt8]) {
        guard let marker = testCrashMarker, !marker.isEmpty, bytes.count >= marker.count else { return }
        let tail = bytes.suffix(512)
        if tail.count >= marker.count, (0...(tail.count - marker.count)).contains(where: { Array(tail.dropFirst($0).prefix(marker.count)) == marker }) {
            abort()
        }
    }
}
