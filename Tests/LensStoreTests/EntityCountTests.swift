import Foundation
import GRDB
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// `entity_count` is kept by triggers; whatever happens to the entities, it must equal a count
/// made from the entities themselves.
struct EntityCountTests {
    struct Count: Equatable, CustomStringConvertible {
        var type: String, normalized: String, screenshots: Int, occurrences: Int
        var description: String { "\(type) \(normalized) \(screenshots)/\(occurrences)" }
    }

    /// Every entity's count, from the entity rows.
    static func recount(_ store: StoreFixture) throws -> [Count] {
        if let postgres = store.database.postgres { return try PostgresEntityCountTests.recount(postgres) }
        return try store.database.unsafeBulkWrite { db in
            let counts = try Row.fetchAll(db, sql: """
                SELECT type, normalized, count(DISTINCT screenshot_id) AS s, count(*) AS o FROM entity
                GROUP BY type, normalized ORDER BY s DESC, o DESC, type, normalized
                """).map { Count(type: $0["type"], normalized: $0["normalized"], screenshots: $0["s"], occurrences: $0["o"]) }
            return counts
        }
    }

    static func kept(_ store: StoreFixture, type: String? = nil) throws -> [Count] {
        try store.database.topEntities(type: type, limit: 10_000).map {
            Count(type: $0.type, normalized: $0.normalized, screenshots: $0.screenshots, occurrences: $0.occurrences)
        }
    }

    static func entity(_ type: EntityType, _ value: String, _ normalized: String) -> Entity {
        Entity(type: type, value: value, normalized: normalized, start: 0, end: value.utf8.count)
    }

    /// Entities sharing normalized values, written in several ways.
    static let pool = [
        entity(.url, "example.org/docs", "https://example.org/docs"),
        entity(.url, "https://example.org/docs", "https://example.org/docs"),
        entity(.phone, "(415) 555-0132", "+14155550132"),
        entity(.phone, "415.555.0132", "+14155550132"),
        entity(.email, "Priya@Example.org", "priya@example.org"),
        entity(.person, "Priya Raman", "Priya Raman"),
        entity(.money, "$12.50", "12.50 USD"),
    ]

    @Test(arguments: StoreKind.allCases)
    func countsFollowAddsDeletesUndoAndReextraction(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        var random = SplitMix(seed: 29)
        let pool = Self.pool
        func check(_ step: String) throws {
            let counts = try Self.recount(store)
            #expect(try Self.kept(store) == counts, "after \(step)")
            #expect(try Self.kept(store, type: "phone") == counts.filter { $0.type == "phone" }, "after \(step)")
        }
        var ids: [Int64] = []
        for n in 0..<40 {
            // Repeats within a screenshot count as occurrences, not screenshots.
            let entities = (0..<random.next(upTo: 5)).map { _ in pool[random.next(upTo: pool.count)] }
            ids.append(try store.add("screenshot \(n)", path: "/s/\(n).png", hash: n + 1, entities: entities))
        }
        try check("adding")
        #expect(try store.database.topEntities(limit: 3).map(\.normalized) == Self.recount(store).prefix(3).map(\.normalized))
        #expect(try Self.kept(store).first.map { $0.screenshots > 1 && $0.occurrences >= $0.screenshots } == true)

        let (batch, _) = try store.database.deleteScreenshots(ids: Array(ids.prefix(15)), summary: "delete 15")
        try check("deleting")
        _ = try store.database.undo(batch: batch, expiredBefore: 0, undoDays: 30)
        try check("undoing the delete")

        let changed = try store.database.reextractEntities(ids: ids) { _, _, stored in
            stored.isEmpty ? [pool[0], pool[0]] : Array(stored.dropFirst()).map { Self.entity(EntityType(rawValue: $0.type)!, $0.value, $0.normalized) }
        }
        #expect(!changed.isEmpty)
        try check("re-extracting")

        _ = try store.database.deleteScreenshots(ids: ids, summary: "delete all")
        #expect(try Self.kept(store).isEmpty)
        try check("deleting everything")
    }

    @Test func aLibraryFromBeforeTheCountsIsCountedWhenOpened() throws {
        let store = try StoreFixture()
        for n in 0..<6 {
            try store.add("screenshot \(n)", path: "/s/\(n).png", hash: n + 1,
                          entities: [Self.entity(.email, n == 0 ? "A@B.example" : "a@b.example", "a@b.example")] + (n % 2 == 0 ? [Self.entity(.url, "b.example", "https://b.example")] : []))
        }
        // The library as the previous version left it: no counts, no triggers.
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: """
                DROP TABLE entity_count;
                DROP TRIGGER entity_count_insert; DROP TRIGGER entity_count_delete; DROP TRIGGER entity_count_update;
                DROP INDEX entity_key;
                CREATE INDEX entity_normalized ON entity(type, normalized);
                DELETE FROM grdb_migrations WHERE identifier LIKE 'v16:%';
                """)
        }
        let reopened = try LensDatabase(path: store.path)
        #expect(try reopened.topEntities().map { "\($0.type) \($0.screenshots)/\($0.occurrences) \($0.example)" }
                == ["email 6/6 A@B.example", "url 3/3 b.example"])
    }

    @Test func entitiesAreReplacedNotUpdated() throws {
        let store = try StoreFixture()
        try store.add("x", path: "/s/x.png", hash: 1, entities: [Self.entity(.url, "b.example", "https://b.example")])
        #expect(throws: DatabaseError.self) {
            try store.database.unsafeBulkWrite { db in try db.execute(sql: "UPDATE entity SET normalized = 'https://c.example'") }
        }
        #expect(try Self.kept(store) == Self.recount(store))
    }
}

/// The same counts in a PostgreSQL library (migration p5: statement triggers over the rows added
/// or removed), also when several workers record screenshots that share entities at once.
struct PostgresEntityCountTests {
    static func recount(_ store: PostgresStore) throws -> [EntityCountTests.Count] {
        try store.withSession { session in
            try session.rows("""
                SELECT type, normalized, count(DISTINCT screenshot_id) AS s, count(*) AS o FROM entity
                GROUP BY type, normalized ORDER BY s DESC, o DESC, type COLLATE "C", normalized COLLATE "C"
                """).map {
                EntityCountTests.Count(type: try $0.get("type"), normalized: try $0.get("normalized"),
                                       screenshots: Int(try $0.get("s", as: Int64.self)), occurrences: Int(try $0.get("o", as: Int64.self)))
            }
        }
    }

    static func kept(_ database: LensDatabase) throws -> [EntityCountTests.Count] {
        try database.topEntities(limit: 10_000).map {
            EntityCountTests.Count(type: $0.type, normalized: $0.normalized, screenshots: $0.screenshots, occurrences: $0.occurrences)
        }
    }

    @Test func countsFollowConcurrentWritersAndReplacedEntities() async throws {
        let address = try PostgresCluster.shared.get().makeDatabase()
        let database = try LensDatabase(store: .postgresql(address))
        let pool = EntityCountTests.pool
        for n in 0..<60 {
            _ = try database.register(FileObservation(path: "/s/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n + 1), format: .png, seenAt: 2))
        }
        // Four workers, each a store of its own, record at once; each screenshot's entities in
        // another order, with repeats.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let store = try LensDatabase(store: .postgresql(address), worker: "h:\(worker)")
                    var random = SplitMix(seed: UInt64(31 + worker))
                    while let item = try store.claimNext(owner: getpid()) {
                        let entities = (0..<(1 + random.next(upTo: 6))).map { _ in pool[random.next(upTo: pool.count)] }
                        try store.recordRecognition(Recognition(text: "screenshot \(item.id)", words: [], width: 1, height: 1),
                                                    entities: entities, for: item.id, seconds: 0.1)
                    }
                }
            }
            try await group.waitForAll()
        }
        let postgres = try #require(database.postgres)
        #expect(try Self.kept(database) == Self.recount(postgres))
        #expect(try Self.kept(database).first.map { $0.screenshots > 1 && $0.occurrences >= $0.screenshots } == true)

        // A text stored again replaces its entities: removed ones are counted out.
        for id: Int64 in 1...20 {
            try postgres.transaction { session in
                try postgres.storeText(of: Recognition(text: "again \(id)", words: [], width: 1, height: 1),
                                       entities: id % 2 == 0 ? [pool[0], pool[0]] : [], codeEntities: [], for: id, in: session)
            }
        }
        #expect(try Self.kept(database) == Self.recount(postgres))
        #expect(throws: (any Error).self) {
            try postgres.withSession { session in _ = try session.execute("UPDATE entity SET normalized = 'https://c.example'") }
        }
    }
}
