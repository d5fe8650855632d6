import Foundation
import LensApp
import LensCore
import LensEmbed
@testable import LensStore
import LensTestSupport
import Testing

/// `lens reindex --embeddings`'s use case on a library of a few texts, with the real model.
struct EmbeddingFillTests {
    @Test func fillsWhatIsMissingAndResumes() throws {
        let root = try TestSupport.makeTemporaryFolder("lens-embed-fill")
        let library = try Library(databasePath: root.appendingPathComponent("lens.db").path)
        let texts = ["Quartz Dental invoice, bill to Ana Souza, amount due $240.00", "Flight BA 283 lands at 14:35, gate B42",
                     "git log --oneline\n9fceb02 Fix rounding", "", "Upload failed: couldn't sync Report.docx to the cloud"]
        for (n, text) in texts.enumerated() {
            let registration = try library.database.register(FileObservation(
                path: "/s/\(n).png", size: 10, modifiedAt: 1, sha256: String(repeating: "0", count: 63) + String(n), format: .png, seenAt: 2))
            try library.database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), for: registration.id, seconds: 0.1)
        }
        let embedder = try EmbeddingModel.load()
        // Stopped after the first batch of two, as a Ctrl-C would: two are done and stay done.
        var calls = 0
        let first = try library.fillEmbeddings(with: embedder, batchSize: 2) { _ in calls += 1; return false }
        #expect(calls == 1 && first.made == 2 && first.embedded == 2 && first.texts == 5)
        let rest = try library.fillEmbeddings(with: embedder, batchSize: 2)
        #expect(rest.made == 3 && rest.embedded == 5)
        #expect(try library.fillEmbeddings(with: embedder).made == 0)

        // The stored vectors are the model's: the dentist's invoice is nearest its paraphrase.
        let stored = try library.database.embeddings(model: EmbeddingModel.name, dimensions: TextEmbedder.dimensions)
        #expect(stored.count == 5)
        let query = QuantizedVector(embedder.embedding("the dentist invoice"))
        let best = try #require(stored.max { $0.vector.dot(query) < $1.vector.dot(query) })
        #expect(try library.screenshot(idOrPath: String(best.id))?.text?.hasPrefix("Quartz Dental") == true)
        // The blank text's vector is zeros: it matches nothing.
        let blankID = try #require(try library.screenshot(idOrPath: "/s/3.png")?.id)
        #expect(stored.first { $0.id == blankID }?.vector.dot(query) == 0)
    }
}
