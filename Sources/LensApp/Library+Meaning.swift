import Foundation
import LensCore
import LensEmbed
import LensStore

extension Library {
    /// Finds screenshots, best first: by their words (ranked by bm25, then OCR misreadings of the
    /// words) and, as `request.meaning` asks, by what their text is about.
    ///
    /// Words and meaning are fused in tiers, not by one blended score: every screenshot holding
    /// the query's words comes before any found by meaning alone, so a word query keeps its exact
    /// hits first and a page of results never reorders when the next one is fetched. Hits by
    /// meaning alone carry their `similarity`. With `.alongWords`, meaning is skipped quietly when
    /// the model or the vectors are missing; `.only` says why instead (``MeaningError``).
    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        guard let query = request.query, request.meaning != .off else { return try database.search(request) }
        let wanted = max(0, request.limit) + max(0, request.offset)
        var found: [SearchHit] = []
        if request.meaning == .alongWords {
            var words = request
            words.offset = 0
            words.limit = wanted
            found = try database.search(words)
        }
        // Numbers, codes and links are looked for as written; meaning only when asked.
        if found.count < wanted && (request.meaning == .only || query.readsAsWords) {
            do {
                found += try nearest(to: query, filteredBy: request, excluding: Set(found.map(\.id)), count: wanted - found.count)
            } catch let error as MeaningError where request.meaning == .alongWords {
                _ = error // words alone, as before search by meaning existed
            }
        }
        return Array(found.dropFirst(max(0, request.offset)).prefix(max(0, request.limit)))
    }

    /// Up to `count` screenshots nearest `query`'s meaning that pass the request's filters, but
    /// for `excluding`: at most ``MeaningIndex/candidateLimit`` are ranked and filtered.
    private func nearest(to query: SearchQuery, filteredBy request: SearchRequest, excluding: Set<Int64>,
                         count: Int) throws -> [SearchHit] {
        let vectors = try meaning.current(in: database)
        guard !vectors.isEmpty else { throw MeaningError.noVectors }
        let target = try meaning.vector(of: query)
        let candidates = vectors.nearest(to: target, minimumSimilarity: MeaningIndex.minimumSimilarity,
                                         limit: min(MeaningIndex.candidateLimit, count + excluding.count + 100))
        let hits = try database.hits(for: candidates.filter { !excluding.contains($0.id) }, filteredBy: request)
        return Array(hits.prefix(count))
    }

    /// The screenshots whose text is nearest in meaning to screenshot `id`'s, nearest first, at
    /// least ``MeaningIndex/minimumSimilarityOfScreenshots`` alike; no model is needed (the
    /// vectors are stored). Throws ``MeaningError/notRead(_:)`` when `id` has no vector yet.
    public func similar(to id: Int64, limit: Int = 12) throws -> [SearchHit] {
        let vectors = try meaning.current(in: database)
        guard let vector = vectors.vector(for: id) else { throw MeaningError.notRead(id) }
        let candidates = vectors.nearest(to: vector, minimumSimilarity: MeaningIndex.minimumSimilarityOfScreenshots,
                                         limit: min(MeaningIndex.candidateLimit, max(0, limit) + 1))
        let hits = try database.hits(for: candidates.filter { $0.id != id }, filteredBy: SearchRequest(query: nil))
        return Array(hits.prefix(max(0, limit)))
    }
}
