import Foundation
import GRDB
import LensCore

extension LensDatabase {
    /// How many stored texts have not been through secret masking (stored before it existed, or
    /// restored from a backup).
    public func uncheckedTextCount() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_text WHERE privacy_checked = 0") ?? 0 }
    }

    /// Runs `mask` over stored texts (every one, or only those not checked yet) and rewrites those
    /// where it found secrets: the text, its word boxes, the code payloads, the index and the
    /// entities (`extract` re-finds those of the text; manual links and tags are kept). Then the
    /// freed pages are wiped (see ``wipeFreedPages()``). Returns how many were checked and changed.
    public func maskStoredTexts(onlyUnchecked: Bool, batchSize: Int = 200,
                                _ mask: (Recognition) -> (Recognition, [MaskedSecret]),
                                extract: (String) -> [Entity]) throws -> (checked: Int, changed: [Int64]) {
        var last: Int64 = 0, checked = 0
        var changed: [Int64] = []
        while true {
            let rows = try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.id, lens_inflate(t.body) AS text, t.words, s.width, s.height FROM screenshot_text t
                    JOIN screenshot s ON s.id = t.id
                    WHERE t.id > ? \(onlyUnchecked ? "AND t.privacy_checked = 0" : "") ORDER BY t.id LIMIT ?
                    """, arguments: [last, batchSize])
            }
            guard let lastRow = rows.last else { break }
            last = lastRow["id"]
            var rewrites: [(id: Int64, recognition: Recognition, secrets: [MaskedSecret])] = []
            var untouched: [Int64] = []
            for row in rows {
                let id: Int64 = row["id"]
                let text: String = row["text"] ?? ""
                let words = (row["words"] as Data?).flatMap { try? TextCompression.inflate(bytes: [UInt8]($0)) }
                    .map { Recognition.decodeWords($0, text: text) } ?? []
                let codes = try writer.read { db in
                    try Row.fetchAll(db, sql: "SELECT symbology, payload FROM code WHERE screenshot_id = ? ORDER BY rowid", arguments: [id])
                        .map { DecodedCode(symbology: $0["symbology"], payload: $0["payload"]) }
                }
                let stored = Recognition(text: text, words: words, width: row["width"] ?? 0, height: row["height"] ?? 0, codes: codes)
                let (masked, secrets) = mask(stored)
                if secrets.isEmpty { untouched.append(id) } else { rewrites.append((id, masked, secrets)) }
            }
            try writer.write { db in
                for id in untouched {
                    try db.execute(sql: "UPDATE screenshot_text SET privacy_checked = 1 WHERE id = ?", arguments: [id])
                }
                for (id, recognition, secrets) in rewrites {
                    let payloads = recognition.codes.isEmpty ? nil : recognition.codes.map(\.payload).joined(separator: "\n")
                    try db.execute(sql: """
                        UPDATE screenshot_text SET body = ?, words = ?, codes = ?, privacy_checked = 1 WHERE id = ?
                        """, arguments: [Data(TextCompression.deflate(recognition.text)),
                                         Data(TextCompression.deflate(bytes: Recognition.encode(recognition.words))), payloads, id])
                    try db.execute(sql: "DELETE FROM code WHERE screenshot_id = ?", arguments: [id])
                    try db.execute(sql: "DELETE FROM entity WHERE screenshot_id = ?", arguments: [id])
                    try Self.insertTextEntities(extract(recognition.text) + secrets.filter { $0.start != nil }.map(\.entity), of: id, in: db)
                    try Self.insertCodeEntities(secrets.filter { $0.start == nil }.map(\.entity), of: id, in: db)
                    for code in recognition.codes {
                        try db.execute(sql: "INSERT INTO code (screenshot_id, symbology, payload) VALUES (?, ?, ?)",
                                       arguments: [id, code.symbology, code.payload])
                        if let url = WebAddress(code.payload) {
                            try db.execute(sql: """
                                INSERT INTO entity (screenshot_id, type, value, normalized, source) VALUES (?, 'url', ?, ?, 'code')
                                """, arguments: [id, code.payload, url.normalized])
                        }
                    }
                }
            }
            checked += rows.count
            changed += rewrites.map(\.id)
        }
        if !changed.isEmpty { try wipeFreedPages() }
        return (checked, changed)
    }

    /// Makes replaced text unrecoverable from the files: merges the full-text index into one
    /// segment (FTS5 keeps deleted terms in old segments until they are merged), then checkpoints
    /// and truncates the WAL. With `secure_delete` on, every page freed on the way is zeroed.
    public func wipeFreedPages() throws {
        try writer.write { db in
            try db.execute(sql: "INSERT INTO screenshot_fts(screenshot_fts) VALUES ('optimize')")
        }
        try writer.writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }
}
