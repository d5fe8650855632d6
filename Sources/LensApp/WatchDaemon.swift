import Foundation
import Glibc
import LensCore
import LensEmbed
import LensOCR
import LensStore
import LensWatch
import Logging
import ServiceLifecycle
import UnixSignals

/// Settings of `lens watch`.
public struct WatchOptions: Sendable {
    public var folders: [LensConfiguration.Folder]
    public var stabilitySeconds: Double
    public var importOptions: ImportOptions
    /// Re-reads the folders on SIGHUP; throws (and the daemon keeps its folders) if the file is invalid.
    public var reloadFolders: @Sendable () throws -> [LensConfiguration.Folder]
    /// Where the embedding model is (search by meaning); the daemon reads new texts with it when
    /// OCR is idle, and goes on without when it is missing.
    public var modelDirectory = TextEmbedder.directory()

    public init(folders: [LensConfiguration.Folder], stabilitySeconds: Double, importOptions: ImportOptions,
                reloadFolders: @escaping @Sendable () throws -> [LensConfiguration.Folder]) {
        self.folders = folders
        self.stabilitySeconds = stabilitySeconds
        self.importOptions = importOptions
        self.reloadFolders = reloadFolders
    }
}

/// The configured folders, shared by intake (what to watch) and OCR (which languages a file's
/// folder asks for); replaced as a whole on SIGHUP.
final class WatchedFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [LensConfiguration.Folder]

    init(_ folders: [LensConfiguration.Folder]) { all = folders }

    /// The enabled folders.
    var enabled: [LensConfiguration.Folder] { lock.withLock { all.filter(\.isEnabled) } }

    func replace(with folders: [LensConfiguration.Folder]) { lock.withLock { all = folders } }

    /// The enabled folder holding `path` (the deepest, when folders nest).
    func folder(holding path: String) -> LensConfiguration.Folder? {
        enabled.filter { path.hasPrefix($0.path.hasSuffix("/") ? $0.path : $0.path + "/") }
            .max { $0.path.count < $1.path.count }
    }
}

/// A "there may be queued work" signal from intake to the OCR service; repeated signals coalesce.
struct WorkSignal: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func raise() { continuation.yield() }
    func finish() { continuation.finish() }
}

/// `lens watch`: the services of the indexing daemon, run by a ServiceGroup that turns SIGTERM and
/// SIGINT into a graceful shutdown (in-flight OCR finishes; nothing new is started; exit 0).
public enum WatchDaemon {
    /// True when a stop left the meaning pass's idle thread running (it may wait minutes for the
    /// CPU beside busy work): the process must then end with `_exit`, as `exit`'s handlers would
    /// free memory the thread still uses (see ``EmbeddingService/onIdleThread(until:grace:idle:_:)``).
    public static var leftAThreadRunning: Bool { EmbeddingService.threadsStillRunning > 0 }

    /// Runs until SIGTERM or SIGINT. `alongside` are more services to run in the same group (the
    /// web page, when `[web] enabled`): started after the daemon's own, shut down before them.
    public static func run(library: Library, options: WatchOptions, logger: Logger,
                           notifier: SystemdNotifier = SystemdNotifier(), alongside: [any Service] = []) async throws {
        // Texts stored before Lens masked secrets (an upgraded library, a restored backup) are
        // masked before anything else, so the page and the index never show them again.
        if try library.uncheckedTextCount() > 0 {
            let report = try library.maskStoredTexts(all: false, privacy: options.importOptions.privacy, region: options.importOptions.region,
                                                     phoneRegions: options.importOptions.phoneRegions)
            logger.notice("masked secrets in stored texts", metadata: ["checked": "\(report.checked)", "changed": "\(report.changed)"])
        }
        if library.isPostgreSQL {
            try await runQueueing(library: library, options: options, logger: logger, notifier: notifier, alongside: alongside)
        } else {
            try await run(database: library.database, options: options, logger: logger, notifier: notifier, alongside: alongside)
        }
    }

    /// `lens watch` on a shared (PostgreSQL) library: the folders are watched and their new files
    /// queued, as on SQLite; `lens worker` processes on any host recognize them (registering wakes
    /// them with `NOTIFY`), and so does this host, with `options.importOptions.workers` of its own
    /// (none: it only queues), and read for meaning when the queue is empty. The mind map is not
    /// kept there yet.
    static func runQueueing(library: Library, options: WatchOptions, logger: Logger,
                            notifier: SystemdNotifier, alongside: [any Service]) async throws {
        let database = library.database
        let folders = WatchedFolders(options.folders)
        let remover = OriginalRemover(database: database, folders: folders,
                                      maximumFileBytes: options.importOptions.maximumFileBytes, logger: logger)
        let intake = try IntakeService(database: database, options: options, folders: folders, remover: remover,
                                       signal: WorkSignal(), logger: logger, notifier: notifier)
        var services: [any Service] = []
        if let interval = notifier.watchdogInterval { services.append(WatchdogService(interval: interval, notifier: notifier)) }
        if options.importOptions.workers > 0 {
            var workerOptions = options.importOptions
            workerOptions.folders = options.folders
            services += QueueWorker.services(library: library, options: workerOptions, modelDirectory: options.modelDirectory, logger: logger)
        }
        services.append(intake)
        try await ServiceGroup(services: services + alongside, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }

    static func run(database: LensDatabase, options: WatchOptions, logger: Logger,
                    notifier: SystemdNotifier = SystemdNotifier(), alongside: [any Service] = []) async throws {
        let signal = WorkSignal(), meaningSignal = WorkSignal()
        let folders = WatchedFolders(options.folders)
        let remover = OriginalRemover(database: database, folders: folders,
                                      maximumFileBytes: options.importOptions.maximumFileBytes, logger: logger)
        let ocr = OCRService(database: database, options: options.importOptions, folders: folders, remover: remover,
                             keeper: ConnectionKeeper(database: database), signal: signal, drained: meaningSignal,
                             logger: logger, notifier: notifier)
        let intake = try IntakeService(database: database, options: options, folders: folders, remover: remover,
                                       signal: signal, logger: logger, notifier: notifier)
        let meaning = EmbeddingService(database: database, signal: meaningSignal, modelDirectory: options.modelDirectory, logger: logger)
        var services: [any Service] = [meaning, ocr, intake]
        if let interval = notifier.watchdogInterval {
            // First in the list, so it is shut down last and keeps systemd informed while OCR drains.
            services.insert(WatchdogService(interval: interval, notifier: notifier), at: 0)
        }
        services += alongside
        let group = ServiceGroup(
            services: services, // shut down in reverse order: intake stops first, then OCR drains, then meaning
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
    }
}

/// Sends `WATCHDOG=1` while the daemon's tasks get to run: if they stall (a deadlock, a starved
/// cooperative pool), the pings stop and systemd restarts the service. OCR runs on its own threads,
/// so a long recognition never looks like a hang.
struct WatchdogService: Service {
    let interval: Duration
    let notifier: SystemdNotifier

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    notifier.notify("WATCHDOG=1")
                    try await Task.sleep(for: interval)
                }
            }
        } catch is CancellationError {
            // graceful shutdown: stop pinging
        }
    }
}

/// Recognizes queued items whenever intake signals new work (and once at start, for work left
/// over by a previous run).
struct OCRService: Service {
    let database: LensDatabase
    let options: ImportOptions
    let folders: WatchedFolders
    let remover: OriginalRemover
    /// One for the daemon's life: its entity index is loaded once and kept up to date.
    let keeper: ConnectionKeeper
    let signal: WorkSignal
    /// Raised after a drain that recorded something: the embedding service's cue.
    let drained: WorkSignal
    let logger: Logger
    let notifier: SystemdNotifier

    func run() async throws {
        if let path = database.path {
            let (crashed, poisoned) = try CrashJournal.install(databasePath: path, database: database)
            if !crashed.isEmpty {
                logger.error("the previous run crashed while recognizing screenshots \(crashed); poisoned (skipped until 'lens retry'): \(poisoned)")
            }
        }
        try database.requeueAbandoned(isAlive: isProcessAlive)
        let settings = options.recognizer
        let counter = OutcomeCounter()
        // The pool is built when there is work and released after a minute without any: two
        // Tesseract handles hold ~30 MB each once they have read a page, too much for an idle daemon.
        var pool: OCRWorkerPool?
        var lastWork = ContinuousClock.now
        defer { pool?.shutdown() }
        signal.raise() // leftovers from an earlier run
        // Work queued by another process (`lens retry`, an import) is picked up within 30 s;
        // the same wake-up releases an idle pool.
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(30))
                signal.raise()
            }
        }
        defer { ticker.cancel() }
        // Items waiting out a backoff are woken for at their time, not only by the 30 s ticker.
        var retryWake: Task<Void, Never>?
        defer { retryWake?.cancel() }
        for await _ in signal.stream.cancelOnGracefulShutdown() {
            if try database.hasClaimableWork() {
                let active = try pool ?? OCRWorkerPool(workerCount: max(1, options.workers)) { try Recognizer(settings: settings) }
                pool = active
                let folders = self.folders
                let drain = QueueDrain(database: database, pool: active, maximumFileBytes: options.maximumFileBytes,
                                       retryPolicy: options.retryPolicy, logger: logger,
                                       languages: { path in folders.folder(holding: path)?.languages?.joined(separator: "+") },
                                       extractor: { [region = options.region, phoneRegions = options.phoneRegions, database] path in
                                           EntityExtractors.make(region: folders.folder(holding: path)?.region ?? region, fallbackRegions: phoneRegions,
                                                                 knowing: database)
                                       },
                                       privacy: PrivacyFilter.make(options.privacy, folders: folders),
                                       folderTags: { path in folders.folder(holding: path)?.tags ?? [] },
                                       connections: keeper,
                                       afterRecording: { [remover] item in remover.removeOriginals(of: item.id, at: item.paths) })
                do {
                    try requeueClaimsNoDrainHolds(in: database) // between drains, none of ours is in hand
                    try await drain.run(stopWhen: { Task.isShuttingDownGracefully }) { [database, logger] outcome in
                        counter.record(outcome)
                        // Each failure with its path and reason, as `lens import` lists them.
                        if case .failed(let id, let reason) = outcome {
                            let failure = (try? database.failures(ids: [id]))?.first
                            logger.warning("\(OutputStyle.visible(failure?.path ?? "#\(id)")): \(failure?.reason ?? reason)")
                        }
                    }
                } catch is CancellationError where Task.isShuttingDownGracefully {
                    break
                } catch where LensDatabase.isTransientStorageError(error) {
                    // Disk full, an I/O error: keep running; the queue is retried at the next wake-up.
                    let reason = LensDatabase.explanation(of: error, path: database.path ?? "the database") ?? "\(error)"
                    logger.error("cannot write to the database, will try again: \(reason)")
                }
                lastWork = ContinuousClock.now
                let (recognized, failed) = counter.takeTotals()
                if recognized > 0 { drained.raise() }
                if recognized + failed > 0 {
                    logger.info("indexed", metadata: ["recognized": "\(recognized)", "failed": "\(failed)"])
                    if let counts = try? database.stateCounts() {
                        notifier.notify("STATUS=\(counts[.done] ?? 0) indexed, \(counts[.queued] ?? 0) queued, \(counts[.failed] ?? 0) failed")
                    }
                }
                if let next = try? database.nextRetryTime() {
                    retryWake?.cancel()
                    retryWake = Task {
                        try? await Task.sleep(for: .seconds(max(0, next - Date().timeIntervalSince1970) + 0.01))
                        if !Task.isCancelled { signal.raise() }
                    }
                }
            } else if let idle = pool, ContinuousClock.now - lastWork > .seconds(60) {
                idle.shutdown()
                pool = nil
                returnFreedMemoryToTheSystem()
                logger.debug("released the idle OCR workers")
            }
        }
    }
}

/// Turns file-system events into registered, queued content: candidates wait for stability, are
/// hashed and registered; removals and moves update paths; new folders, overflow and start-up are
/// handled by scans. Summaries are logged, not a line per file.
final class IntakeService: Service, @unchecked Sendable {
    private let database: LensDatabase
    private let options: WatchOptions
    private let signal: WorkSignal
    private let logger: Logger
    private let notifier: SystemdNotifier
    private let watcher: DirectoryWatcher
    private let scanner: FileScanner
    private let lock = NSLock()
    private var tracker: StabilityTracker // guarded by lock
    private let watchedFolders: WatchedFolders
    private let remover: OriginalRemover
    /// Folders scanned on a timer instead of (network shares, `poll_interval`) or as well as
    /// (a tree that hit the inotify watch limit) being watched; guarded by lock.
    private var polled: [String: PollSchedule] = [:]
    /// Wakes the poll loop when `polled` gains a folder.
    private let pollingChanged = WorkSignal()
    private let pending: WorkSignal // wakes the settle loop when the tracker gains entries

    init(database: LensDatabase, options: WatchOptions, folders: WatchedFolders, remover: OriginalRemover,
         signal: WorkSignal, logger: Logger, notifier: SystemdNotifier) throws {
        self.remover = remover
        self.database = database
        self.options = options
        self.signal = signal
        self.logger = logger
        self.notifier = notifier
        watcher = try DirectoryWatcher(logger: logger)
        scanner = FileScanner(maximumFileBytes: options.importOptions.maximumFileBytes, symlinks: options.importOptions.symlinks,
                              ownFiles: FileScanner.ownFiles(of: database))
        tracker = StabilityTracker(delay: options.stabilitySeconds)
        watchedFolders = folders
        pending = WorkSignal()
    }

    private var folders: [LensConfiguration.Folder] { watchedFolders.enabled }

    func run() async throws {
        // Trap SIGHUP before saying READY: its default action would end the process.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for (path, reason) in remover.unwritableFolders() {
            logger.error("delete_after_import is set for \(path), but Lens cannot write there (\(reason)); originals are kept. Under systemd, add the folder to ReadWritePaths= in the unit")
        }
        // Watch first, then scan: whatever lands during the scan is seen by one or the other.
        for folder in folders { startWatching(folder) }
        watcher.start()
        defer { watcher.stop() }
        for folder in folders { reconcile(folder.path) }
        try database.recordDaemonStart(pid: getpid(), folders: folders.map(\.path))
        defer { try? database.recordDaemonStop(pid: getpid()) }
        notifier.notify("READY=1\nSTATUS=watching \(folders.count) folder(s)")
        logger.info("watching", metadata: ["folders": "\(folders.map(\.path))"])

        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { [self] in
                for await event in watcher.events.cancelOnGracefulShutdown() { handle(event) }
            }
            group.addTask { [self] in
                try await settleLoop()
            }
            group.addTask { [self] in
                for await _ in hangups.cancelOnGracefulShutdown() { reload() }
            }
            group.addTask { [self] in
                try await pollLoop()
            }
            try await gracefulShutdown()
            notifier.notify("STOPPING=1") // as shutdown begins: in-flight OCR may still take a moment
            watcher.stop()
            pending.finish()
            pollingChanged.finish()
        }
    }

    /// SIGHUP: new folders are watched and reconciled, removed ones unwatched; queued work is kept.
    private func reload() {
        let next: [LensConfiguration.Folder]
        do {
            next = try options.reloadFolders()
        } catch {
            logger.error("configuration not reloaded, keeping the current folders: \(error)")
            return
        }
        let before = Set(folders.map(\.path))
        watchedFolders.replace(with: next)
        let after = Set(folders.map(\.path))
        for removed in before.subtracting(after) {
            watcher.unwatch(removed)
            lock.withLock { _ = polled.removeValue(forKey: removed) }
        }
        for added in folders where !before.contains(added.path) {
            startWatching(added)
            reconcile(added.path)
        }
        try? database.recordDaemonFolders(pid: getpid(), folders: after.sorted())
        logger.info("configuration reloaded", metadata: ["folders": "\(after.sorted())"])
        notifier.notify("STATUS=watching \(after.count) folder(s)")
    }

    // MARK: - Events

    private func handle(_ event: WatchEvent) {
        switch event {
        case .fileChanged(let path):
            if isIncluded(path) { observe(path) }
        case .fileRemoved(let path):
            forget(path)
            try? database.markGone(path: path)
        case .fileMoved(let from, let to):
            forget(from)
            var info = stat()
            guard isIncluded(to), to.withSystemPath({ stat($0, &info) }) == 0 else {
                try? database.markGone(path: from)
                return
            }
            let moved = (try? database.movePath(from: from, to: to, size: Int(info.st_size),
                                                modifiedAt: FileScanner.modificationTime(info))) ?? false
            if !moved { observe(to) } // not known yet (e.g. still settling under its old name)
        case .directoryAppeared(let path):
            scan(path)
        case .directoryRemoved(let path):
            for gone in (try? database.livePaths(under: path)) ?? [] { try? database.markGone(path: gone) }
        case .overflow:
            logger.warning("inotify queue overflowed; rescanning every watched folder")
            for folder in folders { reconcile(folder.path) }
        case .watchLimitReached(let path):
            let interval = LensConfiguration.watchLimitRescanSeconds
            guard let folder = folders.first(where: { $0.path == path }) ?? watchedFolders.folder(holding: path) else { return }
            let isNew = lock.withLock {
                guard polled[folder.path] == nil else { return false }
                polled[folder.path] = PollSchedule(interval: interval, due: Self.now() + interval)
                return true
            }
            if isNew {
                pollingChanged.raise()
                logger.error("""
                    not every folder under \(folder.path) can be watched: the inotify watch limit is reached \
                    (raise fs.inotify.max_user_watches); that tree is rescanned every \(Int(interval)) s instead
                    """)
            }
        }
    }

    // MARK: - Watching and polling

    /// Watches `folder` with inotify, or polls it: on request (`poll_interval`) or because it is
    /// on a network or FUSE file system, where inotify does not see changes made elsewhere.
    private func startWatching(_ folder: LensConfiguration.Folder) {
        var interval = folder.pollInterval
        if interval == nil, case .remote(let kind) = FileSystemKind.of(folder.path) {
            interval = LensConfiguration.defaultPollSeconds
            logger.notice("\(folder.path) is on a \(kind) file system, where inotify misses changes made elsewhere: polling it every \(Int(LensConfiguration.defaultPollSeconds)) s")
        }
        if let interval {
            lock.withLock { polled[folder.path] = PollSchedule(interval: interval, due: Self.now() + interval) }
            pollingChanged.raise()
        } else {
            watcher.watch(folder.path)
        }
    }

    /// Rescans polled folders when they are due (the scan compares path, size and mtime with the
    /// database, so an unchanged tree costs a stat per file and no reads).
    /// Sleeps until the next folder is due, or, with none polled, until one is added: an idle
    /// daemon without polled folders never wakes up.
    private func pollLoop() async throws {
        var wake = pollingChanged.stream.makeAsyncIterator()
        while !Task.isShuttingDownGracefully {
            let now = Self.now()
            let (due, next) = lock.withLock {
                let due = polled.filter { $0.value.due <= now }.keys.sorted()
                for path in due {
                    if let interval = polled[path]?.interval { polled[path]?.due = now + interval }
                }
                return (due, polled.values.map(\.due).min())
            }
            for path in due { reconcile(path) }
            if let next {
                // Re-checked at least every second, so a folder added meanwhile is not late by much.
                try await Task.sleep(for: .seconds(min(1, max(0.01, next - Self.now()))))
            } else if await wake.next() == nil {
                return
            }
        }
    }

    /// Start-up and overflow: every file not known by path+size+mtime becomes a candidate, and
    /// recorded paths no longer on disk are marked gone.
    private func reconcile(_ folder: String) {
        let onDisk = scan(folder)
        for recorded in (try? database.livePaths(under: folder)) ?? [] where !onDisk.contains(recorded) {
            try? database.markGone(path: recorded)
        }
    }

    @discardableResult
    private func scan(_ folder: String) -> Set<String> {
        var seen = Set<String>()
        for file in scanner.files(under: [folder], failure: { self.logger.warning("\($0.path): \($0.reason)") }) {
            seen.insert(file.path)
            guard isIncluded(file.path) else { continue }
            let unchanged = try? database.unchangedScreenshot(atPath: file.path, size: Int(file.info.st_size),
                                                              modifiedAt: FileScanner.modificationTime(file.info))
            if let unchanged {
                // Recognized, but still here: Lens stopped between the commit and the deletion.
                if unchanged.state == .done { remover.removeOriginals(of: unchanged.id, at: [file.path]) }
            } else {
                observe(file.path)
            }
        }
        return seen
    }

    /// Whether the file's name passes its folder's include and exclude globs.
    private func isIncluded(_ path: String) -> Bool {
        guard let folder = watchedFolders.folder(holding: path) else {
            return false
        }
        let relative = path.dropFirst(folder.path.count + 1)
        if !folder.recursive && relative.contains("/") { return false }
        let components = relative.split(separator: "/").map(String.init)
        if components.contains(where: { name in folder.exclude.contains { fnmatch($0, name, 0) == 0 } }) { return false }
        let name = components.last ?? ""
        return folder.include.isEmpty || folder.include.contains { fnmatch($0, name, 0) == 0 }
    }

    // MARK: - Stability

    private func observe(_ path: String) {
        var info = stat()
        guard path.withSystemPath({ stat($0, &info) }) == 0 else {
            if errno == ELOOP { logger.warning("\(OutputStyle.visible(path)): symbolic link loop") }
            return
        }
        let observation = StabilityTracker.Observation(size: Int(info.st_size), modifiedAt: FileScanner.modificationTime(info))
        lock.withLock { tracker.observe(path, observation, at: Self.now()) }
        pending.raise()
    }

    private func forget(_ path: String) {
        lock.withLock { tracker.forget(path) }
    }

    /// Sleeps while nothing is pending; while files settle, checks every 50 ms.
    private func settleLoop() async throws {
        var wake = pending.stream.makeAsyncIterator()
        while !Task.isShuttingDownGracefully {
            let settled = lock.withLock {
                tracker.settled(at: Self.now()) { path in
                    var info = stat()
                    guard path.withSystemPath({ stat($0, &info) }) == 0 else { return nil }
                    return StabilityTracker.Observation(size: Int(info.st_size), modifiedAt: FileScanner.modificationTime(info))
                }
            }
            if !settled.isEmpty { register(settled) }
            if lock.withLock({ tracker.pendingCount }) == 0 {
                guard await wake.next() != nil else { return }
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    private func register(_ paths: [String]) {
        var added = 0
        let roots = FileScanner.realRoots(folders.map(\.path))
        for path in paths where !scanner.ownFiles.contains(path) {
            switch scanner.verdict(on: path, roots: roots) {
            case .read: break
            case .skip: continue
            case .refuse(let refusal):
                logger.warning("\(OutputStyle.visible(refusal.path)): \(refusal.reason)")
                continue
            }
            var info = stat()
            guard path.withSystemPath({ stat($0, &info) }) == 0 else {
                if errno == ELOOP { logger.warning("\(OutputStyle.visible(path)): symbolic link loop") }
                continue
            }
            do {
                switch try scanner.ingest(FoundFile(path: path, info: info, isExplicit: false), into: database, respectingRemovals: true) {
                case .registered(.added): added += 1
                case .registered(.known(let id, .done, _, _)): remover.removeOriginals(of: id, at: [path])
                case .registered, .skipped, .removedOnPurpose: break
                case .failed(let failure): logger.warning("\(OutputStyle.visible(failure.path)): \(failure.reason)")
                }
                lock.withLock { _ = registrationAttempts.removeValue(forKey: path) }
            } catch where LensDatabase.isTransientStorageError(error) {
                // A full disk or a long lock: the file is tried again later (5 s, doubling up to
                // 5 min) instead of waiting for the next rescan; logged once per file.
                let attempt = lock.withLock { () -> Int in
                    registrationAttempts[path, default: 0] += 1
                    return registrationAttempts[path]!
                }
                if attempt == 1 {
                    let reason = LensDatabase.explanation(of: error, path: database.path ?? "the database") ?? "\(error)"
                    logger.error("cannot record \(OutputStyle.visible(path)) yet, will retry: \(reason)")
                }
                let delay = min(300, 5 * pow(2, Double(attempt - 1)))
                Task { [weak self] in
                    try? await Task.sleep(for: .seconds(delay))
                    self?.observe(path)
                }
            } catch {
                logger.error("cannot record \(OutputStyle.visible(path)): \(error)")
            }
        }
        if added > 0 { signal.raise() }
    }

    /// Files whose registration failed for a transient storage reason, with their attempt count.
    private var registrationAttempts: [String: Int] = [:]

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

struct PollSchedule {
    var interval: Double
    var due: Double
}

/// Counts outcomes between log summaries.
final class OutcomeCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var recognized = 0, failed = 0

    func record(_ outcome: ItemOutcome) {
        lock.withLock {
            switch outcome {
            case .recognized: recognized += 1
            case .failed: failed += 1
            case .deferred: break
            }
        }
    }

    func takeTotals() -> (Int, Int) {
        lock.withLock {
            defer { recognized = 0; failed = 0 }
            return (recognized, failed)
        }
    }
}

/// glibc keeps freed heap memory for reuse; `malloc_trim(0)` returns it, so releasing the OCR
/// workers really lowers the daemon's RSS. `<malloc.h>` is not in Swift's Glibc module, hence dlsym.
func returnFreedMemoryToTheSystem() {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
    typealias MallocTrim = @convention(c) (Int) -> Int32
    _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
}
