import LensCore
import Testing

/// The tokenizer's rules one at a time, on a small vocabulary of its own. Against the model's own
/// tokenizer, with the real vocabulary: `TextEmbedderTests.givesTheModelTokenizersIDs`.
struct WordPieceTokenizerTests {
    static let tinyVocabulary = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "una", "##ff", "##able", "un", "cafe", ",", "!", "東", "a", "##b"]
        .joined(separator: "\n")

    @Test func splitsWordsIntoTheLongestPieces() throws {
        let tokenizer = try #require(WordPieceTokenizer(vocabulary: Self.tinyVocabulary))
        // [CLS] una ##ff ##able [SEP]
        #expect(tokenizer.ids("Unaffable") == [2, 4, 5, 6, 3])
        // A word with a piece the vocabulary lacks is [UNK] as a whole, not in part.
        #expect(tokenizer.ids("unaffablex") == [2, 1, 3])
        // Accents and case go, punctuation stands alone, CJK ideographs are words.
        #expect(tokenizer.ids("CAFÉ,東!") == [2, 8, 9, 11, 10, 3])
        // Control characters vanish; any white space separates.
        #expect(tokenizer.ids("a\u{0007}b\u{2003}a") == [2, 12, 13, 12, 3])
    }

    @Test func cutsAtTheLimitAndKeepsTheSeparator() throws {
        let tokenizer = try #require(WordPieceTokenizer(vocabulary: Self.tinyVocabulary))
        let ids = tokenizer.ids(String(repeating: "una ", count: 100), maximumTokens: 8)
        #expect(ids.count == 8 && ids.first == 2 && ids.last == 3)
        // A long word of pieces found one character at a time stays one word's pieces.
        #expect(tokenizer.ids("a" + String(repeating: "b", count: 99), maximumTokens: 512).count == 102)
        #expect(WordPieceTokenizer(vocabulary: "a\nb") == nil)
    }
}
