import Foundation
import LensCore
import LensEmbed
import LensStore
import Logging
import ServiceLifecycle
import Synchronization

/// Makes the vectors search by meaning needs, in the daemon's spare time: after each drain of the
/// OCR queue (text search is available as soon as OCR is done; this comes after) and every minute
/// (texts re-masked, restored or made by another process). It never holds OCR up:
/// - it starts only when no OCR work is waiting, and stops after the batch in hand when some arrives;
/// - its thread runs under `SCHED_IDLE`, so the kernel gives the OCR workers the CPU first.
/// The model (87 MB mapped, some 45 MB of it read) is loaded for a pass and released after a
/// minute without work, as the OCR workers are, so an idle daemon holds none of it.
struct EmbeddingService: Service {
    let database: LensDatabase
    let signal: WorkSignal
    let modelDirectory: String
    let logger: Logger
    /// Texts a batch: the most OCR may wait behind when work arrives (some 100 ms each).
    var batchSize = 4
    var idleRelease: Duration = .seconds(60)

    func run() async throws {
        var embedder: TextEmbedder?
        var lastWork = ContinuousClock.now
        var reportedMissing = false
        let stopping = StopFlag()
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(60))
                signal.raise()
            }
        }
        defer { ticker.cancel() }
        signal.raise()
        await withGracefulShutdownHandler {
            for await _ in signal.stream.cancelOnGracefulShutdown() {
                do {
                    guard try !database.hasClaimableWork() else { continue } // OCR's drain signals again when done
                    let (embedded, texts) = try database.embeddingProgress(model: EmbeddingModel.name)
                    guard embedded < texts else {
                        if embedder != nil, ContinuousClock.now - lastWork > idleRelease {
                            embedder = nil
                            returnFreedMemoryToTheSystem()
                            logger.debug("released the embedding model")
                        }
                        continue
                    }
                    if embedder == nil {
                        do {
                            embedder = try EmbeddingModel.load(directory: modelDirectory)
                        } catch {
                            if !reportedMissing { logger.notice("search by meaning is off: \(error)") }
                            reportedMissing = true
                            continue
                        }
                    }
                    guard let model = embedder else { continue }
                    let report = try await Self.onIdleThread { [database, batchSize] in
                        try EmbeddingPass.run(in: database, with: model, batchSize: batchSize) { _ in
                            !stopping.isSet && !((try? database.hasClaimableWork()) ?? false)
                        }
                    }
                    lastWork = ContinuousClock.now
                    if report.made > 0 {
                        logger.info("read for meaning", metadata: ["made": "\(report.made)", "done": "\(report.embedded)", "texts": "\(report.texts)"])
                    }
                } catch where LensDatabase.isTransientStorageError(error) {
                    logger.error("cannot write to the database, will try again: \(LensDatabase.explanation(of: error, path: database.path ?? "the database") ?? "\(error)")")
                } catch {
                    logger.error("search by meaning: \(error)")
                }
            }
        } onGracefulShutdown: {
            stopping.set()
        }
    }

    /// Runs `body` on a thread of its own under `SCHED_IDLE` (it gets the CPU only when nothing
    /// else wants it), off Swift's cooperative pool.
    static func onIdleThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                var parameters = sched_param()
                // SCHED_IDLE (5) is Linux's; Glibc's module does not export the name. Pid 0 is this thread.
                _ = sched_setscheduler(0, 5, &parameters)
                continuation.resume(with: Result { try body() })
            }
            thread.name = "lens-embedding"
            thread.start()
        }
    }
}

/// Set once on graceful shutdown, read by the embedding thread between batches.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
