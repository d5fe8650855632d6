import Foundation
import LensCore
import LensEmbed
import LensStore

/// The text-embedding model Lens uses.
public enum EmbeddingModel {
    /// The name vectors are stored under: a new model's vectors are other vectors.
    public static let name = "all-minilm-l6-v2"

    /// The model (by default where install-deps.sh put it), or an error naming the file that is
    /// missing or broken.
    public static func load(directory: String = TextEmbedder.directory()) throws -> TextEmbedder {
        try TextEmbedder(directory: directory)
    }
}

extension Library {
    public struct EmbeddingProgress: Sendable, Equatable {
        /// Vectors made by this call.
        public var made: Int
        /// Texts with a vector of the model, and texts in all.
        public var embedded: Int, texts: Int
    }

    /// Makes the vectors the library lacks (see ``EmbeddingPass/run(in:with:batchSize:progress:)``).
    @discardableResult
    public func fillEmbeddings(with embedder: TextEmbedder, batchSize: Int = 16,
                               progress: (EmbeddingProgress) -> Bool = { _ in true }) throws -> EmbeddingProgress {
        try EmbeddingPass.run(in: database, with: embedder, batchSize: batchSize, progress: progress)
    }
}

/// One pass of making the vectors a library lacks: `lens reindex --embeddings`, the end of
/// `lens import`, and the daemon when OCR is idle.
enum EmbeddingPass {
    /// Makes the vectors the library lacks, newest first, `batchSize` texts at a time, and calls
    /// `progress` after each batch. Resumable: what is saved stays, and a later call makes only
    /// what is still missing. Stops when it has gone through the library once, or when `progress`
    /// returns false; a text that changed while its vector was made is left for the next pass. A
    /// blank text gets a vector of zeros (it matches nothing) so it is not asked for again.
    static func run(in database: LensDatabase, with embedder: TextEmbedder, batchSize: Int = 16,
                    progress: (Library.EmbeddingProgress) -> Bool = { _ in true }) throws -> Library.EmbeddingProgress {
        let zero = QuantizedVector([Float](repeating: 0, count: TextEmbedder.dimensions))
        // Counted once: the report adds what this call makes (two counts a batch would read
        // every row of both tables thousands of times in a large library).
        let (embedded, texts) = try database.embeddingProgress(model: EmbeddingModel.name)
        var report = Library.EmbeddingProgress(made: 0, embedded: embedded, texts: texts)
        var before: Int64?
        while true {
            let work = try database.textsWithoutEmbedding(model: EmbeddingModel.name, limit: max(1, batchSize), before: before)
            guard let last = work.last else { return report }
            before = last.id
            for item in work {
                let blank = item.text.allSatisfy(\.isWhitespace)
                let vector = blank ? zero : QuantizedVector(embedder.embedding(windowsOf: item.text).vector)
                if try database.saveEmbedding(vector, model: EmbeddingModel.name, for: item) {
                    report.made += 1
                    report.embedded += 1
                }
            }
            if !progress(report) { return report }
        }
    }
}
