import Foundation
import GRDB
import LensCore
@testable import LensStore
import LensTestSupport
import Testing

/// Words typed in part, the vocabulary behind them, and the bounded ranking of broad queries.
@Suite struct TypedSearchTests {
    func hits(_ store: StoreFixture, _ query: String, limit: Int = 20, offset: Int = 0) throws -> [SearchHit] {
        try store.database.search(SearchRequest(query: try SearchQuery(parsing: query), limit: limit, offset: offset))
    }

    @Test(arguments: StoreKind.allCases)
    func exactWordsComeBeforeCompletionsAndBm25OrdersEach(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let longer = try store.add("lumiere lumiere lumiere lighting", path: "/s/a.png", hash: 1)
        let exact = try store.add("lumi is a short name", path: "/s/b.png", hash: 2)
        let both = try store.add("lumi and lumiere together, lumi again", path: "/s/c.png", hash: 3)
        let other = try store.add("luminous display", path: "/s/d.png", hash: 4)
        let ids = try hits(store, "lumi*").map(\.id)
        // Exact "lumi" first (the one saying it twice ranks higher), then the completions by bm25.
        #expect(Array(ids.prefix(2)) == [both, exact])
        #expect(Set(ids.dropFirst(2)) == [longer, other])
        #expect(try hits(store, "lumi*").allSatisfy { !$0.isApproximate })
        // Paging walks the same merged order.
        #expect(try hits(store, "lumi*", limit: 2, offset: 2).map(\.id) == Array(ids.dropFirst(2)))
        #expect(try hits(store, "lumie*").map(\.id) == [longer, both])
    }

    /// Screenshots whose texts score the same (the same page of a manual, captured again and
    /// again) come newest first, whatever the page size: pages fetched one by one are the list
    /// fetched whole.
    @Test(arguments: StoreKind.allCases)
    func tiedScoresKeepOneOrderAcrossPages(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        for n in 1...30 { try store.add(n % 3 == 0 ? "cherry pick a fix, pick it" : "cherry pick a fix", path: "/s/\(n).png", hash: n) }
        let whole = try hits(store, "pick", limit: 30).map(\.id)
        #expect(whole.count == 30)
        let paged = try stride(from: 0, to: 30, by: 7).flatMap { try hits(store, "pick", limit: 7, offset: $0).map(\.id) }
        #expect(paged == whole)
        #expect(try hits(store, "pick", limit: 10).map(\.id) == Array(whole.prefix(10)))
        // Within a tie, the newest first.
        let scores = try hits(store, "pick", limit: 30).map(\.score)
        for i in 1..<30 where scores[i] == scores[i - 1] { #expect(whole[i] < whole[i - 1]) }
    }

    @Test(arguments: StoreKind.allCases)
    func theVocabularyFollowsInsertsUpdatesAndDeletes(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let id = try store.add("Crème brûlée and crème fraîche", path: "/s/a.png", hash: 1)
        try store.add("creme caramel", path: "/s/b.png", hash: 2)
        #expect(try store.database.documentCount(of: "creme") == 2)
        #expect(try store.database.documentCount(of: "brulee") == 1)
        _ = try store.database.changeTags(of: id, adding: ["dessertmenu"])
        #expect(try store.database.documentCount(of: "dessertmenu") == 1)
        #expect(try store.database.documentCount(of: "creme") == 2) // an update re-counts, not double-counts
        #expect(try hits(store, "desser*").map(\.id) == [id])
        guard kind == .sqlite else { return } // deletion is not kept in a shared library yet
        _ = try store.database.deleteScreenshots(ids: [id], summary: "test")
        #expect(try store.database.documentCount(of: "brulee") == 0)
        #expect(try store.database.documentCount(of: "creme") == 1)
        #expect(try hits(store, "brul*").isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aPrefixWithManyCompletionsTriesTheMostFrequentAndSaysSo(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        // 20 words starting with "zqx", the first ones in more screenshots.
        for n in 0..<20 {
            for copy in 0..<(20 - n) {
                try store.add("zqx\(String(UnicodeScalar(UInt8(97 + n))))word filler \(copy)", path: "/s/\(n)-\(copy).png", hash: n * 100 + copy + 1)
            }
        }
        let found = try hits(store, "zqx*", limit: 500)
        #expect(found.allSatisfy { $0.isApproximate })
        let words = Set(found.compactMap { $0.snippet.split(separator: " ").first.map { String($0.unicodeScalars.filter { $0.isASCII && $0.properties.isAlphabetic }) } })
        #expect(words.count == LensDatabase.completionLimit) // the 16 most frequent of the 20
        #expect(!words.contains("zqxtword") && words.contains("zqxaword"))
        // Typed further, the rare completion is found, exactly.
        #expect(try hits(store, "zqxt*").map(\.isApproximate) == [false])
        // Two letters try half as many.
        let short = Set(try hits(store, "zq*", limit: 500).compactMap { $0.snippet.split(separator: " ").first.map(String.init) })
        #expect(short.count == LensDatabase.completionLimit / 2)
    }

    @Test func broadQueriesRankTheNewestWindowAndSaySo() throws {
        let store = try StoreFixture()
        let total = LensDatabase.candidateWindow + 50
        try store.database.unsafeBulkWrite { db in
            for n in 1...total {
                try db.execute(sql: """
                    INSERT INTO screenshot (id, sha256, byte_count, format, state, captured_at, imported_at) VALUES (?, ?, 1, 'png', 'done', ?, 0)
                    """, arguments: [n, StoreFixture.hash(n), Double(n)])
                try db.execute(sql: "INSERT INTO screenshot_text (id, body) VALUES (?, lens_deflate(?))",
                               arguments: [n, "common " + (n == 3 ? "common common common rare" : "word \(n)")])
            }
        }
        let broad = try hits(store, "common")
        #expect(broad.count == 20 && broad.allSatisfy { $0.isApproximate })
        #expect(broad.allSatisfy { $0.id > 50 }) // only the newest window was ranked
        let narrow = try hits(store, "rare")
        #expect(narrow.map(\.id) == [3] && !narrow[0].isApproximate)
        #expect(try hits(store, "common rare").map(\.id) == [3])
        // A phrase is ranked in the same walk that finds its window.
        let phrase = try hits(store, "\"common word\"")
        #expect(phrase.count == 20 && phrase.allSatisfy { $0.isApproximate && $0.id > 50 })
        #expect(phrase.allSatisfy { $0.snippet.contains("\(SearchHit.matchStart)common word\(SearchHit.matchEnd)") })
    }

    @Test(arguments: StoreKind.allCases)
    func wordsOCRMisreadAreFoundAfterEveryExactHit(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let misread = try store.add("lnvoice 4417 from Northwind, total 12.50", path: "/s/a.png", hash: 1)
        let modern = try store.add("rnodern art rnuseum", path: "/s/b.png", hash: 2)
        let exact = try store.add("invoice for the museum shop", path: "/s/c.png", hash: 3)
        // The exact hit first, then the misreading, marked; the exact hit keeps its place.
        #expect(try hits(store, "invoice").map(\.id) == [exact, misread])
        #expect(try hits(store, "invoice").map(\.fuzzyWords) == [[], ["lnvoice"]])
        #expect(try hits(store, "invoice", limit: 1).map(\.id) == [exact]) // enough exact hits: no guessing
        // "northwind invoice": no screenshot has both words spelled right; the misreading is found, marked.
        let found = try hits(store, "northwind invoice")
        #expect(found.map(\.id) == [misread])
        #expect(found.first?.fuzzyWords == ["lnvoice"])
        #expect(try hits(store, "modern").map(\.id) == [modern])
        #expect(try hits(store, "modern").first?.fuzzyWords == ["rnodern"])
        // --exact turns it off.
        var request = SearchRequest(query: try SearchQuery(parsing: "modern"))
        request.allowsFuzzy = false
        #expect(try store.database.search(request).isEmpty)
        // Words under three letters are never guessed.
        #expect(try hits(store, "rt").isEmpty)
    }

    /// Misreadings are tried below ``LensDatabase/fewHits`` exact hits, however many are asked
    /// for: a page asking for 60 finds what the CLI's 20 find.
    @Test(arguments: StoreKind.allCases)
    func misreadingsAreTriedOnlyWhenExactHitsAreFew(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        for n in 1..<LensDatabase.fewHits { try store.add("invoice \(n)", path: "/s/\(n).png", hash: n) }
        let misread = try store.add("lnvoice from Northwind", path: "/s/m.png", hash: 100)
        let few = try hits(store, "invoice", limit: 60)
        #expect(few.count == LensDatabase.fewHits && few.last?.id == misread && few.last?.fuzzyWords == ["lnvoice"])
        try store.add("invoice \(LensDatabase.fewHits)", path: "/s/last.png", hash: 200)
        let enough = try hits(store, "invoice", limit: 60)
        #expect(enough.count == LensDatabase.fewHits && enough.allSatisfy { $0.fuzzyWords.isEmpty && $0.id != misread })
    }

    /// A letter typed with a diacritic may be any letter, or none, in what OCR read; a plain
    /// letter keeps to the confusion list.
    @Test(arguments: StoreKind.allCases)
    func lettersWithDiacriticsMayBeMisreadAsAnyLetter(_ kind: StoreKind) throws {
        let store = try StoreFixture(kind)
        let petrovic = try store.add("From: Rita Petrovié <rita@example.org>", path: "/s/a.png", hash: 1)
        let sorensen = try store.add("Mikkel Sgrensen, Aarhus", path: "/s/b.png", hash: 2)
        #expect(try hits(store, "Petrović").map(\.id) == [petrovic])
        #expect(try hits(store, "Petrović").first?.fuzzyWords == ["petrovie"])
        #expect(try hits(store, "Sørensen").map(\.id) == [sorensen])
        // Without the accent nothing says the letter was uncertain: in a short word `o` → `e` is
        // no confusion of OCR's.
        let szabo = try store.add("Zsófia Szabé, sales", path: "/s/c.png", hash: 3)
        #expect(try hits(store, "Szabó").map(\.id) == [szabo])
        #expect(try hits(store, "Szabo").isEmpty)
        #expect(OCRConfusions.variants(of: "szabo", typed: "Szabó").contains("szabe"))
        #expect(!OCRConfusions.variants(of: "szabo", typed: "Szabo").contains("szabe"))
    }

    @Test(arguments: ["lo\"*", "\"\"*", "a* OR *", "NEAR(lo*", "x:y*", "lo*)*", "-lo*", "*", "l*"])
    func hostileTypedQueriesNeverReachSQLAsSyntax(text: String) throws {
        let store = try StoreFixture()
        try store.add("lorem ipsum dolor", path: "/s/a.png", hash: 1)
        do {
            _ = try hits(store, text)
        } catch is SearchQuery.ParseError {
            // refused by the parser with a message: fine
        }
    }

    /// The start of a web address is looked up among the URLs found in screenshots, newest
    /// first; the text is searched only when no URL starts so.
    @Test func webAddressStartsAreFoundAmongTheURLs() throws {
        let store = try StoreFixture()
        func add(_ text: String, url: String?, normalized: String? = nil, hash: Int, path: String = "/s") throws -> Int64 {
            var entities: [Entity] = []
            if let url, let range = text.range(of: url) {
                let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                entities = [Entity(type: .url, value: url, normalized: normalized ?? "https://" + url, start: start, end: start + url.utf8.count)]
            }
            return try store.add(text, path: "\(path)/\(hash).png", hash: hash, entities: entities)
        }
        let a = try add("docs at example.org/docs/install today", url: "example.org/docs/install", hash: 1)
        let b = try add("see https://www.example.org/download", url: "https://www.example.org/download",
                        normalized: "https://www.example.org/download", hash: 2, path: "/t")
        _ = try add("example.com/docs is another site", url: "example.com/docs", hash: 3)
        let d = try add("it mentions example.org/dogs in passing", url: nil, hash: 4)
        let found = try hits(store, "example.org/do")
        #expect(found.map(\.id) == [b, a], "\(found.map { ($0.id, $0.snippet) }) a=\(a) b=\(b) d=\(d)")
        #expect(try hits(store, "HTTPS://www.Example.org/do*").map(\.id) == [b, a])
        let snippet = try #require(try hits(store, "example.org/docs").first?.snippet)
        #expect(snippet.contains("\(SearchHit.matchStart)example.org/docs\(SearchHit.matchEnd)"), "\(snippet)")
        // No URL starts so: the text is searched as before.
        #expect(try hits(store, "example.org/dog").map(\.id) == [d])
        // Filters hold.
        #expect(try store.database.search(SearchRequest(query: try SearchQuery(parsing: "example.org/do"), folder: "/t")).map(\.id) == [b])
        // Hostile input never reaches SQL as text.
        for query in ["example.org/\"'*)", "example.org/%", "example.org/'; DROP TABLE entity; --"] {
            _ = try hits(store, query)
        }
    }

    /// `lens_rank` with the vocabulary's counts gives what FTS5's bm25 gives, score for score (to
    /// 1e-9; equal scores newest first), for words, alternatives, exclusions, phrases and prefixes (the last two counted by FTS5).
    @Test func lensRankEqualsBM25() throws {
        let store = try StoreFixture()
        let texts = ["invoice total paid", "invoice invoice overdue", "paid in full, thank you", "total due tomorrow",
                     "overdue invoice reminder", "receipt total", "thank you for the invoice", "nothing here"]
        for (i, text) in texts.enumerated() { try store.add(text, path: "/s/\(i).png", hash: i + 1) }
        let queries: [(String, [String?])] = [
            (#""invoice""#, ["invoice"]), (#""invoice" OR "paid""#, ["invoice", "paid"]),
            (#""total" AND "invoice""#, ["total", "invoice"]), (#"("invoice") NOT "overdue""#, ["invoice", "overdue"]),
            (#""thank you" OR "total""#, [nil, "total"]), (#""inv"* OR "due""#, [nil, "due"]),
        ]
        for (expression, words) in queries {
            let counts = try words.map { word in try word.map { String(try store.database.documentCount(of: $0)) } ?? "NULL" }
            let rank = "lens_rank(" + (["1.0", "3.0", "2.0"] + counts).joined(separator: ", ") + ")"
            let (bm25, ours) = try store.database.unsafeBulkWrite { db in
                // lens_rank orders equal scores newest first (a 1e-12 a rowid nudge): so does this.
                (try Row.fetchAll(db, sql: "SELECT rowid, rank FROM screenshot_fts WHERE screenshot_fts MATCH ? ORDER BY rank, rowid DESC",
                                  arguments: [expression]).map { [($0[0] as Int64), ($0[1] as Double)] as [Any] },
                 try Row.fetchAll(db, sql: "SELECT rowid, rank FROM screenshot_fts WHERE screenshot_fts MATCH ? AND rank MATCH ? ORDER BY rank, rowid",
                                  arguments: [expression, rank]).map { [($0[0] as Int64), ($0[1] as Double)] as [Any] })
            }
            #expect(bm25.count == ours.count && bm25.count > 0, "\(expression)")
            for (a, b) in zip(bm25, ours) {
                #expect(a[0] as! Int64 == b[0] as! Int64, "\(expression)")
                #expect(abs((a[1] as! Double) - (b[1] as! Double)) < 1e-9, "\(expression): \(a) \(b)")
            }
        }
    }

    /// A phrase of several words is ranked with its rarest word's count standing for its own:
    /// for a query of one phrase that is a constant, so the order is bm25's.
    @Test func aPhraseIsRankedInBM25sOrder() throws {
        let store = try StoreFixture()
        let texts = ["thank you thank you very much", "thank you", "a long message that says thank you once among many other words here",
                     "thank you and thank you and thank you", "you thank nobody", "thank goodness", "see you"]
        for (i, text) in texts.enumerated() { try store.add(text, path: "/s/\(i).png", hash: i + 1) }
        let bm25 = try store.database.unsafeBulkWrite { db in
            try Int64.fetchAll(db, sql: #"SELECT rowid FROM screenshot_fts WHERE screenshot_fts MATCH '"thank you"' ORDER BY rank"#)
        }
        #expect(bm25.count == 4)
        #expect(try hits(store, #""thank you""#).map(\.id) == bm25)
    }

    /// A phrase's best rows get their snippets either by a lookup each or by a walk of their
    /// rowid range (whichever reads less); both give the same hits, scores and snippets.
    @Test func aPhrasesSnippetsAreTheSameWhicheverWayTheyAreMade() throws {
        let store = try StoreFixture()
        for n in 1...60 {
            let text = n % 7 == 0 ? "before the order number \(n) after" : "number \(n) of the order, then order and number"
            try store.add(text, path: "/s/\(n).png", hash: n)
        }
        let looked = try LensDatabase.$lookupCostInDoclistEntries.withValue(0) { try hits(store, "\"order number\"") }
        let walked = try LensDatabase.$lookupCostInDoclistEntries.withValue(.infinity) { try hits(store, "\"order number\"") }
        #expect(looked.map(\.id) == (1...60).filter { $0 % 7 == 0 }.reversed().map(Int64.init))
        #expect(looked == walked)
        let marked = "\(SearchHit.matchStart)order number\(SearchHit.matchEnd)"
        #expect(looked.allSatisfy { $0.snippet.contains(marked) })
    }

    /// Screenshots indexed one at a time leave the index in pieces; once a tenth of it lies
    /// outside its largest piece it is merged, and searches find the same.
    @Test func aSearchIndexInPiecesIsMergedAndFindsTheSame() throws {
        let store = try StoreFixture()
        for n in 1...6 { try store.add("note \(n) about invoices and orders", path: "/s/\(n).png", hash: n) }
        let before = try hits(store, "invoices orders")
        let pieces = { try store.database.unsafeBulkWrite { db in try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM screenshot_fts_idx") ?? 0 } }
        #expect(try pieces() > 1)
        #expect(try store.database.mergeSearchIndexIfFragmented())
        #expect(try pieces() == 1)
        #expect(try !store.database.mergeSearchIndexIfFragmented())
        #expect(try hits(store, "invoices orders") == before && before.count == 6)
    }
}
