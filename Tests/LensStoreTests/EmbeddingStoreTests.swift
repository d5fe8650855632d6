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
}
