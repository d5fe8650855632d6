import Foundation
@testable import LensApp
import LensCore
import LensEmbed
@testable import LensStore
import LensTestSupport
import Logging
import Testing

/// The daemon's background pass: it waits while OCR has work, then reads every new text for
/// meaning, and stops at graceful shutdown.
struct EmbeddingServiceTests {
    @Test func waitsForOCRThenFillsIn() async throws {
        let root = try TestSupport.makeTemporaryFolder("lens-embed-service")
        let database = try LensDatabase(path: root.appendingPathComponent("lens.db").path)
        func register(_ n: Int) throws -> Int64 {
            try database.register(FileObservation(path: "/s/\(n).png", size: 10, modifiedAt: 1, sha256: String(format: "%064x", n),
                                                  format: .png, seenAt: 2)).id
        }
        let done = try register(1)
        let claimed = try #require(try database.claimNext(owner: getpid()))
        #expect(claimed.id == done)
        try database.recordRecognition(Recognition(text: "Flight BA 283 lands at 14:35", words: [], width: 1, height: 1), for: done, seconds: 0.1)
        let waiting = try register(2) // queued for OCR

        let signal = WorkSignal()
        let service = EmbeddingService(database: database, signal: signal, modelDirectory: TextEmbedder.directory(),
                                       logger: Logger(label: "test"), batchSize: 1)
        let running = Task { try await service.run() }
        defer { running.cancel() }
        // OCR has work: nothing is read for meaning, however often the service is woken.
        for _ in 0..<5 {
            signal.raise()
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try database.embeddingProgress(model: EmbeddingModel.name) == (0, 1))

        // OCR finishes; its drain signals: both texts get their vectors.
        let item = try #require(try database.claimNext(owner: getpid()))
        #expect(item.id == waiting)
        try database.recordRecognition(Recognition(text: "Quartz Dental invoice", words: [], width: 1, height: 1), for: waiting, seconds: 0.1)
        signal.raise()
        // The pass runs under SCHED_IDLE: while the rest of the suite keeps both cores busy it
        // gets a sliver of one (CFS weighs an idle thread 3 against 1024), so reading two texts
        // may take minutes of wall time. This test is about order, not speed: the wait is long
        // and ends as soon as both vectors are there.
        let deadline = ContinuousClock.now + .seconds(600)
        while try database.embeddingProgress(model: EmbeddingModel.name).embedded < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try database.embeddingProgress(model: EmbeddingModel.name) == (2, 2))
    }

    /// A stop waits for the batch in hand only so long: under load an idle thread may wait
    /// minutes for the CPU. Here the thread (at normal priority, so a loaded machine cannot make
    /// the test slow) is held past the grace: the wait ends without it and the thread is counted
    /// as left running. A pass that ends within the grace gives its result. (Broken, the first
    /// wait would never end: the time limit makes that a failure. It is long: the wait polls on
    /// Swift's cooperative pool, which the rest of the suite's blocking tests can hold for minutes;
    /// a first limit of one minute was exceeded so once, after 155 s, in a full run.)
    @Test(.timeLimit(.minutes(10))) func aStopWaitsForTheThreadOnlyForItsGrace() async throws {
        let started = StopFlag(), released = StopFlag(), stopping = StopFlag()
        let pass = Task {
            try await EmbeddingService.onIdleThread(until: stopping, grace: .milliseconds(200), idle: false) { () -> Int in
                started.set()
                while !released.isSet { usleep(1_000) }
                return 1
            }
        }
        while !started.isSet { try await Task.sleep(for: .milliseconds(5)) }
        stopping.set()
        #expect(try await pass.value == nil)
        #expect(EmbeddingService.threadsStillRunning >= 1)
        released.set()

        let quick = StopFlag()
        quick.set()
        #expect(try await EmbeddingService.onIdleThread(until: quick, grace: .seconds(30), idle: false) { usleep(50_000); return 7 } == 7)
    }

    @Test func theIdleThreadRunsUnderSchedIdle() async throws {
        // /proc/thread-self/sched names the policy: 5 is SCHED_IDLE.
        let policy = try await EmbeddingService.onIdleThread {
            (try? String(contentsOfFile: "/proc/thread-self/sched", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("policy") }?.split(separator: ":").last?
                .trimmingCharacters(in: .whitespaces)
        }
        #expect(policy == "5")
    }
}
