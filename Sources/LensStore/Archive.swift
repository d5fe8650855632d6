import Foundation
import GRDB
import LensCore

/// Everything Lens holds about one screenshot, by content hash, in a form that outlives the
/// database: a line of `lens export`, and what a `lens delete` keeps so `lens undo` can bring the
/// record back without OCR. Restoring one gives back the same rows (the full-text index follows
/// through its triggers; connections and band keys are derived and recomputed).
public struct ArchivedScreenshot: Codable, Sendable, Equatable {
    public struct ArchivedPath: Codable, Sendable, Equatable {
        public var path: String
        public var size: Int
        public var modifiedAt: Double
        public var firstSeenAt: Double
        public var lastSeenAt: Double
        public var goneAt: Double?

        enum CodingKeys: String, CodingKey {
            case path, size
            case modifiedAt = "modified_at", firstSeenAt = "first_seen_at", lastSeenAt = "last_seen_at", goneAt = "gone_at"
        }
    }

    /// A manual link (`lens link`) to another screenshot, named by its content hash.
    public struct ArchivedLink: Codable, Sendable, Equatable {
        public var other: String
        public var note: String?
        public var createdAt: Double

        enum CodingKeys: String, CodingKey { case other, note, createdAt = "created_at" }
    }

    /// The id in the database it came from; kept by `lens restore --replace`, a hint otherwise.
    public var id: Int64
    public var sha256: String
    public var byteCount: Int
    public var format: String
    public var width: Int?
    public var height: Int?
    public var state: String
    public var lastError: String?
    public var confidence: Double?
    public var ocrSeconds: Double?
    public var capturedAt: Double
    public var importedAt: Double
    public var recognizedAt: Double?
    public var paths: [ArchivedPath]
    public var text: String?
    /// Word boxes and confidences in `Recognition.encode`'s form, base64.
    public var words: String?
    public var codes: [DecodedCode]
    public var entities: [StoredEntity]
    public var tags: [String]
    public var note: String?
    public var links: [ArchivedLink]

    enum CodingKeys: String, CodingKey {
        case id, sha256, format, width, height, state, confidence, paths, text, words, codes, entities, tags, note, links
        case byteCount = "byte_count", lastError = "last_error", ocrSeconds = "ocr_seconds", capturedAt = "captured_at"
        case importedAt = "imported_at", recognizedAt = "recognized_at"
    }

    /// Limits a backup file must respect; larger values are refused as damaged or hostile.
    public static let maximumTextBytes = 4 << 20
    public static let maximumPaths = 10_000
    public static let maximumEntities = 100_000

    /// Why this record cannot be restored, or nil when it can. Checks what the schema would
    /// refuse and what later code relies on (word boxes that decode, tags that are tags).
    public func problem() -> String? {
        guard sha256.count == 64, sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return "sha256 is not 64 lower-case hex digits"
        }
        guard byteCount >= 0 else { return "byte_count is negative" }
        guard ImageFormat(rawValue: format) != nil else { return "format '\(format.prefix(20))' is not an image format Lens reads" }
        guard QueueState(rawValue: state) != nil else { return "state '\(state.prefix(20))' is not queued, running, done or failed" }
        if state == QueueState.done.rawValue, text == nil { return "a done screenshot has no text" }
        guard (text?.utf8.count ?? 0) <= Self.maximumTextBytes else { return "text is over \(Self.maximumTextBytes >> 20) MiB" }
        guard (note?.utf8.count ?? 0) <= Self.maximumTextBytes else { return "note is over \(Self.maximumTextBytes >> 20) MiB" }
        guard paths.count <= Self.maximumPaths else { return "more than \(Self.maximumPaths) paths" }
        for path in paths {
            guard path.path.hasPrefix("/"), path.path.utf8.count <= 4096, !path.path.utf8.contains(0) else {
                return "path '\(path.path.prefix(80))' is not an absolute path"
            }
        }
        guard Set(paths.map(\.path)).count == paths.count else { return "a path is listed twice" }
        guard entities.count <= Self.maximumEntities else { return "more than \(Self.maximumEntities) entities" }
        for entity in entities {
            guard EntityType(rawValue: entity.type) != nil else { return "entity type '\(entity.type.prefix(20))' is unknown" }
            guard ["text", "code"].contains(entity.source) else { return "entity source '\(entity.source.prefix(20))' is not text or code" }
            guard entity.value.utf8.count <= 4096, entity.normalized.utf8.count <= 4096 else { return "an entity is over 4 KiB" }
        }
        if let bad = tags.first(where: { !LensDatabase.isTag($0) }) { return "'\(bad.prefix(80))' is not a tag" }
        if let words {
            guard let bytes = Data(base64Encoded: words), bytes.count <= Self.maximumTextBytes else { return "words is not base64" }
        }
        if let bad = links.first(where: { $0.other.count != 64 }) { return "link to '\(bad.other.prefix(80))' is not a content hash" }
        return nil
    }
}

extension LensDatabase {
    /// Reads the whole library from one snapshot: `total` first, then every archive in id
    /// order, `pageSize` at a time. One read transaction, so a daemon writing meanwhile can
    /// neither make the count disagree with the pages nor split the export between two states;
    /// memory holds one page.
    public func readArchives(pageSize: Int, total: (Int) throws -> Void, page: ([ArchivedScreenshot]) throws -> Void) throws {
        if let postgres { return try postgres.readArchives(pageSize: pageSize, total: total, page: page) }
        return try writer().read { db in
            try total(try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot") ?? 0)
            var last: Int64 = 0
            while true {
                let ids = try Int64.fetchAll(db, sql: "SELECT id FROM screenshot WHERE id > ? ORDER BY id LIMIT ?",
                                             arguments: [last, pageSize])
                guard let tail = ids.last else { return }
                try page(try ids.compactMap { try Self.archive(id: $0, in: db) })
                last = tail
            }
        }
    }

    static func archive(id: Int64, in db: Database) throws -> ArchivedScreenshot? {
        guard let row = try Row.fetchOne(db, sql: """
            SELECT s.*, lens_inflate(t.body) AS text, t.words, t.tags, t.note FROM screenshot s
            LEFT JOIN screenshot_text t ON t.id = s.id WHERE s.id = ?
            """, arguments: [id]) else { return nil }
        let paths = try Row.fetchAll(db, sql: """
            SELECT path, size, modified_at, first_seen_at, last_seen_at, gone_at FROM path WHERE screenshot_id = ? ORDER BY path
            """, arguments: [id]).map {
            ArchivedScreenshot.ArchivedPath(path: $0["path"], size: $0["size"], modifiedAt: $0["modified_at"],
                                            firstSeenAt: $0["first_seen_at"], lastSeenAt: $0["last_seen_at"], goneAt: $0["gone_at"])
        }
        let words: Data? = row["words"]
        let codes = try Row.fetchAll(db, sql: "SELECT symbology, payload FROM code WHERE screenshot_id = ? ORDER BY rowid",
                                     arguments: [id]).map { DecodedCode(symbology: $0["symbology"], payload: $0["payload"]) }
        let entities = try Row.fetchAll(db, sql: """
            SELECT type, value, normalized, source, start, "end" FROM entity WHERE screenshot_id = ? ORDER BY id
            """, arguments: [id]).map {
            StoredEntity(type: $0["type"], value: $0["value"], normalized: $0["normalized"], source: $0["source"],
                         start: $0["start"], end: $0["end"])
        }
        let links = try Row.fetchAll(db, sql: """
            SELECT s.sha256, m.note, m.created_at FROM manual_link m
            JOIN screenshot s ON s.id = CASE WHEN m.a = ? THEN m.b ELSE m.a END
            WHERE m.a = ? OR m.b = ? ORDER BY s.sha256
            """, arguments: [id, id, id]).map { ArchivedScreenshot.ArchivedLink(other: $0[0], note: $0[1], createdAt: $0[2]) }
        return ArchivedScreenshot(
            id: id, sha256: row["sha256"], byteCount: row["byte_count"], format: row["format"], width: row["width"],
            height: row["height"], state: row["state"], lastError: row["last_error"], confidence: row["confidence"],
            ocrSeconds: row["ocr_seconds"], capturedAt: row["captured_at"], importedAt: row["imported_at"],
            recognizedAt: row["recognized_at"], paths: paths, text: row["text"],
            words: try words.map { Data(try TextCompression.inflate(bytes: [UInt8]($0))).base64EncodedString() },
            codes: codes, entities: entities,
            tags: Self.tags(fromJSON: row["tags"]),
            note: row["note"], links: links)
    }

    /// Inserts an archived screenshot whose content is not in the database; returns its new id,
    /// or nil when the content is already there (the local record wins). Paths held by another
    /// content stay with it. A record that was `running` comes back `queued`. `keepingID` reuses
    /// the archived id when it is free.
    static func insert(_ archive: ArchivedScreenshot, keepingID: Bool, in db: Database) throws -> Int64? {
        if try Int64.fetchOne(db, sql: "SELECT id FROM screenshot WHERE sha256 = ?", arguments: [archive.sha256]) != nil { return nil }
        let state = archive.state == QueueState.running.rawValue ? QueueState.queued.rawValue : archive.state
        let idFree = keepingID ? try Int64.fetchOne(db, sql: "SELECT id FROM screenshot WHERE id = ?", arguments: [archive.id]) == nil : false
        try db.execute(sql: """
            INSERT INTO screenshot (id, sha256, byte_count, format, width, height, state, last_error, confidence, ocr_seconds,
                                    captured_at, imported_at, recognized_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [idFree ? archive.id : nil, archive.sha256, archive.byteCount, archive.format, archive.width, archive.height,
                             state, archive.lastError, archive.confidence, archive.ocrSeconds, archive.capturedAt,
                             archive.importedAt, archive.recognizedAt])
        let id = db.lastInsertedRowID
        for path in archive.paths {
            try db.execute(sql: """
                INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at, gone_at)
                VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO NOTHING
                """, arguments: [id, path.path, path.size, path.modifiedAt, path.firstSeenAt, path.lastSeenAt, path.goneAt])
        }
        if let text = archive.text {
            let words = archive.words.flatMap { Data(base64Encoded: $0) }.map { Data(TextCompression.deflate(bytes: [UInt8]($0))) }
            let payloads = archive.codes.isEmpty ? nil : archive.codes.map(\.payload).joined(separator: "\n")
            let tags = String(decoding: try JSONEncoder().encode(archive.tags), as: UTF8.self)
            try db.execute(sql: "INSERT INTO screenshot_text (id, body, words, codes, tags, note) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [id, Data(TextCompression.deflate(text)), words, payloads, tags, archive.note])
        }
        for code in archive.codes {
            try db.execute(sql: "INSERT INTO code (screenshot_id, symbology, payload) VALUES (?, ?, ?)",
                           arguments: [id, code.symbology, code.payload])
        }
        for entity in archive.entities {
            try db.execute(sql: """
                INSERT INTO entity (screenshot_id, type, value, normalized, start, "end", source) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [id, entity.type, entity.value, entity.normalized, entity.start, entity.end, entity.source])
        }
        try insertLinks(archive.links, of: id, in: db)
        return id
    }

    /// Draws the archived manual links of screenshot `id` whose other end exists.
    static func insertLinks(_ links: [ArchivedScreenshot.ArchivedLink], of id: Int64, in db: Database) throws {
        for link in links {
            guard let other = try Int64.fetchOne(db, sql: "SELECT id FROM screenshot WHERE sha256 = ?", arguments: [link.other]),
                  other != id else { continue }
            try db.execute(sql: """
                INSERT INTO manual_link (a, b, note, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(a, b) DO NOTHING
                """, arguments: [min(id, other), max(id, other), link.note, link.createdAt])
        }
    }
}
