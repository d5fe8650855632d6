import Foundation
import GRDB
import LensCore

/// Reading screenshots back, entities, and the file-level maintenance (size, sync, checks).
extension LensDatabase {
    // MARK: - Reading

    /// Whether the library holds no screenshot at all (queued, failed or recognized).
    public func isEmpty() throws -> Bool {
        if let postgres { return try postgres.isEmpty() }
        return try writer().read { db in try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM screenshot)") ?? false) }
    }

    /// Everything known about one screenshot.
    public func screenshot(id: Int64) throws -> ScreenshotDetail? {
        if let postgres { return try postgres.screenshot(id: id) }
        return try writer().read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.*, lens_inflate(t.body) AS text, t.words, t.tags, t.note FROM screenshot s
                LEFT JOIN screenshot_text t ON t.id = s.id
                WHERE s.id = ?
                """, arguments: [id]) else {
                return nil
            }
            let paths = try Row.fetchAll(db, sql: """
                SELECT path, gone_at FROM path WHERE screenshot_id = ? ORDER BY first_seen_at, path
                """, arguments: [id])
            let words: Data? = row["words"]
            return ScreenshotDetail(
                id: id, sha256: row["sha256"], byteCount: row["byte_count"], format: row["format"],
                width: row["width"], height: row["height"],
                state: QueueState(rawValue: row["state"]) ?? .queued, attempts: row["attempts"],
                lastError: row["last_error"], text: row["text"], confidence: row["confidence"],
                words: words.flatMap { try? TextCompression.inflate(bytes: [UInt8]($0)) }
                    .map { Recognition.decodeWords($0, text: row["text"] ?? "") } ?? [],
                ocrSeconds: row["ocr_seconds"],
                capturedAt: Date(timeIntervalSince1970: row["captured_at"]),
                importedAt: Date(timeIntervalSince1970: row["imported_at"]),
                recognizedAt: (row["recognized_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                paths: paths.filter { ($0["gone_at"] as Double?) == nil }.map { $0["path"] },
                gonePaths: paths.filter { ($0["gone_at"] as Double?) != nil }.map { $0["path"] },
                codes: try Row.fetchAll(db, sql: "SELECT symbology, payload FROM code WHERE screenshot_id = ? ORDER BY rowid",
                                        arguments: [id]).map { DecodedCode(symbology: $0["symbology"], payload: $0["payload"]) },
                entities: try Self.entities(ofScreenshot: id, in: db),
                tags: Self.tags(fromJSON: row["tags"]),
                note: row["note"])
        }
    }

    /// Runs `extract` over the stored text of every recognized screenshot (with its capture time)
    /// and replaces the entities found in text (those from codes stay), `batchSize` screenshots
    /// per transaction. Returns how many screenshots and entities were written.
    public func reextractEntities(batchSize: Int = 500, _ extract: (String, Date) -> [Entity]) throws -> (screenshots: Int, entities: Int) {
        if let postgres { return try postgres.reextractEntities(batchSize: batchSize, extract) }
        var last: Int64 = 0, screenshots = 0, entities = 0
        while true {
            let rows = try writer().read { db in try Self.textsAndCaptureTimes(where: "t.id > ? ORDER BY t.id LIMIT ?", [last, batchSize], in: db) }
            guard let lastRow = rows.last else { return (screenshots, entities) }
            last = lastRow.id
            let found = rows.map { row in (row.id, extract(row.text, row.seen)) }
            try writer().write { db in
                for (id, list) in found { try Self.replaceTextEntities(of: id, with: list, in: db) }
            }
            screenshots += found.count
            entities += found.reduce(0) { $0 + $1.1.count }
        }
    }

    /// Stored texts (inflated) with their capture times: `condition` follows `WHERE` (on `t`,
    /// the text row).
    static func textsAndCaptureTimes(where condition: String, _ arguments: StatementArguments,
                                     in db: Database) throws -> [(id: Int64, text: String, seen: Date)] {
        try Row.fetchAll(db, sql: """
            SELECT t.id, lens_inflate(t.body) AS text, s.captured_at FROM screenshot_text t JOIN screenshot s ON s.id = t.id
            WHERE \(condition)
            """, arguments: arguments).map {
            ($0["id"], $0["text"] ?? "", Date(timeIntervalSince1970: $0["captured_at"] ?? 0))
        }
    }

    /// Replaces the entities found in a screenshot's text. Masked secrets stay: they are found
    /// before the text is stored, not in it.
    static func replaceTextEntities(of id: Int64, with entities: [Entity], in db: Database) throws {
        try db.execute(sql: "DELETE FROM entity WHERE screenshot_id = ? AND source = 'text' AND type <> 'secret'", arguments: [id])
        try insertTextEntities(entities.filter { $0.type != .secret }, of: id, in: db)
    }

    static func insertCodeEntities(_ entities: [Entity], of id: Int64, in db: Database) throws {
        for entity in entities {
            try db.execute(sql: """
                INSERT INTO entity (screenshot_id, type, value, normalized, source) VALUES (?, ?, ?, ?, 'code')
                """, arguments: [id, entity.type.rawValue, entity.value, entity.normalized])
        }
    }

    static func insertTextEntities(_ entities: [Entity], of id: Int64, in db: Database) throws {
        for entity in entities {
            try db.execute(sql: """
                INSERT INTO entity (screenshot_id, type, value, normalized, start, "end", source)
                VALUES (?, ?, ?, ?, ?, ?, 'text')
                """, arguments: [id, entity.type.rawValue, entity.value, entity.normalized, entity.start, entity.end])
        }
    }

    /// Gives `extract` the stored text of each of `ids` with its capture time and its stored text
    /// entities, and replaces those entities with what it returns (`nil`: keep them); returns the
    /// ids that changed.
    public func reextractEntities(ids: [Int64], _ extract: (String, Date, [StoredEntity]) -> [Entity]?) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        if let postgres { return try postgres.reextractEntities(ids: ids, extract) }
        let rows = try writer().read { db in
            try Self.textsAndCaptureTimes(where: "t.id IN (\(databaseQuestionMarks(count: ids.count)))", StatementArguments(ids), in: db).map { row in
                (row, try Self.entities(ofScreenshot: row.id, in: db).filter { $0.source == "text" && $0.type != "secret" })
            }
        }
        let changed = rows.compactMap { row, stored in extract(row.text, row.seen, stored).map { (row.id, $0) } }
        guard !changed.isEmpty else { return [] }
        try writer().write { db in
            for (id, found) in changed { try Self.replaceTextEntities(of: id, with: found, in: db) }
        }
        return changed.map(\.0)
    }

    /// The screenshots (other than `id`, at most `limit`) whose text holds the numbers `groups`
    /// in a row (`020`, `7946`, `0018`), however they are separated: an FTS5 phrase of digit
    /// tokens. Anything but digits in a group is refused, so no other text reaches `MATCH`.
    public func screenshots(showingDigitGroups groups: [String], excluding id: Int64, limit: Int = 50) throws -> [Int64] {
        guard !groups.isEmpty, groups.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else { return [] }
        if let postgres { return try postgres.screenshots(showingDigitGroups: groups, excluding: id, limit: limit) }
        return try writer().read { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM screenshot_fts WHERE screenshot_fts MATCH ? AND rowid <> ? LIMIT ?",
                               arguments: ["\"" + groups.joined(separator: " ") + "\"", id, limit])
        }
    }

    /// Which of `numbers` (E.164) some screenshot already holds as a phone entity.
    public func knownPhoneNumbers(among numbers: [String]) throws -> Set<String> {
        if let postgres { return try postgres.knownPhoneNumbers(among: numbers) }
        guard !numbers.isEmpty else { return [] }
        return try writer().read { db in
            try Set(String.fetchAll(db, sql: """
                SELECT DISTINCT normalized FROM entity WHERE type = 'phone' AND normalized IN (\(databaseQuestionMarks(count: numbers.count)))
                """, arguments: StatementArguments(numbers)))
        }
    }

    /// The entities stored for a screenshot, in the order they were found.
    public func entities(ofScreenshot id: Int64) throws -> [StoredEntity] {
        if let postgres { return try postgres.entities(ofScreenshot: id) }
        return try writer().read { db in try Self.entities(ofScreenshot: id, in: db) }
    }

    static func entities(ofScreenshot id: Int64, in db: Database) throws -> [StoredEntity] {
        try Row.fetchAll(db, sql: """
            SELECT type, value, normalized, source, start, "end" FROM entity WHERE screenshot_id = ? ORDER BY id
            """, arguments: [id]).map {
            StoredEntity(type: $0["type"], value: $0["value"], normalized: $0["normalized"], source: $0["source"],
                         start: $0["start"], end: $0["end"])
        }
    }

    /// The screenshot recorded at `path` (present or gone).
    public func screenshotID(forPath path: String) throws -> Int64? {
        if let postgres { return try postgres.screenshotID(forPath: path) }
        return try writer().read { db in
            try Int64.fetchOne(db, sql: "SELECT screenshot_id FROM path WHERE path = ?", arguments: [path])
        }
    }

    /// Size of the database file and its WAL, in bytes.
    public func fileSize() -> Int {
        if let postgres { return postgres.databaseBytes() }
        guard let path else { return 0 }
        return [path, path + "-wal"].reduce(0) { total, p in
            total + ((try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0)
        }
    }

    /// Forces everything committed so far onto the disk, so it survives a power cut too.
    ///
    /// Commits are crash-safe but not power-cut-safe with `synchronous = NORMAL`; before Lens
    /// deletes an original (`delete_after_import`) its record must be. A FULL checkpoint syncs the
    /// WAL, copies every frame into the database and syncs that. (Never open and close the
    /// database file beside SQLite to fsync it: closing any descriptor of a file drops the
    /// process's POSIX locks on it, which corrupts the database under concurrent use.)
    ///
    /// - Throws: ``StoreError/cannotSync(path:reason:)`` when a reader kept the checkpoint from
    ///   finishing within the busy timeout; nothing is lost, the caller tries again later.
    public func syncToDisk() throws {
        // PostgreSQL made the commit durable before it returned (synchronous_commit).
        if postgres != nil { return }
        let busy = try writer().writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(FULL)").map { $0[0] as Int } ?? 0
        }
        guard busy == 0 else { throw StoreError.cannotSync(path: path ?? "database", reason: "a reader kept the checkpoint from finishing") }
    }

    /// Folds the WAL back into the main file (e.g. before measuring its size).
    public func checkpoint() throws {
        try writer().writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Runs SQLite's integrity check and FTS5's own index check; returns the problems
    /// (`["ok"]` when healthy).
    public func integrityCheck() throws -> [String] {
        let messages = try writer().read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard messages == ["ok"] else { return messages }
        do {
            // FTS5's check compares the index with the external content; it reports through an error.
            try writer().write { db in
                // rank = 1 makes FTS5 compare the index with the external content table, not only itself.
                try db.execute(sql: "INSERT INTO screenshot_fts(screenshot_fts, rank) VALUES ('integrity-check', 1)")
            }
        } catch {
            return ["full-text index does not match the stored text: \(error)"]
        }
        return ["ok"]
    }

    /// Rows that point at no screenshot, per table, and how many full-text rows differ from the
    /// stored texts: all 0 in a healthy database (foreign keys cascade, triggers keep the index).
    /// The fault tests check it after crashes; it is cheap enough for `lens doctor`.
    public func orphanCounts() throws -> [String: Int] {
        try writer().read { db in
            var counts: [String: Int] = [:]
            for (table, column) in [("path", "screenshot_id"), ("screenshot_text", "id"), ("code", "screenshot_id"),
                                    ("entity", "screenshot_id"), ("text_band", "screenshot_id"), ("connection", "a"),
                                    ("connection", "b"), ("manual_link", "a"), ("manual_link", "b")] {
                let key = column == "b" ? "\(table).b" : table
                counts[key] = try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM \(table) WHERE \(column) NOT IN (SELECT id FROM screenshot)
                    """) ?? 0
            }
            let texts = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_text") ?? 0
            let indexed = try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot_fts_docsize") ?? 0
            counts["screenshot_fts"] = abs(texts - indexed)
            return counts
        }
    }

    /// Runs `body` with write access, for bulk loaders such as the benchmark. Not for app code.
    public func unsafeBulkWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try writer().write(body)
    }
}
