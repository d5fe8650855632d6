import CSQLiteDeadline
import Foundation
import GRDB
import LensCore

/// What to look for. A request without a query lists screenshots matching the filters, newest first.
public struct SearchRequest: Sendable {
    public var query: SearchQuery?
    /// Only screenshots with a live path under this absolute folder.
    public var folder: String?
    /// Captured at or after this instant.
    public var since: Date?
    /// Captured before this instant.
    public var until: Date?
    /// Only screenshots whose mean word confidence (0...100) is at least this.
    public var minimumConfidence: Double?
    /// Only screenshots having an entity of each of these types (`phone`, `url`…).
    public var entityTypes: [String]
    /// Only screenshots having each of these entities, by normalized value (`phone`, `+14155550132`).
    public var entities: [(type: String, normalized: String)]
    /// Only screenshots carrying every one of these tags.
    public var tags: [String] = []
    public var limit: Int
    /// Results to skip first (the next page of an endless list).
    public var offset: Int = 0
    /// When there are few exact hits (``LensDatabase/fewHits``), also look for the spellings OCR makes of the
    /// query's words (``OCRConfusions``); such hits come after every other and name the words used.
    public var allowsFuzzy = true
    /// Whether screenshots are also found by what their text is about (done by LensApp, which
    /// holds the model; the store matches words only).
    public var meaning: SearchMeaning = .off
    /// How long the search may run before it is stopped with ``SearchError/tooCostly(milliseconds:)``:
    /// a bound for whatever the query's shape, so that no request holds a reader for long.
    public var timeLimit: Duration = LensDatabase.searchTimeLimit

    public init(query: SearchQuery?, folder: String? = nil, since: Date? = nil, until: Date? = nil,
                minimumConfidence: Double? = nil, entityTypes: [String] = [],
                entities: [(type: String, normalized: String)] = [], tags: [String] = [], limit: Int = 20, offset: Int = 0) {
        self.offset = offset
        self.query = query
        self.tags = tags
        self.folder = folder
        self.since = since
        self.until = until
        self.minimumConfidence = minimumConfidence
        self.entityTypes = entityTypes
        self.entities = entities
        self.limit = limit
    }
}

/// How a search uses the meaning of the query (search by meaning, `lens search --meaning`).
public enum SearchMeaning: String, Sendable {
    /// Words only.
    case off
    /// Words first (every screenshot holding the query's words), then screenshots whose text is
    /// about the same thing without holding them.
    case alongWords
    /// Meaning only: the screenshots nearest the query's meaning, nearest first.
    case only
}

/// One search result. The snippet marks matches with ``SearchHit/matchStart`` and ``SearchHit/matchEnd``.
public struct SearchHit: Sendable, Equatable {
    public static let matchStart: Character = "\u{2}"
    public static let matchEnd: Character = "\u{3}"

    public var id: Int64
    public var paths: [String]
    /// bm25 relevance, higher is better (0 for filter-only listings).
    public var score: Double
    public var snippet: String
    public var capturedAt: Date
    public var importedAt: Date
    /// Only the newest matches were ranked (the query matched more than ``LensDatabase/candidateWindow``),
    /// or a word typed in part had more completions than were tried.
    public var isApproximate: Bool = false
    /// The vocabulary words, OCR misreadings of a query word, that found this hit (empty for an exact hit).
    public var fuzzyWords: [String] = []
    /// When every file holding it is gone: the last path it was seen at (to name it by).
    public var lastGonePath: String?
    /// What the snippet shows: the text, or the note or the tags when the query matched those only.
    public var matchedIn: Field = .text
    /// How near the query's meaning this screenshot's text is (a cosine, -1...1), when it was
    /// found by meaning alone (no word of the query matched it); nil for a hit by words.
    public var similarity: Float?

    /// A part of a screenshot that a query searches.
    public enum Field: String, Sendable {
        case text, tags, note
    }
}

/// Why a search stopped without an answer.
public enum SearchError: Error, Equatable, CustomStringConvertible {
    /// It ran past its ``SearchRequest/timeLimit``.
    case tooCostly(milliseconds: Int)

    public var description: String {
        switch self {
        case .tooCostly(let milliseconds):
            return "the search was stopped after \(milliseconds) ms: use fewer or more distinctive words"
        }
    }
}

extension LensDatabase {
    /// Below this many exact hits a query also matches OCR misreadings of its words, whatever
    /// the number of hits asked for: the page (60 a request) and the CLI (20) find the same, and
    /// a query that fills a page of its own does not pay for a second walk (1.5–6 ms at 100,000
    /// screenshots for two words).
    public static let fewHits = 20
    /// How many of the newest matches are ranked when a query matches more than that.
    public static let candidateWindow = 2_000
    /// What looking a row up by rowid costs, per query token, in doclist entries walked (about
    /// 50 µs against 50 ns at 100,000 screenshots). Tests set it to 0 or infinity to take either
    /// way of making a phrase's snippets.
    @TaskLocal static var lookupCostInDoclistEntries = 1_000.0
    /// How many completions a word typed in part expands to.
    public static let completionLimit = 16

    /// How many completions `prefix` (folded) expands to: two letters match the most words, each
    /// in many screenshots, so fewer of them keep the OR as cheap as a longer prefix's (p95 22 ms
    /// with 16 at 100,000 screenshots). Both stores take the same.
    static func completionLimit(forPrefix prefix: String) -> Int {
        prefix.count <= 2 ? max(1, completionLimit / 2) : completionLimit
    }
    /// The most OCR misreadings of the query's words looked up in the vocabulary, for the whole
    /// query (shared by its words, each word's nearest first): some 2 µs each.
    public static let misreadingLookups = 4_000
    /// How long a search may run (``SearchRequest/timeLimit``). Searches take milliseconds at
    /// 100,000 screenshots; this bounds what no shape limit foresaw.
    public static let searchTimeLimit = Duration.seconds(1)

    /// Finds screenshots by their text, best matches first.
    ///
    /// Every query costs about the same, whatever its words: the matches are walked newest first
    /// (FTS5 walks its doclists in rowid order and stops at the `LIMIT`), and when there are more
    /// than ``candidateWindow`` only the newest that many are ranked, by bm25, and the hits say
    /// `isApproximate`. (Ranking every match of a word found in most screenshots took up to 100 ms
    /// at 100,000 screenshots.) A word typed in part (`lumi*`) is looked up whole first, then
    /// expanded to its ``completionLimit`` most frequent completions from the vocabulary (FTS5's
    /// own prefix query merges the doclists of every completion: half a second for `lo*`); exact
    /// hits come before completions. Snippets are made for the returned rows only.
    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        if let postgres { return try postgres.search(request) }
        let milliseconds = Int(request.timeLimit.components.seconds * 1000 + request.timeLimit.components.attoseconds / 1_000_000_000_000_000)
        do {
            return try writer().read { db in
                var deadline = lens_sqlite_deadline()
                lens_sqlite_set_deadline(db.sqliteConnection, &deadline, Int32(clamping: milliseconds))
                defer { lens_sqlite_clear_deadline(db.sqliteConnection) }
                return try search(request, in: db)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            throw SearchError.tooCostly(milliseconds: milliseconds)
        }
    }

    private func search(_ request: SearchRequest, in db: Database) throws -> [SearchHit] {
        let (conditions, filterArguments) = try Self.filterConditions(request, in: db)
        var rows: [Match] = []
        var isApproximate = false
        var fuzzy: [Int64: [String]] = [:]
        if let query = request.query {
            // Checked on each match (a word that matches nothing costs nothing, whatever the filters).
            let filter = conditions.isEmpty ? "" : """
                AND EXISTS (SELECT 1 FROM screenshot s WHERE s.id = screenshot_fts.rowid AND \(conditions.joined(separator: " AND ")))
                """
            let wanted = max(0, request.limit) + max(0, request.offset)
            var expressions = [query.fts5(completions: [:])]
            var completions: [String: [String]] = [:]
            if query.hasExpandablePrefix {
                let truncated: Bool
                (completions, truncated) = try self.completions(of: query.expandablePrefixes, in: db)
                isApproximate = truncated
                expressions = [query.fts5(completions: [:], exactPrefixes: true), query.fts5(completions: completions)]
            }
            var seen = Set<Int64>()
            // The start of a web address: the URLs found in screenshots answer it from the
            // entity index (an FTS5 phrase of `example org` and a path prefix walks the long
            // doclists of `org` and `com`: 45 ms at the 95th percentile on real text). The
            // text is searched only when no URL starts so.
            if let prefix = query.webAddressPrefix {
                rows = try Self.webAddressMatches(prefix, conditions: conditions, arguments: filterArguments, wanted: wanted, in: db)
                if !rows.isEmpty { expressions = [] }
                seen.formUnion(rows.map(\.id))
            }
            for (pass, (expression, phrases)) in expressions.enumerated() where rows.count < wanted {
                // Completions are ranked among fewer candidates: they come after exact hits anyway.
                let window = pass == 0 ? Self.candidateWindow : Self.candidateWindow / 2
                let (found, cut) = try Self.rankedMatches(expression, phrases: phrases, filter: filter, arguments: filterArguments,
                                                          wanted: wanted, window: window, in: db)
                isApproximate = isApproximate || cut
                for hit in found where seen.insert(hit.id).inserted { rows.append(hit) }
            }
            // Few hits: the words may have been misread where they appear. Try the spellings
            // OCR makes of them that the vocabulary holds, after every exact hit (so exact hits
            // keep their places).
            if request.allowsFuzzy, rows.count < min(wanted, Self.fewHits) {
                var alternatives: [String: [String]] = [:]
                let candidates = Set(query.fuzzyCandidatesAsTyped)
                let lookups = Self.misreadingLookups / max(1, candidates.count)
                for typed in candidates {
                    let word = SearchQuery.folded(typed)
                    let found = try Self.knownSpellings(OCRConfusions.variants(of: word, typed: typed, limit: lookups), in: db)
                    if !found.isEmpty { alternatives[word] = found }
                }
                if !alternatives.isEmpty {
                    let (expression, phrases) = query.fts5(completions: completions, alternatives: alternatives)
                    let (found, cut) = try Self.rankedMatches(expression, phrases: phrases, filter: filter, arguments: filterArguments,
                                                              wanted: wanted, window: Self.candidateWindow, in: db)
                    isApproximate = isApproximate || cut
                    let used = alternatives.values.flatMap { $0 }
                    for hit in found where seen.insert(hit.id).inserted {
                        fuzzy[hit.id] = used.filter { word in Self.folded(hit.snippet).contains(word) }
                        rows.append(hit)
                    }
                }
            }
            rows = Array(rows.dropFirst(max(0, request.offset)).prefix(max(0, request.limit)))
        } else {
            rows = try Row.fetchAll(db, sql: """
                SELECT s.id AS id, 0.0 AS score, substr(lens_inflate(t.body), 1, 160) AS snippet
                FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                WHERE s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY s.captured_at DESC, s.id DESC LIMIT ? OFFSET ?
                """, arguments: filterArguments + [max(0, request.limit), max(0, request.offset)]).map {
                Match(id: $0["id"], score: $0["score"], snippet: $0["snippet"] ?? "")
            }
            rows = try Self.showingFilters(of: request, in: rows, db: db)
        }
        return try Self.hits(rows, isApproximate: isApproximate, fuzzy: fuzzy, in: db)
    }

    /// The screenshots `ids` (found by meaning) that pass `request`'s filters, in the order given,
    /// each with its `similarity` and the start of its text as the snippet (no word matched).
    public func hits(for ids: [(id: Int64, similarity: Float)], filteredBy request: SearchRequest) throws -> [SearchHit] {
        guard !ids.isEmpty else { return [] }
        if let postgres { return try postgres.hits(for: ids, filteredBy: request) }
        return try writer().read { db in
            var (conditions, arguments) = try Self.filterConditions(request, in: db)
            // `-word`: a screenshot holding an excluded word is not offered by meaning either.
            if let excluded = request.query?.exclusions {
                conditions.append("s.id NOT IN (SELECT rowid FROM screenshot_fts WHERE screenshot_fts MATCH ?)")
                arguments += [excluded.fts5Expression]
            }
            let found = try Dictionary(Row.fetchAll(db, sql: """
                SELECT s.id AS id, substr(lens_inflate(t.body), 1, 160) AS snippet
                FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                WHERE s.id IN (\(databaseQuestionMarks(count: ids.count))) AND s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                """, arguments: StatementArguments(ids.map(\.id)) + arguments).map { ($0["id"] as Int64, ($0["snippet"] as String?) ?? "") },
                uniquingKeysWith: { a, _ in a })
            let rows = ids.compactMap { item in found[item.id].map { Match(id: item.id, score: 0, snippet: $0) } }
            let similarities = Dictionary(ids.map { ($0.id, $0.similarity) }, uniquingKeysWith: { a, _ in a })
            return try Self.hits(rows, isApproximate: false, fuzzy: [:], in: db).map { hit in
                var hit = hit
                hit.similarity = similarities[hit.id]
                return hit
            }
        }
    }

    /// Hits for `rows`, in their order: dates and the paths each is seen at (or, when its files
    /// are all gone, the last one).
    private static func hits(_ rows: [Match], isApproximate: Bool, fuzzy: [Int64: [String]], in db: Database) throws -> [SearchHit] {
        guard !rows.isEmpty else { return [] }
        let ids = rows.map(\.id)
        var dates: [Int64: (Double, Double)] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, captured_at, imported_at FROM screenshot WHERE id IN (\(databaseQuestionMarks(count: ids.count)))
            """, arguments: StatementArguments(ids)) {
            dates[row["id"]] = (row["captured_at"], row["imported_at"])
        }
        var paths: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT screenshot_id, path FROM path
            WHERE screenshot_id IN (\(databaseQuestionMarks(count: ids.count))) AND gone_at IS NULL
            ORDER BY first_seen_at, path
            """, arguments: StatementArguments(ids)) {
            paths[row["screenshot_id"], default: []].append(row["path"])
        }
        // Screenshots whose files are all gone are still named by where they were last seen.
        var gone: [Int64: String] = [:]
        let orphans = ids.filter { paths[$0] == nil }
        if !orphans.isEmpty {
            for row in try Row.fetchAll(db, sql: """
                SELECT screenshot_id, path FROM path
                WHERE screenshot_id IN (\(databaseQuestionMarks(count: orphans.count)))
                ORDER BY gone_at, path
                """, arguments: StatementArguments(orphans)) {
                gone[row["screenshot_id"]] = row["path"] // the last one gone wins
            }
        }
        return rows.map { row in
            let (captured, imported) = dates[row.id] ?? (0, 0)
            return SearchHit(id: row.id, paths: paths[row.id] ?? [], score: row.score, snippet: row.snippet,
                             capturedAt: Date(timeIntervalSince1970: captured),
                             importedAt: Date(timeIntervalSince1970: imported), isApproximate: isApproximate,
                             fuzzyWords: fuzzy[row.id] ?? [], lastGonePath: gone[row.id], matchedIn: row.field)
        }
    }

    /// The best `wanted` matches of `expression` by bm25 (recency breaks ties), among the newest
    /// ``candidateWindow`` matches, with their snippets (made for those rows only); `cut` when
    /// there were more.
    ///
    /// The rank is `lens_rank`: FTS5's `bm25(1.0, 3.0, 2.0)` (text, tags, note) with each
    /// one-word phrase's IDF from the vocabulary table instead of a walk of every row holding it,
    /// which bm25 makes once per query (10–40 ms at 100,000 screenshots for common words, whatever
    /// the window). A phrase of several words takes its rarest word's count; a lone prefix is
    /// still counted by FTS5.
    private static func rankedMatches(_ expression: String, phrases: [SearchQuery.Phrase], filter: String, arguments: StatementArguments,
                                      wanted: Int, window: Int, in db: Database) throws -> (hits: [Match], cut: Bool) {
        guard wanted > 0 else { return ([], false) }
        // The rank function is set for this query (`rank MATCH`). Its arguments are numbers.
        // A phrase of several words counts as its rarest word's rows (an upper bound of its own):
        // a constant for a query of one phrase, so its order is bm25's, and no walk of every row
        // holding it (30 ms for `"portor portlinanna"`). A prefix alone is counted by FTS5.
        var rowsHolding: [String] = []
        var postings = 0, tokenCount = 0, longestPhrase = 0
        for phrase in phrases {
            let tokens = SearchQuery.searchTokens(in: phrase.text)
            let whole = phrase.isPrefix ? tokens.dropLast() : tokens[...]
            let counts = try whole.map { try documents(of: SearchQuery.folded($0), in: db) }
            rowsHolding.append(whole.isEmpty ? "NULL" : String(counts.min() ?? 0))
            postings += counts.reduce(0, +)
            tokenCount += tokens.count
            longestPhrase = max(longestPhrase, tokens.count)
        }
        // SQLite takes at most 127 arguments; a query of more phrases lets FTS5 count them all.
        if rowsHolding.count > 120 { rowsHolding = [] }
        let rank = "lens_rank(" + (["1.0", "3.0", "2.0"] + rowsHolding).joined(separator: ", ") + ")"
        let snippet = "snippet(screenshot_fts, 0, '\(SearchHit.matchStart)', '\(SearchHit.matchEnd)', '…', 16)"

        guard longestPhrase > 1, !phrases.contains(where: \.isPrefix) else {
            // The window is found by rowid first (a walk that stops at its last row), then ranked
            // and given snippets in one query that sorts by the rank itself.
            let candidates = try Int64.fetchAll(db, sql: """
                SELECT rowid FROM screenshot_fts WHERE screenshot_fts MATCH ? \(filter) ORDER BY rowid DESC LIMIT ?
                """, arguments: [expression] + arguments + [window + 1])
            guard let last = candidates.last else { return ([], false) }
            let cut = candidates.count > window
            // Equal scores are ordered newest first by the rank itself (lens_rank), so the order
            // does not depend on the LIMIT and pages neither repeat nor skip tied rows.
            let hits = try Row.fetchAll(db, sql: """
                SELECT rowid AS id, -rank AS score, \(snippet) AS snippet
                FROM screenshot_fts WHERE screenshot_fts MATCH ? AND rank MATCH ? AND rowid >= ? \(filter) ORDER BY rank LIMIT ?
                """, arguments: [expression, rank, cut ? candidates[window - 1] : last] + arguments + [wanted]).map {
                Match(id: $0["id"], score: $0["score"], snippet: ($0["snippet"] as String?) ?? "")
            }
            return (try showingAnnotations(matching: expression, in: hits.sorted { ($0.score, $0.id) > ($1.score, $1.id) }, db: db), cut)
        }
        // A phrase of several words. When its words are common and the phrase is not, the walk
        // above reads both long doclists whole, and the ranking query read them again (17 ms for
        // `"ex anel"`, words in 98 % and 75 % of 100,000 screenshots). Here one walk ranks the
        // window as it goes; then the best get snippets, each looked up by rowid (FTS5 seeks
        // every token: some 50 µs a row and token) when the walk read more than those lookups
        // cost (some 50 ns a doclist entry), else by a walk of their rowid range.
        let ranked = try Row.fetchAll(db, sql: """
            SELECT rowid AS id, -rank AS score FROM screenshot_fts
            WHERE screenshot_fts MATCH ? AND rank MATCH ? \(filter) ORDER BY rowid DESC LIMIT ?
            """, arguments: [expression, rank] + arguments + [window + 1]).map { (id: $0["id"] as Int64, score: $0["score"] as Double) }
        let cut = ranked.count > window
        let best = Array(ranked.prefix(window).sorted { ($0.score, $0.id) > ($1.score, $1.id) }.prefix(wanted))
        guard let newest = ranked.first?.id, let oldest = best.map(\.id).min(), let latest = best.map(\.id).max() else { return ([], false) }
        let walked = Double(postings) * (cut ? Double(newest - ranked[window - 1].id + 1) / Double(max(1, newest)) : 1)
        let looksUp = walked > Double(best.count * tokenCount) * Self.lookupCostInDoclistEntries
        let snippets = try Dictionary(Row.fetchAll(db, sql: """
            SELECT rowid AS id, \(snippet) AS snippet FROM screenshot_fts
            WHERE screenshot_fts MATCH ? AND \(looksUp ? "" : "rowid BETWEEN \(oldest) AND \(latest) AND +")rowid IN (\(databaseQuestionMarks(count: best.count)))
            """, arguments: [expression] + StatementArguments(best.map(\.id))).map {
            ($0["id"] as Int64, ($0["snippet"] as String?) ?? "")
        }, uniquingKeysWith: { a, _ in a })
        return (try showingAnnotations(matching: expression, in: best.map { Match(id: $0.id, score: $0.score, snippet: snippets[$0.id] ?? "") },
                                       db: db), cut)
    }

    /// The newest `wanted` screenshots with a URL starting with `prefix` (after `http(s)://` and
    /// `www.`), with a snippet around the first place the text shows it. Four range reads of the
    /// `(type, normalized)` index, one per way the address may have been normalized.
    static func webAddressMatches(_ prefix: String, conditions: [String], arguments: StatementArguments, wanted: Int,
                                  in db: Database) throws -> [Match] {
        guard wanted > 0 else { return [] }
        let starts = ["https://", "http://", "https://www.", "http://www."].map { $0 + prefix }
        let ranges = starts.map { _ in "SELECT screenshot_id FROM entity WHERE type = 'url' AND normalized >= ? AND normalized < ?" }
        let filter = conditions.isEmpty ? "" : "WHERE EXISTS (SELECT 1 FROM screenshot s WHERE s.id = screenshot_id AND \(conditions.joined(separator: " AND ")))"
        var bounds: [String] = []
        for start in starts { bounds += [start, start + "\u{10FFFF}"] }
        let ids = try Int64.fetchAll(db, sql: """
            SELECT DISTINCT screenshot_id AS id FROM (\(ranges.joined(separator: " UNION ALL "))) \(filter) ORDER BY id DESC LIMIT ?
            """, arguments: StatementArguments(bounds) + arguments + [wanted])
        guard !ids.isEmpty else { return [] }
        let texts = try Dictionary(Row.fetchAll(db, sql: """
            SELECT id, lens_inflate(body) AS text FROM screenshot_text WHERE id IN (\(databaseQuestionMarks(count: ids.count)))
            """, arguments: StatementArguments(ids)).map { ($0["id"] as Int64, ($0["text"] as String?) ?? "") }, uniquingKeysWith: { a, _ in a })
        let host = String(prefix.prefix { $0 != "/" })
        return ids.map { id in Match(id: id, score: 0, snippet: snippet(of: texts[id] ?? "", around: prefix, orElse: host)) }
    }

    /// A screenshot found, with what to show of it.
    struct Match {
        var id: Int64
        var score: Double
        var snippet: String
        var field: SearchHit.Field = .text
    }

    /// `matches` with the snippets of those whose text holds no match (the query matched their
    /// tags or note only) made from what matched: the note's words around the match, or the tags
    /// (matches marked) and the text's first words. Only such rows are read again, a few at most.
    private static func showingAnnotations(matching expression: String, in matches: [Match], db: Database) throws -> [Match] {
        let unmarked = matches.filter { !$0.snippet.contains(SearchHit.matchStart) }.map(\.id)
        guard !unmarked.isEmpty else { return matches }
        let mark = "'\(SearchHit.matchStart)', '\(SearchHit.matchEnd)', '…'"
        var found: [Int64: (SearchHit.Field, String)] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT rowid AS id, snippet(screenshot_fts, 1, \(mark), 64) AS tags, snippet(screenshot_fts, 2, \(mark), 16) AS note
            FROM screenshot_fts WHERE screenshot_fts MATCH ? AND rowid IN (\(databaseQuestionMarks(count: unmarked.count)))
            """, arguments: [expression] + StatementArguments(unmarked)) {
            let tags: String = row["tags"] ?? "", note: String = row["note"] ?? ""
            if note.contains(SearchHit.matchStart) {
                found[row["id"]] = (.note, note)
            } else if tags.contains(SearchHit.matchStart) {
                found[row["id"]] = (.tags, readableTags(tags))
            }
        }
        return matches.map { match in
            guard let (field, shown) = found[match.id] else { return match }
            var match = match
            match.snippet = field == .tags ? shown + " · " + match.snippet : shown
            match.field = field
            return match
        }
    }

    /// A snippet of the tags column (a JSON array, `["work","re\u{2}ceipts\u{3}"]`) as a list:
    /// `work, receipts` with the marks kept.
    static func readableTags(_ snippet: String) -> String {
        var list = snippet
        if list.hasPrefix("[\"") { list.removeFirst(2) } else if list.hasPrefix("[") { list.removeFirst() }
        if list.hasSuffix("\"]") { list.removeLast(2) } else if list.hasSuffix("]") { list.removeLast() }
        return list.replacingOccurrences(of: "\",\"", with: ", ").replacingOccurrences(of: "\\\"", with: "\"")
    }

    /// A listing by filters alone shows why each screenshot is in it: an entity filter's value
    /// where the text has it (the first entity of a filtered type), marked; else a tag filter's
    /// tags, marked, before the text's first words.
    private static func showingFilters(of request: SearchRequest, in matches: [Match], db: Database) throws -> [Match] {
        guard !matches.isEmpty, !request.entities.isEmpty || !request.entityTypes.isEmpty || !request.tags.isEmpty else { return matches }
        let ids = matches.map(\.id)
        if !request.entities.isEmpty || !request.entityTypes.isEmpty {
            var wanted: [String] = [], arguments: StatementArguments = []
            for entity in request.entities {
                wanted.append("(type = ? AND normalized = ?)")
                arguments += [entity.type, entity.normalized]
            }
            for type in request.entityTypes {
                wanted.append("type = ?")
                arguments += [type]
            }
            var values: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT screenshot_id, value FROM entity
                WHERE screenshot_id IN (\(databaseQuestionMarks(count: ids.count))) AND (\(wanted.joined(separator: " OR ")))
                  AND source = 'text'
                ORDER BY screenshot_id, start
                """, arguments: StatementArguments(ids) + arguments) where values[row["screenshot_id"]] == nil {
                values[row["screenshot_id"]] = row["value"]
            }
            let texts = try Dictionary(Row.fetchAll(db, sql: """
                SELECT id, lens_inflate(body) AS text FROM screenshot_text WHERE id IN (\(databaseQuestionMarks(count: values.count)))
                """, arguments: StatementArguments(Array(values.keys))).map { ($0["id"] as Int64, ($0["text"] as String?) ?? "") },
                uniquingKeysWith: { a, _ in a })
            return matches.map { match in
                guard let value = values[match.id], let text = texts[match.id], text.range(of: value) != nil else { return match }
                var match = match
                match.snippet = snippet(of: text, around: value, orElse: value)
                return match
            }
        }
        var tagLists: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, tags FROM screenshot_text WHERE id IN (\(databaseQuestionMarks(count: ids.count)))
            """, arguments: StatementArguments(ids)) {
            let json: String = row["tags"] ?? "[]"
            tagLists[row["id"]] = (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
        }
        return matches.map { match in
            guard let tags = tagLists[match.id], !tags.isEmpty else { return match }
            var match = match
            match.snippet = Self.snippet(showing: tags, marking: request.tags, before: match.snippet)
            match.field = .tags
            return match
        }
    }

    /// A listing by tag shows the screenshot's tags, those filtered on marked, before its snippet
    /// (both stores).
    static func snippet(showing tags: [String], marking filtered: [String], before snippet: String) -> String {
        let marked = tags.map { filtered.contains($0) ? "\(SearchHit.matchStart)\($0)\(SearchHit.matchEnd)" : $0 }
        return marked.joined(separator: ", ") + " · " + snippet
    }

    /// Some 16 words of `text` around the first place it shows `fragment` (or `fallback`), that
    /// place marked as FTS5's `snippet()` marks matches.
    static func snippet(of text: String, around fragment: String, orElse fallback: String) -> String {
        guard let found = text.range(of: fragment, options: .caseInsensitive) ?? text.range(of: fallback, options: .caseInsensitive) else {
            return String(text.prefix(120))
        }
        let before = text[..<found.lowerBound].suffix(60), after = text[found.upperBound...].prefix(60)
        return (before.startIndex > text.startIndex ? "…" : "") + before + String(SearchHit.matchStart) + text[found]
            + String(SearchHit.matchEnd) + after + (after.endIndex < text.endIndex ? "…" : "")
    }

    /// How many screenshots hold `term`, by the vocabulary.
    static func documents(of term: String, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT docs FROM term WHERE term = ?", arguments: [term]) ?? 0
    }

    /// The first 8 spellings among `candidates` (nearest first) that some screenshot holds.
    static func knownSpellings(_ candidates: [String], in db: Database) throws -> [String] {
        var found: [String] = []
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM term WHERE term = ?")
        for candidate in candidates where found.count < 8 {
            if try Int.fetchOne(statement, arguments: [candidate]) != nil { found.append(candidate) }
        }
        return found
    }

    /// The snippet's words folded as the index folds them, for telling which spelling matched.
    static func folded(_ snippet: String) -> String {
        SearchQuery.indexTerms(in: snippet).joined(separator: " ")
    }

    /// SQL conditions on `screenshot s` for the request's filters, cheapest first (SQLite checks
    /// them in order and stops at the first that fails).
    ///
    /// Each is checked per candidate row, except where a short list is cheaper: an entity value,
    /// or a type held by few rows, is read once from the `(type, normalized)` index; a tag is
    /// first looked up in the FTS5 `tags` column (then checked exactly in the JSON). So a filter
    /// that matches nothing costs nothing, and none makes a search read every screenshot (16 tags,
    /// 6 types and 16 phone numbers with a word took 0.5 s at 100,000 when every filter was a
    /// list of all the screenshots it allows).
    private static func filterConditions(_ request: SearchRequest, in db: Database) throws -> ([String], StatementArguments) {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let since = request.since {
            conditions.append("s.captured_at >= ?")
            arguments += [since.timeIntervalSince1970]
        }
        if let until = request.until {
            conditions.append("s.captured_at < ?")
            arguments += [until.timeIntervalSince1970]
        }
        if let minimum = request.minimumConfidence {
            conditions.append("s.confidence >= ?")
            arguments += [minimum]
        }
        for entity in request.entities {
            conditions.append("s.id IN (SELECT screenshot_id FROM entity WHERE type = ? AND normalized = ?)")
            arguments += [entity.type, entity.normalized]
        }
        var perRow: [String] = []
        var perRowArguments: StatementArguments = []
        for type in request.entityTypes {
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM entity WHERE type = ? LIMIT ?)",
                                        arguments: [type, Self.shortListRows + 1]) ?? 0
            if rows <= Self.shortListRows {
                conditions.append("s.id IN (SELECT screenshot_id FROM entity WHERE type = ?)")
                arguments += [type]
            } else {
                perRow.append("EXISTS (SELECT 1 FROM entity e WHERE e.screenshot_id = s.id AND e.type = ?)")
                perRowArguments += [type]
            }
        }
        for tag in request.tags {
            if !SearchQuery.searchTokens(in: tag).isEmpty {
                conditions.append("s.id IN (SELECT rowid FROM screenshot_fts WHERE screenshot_fts MATCH ?)")
                arguments += ["tags : \"" + tag.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
            }
            perRow.append("EXISTS (SELECT 1 FROM screenshot_text t2, json_each(t2.tags) j WHERE t2.id = s.id AND j.value = ?)")
            perRowArguments += [tag]
        }
        if let folder = request.folder {
            let range = LensDatabase.pathRange(inside: folder)
            perRow.append("""
                EXISTS (SELECT 1 FROM path p WHERE p.screenshot_id = s.id AND p.gone_at IS NULL
                        AND p.path > ? AND p.path < ?)
                """)
            perRowArguments += [range.lower, range.upper]
        }
        return (conditions + perRow, arguments + perRowArguments)
    }

    /// The most entity rows a filter reads as a list of screenshots (some 2 ms); a type held by
    /// more is checked on each candidate instead.
    static let shortListRows = 20_000

    /// A value that changes whenever a screenshot is recognized, removed or annotated, by this
    /// process or another: the web page's live updates poll it (cheap: two aggregates and the batch log).
    public func changeMark() throws -> String {
        if let postgres { return try postgres.changeMark() }
        return try writer().read { db in
            let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM screenshot) AS done,
                       (SELECT max(recognized_at) FROM screenshot) AS recognized
                """)
            let done: Int = row?["done"] ?? 0
            let recognized: Double = row?["recognized"] ?? 0
            return "\(done)-\(recognized)"
        }
    }

    /// The content hash of screenshot `id` and its live paths, most recently seen first; nil
    /// when there is no such screenshot.
    public func contentAndPaths(id: Int64) throws -> (sha256: String, paths: [String])? {
        if let postgres { return try postgres.contentAndPaths(id: id) }
        return try writer().read { db in
            guard let sha256 = try String.fetchOne(db, sql: "SELECT sha256 FROM screenshot WHERE id = ?", arguments: [id]) else { return nil }
            let paths = try String.fetchAll(db, sql: """
                SELECT path FROM path WHERE screenshot_id = ? AND gone_at IS NULL ORDER BY last_seen_at DESC, path
                """, arguments: [id])
            return (sha256, paths)
        }
    }

    /// Checks at startup that this SQLite has a working FTS5 with the tokenizer Lens needs
    /// (GRDB's Linux support is community-maintained; a build without FTS5 must fail loudly).
    /// The version of the SQLite library Lens runs on (`lens version`).
    public static func sqliteVersion() throws -> String {
        try DatabaseQueue().read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "unknown" }
    }

    public static func selfCheck() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO t(x) VALUES ('Crème brûlée');
                """)
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE t MATCH '\"creme\"'") == 1 else {
                throw StoreError.cannotCreate(path: ":memory:", reason: "SQLite's FTS5 does not fold diacritics")
            }
        }
    }
}
