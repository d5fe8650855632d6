import Foundation
import LensCore
import LensEmbed
import LensStore
import Synchronization

/// What search by meaning needs in a process: the library's vectors in memory (kept current from
/// the store's change log, so a long-lived `lens serve` reads only what changed) and the model,
/// loaded on the first query that needs it. Shared by every copy of a ``Library``.
public final class MeaningIndex: Sendable {
    /// Below this cosine a screenshot is not offered as matching a query by meaning. Chosen on
    /// `lens-bench meaning`'s development queries (the corpus's screenshots described without their
    /// words): 0.17 is the 10th percentile of a right answer's similarity, and it does not remove
    /// a right answer from any top 10. It does not keep nonsense out of a large library: there the
    /// best of 5,000 real texts is 0.22–0.35 to any query, as near as right answers often are, so
    /// what comes by meaning alone is always marked as such.
    public static let minimumSimilarity: Float = 0.15
    /// The same for "similar screenshots": two screenshots' texts share layout and boilerplate, so
    /// the bar is higher. 0.35 is above the 99th percentile of a corpus screenshot against unrelated
    /// real text (0.33, man pages), and above the 85th of two screenshots of different kinds
    /// (receipt and chat); screenshots of the same kind have a median of 0.34.
    public static let minimumSimilarityOfScreenshots: Float = 0.35
    /// The most screenshots a query by meaning ranks and filters (a bounded cost whatever the
    /// library's size and the filters).
    public static let candidateLimit = 1_000

    private let modelDirectory: String
    private struct State {
        var vectors = VectorSet(dimensions: TextEmbedder.dimensions)
        var mark: EmbeddingChangeMark?
        var embedder: Result<TextEmbedder, MeaningError>?
    }
    private let state = Mutex(State())

    public init(modelDirectory: String = TextEmbedder.directory()) {
        self.modelDirectory = modelDirectory
    }

    /// The library's vectors as the store has them now: the first call reads them all, later
    /// calls only what was saved or dropped since.
    func current(in database: LensDatabase) throws -> VectorSet {
        // Read outside the lock (a first load takes some 100 ms at 100,000); applied under it.
        let mark = state.withLock { $0.mark }
        let changes = try database.embeddingChanges(since: mark, model: EmbeddingModel.name, dimensions: TextEmbedder.dimensions)
        return state.withLock { state in
            // Another query may have applied newer changes meanwhile: applying these again is harmless
            // only when they are not older, so an older read is dropped.
            guard state.mark == mark || changes.isComplete else { return state.vectors }
            if changes.isComplete { state.vectors = VectorSet(dimensions: TextEmbedder.dimensions) }
            for id in changes.dropped { state.vectors.remove(id) }
            for (id, vector) in changes.saved { state.vectors.set(vector, for: id) }
            state.mark = changes.mark
            return state.vectors
        }
    }

    /// The model, loaded once; the error names the file when it is not installed.
    func embedder() throws(MeaningError) -> TextEmbedder {
        let loaded = state.withLock { state -> Result<TextEmbedder, MeaningError> in
            if let embedder = state.embedder { return embedder }
            let result: Result<TextEmbedder, MeaningError>
            do { result = .success(try EmbeddingModel.load(directory: modelDirectory)) } catch {
                result = .failure(.modelMissing("\(error)"))
            }
            state.embedder = result
            return result
        }
        return try loaded.get()
    }

    /// The query's vector: its words as typed (no syntax), read as one text.
    func vector(of query: SearchQuery) throws(MeaningError) -> QuantizedVector {
        QuantizedVector(try embedder().embedding(query.meaningText))
    }
}

/// Why a search by meaning cannot run.
public enum MeaningError: Error, Equatable, CustomStringConvertible {
    /// The model's files are not where Lens looks (the message names the file).
    case modelMissing(String)
    /// The library has no vectors yet.
    case noVectors
    /// This screenshot has no vector yet.
    case notRead(Int64)

    public var description: String {
        switch self {
        case .modelMissing(let reason):
            return "search by meaning needs the embedding model: \(reason) (bash scripts/install-deps.sh installs it)"
        case .noVectors:
            return "no screenshot has been read for meaning yet: run 'lens reindex --embeddings' (lens watch and lens worker also do it when idle)"
        case .notRead(let id):
            return "screenshot \(id) has not been read for meaning yet: run 'lens reindex --embeddings' (lens watch and lens worker also do it when idle)"
        }
    }
}
