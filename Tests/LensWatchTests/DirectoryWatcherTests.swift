import Foundation
import Glibc
import LensTestSupport
@testable import LensWatch
import Testing

/// Collects a watcher's events on a thread of its own, for assertions with a deadline: on the
/// cooperative pool, other suites' synchronous work could keep the collecting task from running
/// past the deadline (seen under the full suite's load as a missing event).
final class EventLog: @unchecked Sendable {
    private static let executor = ThreadExecutor(name: "lens-test-watch-events")
    private let lock = NSLock()
    private var events: [WatchEvent] = []
    private var task: Task<Void, Never>?

    init(_ watcher: DirectoryWatcher) {
        task = Task(executorPreference: Self.executor) { [self] in
            for await event in watcher.events { append(event) }
        }
    }

    private func append(_ event: WatchEvent) { lock.withLock { events.append(event) } }

    var all: [WatchEvent] { lock.withLock { events } }

    /// Waits until `condition` holds for the events so far (or 20 s pass) and returns them.
    @discardableResult
    func wait(until condition: ([WatchEvent]) -> Bool) async -> [WatchEvent] {
        let deadline = ContinuousClock.now + .seconds(20) // returns as soon as the condition holds; a loaded CI machine can take seconds
        // Polls on the executor that collects, so the deadline counts time the events could arrive in.
        return await withTaskExecutorPreference(Self.executor) {
            while ContinuousClock.now < deadline {
                if condition(all) { return all }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return all
        }
    }

    func finished() async { await task?.value }
}

struct Fixture {
    let root: URL
    let watcher: DirectoryWatcher
    let log: EventLog

    init() throws {
        root = try TestSupport.makeTemporaryFolder("lens-watch")
        watcher = try TestSupport.withDefaultInotifyQueue { try DirectoryWatcher() }
        watcher.watch(root.path)
        log = EventLog(watcher)
        watcher.start()
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Writes in place (open, write, close), as a screenshot tool or `cp` does.
    func writeInPlace(_ relative: String, chunks: [String] = ["bytes"]) throws {
        let fd = open(path(relative), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        for chunk in chunks { _ = chunk.withCString { Glibc.write(fd, $0, strlen($0)) } }
        close(fd)
    }
}

@Suite(.serialized)
struct DirectoryWatcherTests {
    @Test func aCompletedWriteIsACandidate() async throws {
        let fx = try Fixture()
        try fx.writeInPlace("shot.png", chunks: ["part one, ", "part two"])
        let events = await fx.log.wait { $0.contains(.fileChanged(fx.path("shot.png"))) }
        // One event when the writer closes the file, not one per write.
        #expect(events.filter { $0 == .fileChanged(fx.path("shot.png")) }.count == 1, "\(events)")
        fx.watcher.stop()
    }

    @Test func anAtomicRenameIntoTheFolderIsACandidate() async throws {
        let fx = try Fixture()
        let outside = try TestSupport.makeTemporaryFolder("lens-outside").appendingPathComponent("done.png")
        try Data("bytes".utf8).write(to: outside)
        try FileManager.default.moveItem(atPath: outside.path, toPath: fx.path("renamed.png"))
        let events = await fx.log.wait { $0.contains(.fileChanged(fx.path("renamed.png"))) }
        #expect(events.contains(.fileChanged(fx.path("renamed.png"))), "\(events)")
        fx.watcher.stop()
    }

    @Test func aNewSubfolderIsWatchedBeforeItIsReported() async throws {
        let fx = try Fixture()
        try FileManager.default.createDirectory(atPath: fx.path("a/b/c"), withIntermediateDirectories: true)
        try fx.writeInPlace("a/b/c/early.png")
        let appeared = await fx.log.wait { $0.contains(.directoryAppeared(fx.path("a"))) }
        #expect(appeared.contains(.directoryAppeared(fx.path("a"))), "\(appeared)")
        // Once reported, the whole new tree is watched: later writes deep inside are seen.
        try await Task.sleep(for: .milliseconds(50))
        #expect(fx.watcher.watchedFolders.isSuperset(of: [fx.path("a"), fx.path("a/b"), fx.path("a/b/c")]))
        try fx.writeInPlace("a/b/c/late.png")
        let events = await fx.log.wait { $0.contains(.fileChanged(fx.path("a/b/c/late.png"))) }
        #expect(events.contains(.fileChanged(fx.path("a/b/c/late.png"))))
        fx.watcher.stop()
    }

    @Test func aFolderMovedInWithContentIsReportedForAScan() async throws {
        let fx = try Fixture()
        let outside = try TestSupport.makeTemporaryFolder("lens-outside")
        try FileManager.default.createDirectory(at: outside.appendingPathComponent("trip/day1"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: outside.appendingPathComponent("trip/day1/beach.png"))
        try FileManager.default.moveItem(atPath: outside.appendingPathComponent("trip").path, toPath: fx.path("trip"))
        let events = await fx.log.wait { $0.contains(.directoryAppeared(fx.path("trip"))) }
        #expect(events.contains(.directoryAppeared(fx.path("trip"))))
        #expect(!events.contains(.fileChanged(fx.path("trip/day1/beach.png")))) // the kernel says nothing of the files
        try await Task.sleep(for: .milliseconds(50))
        #expect(fx.watcher.watchedFolders.contains(fx.path("trip/day1")))
        fx.watcher.stop()
    }

    @Test func deletesAndMovesAreReported() async throws {
        let fx = try Fixture()
        try FileManager.default.createDirectory(atPath: fx.path("sub"), withIntermediateDirectories: true)
        try fx.writeInPlace("one.png")
        try fx.writeInPlace("two.png")
        await fx.log.wait { $0.contains(.fileChanged(fx.path("two.png"))) }
        try FileManager.default.removeItem(atPath: fx.path("one.png"))
        try FileManager.default.moveItem(atPath: fx.path("two.png"), toPath: fx.path("sub/two-renamed.png"))
        let outside = try TestSupport.makeTemporaryFolder("lens-outside")
        try fx.writeInPlace("three.png")
        await fx.log.wait { $0.contains(.fileChanged(fx.path("three.png"))) }
        try FileManager.default.moveItem(atPath: fx.path("three.png"), toPath: outside.appendingPathComponent("three.png").path)
        let events = await fx.log.wait { $0.contains(.fileRemoved(fx.path("three.png"))) }
        #expect(events.contains(.fileRemoved(fx.path("one.png"))), "\(events)")
        #expect(events.contains(.fileMoved(from: fx.path("two.png"), to: fx.path("sub/two-renamed.png"))), "\(events)")
        #expect(events.contains(.fileRemoved(fx.path("three.png"))), "\(events)")
        fx.watcher.stop()
    }

    /// A rename's two halves may arrive in different reads; they are still reported as one move.
    @Test func aBurstOfRenamesIsReportedAsMoves() async throws {
        let fx = try Fixture()
        let count = 300
        for i in 0..<count { try fx.writeInPlace("f\(i).png") }
        await fx.log.wait { $0.filter { if case .fileChanged = $0 { true } else { false } }.count == count }
        for i in 0..<count { rename(fx.path("f\(i).png"), fx.path("g\(i).png")) }
        let events = await fx.log.wait { $0.filter { if case .fileMoved = $0 { true } else { false } }.count == count }
        let moves = events.filter { if case .fileMoved = $0 { true } else { false } }
        let removals = events.filter { if case .fileRemoved = $0 { true } else { false } }
        #expect(moves.count == count, "\(moves.count) moves, \(removals.count) removals")
        #expect(removals.isEmpty)
        fx.watcher.stop()
    }

    @Test func aRemovedFolderIsNoLongerWatched() async throws {
        let fx = try Fixture()
        try FileManager.default.createDirectory(atPath: fx.path("gone/deep"), withIntermediateDirectories: true)
        await fx.log.wait { $0.contains(.directoryAppeared(fx.path("gone"))) }
        try await Task.sleep(for: .milliseconds(50))
        try FileManager.default.removeItem(atPath: fx.path("gone"))
        let events = await fx.log.wait { $0.contains(.directoryRemoved(fx.path("gone"))) }
        #expect(events.contains(.directoryRemoved(fx.path("gone"))))
        try await Task.sleep(for: .milliseconds(50))
        #expect(!fx.watcher.watchedFolders.contains(fx.path("gone/deep")))
        fx.watcher.stop()
    }

    @Test func hiddenFilesAndFoldersAreIgnored() async throws {
        let fx = try Fixture()
        try fx.writeInPlace(".partial-download.png.crdownload")
        try FileManager.default.createDirectory(atPath: fx.path(".Trash-1000"), withIntermediateDirectories: true)
        try fx.writeInPlace("visible.png")
        let events = await fx.log.wait { $0.contains(.fileChanged(fx.path("visible.png"))) }
        #expect(events == [.fileChanged(fx.path("visible.png"))], "\(events)")
        fx.watcher.stop()
    }

    /// With a tiny kernel queue (needs root), a burst overflows it and the watcher says so.
    @Test func aQueueOverflowIsReported() async throws {
        let root = try TestSupport.makeTemporaryFolder("lens-overflow")
        // The queue size is fixed when the instance is created.
        guard let watcher = try TestSupport.withInotifyQueueLimit(16, { try DirectoryWatcher() }) else {
            print("skipped: shrinking max_queued_events needs root")
            return
        }
        watcher.watch(root.path)
        for i in 0..<200 { try Data("x".utf8).write(to: root.appendingPathComponent("f\(i).png")) }
        let log = EventLog(watcher)
        watcher.start()
        let events = await log.wait { $0.contains(.overflow) }
        #expect(events.contains(.overflow), "\(events.count) events, no overflow")
        watcher.stop()
    }

    @Test func stopFinishesTheStream() async throws {
        let fx = try Fixture()
        fx.watcher.stop()
        await fx.log.finished() // returns only because the stream finished
        #expect(fx.log.all.isEmpty)
    }
}

struct FileSystemKindTests {
    @Test(arguments: [(0x6969, "nfs"), (0xFF53_4D42, "cifs"), (0xFE53_4D42, "smb2"), (0x6573_5546, "fuse")])
    func networkAndUserSpaceFileSystemsAreRemote(magic: Int, name: String) {
        #expect(FileSystemKind.kind(magic: magic) == .remote(name))
    }

    @Test func localFileSystemsAreLocal() throws {
        // ext4/overlay/tmpfs: whatever holds the temp folder and /proc here is not a network share.
        #expect(FileSystemKind.of(NSTemporaryDirectory())?.isRemote == false)
        #expect(FileSystemKind.fileSystemMagic("/proc") == 0x9FA0) // PROC_SUPER_MAGIC: f_type is read right
        #expect(FileSystemKind.of("/proc") == .local)
        #expect(FileSystemKind.kind(magic: 0xEF53) == .local) // ext4
        #expect(FileSystemKind.of("/no/such/folder") == nil)
    }
}
