import Foundation
import LensCore
import LensEmbed
import LensStore

/// The text-embedding model Lens uses, and where install-deps.sh puts it.
public enum EmbeddingModel {
    /// The name vectors are stored under: a new model's vectors are other vectors.
    public static let name = "all-minilm-l6-v2"

    /// `LENS_MODEL_DIR`, else where `scripts/install-deps.sh` unpacks the model.
    public static var directory: String {
        ProcessInfo.processInfo.environment["LENS_MODEL_DIR"] ?? "/usr/local/share/lens/models/all-minilm-l6-v2"
    }

    /// The model, or an error naming the file that is missing or broken.
    public static func load(directory: String = EmbeddingModel.directory) throws -> TextEmbedder {
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

    /// Makes the vectors the library lacks, newest first, `batchSize` texts at a time, and calls
    /// `progress` after each batch. Resumable: what is saved stays, and a later call makes only
    /// what is still missing. Stops when none lacks one, or when `progress` returns false. A blank
    /// text gets a vector of zeros (it matches nothing) so it is not asked for again.
    @discardableResult
    public func fillEmbeddings(with embedder: TextEmbedder, batchSize: Int = 16,
                               progress: (EmbeddingProgress) -> Bool = { _ in true }) throws -> EmbeddingProgress {
        var made = 0
        let zero = QuantizedVector([Float](repeating: 0, count: TextEmbedder.dimensions))
        while true {
            let work = try database.textsWithoutEmbedding(model: EmbeddingModel.name, limit: max(1, batchSize))
            var saved = 0
            for item in work {
                let blank = item.text.allSatisfy(\.isWhitespace)
                let vector = blank ? zero : QuantizedVector(embedder.embedding(windowsOf: item.text).vector)
                if try database.saveEmbedding(vector, model: EmbeddingModel.name, for: item) { saved += 1 }
            }
            made += saved
            let (embedded, texts) = try database.embeddingProgress(model: EmbeddingModel.name)
            let report = EmbeddingProgress(made: made, embedded: embedded, texts: texts)
            // Nothing left, or nothing could be saved (every text changed under us: ask again later).
            if work.isEmpty || saved == 0 || !progress(report) { return report }
        }
    }
}
