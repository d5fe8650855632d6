import Foundation
import GRDB
import LensCore
import LensStore
import LensTestSupport
import Testing

struct SearchTests {
    let store: StoreFixture
    let receipt: Int64, chat: Int64, terminal: Int64

    init() throws {
        store = try StoreFixture()
        receipt = try store.add("Café Lumière Receipt\n2 x Crème brûlée $12.50\nQuestions? Call (415) 555-0132\nMenu: https://example.org/docs/menu?lang=fr",
                                path: "/home/u/Pictures/Screenshots/receipt.png", hash: 1, capturedAt: 1_709_600_000) // 2024-03-05
        chat = try store.add("Priya Nair 09:14\nThe quarterly report draft is ready for review\nJon Smith: I will send comments",
                             path: "/home/u/Desktop/chat.png", hash: 2, capturedAt: 1_712_000_000) // 2024-04-01
        terminal = try store.add("$ git log --oneline\n4f2a9c1 Fix flaky upload retry in worker pool\nreport generated",
                                 path: "/home/u/Pictures/Screenshots/sub/term.png", hash: 3, capturedAt: 1_714_600_000) // 2024-05-01
    }

    @Test func findsWordsAndRanksByRelevance() throws {
        #expect(try store.ids("quarterly") == [chat])
        #expect(try Set(store.ids("report")) == [chat, terminal])
        #expect(try store.ids("report quarterly") == [chat])
        #expect(try store.ids("nothing-like-this-anywhere") == [])
    }

    @Test func findsPhrasesInOrderOnly() throws {
        #expect(try store.ids(#""quarterly report""#) == [chat])
        #expect(try store.ids(#""report quarterly""#) == [])
    }

    @Test func findsPrefixes() throws {
        #expect(try store.ids("quarter*") == [chat])
        #expect(try store.ids("upl*") == [terminal])
    }

    @Test func ignoresAccentsAndCase() throws {
        #expect(try store.ids("creme brulee") == [receipt])
        #expect(try store.ids("CAFE lumiere") == [receipt])
        #expect(try store.ids("crème") == [receipt])
    }

    @Test(arguments: ["555-0132", "555 0132", "(415) 555-0132", "0132", "example.org/doc", "example.org/docs/menu", "org/docs"])
    func findsFragmentsOfPhoneNumbersAndLinks(query: String) throws {
        #expect(try store.ids(query) == [receipt])
    }

    @Test func excludesAndAlternates() throws {
        #expect(try store.ids("report -quarterly") == [terminal])
        #expect(try Set(store.ids("brûlée OR flaky")) == [receipt, terminal])
    }

    @Test func filtersByFolderAndDate() throws {
        #expect(try Set(store.ids("report", folder: "/home/u/Pictures/Screenshots")) == [terminal])
        #expect(try store.ids("report", folder: "/home/u/Pictures/Screen") == []) // a folder, not a name prefix
        let april = Date(timeIntervalSince1970: 1_711_929_600) // 2024-04-01T00:00Z
        let may = Date(timeIntervalSince1970: 1_714_521_600)   // 2024-05-01T00:00Z
        #expect(try store.ids("report", since: april, until: may) == [chat])
        #expect(try Set(store.ids("report", since: april)) == [chat, terminal])
    }

    @Test func listsByFiltersAloneNewestFirst() throws {
        let hits = try store.database.search(SearchRequest(query: nil, folder: "/home/u/Pictures"))
        #expect(hits.map(\.id) == [terminal, receipt])
    }

    @Test func snippetsMarkMatchesAndResultsCarryPaths() throws {
        let hit = try #require(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "flaky"))).first)
        #expect(hit.snippet.contains("\(SearchHit.matchStart)flaky\(SearchHit.matchEnd)"))
        #expect(hit.paths == ["/home/u/Pictures/Screenshots/sub/term.png"])
        #expect(hit.score > 0)
    }

    /// Input that would be an FTS5 syntax error if it reached MATCH raw.
    static let hostile: [String] = [
        "\"", "\"\"", "\"\"\"", "*", "**", "a**", "(", ")", "(a", "a)", "((a))", "-", "--", "-a -b", ":", "a:b",
        "text:a", "NEAR", "NEAR(a b, 2)", "a NEAR b", "AND", "OR", "NOT", "a AND", "OR a", "NOT a", "a NOT",
        "^", "^a", "a^", "+", "a+b", "{a b}:c", "'", "'; DROP TABLE screenshot; --", "\u{0}", "a\u{0}b",
        "\\", "%", "_", "é*", "\u{301}", "🙂", "🙂*", String(repeating: "a", count: 10_000),
        String(repeating: "(", count: 500), String(repeating: "\"a\" ", count: 300), "a OR OR b", "-\"quoted\"",
        "\"unclosed phrase", "rank:1", "bm25", "screenshot_fts", "col:*", "*a", "a*b", "123*", "x-", "-x-",
    ]

    @Test(arguments: hostile)
    func hostileInputNeverReachesSQLRaw(input: String) throws {
        do {
            let query = try SearchQuery(parsing: input)
            _ = try store.database.search(SearchRequest(query: query))
        } catch is SearchQuery.ParseError {
            // A clear message is an acceptable answer; an SQL error is not (it would escape as DatabaseError).
        }
    }

    @Test func deletingAScreenshotRemovesItFromTheIndex() throws {
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: "DELETE FROM screenshot WHERE id = ?", arguments: [chat])
        }
        #expect(try store.ids("quarterly") == [])
        #expect(try store.database.integrityCheck() == ["ok"])
    }

    @Test func storedTextIsCompressedAndReadsBackExactly() throws {
        let detail = try #require(try store.database.screenshot(id: receipt))
        #expect(detail.text == "Café Lumière Receipt\n2 x Crème brûlée $12.50\nQuestions? Call (415) 555-0132\nMenu: https://example.org/docs/menu?lang=fr")
        let long = String(repeating: "The quarterly report draft is ready for review. ", count: 200)
        let id = try store.add(long, path: "/long.png", hash: 77)
        let (stored, raw) = try store.database.unsafeBulkWrite { db in
            (try Int.fetchOne(db, sql: "SELECT length(body) FROM screenshot_text WHERE id = ?", arguments: [id])!, long.utf8.count)
        }
        #expect(stored < raw / 4)
        #expect(try store.database.screenshot(id: id)?.text == long)
    }

    @Test func theIndexStaysConsistentWithTheText() throws {
        // Re-recognizing replaces the indexed text: the old words stop matching.
        try store.database.unsafeBulkWrite { db in
            try db.execute(sql: "UPDATE screenshot_text SET body = lens_deflate('replaced words') WHERE id = ?", arguments: [chat])
        }
        #expect(try store.database.integrityCheck() == ["ok"])
        #expect(try store.ids("quarterly") == [])
        #expect(try store.ids("replaced") == [chat])
    }
}
