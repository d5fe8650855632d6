import Foundation
import GRDB
import LensCore
import LensStore
import LensTestSupport
import Testing

/// Runs on both stores (SQLite, PostgreSQL) but for the tests of SQLite's own tables.
struct SearchTests {
    struct Fixture {
        let store: StoreFixture
        let receipt: Int64, chat: Int64, terminal: Int64
    }

    static func fixture(_ kind: StoreKind) throws -> Fixture {
        let store = try StoreFixture(kind)
        let receipt = try store.add("Café Lumière Receipt\n2 x Crème brûlée $12.50\nQuestions? Call (415) 555-0132\nMenu: https://example.org/docs/menu?lang=fr",
                                path: "/home/u/Pictures/Screenshots/receipt.png", hash: 1, capturedAt: 1_709_600_000) // 2024-03-05
        let chat = try store.add("Priya Nair 09:14\nThe quarterly report draft is ready for review\nJon Smith: I will send comments",
                             path: "/home/u/Desktop/chat.png", hash: 2, capturedAt: 1_712_000_000) // 2024-04-01
        let terminal = try store.add("$ git log --oneline\n4f2a9c1 Fix flaky upload retry in worker pool\nreport generated",
                                 path: "/home/u/Pictures/Screenshots/sub/term.png", hash: 3, capturedAt: 1_714_600_000) // 2024-05-01
        return Fixture(store: store, receipt: receipt, chat: chat, terminal: terminal)
    }

    @Test(arguments: StoreKind.allCases)
    func findsWordsAndRanksByRelevance(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids("quarterly") == [f.chat])
        #expect(try Set(f.store.ids("report")) == [f.chat, f.terminal])
        #expect(try f.store.ids("report quarterly") == [f.chat])
        #expect(try f.store.ids("nothing-like-this-anywhere") == [])
    }

    @Test(arguments: StoreKind.allCases)
    func findsPhrasesInOrderOnly(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids(#""quarterly report""#) == [f.chat])
        #expect(try f.store.ids(#""report quarterly""#) == [])
    }

    @Test(arguments: StoreKind.allCases)
    func findsPrefixes(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids("quarter*") == [f.chat])
        #expect(try f.store.ids("upl*") == [f.terminal])
    }

    @Test(arguments: StoreKind.allCases)
    func ignoresAccentsAndCase(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids("creme brulee") == [f.receipt])
        #expect(try f.store.ids("CAFE lumiere") == [f.receipt])
        #expect(try f.store.ids("crème") == [f.receipt])
    }

    @Test(arguments: StoreKind.allCases, ["555-0132", "555 0132", "(415) 555-0132", "0132", "example.org/doc", "example.org/docs/menu", "org/docs"])
    func findsFragmentsOfPhoneNumbersAndLinks(_ kind: StoreKind, query: String) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids(query) == [f.receipt])
    }

    @Test(arguments: StoreKind.allCases)
    func excludesAndAlternates(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try f.store.ids("report -quarterly") == [f.terminal])
        #expect(try Set(f.store.ids("brûlée OR flaky")) == [f.receipt, f.terminal])
    }

    @Test(arguments: StoreKind.allCases)
    func filtersByFolderAndDate(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        #expect(try Set(f.store.ids("report", folder: "/home/u/Pictures/Screenshots")) == [f.terminal])
        #expect(try f.store.ids("report", folder: "/home/u/Pictures/Screen") == []) // a folder, not a name prefix
        let april = Date(timeIntervalSince1970: 1_711_929_600) // 2024-04-01T00:00Z
        let may = Date(timeIntervalSince1970: 1_714_521_600)   // 2024-05-01T00:00Z
        #expect(try f.store.ids("report", since: april, until: may) == [f.chat])
        #expect(try Set(f.store.ids("report", since: april)) == [f.chat, f.terminal])
    }

    @Test(arguments: StoreKind.allCases)
    func listsByFiltersAloneNewestFirst(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        let hits = try f.store.database.search(SearchRequest(query: nil, folder: "/home/u/Pictures"))
        #expect(hits.map(\.id) == [f.terminal, f.receipt])
    }

    @Test(arguments: StoreKind.allCases)
    func snippetsMarkMatchesAndResultsCarryPaths(_ kind: StoreKind) throws {
        let f = try Self.fixture(kind)
        let hit = try #require(try f.store.database.search(SearchRequest(query: try SearchQuery(parsing: "flaky"))).first)
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

    @Test(arguments: StoreKind.allCases, hostile)
    func hostileInputNeverReachesSQLRaw(_ kind: StoreKind, input: String) throws {
        let f = try Self.fixture(kind)
        do {
            let query = try SearchQuery(parsing: input)
            _ = try f.store.database.search(SearchRequest(query: query))
        } catch is SearchQuery.ParseError {
            // A clear message is an acceptable answer; an SQL error is not (it would escape as DatabaseError).
        }
    }

    @Test func deletingAScreenshotRemovesItFromTheIndex() throws {
        let f = try Self.fixture(.sqlite)
        try f.store.database.unsafeBulkWrite { db in
            try db.execute(sql: "DELETE FROM screenshot WHERE id = ?", arguments: [f.chat])
        }
        #expect(try f.store.ids("quarterly") == [])
        #expect(try f.store.database.integrityCheck() == ["ok"])
    }

    @Test func storedTextIsCompressedAndReadsBackExactly() throws {
        let f = try Self.fixture(.sqlite)
        let detail = try #require(try f.store.database.screenshot(id: f.receipt))
        #expect(detail.text == "Café Lumière Receipt\n2 x Crème brûlée $12.50\nQuestions? Call (415) 555-0132\nMenu: https://example.org/docs/menu?lang=fr")
        let long = String(repeating: "The quarterly report draft is ready for review. ", count: 200)
        let id = try f.store.add(long, path: "/long.png", hash: 77)
        let (stored, raw) = try f.store.database.unsafeBulkWrite { db in
            (try Int.fetchOne(db, sql: "SELECT length(body) FROM screenshot_text WHERE id = ?", arguments: [id])!, long.utf8.count)
        }
        #expect(stored < raw / 4)
        #expect(try f.store.database.screenshot(id: id)?.text == long)
    }

    @Test func theIndexStaysConsistentWithTheText() throws {
        let f = try Self.fixture(.sqlite)
        // Re-recognizing replaces the indexed text: the old words stop matching.
        try f.store.database.unsafeBulkWrite { db in
            try db.execute(sql: "UPDATE screenshot_text SET body = lens_deflate('replaced words') WHERE id = ?", arguments: [f.chat])
        }
        #expect(try f.store.database.integrityCheck() == ["ok"])
        #expect(try f.store.ids("quarterly") == [])
        #expect(try f.store.ids("replaced") == [f.chat])
    }
}

/// Fault injection for input that reaches SQL: 10,000 random and adversarial query strings and
/// filter values. Every one either parses and searches, or is refused by the parser with its own
/// error; no SQLite error surfaces, nothing crashes, and the database stays intact.
struct SearchFuzzTests {
    @Test(arguments: StoreKind.allCases)
    func tenThousandHostileQueriesNeverReachSQLiteAsSyntax(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        _ = try store.add("The quarterly report \"draft\" (v2) is ready: NEAR the end * OR not", path: "/q/a.png", hash: 1, capturedAt: 1)
        _ = try store.add("Call (415) 555-0132 or e-mail priya@example.org; -- DROP TABLE", path: "/q/b.png", hash: 2, capturedAt: 2)
        let fragments = ["\"", "'", "(", ")", "*", "^", ":", "-", "+", "OR", "AND", "NOT", "NEAR", "NEAR(", "text:", "rowid", "{", "}",
                         "[", "]", ";", "--", "/*", "*/", "\\", "\u{0}", "\u{1B}[31m", "%", "_", "é", "🦀", "\u{FFFD}", "\n", "\t",
                         "quarterly", "report", "555", "priya@example.org", "'; DROP TABLE screenshot; --", "x*", "\"\"\"", "a b",
                         "screenshot_fts", "MATCH", "0x", "\u{202E}", "\u{200B}"]
        var random = SplitMix(seed: 42)
        var searched = 0, refused = 0
        for round in 0..<10_000 {
            var query = ""
            switch round % 4 {
            case 0, 1: // fragments glued together, with or without spaces
                for _ in 0..<(1 + random.next(upTo: 8)) {
                    query += fragments[random.next(upTo: fragments.count)] + (random.next(upTo: 2) == 0 ? " " : "")
                }
            case 2: // random bytes, decoded the way a command line would be (invalid UTF-8 replaced)
                let bytes = (0..<(1 + random.next(upTo: 40))).map { _ in UInt8(random.next(upTo: 256)) }
                query = String(decoding: bytes, as: UTF8.self)
            default: // very long input
                query = String(repeating: fragments[random.next(upTo: fragments.count)] + " ", count: 1 + random.next(upTo: 600))
            }
            let parsed: SearchQuery
            do {
                parsed = try SearchQuery(parsing: query)
            } catch {
                refused += 1
                continue
            }
            // Filters take hostile text too: folder prefixes and entity values are bound, never spliced.
            let request = SearchRequest(query: parsed, folder: round % 3 == 0 ? "/q/" + query : nil,
                                        entityTypes: round % 5 == 0 ? [query] : [], entities: round % 7 == 0 ? [("phone", query)] : [],
                                        limit: 20)
            do {
                _ = try store.database.search(request)
                searched += 1
            } catch {
                Issue.record("query \(query.debugDescription) raised \(error)")
            }
        }
        #expect(searched + refused == 10_000)
        #expect(searched > 5_000 && refused > 100, "searched \(searched), refused \(refused)")
        if kind == .sqlite { #expect(try store.database.integrityCheck() == ["ok"]) }
    }
}

/// Tags and notes are indexed with the text (weighted above it), filter searches, survive a new
/// recognition of the same content, and keep the index in step.
struct AnnotationTests {
    @Test(arguments: StoreKind.allCases)
    func tagsAndNotesAreSearchableAndFilter(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let receipt = try store.add("Cafe receipt total 12.50", path: "/a/r.png", hash: 1)
        let chat = try store.add("chat about the trip and a receipt", path: "/a/c.png", hash: 2)
        #expect(try store.database.changeTags(of: receipt, adding: ["receipts", "trip-2024"]) == ["receipts", "trip-2024"])
        #expect(try store.database.changeTags(of: chat, adding: ["trip-2024", "receipts"], removing: ["receipts"]) == ["trip-2024"])
        try store.database.setNote(of: chat, to: "booked the ferry")
        try store.database.setNote(of: chat, to: "seat 14C", appending: true)
        let note = try store.database.annotations(of: chat).note
        #expect(note == "booked the ferry\nseat 14C", "\(String(describing: note))")

        #expect(try store.ids("ferry") == [chat]) // the note is searchable
        #expect(try store.ids("receipts") == [receipt]) // only the tag has this word
        // What matched is shown, the same on both stores: the note's words, or the tags marked.
        let (start, end) = (SearchHit.matchStart, SearchHit.matchEnd)
        let byNote = try #require(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "ferry"))).first)
        #expect(byNote.matchedIn == .note && byNote.snippet == "booked the \(start)ferry\(end)\nseat 14C", "\(byNote.snippet)")
        let byTag = try #require(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "receipts"))).first)
        #expect(byTag.matchedIn == .tags && byTag.snippet.hasPrefix("\(start)receipts\(end), trip-2024 · "), "\(byTag.snippet)")
        let listed = try store.database.search(SearchRequest(query: nil, tags: ["receipts"]))
        #expect(listed.map(\.matchedIn) == [.tags] && listed.first?.snippet.hasPrefix("\(start)receipts\(end), trip-2024 · ") == true)
        let tagged = try store.database.search(SearchRequest(query: nil, tags: ["trip-2024"])).map(\.id)
        #expect(Set(tagged) == [receipt, chat])
        let both = try store.database.search(SearchRequest(query: nil, tags: ["trip-2024", "receipts"])).map(\.id)
        #expect(both == [receipt])
        // A tag is matched whole (the FTS5 lookup that narrows it down matches words), with or
        // without a query.
        #expect(try store.database.search(SearchRequest(query: nil, tags: ["trip"])).isEmpty)
        #expect(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "receipt"), tags: ["2024"])).isEmpty)
        #expect(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "receipt"), tags: ["receipts"])).map(\.id) == [receipt])
        #expect(try store.database.tagCounts().map { "\($0.tag) \($0.count)" } == ["trip-2024 2", "receipts 1"])

        // A new recognition replaces the text, not the tags or the note. (PostgreSQL stores a
        // result only from the worker holding the claim: QueueContractTests.)
        if kind == .sqlite {
            try store.database.recordRecognition(Recognition(text: "Cafe receipt total 13.00", words: [], width: 1, height: 1),
                                                 for: receipt, seconds: 0.1)
            #expect(try store.database.annotations(of: receipt).tags == ["receipts", "trip-2024"])
        }
        #expect(try store.ids("receipts") == [receipt])

        try store.database.setNote(of: chat, to: "")
        #expect(try store.ids("ferry").isEmpty)
        #expect(try store.database.changeTags(of: receipt, removing: ["receipts"]) == ["trip-2024"])
        var exact = SearchRequest(query: try SearchQuery(parsing: "receipts"))
        exact.allowsFuzzy = false // "receipt" in the text is one dropped letter away
        #expect(try store.database.search(exact).isEmpty)
        #expect(throws: AnnotationError.invalidTag("two words")) { try store.database.changeTags(of: chat, adding: ["two words"]) }
        #expect(throws: AnnotationError.notRecognized(id: 99)) { try store.database.changeTags(of: 99, adding: ["x"]) }
        if kind == .sqlite { #expect(try store.database.integrityCheck() == ["ok"]) }
    }

    /// A note holds at most `maximumNoteBytes`, appended ones included: one over it is refused and
    /// the stored note stays as it was.
    @Test(arguments: StoreKind.allCases)
    func aNoteHasABoundedLength(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let id = try store.add("ferry timetable", path: "/a/f.png", hash: 1)
        let limit = LensDatabase.maximumNoteBytes
        let full = String(repeating: "a", count: limit - 6) + " ferry"
        try store.database.setNote(of: id, to: full)
        #expect(try store.database.annotations(of: id).note == full)
        #expect(throws: AnnotationError.noteTooLong(bytes: limit + 2)) { try store.database.setNote(of: id, to: "x", appending: true) }
        #expect(throws: AnnotationError.noteTooLong(bytes: limit + 1)) { try store.database.setNote(of: id, to: full + "b") }
        #expect(try store.database.annotations(of: id).note == full)
        #expect(try store.ids("ferry") == [id])
        #expect(AnnotationError.noteTooLong(bytes: limit + 1).description.contains("\(limit)"))
    }
}
