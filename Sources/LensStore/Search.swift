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
    public var limit: Int

    public init(query: SearchQuery?, folder: String? = nil, since: Date? = nil, until: Date? = nil, limit: Int = 20) {
        self.query = query
        self.folder = folder
        self.since = since
        self.until = until
        self.limit = limit
    }

    var hasFilters: Bool { folder != nil || since != nil || until != nil }
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
}

extension LensDatabase {
    /// Finds screenshots by their text, best matches first.
    ///
    /// Three steps in one read transaction: rank and take the top `limit` ids; build snippets for
    /// those only (a snippet re-reads and re-tokenizes the text, so computing it for every match
    /// before the sort cost 4x on a word found in 1,500 of 100,000 screenshots); load their details.
    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        try writer.read { db in
            let ranked: [(id: Int64, score: Double)]
            var snippets: [Int64: String] = [:]
            if let query = request.query {
                ranked = try Self.rankedIDs(db, query: query, request: request)
                guard !ranked.isEmpty else { return [] }
                let start = String(SearchHit.matchStart), end = String(SearchHit.matchEnd)
                for row in try Row.fetchAll(db, sql: """
                    SELECT rowid, snippet(screenshot_fts, 0, '\(start)', '\(end)', '…', 16) AS snippet
                    FROM screenshot_fts WHERE screenshot_fts MATCH ? AND rowid IN (\(Self.placeholders(ranked.count)))
                    """, arguments: StatementArguments([query.fts5Expression] + ranked.map(\.id))) {
                    snippets[row["rowid"]] = row["snippet"]
                }
            } else {
                let (conditions, arguments) = Self.filterConditions(request)
                ranked = try Row.fetchAll(db, sql: """
                    SELECT s.id FROM screenshot s WHERE s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                    ORDER BY s.captured_at DESC LIMIT ?
                    """, arguments: arguments + [max(0, request.limit)]).map { ($0["id"], 0.0) }
                guard !ranked.isEmpty else { return [] }
                for row in try Row.fetchAll(db, sql: """
                    SELECT id, substr(lens_inflate(body), 1, 160) AS snippet FROM screenshot_text
                    WHERE id IN (\(Self.placeholders(ranked.count)))
                    """, arguments: StatementArguments(ranked.map(\.id))) {
                    snippets[row["id"]] = row["snippet"]
                }
            }
            var dates: [Int64: (Double, Double)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT id, captured_at, imported_at FROM screenshot WHERE id IN (\(Self.placeholders(ranked.count)))
                """, arguments: StatementArguments(ranked.map(\.id))) {
                dates[row["id"]] = (row["captured_at"], row["imported_at"])
            }
            var paths: [Int64: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT screenshot_id, path FROM path
                WHERE screenshot_id IN (\(Self.placeholders(ranked.count))) AND gone_at IS NULL
                ORDER BY first_seen_at, path
                """, arguments: StatementArguments(ranked.map(\.id))) {
                paths[row["screenshot_id"], default: []].append(row["path"])
            }
            return ranked.map { id, score in
                let (captured, imported) = dates[id] ?? (0, 0)
                return SearchHit(id: id, paths: paths[id] ?? [], score: score, snippet: snippets[id] ?? "",
                                 capturedAt: Date(timeIntervalSince1970: captured),
                                 importedAt: Date(timeIntervalSince1970: imported))
            }
        }
    }

    /// The best `limit` matches by bm25. Without filters FTS5 ranks alone (no join per match).
    private static func rankedIDs(_ db: Database, query: SearchQuery, request: SearchRequest) throws -> [(id: Int64, score: Double)] {
        let limit = max(0, request.limit)
        let rows: [Row]
        if request.hasFilters {
            let (conditions, arguments) = filterConditions(request)
            rows = try Row.fetchAll(db, sql: """
                SELECT f.rowid AS id, -f.rank AS score FROM screenshot_fts f JOIN screenshot s ON s.id = f.rowid
                WHERE screenshot_fts MATCH ? \(conditions.map { "AND " + $0 }.joined(separator: " "))
                ORDER BY f.rank LIMIT ?
                """, arguments: [query.fts5Expression] + arguments + [limit])
        } else {
            rows = try Row.fetchAll(db, sql: """
                SELECT rowid AS id, -rank AS score FROM screenshot_fts WHERE screenshot_fts MATCH ? ORDER BY rank LIMIT ?
                """, arguments: [query.fts5Expression, limit])
        }
        return rows.map { ($0["id"], $0["score"]) }
    }

    /// SQL conditions on `screenshot s` for the request's filters.
    private static func filterConditions(_ request: SearchRequest) -> ([String], StatementArguments) {
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
        if let folder = request.folder {
            // A range over the unique index on path: everything strictly inside `folder/`.
            let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            conditions.append("""
                EXISTS (SELECT 1 FROM path p WHERE p.screenshot_id = s.id AND p.gone_at IS NULL
                        AND p.path > ? AND p.path < ?)
                """)
            arguments += [base + "/", base + "0"] // '0' is the character after '/'
        }
        return (conditions, arguments)
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ",")
    }

    /// Checks at startup that this SQLite has a working FTS5 with the tokenizer Lens needs
    /// (GRDB's Linux support is community-maintained; a build without FTS5 must fail loudly).
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
