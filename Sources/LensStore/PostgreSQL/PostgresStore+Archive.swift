import Foundation
import LensCore
import PostgresNIO

/// `lens export` and `lens restore` on PostgreSQL, in the same file format as the SQLite store's:
/// a library moves between the stores in either direction.
extension PostgresStore {
    /// Every screenshot from one snapshot (a REPEATABLE READ transaction), in id order, a page at a time.
    func readArchives(pageSize: Int, total: (Int) throws -> Void, page: ([ArchivedScreenshot]) throws -> Void) throws {
        try withSession { session in
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? session.execute("COMMIT") }
            try total(Int(try session.value("SELECT count(*) FROM screenshot", as: Int64.self) ?? 0))
            var last: Int64 = 0
            while true {
                let ids = try session.rows("SELECT id FROM screenshot WHERE id > \(last) ORDER BY id LIMIT \(Int64(pageSize))")
                    .map { try $0.get("id", as: Int64.self) }
                guard let tail = ids.last else { return }
                try page(try ids.compactMap { try archive(id: $0, in: session) })
                last = tail
            }
        }
    }

    func archive(id: Int64, in session: PostgresSession) throws -> ArchivedScreenshot? {
        guard let row = try session.rows("""
            SELECT s.*, t.body, t.words, t.tags, t.note FROM screenshot s LEFT JOIN screenshot_text t ON t.id = s.id WHERE s.id = \(id)
            """).first else { return nil }
        let paths = try session.rows("""
            SELECT path, size, modified_at, first_seen_at, last_seen_at, gone_at FROM path WHERE screenshot_id = \(id) ORDER BY path COLLATE "C"
            """).map {
            ArchivedScreenshot.ArchivedPath(path: try $0.get("path"), size: Int(try $0.get("size", as: Int64.self)),
                                            modifiedAt: try $0.get("modified_at"), firstSeenAt: try $0.get("first_seen_at"),
                                            lastSeenAt: try $0.get("last_seen_at"), goneAt: try $0.optional("gone_at"))
        }
        let codes = try session.rows("SELECT symbology, payload FROM code WHERE screenshot_id = \(id) ORDER BY id").map {
            DecodedCode(symbology: try $0.get("symbology"), payload: try $0.get("payload"))
        }
        let links = try session.rows("""
            SELECT s.sha256, m.note, m.created_at FROM manual_link m
            JOIN screenshot s ON s.id = CASE WHEN m.a = \(id) THEN m.b ELSE m.a END
            WHERE m.a = \(id) OR m.b = \(id) ORDER BY s.sha256
            """).map {
            ArchivedScreenshot.ArchivedLink(other: try $0.get("sha256"), note: try $0.optional("note"), createdAt: try $0.get("created_at"))
        }
        let words = try row.optional("words", as: Data.self)
        return ArchivedScreenshot(
            id: id, sha256: try row.get("sha256"), byteCount: Int(try row.get("byte_count", as: Int64.self)), format: try row.get("format"),
            width: try row.optional("width", as: Int32.self).map(Int.init), height: try row.optional("height", as: Int32.self).map(Int.init),
            state: try row.get("state"), lastError: try row.optional("last_error"), confidence: try row.optional("confidence"),
            ocrSeconds: try row.optional("ocr_seconds"), capturedAt: try row.get("captured_at"), importedAt: try row.get("imported_at"),
            recognizedAt: try row.optional("recognized_at"), paths: paths, text: try row.optional("body"),
            words: try words.map { Data(try TextCompression.inflate(bytes: [UInt8]($0))).base64EncodedString() },
            codes: codes, entities: try entities(ofScreenshot: id, in: session),
            tags: try row.optional("tags", as: [String].self) ?? [], note: try row.optional("note"), links: links)
    }

    /// Restores archives in one transaction, as the SQLite store does (see LensDatabase.restore).
    func restore(replacing: Bool, summary: String, now: Double,
                 records: ((ArchivedScreenshot) throws -> Void) throws -> Void) throws -> RestoreReport {
        try transaction { session in
            if replacing {
                try session.execute("DELETE FROM screenshot")
                try session.execute("DELETE FROM removed_content")
            }
            let batch = try session.value("""
                INSERT INTO batch (kind, started_at, summary) VALUES (\(replacing ? "replace" : "restore"), \(now), \(summary)) RETURNING id
                """, as: Int64.self)!
            var report = RestoreReport(batch: batch, added: 0, kept: 0, replaced: replacing)
            var links: [(Int64, [ArchivedScreenshot.ArchivedLink])] = []
            try records { archive in
                guard let id = try insert(archive, keepingID: replacing, in: session) else {
                    report.kept += 1
                    return
                }
                report.added += 1
                try session.execute("DELETE FROM removed_content WHERE sha256 = \(archive.sha256)")
                try session.execute("INSERT INTO batch_item (batch_id, sha256) VALUES (\(batch), \(archive.sha256)) ON CONFLICT DO NOTHING")
                if !archive.links.isEmpty { links.append((id, archive.links)) }
            }
            for (id, list) in links { try insertLinks(list, of: id, in: session) }
            // Ids given explicitly do not move the identity's sequence: new rows start after them.
            try session.execute("SELECT setval(pg_get_serial_sequence('screenshot', 'id'), greatest(1, (SELECT coalesce(max(id), 0) FROM screenshot)))")
            try session.execute("UPDATE batch SET finished_at = \(Date().timeIntervalSince1970) WHERE id = \(batch)")
            if report.added > 0 { try session.execute("SELECT pg_notify(\(Self.queueChannel), '')") }
            return report
        }
    }

    func insert(_ archive: ArchivedScreenshot, keepingID: Bool, in session: PostgresSession) throws -> Int64? {
        if try session.value("SELECT id FROM screenshot WHERE sha256 = \(archive.sha256)", as: Int64.self) != nil { return nil }
        let state = archive.state == QueueState.running.rawValue ? QueueState.queued.rawValue : archive.state
        let idFree = keepingID ? try session.value("SELECT id FROM screenshot WHERE id = \(archive.id)", as: Int64.self) == nil : false
        let width = archive.width.map { Int32(clamping: $0) }, height = archive.height.map { Int32(clamping: $0) }
        let id: Int64
        if idFree {
            id = try session.value("""
                INSERT INTO screenshot (id, sha256, byte_count, format, width, height, state, last_error, confidence, ocr_seconds,
                                        captured_at, imported_at, recognized_at)
                VALUES (\(archive.id), \(archive.sha256), \(Int64(archive.byteCount)), \(archive.format), \(width), \(height), \(state),
                        \(archive.lastError), \(archive.confidence), \(archive.ocrSeconds), \(archive.capturedAt), \(archive.importedAt),
                        \(archive.recognizedAt)) RETURNING id
                """, as: Int64.self)!
        } else {
            id = try session.value("""
                INSERT INTO screenshot (sha256, byte_count, format, width, height, state, last_error, confidence, ocr_seconds,
                                        captured_at, imported_at, recognized_at)
                VALUES (\(archive.sha256), \(Int64(archive.byteCount)), \(archive.format), \(width), \(height), \(state),
                        \(archive.lastError), \(archive.confidence), \(archive.ocrSeconds), \(archive.capturedAt), \(archive.importedAt),
                        \(archive.recognizedAt)) RETURNING id
                """, as: Int64.self)!
        }
        for path in archive.paths {
            try session.execute("""
                INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at, gone_at)
                VALUES (\(id), \(path.path), \(Int64(path.size)), \(path.modifiedAt), \(path.firstSeenAt), \(path.lastSeenAt), \(path.goneAt))
                ON CONFLICT (path) DO NOTHING
                """)
        }
        if let text = archive.text {
            let words = archive.words.flatMap { Data(base64Encoded: $0) }.map { Data(TextCompression.deflate(bytes: [UInt8]($0))) }
            let payloads = archive.codes.isEmpty ? nil : archive.codes.map(\.payload).joined(separator: "\n")
            let document = SearchDocument(text: text, codes: payloads, tags: archive.tags, note: archive.note)
            try session.execute("""
                INSERT INTO screenshot_text (id, body, words, codes, tags, note, privacy_checked, length, document)
                VALUES (\(id), \(text), \(words), \(payloads), \(archive.tags), \(archive.note), false,
                        \(document.length), lens_document(\(document.text)::tsvector, \(document.tags)::tsvector, \(document.note)::tsvector))
                """)
        }
        for code in archive.codes {
            try session.execute("INSERT INTO code (screenshot_id, symbology, payload) VALUES (\(id), \(code.symbology), \(code.payload))")
        }
        try insertEntities(archive.entities.map {
            EntityRow(type: $0.type, value: $0.value, normalized: $0.normalized, start: $0.start.map { Int32(clamping: $0) },
                      end: $0.end.map { Int32(clamping: $0) }, source: $0.source)
        }, of: id, in: session)
        try insertLinks(archive.links, of: id, in: session)
        return id
    }

    func insertLinks(_ links: [ArchivedScreenshot.ArchivedLink], of id: Int64, in session: PostgresSession) throws {
        for link in links {
            guard let other = try session.value("SELECT id FROM screenshot WHERE sha256 = \(link.other)", as: Int64.self), other != id else { continue }
            try session.execute("""
                INSERT INTO manual_link (a, b, note, created_at) VALUES (\(min(id, other)), \(max(id, other)), \(link.note), \(link.createdAt))
                ON CONFLICT (a, b) DO NOTHING
                """)
        }
    }
}

/// Secret masking of stored texts (restored from a backup, or stored before masking existed).
extension PostgresStore {
    func uncheckedTextCount() throws -> Int {
        try withSession { session in Int(try session.value("SELECT count(*) FROM screenshot_text WHERE NOT privacy_checked", as: Int64.self) ?? 0) }
    }

    /// As LensDatabase.maskStoredTexts. The rows replaced stay in PostgreSQL's files as dead
    /// tuples until VACUUM reclaims them (autovacuum, or VACUUM by the administrator).
    func maskStoredTexts(onlyUnchecked: Bool, batchSize: Int, _ mask: @Sendable (Recognition) -> (Recognition, [MaskedSecret]),
                         extract: (String, Date) -> [Entity]) throws -> (checked: Int, changed: [Int64]) {
        var last: Int64 = 0, checked = 0
        var changed: [Int64] = []
        while true {
            let rows = try withSession { session in
                try session.rows(PostgresQuery(unsafeSQL: """
                    SELECT t.id, t.body, t.words, s.width, s.height, s.captured_at FROM screenshot_text t JOIN screenshot s ON s.id = t.id
                    WHERE t.id > $1 \(onlyUnchecked ? "AND NOT t.privacy_checked" : "") ORDER BY t.id LIMIT $2
                    """, binds: { var b = PostgresBindings(); b.append(last); b.append(Int64(batchSize)); return b }()))
            }
            guard let lastRow = rows.last else { break }
            last = try lastRow.get("id")
            try transaction { session in
                for row in rows {
                    let id = try row.get("id", as: Int64.self), text = try row.get("body", as: String.self)
                    let codes = try session.rows("SELECT symbology, payload FROM code WHERE screenshot_id = \(id) ORDER BY id").map {
                        DecodedCode(symbology: try $0.get("symbology"), payload: try $0.get("payload"))
                    }
                    var plain = Recognition(text: text, words: [], width: Int(try row.optional("width", as: Int32.self) ?? 0),
                                            height: Int(try row.optional("height", as: Int32.self) ?? 0), codes: codes)
                    guard !mask(plain).1.isEmpty else {
                        try session.execute("UPDATE screenshot_text SET privacy_checked = true WHERE id = \(id)")
                        continue
                    }
                    plain.words = try row.optional("words", as: Data.self).flatMap { try? TextCompression.inflate(bytes: [UInt8]($0)) }
                        .map { Recognition.decodeWords($0, text: text) } ?? []
                    let (masked, secrets) = mask(plain)
                    let capturedAt = Date(timeIntervalSince1970: try row.get("captured_at", as: Double.self))
                    try storeText(of: masked, entities: extract(masked.text, capturedAt) + secrets.filter { $0.start != nil }.map(\.entity),
                                  codeEntities: secrets.filter { $0.start == nil }.map(\.entity), for: id, in: session)
                    changed.append(id)
                }
            }
            checked += rows.count
        }
        return (checked, changed)
    }
}
