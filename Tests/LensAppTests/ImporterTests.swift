import Foundation
import LensApp
import LensCore
import LensStore
import LensTestSupport
import GRDB
import Logging
import Testing

/// A temp folder with a database and helpers to put files in it.
struct ImportFixture {
    let root: URL
    let database: LensDatabase

    /// - Parameter pageSize: a database page size other than SQLite's default, set before Lens
    ///   creates its schema (tiny pages make any stored text need new pages).
    init(pageSize: Int? = nil) throws {
        root = try TestSupport.makeTemporaryFolder("lens-import")
        let path = root.appendingPathComponent("db/lens.db").path
        if let pageSize {
            try FileManager.default.createDirectory(atPath: root.appendingPathComponent("db").path, withIntermediateDirectories: true)
            try DatabaseQueue(path: path).writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA page_size = \(pageSize); VACUUM")
            }
        }
        database = try LensDatabase(path: path)
    }

    func folder(_ name: String) throws -> URL {
        let url = root.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @discardableResult
    func write(_ bytes: [UInt8], to relative: String) throws -> URL {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    func copySamples(into relative: String) throws -> URL {
        let folder = try self.folder(relative)
        for name in TestSupport.sampleNames {
            try FileManager.default.copyItem(at: TestSupport.samplePNG(name), to: folder.appendingPathComponent(name + ".png"))
        }
        return folder
    }

    func importing(_ paths: [URL], workers: Int = 2, logger: Logger = Logger(label: "test"),
                   beforeRecognizing: @escaping @Sendable () -> Void = {}) async throws -> ImportSummary {
        let once = Once()
        return try await Importer(database: database, options: ImportOptions(workers: workers), logger: logger)
            .run(paths: paths.map(\.path)) { progress in
                if progress.phase == .recognizing { once.run(beforeRecognizing) }
            }
    }
}

/// Runs a closure the first time only.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false

    var hasRun: Bool { lock.withLock { done } }

    func run(_ body: () -> Void) {
        let first = lock.withLock {
            defer { done = true }
            return !done
        }
        if first { body() }
    }
}

@Suite(.serialized)
struct ImporterTests {
    @Test func importsSamplesAndMakesThemSearchable() async throws {
        let fx = try ImportFixture()
        let folder = try fx.copySamples(into: "shots")
        try fx.write(Array("a note beside the screenshots".utf8), to: "shots/notes.txt")
        let summary = try await fx.importing([folder])
        #expect(summary.added == 3)
        #expect(summary.known == 0)
        #expect(summary.skipped == 1)
        #expect(summary.failed == [])
        #expect(summary.recognized == 3)
        let hits = try fx.database.search(SearchRequest(query: try SearchQuery(parsing: "quarterly report")))
        #expect(hits.map { URL(fileURLWithPath: $0.paths[0]).lastPathComponent } == ["chat_dark.png"])
        #expect(try fx.database.integrityCheck() == ["ok"])
    }

    @Test func aSecondImportRecognizesNothing() async throws {
        let fx = try ImportFixture()
        let folder = try fx.copySamples(into: "shots")
        _ = try await fx.importing([folder])
        let second = try await fx.importing([folder])
        #expect(second.added == 0)
        #expect(second.known == 3)
        #expect(second.recognized == 0)
        // Touching a file (new mtime, same bytes) re-hashes it but still recognizes nothing.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)],
                                              ofItemAtPath: folder.appendingPathComponent("terminal.png").path)
        let third = try await fx.importing([folder])
        #expect(third.recognized == 0)
        #expect(third.known == 3)
    }

    @Test func theSameBytesUnderTwoNamesAreOneRecordWithTwoPaths() async throws {
        let fx = try ImportFixture()
        let bytes = try TestSupport.sampleBytes("terminal")
        let a = try fx.write(bytes, to: "a/first.png")
        let b = try fx.write(bytes, to: "b/deeper/renamed.dat") // recognized by bytes, not by name
        let summary = try await fx.importing([fx.root.appendingPathComponent("a"), fx.root.appendingPathComponent("b")])
        #expect(summary.added == 1)
        #expect(summary.known == 1)
        #expect(summary.recognized == 1)
        let id = try #require(try fx.database.screenshotID(forPath: a.path))
        #expect(try fx.database.screenshotID(forPath: b.path) == id)
        #expect(try fx.database.screenshot(id: id)?.paths.sorted() == [a.path, b.path].sorted())
    }

    @Test func eachBadFileFailsAloneWithItsReason() async throws {
        let fx = try ImportFixture()
        let folder = try fx.copySamples(into: "mixed")
        let png = try TestSupport.sampleBytes("receipt_light")
        try fx.write(Array(png.prefix(png.count * 4 / 10)), to: "mixed/truncated.png")
        try fx.write([], to: "mixed/empty.png")
        try fx.write(Array("Visit https://never-indexed.example/page now".utf8), to: "mixed/not_really.jpg")
        try fx.write(TestSupport.pngHeaderOnly(width: 30_000, height: 30_000), to: "mixed/bomb.png")
        let summary = try await fx.importing([folder])
        let reasons = Dictionary(uniqueKeysWithValues: summary.failed.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(reasons.keys.sorted() == ["bomb.png", "empty.png", "not_really.jpg", "truncated.png"])
        #expect(reasons["empty.png"] == "empty file")
        #expect(reasons["not_really.jpg"]?.hasPrefix("not an image") == true)
        #expect(reasons["truncated.png"]?.hasPrefix("truncated PNG") == true)
        #expect(reasons["bomb.png"]?.contains("30000x30000") == true)
        #expect(summary.added == 3) // the good files are all stored
        #expect(try fx.database.stateCounts()[.done] == 3)
        // The URL in the text file was never indexed.
        #expect(try fx.database.search(SearchRequest(query: try SearchQuery(parsing: "never-indexed"))).isEmpty)
    }

    @Test func unreadableEntriesAndSymlinkLoopsAreReportedNotFatal() async throws {
        let fx = try ImportFixture()
        let folder = try fx.copySamples(into: "tree")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("self.png").path,
                                                   withDestinationPath: folder.appendingPathComponent("self.png").path)
        let summary = try await fx.importing([folder])
        #expect(summary.added == 3)
        #expect(summary.failed.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["self.png"])
        #expect(summary.failed.first?.reason == "symbolic link loop")
    }

    @Test func workLeftByADeadProcessIsFinishedByTheNextImport() async throws {
        let fx = try ImportFixture()
        let folder = try fx.copySamples(into: "resume")
        // Register the files as a crashed import would have left them: queued, one claimed by a dead pid.
        for name in TestSupport.sampleNames {
            let bytes = try TestSupport.sampleBytes(name)
            _ = try fx.database.register(FileObservation(
                path: folder.appendingPathComponent(name + ".png").path, size: bytes.count, modifiedAt: 0,
                sha256: sha256(bytes), format: .png, seenAt: 0))
        }
        _ = try #require(try fx.database.claimNext(owner: deadProcessID()))
        #expect(try fx.database.stateCounts()[.running] == 1)
        let summary = try await fx.importing([]) // no paths: finish the queue
        #expect(summary.recognized == 3)
        #expect(summary.resumed == 3) // two still queued, plus the dead process's claim, returned to the queue
        #expect(try fx.database.stateCounts() == [.done: 3, .queued: 0, .running: 0, .failed: 0])
    }

    @Test func aFileChangedAfterScanningIsNotRecognizedUnderItsOldHash() async throws {
        let fx = try ImportFixture()
        let url = try fx.write(try TestSupport.sampleBytes("terminal"), to: "changing/shot.png")
        _ = try fx.database.register(FileObservation(
            path: url.path, size: 1, modifiedAt: 0, sha256: String(repeating: "a", count: 64), format: .png, seenAt: 0))
        let summary = try await fx.importing([])
        #expect(summary.recognized == 0)
        #expect(summary.failed.first?.reason.contains("changed after it was scanned") == true)
    }
}

/// Transient problems (the file briefly gone, the disk full) are retried with backoff;
/// a problem that lasts fails the file with the reason once the attempts are used up.
@Suite(.serialized)
struct TransientFailureTests {
    @Test func aFileGoneForAMomentIsRetriedAndRecognized() async throws {
        let fx = try ImportFixture()
        let url = try fx.write(try TestSupport.sampleBytes("terminal"), to: "flaky/shot.png")
        let away = url.path + ".away"
        let database = fx.database
        let summary = try await fx.importing([url.deletingLastPathComponent()], workers: 1) {
            // Between hashing and OCR the file disappears, and comes back once Lens has deferred it.
            rename(url.path, away)
            Thread.detachNewThread {
                whenSomethingWaitsForRetry(in: database) { rename(away, url.path) }
            }
        }
        #expect(summary.failed == [])
        #expect(summary.recognized == 1)
        let id = try #require(try fx.database.screenshotID(forPath: url.path))
        let detail = try #require(try fx.database.screenshot(id: id))
        #expect(detail.state == .done)
        #expect(detail.attempts >= 2)
    }

    @Test func aFileThatStaysGoneFailsWithTheReasonAfterItsAttempts() async throws {
        let fx = try ImportFixture()
        let url = try fx.write(try TestSupport.sampleBytes("terminal"), to: "gone/shot.png")
        let summary = try await fx.importing([url.deletingLastPathComponent()], workers: 1) {
            unlink(url.path)
        }
        #expect(summary.recognized == 0)
        let attempts = RetryPolicy.interactive.maximumAttempts
        let reason: String = try #require(summary.failed.first?.reason)
        #expect(reason.contains(url.path))
        #expect(reason.contains("No such file"))
        #expect(reason.hasSuffix("(gave up after \(attempts) attempts)"))
    }

    @Test func aFullDiskDefersTheTextAndNothingIsLost() async throws {
        let fx = try ImportFixture(pageSize: 512)
        let folder = try fx.copySamples(into: "full")
        let database = fx.database
        let restoreSpace = Once()
        // Space comes back once Lens has said it cannot write.
        let hook = WarningHook { restoreSpace.run { setPageLimit(nil, on: database) } }
        let logger = Logger(label: "test", factory: { (_: String) -> any LogHandler in hook })
        let summary = try await fx.importing([folder], workers: 1, logger: logger) {
            // The database may not grow: storing recognized text fails with SQLITE_FULL.
            setPageLimit(.current, on: database)
        }
        #expect(summary.failed == [])
        #expect(summary.recognized == 3)
        #expect(try fx.database.stateCounts() == [.done: 3, .queued: 0, .running: 0, .failed: 0])
        #expect(try fx.database.integrityCheck() == ["ok"])
        #expect(restoreSpace.hasRun) // a write was refused, and Lens said so
    }
}

enum PageLimit { case current }

/// Caps the database at its current size (`.current`) or lifts the cap (`nil`).
private func setPageLimit(_ limit: PageLimit?, on database: LensDatabase) {
    try! database.unsafeBulkWrite { (db: Database) -> Void in
        let pages: Int = limit == nil ? 1_073_741_823 : (try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
        try db.execute(sql: "PRAGMA max_page_count = \(pages)")
    }
}

/// A log handler that runs a closure for each message at warning level or above.
struct WarningHook: LogHandler {
    let onWarning: @Sendable () -> Void
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    init(_ onWarning: @escaping @Sendable () -> Void) { self.onWarning = onWarning }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .warning { onWarning() }
    }
}

/// Runs `body` as soon as an item waits out a backoff (polling; gives up after 30 s).
/// Runs `body` once an item waits out a backoff, or after five minutes: a loaded machine (the
/// whole suite on two cores) took over the 30 s this used to allow, and the file came back before
/// the first attempt, so the retry under test never happened.
private func whenSomethingWaitsForRetry(in database: LensDatabase, _ body: () -> Void) {
    for _ in 0..<30_000 {
        if ((try? database.waitingForRetryCount()) ?? 0) > 0 { break }
        usleep(10_000)
    }
    body()
}

/// The pid of a process that has exited.
func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

import Crypto
func sha256(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
