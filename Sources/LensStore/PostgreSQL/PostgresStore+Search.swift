import Foundation
import LensCore
import PostgresNIO

/// Full-text search in PostgreSQL with the SQLite store's contract: the same words match (Lens
/// tokenizes and folds both the documents and the queries, so the server's locale and parser
/// play no part), ranked by `ts_rank_cd` among the newest ``LensDatabase/candidateWindow``
/// matches, with highlighted snippets, filters, prefixes, phrases and exclusions, under a
/// statement timeout.
extension PostgresStore {
    // MARK: Documents and queries

    /// A `tsvector` literal of `text`'s tokens as Lens's index sees them (``SearchQuery/searchTokens(in:)``,
    /// folded), with their positions, so phrases match words in order.
    static func vector(of text: String) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        for (index, token) in SearchQuery.searchTokens(in: text).enumerated() {
            let folded = SearchQuery.folded(token)
            // PostgreSQL refuses lexemes of 2 KB or more; such a run of letters is no word anyway.
            guard !folded.isEmpty, folded.utf8.count < 2_000 else { continue }
            if positions[folded] == nil { order.append(folded) }
            // Positions stop at 16,383 (PostgreSQL's limit): words past it still match, phrases there are approximate.
            positions[folded, default: []].append(min(index + 1, 16_383))
        }
        return order.map { lexeme in
            // At most 256 positions a lexeme are kept (PostgreSQL's limit).
            quoted(lexeme) + ":" + Set(positions[lexeme]!).sorted().prefix(256).map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }

    static func quoted(_ lexeme: String) -> String {
        "'" + lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A `tsquery` literal for `query`: groups joined by `&`, a group's alternatives by `|`, a
    /// term of several words as a phrase (`<->`), a prefix as `:*`, an excluded group under `!`.
    static func tsquery(_ query: SearchQuery) -> String? {
        var groups: [String] = []
        for group in query.groups {
            let terms = group.compactMap { term -> String? in
                // A token of marks alone folds to nothing: no lexeme matches it.
                let tokens = SearchQuery.searchTokens(in: term.text).map(SearchQuery.folded).filter { !$0.isEmpty && $0.utf8.count < 2_000 }
                guard !tokens.isEmpty else { return nil }
                return tokens.enumerated().map { index, token in
                    quoted(token) + (term.isPrefix && index == tokens.count - 1 ? ":*" : "")
                }.joined(separator: " <-> ")
            }
            guard !terms.isEmpty else { continue }
            groups.append((group[0].isExcluded ? "!" : "") + "(" + terms.joined(separator: " | ") + ")")
        }
        return groups.isEmpty ? nil : groups.joined(separator: " & ")
    }

    /// ts_rank_cd's weights, in the order D, C, B, A: text 1, note 2, tags 3 (as bm25's column
    /// weights in the SQLite store).
    static let rankWeights = "'{0.1, 0.1, 0.2, 0.3}'::float4[]"

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
            guard let tsquery = Self.tsquery(query) else { return [] }
            let q = sql.bind(tsquery)
            let window = sql.bind(Int64(LensDatabase.candidateWindow + 1))
            let text = """
                WITH candidates AS (
                    SELECT t.id, t.document FROM screenshot_text t JOIN screenshot s ON s.id = t.id
                    WHERE t.document @@ \(q)::tsquery AND s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                    ORDER BY t.id DESC LIMIT \(window))
                SELECT id, ts_rank_cd(\(Self.rankWeights), document, \(q)::tsquery, 1) AS score,
                       count(*) OVER () AS total
                FROM candidates ORDER BY score DESC, id DESC LIMIT \(sql.bind(limit)) OFFSET \(sql.bind(offset))
                """
            let rows = try session.rows(sql.query(text))
            if let total = try rows.first?.get("total", as: Int64.self), total > LensDatabase.candidateWindow { isApproximate = true }
            let ids = try rows.map { try $0.get("id", as: Int64.self) }
            let scores = try rows.map { Double(try $0.get("score", as: Float.self)) }
            let snippets = try self.snippets(ids: ids, query: tsquery, in: session)
            matches = zip(ids, scores).map { ($0, $1, snippets[$0] ?? "") }
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

    /// The snippets of `ids`: some sixteen words around the best match, matches marked as the
    /// SQLite store marks them (``SearchHit/matchStart``, ``SearchHit/matchEnd``).
    private func snippets(ids: [Int64], query: String, in session: PostgresSession) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var snippets: [Int64: String] = [:]
        let options = "StartSel=\(SearchHit.matchStart), StopSel=\(SearchHit.matchEnd), MaxWords=16, MinWords=8, "
            + "MaxFragments=1, FragmentDelimiter=…, HighlightAll=false"
        for row in try session.rows("""
            SELECT id, ts_headline('simple', body, \(query)::tsquery, \(options)) AS snippet
            FROM screenshot_text WHERE id = ANY(\(ids))
            """) {
            snippets[try row.get("id")] = try row.get("snippet", as: String.self)
        }
        return snippets
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
