import Foundation
import GRDB
import LensCore

/// An edge as stored: computed (`via` holds the shared entities as JSON) or drawn by hand.
public struct StoredEdge: Sendable, Equatable {
    public var a: Int64, b: Int64
    public var score: Double
    /// JSON array of the shared entities; `[]` for a manual link without computed evidence.
    public var via: String
    public var isManual: Bool
    public var note: String?
    /// How much of the smaller screenshot's text the other holds; near-duplicates are ≥ 0.9.
    public var resemblance: Double?

    public init(a: Int64, b: Int64, score: Double, via: String, isManual: Bool = false, note: String? = nil,
                resemblance: Double? = nil) {
        self.a = a
        self.b = b
        self.score = score
        self.via = via
        self.isManual = isManual
        self.note = note
        self.resemblance = resemblance
    }
}

/// One screenshot of the graph: its file and its most frequent entities, for labels.
public struct GraphNode: Sendable, Equatable {
    public var id: Int64
    public var path: String?
    public var entities: [(type: String, value: String)]

    public static func == (x: GraphNode, y: GraphNode) -> Bool {
        x.id == y.id && x.path == y.path && x.entities.map { "\($0.type)\u{0}\($0.value)" } == y.entities.map { "\($0.type)\u{0}\($0.value)" }
    }
}

extension LensDatabase {
    /// The linkable entities (type, normalized) of every recognized screenshot, by id.
    /// With `ids`, only those screenshots' (one read for a worker catching up on what others connected).
    public func linkableEntities(types: [String], among ids: [Int64]? = nil) throws -> [(id: Int64, entities: [(type: String, normalized: String)])] {
        if let postgres { return try postgres.linkableEntities(types: types, among: ids) }
        return try writer().read { db in
            var byID: [(id: Int64, entities: [(type: String, normalized: String)])] = []
            // Some screenshots' in chunks of 500 ids in order (as `texts(ids:)`), so any number
            // stays within SQLite's bound on parameters and the rows stay ordered by id.
            let sorted = ids.map { Array(Set($0)).sorted() }
            let chunks: [[Int64]?] = sorted.map { ids in stride(from: 0, to: ids.count, by: 500).map { Array(ids[$0..<min(ids.count, $0 + 500)]) } } ?? [nil]
            for chunk in chunks {
                let only = chunk.map { " AND e.screenshot_id IN (\(databaseQuestionMarks(count: $0.count)))" } ?? ""
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT e.screenshot_id AS id, e.type, e.normalized FROM entity e
                    JOIN screenshot s ON s.id = e.screenshot_id AND s.state = 'done'
                    WHERE e.type IN (\(databaseQuestionMarks(count: types.count)))\(only)
                    ORDER BY e.screenshot_id, e.id
                    """, arguments: StatementArguments(types) + StatementArguments(chunk ?? []))
                while let row = try rows.next() {
                    let id: Int64 = row["id"]
                    if byID.last?.id != id { byID.append((id, [])) }
                    byID[byID.count - 1].entities.append((row["type"], row["normalized"]))
                }
            }
            return byID
        }
    }

    /// Adds or replaces computed edges.
    public func saveConnections(_ edges: [StoredEdge]) throws {
        guard !edges.isEmpty else { return }
        if let postgres { return try postgres.saveConnections(edges) }
        try writer().write { db in
            for edge in edges {
                // Only between screenshots that still exist: the daemon's in-memory index may
                // remember one that `lens gc` removed meanwhile.
                try db.execute(sql: """
                    INSERT INTO connection (a, b, score, via, resemblance)
                    SELECT ?, ?, ?, ?, ? WHERE (SELECT count(*) FROM screenshot WHERE id IN (?, ?)) = 2
                    ON CONFLICT(a, b) DO UPDATE SET score = excluded.score, via = excluded.via, resemblance = excluded.resemblance
                    """, arguments: [edge.a, edge.b, edge.score, edge.via, edge.resemblance, edge.a, edge.b])
            }
        }
    }

    /// Replaces every computed edge (manual links stay).
    public func replaceAllConnections(_ edges: [StoredEdge]) throws {
        if let postgres { return try postgres.replaceAllConnections(edges) }
        try writer().write { db in
            try db.execute(sql: "DELETE FROM connection")
            for edge in edges {
                try db.execute(sql: "INSERT INTO connection (a, b, score, via, resemblance) VALUES (?, ?, ?, ?, ?)",
                               arguments: [edge.a, edge.b, edge.score, edge.via, edge.resemblance])
            }
        }
    }

    /// Draws (or re-notes) a manual link; returns false when either screenshot does not exist.
    public func link(_ x: Int64, _ y: Int64, note: String?, now: Double = Date().timeIntervalSince1970) throws -> Bool {
        if let postgres { return try postgres.link(x, y, note: note, now: now) }
        return try writer().write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE id IN (?, ?)", arguments: [x, y]) == 2 else { return false }
            try db.execute(sql: """
                INSERT INTO manual_link (a, b, note, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(a, b) DO UPDATE SET note = excluded.note
                """, arguments: [min(x, y), max(x, y), note, now])
            return true
        }
    }

    /// Removes a manual link; returns whether there was one.
    public func unlink(_ x: Int64, _ y: Int64) throws -> Bool {
        if let postgres { return try postgres.unlink(x, y) }
        return try writer().write { db in
            try db.execute(sql: "DELETE FROM manual_link WHERE a = ? AND b = ?", arguments: [min(x, y), max(x, y)])
            return db.changesCount > 0
        }
    }

    /// Every edge with a score of at least `minimumScore`, computed and manual (manual ones always,
    /// with score 1), merged per pair.
    /// With `touching`, only the edges of that screenshot (through the indexes on `a` and `b`).
    public func edges(minimumScore: Double, touching id: Int64? = nil) throws -> [StoredEdge] {
        if let postgres { return try postgres.edges(minimumScore: minimumScore, touching: id) }
        return try writer().read { db in
            var edges: [String: StoredEdge] = [:]
            let only = id == nil ? "" : " AND (a = ? OR b = ?)"
            let ids: StatementArguments = id.map { [$0, $0] } ?? []
            for row in try Row.fetchAll(db, sql: "SELECT a, b, score, via, resemblance FROM connection WHERE score >= ?" + only,
                                        arguments: [minimumScore] + ids) {
                let edge = StoredEdge(a: row["a"], b: row["b"], score: row["score"], via: row["via"], resemblance: row["resemblance"])
                edges["\(edge.a)-\(edge.b)"] = edge
            }
            let links = try Row.fetchAll(db, sql: "SELECT a, b, note FROM manual_link" + (id == nil ? "" : " WHERE a = ? OR b = ?"),
                                         arguments: ids).map { (a: $0["a"] as Int64, b: $0["b"] as Int64, note: $0["note"] as String?) }
            return Self.merging(links, into: edges)
        }
    }

    /// The computed edges (by `a-b`) with the manual links merged in (score 1, their note), in
    /// pair order: both stores.
    static func merging(_ links: [(a: Int64, b: Int64, note: String?)], into computed: [String: StoredEdge]) -> [StoredEdge] {
        var edges = computed
        for link in links {
            let key = "\(link.a)-\(link.b)"
            var edge = edges[key] ?? StoredEdge(a: link.a, b: link.b, score: 1, via: "[]")
            edge.isManual = true
            edge.score = 1
            edge.note = link.note
            edges[key] = edge
        }
        return edges.values.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// The recognized text (with code payloads) of each of `ids` that has one.
    public func texts(ids: [Int64]) throws -> [Int64: String] {
        if let postgres { return try postgres.texts(ids: ids) }
        return try writer().read { db in
            var texts: [Int64: String] = [:]
            for batch in stride(from: 0, to: ids.count, by: 500) {
                let chunk = Array(ids[batch..<min(ids.count, batch + 500)])
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT id, text FROM screenshot_content WHERE id IN (\(chunk.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments(chunk))
                while let row = try rows.next() { texts[row["id"]] = row["text"] }
            }
            return texts
        }
    }

    /// Stores the band keys of screenshot `id` (replacing its old ones) and returns the other
    /// screenshots to compare it with, in id order: per key, the `neighbours` nearest in rank on
    /// each side (a bounded read whatever the key's size).
    public func replaceTextBands(of id: Int64, with bands: [(band: Int64, rank: Int64)], neighbours: Int) throws -> [Int64] {
        if let postgres { return try postgres.replaceTextBands(of: id, with: bands, neighbours: neighbours) }
        return try writer().write { db in
            try db.execute(sql: "DELETE FROM text_band WHERE screenshot_id = ?", arguments: [id])
            var others = Set<Int64>()
            // Per key, the nearest `neighbours` by rank on each side: two bounded index reads.
            for (band, rank) in bands {
                others.formUnion(try Int64.fetchAll(db, sql: """
                    SELECT screenshot_id FROM text_band WHERE band = ? AND rank >= ? ORDER BY rank LIMIT ?
                    """, arguments: [band, rank, neighbours]))
                others.formUnion(try Int64.fetchAll(db, sql: """
                    SELECT screenshot_id FROM text_band WHERE band = ? AND rank < ? ORDER BY rank DESC LIMIT ?
                    """, arguments: [band, rank, neighbours]))
                try db.execute(sql: "INSERT OR IGNORE INTO text_band (band, screenshot_id, rank) VALUES (?, ?, ?)", arguments: [band, id, rank])
            }
            others.remove(id)
            return others.sorted()
        }
    }

    /// Replaces every screenshot's band keys, and returns the pairs (a < b) to compare: within
    /// each key, every screenshot and its `neighbours` next in rank order (see
    /// `TextResemblance.rankedBands`), so the pairs grow linearly with the library.
    public func replaceAllTextBands(_ bands: [(id: Int64, bands: [(band: Int64, rank: Int64)])], neighbours: Int) throws -> [(a: Int64, b: Int64)] {
        // Rows go in key order (appends to the B-tree, not random inserts), and the pairs come
        // from the same sorted list rather than a self-join.
        var rows: [(band: Int64, rank: Int64, id: Int64)] = []
        for entry in bands {
            var seen = Set<Int64>()
            for (band, rank) in entry.bands where seen.insert(band).inserted { rows.append((band, rank, entry.id)) }
        }
        // The table's key order, which is also the neighbour order the pairs are taken in.
        rows.sort { ($0.band, $0.rank, $0.id) < ($1.band, $1.rank, $1.id) }
        if let postgres {
            try postgres.replaceAllTextBands(rows)
        } else {
            try writer().write { db in
                try db.execute(sql: "DELETE FROM text_band")
                let insert = try db.makeStatement(sql: "INSERT INTO text_band (band, screenshot_id, rank) VALUES (?, ?, ?)")
                for row in rows { try insert.execute(arguments: [row.band, row.id, row.rank]) }
            }
        }
        var pairs = Set<[Int64]>()
        var start = 0
        while start < rows.count {
            var end = start + 1
            while end < rows.count, rows[end].band == rows[start].band { end += 1 }
            for i in start..<end {
                for j in (i + 1)..<min(end, i + 1 + neighbours) {
                    pairs.insert([min(rows[i].id, rows[j].id), max(rows[i].id, rows[j].id)])
                }
            }
            start = end
        }
        return pairs.map { (a: $0[0], b: $0[1]) }.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// Calls `body` with the recognized text of every recognized screenshot, `batchSize` at a time.
    public func forEachText(batchSize: Int = 500, _ body: (Int64, String) throws -> Void) throws {
        if let postgres { return try postgres.forEachText(batchSize: batchSize, body) }
        var last: Int64 = 0
        while true {
            let rows = try writer().read { db in
                try Row.fetchAll(db, sql: """
                    SELECT c.id, c.text FROM screenshot_content c JOIN screenshot s ON s.id = c.id AND s.state = 'done'
                    WHERE c.id > ? ORDER BY c.id LIMIT ?
                    """, arguments: [last, batchSize])
            }
            guard let final = rows.last else { return }
            for row in rows { try body(row["id"], row["text"]) }
            last = final["id"]
        }
    }

    /// Every recognized screenshot, by id.
    public func recognizedIDs() throws -> [Int64] {
        if let postgres { return try postgres.recognizedIDs() }
        return try writer().read { db in try Int64.fetchAll(db, sql: "SELECT id FROM screenshot WHERE state = 'done' ORDER BY id") }
    }

    /// Labels for the given screenshots: first live path and up to `entities` most frequent entities.
    public func graphNodes(ids: [Int64], entities perNode: Int = 3) throws -> [GraphNode] {
        guard !ids.isEmpty else { return [] }
        if let postgres { return try postgres.graphNodes(ids: ids, entities: perNode) }
        return try writer().read { db in
            try ids.map { id in
                let path = try String.fetchOne(db, sql: """
                    SELECT path FROM path WHERE screenshot_id = ? ORDER BY gone_at IS NOT NULL, first_seen_at LIMIT 1
                    """, arguments: [id])
                let entities = try Row.fetchAll(db, sql: """
                    SELECT type, min(value) AS value, count(*) AS n FROM entity
                    WHERE screenshot_id = ? AND type IN ('person', 'email', 'phone', 'url')
                    GROUP BY type, normalized ORDER BY n DESC, type, value LIMIT ?
                    """, arguments: [id, perNode]).map { (type: $0["type"] as String, value: $0["value"] as String) }
                return GraphNode(id: id, path: path, entities: entities)
            }
        }
    }
}

extension LensDatabase {
    /// Runs `body` while no other process connects screenshots into the mind map or rebuilds it:
    /// in a shared library (PostgreSQL), under an advisory lock, so that every worker's index
    /// learns of the others' screenshots (``connected(since:)``) before it connects one. A SQLite
    /// library's keepers see other processes' batches through ``batchLogVersion()``; `body` runs as is.
    public func whileConnecting<T>(_ body: () throws -> T) throws -> T {
        if let postgres { return try postgres.holdingMindMapLock(body) }
        return try body()
    }

    /// The screenshots connected since `mark`, with the mark to pass next; nil when the log no
    /// longer reaches back that far (load the index again). Without a mark: none, and the log's
    /// end (taken before loading an index). A SQLite library logs none: always empty.
    public func connected(since mark: Int64?) throws -> (ids: [Int64], mark: Int64)? {
        if let postgres { return try postgres.connectedSince(mark) }
        return ([], mark ?? 0)
    }

    /// Makes the other processes' entity indexes load again before they next connect: on
    /// PostgreSQL a marker in the log of screenshots connected, on SQLite a new generation, which
    /// ``batchLogVersion()`` holds.
    public func forgetConnectionIndexes() throws {
        if let postgres { return try postgres.forgetConnectionIndexes() }
        try writer().write { db in
            try db.execute(sql: "UPDATE mind_map_generation SET generation = generation + 1")
        }
    }

    /// Logs that screenshot `id` was connected (PostgreSQL; nothing in SQLite).
    public func recordConnected(_ id: Int64) throws {
        if let postgres { try postgres.recordConnected(id) }
    }
}
