import LensCore
import Testing

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:7466", "127.0.0.1", 7466, true), ("localhost:0", "localhost", 0, true), (":8080", "127.0.0.1", 8080, true),
        ("[::1]:7466", "::1", 7466, true), ("127.1.2.3:1", "127.1.2.3", 1, true), ("0.0.0.0:7466", "0.0.0.0", 7466, false),
        ("192.168.1.5:80", "192.168.1.5", 80, false), ("[::]:7466", "::", 7466, false), ("lens.example:7466", "lens.example", 7466, false),
    ])
    func parses(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try ListenAddress(parsing: text)
        #expect(address.host == host && address.port == port)
        #expect(address.isLoopback == loopback)
    }

    @Test(arguments: ["7466", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:7466", "[::1]7466",
                      "http://127.0.0.1:7466", "a b:1", "user@host:1"])
    func refuses(text: String) {
        #expect(throws: ListenAddress.ParseError.self) { try ListenAddress(parsing: text) }
    }

    @Test(arguments: ["127.0.0.1.evil.example", "127.0.0.300", "localhost.evil", "::2", "1.0.0.127"])
    func lookalikesAreNotLoopback(host: String) {
        #expect(!ListenAddress.isLoopback(host: host))
    }

    @Test func describesIPv6InBrackets() {
        #expect(ListenAddress(host: "::1", port: 7466).description == "[::1]:7466")
        #expect(ListenAddress.default.description == "127.0.0.1:7466")
    }
}

@Suite struct QueryHighlightTests {
    @Test(arguments: [
        ("receipt", "Receipt", true), ("receipt", "receipts", false), ("receipt*", "receipts", true), ("creme", "Crème", true),
        ("CAFÉ", "cafe-lumiere.example", true), ("\"order number\"", "number", true), ("555-0132", "555-0132.", true),
        ("example.org/doc", "https://example.org/docs/menu", true), ("-draft report", "draft", false), ("a OR invoice", "Invoice:", true),
        ("invoice", "", false), ("invoice", "—", false),
    ])
    func highlights(query: String, word: String, expected: Bool) throws {
        #expect(try SearchQuery(parsing: query).highlights(word: word) == expected)
    }
}
