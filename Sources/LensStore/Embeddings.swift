import Foundation
import GRDB
import LensCore

/// A screenshot's text waiting for its embedding, with the stored text's bytes as they were
/// read: the vector is saved only if the text is still the same (see ``LensDatabase/saveEmbedding``).
public struct EmbeddingWork: Sendable {
    public var id: Int64
    public var text: String
    let body: [UInt8]
}

/// Text embeddings (search by meaning): one vector a screenshot, in 8 bits a dimension
/// (`QuantizedVector.bytes`: 388 bytes for 384 dimensions; 411 bytes of the file a row, measured
/// on 100,000 rows: ten rows fill a 4 KiB page), tagged by the number of the model that made it
/// (its name would add 16 bytes a row). They are computed after OCR,
/// in the background; a text that changes (privacy re-masking, re-recognition) or goes loses its
/// vector through triggers, and the background pass makes it again.
enum Embeddings {
    static let migration = """
        CREATE TABLE embedding_model (
            id      INTEGER PRIMARY KEY,
            name    TEXT    NOT NULL UNIQUE
        );
        CREATE TABLE screenshot_embedding (
            id      INTEGER PRIMARY KEY REFERENCES screenshot(id) ON DELETE CASCADE,
            model   INTEGER NOT NULL REFERENCES embedding_model(id),
            vector  BLOB    NOT NULL
        );
        CREATE TRIGGER screenshot_embedding_text_update AFTER UPDATE OF body ON screenshot_text
        WHEN old.body IS NOT new.body BEGIN
            DELETE FROM screenshot_embedding WHERE id = new.id;
        END;
        CREATE TRIGGER screenshot_embedding_text_delete AFTER DELETE ON screenshot_text BEGIN
            DELETE FROM screenshot_embedding WHERE id = old.id;
        END;
        """

    /// How many saves and drops the log keeps: a reader further behind loads every vector again.
    static let changeLogLength = 10_000

    /// Every save and drop of a vector, numbered, so a process that keeps the vectors in memory
    /// (`lens serve`, an agent's `lens mcp`) reads only what changed since it last looked instead
    /// of 40 MB at 100,000 screenshots. Only the last ``changeLogLength`` are kept (some 120 KB).
    /// A `REPLACE` fires no delete trigger (recursive triggers are off), only the insert one.
    static let changeLogMigration = """
        CREATE TABLE embedding_change (
            seq     INTEGER PRIMARY KEY,
            id      INTEGER NOT NULL
        );
        CREATE TRIGGER embedding_change_saved AFTER INSERT ON screenshot_embedding BEGIN
            INSERT INTO embedding_change (id) VALUES (new.id);
            DELETE FROM embedding_change WHERE seq <= (SELECT max(seq) FROM embedding_change) - \(changeLogLength);
        END;
        CREATE TRIGGER embedding_change_dropped AFTER DELETE ON screenshot_embedding BEGIN
            INSERT INTO embedding_change (id) VALUES (old.id);
            DELETE FROM embedding_change WHERE seq <= (SELECT max(seq) FROM embedding_change) - \(changeLogLength);
        END;
        """
}

/// What changed among the vectors of a model since a reader last looked (``LensDatabase/embeddingChanges``).
public struct EmbeddingChanges: Sendable {
    /// `saved` is every vector of the model: the reader starts over (it had none, or fell out of
    /// the log, or the log is not the one it read before).
    public var isComplete: Bool
    /// Vectors to add or replace.
    public var saved: [(id: Int64, vector: QuantizedVector)]
    /// Ids whose vector went.
    public var dropped: [Int64]
    /// What to pass next time.
    public var mark: EmbeddingChangeMark
}

/// Where a reader is in the change log: the last entry it read (SQLite), or the oldest transaction
/// still running when it read (PostgreSQL, whose writers commit in any order). A log that now ends
/// before it (another file) or starts after it (entries were cut) makes the reader load everything.
public struct EmbeddingChangeMark: Sendable, Equatable {
    var last: Int64
}

extension LensDatabase {
    /// Up to `limit` texts without a vector of `model`, newest first (the ones a user is likeliest
    /// to look for), only those older than `before` when given: a pass over the library goes on
    /// from its last batch instead of stepping over every text it already did. A blank text is
    /// among them: save it a vector of zeros (it matches nothing), so it is not asked for again.
    ///
    /// In a shared library (PostgreSQL) the texts returned are claimed for this process for a few
    /// minutes, so workers on other hosts filling in vectors at the same time take others.
    public func textsWithoutEmbedding(model: String, limit: Int, before: Int64? = nil) throws -> [EmbeddingWork] {
        if let postgres { return try postgres.textsWithoutEmbedding(model: model, limit: limit, before: before) }
        return try writer().read { db in
            try Row.fetchAll(db, sql: """
                SELECT t.id, t.body FROM screenshot_text t
                LEFT JOIN screenshot_embedding e ON e.id = t.id AND e.model = (SELECT id FROM embedding_model WHERE name = ?)
                WHERE e.id IS NULL AND t.id < ? ORDER BY t.id DESC LIMIT ?
                """, arguments: [model, before ?? Int64.max, max(0, limit)]).map { row in
                let body: [UInt8] = [UInt8](row["body"] as Data)
                return EmbeddingWork(id: row["id"], text: try TextCompression.inflate(body), body: body)
            }
        }
    }

    /// Saves `vector` for `work`'s screenshot if its text is still the one the vector was made
    /// from; false when the text changed or went meanwhile (the vector is then dropped).
    @discardableResult
    public func saveEmbedding(_ vector: QuantizedVector, model: String, for work: EmbeddingWork) throws -> Bool {
        if let postgres { return try postgres.saveEmbedding(vector, model: model, for: work) }
        return try writer().write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO embedding_model (name) VALUES (?)", arguments: [model])
            try db.execute(sql: """
                INSERT OR REPLACE INTO screenshot_embedding (id, model, vector)
                SELECT ?, (SELECT id FROM embedding_model WHERE name = ?), ? WHERE EXISTS (SELECT 1 FROM screenshot_text WHERE id = ? AND body = ?)
                """, arguments: [work.id, model, Data(vector.bytes), work.id, Data(work.body)])
            return db.changesCount > 0
        }
    }

    /// How many texts have a vector of `model`, and how many texts there are.
    public func embeddingProgress(model: String) throws -> (embedded: Int, texts: Int) {
        if let postgres { return try postgres.embeddingProgress(model: model) }
        return try writer().read { db in
            let embedded = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM screenshot_embedding WHERE model = (SELECT id FROM embedding_model WHERE name = ?)
                """, arguments: [model]) ?? 0
            let texts = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_text") ?? 0
            return (embedded, texts)
        }
    }

    /// Every vector of `model`, in id order, `dimensions` wide; a row of another width is skipped.
    public func embeddings(model: String, dimensions: Int) throws -> [(id: Int64, vector: QuantizedVector)] {
        try embeddingChanges(since: nil, model: model, dimensions: dimensions).saved
    }
}

extension LensDatabase {
    /// The vectors of `model` saved or dropped since `mark` (nil: all of them), read in one
    /// transaction. At most ``Embeddings/changeLogLength`` changes are read; a reader further
    /// behind gets every vector again.
    public func embeddingChanges(since mark: EmbeddingChangeMark?, model: String, dimensions: Int) throws -> EmbeddingChanges {
        if let postgres { return try postgres.embeddingChanges(since: mark, model: model, dimensions: dimensions) }
        return try writer().read { db in
            let row = try Row.fetchOne(db, sql: "SELECT min(seq) AS first, max(seq) AS last FROM embedding_change")
            let first: Int64? = row?["first"], last: Int64 = row?["last"] ?? 0
            let modelID = try Int64.fetchOne(db, sql: "SELECT id FROM embedding_model WHERE name = ?", arguments: [model])
            guard let mark, mark.last <= last, mark.last + 1 >= (first ?? mark.last + 1) else {
                var all: [(id: Int64, vector: QuantizedVector)] = []
                if let modelID {
                    let rows = try Row.fetchCursor(db, sql: "SELECT id, vector FROM screenshot_embedding WHERE model = ? ORDER BY id",
                                                   arguments: [modelID])
                    while let row = try rows.next() {
                        if let vector = QuantizedVector(bytes: row["vector"] as Data, dimensions: dimensions) { all.append((row["id"], vector)) }
                    }
                }
                return EmbeddingChanges(isComplete: true, saved: all, dropped: [], mark: EmbeddingChangeMark(last: last))
            }
            var saved: [(id: Int64, vector: QuantizedVector)] = [], dropped: [Int64] = [], seen = Set<Int64>()
            let rows = try Row.fetchCursor(db, sql: """
                SELECT c.id AS id, e.vector AS vector, e.model AS model FROM embedding_change c
                LEFT JOIN screenshot_embedding e ON e.id = c.id WHERE c.seq > ? ORDER BY c.seq DESC
                """, arguments: [mark.last])
            // Newest first, and each id once: the join reads its current vector, whatever came before.
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                guard seen.insert(id).inserted else { continue }
                if let data = row["vector"] as Data?, (row["model"] as Int64?) == modelID,
                   let vector = QuantizedVector(bytes: data, dimensions: dimensions) {
                    saved.append((id, vector))
                } else {
                    dropped.append(id)
                }
            }
            return EmbeddingChanges(isComplete: false, saved: saved, dropped: dropped, mark: EmbeddingChangeMark(last: last))
        }
    }
}
