import Foundation
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// Vectors are kept only for the text they were made from.
struct EmbeddingStoreTests {
    static func vector(_ seed: Int) -> QuantizedVector {
        QuantizedVector((0..<384).map { Float(($0 * 7 + seed * 13) % 29) - 14 }.map { $0 / 100 })
    }

    @Test func aVectorFollowsItsText() throws {
        let store = try StoreFixture()
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
        try store.database.unsafeBulkWrite { db in
            try LensDatabase.storeText(of: Recognition(text: "Quartz Dental receipt, paid", words: [], width: 1, height: 1),
                                       entities: [], codeEntities: [], for: first, in: db)
        }
        #expect(try store.database.embeddings(model: model, dimensions: 384).map(\.id) == [second, blank])
        let stale = try #require(work.first { $0.id == first })
        #expect(try !store.database.saveEmbedding(Self.vector(5), model: "other", for: stale))
        // The same text written again keeps its vector.
        try store.database.unsafeBulkWrite { db in
            try LensDatabase.storeText(of: Recognition(text: "Flight BA 283 lands at 14:35", words: [], width: 1, height: 1),
                                       entities: [], codeEntities: [], for: second, in: db)
        }
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
    @Test func aReaderFollowsTheChangeLog() throws {
        let store = try StoreFixture()
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
        #expect(!quiet.isComplete && quiet.saved.isEmpty && quiet.dropped.isEmpty && quiet.mark == changes.mark)

        // A new text for the first: its vector is dropped; made again, it is saved.
        try store.database.unsafeBulkWrite { db in
            try LensDatabase.storeText(of: Recognition(text: "Quartz Dental receipt, paid", words: [], width: 1, height: 1),
                                       entities: [], codeEntities: [], for: first, in: db)
        }
        let dropped = try store.database.embeddingChanges(since: quiet.mark, model: model, dimensions: 384)
        #expect(dropped.dropped == [first] && dropped.saved.isEmpty)
        let redo = try #require(try store.database.textsWithoutEmbedding(model: model, limit: 10).first)
        try store.database.saveEmbedding(Self.vector(9), model: model, for: redo)
        // The save and a deletion of the other since the last look: each id once, as it is now.
        _ = try store.database.deleteScreenshots(ids: [second], summary: "delete")
        let both = try store.database.embeddingChanges(since: dropped.mark, model: model, dimensions: 384)
        #expect(both.saved.map(\.id) == [first] && both.saved[0].vector == Self.vector(9) && both.dropped == [second])

        // A reader whose mark is past the log's end (another file) or before its start (cut) starts over.
        let ahead = try store.database.embeddingChanges(since: EmbeddingChangeMark(last: both.mark.last + 100), model: model, dimensions: 384)
        #expect(ahead.isComplete && ahead.saved.map(\.id) == [first])
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: "DELETE FROM embedding_change WHERE seq <= ?", arguments: [both.mark.last - 1])
        }
        let cut = try store.database.embeddingChanges(since: dropped.mark, model: model, dimensions: 384)
        #expect(cut.isComplete && cut.saved.map(\.id) == [first])
        // The log keeps its length bounded.
        #expect(Embeddings.changeLogLength == 10_000)
    }

    /// Screenshots found by meaning become hits in the order given, filtered as a search is.
    @Test func hitsForIdsKeepTheOrderAndTheFilters() throws {
        let store = try StoreFixture()
        let a = try store.add("Quartz Dental invoice", path: "/work/a.png", hash: 1)
        let b = try store.add("Flight BA 283 lands at 14:35", path: "/home/b.png", hash: 2)
        let c = try store.add("git log --oneline", path: "/work/c.png", hash: 3)
        let all = try store.database.hits(for: [(c, 0.9), (a, 0.5), (b, 0.4), (999, 0.3)], filteredBy: SearchRequest(query: nil))
        #expect(all.map(\.id) == [c, a, b])
        #expect(all.map(\.similarity) == [0.9, 0.5, 0.4])
        #expect(all[1].snippet == "Quartz Dental invoice" && all[1].paths == ["/work/a.png"])
        let inWork = try store.database.hits(for: [(c, 0.9), (a, 0.5), (b, 0.4)], filteredBy: SearchRequest(query: nil, folder: "/work"))
        #expect(inWork.map(\.id) == [c, a])
    }
}
