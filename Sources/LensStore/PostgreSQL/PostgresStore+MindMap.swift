import Foundation
import LensCore
import PostgresNIO

/// The mind map in a shared library (migration p8): the same tables as the SQLite store's, kept
/// by workers on many hosts. Each worker finds a new screenshot's connections in an in-memory
/// entity index, as on SQLite; to see what other workers connected, connecting happens under one
/// advisory lock and is logged (`mind_map_log`), and a worker replays the log before it connects.
extension PostgresStore {
    /// The advisory lock connecting and rebuilding take: (namespace, 1).
    static let mindMapLockKey: Int64 = 0x4C45_4E53_0003
    /// How many logged connections are kept; an index further behind loads everything again.
    static let mindMapLogLength: Int64 = 100_000

    /// Runs `body` holding the mind map's lock, on a connection of its own (the server lets go of
    /// it if this process dies). `body`'s statements run on other connections and commit on their
    /// own; the lock is released after them.
    func holdingMindMapLock<T>(_ body: () throws -> T) throws -> T {
        try withSession { session in
            try session.execute("SELECT pg_advisory_lock(\(Self.mindMapLockKey))")
            defer { _ = try? session.execute("SELECT pg_advisory_unlock(\(Self.mindMapLockKey))") }
            return try body()
        }
    }

    /// The screenshots connected since `mark`, in order, and the new mark; nil when the log no
    /// longer reaches back to `mark`. Without a mark: none, and the log's end.
    func connectedSince(_ mark: Int64?) throws -> (ids: [Int64], mark: Int64)? {
        try withSession { session in
            guard let mark else { return ([], try session.value("SELECT coalesce(max(seq), 0) FROM mind_map_log", as: Int64.self) ?? 0) }
            let cut = try session.value("SELECT seq FROM mind_map_log_cut", as: Int64.self) ?? 0
            guard mark >= cut else { return nil }
            var ids: [Int64] = [], last = mark
            for row in try session.rows("SELECT seq, screenshot_id FROM mind_map_log WHERE seq > \(mark) ORDER BY seq") {
                ids.append(try row.get("screenshot_id"))
                last = try row.get("seq")
            }
            return (ids, last)
        }
    }

    /// Logs that `id` was connected; cuts the log once every 1,000.
    func recordConnected(_ id: Int64) throws {
        try transaction { session in
            let number = try session.value("INSERT INTO mind_map_log (screenshot_id) VALUES (\(id)) RETURNING seq", as: Int64.self) ?? 0
            if number % 1000 == 0 {
                let through = number - Self.mindMapLogLength
                if try session.execute("DELETE FROM mind_map_log WHERE seq <= \(through)") > 0 {
                    try session.execute("UPDATE mind_map_log_cut SET seq = greatest(seq, \(through))")
                }
            }
        }
    }

    /// Makes every worker load its entity index again before it next connects (entities were
    /// re-extracted, or the map rebuilt): a marker in the log becomes the cut.
    func forgetConnectionIndexes() throws {
        try withSession { session in
            try session.execute("""
                WITH marker AS (INSERT INTO mind_map_log (screenshot_id) VALUES (0) RETURNING seq)
                UPDATE mind_map_log_cut SET seq = (SELECT seq FROM marker)
                """)
        }
    }

    func linkableEntities(types: [String], among ids: [Int64]?) throws -> [(id: Int64, entities: [(type: String, normalized: String)])] {
        try withSession { session in
            var byID: [(id: Int64, entities: [(type: String, normalized: String)])] = []
            for row in try session.rows("""
                SELECT e.screenshot_id AS id, e.type, e.normalized FROM entity e
                JOIN screenshot s ON s.id = e.screenshot_id AND s.state = 'done'
                WHERE e.type = ANY(\(types)) AND (\(ids == nil) OR e.screenshot_id = ANY(\(ids ?? []))) ORDER BY e.screenshot_id, e.id
                """) {
                let id = try row.get("id", as: Int64.self)
                if byID.last?.id != id { byID.append((id, [])) }
                byID[byID.count - 1].entities.append((try row.get("type"), try row.get("normalized")))
            }
            return byID
        }
    }

    /// One statement for all of them (connecting runs under the mind map's lock), only between
    /// screenshots that still exist (another host may have deleted one).
    func saveConnections(_ edges: [StoredEdge]) throws {
        var byPair: [String: StoredEdge] = [:]
        for edge in edges { byPair["\(edge.a)-\(edge.b)"] = edge } // a statement may not upsert one row twice
        try transaction { session in try Self.insertConnections(Array(byPair.values), upserting: true, in: session) }
    }

    func replaceAllConnections(_ edges: [StoredEdge]) throws {
        try transaction { session in
            try session.execute("DELETE FROM connection")
            try Self.insertConnections(edges, upserting: false, in: session)
        }
    }

    /// Edges in chunks of arrays, one statement a chunk. A resemblance not measured travels as -1
    /// (an array of Swift optionals has no NULL here) and is stored as NULL.
    static func insertConnections(_ edges: [StoredEdge], upserting: Bool, in session: PostgresSession) throws {
        for start in stride(from: 0, to: edges.count, by: 5_000) {
            let chunk = edges[start..<min(edges.count, start + 5_000)]
            try session.execute(PostgresQuery(unsafeSQL: """
                INSERT INTO connection (a, b, score, via, resemblance)
                SELECT e.a, e.b, e.score, e.via, nullif(e.resemblance, -1)
                FROM unnest($1::bigint[], $2::bigint[], $3::float8[], $4::text[], $5::float8[]) AS e(a, b, score, via, resemblance)
                WHERE EXISTS (SELECT 1 FROM screenshot WHERE id = e.a) AND EXISTS (SELECT 1 FROM screenshot WHERE id = e.b)
                \(upserting ? "ON CONFLICT (a, b) DO UPDATE SET score = excluded.score, via = excluded.via, resemblance = excluded.resemblance" : "")
                """, binds: {
                    var binds = PostgresBindings()
                    binds.append(chunk.map(\.a))
                    binds.append(chunk.map(\.b))
                    binds.append(chunk.map(\.score))
                    binds.append(chunk.map(\.via))
                    binds.append(chunk.map { $0.resemblance ?? -1 })
                    return binds
                }()))
        }
    }

    func edges(minimumScore: Double, touching id: Int64?) throws -> [StoredEdge] {
        try withSession { session in
            var edges: [String: StoredEdge] = [:]
            let rows = try id.map { id in
                try session.rows("""
                    SELECT a, b, score, via, resemblance FROM connection WHERE score >= \(minimumScore) AND a = \(id)
                    UNION ALL SELECT a, b, score, via, resemblance FROM connection WHERE score >= \(minimumScore) AND b = \(id)
                    """)
            } ?? session.rows("SELECT a, b, score, via, resemblance FROM connection WHERE score >= \(minimumScore)")
            for row in rows {
                let edge = StoredEdge(a: try row.get("a"), b: try row.get("b"), score: try row.get("score"), via: try row.get("via"),
                                      resemblance: try row.optional("resemblance"))
                edges["\(edge.a)-\(edge.b)"] = edge
            }
            let links = try (id.map { id in try session.rows("SELECT a, b, note FROM manual_link WHERE a = \(id) OR b = \(id)") }
                ?? session.rows("SELECT a, b, note FROM manual_link"))
                .map { (a: try $0.get("a", as: Int64.self), b: try $0.get("b", as: Int64.self), note: try $0.optional("note", as: String.self)) }
            return LensDatabase.merging(links, into: edges)
        }
    }

    /// The recognized text with its code payloads, as the SQLite store's `screenshot_content` gives it.
    static let contentSQL = "t.body || coalesce(E'\\n\\n' || t.codes, '')"

    func texts(ids: [Int64]) throws -> [Int64: String] {
        try withSession { session in
            var texts: [Int64: String] = [:]
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[start..<min(ids.count, start + 500)])
                for row in try session.rows(PostgresQuery(unsafeSQL: "SELECT t.id, \(Self.contentSQL) AS text FROM screenshot_text t WHERE t.id = ANY($1)",
                                                          binds: { var b = PostgresBindings(); b.append(chunk); return b }())) {
                    texts[try row.get("id")] = try row.get("text", as: String.self)
                }
            }
            return texts
        }
    }

    /// As on SQLite, in three statements rather than three a key: connecting runs under the
    /// mind map's lock, so every round trip here is one all workers wait for.
    func replaceTextBands(of id: Int64, with bands: [(band: Int64, rank: Int64)], neighbours: Int) throws -> [Int64] {
        let keys = bands.map { Int32(truncatingIfNeeded: $0.band) }, ranks = bands.map { Int32(truncatingIfNeeded: $0.rank) }
        return try transaction { session in
            try session.execute("DELETE FROM text_band WHERE screenshot_id = \(id)")
            guard !bands.isEmpty else { return [] }
            // Per key, the nearest `neighbours` by rank on each side: two bounded index reads a key.
            var others = Set<Int64>()
            for row in try session.rows("""
                SELECT near.screenshot_id FROM unnest(\(keys)::integer[], \(ranks)::integer[]) AS k(band, rank),
                LATERAL ((SELECT screenshot_id FROM text_band WHERE band = k.band AND rank >= k.rank ORDER BY rank LIMIT \(Int64(neighbours)))
                         UNION ALL
                         (SELECT screenshot_id FROM text_band WHERE band = k.band AND rank < k.rank ORDER BY rank DESC LIMIT \(Int64(neighbours)))) AS near
                """) {
                others.insert(try row.get("screenshot_id"))
            }
            try session.execute("""
                INSERT INTO text_band (band, rank, screenshot_id) SELECT band, rank, \(id) FROM unnest(\(keys)::integer[], \(ranks)::integer[]) AS k(band, rank)
                ON CONFLICT DO NOTHING
                """)
            others.remove(id)
            return others.sorted()
        }
    }

    func replaceAllTextBands(_ rows: [(band: Int64, rank: Int64, id: Int64)]) throws {
        try transaction { session in
            try session.execute("DELETE FROM text_band")
            for start in stride(from: 0, to: rows.count, by: 20_000) {
                let chunk = rows[start..<min(rows.count, start + 20_000)]
                try session.execute("""
                    INSERT INTO text_band (band, rank, screenshot_id)
                    SELECT * FROM unnest(\(chunk.map { Int32(truncatingIfNeeded: $0.band) })::integer[],
                                         \(chunk.map { Int32(truncatingIfNeeded: $0.rank) })::integer[], \(chunk.map(\.id))::bigint[])
                    ON CONFLICT DO NOTHING
                    """)
            }
        }
    }

    func forEachText(batchSize: Int, _ body: (Int64, String) throws -> Void) throws {
        var last: Int64 = 0
        while true {
            let rows = try withSession { session in
                try session.rows(PostgresQuery(unsafeSQL: """
                    SELECT t.id, \(Self.contentSQL) AS text FROM screenshot_text t JOIN screenshot s ON s.id = t.id AND s.state = 'done'
                    WHERE t.id > $1 ORDER BY t.id LIMIT $2
                    """, binds: { var b = PostgresBindings(); b.append(last); b.append(Int64(batchSize)); return b }()))
                    .map { (try $0.get("id", as: Int64.self), try $0.get("text", as: String.self)) }
            }
            guard let final = rows.last else { return }
            for (id, text) in rows { try body(id, text) }
            last = final.0
        }
    }

    func recognizedIDs() throws -> [Int64] {
        try withSession { session in
            try session.rows("SELECT id FROM screenshot WHERE state = 'done' ORDER BY id").map { try $0.get("id", as: Int64.self) }
        }
    }

    func graphNodes(ids: [Int64], entities perNode: Int) throws -> [GraphNode] {
        try withSession { session in
            try ids.map { id in
                let path = try session.value("""
                    SELECT path FROM path WHERE screenshot_id = \(id) ORDER BY gone_at IS NOT NULL, first_seen_at LIMIT 1
                    """, as: String.self)
                let entities = try session.rows("""
                    SELECT type, value FROM (
                        SELECT type, min(value COLLATE "C") AS value, count(*) AS n FROM entity
                        WHERE screenshot_id = \(id) AND type IN ('person', 'email', 'phone', 'url') GROUP BY type, normalized
                    ) g ORDER BY n DESC, type COLLATE "C", value COLLATE "C" LIMIT \(Int64(perNode))
                    """).map { (type: try $0.get("type", as: String.self), value: try $0.get("value", as: String.self)) }
                return GraphNode(id: id, path: path, entities: entities)
            }
        }
    }

    func batchLogVersion() throws -> [Int64] {
        try withSession { session in
            guard let row = try session.rows("SELECT coalesce(max(id), 0) AS a, count(finished_at) AS b, count(undone_at) AS c FROM batch").first else {
                return [0, 0, 0]
            }
            return [try row.get("a"), try row.get("b"), try row.get("c")]
        }
    }
}
