import Foundation
import LensCore
import LensEmbed
import LensOCR
import LensStore
import Logging
import ServiceLifecycle

/// `lens worker`: recognizes what any host queued in a shared library, until it is stopped.
///
/// Claims hold a lease (``LensDatabase/defaultLease``): a worker that dies mid-image (kill -9,
/// a lost host) loses nothing, since its items become claimable again when their leases end, and
/// it cannot store them late: only the claim's holder may record a result. It sleeps until
/// content is queued (PostgreSQL's `NOTIFY`), a retry or a lease comes due, or 30 s pass.
public struct QueueWorker: Service {
    let library: Library
    let options: ImportOptions
    /// Where the paths the queueing hosts recorded are on this host.
    let pathMap: PathPrefixMap
    let logger: Logger
    /// Raised each time the queue is found empty: the embedding service's cue.
    var drained: WorkSignal?

    public init(library: Library, options: ImportOptions, pathMap: PathPrefixMap = PathPrefixMap(), logger: Logger) {
        self.library = library
        self.options = options
        self.pathMap = pathMap
        self.logger = logger
    }

    /// The services of a worker host: the worker, and the reading for meaning it does when the
    /// shared queue is empty (vectors claimed per text, so hosts share that work too; the model
    /// is loaded only while there is some). Shut down in reverse order: the worker first.
    public static func services(library: Library, options: ImportOptions, pathMap: PathPrefixMap = PathPrefixMap(),
                                modelDirectory: String = TextEmbedder.directory(), logger: Logger) -> [any Service] {
        var worker = QueueWorker(library: library, options: options, pathMap: pathMap, logger: logger)
        let signal = WorkSignal()
        worker.drained = signal
        return [EmbeddingService(database: library.database, signal: signal, modelDirectory: modelDirectory, logger: logger), worker]
    }

    /// The longest a worker sleeps without looking at the queue.
    static let longestSleep = 30.0

    public func run() async throws {
        let database = library.database
        try database.requeueAbandoned(isAlive: isProcessAlive)
        let notifications = try database.queueNotifications()
        defer { notifications?.close() }
        let settings = options.recognizer
        let pool = try OCRWorkerPool(workerCount: max(1, options.workers)) { try Recognizer(settings: settings) }
        defer { pool.shutdown() }
        let folders = WatchedFolders(options.folders)
        let extractor = EntityExtractors.make(region: options.region, fallbackRegions: options.phoneRegions, knowing: database)
        var drain = QueueDrain(database: database, pool: pool, maximumFileBytes: options.maximumFileBytes,
                               retryPolicy: options.retryPolicy, logger: logger, extractor: { _ in extractor },
                               privacy: PrivacyFilter.make(options.privacy, folders: folders),
                               folderTags: { path in folders.folder(holding: path)?.tags ?? [] },
                               connections: ConnectionKeeper.ifKept(by: database))
        drain.pathMap = pathMap
        logger.info("worker started", metadata: ["store": "\(database.location)", "ocr_workers": "\(pool.workerCount)"])
        // The claims in hand are renewed every third of a lease, so a long recognition keeps its
        // image; a worker that stops (or is killed) stops renewing, and its leases run out.
        let renewal = Task.detached { [database, logger] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(database.leaseSeconds / 3))
                do { try database.renewLeases() } catch { logger.warning("cannot renew leases yet: \(error)") }
            }
        }
        defer { renewal.cancel() }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await drain.run(stopWhen: { Task.isShuttingDownGracefully }) { [database, logger] outcome in
                    // Each failure with its path and reason, as the daemon logs them.
                    if case .failed(let id, let reason) = outcome {
                        let failure = (try? database.failures(ids: [id]))?.first
                        logger.warning("\(OutputStyle.visible(failure?.path ?? "#\(id)")): \(failure?.reason ?? reason)")
                    }
                }
            } catch is CancellationError where Task.isShuttingDownGracefully {
                break
            } catch let error as PostgresStoreError where error.isTransient {
                logger.error("the store is out of reach, trying again in 5 s: \(error)")
                try? await Task.sleep(for: .seconds(5))
                continue
            }
            // Nothing claimable: sleep until something is queued, a retry or a lease comes due.
            drained?.raise()
            let now = Date().timeIntervalSince1970
            let due = (try? database.nextRetryTime()).flatMap { $0 }.map { max(0.05, $0 - now + 0.01) } ?? Self.longestSleep
            let sleep = min(due, Self.longestSleep)
            // A SIGTERM ends the sleep at once.
            logger.debug("idle: the queue is empty, waiting up to \(Int(sleep.rounded(.up))) s")
            try? await cancelWhenGracefulShutdown {
                if let notifications {
                    if await notifications.wait(upTo: sleep) { logger.debug("woken: content was queued") }
                } else {
                    try await Task.sleep(for: .milliseconds(Int(min(sleep, 2) * 1000)))
                }
            }
        }
        logger.info("worker stopped")
    }
}
