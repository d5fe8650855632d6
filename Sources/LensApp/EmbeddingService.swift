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
/// At a stop it waits for the batch in hand at most `stopGrace`: beside CPU-bound work an idle
/// thread may wait minutes for the CPU, so it is then left running (see
/// ``EmbeddingService/threadsStillRunning``) and the process must end with `_exit`.
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
    /// How long a stop waits for the batch in hand (some 0.4 s of CPU when the machine is idle).
    var stopGrace: Duration = .seconds(1)

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
                    // (Nil when a stop came and the batch in hand outlasted the grace: the
                    // loop's stream has ended then.)
                    guard let report = try await Self.onIdleThread(until: stopping, grace: stopGrace, { [database, batchSize] in
                        try EmbeddingPass.run(in: database, with: model, batchSize: batchSize) { _ in
                            !stopping.isSet && !((try? database.hasClaimableWork()) ?? false)
                        }
                    }) else {
                        logger.notice("stopping without waiting for the meaning pass's batch in hand (it gets the CPU last)")
                        continue
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
        // (A flag nobody sets: the result always comes back.)
        try await onIdleThread(until: StopFlag(), grace: .zero, body)!
    }

    /// ``onIdleThread(_:)``, but once `stopping` is set it waits at most `grace` more and then
    /// returns nil, leaving the thread to finish on its own. Under load an idle thread may wait
    /// minutes for the CPU (CFS weighs it 3 against 1024, and an unprivileged process cannot lift
    /// it out of `SCHED_IDLE`); a daemon told to stop must not wait for it (`lens watch` once took
    /// over 30 s to exit beside a CPU-bound job, and systemd would kill it). A thread left running
    /// is counted in ``threadsStillRunning``: the process must then end with `_exit`, since
    /// `exit`'s handlers (OpenBLAS frees its buffers in one) would pull memory from under it (a
    /// first version that returned normally ended with signal 11). What it writes is one
    /// transaction per text, found saved or not at the next start, as after `kill -9`. A cancelled
    /// task does not wait at all. `idle`
    /// false runs the thread at normal priority (tests of this waiting, on a loaded machine).
    static func onIdleThread<T: Sendable>(until stopping: StopFlag, grace: Duration, idle: Bool = true,
                                          _ body: @escaping @Sendable () throws -> T) async throws -> T? {
        let result = Mutex<Result<T, any Error>?>(nil)
        running.add(1, ordering: .sequentiallyConsistent)
        let thread = Thread {
            if idle {
                var parameters = sched_param()
                // SCHED_IDLE (5) is Linux's; Glibc's module does not export the name. Pid 0 is this thread.
                _ = sched_setscheduler(0, 5, &parameters)
            }
            let outcome = Result { try body() }
            // (Counted out before the result is seen: a caller that has it finds the count down.)
            running.subtract(1, ordering: .sequentiallyConsistent)
            result.withLock { $0 = outcome }
        }
        thread.name = "lens-embedding"
        thread.start()
        // Polled rather than signalled: a continuation resumed from either side would need its
        // own once-only guard, and a 10 ms poll costs nothing beside a pass of 100 ms a text.
        var stopSeen: ContinuousClock.Instant?
        while true {
            if let outcome = result.withLock({ $0 }) { return try outcome.get() }
            if Task.isCancelled { return nil } // (the sleep below would no longer wait)
            if stopping.isSet {
                let now = ContinuousClock.now, seen = stopSeen ?? now
                stopSeen = seen
                if now - seen >= grace { return nil }
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    private static let running = Atomic<Int>(0)

    /// Passes left running by a stop (``onIdleThread(until:grace:idle:_:)``): when not zero, the
    /// process must end with `_exit`, not by returning from `main`.
    static var threadsStillRunning: Int { running.load(ordering: .sequentiallyConsistent) }
}

/// Set once on graceful shutdown, read by the embedding thread between batches.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}
