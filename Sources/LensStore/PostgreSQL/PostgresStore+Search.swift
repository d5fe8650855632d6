import Foundation
import LensCore
import PostgresNIO

/// Full-text search in PostgreSQL with the SQLite store's contract: the same words match (Lens
/// tokenizes and folds both the documents and the queries, so the server's locale and parser
/// play no part), ranked by bm25 as FTS5 computes it (k1 1.2, b 0.75; tags count 3 and the note
/// 2 against the text's 1) among the newest ``LensDatabase/candidateWindow`` matches, with
/// highlighted snippets, filters, prefixes, phrases and exclusions, under a statement timeout.
///
/// bm25 needs each term's document frequency: a word's from the vocabulary (`lens_vocabulary`,
/// kept by a trigger as the SQLite store's `term` table is), a phrase's or an unexpanded prefix's
/// counted in the GIN index at query time, up to ``documentFrequencyCap`` (a bounded walk: one in
/// more documents than that is weighed as if in that many); and the library's size and mean
/// length, kept for a minute. A word typed in part is looked for whole first, then as its most
/// frequent completions in the vocabulary, as the SQLite store does.
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

    /// How a word typed in part that the vocabulary can expand (``SearchQuery/expandablePrefixes``)
    /// is looked for in a pass: as the whole word, or as its completions (none known: as a prefix).
    enum PrefixPass {
        case wholeWord
        case completions([String: [String]])
    }

    /// A `tsquery` literal for `query`: groups joined by `&`, a group's alternatives by `|`, a
    /// term of several words as a phrase (`<->`), a prefix as `:*`, an excluded group under `!`.
    static func tsquery(_ query: SearchQuery, prefixes: PrefixPass = .completions([:]), alternatives: [String: [String]] = [:]) -> String? {
        let groups = terms(of: query, prefixes: prefixes, alternatives: alternatives).compactMap { group, isExcluded -> String? in
            guard !group.isEmpty else { return nil }
            return (isExcluded ? "!" : "") + "(" + group.map { $0.tsquery() }.joined(separator: " | ") + ")"
        }
        return groups.isEmpty ? nil : groups.joined(separator: " & ")
    }

    /// The query's groups of terms, folded as the documents are, a word typed in part that the
    /// vocabulary expands taken as `prefixes` says (its completions become alternatives of its
    /// group), and a whole word with `alternatives` (the spellings OCR made of it that the
    /// vocabulary holds) joined by them.
    static func terms(of query: SearchQuery, prefixes: PrefixPass,
                      alternatives: [String: [String]] = [:]) -> [(terms: [Term], isExcluded: Bool)] {
        let expandable = Set(query.expandablePrefixes)
        return query.groups.map { group in
            let terms = group.flatMap { term -> [Term] in
                // A token of marks alone folds to nothing: no lexeme matches it.
                let tokens = SearchQuery.searchTokens(in: term.text).map(SearchQuery.folded).filter { !$0.isEmpty && $0.utf8.count < 2_000 }
                guard !tokens.isEmpty else { return [] }
                if !term.isPrefix, !term.isExcluded, tokens.count == 1, let others = alternatives[tokens[0]], !others.isEmpty {
                    return [Term(tokens: tokens, isPrefix: false)] + others.map { Term(tokens: [$0], isPrefix: false) }
                }
                guard term.isPrefix, tokens.count == 1, expandable.contains(tokens[0]) else { return [Term(tokens: tokens, isPrefix: term.isPrefix)] }
                switch prefixes {
                case .wholeWord: return [Term(tokens: tokens, isPrefix: false)]
                case .completions(let completions):
                    guard let words = completions[tokens[0]], !words.isEmpty else { return [Term(tokens: tokens, isPrefix: true)] }
                    return words.map { Term(tokens: [$0], isPrefix: false) }
                }
            }
            return (terms, group[0].isExcluded)
        }
    }

    /// The most frequent words of the vocabulary starting with each of `prefixes` (folded), as
    /// many as the SQLite store takes (``LensDatabase/completionLimit(forPrefix:)``), most frequent
    /// first; and whether any prefix had more.
    func completions(of prefixes: [String], in session: PostgresSession) throws -> (words: [String: [String]], truncated: Bool) {
        var words: [String: [String]] = [:]
        var truncated = false
        for prefix in Set(prefixes) where !prefix.isEmpty {
            let limit = LensDatabase.completionLimit(forPrefix: prefix)
            var sql = SQLBuilder()
            let text = """
                SELECT term FROM lens_vocabulary WHERE term >= \(sql.bind(prefix)) AND term < \(sql.bind(prefix + "\u{10FFFF}"))
                AND documents > 0 ORDER BY documents DESC, term LIMIT \(sql.bind(Int64(limit + 1)))
                """
            let found = try session.rows(sql.query(text)).map { try $0.get("term", as: String.self) }
            truncated = truncated || found.count > limit
            words[prefix] = Array(found.prefix(limit))
        }
        return (words, truncated)
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

    /// A candidate's bm25 score as SQL: `frequencies`, each term's frequency in a candidate of
    /// `candidates` (columns `tf0`, `tf1`…), and `score`, which combines those columns with the
    /// length (binds appended to `sql`); nil when no term can be weighed. Each frequency is
    /// computed once a candidate (bm25 uses it twice, and PostgreSQL would evaluate it twice), and
    /// the tags and note are looked at only for a screenshot that has some.
    func bm25(_ query: SearchQuery, prefixes: PrefixPass, alternatives: [String: [String]] = [:], into sql: inout SQLBuilder,
              in session: PostgresSession) throws -> (frequencies: [String], score: String)? {
        let terms = Self.terms(of: query, prefixes: prefixes, alternatives: alternatives).filter { !$0.isExcluded }.flatMap(\.terms)
        guard !terms.isEmpty else { return nil }
        let (texts, meanLength) = try libraryShape(in: session)
        guard texts > 0 else { return nil }
        let counts = try documentFrequencies(of: terms, in: session)
        var frequencies: [String] = [], parts: [String] = []
        for (index, (term, count)) in zip(terms, counts).enumerated() {
            let frequency = Double(count)
            // FTS5's idf, with its floor.
            let idf = max(1e-6, log((texts - frequency + 0.5) / (frequency + 0.5)))
            let q = sql.bind(term.tsquery())
            let inTags = sql.bind(term.tsquery(weight: "A"))
            let inNote = sql.bind(term.tsquery(weight: "B"))
            // A phrase's or a prefix's occurrences: ts_rank_cd counts one cover each, text only.
            let inText = term.isLexeme ? "lens_tf(ts_rank('{1,0,0,0}', document, \(q)::tsquery, 0))"
                : "ts_rank_cd('{1,0,0,0}', document, \(q)::tsquery, 0)"
            frequencies.append("\(inText) + CASE WHEN annotated THEN 3 * (document @@ \(inTags)::tsquery)::int "
                               + "+ 2 * (document @@ \(inNote)::tsquery)::int ELSE 0 END AS tf\(index)")
            parts.append("\(idf) * tf\(index) * 2.2 / (tf\(index) + 1.2 * (0.25 + 0.75 * length / \(max(1, meanLength))))")
        }
        return (frequencies, parts.joined(separator: " + "))
    }

    /// Each term's document frequency: a word's from the vocabulary; a phrase's or a prefix's
    /// counted, all in one statement so that the search's statement timeout bounds them together
    /// (a query has at most SearchQuery.maximumWords terms, and a prefix 16 completions).
    func documentFrequencies(of terms: [Term], in session: PostgresSession) throws -> [Int64] {
        var sql = SQLBuilder()
        let counts = terms.map { term in
            term.isLexeme
                ? "coalesce((SELECT documents FROM lens_vocabulary WHERE term = \(sql.bind(term.tokens[0]))), 0)::int8"
                : "(SELECT count(*) FROM (SELECT 1 FROM screenshot_text WHERE document @@ \(sql.bind(term.tsquery()))::tsquery "
                    + "LIMIT \(Self.documentFrequencyCap)) AS matches)"
        }
        return try session.rows(sql.query("SELECT ARRAY[" + counts.joined(separator: ", ") + "] AS counts")).first?
            .get("counts", as: [Int64].self) ?? []
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
        if Self.filtersHoldNUL(request) { return [] }
        var sql = SQLBuilder()
        let conditions = filterConditions(request, into: &sql)
        let limit = Int64(max(0, request.limit)), offset = Int64(max(0, request.offset))
        var matches: [Shown] = []
        var isApproximate = false
        if let query = request.query {
            // A word typed in part is looked for whole first, then as its completions (as the
            // SQLite store does): whole-word hits come first.
            let wanted = limit + offset
            var seen = Set<Int64>()
            var found: [(id: Int64, score: Double)] = []
            var passes: [PrefixPass] = [.completions([:])]
            var completions: [String: [String]] = [:]
            if query.hasExpandablePrefix {
                let truncated: Bool
                (completions, truncated) = try self.completions(of: query.expandablePrefixes, in: session)
                isApproximate = truncated
                passes = [.wholeWord, .completions(completions)]
            }
            for (number, prefixes) in passes.enumerated() where found.count < wanted {
                guard let tsquery = Self.tsquery(query, prefixes: prefixes) else { continue }
                var pass = sql
                // Completions are ranked among fewer candidates: they come after exact hits anyway.
                let window = number == 0 ? LensDatabase.candidateWindow : LensDatabase.candidateWindow / 2
                let (rows, cut) = try ranked(query, tsquery: tsquery, prefixes: prefixes, window: window, conditions: conditions,
                                             wanted: wanted, sql: &pass, in: session)
                isApproximate = isApproximate || cut
                for row in rows where seen.insert(row.id).inserted { found.append(row) }
            }
            // Few hits: the words may have been misread where they appear. Try the spellings OCR
            // makes of them that the vocabulary holds, after every exact hit (as on SQLite).
            var misread = Set<Int64>()
            var alternatives: [String: [String]] = [:]
            if request.allowsFuzzy, found.count < min(wanted, Int64(LensDatabase.fewHits)) {
                let candidates = Set(query.fuzzyCandidatesAsTyped)
                let lookups = LensDatabase.misreadingLookups / max(1, candidates.count)
                for typed in candidates {
                    let word = SearchQuery.folded(typed)
                    let known = try knownSpellings(OCRConfusions.variants(of: word, typed: typed, limit: lookups), in: session)
                    if !known.isEmpty { alternatives[word] = known }
                }
                if !alternatives.isEmpty, let tsquery = Self.tsquery(query, prefixes: .completions(completions), alternatives: alternatives) {
                    var pass = sql
                    let (rows, cut) = try ranked(query, tsquery: tsquery, prefixes: .completions(completions), alternatives: alternatives,
                                                 window: LensDatabase.candidateWindow, conditions: conditions, wanted: wanted, sql: &pass, in: session)
                    isApproximate = isApproximate || cut
                    for row in rows where seen.insert(row.id).inserted {
                        found.append(row)
                        misread.insert(row.id)
                    }
                }
            }
            let page = Array(found.dropFirst(Int(offset)).prefix(Int(limit)))
            // Exact hits show their exact matches; those of the misreadings' pass show the misreadings too.
            let snippets = try self.snippets(ids: page.map(\.id).filter { !misread.contains($0) }, query: query, in: session)
                .merging(try self.snippets(ids: page.map(\.id).filter(misread.contains), query: query, alternatives: alternatives, in: session)) { a, _ in a }
            let used = alternatives.values.flatMap { $0 }
            matches = page.map { hit in
                let snippet = snippets[hit.id]?.snippet ?? ""
                // Which spellings matched, as the SQLite store tells them: those its snippet shows.
                let fuzzy = misread.contains(hit.id) ? used.filter { LensDatabase.folded(snippet).contains($0) } : []
                return Shown(id: hit.id, score: hit.score, snippet: snippet, field: snippets[hit.id]?.field ?? .text, fuzzyWords: fuzzy)
            }
        } else {
            let text = """
                SELECT s.id, substr(t.body, 1, 160) AS snippet
                FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                WHERE s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY s.captured_at DESC, s.id DESC LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
                """
            let rows = try session.rows(sql.query(text))
            matches = try showingFilters(of: request, in: rows.map { Shown(id: try $0.get("id"), score: 0, snippet: try $0.get("snippet")) },
                                         session: session)
        }
        return try hits(matches, isApproximate: isApproximate, in: session)
    }

    /// The best `wanted` matches of `tsquery` by bm25 among the newest candidates, and whether
    /// there were more candidates than were ranked.
    private func ranked(_ query: SearchQuery, tsquery: String, prefixes: PrefixPass, alternatives: [String: [String]] = [:],
                        window candidates: Int, conditions: [String],
                        wanted: Int64, sql: inout SQLBuilder, in session: PostgresSession) throws -> ([(id: Int64, score: Double)], Bool) {
        let q = sql.bind(tsquery)
        let window = sql.bind(Int64(candidates + 1))
        let bm25 = try self.bm25(query, prefixes: prefixes, alternatives: alternatives, into: &sql, in: session)
        // Without a term bm25 can weigh (exclusions only): ts_rank_cd over the whole query.
        let frequencies = bm25?.frequencies ?? ["ts_rank_cd(\(Self.rankWeights), document, \(q)::tsquery, 1) AS rank"]
        let score = bm25?.score ?? "rank"
        let text = """
            WITH candidates AS (
                SELECT t.id, t.document, t.length, (t.tags <> '{}' OR coalesce(t.note, '') <> '') AS annotated
                FROM screenshot_text t JOIN screenshot s ON s.id = t.id
                WHERE t.document @@ \(q)::tsquery AND s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY t.id DESC LIMIT \(window)),
            frequencies AS MATERIALIZED (SELECT id, length, \(frequencies.joined(separator: ", ")) FROM candidates)
            SELECT id, (\(score))::float8 AS score, count(*) OVER () AS total
            FROM frequencies ORDER BY score DESC, id DESC LIMIT \(sql.bind(wanted))
            """
        let rows = try session.rows(sql.query(text))
        let cut = try rows.first.map { try $0.get("total", as: Int64.self) > candidates } ?? false
        return (try rows.map { (try $0.get("id", as: Int64.self), try $0.get("score", as: Double.self)) }, cut)
    }

    /// The snippets of `ids`: sixteen words around the densest matches, matches marked as the
    /// SQLite store marks them (``SearchHit/matchStart``, ``SearchHit/matchEnd``). Made here, with
    /// LensCore's tokenizer and matching, rather than by ts_headline, whose parser splits text
    /// otherwise (`555-0132` is `555` and `-0132` to it) and folds no accents. When the text holds
    /// no match (the query matched the tags or note only), what matched is shown, as on SQLite:
    /// the note's words around the match, or the tags (matches marked) before the text's words.
    private func snippets(ids: [Int64], query: SearchQuery, alternatives: [String: [String]] = [:],
                          in session: PostgresSession) throws -> [Int64: (snippet: String, field: SearchHit.Field)] {
        guard !ids.isEmpty else { return [:] }
        var snippets: [Int64: (snippet: String, field: SearchHit.Field)] = [:]
        for row in try session.rows("SELECT id, body, codes, tags, note FROM screenshot_text WHERE id = ANY(\(ids))") {
            let text = Self.indexedText(try row.get("body", as: String.self), codes: try row.optional("codes", as: String.self))
            let shown = Self.snippet(of: text, query: query, alternatives: alternatives)
            var found = (snippet: shown, field: SearchHit.Field.text)
            if !shown.contains(SearchHit.matchStart) {
                let note = try row.optional("note", as: String.self).map { Self.snippet(of: $0, query: query) } ?? ""
                let tags = try row.get("tags", as: [String].self).map { Self.snippet(of: $0, query: query, words: 64) }
                if note.contains(SearchHit.matchStart) {
                    found = (note, .note)
                } else if tags.contains(where: { $0.contains(SearchHit.matchStart) }) {
                    found = (tags.joined(separator: ", ") + " · " + shown, .tags)
                }
            }
            snippets[try row.get("id")] = found
        }
        return snippets
    }

    /// A listing by filters alone shows why each screenshot is in it, as on SQLite: an entity
    /// filter's value where the text has it (the first entity of a filtered type), marked; else a
    /// tag filter's tags, marked, before the text's first words.
    private func showingFilters(of request: SearchRequest, in matches: [Shown], session: PostgresSession) throws -> [Shown] {
        guard !matches.isEmpty, !request.entities.isEmpty || !request.entityTypes.isEmpty || !request.tags.isEmpty else { return matches }
        let ids = matches.map(\.id)
        if !request.entities.isEmpty || !request.entityTypes.isEmpty {
            var sql = SQLBuilder()
            let wanted = request.entities.map { "(type = \(sql.bind($0.type)) AND normalized = \(sql.bind($0.normalized)))" }
                + request.entityTypes.map { "type = \(sql.bind($0))" }
            let text = """
                SELECT DISTINCT ON (e.screenshot_id) e.screenshot_id, e.value, t.body FROM entity e JOIN screenshot_text t ON t.id = e.screenshot_id
                WHERE e.screenshot_id = ANY(\(sql.bind(ids))) AND (\(wanted.joined(separator: " OR "))) AND e.source = 'text'
                ORDER BY e.screenshot_id, e.start
                """
            var found: [Int64: (value: String, text: String)] = [:]
            for row in try session.rows(sql.query(text)) {
                found[try row.get("screenshot_id")] = (try row.get("value"), try row.get("body"))
            }
            return matches.map { match in
                guard let (value, text) = found[match.id], text.range(of: value) != nil else { return match }
                var match = match
                match.snippet = LensDatabase.snippet(of: text, around: value, orElse: value)
                return match
            }
        }
        var tagLists: [Int64: [String]] = [:]
        for row in try session.rows("SELECT id, tags FROM screenshot_text WHERE id = ANY(\(ids))") {
            tagLists[try row.get("id")] = try row.get("tags", as: [String].self)
        }
        return matches.map { match in
            guard let tags = tagLists[match.id], !tags.isEmpty else { return match }
            var match = match
            match.snippet = LensDatabase.snippet(showing: tags, marking: request.tags, before: match.snippet)
            match.field = .tags
            return match
        }
    }

    static func snippet(of text: String, query: SearchQuery, alternatives: [String: [String]] = [:], words: Int = 16) -> String {
        let scalars = Array(text.unicodeScalars)
        // Words are marked where they stand alone in the query; a phrase's words only where the
        // phrase occurs (below), as FTS5 marks phrase instances.
        let highlights = query.highlighter(phraseWords: false)
        // A misspelling found in the fuzzy pass is marked too.
        let misspellings = Set(alternatives.values.flatMap { $0 })
        func marks(_ token: String) -> Bool {
            highlights(token) || (!misspellings.isEmpty && misspellings.contains(SearchQuery.folded(token)))
        }
        var tokens: [(start: Int, end: Int, matched: Bool)] = [], folded: [String] = []
        var index = 0
        while index < scalars.count {
            guard SearchQuery.isTokenScalar(scalars[index]) else { index += 1; continue }
            let start = index
            while index < scalars.count, SearchQuery.isTokenScalar(scalars[index]) { index += 1 }
            var token = String.UnicodeScalarView()
            token.append(contentsOf: scalars[start..<index])
            tokens.append((start, index, marks(String(token))))
            folded.append(SearchQuery.folded(String(token)))
        }
        guard !tokens.isEmpty else { return "" }
        // A phrase's occurrence is one mark from its first word to its last, as FTS5 marks a
        // phrase instance (`[555-0132]`, not `[555]-[0132]`).
        let phrases = query.groups.flatMap { $0 }.filter { !$0.isExcluded }
            .map { SearchQuery.searchTokens(in: $0.text).map(SearchQuery.folded) }.filter { $0.count > 1 }
        var joined = [Bool](repeating: false, count: tokens.count) // token i's mark runs on into token i + 1
        for phrase in phrases where phrase.count <= tokens.count {
            for first in 0...(tokens.count - phrase.count) where folded[first] == phrase[0] && Array(folded[first..<(first + phrase.count)]) == phrase {
                for i in first..<(first + phrase.count - 1) { joined[i] = true }
                for i in first..<(first + phrase.count) { tokens[i].matched = true }
            }
        }
        let start = snippetStart(tokens: tokens.map(\.matched), folded: folded, joined: joined, phrases: phrases, width: words,
                                 sentenceStarts: sentenceStarts(scalars, tokens.map { ($0.start, $0.end) }))
        let width = min(words, tokens.count)
        // (A window from a sentence's start may reach past the last word: it shows fewer, as FTS5's.)
        let window = tokens[start..<min(tokens.count, start + width)]
        var out = String.UnicodeScalarView()
        if start > 0 { out.append(contentsOf: "…".unicodeScalars) }
        // From the text's start when the window starts at its first word (`$ gcloud …` keeps its `$`), as FTS5's.
        var position = start == 0 ? 0 : window.first!.start
        for (i, token) in zip(window.indices, window) {
            out.append(contentsOf: scalars[position..<token.start])
            let continues = i > window.startIndex && joined[i - 1]
            if token.matched && !continues { out.append(contentsOf: String(SearchHit.matchStart).unicodeScalars) }
            out.append(contentsOf: scalars[token.start..<token.end])
            if token.matched && !(joined[i] && i + 1 < window.endIndex) { out.append(contentsOf: String(SearchHit.matchEnd).unicodeScalars) }
            position = token.end
        }
        // As FTS5's snippet(): a window that reaches the last word takes the rest of the text
        // (`password: [password]` keeps its `]`); else an ellipsis.
        if start + width < tokens.count { out.append(contentsOf: "…".unicodeScalars) } else { out.append(contentsOf: scalars[position...]) }
        return String(out)
    }

    /// The first token of the snippet's window, chosen as FTS5's snippet() chooses it (so both
    /// stores show the same words): each match's window scores 1,000 a query term it holds and 1
    /// a repeat, and is moved to centre its matches; a window starting at a sentence instead
    /// (after `.` or `:` and a space) scores 100 more, 120 at the text's start; the first best wins.
    static func snippetStart(tokens matched: [Bool], folded: [String], joined: [Bool], phrases: [[String]], width: Int,
                             sentenceStarts: [Int]) -> Int {
        let count = matched.count
        // The matches: a phrase's occurrence is one (its words run on into each other), a word another.
        var instances: [(term: String, start: Int, size: Int)] = []
        var index = 0
        while index < count {
            guard matched[index] else { index += 1; continue }
            var end = index
            while end < count - 1, joined[end] { end += 1 }
            let words = Array(folded[index...end])
            instances.append((end > index && phrases.contains(words) ? words.joined(separator: " ") : folded[index], index, end - index + 1))
            index = end + 1
        }
        // Instances are in text order: a window's are found by binary search, at most `width` of
        // them, so a long text with many matches costs matches × width, not matches².
        func score(from first: Int) -> (score: Int, centred: Int) {
            var low = 0, high = instances.count
            while low < high {
                let middle = (low + high) / 2
                if instances[middle].start < first { low = middle + 1 } else { high = middle }
            }
            var seen = Set<String>(), score = 0, firstMatch = -1, lastEnd = 0
            for instance in instances[low...].prefix(while: { $0.start < first + width }) {
                score += seen.insert(instance.term).inserted ? 1000 : 1
                if firstMatch < 0 { firstMatch = instance.start }
                lastEnd = instance.start + instance.size
            }
            var centred = firstMatch - (width - (lastEnd - firstMatch)) / 2
            if centred + width > count { centred = count - width }
            return (score, max(0, centred))
        }
        var best = (score: 0, start: 0)
        var j = 0 // the last sentence start at or before the instance (instances come in order)
        for instance in instances {
            let (points, centred) = score(from: instance.start)
            if points > best.score { best = (points, centred) }
            guard !sentenceStarts.isEmpty, count > width else { continue }
            while j < sentenceStarts.count - 1, sentenceStarts[j + 1] <= instance.start { j += 1 }
            if sentenceStarts[j] < instance.start {
                let points = score(from: sentenceStarts[j]).score + (sentenceStarts[j] == 0 ? 120 : 100)
                if points > best.score { best = (points, sentenceStarts[j]) }
            }
        }
        return best.start
    }

    /// The tokens that start a sentence as FTS5's snippet() finds them: the first, and one whose
    /// preceding spaces follow a `.` or `:`.
    static func sentenceStarts(_ scalars: [Unicode.Scalar], _ tokens: [(start: Int, end: Int)]) -> [Int] {
        var starts: [Int] = []
        for (position, token) in tokens.enumerated() {
            guard position > 0 else { starts.append(0); continue }
            var i = token.start - 1
            while i >= 0, [" ", "\t", "\n", "\r"].contains(scalars[i]) { i -= 1 }
            if i != token.start - 1, i >= 0, scalars[i] == "." || scalars[i] == ":" { starts.append(position) }
        }
        return starts
    }

    /// PostgreSQL's text holds no NUL, so a filter value with one matches nothing stored (and
    /// could not be bound).
    static func filtersHoldNUL(_ request: SearchRequest) -> Bool {
        ([request.folder].compactMap { $0 } + request.entityTypes + request.tags + request.entities.flatMap { [$0.type, $0.normalized] })
            .contains { $0.utf8.contains(0) }
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

    /// A screenshot found, with what to show of it and where the query matched it.
    struct Shown {
        var id: Int64
        var score: Double
        var snippet: String
        var field: SearchHit.Field = .text
        var fuzzyWords: [String] = []
    }

    /// Which of `candidates` (spellings, most likely first) the vocabulary holds, at most 8, in order.
    func knownSpellings(_ candidates: [String], in session: PostgresSession) throws -> [String] {
        guard !candidates.isEmpty else { return [] }
        return try session.rows("""
            SELECT c.term FROM unnest(\(candidates)::text[]) WITH ORDINALITY AS c(term, position)
            WHERE EXISTS (SELECT 1 FROM lens_vocabulary v WHERE v.term = c.term AND v.documents > 0)
            ORDER BY c.position LIMIT 8
            """).map { try $0.get("term", as: String.self) }
    }

    /// The screenshots `ids` (found by meaning) that pass `request`'s filters, in the order given,
    /// each with its `similarity` and the start of its text as the snippet (as on SQLite).
    func hits(for ids: [(id: Int64, similarity: Float)], filteredBy request: SearchRequest) throws -> [SearchHit] {
        if Self.filtersHoldNUL(request) { return [] }
        return try withSession { session in
            var sql = SQLBuilder()
            var conditions = filterConditions(request, into: &sql)
            // `-word`: a screenshot holding an excluded word is not offered by meaning either.
            if let excluded = request.query?.exclusions, let tsquery = Self.tsquery(excluded) {
                conditions.append("NOT t.document @@ \(sql.bind(tsquery))::tsquery")
            }
            let text = """
                SELECT s.id, substr(t.body, 1, 160) AS snippet FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                WHERE s.id = ANY(\(sql.bind(ids.map(\.id)))) AND s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                """
            var found: [Int64: String] = [:]
            for row in try session.rows(sql.query(text)) { found[try row.get("id")] = try row.get("snippet", as: String.self) }
            let shown = ids.compactMap { item in found[item.id].map { Shown(id: item.id, score: 0, snippet: $0) } }
            let similarities = Dictionary(ids.map { ($0.id, $0.similarity) }, uniquingKeysWith: { a, _ in a })
            return try hits(shown, isApproximate: false, in: session).map { hit in
                var hit = hit
                hit.similarity = similarities[hit.id]
                return hit
            }
        }
    }

    private func hits(_ rows: [Shown], isApproximate: Bool,
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
                             isApproximate: isApproximate, fuzzyWords: row.fuzzyWords, lastGonePath: paths[row.id] == nil ? gone[row.id] : nil,
                             matchedIn: row.field)
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

extension PostgresStore {
    /// How many screenshots hold `term` (folded), by the vocabulary.
    func documentCount(of term: String) throws -> Int {
        try withSession { session in
            Int(try session.value("SELECT documents FROM lens_vocabulary WHERE term = \(term)", as: Int32.self) ?? 0)
        }
    }
}
