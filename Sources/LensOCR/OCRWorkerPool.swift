import Foundation
import LensCore

/// A fixed set of OCR threads, each owning one long-lived ``Recognizer``.
///
/// Recognition blocks for 0.1–3 s, so it runs on dedicated threads, never on Swift's cooperative
/// pool (which has only as many threads as cores; one blocking call there starves every task).
/// Like ripgrep's parallel walker, state is per worker: the factory runs once on each thread,
/// so no Tesseract handle is ever shared.
public final class OCRWorkerPool: @unchecked Sendable {
    public typealias Job = @Sendable (Recognizer) -> Void

    private struct Pending {
        var id: UInt64
        var job: Job
        var cancel: @Sendable () -> Void
    }

    // Everything below is guarded by `condition`.
    private let condition = NSCondition()
    private var pending: [Pending] = []
    private var nextID: UInt64 = 0
    private var isShutDown = false
    private var runningThreads = 0

    public let workerCount: Int

    /// Starts `workerCount` threads and waits until each has built its recognizer.
    ///
    /// - Throws: the first error a worker's factory threw; the pool is then already shut down.
    public init(workerCount: Int, makeRecognizer: @escaping @Sendable () throws -> Recognizer) throws {
        precondition(workerCount > 0, "an OCR pool needs at least one worker")
        self.workerCount = workerCount
        let startup = StartupLatch(count: workerCount)
        for index in 0..<workerCount {
            let thread = Thread { [self] in
                defer { self.threadExited() }
                Thread.current.name = "lens-ocr-\(index)" // named here too: corelibs Foundation drops a name set before start
                let recognizer: Recognizer
                do {
                    recognizer = try makeRecognizer()
                } catch {
                    startup.fail(error)
                    return
                }
                startup.arrive()
                self.work(with: recognizer)
            }
            thread.name = "lens-ocr-\(index)"
            thread.stackSize = 16 << 20 // Tesseract's layout analysis recurses deeply on busy pages.
            condition.lock(); runningThreads += 1; condition.unlock()
            thread.start()
        }
        if let error = startup.wait() {
            shutdown()
            throw error
        }
    }

    deinit { shutdown() }

    /// Recognizes `data` on the next free worker.
    ///
    /// Cancelling the calling task before a worker picks the job up removes it from the queue and
    /// throws `CancellationError`; a job already running finishes (Tesseract cannot be interrupted safely).
    public func recognize(_ data: [UInt8]) async throws -> Recognition {
        try await run { recognizer in try recognizer.recognize(data) }
    }

    /// Runs `body` with a worker's recognizer, on that worker's thread.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Recognizer) throws -> T) async throws -> T {
        let box = IDBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                let once = ResumeOnce(continuation)
                condition.lock()
                defer { condition.unlock() }
                guard !isShutDown else {
                    once.resume(throwing: CancellationError())
                    return
                }
                nextID += 1
                box.id = nextID
                pending.append(Pending(
                    id: nextID,
                    job: { recognizer in once.resume(with: Result { try body(recognizer) }) },
                    cancel: { once.resume(throwing: CancellationError()) }))
                condition.signal()
                if Task.isCancelled { removePendingLocked(id: nextID)?.cancel() }
            }
        } onCancel: {
            condition.lock()
            let removed = box.id.flatMap { removePendingLocked(id: $0) }
            condition.unlock()
            removed?.cancel()
        }
    }

    /// Stops the workers after their current image; queued jobs fail with `CancellationError`.
    /// Blocks until every worker thread has released its recognizer.
    public func shutdown() {
        condition.lock()
        isShutDown = true
        let dropped = pending
        pending.removeAll()
        condition.broadcast()
        condition.unlock()
        dropped.forEach { $0.cancel() }
        condition.lock()
        while runningThreads > 0 { condition.wait() }
        condition.unlock()
    }

    private func threadExited() {
        condition.lock()
        runningThreads -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func removePendingLocked(id: UInt64) -> Pending? {
        guard let index = pending.firstIndex(where: { $0.id == id }) else { return nil }
        return pending.remove(at: index)
    }

    private func work(with recognizer: Recognizer) {
        while true {
            condition.lock()
            while pending.isEmpty && !isShutDown { condition.wait() }
            if isShutDown {
                condition.unlock()
                return
            }
            let next = pending.removeFirst()
            condition.unlock()
            next.job(recognizer)
        }
    }
}

/// Resumes a continuation at most once: a job can race with its cancellation.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?

    init(_ continuation: CheckedContinuation<T, Error>) { self.continuation = continuation }

    func resume(with result: Result<T, Error>) {
        lock.lock()
        let c = continuation
        continuation = nil
        lock.unlock()
        c?.resume(with: result)
    }

    func resume(throwing error: Error) { resume(with: .failure(error)) }
}

private final class IDBox: @unchecked Sendable {
    private let lock = NSLock()
    private var _id: UInt64?
    var id: UInt64? {
        get { lock.lock(); defer { lock.unlock() }; return _id }
        set { lock.lock(); _id = newValue; lock.unlock() }
    }
}

/// Lets `init` wait for every worker's recognizer, or for the first failure.
private final class StartupLatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var remaining: Int
    private var error: Error?

    init(count: Int) { remaining = count }

    func arrive() {
        condition.lock(); remaining -= 1; condition.broadcast(); condition.unlock()
    }

    func fail(_ error: Error) {
        condition.lock()
        if self.error == nil { self.error = error }
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    func wait() -> Error? {
        condition.lock(); defer { condition.unlock() }
        while remaining > 0 { condition.wait() }
        return error
    }
}
