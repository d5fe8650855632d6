import LensCore
import Testing

struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("abc", "", 3), ("kitten", "sitting", 3), ("flaw", "lawn", 2),
        ("Jon Smith", "John Smith", 1), ("example.org/docs", "example.org/docs/", 1),
        ("+14155550132", "+14155550133", 1), ("Crème", "Creme", 1), ("ab", "ba", 2), ("same", "same", 0),
    ])
    func distancesMatchTheDefinition(a: String, b: String, expected: Int) {
        #expect(EditDistance.levenshtein(a, b) == expected)
        #expect(EditDistance.levenshtein(b, a) == expected) // symmetric
        #expect(EditDistance.levenshtein(a, b, limit: expected) == expected) // the band keeps the answer
        if expected > 0 { #expect(EditDistance.levenshtein(a, b, limit: expected - 1) == nil) }
    }

    /// The banded computation agrees with the full table on every limit, for many pairs.
    @Test func theBandAgreesWithTheFullTable() {
        let words = ["", "a", "ab", "abc", "acb", "bca", "banana", "bandana", "cabana", "ananas", "nab", "aaaa", "bbbb"]
        for a in words {
            for b in words {
                let full = reference(Array(a), Array(b))
                for limit in 0...8 {
                    #expect(EditDistance.levenshtein(a, b, limit: limit) == (full <= limit ? full : nil), "\(a) \(b) \(limit)")
                }
            }
        }
    }

    @Test func similarityRunsFromOneToZero() {
        #expect(EditDistance.similarity("", "") == 1)
        #expect(EditDistance.similarity("abcd", "abcd") == 1)
        #expect(EditDistance.similarity("abcd", "abce") == 0.75)
        #expect(EditDistance.similarity("abc", "xyz") == 0)
    }

    /// Wagner–Fischer over the whole table, as the definition states it.
    private func reference(_ a: [Character], _ b: [Character]) -> Int {
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var next = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            row = next
        }
        return row[b.count]
    }
}
