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

/// How often one entity (by normalized value) occurs in the library.
public struct EntityCount: Sendable, Equatable {
    public var type: String
    public var normalized: String
    /// One way it was written.
    public var example: String
    /// Screenshots that show it.
    public var screenshots: Int
    /// Times it was found, counting repeats within a screenshot.
    public var occurrences: Int
}

extension LensDatabase {
    /// The most frequent entities, by the number of screenshots that show them.
    public func topEntities(type: String? = nil, limit: Int = 20) throws -> [EntityCount] {
        var arguments: StatementArguments = []
        if let type { arguments += [type] }
        arguments += [max(0, limit)]
        return try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT type, normalized, min(value) AS example, count(DISTINCT screenshot_id) AS screenshots,
                       count(*) AS occurrences
                FROM entity \(type == nil ? "" : "WHERE type = ?")
                GROUP BY type, normalized
                ORDER BY screenshots DESC, occurrences DESC, type, normalized LIMIT ?
                """, arguments: arguments).map {
                EntityCount(type: $0["type"], normalized: $0["normalized"], example: $0["example"],
                            screenshots: $0["screenshots"], occurrences: $0["occurrences"])
            }
        }
    }

    /// Finds screenshots by their text, best matches first.
    ///
    /// Ranking uses FTS5's own `ORDER BY rank` (bm25): FTS5 sorts the matches internally and hands
    /// them over in order, so with `LIMIT` SQLite builds snippets for the returned rows only. (A
    /// snippet re-reads and re-tokenizes the text; sorting with SQLite's own sorter computed one for
    /// every match, and looking rows up again by rowid re-ran the whole query for each of them.)
    /// Filters are a `rowid IN (…)` constraint, which leaves that ordering to FTS5.
    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        try writer.read { db in
            let (conditions, filterArguments) = Self.filterConditions(request)
            let start = String(SearchHit.matchStart), end = String(SearchHit.matchEnd)
            let rows: [Row]
            if let query = request.query {
                let filter = conditions.isEmpty ? "" : """
                    AND rowid IN (SELECT s.id FROM screenshot s WHERE \(conditions.joined(separator: " AND ")))
                    """
                rows = try Row.fetchAll(db, sql: """
                    SELECT rowid AS id, -rank AS score,
                           snippet(screenshot_fts, 0, '\(start)', '\(end)', '…', 16) AS snippet
                    FROM screenshot_fts WHERE screenshot_fts MATCH ? \(filter)
                    ORDER BY rank LIMIT ? OFFSET ?
                    """, arguments: [query.fts5Expression] + filterArguments + [max(0, request.limit), max(0, request.offset)])
            } else {
                rows = try Row.fetchAll(db, sql: """
                    SELECT s.id AS id, 0.0 AS score, substr(lens_inflate(t.body), 1, 160) AS snippet
                    FROM screenshot s JOIN screenshot_text t ON t.id = s.id
                    WHERE s.state = 'done' \(conditions.map { "AND " + $0 }.joined(separator: " "))
                    ORDER BY s.captured_at DESC, s.id DESC LIMIT ? OFFSET ?
                    """, arguments: filterArguments + [max(0, request.limit), max(0, request.offset)])
            }
            guard !rows.isEmpty else { return [] }
            let ids: [Int64] = rows.map { $0["id"] }
            var dates: [Int64: (Double, Double)] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT id, captured_at, imported_at FROM screenshot WHERE id IN (\(Self.placeholders(ids.count)))
                """, arguments: StatementArguments(ids)) {
                dates[row["id"]] = (row["captured_at"], row["imported_at"])
            }
            var paths: [Int64: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT screenshot_id, path FROM path
                WHERE screenshot_id IN (\(Self.placeholders(ids.count))) AND gone_at IS NULL
                ORDER BY first_seen_at, path
                """, arguments: StatementArguments(ids)) {
                paths[row["screenshot_id"], default: []].append(row["path"])
            }
            return rows.map { row in
                let id: Int64 = row["id"]
                let (captured, imported) = dates[id] ?? (0, 0)
                return SearchHit(id: id, paths: paths[id] ?? [], score: row["score"], snippet: row["snippet"] ?? "",
                                 capturedAt: Date(timeIntervalSince1970: captured),
                                 importedAt: Date(timeIntervalSince1970: imported))
            }
        }
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
        for type in request.entityTypes {
            conditions.append("EXISTS (SELECT 1 FROM entity e WHERE e.screenshot_id = s.id AND e.type = ?)")
            arguments += [type]
        }
        for entity in request.entities {
            conditions.append("EXISTS (SELECT 1 FROM entity e WHERE e.screenshot_id = s.id AND e.type = ? AND e.normalized = ?)")
            arguments += [entity.type, entity.normalized]
        }
        for tag in request.tags {
            conditions.append("EXISTS (SELECT 1 FROM screenshot_text t2, json_each(t2.tags) j WHERE t2.id = s.id AND j.value = ?)")
            arguments += [tag]
        }
        if let minimum = request.minimumConfidence {
            conditions.append("s.confidence >= ?")
            arguments += [minimum]
        }
        if let folder = request.folder {
            let range = LensDatabase.pathRange(inside: folder)
            conditions.append("""
                EXISTS (SELECT 1 FROM path p WHERE p.screenshot_id = s.id AND p.gone_at IS NULL
                        AND p.path > ? AND p.path < ?)
                """)
            arguments += [range.lower, range.upper]
        }
        return (conditions, arguments)
    }

    /// A value that changes whenever a screenshot is recognized, removed or annotated, by this
    /// process or another: the web page's live updates poll it (cheap: two aggregates and the batch log).
    public func changeMark() throws -> String {
        try writer.read { db in
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
        try writer.read { db in
            guard let sha256 = try String.fetchOne(db, sql: "SELECT sha256 FROM screenshot WHERE id = ?", arguments: [id]) else { return nil }
            let paths = try String.fetchAll(db, sql: """
                SELECT path FROM path WHERE screenshot_id = ? AND gone_at IS NULL ORDER BY last_seen_at DESC, path
                """, arguments: [id])
            return (sha256, paths)
        }
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
