import LensCore
import LensTestSupport
import Testing

struct VectorSetTests {
    @Test func nearestIsTheBruteForceOrder() {
        let floats = QuantizedVectorTests.unitVectors(300, seed: 11)
        var set = VectorSet(dimensions: 384)
        for (n, vector) in floats.enumerated() { set.set(QuantizedVector(vector), for: Int64(n + 1)) }
        #expect(set.count == 300)
        let query = QuantizedVector(QuantizedVectorTests.unitVectors(1, seed: 99)[0])
        let expected = (1...300).map { id in (id: Int64(id), similarity: QuantizedVector(floats[id - 1]).dot(query)) }
            .sorted { ($0.similarity, $0.id) > ($1.similarity, $1.id) }
        let found = set.nearest(to: query, limit: 10)
        #expect(found.map(\.id) == expected.prefix(10).map(\.id))
        for (a, b) in zip(found, expected) { #expect(abs(a.similarity - b.similarity) < 1e-5) }
        // A floor leaves out the rest, whatever the limit.
        let floor = expected[4].similarity
        #expect(set.nearest(to: query, minimumSimilarity: floor, limit: 100).map(\.id) == expected.prefix(5).map(\.id))
        #expect(set.nearest(to: query, limit: 0).isEmpty)
        #expect(set.similarity(of: 7, to: query).map { abs($0 - QuantizedVector(floats[6]).dot(query)) < 1e-5 } == true)
    }

    @Test func replacingAndRemovingKeepTheOthers() {
        let floats = QuantizedVectorTests.unitVectors(5, seed: 3)
        var set = VectorSet(dimensions: 384)
        for (n, vector) in floats.enumerated() { set.set(QuantizedVector(vector), for: Int64(n + 1)) }
        set.set(QuantizedVector(floats[4]), for: 1) // 1 now reads as 5
        set.remove(2) // the last slot moves into its place
        set.remove(42)
        #expect(set.count == 4 && !set.contains(2) && set.contains(5))
        #expect(set.vector(for: 1) == QuantizedVector(floats[4]) && set.vector(for: 5) == QuantizedVector(floats[4]))
        #expect(set.vector(for: 3) == QuantizedVector(floats[2]))
        // Both copies of the same vector come first for it, the newer id first.
        #expect(set.nearest(to: QuantizedVector(floats[4]), limit: 2).map(\.id) == [5, 1])
        // A vector of another width is not taken.
        set.set(QuantizedVector([1, 0, 0]), for: 9)
        #expect(!set.contains(9))
    }

    @Test func meaningTextIsTheWordsToFind() throws {
        let query = try SearchQuery(parsing: #"plane "arrival time" -train dep* OR leave -"bus stop""#)
        #expect(query.meaningText == "plane arrival time dep leave")
        #expect(query.exclusions?.fts5Expression == #"("train" OR "bus stop")"#)
        #expect(try SearchQuery(parsing: "plane").exclusions == nil)
        // Words read for meaning; numbers, codes and links are looked for as written.
        for (text, reads) in [("plane arrival", true), ("555-0132", false), ("INV-2207", false), ("example.org/docs", false),
                              ("42 kg", false), ("tax 2024", true), ("-plane 555", false)] {
            #expect(try SearchQuery(parsing: text).readsAsWords == reads, "\(text)")
        }
    }
}
