import LensCore
import Testing

/// Every query's cost is bounded by its shape: its length, its number of words, and the
/// misreadings tried for each word.
struct QueryBoundsTests {
    @Test func aQueryOverTheLengthLimitIsRefusedWithItsLength() {
        let long = String(repeating: "ab", count: 1_600)
        #expect(throws: SearchQuery.ParseError.tooLong(length: 3_200)) { try SearchQuery(parsing: long) }
        #expect((try? SearchQuery(parsing: String(repeating: "a", count: SearchQuery.maximumLength))) != nil)
        // Scalars, not characters: a word stacked with combining marks is long.
        let stacked = "a" + String(repeating: "\u{301}", count: 2_000)
        #expect(throws: SearchQuery.ParseError.tooLong(length: 2_001)) { try SearchQuery(parsing: stacked) }
        #expect(SearchQuery.ParseError.tooLong(length: 3_200).description.contains("3200 characters"))
    }

    @Test func aQueryOfTooManyWordsIsRefused() throws {
        let words = (0..<40).map { "w\($0)" }
        #expect(throws: SearchQuery.ParseError.tooManyWords(count: 40)) { try SearchQuery(parsing: words.joined(separator: " ")) }
        // Words inside phrases, fragments and alternatives count; OR does not.
        #expect(throws: SearchQuery.ParseError.tooManyWords(count: 33)) {
            try SearchQuery(parsing: "\"" + (0..<33).map { "p\($0)" }.joined(separator: " ") + "\"")
        }
        _ = try SearchQuery(parsing: (0..<32).map { "w\($0)" }.joined(separator: " OR "))
        #expect(throws: SearchQuery.ParseError.tooManyWords(count: 60)) { try SearchQuery(parsing: String(repeating: "1-", count: 60)) }
    }

    @Test func longWordsAreSearchedAsTypedOnly() throws {
        let long = String(repeating: "x", count: SearchQuery.longestExpandableWord + 1)
        let query = try SearchQuery(parsing: "invoice \(long) \(long)* pharm*")
        #expect(query.fuzzyCandidatesAsTyped == ["invoice"])
        #expect(query.expandablePrefixes == ["pharm"])
        #expect(OCRConfusions.variants(of: long).isEmpty)
    }

    @Test(arguments: [5, 8, 12, 40])
    func misreadingsStopAtTheLimitNearestFirst(length: Int) {
        let word = String("abcdefghijklmnopqrstuvwxyzabcdefghijklmn".prefix(length))
        let all = OCRConfusions.variants(of: word)
        #expect(all.count <= 2_000)
        let some = OCRConfusions.variants(of: word, limit: 50)
        #expect(some.count == min(50, all.count))
        #expect(Array(all.prefix(some.count)) == some)
        #expect(OCRConfusions.variants(of: word, limit: 0).isEmpty)
    }
}
