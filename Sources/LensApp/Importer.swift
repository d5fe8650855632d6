import Foundation
import LensCore
import LensOCR
import LensStore
import Logging

/// Settings of one import run.
public struct ImportOptions: Sendable {
    public var workers: Int
    public var recognizer: RecognizerSettings
    /// Files larger than this are refused without being decoded.
    public var maximumFileBytes: Int
    /// Backoff for transient problems; a one-shot import waits seconds, the daemon minutes.
    public var retryPolicy: RetryPolicy
    /// The region for phone numbers and numeric dates in the text (folders may override it).
    public var region: String
    /// Regions for national phone numbers after `region` (`regions`).
    public var phoneRegions: [String] = []
    /// Which symbolic links inside the folders are followed.
    public var symlinks: LensConfiguration.SymlinkPolicy
    /// The configured folders: a file under one gets its `tags` (and its `mask`).
    public var folders: [LensConfiguration.Folder] = []
    /// Which secrets are masked before anything is stored (`[privacy]`).
    public var privacy = LensConfiguration.Privacy()
    /// Only register and queue the files: workers (`lens worker`, on this host or others) recognize them.
    public var queueOnly = false

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                recognizer: RecognizerSettings = RecognizerSettings(),
                maximumFileBytes: Int = 256 << 20,
                retryPolicy: RetryPolicy = .interactive,
                region: String = "US",
                symlinks: LensConfiguration.SymlinkPolicy = .inside) {
        self.workers = workers
        self.recognizer = recognizer
        self.maximumFileBytes = maximumFileBytes
        self.retryPolicy = retryPolicy
        self.region = region
        self.symlinks = symlinks
    }
}

/// The result of `lens import`, printed as text or JSON.
public struct ImportSummary: Sendable, Encodable, Equatable {
    /// New contents indexed by this run (new contents that failed are in `failed` instead).
    public var added: Int
    /// Files whose content was already stored (same bytes under any path).
    public var known: Int
    /// Files inside folders that are not images and do not claim to be (no image extension).
    public var skipped: Int
    /// Images recognized by this run, including work resumed from an interrupted run.
    public var recognized: Int
    /// Queue items left over from an interrupted run and finished by this one.
    public var resumed: Int
    public var failed: [FileFailure]
    public var seconds: Double

    /// Files examined per second of wall time.
    public var imagesPerSecond: Double {
        let files = added + known + failed.count
        return seconds > 0 ? Double(files) / seconds : 0
    }

    enum CodingKeys: String, CodingKey {
        case added, known, skipped, recognized, resumed, failed, seconds
        case imagesPerSecond = "images_per_second"
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(added, forKey: .added)
        try c.encode(known, forKey: .known)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(recognized, forKey: .recognized)
        try c.encode(resumed, forKey: .resumed)
        try c.encode(failed, forKey: .failed)
        try c.encode(seconds, forKey: .seconds)
        try c.encode(imagesPerSecond, forKey: .imagesPerSecond)
    }
}

/// Progress of an import, for a progress bar.
public struct ImportProgress: Sendable {
    public enum Phase: Sendable { case scanning, recognizing }
    public var phase: Phase
    public var completed: Int
    public var total: Int
}

/// `lens import`: find images, dedupe by content, queue new content and recognize it.
///
/// One bad file never stops the run: its problem is recorded with its path and the run goes on.
public struct Importer: Sendable {
    let database: LensDatabase
    let options: ImportOptions
    let logger: Logger

    public init(library: Library, options: ImportOptions, logger: Logger) {
        self.init(database: library.database, options: options, logger: logger)
    }

    public init(database: LensDatabase, options: ImportOptions, logger: Logger) {
        self.database = database
        self.options = options
        self.logger = logger
    }

    public func run(paths: [String], progress: @escaping @Sendable (ImportProgress) -> Void = { _ in }) async throws -> ImportSummary {
        let start = ContinuousClock.now
        var poisonedIDs: [Int64] = []
        if let path = database.path {
            poisonedIDs = try CrashJournal.install(databasePath: path, database: database).poisoned
        }
        try database.requeueAbandoned(isAlive: isProcessAlive)
        let pendingBefore = try database.stateCounts()[.queued] ?? 0

        // 1. Scan: sniff, hash and register every file. Cheap next to OCR (SHA-256 runs at ~1.8 GB/s).
        let scanner = FileScanner(maximumFileBytes: options.maximumFileBytes, symlinks: options.symlinks,
                                  ownFiles: FileScanner.ownFiles(of: database))
        var failures: [FileFailure] = []
        let files = scanner.files(under: paths.map(LensLocations.absolute)) { failures.append($0) }
        var addedIDs = Set<Int64>(), known = 0, skipped = 0
        var knownFailedIDs: [Int64] = []
        // The run is a batch in the log, so `lens undo` can take its new screenshots out again.
        let batch = paths.isEmpty ? nil : try database.beginBatch(.import, summary: paths.map(LensLocations.absolute).joined(separator: ", "))
        for (index, file) in files.enumerated() {
            progress(ImportProgress(phase: .scanning, completed: index, total: files.count))
            let size = Int(file.info.st_size), mtime = FileScanner.modificationTime(file.info)
            if let unchanged = try database.unchangedScreenshot(atPath: file.path, size: size, modifiedAt: mtime) {
                known += 1
                if unchanged.state == .failed { knownFailedIDs.append(unchanged.id) }
                continue
            }
            switch try scanner.ingest(file, into: database, batch: batch) {
            case .skipped, .removedOnPurpose:
                skipped += 1
            case .failed(let failure):
                failures.append(failure)
            case .registered(.added(let id)):
                addedIDs.insert(id)
            case .registered(.known(let id, let state, _, _)):
                known += 1
                if state == .failed { knownFailedIDs.append(id) }
            }
        }
        progress(ImportProgress(phase: .scanning, completed: files.count, total: files.count))

        // 2. Recognize everything queued, including work an interrupted run left behind.
        let total = try database.stateCounts()[.queued] ?? 0
        let tally = Tally()
        if total > 0 && !options.queueOnly {
            let settings = options.recognizer
            let pool = try OCRWorkerPool(workerCount: max(1, min(options.workers, total))) {
                try Recognizer(settings: settings)
            }
            defer { pool.shutdown() }
            progress(ImportProgress(phase: .recognizing, completed: 0, total: total))
            let extractor = EntityExtractors.make(region: options.region, fallbackRegions: options.phoneRegions, knowing: database)
            let drain = QueueDrain(database: database, pool: pool, maximumFileBytes: options.maximumFileBytes,
                                   retryPolicy: options.retryPolicy, logger: logger, extractor: { _ in extractor },
                                   privacy: PrivacyFilter.make(options.privacy, folders: WatchedFolders(options.folders)),
                                   folderTags: { [folders = WatchedFolders(options.folders)] path in folders.folder(holding: path)?.tags ?? [] },
                                   connections: ConnectionKeeper.ifKept(by: database))
            // Items with a transient problem wait out their backoff; the policy bounds the attempts,
            // so this ends with each of them recognized or failed. Another process (a daemon) may
            // take one meanwhile: only items still waiting keep the import here.
            var refusedWrites = 0
            while true {
                do {
                    try await drain.run { outcome in
                        let done = tally.record(outcome)
                        progress(ImportProgress(phase: .recognizing, completed: done, total: total))
                    }
                } catch where LensDatabase.isTransientStorageError(error) {
                    // The database refused a write (disk full, I/O error): wait and go on with the
                    // same policy; the items in hand stay claimed until they can be put back.
                    refusedWrites += 1
                    guard let delay = options.retryPolicy.delay(afterAttempt: refusedWrites) else {
                        throw ImportError.storageUnavailable(error)
                    }
                    logger.warning("cannot write to the database, trying again in \(delay) s: \(error)")
                    try await Task.sleep(for: .seconds(delay))
                    try? requeueClaimsNoDrainHolds(in: database)
                    continue
                }
                guard let next = try database.retryTimes(ids: tally.waitingIDs).values.min() else { break }
                try await Task.sleep(for: .seconds(max(0, next - Date().timeIntervalSince1970) + 0.01))
            }
        }
        if let batch { try database.finishBatch(batch, droppingIfEmpty: true) }
        let (recognized, failedIDs) = tally.result
        failures += try database.failures(ids: failedIDs + knownFailedIDs + poisonedIDs).map { FileFailure(path: $0.path, reason: $0.reason) }
        let elapsed = ContinuousClock.now - start
        // What is stored now: a screenshot taken out meanwhile (lens delete) is not counted.
        let stored = options.queueOnly ? addedIDs : try database.recognizedIDs(among: addedIDs.subtracting(failedIDs))
        let summary = ImportSummary(
            added: stored.count, known: known, skipped: skipped, recognized: recognized, resumed: pendingBefore,
            failed: failures.sorted { $0.path < $1.path },
            seconds: elapsed.seconds)
        logger.info("import finished", metadata: [
            "added": "\(summary.added)", "known": "\(summary.known)", "failed": "\(summary.failed.count)",
            "seconds": "\(String(format: "%.2f", summary.seconds))"])
        return summary
    }
}

/// Why an import stopped before its end. Whatever was stored stays; an interrupted queue is resumed
/// by the next `lens import` or `lens watch`.
public enum ImportError: Error, CustomStringConvertible {
    case storageUnavailable(any Error)

    public var description: String {
        switch self {
        case .storageUnavailable(let error):
            return "the database kept refusing writes (is the disk full?): \(error); nothing stored was lost, run the import again to resume"
        }
    }
}

/// Counts outcomes reported from concurrent drain tasks.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var recognized = 0
    private var failedIDs: [Int64] = []
    private var waiting = Set<Int64>()

    func record(_ outcome: ItemOutcome) -> Int {
        lock.lock(); defer { lock.unlock() }
        switch outcome {
        case .recognized(let id): recognized += 1; waiting.remove(id)
        case .failed(let id, _): failedIDs.append(id); waiting.remove(id)
        case .deferred(let id, _, _): waiting.insert(id)
        }
        return recognized + failedIDs.count
    }

    /// Items deferred by this run that have not come to an end yet.
    var waitingIDs: [Int64] {
        lock.lock(); defer { lock.unlock() }
        return waiting.sorted()
    }

    var result: (Int, [Int64]) {
        lock.lock(); defer { lock.unlock() }
        return (recognized, failedIDs)
    }
}
