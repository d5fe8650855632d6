import LensCore
import Testing

struct SearchQueryTests {
    @Test(arguments: [
        ("invoice", #""invoice""#),
        ("invoice  2024", #""invoice" AND "2024""#),
        (#""order number""#, #""order number""#),
        ("recei*", #""recei"*"#),
        (#""quarterly rep"*"#, #""quarterly rep"*"#),
        ("555-0132", #""555 0132"*"#),
        ("example.org/doc", #""example org doc"*"#),
        ("a.b", #""a b""#),                              // last part too short for a prefix
        ("crème -brûlée", #"("crème") NOT "brûlée""#),
        ("tea OR coffee milk", #"("tea" OR "coffee") AND "milk""#),
        (#"say "hi"#, #""say" AND "hi""#),               // an unclosed quote runs to the end
        ("NEAR(a b)", #""NEAR a" AND "b""#),               // operators in input are just words
        ("text:secret", #""text secret"*"#),              // no column filters from user text
        ("  OR  invoice", #""invoice""#),
    ])
    func rendersSafeExpressions(input: String, expected: String) throws {
        #expect(try SearchQuery(parsing: input).fts5Expression == expected)
    }

    @Test(arguments: [
        ("", SearchQuery.ParseError.empty),
        ("   ", .empty),
        (#"""#, .empty),
        ("* - : ( ) \" ^", .empty),
        ("-invoice", .onlyExclusions),
        ("a*", .prefixTooShort("a")),
    ])
    func refusesQueriesWithNothingToFind(input: String, error: SearchQuery.ParseError) {
        #expect(throws: error) { try SearchQuery(parsing: input) }
    }

    @Test func errorsReadAsSentences() {
        for error in [SearchQuery.ParseError.empty, .onlyExclusions, .prefixTooShort("x")] {
            #expect(error.description.hasSuffix("."))
        }
    }

    @Test(arguments: [
        ("Crème brûlée", ["Crème", "brûlée"]),
        ("(415) 555-0132", ["415", "555", "0132"]),
        ("https://example.org/docs?x=1#top", ["https", "example", "org", "docs", "x", "1", "top"]),
        ("naïve_café", ["naïve", "café"]),
        ("日本語 テキスト", ["日本語", "テキスト"]),
        ("", []),
    ])
    func tokenizesLikeUnicode61(text: String, tokens: [String]) {
        #expect(SearchQuery.searchTokens(in: text) == tokens)
    }

    /// Whatever the input, every `"` the expression contains is part of a quoted token or a doubled escape.
    @Test func quotesAreAlwaysBalanced() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab\"*()-: ^NEAROR\u{0}é5.") + [" ", " "]
        for _ in 0..<2_000 {
            let input = String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            guard let query = try? SearchQuery(parsing: input) else { continue }
            let quotes = query.fts5Expression.filter { $0 == "\"" }.count
            #expect(quotes % 2 == 0, "unbalanced for \(input.debugDescription)")
            #expect(!query.fts5Expression.contains("\u{0}"))
        }
    }

    @Test(arguments: [
        ("github.com/apple/sw", "github.com/apple/sw"),
        ("HTTPS://www.Example.org/Docs*", "example.org/Docs"),
        ("docs.example.co.uk", "docs.example.co.uk"),
        ("localhost:8000", nil),
        ("555-0132", nil),
        ("setup.py", "setup.py"),
        ("\"example.org/docs\"", nil),
        ("example.org docs", nil),
        ("-example.org docs", nil),
        ("example.org/\"x", nil),
        ("v1.2", nil),
    ] as [(String, String?)])
    func webAddressStartsAreRecognized(query: String, prefix: String?) throws {
        #expect(try SearchQuery(parsing: query).webAddressPrefix == prefix)
    }
}
