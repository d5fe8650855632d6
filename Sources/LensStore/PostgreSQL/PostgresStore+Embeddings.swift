import Foundation
import LensCore
import PostgresNIO

/// Text embeddings in a shared library (migration p7): the same contract as the SQLite store's
/// (Embeddings.swift). What differs is that many processes on many hosts write them: workers
/// claim the texts they embed, and readers follow the change log by transaction ids.
extension PostgresStore {
    /// How long a claim of texts to embed holds: a worker that dies leaves them to others after it.
    static let embeddingClaimSeconds = 300.0

    /// Up to `limit` texts without a vector of `model`, newest first, older than `before` when
    /// given, that no other worker is embedding; they are claimed for this one (the claim goes
    /// with the save, or after ``embeddingClaimSeconds``).
    func textsWithoutEmbedding(model: String, limit: Int, before: Int64?, now: Double = Date().timeIntervalSince1970) throws -> [EmbeddingWork] {
        try withSession { session in
            // The claim is taken by one statement: two workers picking the same text both try to
            // insert its claim, and the second's ON CONFLICT sees the first's (after it commits)
            // and takes it only if it expired.
            try session.rows("""
                WITH candidate AS (
                    SELECT t.id FROM screenshot_text t
                    WHERE t.id < \(before ?? Int64.max)
                        AND NOT EXISTS (SELECT 1 FROM screenshot_embedding e
                                        WHERE e.id = t.id AND e.model = (SELECT id FROM embedding_model WHERE name = \(model)))
                        AND NOT EXISTS (SELECT 1 FROM embedding_claim c WHERE c.id = t.id AND c.until > \(now) AND c.worker <> \(workerID))
                    ORDER BY t.id DESC LIMIT \(Int64(max(0, limit)))
                ), claimed AS (
                    INSERT INTO embedding_claim AS c (id, worker, until)
                    SELECT id, \(workerID), \(now + Self.embeddingClaimSeconds) FROM candidate
                    ON CONFLICT (id) DO UPDATE SET worker = excluded.worker, until = excluded.until
                        WHERE c.until <= \(now) OR c.worker = \(workerID)
                    RETURNING c.id
                )
                SELECT t.id, t.body FROM screenshot_text t JOIN claimed USING (id) ORDER BY t.id DESC
                """).map { row in
                let text = try row.get("body", as: String.self)
                return EmbeddingWork(id: try row.get("id"), text: text, body: Array(text.utf8))
            }
        }
    }

    /// Saves `vector` if `work`'s text is still the stored one, holding the text's row until the
    /// vector is committed: a new text written meanwhile waits, then its trigger drops the vector.
    func saveEmbedding(_ vector: QuantizedVector, model: String, for work: EmbeddingWork) throws -> Bool {
        try transaction { session in
            defer { _ = try? session.execute("DELETE FROM embedding_claim WHERE id = \(work.id) AND worker = \(workerID)") }
            let text = String(decoding: work.body, as: UTF8.self)
            guard try session.value("SELECT true FROM screenshot_text WHERE id = \(work.id) AND body = \(text) FOR SHARE", as: Bool.self) == true else {
                return false
            }
            try session.execute("INSERT INTO embedding_model (name) VALUES (\(model)) ON CONFLICT (name) DO NOTHING")
            try session.execute("""
                INSERT INTO screenshot_embedding (id, model, vector)
                VALUES (\(work.id), (SELECT id FROM embedding_model WHERE name = \(model)), \(Data(vector.bytes)))
                ON CONFLICT (id) DO UPDATE SET model = excluded.model, vector = excluded.vector
                """)
            return true
        }
    }

    /// How many texts have a vector of `model`, and how many texts there are.
    func embeddingProgress(model: String) throws -> (embedded: Int, texts: Int) {
        try withSession { session in
            let embedded = try session.value("""
                SELECT count(*) FROM screenshot_embedding WHERE model = (SELECT id FROM embedding_model WHERE name = \(model))
                """, as: Int64.self) ?? 0
            let texts = try session.value("SELECT count(*) FROM screenshot_text", as: Int64.self) ?? 0
            return (Int(embedded), Int(texts))
        }
    }

    /// The vectors saved or dropped since `mark`: the changes of every transaction at or after
    /// the mark (the oldest transaction still running when the reader last looked), read in one
    /// snapshot; the next mark is this snapshot's oldest running transaction. Changes read twice
    /// are applied twice, as they are now: harmless. A mark the log no longer reaches back to, or
    /// one from another database, gets every vector.
    func embeddingChanges(since mark: EmbeddingChangeMark?, model: String, dimensions: Int) throws -> EmbeddingChanges {
        try transaction { session in
            try session.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            guard let row = try session.rows("""
                SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS horizon,
                       (SELECT xact::text::bigint FROM embedding_change_cut) AS cut,
                       (SELECT id FROM embedding_model WHERE name = \(model)) AS model
                """).first else { throw PostgresStoreError.statementFailed("no snapshot", code: nil) }
            let horizon = try row.get("horizon", as: Int64.self), cut = try row.get("cut", as: Int64.self)
            let modelID = try row.optional("model", as: Int32.self)
            guard let mark, mark.last > cut, mark.last <= horizon else {
                var all: [(id: Int64, vector: QuantizedVector)] = []
                if let modelID {
                    for row in try session.rows("SELECT id, vector FROM screenshot_embedding WHERE model = \(modelID) ORDER BY id") {
                        if let vector = QuantizedVector(bytes: try row.get("vector", as: Data.self), dimensions: dimensions) {
                            all.append((try row.get("id"), vector))
                        }
                    }
                }
                return EmbeddingChanges(isComplete: true, saved: all, dropped: [], mark: EmbeddingChangeMark(last: horizon))
            }
            var saved: [(id: Int64, vector: QuantizedVector)] = [], dropped: [Int64] = [], seen = Set<Int64>()
            // Newest first, and each id once: the join reads its current vector, whatever came before.
            for row in try session.rows("""
                SELECT c.id, e.vector, e.model FROM embedding_change c LEFT JOIN screenshot_embedding e ON e.id = c.id
                WHERE c.xact >= \(String(mark.last))::xid8 ORDER BY c.seq DESC
                """) {
                let id = try row.get("id", as: Int64.self)
                guard seen.insert(id).inserted else { continue }
                if let bytes = try row.optional("vector", as: Data.self), try row.optional("model", as: Int32.self) == modelID,
                   let vector = QuantizedVector(bytes: bytes, dimensions: dimensions) {
                    saved.append((id, vector))
                } else {
                    dropped.append(id)
                }
            }
            return EmbeddingChanges(isComplete: false, saved: saved, dropped: dropped, mark: EmbeddingChangeMark(last: horizon))
        }
    }
}
