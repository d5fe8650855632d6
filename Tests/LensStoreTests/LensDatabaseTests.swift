import Foundation
import GRDB
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// A store in a fresh temp folder, with helpers to add recognized screenshots.
struct StoreFixture {
    let folder: URL
    let database: LensDatabase
    /// The database in the test cluster, for a PostgreSQL fixture.
    let postgresAddress: PostgresAddress?
    var path: String { folder.appendingPathComponent("lens.db").path }

    init(_ kind: StoreKind = .sqlite) throws {
        folder = try TestSupport.makeTemporaryFolder("lens-store")
        switch kind {
        case .sqlite:
            database = try LensDatabase(path: folder.appendingPathComponent("lens.db").path)
            postgresAddress = nil
        case .postgresql:
            let address = try PostgresCluster.shared.get().makeDatabase()
            database = try LensDatabase(store: .postgresql(address))
            postgresAddress = address
        }
    }

    static func hash(_ n: Int) -> String { String(repeating: "0", count: 64 - String(n, radix: 16).count) + String(n, radix: 16) }

    @discardableResult
    func add(_ text: String, path: String, hash: Int, capturedAt: Double = 1_700_000_000, entities: [Entity] = []) throws -> Int64 {
        let registration = try database.register(FileObservation(
            path: path, size: 100, modifiedAt: capturedAt, sha256: Self.hash(hash), format: .png, seenAt: capturedAt + 10))
        let item = try #require(try database.claimNext(owner: getpid()))
        #expect(item.id == registration.id)
        try database.recordRecognition(Recognition(text: text, words: [], width: 10, height: 10), entities: entities, for: item.id, seconds: 0.1)
        return item.id
    }

    /// Exact matches only (the OCR-misreading pass is tested on its own, in TypedSearchTests).
    func ids(_ query: String, folder: String? = nil, since: Date? = nil, until: Date? = nil) throws -> [Int64] {
        var request = SearchRequest(query: try SearchQuery(parsing: query), folder: folder, since: since, until: until)
        request.allowsFuzzy = false
        return try database.search(request).map(\.id)
    }
}

struct RegistrationTests {
    @Test func sameBytesUnderTwoNamesAreOneScreenshotWithTwoPaths() throws {
        let store = try StoreFixture()
        let file = FileObservation(path: "/a/one.png", size: 5, modifiedAt: 1, sha256: StoreFixture.hash(1), format: .png, seenAt: 2)
        let first = try store.database.register(file)
        var copy = file
        copy.path = "/b/copy.png"
        let second = try store.database.register(copy)
        let again = try store.database.register(copy)
        guard case .added(let id) = first else { Issue.record("first registration should add"); return }
        #expect(second == .known(id: id, state: .queued, lastError: nil, isNewPath: true))
        #expect(again == .known(id: id, state: .queued, lastError: nil, isNewPath: false))
        #expect(try store.database.stateCounts()[.queued] == 1)
        #expect(try store.database.screenshot(id: id)?.paths == ["/a/one.png", "/b/copy.png"])
    }

    @Test func aPathWhoseBytesChangedMovesToTheNewContent() throws {
        let store = try StoreFixture()
        let old = try store.add("old words", path: "/s/shot.png", hash: 1)
        let changed = try store.database.register(FileObservation(
            path: "/s/shot.png", size: 7, modifiedAt: 5, sha256: StoreFixture.hash(2), format: .png, seenAt: 6))
        #expect(changed.id != old)
        #expect(try store.database.screenshot(id: old)?.paths == [])
        #expect(try store.database.screenshotID(forPath: "/s/shot.png") == changed.id)
    }

    @Test func unchangedFilesAreRecognizedWithoutHashing() throws {
        let store = try StoreFixture()
        let id = try store.add("x", path: "/s/a.png", hash: 3, capturedAt: 1_700_000_000)
        #expect(try store.database.unchangedScreenshot(atPath: "/s/a.png", size: 100, modifiedAt: 1_700_000_000)?.id == id)
        #expect(try store.database.unchangedScreenshot(atPath: "/s/a.png", size: 101, modifiedAt: 1_700_000_000) == nil)
        #expect(try store.database.unchangedScreenshot(atPath: "/s/a.png", size: 100, modifiedAt: 1_700_000_001) == nil)
    }

    @Test func filesAreCreatedPrivate() throws {
        let folder = try TestSupport.makeTemporaryFolder("lens-perm").appendingPathComponent("nested/lens")
        let path = folder.appendingPathComponent("lens.db").path
        _ = try LensDatabase(path: path)
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }
}

struct QueueTests {
    @Test func claimsAreExclusiveAndInOrder() throws {
        let store = try StoreFixture()
        for n in 1...3 {
            _ = try store.database.register(FileObservation(path: "/q/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n), format: .png, seenAt: 1))
        }
        let a = try #require(try store.database.claimNext(owner: 10))
        let b = try #require(try store.database.claimNext(owner: 11))
        #expect(a.id < b.id)
        #expect(a.paths == ["/q/1.png"])
        #expect(a.attempts == 1)
        #expect(try store.database.stateCounts() == [.queued: 1, .running: 2, .done: 0, .failed: 0])
    }

    @Test func workOfADeadProcessIsRequeuedAndALiveOnesIsKept() throws {
        let store = try StoreFixture()
        for n in 1...2 {
            _ = try store.database.register(FileObservation(path: "/q/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n), format: .png, seenAt: 1))
        }
        let dead = try #require(try store.database.claimNext(owner: 999_999))
        _ = try #require(try store.database.claimNext(owner: 42))
        let requeued = try store.database.requeueAbandoned { $0 == 42 }
        #expect(requeued == 1)
        let again = try #require(try store.database.claimNext(owner: 43))
        #expect(again.id == dead.id)
        #expect(again.attempts == 2)
    }

    @Test func secondCrashPoisonsAndRetryResets() throws {
        let store = try StoreFixture()
        _ = try store.database.register(FileObservation(path: "/q/evil.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(5), format: .png, seenAt: 1))
        let item = try #require(try store.database.claimNext(owner: 999_999))
        #expect(try store.database.recordCrashes(ids: [item.id]) == [])
        #expect(try store.database.recordCrashes(ids: [item.id, item.id]) == [item.id]) // one crash per call per id
        let detail = try #require(try store.database.screenshot(id: item.id))
        #expect(detail.state == .failed)
        #expect(detail.lastError?.hasPrefix("poisoned") == true)
        #expect(try store.database.retry(ids: [item.id, 12345]) == 1)
        #expect(try store.database.screenshot(id: item.id)?.state == .queued)
        #expect(try store.database.recordCrashes(ids: [item.id]) == []) // counts start again
        #expect(try store.database.retry(ids: nil) == 0)
    }

    /// In a shared library a claim whose lease ran out is a worker that stopped mid-image: the
    /// second time, the image is failed as poisoned instead of being handed to the next worker.
    @Test func anImageWhoseWorkersKeepDyingIsPoisonedNotHandedOn() throws {
        let store = try StoreFixture(.postgresql)
        let address = try #require(store.postgresAddress)
        let lease = store.database.leaseSeconds
        _ = try store.database.register(FileObservation(path: "/q/evil.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(5), format: .png, seenAt: 1))
        let first = try #require(try store.database.claimNext(owner: 0, now: 100))
        // Its worker dies; after the lease another host takes it over, once.
        let second = try LensDatabase(store: .postgresql(address), worker: "other:2")
        let again = try #require(try second.claimNext(owner: 0, now: 100 + lease + 1))
        #expect(again.id == first.id && again.attempts == 2)
        // That one dies too: the next claim fails it instead.
        let third = try LensDatabase(store: .postgresql(address), worker: "third:3")
        #expect(try third.claimNext(owner: 0, now: 100 + 2 * lease + 2) == nil)
        let detail = try #require(try store.database.screenshot(id: first.id))
        #expect(detail.state == .failed && detail.lastError?.hasPrefix("poisoned") == true && detail.lastError?.contains("'lens retry \(first.id)'") == true,
                "\(detail.lastError ?? "")")
        // lens retry: counts start again. A dead process of this host gives its claim back at
        // once (no lease to wait out), and that counts as a crash too.
        #expect(try store.database.retry(ids: nil) == 1)
        let host = PostgresStore.defaultWorkerID().split(separator: ":").dropLast().joined(separator: ":")
        let local = try LensDatabase(store: .postgresql(address), worker: "\(host):999999")
        #expect(try local.claimNext(owner: 0, now: 1_000)?.id == first.id)
        #expect(try store.database.requeueAbandoned { $0 != 999_999 } == 1)
        #expect(try store.database.screenshot(id: first.id)?.state == .queued)
        _ = try #require(try third.claimNext(owner: 0, now: 1_000))
        #expect(try second.claimNext(owner: 0, now: 1_000 + lease + 1) == nil)
        #expect(try store.database.screenshot(id: first.id)?.state == .failed)
    }

    @Test(arguments: StoreKind.allCases)
    func failuresKeepTheirReasonUntilRetried(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        _ = try store.database.register(FileObservation(path: "/q/bad.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(9), format: .png, seenAt: 1))
        let item = try #require(try store.database.claimNext(owner: 1))
        try store.database.recordFailure("truncated PNG", for: item.id)
        #expect(try store.database.failures(ids: [item.id]).map(\.reason) == ["truncated PNG"])
        #expect(try store.database.screenshot(id: item.id)?.state == .failed)
        #expect(try store.database.claimNext(owner: 1) == nil)
        // lens retry: back in the queue with its counters reset; only failed items are touched.
        #expect(try store.database.retry(ids: [item.id + 1]) == 0)
        #expect(try store.database.retry(ids: nil) == 1)
        #expect(try store.database.screenshot(id: item.id)?.state == .queued)
        let again = try #require(try store.database.claimNext(owner: 1))
        #expect(again.id == item.id && again.attempts == 1)
        #expect(try store.database.retry(ids: [item.id]) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aDeferredItemWaitsOutItsBackoff(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        for n in 1...2 {
            _ = try store.database.register(FileObservation(path: "/q/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n), format: .png, seenAt: 1))
        }
        let first = try #require(try store.database.claimNext(owner: 1, now: 100))
        try store.database.deferItem(first.id, reason: "/q/1.png: busy", retryAt: 130)
        #expect(try store.database.nextRetryTime() == 130)
        #expect(try store.database.waitingForRetryCount() == 1)
        #expect(try store.database.hasClaimableWork(now: 101))
        // The later item goes first; the deferred one only once its time has come.
        #expect(try store.database.claimNext(owner: 1, now: 101)?.id != first.id)
        #expect(try store.database.claimNext(owner: 1, now: 129) == nil)
        #expect(try !store.database.hasClaimableWork(now: 129))
        let again = try #require(try store.database.claimNext(owner: 1, now: 130))
        #expect(again.id == first.id)
        #expect(again.attempts == 2)
        #expect(try store.database.screenshot(id: first.id)?.lastError == "/q/1.png: busy")
        try store.database.recordFailure("gave up", for: again.id)
        // (In PostgreSQL the other item's lease, still held, is a time something may come due too.)
        if kind == .sqlite { #expect(try store.database.nextRetryTime() == nil) }
        // A retried failure is claimable at once, its counters reset.
        #expect(try store.database.retry(ids: nil) == 1)
        #expect(try store.database.claimNext(owner: 1, now: 0)?.attempts == 1)
    }
}

struct SchemaTests {
    /// A database written by an older Lens (schema v4: before codes, entities and connections)
    /// migrates forward on open, keeping its screenshots, text and full-text index.
    @Test func aDatabaseFromAnOlderLensMigratesForward() throws {
        let folder = try TestSupport.makeTemporaryFolder("lens-old-schema")
        let path = folder.appendingPathComponent("old.db").path
        do {
            let old = try DatabasePool(path: path, configuration: LensDatabase.configuration())
            try LensDatabase.migrator.migrate(old, upTo: "v4: retry after a transient failure")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO screenshot (id, sha256, byte_count, format, state, captured_at, imported_at, recognized_at)
                    VALUES (1, ?, 10, 'png', 'done', 1, 1, 1)
                    """, arguments: [String(repeating: "a", count: 64)])
                try db.execute(sql: "INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at) VALUES (1, '/old.png', 10, 1, 1, 1)")
                try db.execute(sql: "INSERT INTO screenshot_text (id, body) VALUES (1, lens_deflate('quarterly report from the old days'))")
            }
            #expect(try old.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }.count == 4)
        }
        let migrated = try LensDatabase(path: path)
        #expect(try migrated.screenshot(id: 1)?.text == "quarterly report from the old days")
        #expect(try migrated.search(SearchRequest(query: try SearchQuery(parsing: "quarterly"))).map(\.id) == [1])
        #expect(try migrated.entities(ofScreenshot: 1).isEmpty)
        #expect(try migrated.integrityCheck() == ["ok"])
        #expect(try migrated.orphanCounts().values.allSatisfy { $0 == 0 })
    }

    @Test func aDatabaseFromANewerLensIsRefusedAndLeftUntouched() throws {
        let store = try StoreFixture()
        try store.add("keep me", path: "/k.png", hash: 1)
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99: from the future')")
        }
        try store.database.checkpoint()
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(throws: StoreError.newerSchema) { try LensDatabase(path: store.path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    }

    /// Several processes may open a new database at the same moment (the daemon and a `lens status`):
    /// exactly one creates the schema and the others use it.
    @Test func concurrentFirstOpensOfANewDatabaseAllSucceed() async throws {
        for round in 0..<20 {
            let path = try TestSupport.makeTemporaryFolder("lens-race").appendingPathComponent("lens-\(round).db").path
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask { _ = try LensDatabase(path: path) }
                }
                try await group.waitForAll()
            }
            #expect(try LensDatabase(path: path).integrityCheck() == ["ok"])
        }
    }

    @Test func reopeningKeepsData() throws {
        let store = try StoreFixture()
        let id = try store.add("persistent text", path: "/p.png", hash: 1)
        let reopened = try LensDatabase(path: store.path)
        #expect(try reopened.screenshot(id: id)?.text == "persistent text")
        #expect(try reopened.integrityCheck() == ["ok"])
    }

    @Test func integrityCheckDetectsAnIndexOutOfStepWithTheText() throws {
        let store = try StoreFixture()
        try store.add("indexed words", path: "/i.png", hash: 1)
        #expect(try store.database.integrityCheck() == ["ok"])
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: "DROP TRIGGER screenshot_fts_update")
            try db.execute(sql: "UPDATE screenshot_text SET body = lens_deflate('changed behind the index')")
        }
        #expect(try store.database.integrityCheck().first?.hasPrefix("full-text index does not match") == true)
    }

    @Test func fts5SelfCheckPasses() throws {
        try LensDatabase.selfCheck()
    }
}

struct CodeStorageTests {
    @Test func codePayloadsAreStoredSearchableAndReplacedOnRerecognition() throws {
        let store = try StoreFixture()
        let registration = try store.database.register(FileObservation(
            path: "/qr.png", size: 100, modifiedAt: 1, sha256: StoreFixture.hash(7), format: .png, seenAt: 2))
        let codes = [
            DecodedCode(symbology: "QR-Code", payload: "HTTPS://Example.ORG/tickets/8F3K2Q?seat=14C"),
            DecodedCode(symbology: "EAN-13", payload: "4006381333931"),
        ]
        try store.database.recordRecognition(
            Recognition(text: "Boarding pass", words: [], width: 10, height: 10, codes: codes), for: registration.id, seconds: 0.1)
        #expect(try store.database.screenshot(id: registration.id)?.codes == codes)
        #expect(try store.database.screenshot(id: registration.id)?.text == "Boarding pass") // the text itself is unchanged
        #expect(try store.ids("8F3K2Q") == [registration.id])
        #expect(try store.ids("4006381333931") == [registration.id])
        #expect(try store.ids("boarding") == [registration.id])
        #expect(try store.database.entities(ofScreenshot: registration.id) == [
            StoredEntity(type: "url", value: "HTTPS://Example.ORG/tickets/8F3K2Q?seat=14C",
                         normalized: "https://example.org/tickets/8F3K2Q?seat=14C", source: "code"),
        ])

        // Read again with other codes: the old payloads leave the index with their rows.
        try store.database.recordRecognition(
            Recognition(text: "Boarding pass", words: [], width: 10, height: 10,
                        codes: [DecodedCode(symbology: "QR-Code", payload: "WIFI:S:Harbour;T:WPA;P:secret;;")]),
            for: registration.id, seconds: 0.1)
        #expect(try store.ids("8F3K2Q").isEmpty)
        #expect(try store.ids("Harbour") == [registration.id])
        #expect(try store.database.entities(ofScreenshot: registration.id).isEmpty) // not a web address
        #expect(try store.database.integrityCheck() == ["ok"])
    }
}

struct EntityStorageTests {
    @Test func textEntitiesAreStoredWithTheTextAndReplacedWithIt() throws {
        let store = try StoreFixture()
        let registration = try store.database.register(FileObservation(
            path: "/e.png", size: 100, modifiedAt: 1, sha256: StoreFixture.hash(9), format: .png, seenAt: 2))
        let text = "Call (415) 555-0132"
        let phone = Entity(type: .phone, value: "(415) 555-0132", normalized: "+14155550132", start: 5, end: 19)
        try store.database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1,
                                                         codes: [DecodedCode(symbology: "QR-Code", payload: "https://example.org/x")]),
                                             entities: [phone], for: registration.id, seconds: 0.1)
        #expect(try store.database.entities(ofScreenshot: registration.id) == [
            StoredEntity(type: "phone", value: "(415) 555-0132", normalized: "+14155550132", source: "text", start: 5, end: 19),
            StoredEntity(type: "url", value: "https://example.org/x", normalized: "https://example.org/x", source: "code"),
        ])
        #expect(try store.database.screenshot(id: registration.id)?.entities.count == 2)
        try store.database.recordRecognition(Recognition(text: "nothing", words: [], width: 1, height: 1),
                                             for: registration.id, seconds: 0.1)
        #expect(try store.database.entities(ofScreenshot: registration.id).isEmpty)
    }

    /// The linkable entities the mind map's index is made of: every screenshot's, or some screenshots'
    /// (a worker catching up on what other hosts connected).
    @Test(arguments: StoreKind.allCases)
    func linkableEntitiesOfAllOrSomeScreenshots(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let email = Entity(type: .email, value: "ana@example.org", normalized: "ana@example.org", start: 0, end: 15)
        let phone = Entity(type: .phone, value: "555-0132", normalized: "+14155550132", start: 16, end: 24)
        let money = Entity(type: .money, value: "$5", normalized: "5.00 USD", start: 25, end: 27)
        let a = try store.add("ana@example.org 555-0132 $5", path: "/e/a.png", hash: 1, entities: [email, phone, money])
        let b = try store.add("ana@example.org", path: "/e/b.png", hash: 2, entities: [email])
        let c = try store.add("555-0132", path: "/e/c.png", hash: 3, entities: [phone])
        func shown(_ rows: [(id: Int64, entities: [(type: String, normalized: String)])]) -> [String] {
            rows.map { "\($0.id): " + $0.entities.map { "\($0.type) \($0.normalized)" }.joined(separator: ", ") }
        }
        let types = ["email", "phone"]
        #expect(shown(try store.database.linkableEntities(types: types))
                == ["\(a): email ana@example.org, phone +14155550132", "\(b): email ana@example.org", "\(c): phone +14155550132"])
        #expect(shown(try store.database.linkableEntities(types: types, among: [c, a]))
                == ["\(a): email ana@example.org, phone +14155550132", "\(c): phone +14155550132"])
        #expect(try store.database.linkableEntities(types: types, among: []).isEmpty)
    }
}

struct GarbageCollectionTests {
    /// Only screenshots whose every path has been gone longer than the grace period go, with all
    /// that hangs off them; a dry run reports the same and changes nothing.
    @Test(arguments: StoreKind.allCases)
    func onlyLongGoneScreenshotsAreRemoved(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let day = 86_400.0, now = 1_800_000_000.0
        let longGone = try store.add("quarterly invoice from the old flat", path: "/g/old.png", hash: 1)
        let recentlyGone = try store.add("quarterly invoice from last week", path: "/g/recent.png", hash: 2)
        let stillHere = try store.add("quarterly invoice still on disk", path: "/g/here.png", hash: 3)
        _ = try store.database.register(FileObservation(path: "/g/here-copy.png", size: 100, modifiedAt: 1,
                                                        sha256: StoreFixture.hash(3), format: .png, seenAt: 2))
        try store.database.markGone(path: "/g/old.png", now: now - 40 * day)
        try store.database.markGone(path: "/g/recent.png", now: now - 5 * day)
        try store.database.markGone(path: "/g/here.png", now: now - 40 * day) // its copy is still present
        #expect(try store.database.link(longGone, stillHere, note: "same flat"))

        let dry = try store.database.collectGarbage(goneBefore: now - 30 * day, dryRun: true)
        #expect(dry.removed == [GarbageReport.Removed(id: longGone, paths: ["/g/old.png"])])
        #expect(try Set(store.ids("quarterly")) == [longGone, recentlyGone, stillHere])

        let done = try store.database.collectGarbage(goneBefore: now - 30 * day, dryRun: false)
        #expect(done.removed == dry.removed)
        #expect(try Set(store.ids("quarterly")) == [recentlyGone, stillHere])
        #expect(try store.database.screenshot(id: longGone) == nil)
        #expect(try !store.database.unlink(longGone, stillHere)) // the manual link went with it
        if kind == .sqlite {
            #expect(try store.database.edges(minimumScore: 0).isEmpty)
            #expect(try store.database.integrityCheck() == ["ok"])
            #expect(try store.database.orphanCounts().values.allSatisfy { $0 == 0 })
        }
        #expect(try store.database.collectGarbage(goneBefore: now - 30 * day, dryRun: false).removed.isEmpty)
    }
}
