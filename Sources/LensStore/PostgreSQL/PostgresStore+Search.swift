import Foundation
import LensCore
import PostgresNIO

/// Full-text search in PostgreSQL with the SQLite store's contract: the same words match (Lens
/// tokenizes and folds both the documents and the queries, so the server's locale and parser
/// play no part), ranked by bm25 as FTS5 computes it (k1 1.2, b 0.75; tags count 3 and the note
/// 2 against the text's 1) among the newest ``LensDatabase/candidateWindow`` matches, with
/// highlighted snippets, filters, prefixes, phrases and exclusions, under a statement timeout.
///
/// bm25 needs each term's document frequency: counted in the GIN index at query time, up to
/// ``documentFrequencyCap`` (a bounded walk: a word in more documents than that is weighed as if
/// in that many), and the library's size and mean length, kept for a minute.
extension PostgresStore {
    // MARK: Documents and queries

    /// What a text's row holds for search, made once for every writer of it (recognition,
    /// masking, tags and notes, restore): the text's length in tokens and the `tsvector`
    /// literals of the text with its code payloads, the tags and the note.
    struct SearchDocument {
        let length: Int32
        let text: String, tags: String, note: String

        init(text body: String, codes: String?, tags: [String], note: String?) {
            let tokens = SearchQuery.searchTokens(in: PostgresStore.indexedText(body, codes: codes))
            length = Int32(clamping: tokens.count)
            text = PostgresStore.vector(of: tokens)
            self.tags = PostgresStore.vector(of: SearchQuery.searchTokens(in: tags.joined(separator: " ")))
            self.note = PostgresStore.vector(of: SearchQuery.searchTokens(in: note ?? ""))
        }
    }

    /// The text a screenshot is searched and highlighted by: its text, then its code payloads
    /// after a blank line (as the SQLite store indexes them).
    static func indexedText(_ text: String, codes: String?) -> String {
        text + (codes.map { "\n\n" + $0 } ?? "")
    }

    /// A `tsvector` literal of tokens as Lens's index sees them (``SearchQuery/searchTokens(in:)``,
    /// folded), with their positions, so phrases match words in order.
    static func vector(of tokens: [String]) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for (index, token) in tokens.enumerated() {
            let folded = SearchQuery.folded(token)
            // PostgreSQL refuses lexemes of 2 KB or more; such a run of letters is no word anyway.
            guard !folded.isEmpty, folded.utf8.count < 2_000 else { continue }
            // Positions rise, and stop at 16,383 (PostgreSQL's limit): words past it still match,
            // phrases there are approximate. At most 256 a lexeme are kept (its limit too).
            let position = min(index + 1, 16_383)
            if positions[folded] == nil { order.append(folded) }
            let kept = positions[folded, default: []]
            guard kept.last != position, kept.count < 256 else { continue }
            positions[folded, default: []].append(position)
        }
        return order.map { lexeme in quoted(lexeme) + ":" + positions[lexeme]!.map(String.init).joined(separator: ",") }
            .joined(separator: " ")
    }

    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A `tsquery` literal for `query`: groups joined by `&`, a group's alternatives by `|`, a
    /// term of several words as a phrase (`<->`), a prefix as `:*`, an excluded group under `!`.
    static func tsquery(_ query: SearchQuery, exactPrefixes: Bool = false) -> String? {
        let groups = terms(of: query, exactPrefixes: exactPrefixes).compactMap { group, isExcluded -> String? in
            guard !group.isEmpty else { return nil }
            return (isExcluded ? "!" : "") + "(" + group.map { $0.tsquery() }.joined(separator: " | ") + ")"
        }
        return groups.isEmpty ? nil : groups.joined(separator: " & ")
    }

    /// The query's groups of terms, folded as the documents are. With `exactPrefixes`, a word
    /// typed in part that the SQLite store expands (``SearchQuery/expandablePrefixes``) is a whole word.
    static func terms(of query: SearchQuery, exactPrefixes: Bool) -> [(terms: [Term], isExcluded: Bool)] {
        let expandable = exactPrefixes ? Set(query.expandablePrefixes) : []
        return query.groups.map { group in
            let terms = group.compactMap { term -> Term? in
                // A token of marks alone folds to nothing: no lexeme matches it.
                let tokens = SearchQuery.searchTokens(in: term.text).map(SearchQuery.folded).filter { !$0.isEmpty && $0.utf8.count < 2_000 }
                guard !tokens.isEmpty else { return nil }
                return Term(tokens: tokens, isPrefix: term.isPrefix && !(tokens.count == 1 && expandable.contains(tokens[0])))
            }
            return (terms, group[0].isExcluded)
        }
    }

    /// ts_rank_cd's weights, in the order D, C, B, A: text 1, note 2, tags 3 (as bm25's column
    /// weights in the SQLite store). For queries with no term bm25 can weigh.
    static let rankWeights = "'{0.1, 0.1, 0.2, 0.3}'::float4[]"
    /// The most matches counted for a term's document frequency.
    static let documentFrequencyCap = 20_000

    /// One term of a query: a single lexeme (in bm25, its frequency recovered from ts_rank, see
    /// `lens_tf`), or a phrase or prefix (its occurrences counted by ts_rank_cd).
    struct Term {
        var tokens: [String]
        var isPrefix: Bool
        var isLexeme: Bool { tokens.count == 1 && !isPrefix }

        /// The term as a tsquery, matching only positions of `weight` (A tags, B note) when given.
        func tsquery(weight: String = "") -> String {
            tokens.enumerated().map { index, token in
                let prefix = isPrefix && index == tokens.count - 1
                return PostgresStore.quoted(token) + (prefix || !weight.isEmpty ? ":" : "") + (prefix ? "*" : "") + weight
            }.joined(separator: " <-> ")
        }
    }

    /// The number of texts and their mean length in tokens, read at most once a minute.
    func libraryShape(in session: PostgresSession) throws -> (texts: Double, meanLength: Double) {
        let now = ContinuousClock.now
        if let cached = shape.withLock({ $0 }), now - cached.at < .seconds(60) { return (cached.texts, cached.meanLength) }
        guard let row = try session.rows("SELECT count(*) AS n, coalesce(avg(length), 0)::float8 AS mean FROM screenshot_text").first else { return (0, 0) }
        let value = (Double(try row.get("n", as: Int64.self)), try row.get("mean", as: Double.self))
        shape.withLock { $0 = (now, value.0, value.1) }
        return value
    }

    /// The SQL of a candidate's bm25 score, and its binds appended to `sql`; nil when no term can be weighed.
    func bm25(_ query: SearchQuery, exactPrefixes: Bool, into sql: inout SQLBuilder, in session: PostgresSession) throws -> String? {
        let terms = Self.terms(of: query, exactPrefixes: exactPrefixes).filter { !$0.isExcluded }.flatMap(\.terms)
        guard !terms.isEmpty else { return nil }
        let (texts, meanLength) = try libraryShape(in: session)
        guard texts > 0 else { return nil }
        // Every term's document frequency in one statement, so the search's statement timeout
        // bounds them together (a query has at most SearchQuery.maximumWords terms).
        var counting = SQLBuilder()
        let counts = terms.map { term in
            "(SELECT count(*) FROM (SELECT 1 FROM screenshot_text WHERE document @@ \(counting.bind(term.tsquery()))::tsquery "
                + "LIMIT \(Self.documentFrequencyCap)) AS matches)"
        }
        let countText = "SELECT ARRAY[" + counts.joined(separator: ", ") + "] AS counts"
        let frequencies = try session.rows(counting.query(countText)).first?.get("counts", as: [Int64].self) ?? []
        var parts: [String] = []
        for (term, count) in zip(terms, frequencies) {
            let frequency = Double(count)
            // FTS5's idf, with its floor.
            let idf = max(1e-6, log((texts - frequency + 0.5) / (frequency + 0.5)))
            let q = sql.bind(term.tsquery())
            let inTags = sql.bind(term.tsquery(weight: "A"))
            let inNote = sql.bind(term.tsquery(weight: "B"))
            // A phrase's or a prefix's occurrences: ts_rank_cd counts one cover each, text only.
            let inText = term.isLexeme ? "lens_tf(ts_rank('{1,0,0,0}', document, \(q)::tsquery, 0))"
                : "ts_rank_cd('{1,0,0,0}', document, \(q)::tsquery, 0)"
            let tf = "(\(inText) + 3 * (document @@ \(inTags)::tsquery)::int + 2 * (document @@ \(inNote)::tsquery)::int)"
            parts.append("\(idf) * \(tf) * 2.2 / (\(tf) + 1.2 * (0.25 + 0.75 * length / \(max(1, meanLength))))")
        }
        return parts.joined(separator: " + ")
    }

    // MARK: Search

    func search(_ request: SearchRequest) throws -> [SearchHit] {
        let milliseconds = Int(request.timeLimit.components.seconds * 1000
                               + request.timeLimit.components.attoseconds / 1_000_000_000_000_000)
        do {
            return try transaction { session in
                // Every search is bounded: the server stops a statement past the time limit.
                try session.execute(PostgresQuery(unsafeSQL: "SET LOCAL statement_timeout = \(max(1, milliseconds))"))
                return try search(request, in: session)
            }
        } catch PostgresStoreError.statementFailed(_, let code) where code == "57014" {
            throw SearchError.tooCostly(milliseconds: milliseconds)
        }
    }

    private func search(_ request: SearchRequest, in session: PostgresSession) throws -> [SearchHit] {
        // PostgreSQL's text holds no NUL, so a filter value with one matches nothing stored.
        let values = [request.folder].compactMap { $0 } + request.entityTypes + request.tags
            + request.entities.flatMap { [$0.type, $0.normalized] }
        if values.contains(where: { $0.utf8.contains(0) }) { return [] }
        var sql = SQLBuilder()
        let conditions = filterConditions(request, into: &sql)
        let limit = Int64(max(0, request.limit)), offset = Int64(max(0, request.offset))
        var matches: [(id: Int64, score: Double, snippet: String)] = []
        var isApproximate = false
        if let query = request.query {
            // A word typed in part is looked for whole first, then as a prefix (as the SQLite
            // store does with its completions): whole-word hits come first.
            let wanted = limit + offset
            var seen = Set<Int64>()
            var found: [(id: Int64, score: Double)] = []
            for exactPrefixes in query.hasExpandablePrefix ? [true, false] : [false] where found.count < wanted {
                guard let tsquery = Self.tsquery(query, exactPrefixes: exactPrefixes) else { continue }
                var pass = sql
                let (rows, cut) = try ranked(query, tsquery: tsquery, exactPrefixes: exactPrefixes, conditions: conditions,
                                             wanted: wanted, sql: &pass, in: session)
                isApproximate = isApproximate || cut
                for row in rows where seen.insert(row.id).inserted { found.append(row) }
            }
            let page = Array(found.dropFirst(Int(offset)).prefix(Int(limit)))
            let snippets = try self.snippets(ids: page.map(\.id), query: query, in: session)
            matches = page.map { ($0.id, $0.score, snippets[$0.id] ?? "") }
        } else {
            let text = """
                SELECT s.id, substr(t.body, 1, 160) AS snippet
                FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                WHERE s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY s.captured_at DESC, s.id DESC LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
                """
            let rows = try session.rows(sql.query(text))
            matches = try rows.map { (try $0.get("id"), 0, try $0.get("snippet")) }
        }
        return try hits(matches, isApproximate: isApproximate, in: session)
    }

    /// The best `wanted` matches of `tsquery` by bm25 among the newest candidates, and whether
    /// there were more candidates than were ranked.
    private func ranked(_ query: SearchQuery, tsquery: String, exactPrefixes: Bool, conditions: [String], wanted: Int64,
                        sql: inout SQLBuilder, in session: PostgresSession) throws -> ([(id: Int64, score: Double)], Bool) {
        let q = sql.bind(tsquery)
        let window = sql.bind(Int64(LensDatabase.candidateWindow + 1))
        let score = try bm25(query, exactPrefixes: exactPrefixes, into: &sql, in: session)
            ?? "ts_rank_cd(\(Self.rankWeights), document, \(q)::tsquery, 1)"
        let text = """
            WITH candidates AS (
                SELECT t.id, t.document, t.length FROM screenshot_text t JOIN screenshot s ON s.id = t.id
                WHERE t.document @@ \(q)::tsquery AND s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY t.id DESC LIMIT \(window))
            SELECT id, (\(score))::float4 AS score, count(*) OVER () AS total
            FROM candidates ORDER BY score DESC, id DESC LIMIT \(sql.bind(wanted))
            """
        let rows = try session.rows(sql.query(text))
        let cut = try rows.first.map { try $0.get("total", as: Int64.self) > LensDatabase.candidateWindow } ?? false
        return (try rows.map { (try $0.get("id", as: Int64.self), Double(try $0.get("score", as: Float.self))) }, cut)
    }

    /// The snippets of `ids`: sixteen words around the densest matches, matches marked as the
    /// SQLite store marks them (``SearchHit/matchStart``, ``SearchHit/matchEnd``). Made here, with
    /// LensCore's tokenizer and matching, rather than by ts_headline, whose parser splits text
    /// otherwise (`555-0132` is `555` and `-0132` to it) and folds no accents.
    private func snippets(ids: [Int64], query: SearchQuery, in session: PostgresSession) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var snippets: [Int64: String] = [:]
        for row in try session.rows("SELECT id, body, codes FROM screenshot_text WHERE id = ANY(\(ids))") {
            let text = Self.indexedText(try row.get("body", as: String.self), codes: try row.optional("codes", as: String.self))
            snippets[try row.get("id")] = Self.snippet(of: text, query: query)
        }
        return snippets
    }

    static func snippet(of text: String, query: SearchQuery, words: Int = 16) -> String {
        let scalars = Array(text.unicodeScalars)
        let highlights = query.highlighter()
        var tokens: [(start: Int, end: Int, matched: Bool)] = []
        var index = 0
        while index < scalars.count {
            guard SearchQuery.isTokenScalar(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count, SearchQuery.isTokenScalar(scalars[index]) { index += 1 }
            var token = String.UnicodeScalarView()
            token.append(contentsOf: scalars[start..<index])
            tokens.append((start, index, highlights(String(token))))
        }
        guard !tokens.isEmpty else { return "" }
        // The window of `words` tokens holding the most matches (the first such).
        let width = min(words, tokens.count)
        var count = tokens[0..<width].filter(\.matched).count, best = (count, 0)
        if width < tokens.count {
            for first in 1...(tokens.count - width) {
                count += (tokens[first + width - 1].matched ? 1 : 0) - (tokens[first - 1].matched ? 1 : 0)
                if count > best.0 { best = (count, first) }
            }
        }
        let window = tokens[best.1..<(best.1 + width)]
        var out = String.UnicodeScalarView()
        if best.1 > 0 { out.append(contentsOf: "…".unicodeScalars) }
        var position = window.first!.start
        for token in window {
            out.append(contentsOf: scalars[position..<token.start])
            if token.matched { out.append(contentsOf: String(SearchHit.matchStart).unicodeScalars) }
            out.append(contentsOf: scalars[token.start..<token.end])
            if token.matched { out.append(contentsOf: String(SearchHit.matchEnd).unicodeScalars) }
            position = token.end
        }
        if best.1 + width < tokens.count { out.append(contentsOf: "…".unicodeScalars) }
        return String(out)
    }

    private func filterConditions(_ request: SearchRequest, into sql: inout SQLBuilder) -> [String] {
        var conditions: [String] = []
        if let since = request.since { conditions.append("s.captured_at >= \(sql.bind(since.timeIntervalSince1970))") }
        if let until = request.until { conditions.append("s.captured_at < \(sql.bind(until.timeIntervalSince1970))") }
        if let minimum = request.minimumConfidence { conditions.append("s.confidence >= \(sql.bind(minimum))") }
        for entity in request.entities {
            conditions.append("EXISTS (SELECT 1 FROM entity e WHERE e.screenshot_id = s.id AND e.type = \(sql.bind(entity.type)) AND e.normalized = \(sql.bind(entity.normalized)))")
        }
        for type in request.entityTypes {
            conditions.append("EXISTS (SELECT 1 FROM entity e WHERE e.screenshot_id = s.id AND e.type = \(sql.bind(type)))")
        }
        for tag in request.tags {
            conditions.append("EXISTS (SELECT 1 FROM screenshot_text t2 WHERE t2.id = s.id AND \(sql.bind(tag)) = ANY(t2.tags))")
        }
        if let folder = request.folder {
            let range = LensDatabase.pathRange(inside: folder)
            conditions.append("""
                EXISTS (SELECT 1 FROM path p WHERE p.screenshot_id = s.id AND p.gone_at IS NULL
                        AND p.path > \(sql.bind(range.lower)) COLLATE "C" AND p.path < \(sql.bind(range.upper)) COLLATE "C")
                """)
        }
        return conditions
    }

    private func hits(_ rows: [(id: Int64, score: Double, snippet: String)], isApproximate: Bool,
                      in session: PostgresSession) throws -> [SearchHit] {
        guard !rows.isEmpty else { return [] }
        let ids = rows.map(\.id)
        var dates: [Int64: (Double, Double)] = [:]
        for row in try session.rows("SELECT id, captured_at, imported_at FROM screenshot WHERE id = ANY(\(ids))") {
            dates[try row.get("id")] = (try row.get("captured_at"), try row.get("imported_at"))
        }
        var paths: [Int64: [String]] = [:], gone: [Int64: String] = [:]
        for row in try session.rows("""
            SELECT screenshot_id, path, gone_at FROM path WHERE screenshot_id = ANY(\(ids))
            ORDER BY first_seen_at, path COLLATE "C"
            """) {
            let id = try row.get("screenshot_id", as: Int64.self), path = try row.get("path", as: String.self)
            if try row.optional("gone_at", as: Double.self) == nil { paths[id, default: []].append(path) } else { gone[id] = path }
        }
        return rows.map { row in
            let (captured, imported) = dates[row.id] ?? (0, 0)
            return SearchHit(id: row.id, paths: paths[row.id] ?? [], score: row.score, snippet: row.snippet,
                             capturedAt: Date(timeIntervalSince1970: captured), importedAt: Date(timeIntervalSince1970: imported),
                             isApproximate: isApproximate, lastGonePath: paths[row.id] == nil ? gone[row.id] : nil)
        }
    }
}

/// SQL assembled with numbered parameters (`$1`, `$2`, …), for statements whose shape depends on
/// the request. User values only ever enter as parameters.
struct SQLBuilder {
    private(set) var binds = PostgresBindings()

    mutating func bind(_ value: some PostgresDynamicTypeEncodable) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    func query(_ sql: String) -> PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }
}
