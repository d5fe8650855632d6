import Foundation
import LensCore
import LensStore
import LensTestSupport
import Testing

/// The OCR queue's contract, on both stores: content registered once, each item claimed by
/// one worker only, results stored once. PostgreSQL's leases, which SQLite does not need (its
/// workers are processes of one host, whose deaths it sees), are tested on their own.
struct QueueContractTests {
    static func observation(_ n: Int, path: String? = nil) -> FileObservation {
        FileObservation(path: path ?? "/q/\(n).png", size: 10, modifiedAt: Double(n), sha256: StoreFixture.hash(n), format: .png, seenAt: Double(n))
    }

    @Test(arguments: StoreKind.allCases)
    func sameBytesUnderTwoNamesAreOneScreenshotWithTwoPaths(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let first = try store.database.register(Self.observation(1, path: "/a/one.png"))
        let second = try store.database.register(Self.observation(1, path: "/b/copy.png"))
        let again = try store.database.register(Self.observation(1, path: "/b/copy.png"))
        guard case .added(let id) = first else { Issue.record("first registration should add"); return }
        #expect(second == .known(id: id, state: .queued, lastError: nil, isNewPath: true))
        #expect(again == .known(id: id, state: .queued, lastError: nil, isNewPath: false))
        #expect(try store.database.stateCounts()[.queued] == 1)
        #expect(try store.database.screenshot(id: id)?.paths == ["/a/one.png", "/b/copy.png"])
        #expect(try store.database.unchangedScreenshot(atPath: "/a/one.png", size: 10, modifiedAt: 1)?.id == id)
        #expect(try store.database.unchangedScreenshot(atPath: "/a/one.png", size: 11, modifiedAt: 1) == nil)
    }

    /// Eight threads claim from one queue of 60 items at once: every item is claimed exactly once.
    @Test(arguments: StoreKind.allCases)
    func concurrentClaimsTakeEachItemOnce(_ kind: StoreKind) async throws {
        let store = try StoreFixture(kind)
        for n in 1...60 { _ = try store.database.register(Self.observation(n)) }
        let database = store.database
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var mine: [Int64] = []
                    while let item = try database.claimNext(owner: getpid()) {
                        mine.append(item.id)
                        try database.recordRecognition(Recognition(text: "text of \(item.id)", words: [], width: 1, height: 1),
                                                       for: item.id, seconds: 0.01)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(claimed.count == 60)
        #expect(Set(claimed).count == 60)
        #expect(try database.stateCounts()[.done] == 60)
        #expect(try database.hasClaimableWork() == false)
    }

    @Test(arguments: StoreKind.allCases)
    func failuresAndRetriesKeepTheirReasons(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        _ = try store.database.register(Self.observation(1))
        _ = try store.database.register(Self.observation(2))
        let first = try #require(try store.database.claimNext(owner: getpid()))
        try store.database.recordFailure("not an image", for: first.id)
        let second = try #require(try store.database.claimNext(owner: getpid()))
        try store.database.deferItem(second.id, reason: "busy", retryAt: Date().timeIntervalSince1970 + 60)
        #expect(try store.database.claimNext(owner: getpid()) == nil) // waiting out its retry
        #expect(try store.database.waitingForRetryCount() == 1)
        #expect(try store.database.retryTimes(ids: [second.id]).count == 1)
        #expect(try store.database.failures(ids: [first.id]).map(\.reason) == ["not an image"])
        #expect(try store.database.stateCounts()[.failed] == 1)
        let later = try #require(try store.database.claimNext(owner: getpid(), now: Date().timeIntervalSince1970 + 61))
        #expect(later.id == second.id && later.attempts == 2)
    }

    /// A worker whose lease ran out (killed, or cut off from the database) loses the item to
    /// another, and cannot store it late: the text is stored once, by the worker holding the claim.
    @Test func anExpiredLeaseIsTakenOverAndTheLateResultRefused() throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        let first = try LensDatabase(store: .postgresql(address), lease: 1, worker: "host-a:1")
        let second = try LensDatabase(store: .postgresql(address), lease: 60, worker: "host-b:2")
        _ = try first.register(Self.observation(7))
        let claim = try #require(try first.claimNext(owner: 1))
        #expect(try second.claimNext(owner: 2) == nil) // held
        let takeover = try #require(try second.claimNext(owner: 2, now: Date().timeIntervalSince1970 + 2))
        #expect(takeover.id == claim.id && takeover.attempts == 2)
        let late = try first.recordRecognition(Recognition(text: "late words", words: [], width: 1, height: 1), for: claim.id, seconds: 1)
        #expect(late == false)
        #expect(try second.recordRecognition(Recognition(text: "takeover words", words: [], width: 1, height: 1), for: claim.id, seconds: 1))
        #expect(try second.screenshot(id: claim.id)?.text == "takeover words")
        #expect(try second.search(SearchRequest(query: try SearchQuery(parsing: "late"))).isEmpty)
        #expect(try cluster.psql(address.database, "SELECT count(*) FROM screenshot_text") == "1\n")
        // A failure or a release from the worker that lost the claim changes nothing either.
        try first.recordFailure("too late", for: claim.id)
        #expect(try second.screenshot(id: claim.id)?.state == .done)
    }

    /// A worker that renews its lease keeps its image past the first lease's end; one that stops
    /// renewing loses it one lease later. A lease already over is not renewed (it may be another's).
    @Test func aRenewedLeaseKeepsTheImage() throws {
        let address = try PostgresCluster.shared.get().makeDatabase()
        let first = try LensDatabase(store: .postgresql(address), lease: 1, worker: "host-a:1")
        let second = try LensDatabase(store: .postgresql(address), lease: 60, worker: "host-b:2")
        _ = try first.register(Self.observation(8))
        let start = Date().timeIntervalSince1970
        let claim = try #require(try first.claimNext(owner: 1, now: start))
        #expect(try first.renewLeases(now: start + 0.8) == 1)
        #expect(try second.claimNext(owner: 2, now: start + 1.5) == nil) // past the first lease, inside the renewed one
        #expect(try first.renewLeases(now: start + 2.5) == 0) // too late: the lease ended at 1.8
        #expect(try second.claimNext(owner: 2, now: start + 2.5)?.id == claim.id)
        #expect(try StoreFixture().database.renewLeases() == 0)
    }

    /// Content queued anywhere wakes a listening worker at once (LISTEN/NOTIFY), not at its next look.
    @Test func queueingWakesAListeningWorker() async throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        let worker = try LensDatabase(store: .postgresql(address), worker: "host-a:1")
        let enqueuer = try LensDatabase(store: .postgresql(address), worker: "host-b:2")
        let notifications = try #require(try worker.queueNotifications())
        defer { notifications.close() }
        #expect(await notifications.wait(upTo: 0.2) == false) // nothing queued: waits it out
        async let woken = notifications.wait(upTo: 60)
        try await Task.sleep(for: .milliseconds(100))
        _ = try enqueuer.register(Self.observation(3))
        // Woken by the notification, not by the wait's end. (Not timed: under a busy suite the
        // synchronous calls of other tests may hold this process's few threads for many seconds.)
        #expect(await woken)
        #expect(try worker.hasClaimableWork())
    }

    /// A second Lens process opening a new database at the same time migrates it once.
    @Test func manyWorkersOpeningANewDatabaseMigrateItOnce() async throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<6 { group.addTask { _ = try LensDatabase(store: .postgresql(address), worker: "h:\(n)") } }
            try await group.waitForAll()
        }
        #expect(try cluster.psql(address.database, "SELECT count(*) - count(DISTINCT name), count(*) >= 2 FROM lens_migration") == "0|t\n")
    }

    @Test func unsupportedOperationsSayWhatAndWhere() throws {
        let store = try StoreFixture(.postgresql)
        let error = #expect(throws: PostgresStoreError.self) { try store.database.orphanCounts() }
        #expect(error.map { "\($0)".contains("orphanCounts") && "\($0)".contains("does not do this yet") } == true)
    }
}
