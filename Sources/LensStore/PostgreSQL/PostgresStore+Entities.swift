import Foundation
import LensCore
import PostgresNIO

/// Entities read again from stored texts (`lens reindex --entities`, national phone numbers
/// revisited when a later screenshot gives their country) and the page's facets, on PostgreSQL
/// as on SQLite (see LensDatabase+Reading.swift and Statistics.swift).
extension PostgresStore {
    func entities(ofScreenshot id: Int64) throws -> [StoredEntity] {
        try withSession { session in try entities(ofScreenshot: id, in: session) }
    }

    /// Stored texts with their capture times: `condition` chooses the rows (on `t`, the text row).
    private func texts(where condition: PostgresQuery, in session: PostgresSession) throws -> [(id: Int64, text: String, seen: Date)] {
        var query = PostgresQuery(unsafeSQL: "SELECT t.id, t.body, s.captured_at FROM screenshot_text t JOIN screenshot s ON s.id = t.id WHERE ")
        query.sql += condition.sql
        query.binds = condition.binds
        return try session.rows(query).map {
            (try $0.get("id"), try $0.optional("body", as: String.self) ?? "",
             Date(timeIntervalSince1970: try $0.optional("captured_at", as: Double.self) ?? 0))
        }
    }

    /// Replaces the entities found in a screenshot's text (masked secrets stay), in one statement
    /// each way so the count triggers see whole sets.
    private func replaceTextEntities(of id: Int64, with entities: [Entity], in session: PostgresSession) throws {
        try session.execute("DELETE FROM entity WHERE screenshot_id = \(id) AND source = 'text' AND type <> 'secret'")
        try insertEntities(entities.filter { $0.type != .secret }.map {
            EntityRow(type: $0.type.rawValue, value: $0.value, normalized: $0.normalized,
                      start: Int32(clamping: $0.start), end: Int32(clamping: $0.end), source: "text")
        }, of: id, in: session)
    }

    func reextractEntities(batchSize: Int, _ extract: (String, Date) -> [Entity]) throws -> (screenshots: Int, entities: Int) {
        var last: Int64 = 0, screenshots = 0, entities = 0
        while true {
            let rows = try withSession { session in
                try texts(where: "t.id > \(last) ORDER BY t.id LIMIT \(Int64(batchSize))", in: session)
            }
            guard let tail = rows.last else { return (screenshots, entities) }
            last = tail.id
            let found = rows.map { ($0.id, extract($0.text, $0.seen)) }
            try transaction { session in
                for (id, list) in found { try replaceTextEntities(of: id, with: list, in: session) }
            }
            screenshots += found.count
            entities += found.reduce(0) { $0 + $1.1.count }
        }
    }

    func reextractEntities(ids: [Int64], _ extract: (String, Date, [StoredEntity]) -> [Entity]?) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let rows = try withSession { session in
            try texts(where: "t.id = ANY(\(ids)) ORDER BY t.id", in: session).map { row in
                (row, try entities(ofScreenshot: row.id, in: session).filter { $0.source == "text" && $0.type != "secret" })
            }
        }
        let changed = rows.compactMap { row, stored in extract(row.text, row.seen, stored).map { (row.id, $0) } }
        guard !changed.isEmpty else { return [] }
        try transaction { session in
            for (id, found) in changed { try replaceTextEntities(of: id, with: found, in: session) }
        }
        return changed.map(\.0)
    }

    /// Screenshots whose text holds the digit groups in a row: a phrase of digit lexemes, which
    /// the search documents hold as Lens's tokenizer cut them. Only digits reach the query.
    func screenshots(showingDigitGroups groups: [String], excluding id: Int64, limit: Int) throws -> [Int64] {
        let phrase = groups.map { "'\($0)'" }.joined(separator: " <-> ")
        return try withSession { session in
            try session.rows("""
                SELECT id FROM screenshot_text WHERE document @@ \(phrase)::tsquery AND id <> \(id) ORDER BY id LIMIT \(Int64(limit))
                """).map { try $0.get("id", as: Int64.self) }
        }
    }

    func facets() throws -> Facets {
        try withSession { session in
            func pairs(_ query: PostgresQuery) throws -> [CollectionStatistics.Count] {
                try session.rows(query).map { .init(key: try $0.get("k"), count: Int(try $0.get("n", as: Int64.self))) }
            }
            return Facets(
                // By the folder of each screenshot's first present path, as on SQLite.
                folders: try pairs("""
                    SELECT k, count(*) AS n FROM screenshot s
                    JOIN LATERAL (SELECT regexp_replace(path, '[^/]*$', '') AS k FROM path
                                  WHERE screenshot_id = s.id AND gone_at IS NULL ORDER BY first_seen_at LIMIT 1) p ON true
                    GROUP BY k ORDER BY n DESC, k COLLATE "C"
                    """).map(LensDatabase.trimmingSlash),
                types: try pairs("""
                    SELECT type AS k, count(DISTINCT screenshot_id) AS n FROM entity GROUP BY type ORDER BY n DESC, type COLLATE "C"
                    """),
                tags: try pairs("""
                    SELECT tag AS k, count(*) AS n FROM screenshot_text, unnest(tags) AS tag
                    WHERE cardinality(tags) > 0 GROUP BY tag ORDER BY n DESC, tag COLLATE "C"
                    """),
                screenshots: Int(try session.value("SELECT count(*) FROM screenshot", as: Int64.self) ?? 0))
        }
    }
}
