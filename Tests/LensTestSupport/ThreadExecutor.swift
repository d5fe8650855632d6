import Foundation

/// A task executor with one thread of its own, for a test's work that must not wait behind other
/// tests on Swift's cooperative pool (two threads on a two-core CI machine, which tests that do
/// synchronous work — store calls, OCR, embedding — can hold for seconds).
///
/// Hand-written: the standard library has no thread-backed `TaskExecutor`, and the ones in
/// SwiftNIO would make every test target depend on it.
public final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs for the life of the process (a test's executor is a few per run).
    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
