import Foundation
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// Vectors are kept only for the text they were made from, in either store.
struct EmbeddingStoreTests {
    static func vector(_ seed: Int) -> QuantizedVector {
        QuantizedVector((0..<384).map { Float(($0 * 7 + seed * 13) % 29) - 14 }.map { $0 / 100 })
    }

    /// Writes a new recognition's text for `id`, as re-recognition does.
    static func rewrite(_ store: StoreFixture, _ id: Int64, _ text: String) throws {
        let recognition = Recognition(text: text, words: [], width: 1, height: 1)
        if let postgres = store.database.postgres {
            try postgres.transaction { try postgres.storeText(of: recognition, entities: [], codeEntities: [], for: id, in: $0) }
        } else {
            try store.database.unsafeBulkWrite { db in
                try LensDatabase.storeText(of: recognition, entities: [], codeEntities: [], for: id, in: db)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aVectorFollowsItsText(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let model = "test-model"
        let first = try store.add("Quartz Dental invoice", path: "/s/1.png", hash: 1)
        let second = try store.add("Flight BA 283 lands at 14:35", path: "/s/2.png", hash: 2)
        let blank = try store.add("   ", path: "/s/3.png", hash: 3)

        // Newest first.
        var work = try store.database.textsWithoutEmbedding(model: model, limit: 10)
        #expect(work.map(\.id) == [blank, second, first])
        #expect(work.map(\.text) == ["   ", "Flight BA 283 lands at 14:35", "Quartz Dental invoice"])
        #expect(try store.database.textsWithoutEmbedding(model: model, limit: 1).map(\.id) == [blank])

        for (n, item) in work.enumerated() { #expect(try store.database.saveEmbedding(Self.vector(n), model: model, for: item)) }
        #expect(try store.database.textsWithoutEmbedding(model: model, limit: 10).isEmpty)
        #expect(try store.database.embeddingProgress(model: model) == (3, 3))
        let stored = try store.database.embeddings(model: model, dimensions: 384)
        #expect(stored.map(\.id) == [first, second, blank] && stored[1].vector == Self.vector(1))
        // Another model's vectors are other vectors.
        #expect(try store.database.textsWithoutEmbedding(model: "other", limit: 10).count == 3)

        // The text changes (a new recognition): its vector goes, and one made from the old text
        // is refused.
        work = try store.database.textsWithoutEmbedding(model: "other", limit: 10)
        try Self.rewrite(store, first, "Quartz Dental receipt, paid")
        #expect(try store.database.embeddings(model: model, dimensions: 384).map(\.id) == [second, blank])
        let stale = try #require(work.first { $0.id == first })
        #expect(try !store.database.saveEmbedding(Self.vector(5), model: "other", for: stale))
        // The same text written again keeps its vector.
        try Self.rewrite(store, second, "Flight BA 283 lands at 14:35")
        #expect(try store.database.embeddings(model: model, dimensions: 384).map(\.id) == [second, blank])

        // Deleting the screenshot takes its vector; undoing the delete brings the text back
        // without one, for the background pass to make again.
        let (batch, _) = try store.database.deleteScreenshots(ids: [second], summary: "delete")
        #expect(try store.database.embeddings(model: model, dimensions: 384).map(\.id) == [blank])
        _ = try store.database.undo(batch: batch, expiredBefore: 0, undoDays: 30)
        #expect(try store.database.textsWithoutEmbedding(model: model, limit: 10).map(\.id) == [second, first])
    }

    /// A reader that keeps the vectors in memory reads only what changed since it last looked,
    /// drops as well as saves, and starts over when it fell out of the log.
    @Test(arguments: StoreKind.allCases)
    func aReaderFollowsTheChangeLog(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let model = "test-model"
        let first = try store.add("Quartz Dental invoice", path: "/s/1.png", hash: 1)
        let second = try store.add("Flight BA 283 lands at 14:35", path: "/s/2.png", hash: 2)
        let none = try store.database.embeddingChanges(since: nil, model: model, dimensions: 384)
        #expect(none.isComplete && none.saved.isEmpty)

        for (n, item) in try store.database.textsWithoutEmbedding(model: model, limit: 10).enumerated() {
            try store.database.saveEmbedding(Self.vector(n), model: model, for: item)
        }
        let changes = try store.database.embeddingChanges(since: none.mark, model: model, dimensions: 384)
        #expect(!changes.isComplete && Set(changes.saved.map(\.id)) == [first, second] && changes.dropped.isEmpty)
        let quiet = try store.database.embeddingChanges(since: changes.mark, model: model, dimensions: 384)
        // PostgreSQL's mark is the oldest transaction then running in the whole cluster: while
        // one (of any database) runs, a reader may be given changes it has read, as they are now.
        let reread: Set<Int64> = kind == .postgresql ? [first, second] : []
        #expect(!quiet.isComplete && Set(quiet.saved.map(\.id)).isSubset(of: reread) && quiet.dropped.isEmpty)
        #expect(kind == .postgresql ? quiet.mark.last >= changes.mark.last : quiet.mark == changes.mark)

        // A new text for the first: its vector is dropped; made again, it is saved.
        try Self.rewrite(store, first, "Quartz Dental receipt, paid")
        let dropped = try store.database.embeddingChanges(since: quiet.mark, model: model, dimensions: 384)
        #expect(dropped.dropped == [first] && Set(dropped.saved.map(\.id)).isSubset(of: reread.subtracting([first])))
        let redo = try #require(try store.database.textsWithoutEmbedding(model: model, limit: 10).first)
        try store.database.saveEmbedding(Self.vector(9), model: model, for: redo)
        // The save and a deletion of the other since the last look: each id once, as it is now.
        _ = try store.database.deleteScreenshots(ids: [second], summary: "delete")
        let both = try store.database.embeddingChanges(since: dropped.mark, model: model, dimensions: 384)
        #expect(both.saved.map(\.id) == [first] && both.saved[0].vector == Self.vector(9) && both.dropped == [second])

        // A reader whose mark is past the log's end (another file) or before its start (cut) starts over.
        let ahead = try store.database.embeddingChanges(since: EmbeddingChangeMark(last: both.mark.last + 1_000_000_000), model: model, dimensions: 384)
        #expect(ahead.isComplete && ahead.saved.map(\.id) == [first])
        if let address = store.postgresAddress {
            _ = try PostgresCluster.shared.get().psql(address.database, "UPDATE embedding_change_cut SET xact = (SELECT max(xact) FROM embedding_change)")
        } else {
            try store.database.unsafeBulkWrite { db in
                try db.execute(sql: "DELETE FROM embedding_change WHERE seq <= ?", arguments: [both.mark.last - 1])
            }
        }
        let cut = try store.database.embeddingChanges(since: dropped.mark, model: model, dimensions: 384)
        #expect(cut.isComplete && cut.saved.map(\.id) == [first])
        // The log keeps its length bounded.
        #expect(Embeddings.changeLogLength == 10_000)
    }

    /// Writers on several hosts commit in any order: a vector saved by a transaction that began
    /// before a reader looked, and committed after, still reaches the reader (a log read by
    /// sequence number alone would skip it, its number being below one already read).
    @Test func aChangeCommittedLateIsNotMissed() throws {
        let store = try StoreFixture(.postgresql)
        let postgres = try #require(store.database.postgres)
        let model = "test-model"
        let a = try store.add("Quartz Dental invoice", path: "/s/1.png", hash: 1)
        let b = try store.add("Flight BA 283 lands at 14:35", path: "/s/2.png", hash: 2)
        let c = try store.add("git log --oneline", path: "/s/3.png", hash: 3)
        let work = try store.database.textsWithoutEmbedding(model: model, limit: 10)
        try store.database.saveEmbedding(Self.vector(1), model: model, for: try #require(work.first { $0.id == a }))
        let start = try store.database.embeddingChanges(since: nil, model: model, dimensions: 384)
        #expect(start.isComplete && start.saved.map(\.id) == [a])

        var late = EmbeddingChanges(isComplete: true, saved: [], dropped: [], mark: start.mark)
        try postgres.withSession { slow in
            try slow.execute("BEGIN")
            try slow.execute("""
                INSERT INTO screenshot_embedding (id, model, vector)
                VALUES (\(c), (SELECT id FROM embedding_model WHERE name = \(model)), \(Data(Self.vector(3).bytes)))
                """)
            // Another writer saves and commits while the first is still open.
            try store.database.saveEmbedding(Self.vector(2), model: model, for: try #require(work.first { $0.id == b }))
            late = try store.database.embeddingChanges(since: start.mark, model: model, dimensions: 384)
            // (a, read before, may come again while other tests' transactions run in the cluster.)
            #expect(!late.isComplete && late.saved.map(\.id).contains(b) && !late.saved.map(\.id).contains(c))
            try slow.execute("COMMIT")
        }
        let after = try store.database.embeddingChanges(since: late.mark, model: model, dimensions: 384)
        #expect(!after.isComplete && after.saved.map(\.id).contains(c) && after.saved.first { $0.id == c }?.vector == Self.vector(3))
    }

    /// The log keeps its newest 10,000 changes: cut, it remembers the newest transaction it cut,
    /// and a reader that had not seen that one's changes loads every vector again.
    @Test func theLogIsCutAndAReaderBehindTheCutStartsOver() throws {
        let store = try StoreFixture(.postgresql)
        let address = try #require(store.postgresAddress)
        let cluster = try PostgresCluster.shared.get()
        let model = "test-model"
        let a = try store.add("Quartz Dental invoice", path: "/s/1.png", hash: 1)
        let behind = try store.database.embeddingChanges(since: nil, model: model, dimensions: 384)
        // Changes up to number 10,999 in one transaction (of ids that hold no vector).
        let logged = Int(try cluster.psql(address.database, "SELECT coalesce(max(seq), 0) FROM embedding_change").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        _ = try cluster.psql(address.database, "INSERT INTO embedding_change (id) SELECT 0 FROM generate_series(1, \(10_999 - logged))")
        let caughtUp = try store.database.embeddingChanges(since: behind.mark, model: model, dimensions: 384)
        #expect(!caughtUp.isComplete && caughtUp.dropped == [0])
        // The 11,000th change cuts the log to its newest 10,000.
        try store.database.saveEmbedding(Self.vector(1), model: model, for: try #require(try store.database.textsWithoutEmbedding(model: model, limit: 1).first))
        #expect(try cluster.psql(address.database, "SELECT count(*), min(seq) FROM embedding_change").trimmingCharacters(in: .whitespacesAndNewlines) == "10000|1001")
        let again = try store.database.embeddingChanges(since: behind.mark, model: model, dimensions: 384)
        #expect(again.isComplete && again.saved.map(\.id) == [a])
        // A reader whose mark is past the cut transaction reads only the changes. (Its mark is the
        // oldest transaction running in the cluster when it read: were one of another test older
        // than the cut one, it would rightly start over.)
        let cutAt = Int64(try cluster.psql(address.database, "SELECT xact::text FROM embedding_change_cut").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let onTime = try store.database.embeddingChanges(since: caughtUp.mark, model: model, dimensions: 384)
        #expect(onTime.isComplete == (caughtUp.mark.last <= cutAt) && onTime.saved.map(\.id) == [a])
    }

    /// Workers on several hosts filling in vectors take different texts; a dead worker's claim
    /// lets go after a while.
    @Test func workersClaimDifferentTexts() throws {
        let store = try StoreFixture(.postgresql)
        let address = try #require(store.postgresAddress)
        let other = try LensDatabase(store: .postgresql(address), worker: "elsewhere:1")
        let model = "test-model"
        let ids = try (1...5).map { try store.add("text number \($0)", path: "/s/\($0).png", hash: $0) }
        let mine = try store.database.textsWithoutEmbedding(model: model, limit: 3).map(\.id)
        #expect(mine == Array(ids.reversed().prefix(3)))
        let theirs = try other.textsWithoutEmbedding(model: model, limit: 10).map(\.id)
        #expect(theirs == Array(ids.prefix(2)).reversed())
        // Asked again, each gets its own back; none is given to both.
        #expect(try store.database.textsWithoutEmbedding(model: model, limit: 10).map(\.id) == mine)
        // A save ends the claim: the text is done, not handed out again.
        let first = try #require(try other.textsWithoutEmbedding(model: model, limit: 1).first)
        #expect(try other.saveEmbedding(Self.vector(1), model: model, for: first))
        #expect(try other.textsWithoutEmbedding(model: model, limit: 10).map(\.id) == [ids[0]])
        // After the claim's time, another worker may take over the texts of one that went silent.
        let later = Date().timeIntervalSince1970 + PostgresStore.embeddingClaimSeconds + 1
        let takenOver = try #require(other.postgres).textsWithoutEmbedding(model: model, limit: 10, before: nil, now: later).map(\.id)
        #expect(takenOver == Array(ids.reversed().prefix(3)) + [ids[0]])
    }

    /// Screenshots found by meaning become hits in the order given, filtered as a search is.
    @Test(arguments: StoreKind.allCases)
    func hitsForIdsKeepTheOrderAndTheFilters(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let a = try store.add("Quartz Dental invoice", path: "/work/a.png", hash: 1)
        let b = try store.add("Flight BA 283 lands at 14:35", path: "/home/b.png", hash: 2)
        let c = try store.add("git log --oneline", path: "/work/c.png", hash: 3)
        let all = try store.database.hits(for: [(c, 0.9), (a, 0.5), (b, 0.4), (999, 0.3)], filteredBy: SearchRequest(query: nil))
        #expect(all.map(\.id) == [c, a, b])
        #expect(all.map(\.similarity) == [0.9, 0.5, 0.4])
        #expect(all[1].snippet == "Quartz Dental invoice" && all[1].paths == ["/work/a.png"])
        let inWork = try store.database.hits(for: [(c, 0.9), (a, 0.5), (b, 0.4)], filteredBy: SearchRequest(query: nil, folder: "/work"))
        #expect(inWork.map(\.id) == [c, a])
        // A word excluded from the query (`-git`) is not offered by meaning either.
        let without = try store.database.hits(for: [(c, 0.9), (a, 0.5)], filteredBy: SearchRequest(query: try SearchQuery(parsing: "history -git")))
        #expect(without.map(\.id) == [a])
    }
}
