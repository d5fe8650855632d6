import Foundation
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// The PostgreSQL store's vocabulary (`lens_vocabulary`), kept by a trigger: what completes a word
/// typed in part and gives bm25 a word's document frequency.
struct PostgresVocabularyTests {
    /// Terms whose kept count differs from a recount of the documents (ts_stat), either way.
    static func drift(_ cluster: PostgresCluster, _ database: String) throws -> String {
        try cluster.psql(database, """
            SELECT (SELECT count(*) FROM (SELECT term, documents FROM lens_vocabulary WHERE documents <> 0
                    EXCEPT SELECT word, ndoc FROM ts_stat('SELECT document FROM screenshot_text')) AS kept),
                   (SELECT count(*) FROM (SELECT word, ndoc FROM ts_stat('SELECT document FROM screenshot_text')
                    EXCEPT SELECT term, documents FROM lens_vocabulary) AS counted),
                   (SELECT count(*) FROM lens_vocabulary)
            """)
    }

    @Test func theVocabularyFollowsEveryChange() throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        let database = try LensDatabase(store: .postgresql(address))
        var ids: [Int64] = []
        for (n, text) in ["Quarterly report for Lumina", "Luminous report, luminous chart", "Card 4242 4242 4242 4242 paid"].enumerated() {
            _ = try database.register(FileObservation(path: "/p/\(n).png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(n + 1), format: .png, seenAt: 2))
            let item = try #require(try database.claimNext(owner: getpid()))
            try database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), entities: [], for: item.id, seconds: 0.1)
            ids.append(item.id)
        }
        #expect(try Self.drift(cluster, address.database).hasPrefix("0|0|"))
        #expect(try cluster.psql(address.database, "SELECT documents FROM lens_vocabulary WHERE term IN ('report', 'luminous') ORDER BY term")
            == "1\n2\n")
        // Tags and notes change the document; the counts follow, and a term no document holds is 0.
        _ = try database.changeTags(of: ids[0], adding: ["taxes", "lumina"])
        try database.setNote(of: ids[1], to: "ask Lumina about it")
        _ = try database.changeTags(of: ids[0], removing: ["taxes"])
        #expect(try Self.drift(cluster, address.database).hasPrefix("0|0|"))
        #expect(try cluster.psql(address.database, "SELECT documents FROM lens_vocabulary WHERE term IN ('lumina', 'taxes') ORDER BY term")
            == "2\n0\n")
        // A word typed in part expands to the most frequent completions first.
        let (words, truncated) = try #require(database.postgres).transaction { session in
            try database.postgres!.completions(of: ["lum", "zz"], in: session)
        }
        #expect(words["lum"] == ["lumina", "luminous"])
        #expect(words["zz"] == [])
        #expect(!truncated)
    }

    @Test func aDatabaseMadeBeforeTheVocabularyGetsItFromItsDocuments() throws {
        let cluster = try PostgresCluster.shared.get()
        let address = try cluster.makeDatabase()
        let database = try LensDatabase(store: .postgresql(address))
        _ = try database.register(FileObservation(path: "/p/a.png", size: 1, modifiedAt: 1, sha256: StoreFixture.hash(9), format: .png, seenAt: 2))
        let item = try #require(try database.claimNext(owner: getpid()))
        try database.recordRecognition(Recognition(text: "invoice invoice total", words: [], width: 1, height: 1), entities: [], for: item.id, seconds: 0.1)
        // As if p4 had never run: no table, no trigger, no record of it; then opened again.
        _ = try cluster.psql(address.database, """
            DROP TRIGGER screenshot_text_vocabulary ON screenshot_text; DROP FUNCTION lens_vocabulary_change();
            DROP TABLE lens_vocabulary; DELETE FROM lens_migration WHERE name LIKE 'p4:%'
            """)
        _ = try LensDatabase(store: .postgresql(address))
        #expect(try Self.drift(cluster, address.database) == "0|0|2\n")
    }

    @Test func functionBodiesAreOneStatement() {
        let statements = PostgresStore.statements(of: """
            CREATE TABLE a (b int);
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF true THEN RETURN NULL; END IF;
                RETURN NULL;
            END
            $$;
            CREATE INDEX c ON a (b);
            """)
        #expect(statements.count == 3)
        #expect(statements[1].hasPrefix("CREATE FUNCTION") && statements[1].hasSuffix("$$"))
    }
}
