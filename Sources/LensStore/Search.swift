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
    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let query = request.query {
            conditions.append("screenshot_fts MATCH ?")
            arguments += [query.fts5Expression]
        } else {
            conditions.append("s.state = 'done'")
        }
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
        let start = String(SearchHit.matchStart), end = String(SearchHit.matchEnd)
        let sql: String
        if request.query != nil {
            sql = """
                SELECT s.id, -bm25(screenshot_fts) AS score,
                       snippet(screenshot_fts, 0, '\(start)', '\(end)', '…', 16) AS snippet,
                       s.captured_at, s.imported_at
                FROM screenshot_fts JOIN screenshot s ON s.id = screenshot_fts.rowid
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY bm25(screenshot_fts) LIMIT ?
                """
        } else {
            sql = """
                SELECT s.id, 0.0 AS score, substr(coalesce(s.text, ''), 1, 160) AS snippet,
                       s.captured_at, s.imported_at
                FROM screenshot s
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY s.captured_at DESC LIMIT ?
                """
        }
        arguments += [max(0, request.limit)]
        return try writer.read { db in
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return try rows.map { row in
                let id: Int64 = row["id"]
                let paths = try String.fetchAll(db, sql: """
                    SELECT path FROM path WHERE screenshot_id = ? AND gone_at IS NULL ORDER BY first_seen_at, path
                    """, arguments: [id])
                return SearchHit(id: id, paths: paths, score: row["score"], snippet: row["snippet"] ?? "",
                                 capturedAt: Date(timeIntervalSince1970: row["captured_at"]),
                                 importedAt: Date(timeIntervalSince1970: row["imported_at"]))
            }
        }
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
