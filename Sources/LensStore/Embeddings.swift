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
}

extension LensDatabase {
    /// Up to `limit` texts without a vector of `model`, newest first (the ones a user is likeliest
    /// to look for), only those older than `before` when given: a pass over the library goes on
    /// from its last batch instead of stepping over every text it already did. A blank text is
    /// among them: save it a vector of zeros (it matches nothing), so it is not asked for again.
    public func textsWithoutEmbedding(model: String, limit: Int, before: Int64? = nil) throws -> [EmbeddingWork] {
        try writer.read { db in
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
        try writer.write { db in
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
        try writer.read { db in
            let embedded = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM screenshot_embedding WHERE model = (SELECT id FROM embedding_model WHERE name = ?)
                """, arguments: [model]) ?? 0
            let texts = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_text") ?? 0
            return (embedded, texts)
        }
    }

    /// Every vector of `model`, in id order, `dimensions` wide; a row of another width is skipped.
    public func embeddings(model: String, dimensions: Int) throws -> [(id: Int64, vector: QuantizedVector)] {
        try writer.read { db in
            var result: [(id: Int64, vector: QuantizedVector)] = []
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, vector FROM screenshot_embedding WHERE model = (SELECT id FROM embedding_model WHERE name = ?) ORDER BY id
                """, arguments: [model])
            while let row = try rows.next() {
                let data: Data = row["vector"]
                if let vector = QuantizedVector(bytes: [UInt8](data), dimensions: dimensions) { result.append((row["id"], vector)) }
            }
            return result
        }
    }
}
