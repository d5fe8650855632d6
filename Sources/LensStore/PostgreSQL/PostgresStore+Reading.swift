import Foundation
import LensCore
import PostgresNIO

/// One screenshot's record, tags and notes, in PostgreSQL.
extension PostgresStore {
    func isEmpty() throws -> Bool {
        try withSession { session in try !(session.value("SELECT EXISTS (SELECT 1 FROM screenshot)", as: Bool.self) ?? false) }
    }

    func screenshotID(forPath path: String) throws -> Int64? {
        try withSession { session in try session.value("SELECT screenshot_id FROM path WHERE path = \(path)", as: Int64.self) }
    }

    func screenshot(id: Int64) throws -> ScreenshotDetail? {
        try withSession { session in
            guard let row = try session.rows("""
                SELECT s.*, t.body, t.words, t.tags, t.note FROM screenshot s LEFT JOIN screenshot_text t ON t.id = s.id
                WHERE s.id = \(id)
                """).first else { return nil }
            let paths = try session.rows("""
                SELECT path, gone_at FROM path WHERE screenshot_id = \(id) ORDER BY first_seen_at, path COLLATE "C"
                """).map { (try $0.get("path", as: String.self), try $0.optional("gone_at", as: Double.self)) }
            let text = try row.optional("body", as: String.self)
            let words = try row.optional("words", as: Data.self)
            return ScreenshotDetail(
                id: id, sha256: try row.get("sha256"), byteCount: Int(try row.get("byte_count", as: Int64.self)),
                format: try row.get("format"), width: try row.optional("width", as: Int32.self).map(Int.init),
                height: try row.optional("height", as: Int32.self).map(Int.init),
                state: QueueState(rawValue: try row.get("state", as: String.self)) ?? .queued,
                attempts: Int(try row.get("attempts", as: Int32.self)), lastError: try row.optional("last_error"), text: text,
                confidence: try row.optional("confidence"),
                words: words.flatMap { try? TextCompression.inflate(bytes: [UInt8]($0)) }.map { Recognition.decodeWords($0, text: text ?? "") } ?? [],
                ocrSeconds: try row.optional("ocr_seconds"),
                capturedAt: Date(timeIntervalSince1970: try row.get("captured_at")),
                importedAt: Date(timeIntervalSince1970: try row.get("imported_at")),
                recognizedAt: try row.optional("recognized_at", as: Double.self).map(Date.init(timeIntervalSince1970:)),
                paths: paths.filter { $0.1 == nil }.map(\.0), gonePaths: paths.filter { $0.1 != nil }.map(\.0),
                codes: try session.rows("SELECT symbology, payload FROM code WHERE screenshot_id = \(id) ORDER BY id").map {
                    DecodedCode(symbology: try $0.get("symbology"), payload: try $0.get("payload"))
                },
                entities: try entities(ofScreenshot: id, in: session),
                tags: try row.optional("tags", as: [String].self) ?? [], note: try row.optional("note"))
        }
    }

    func entities(ofScreenshot id: Int64, in session: PostgresSession) throws -> [StoredEntity] {
        try session.rows("""
            SELECT type, value, normalized, source, start, "end" FROM entity WHERE screenshot_id = \(id) ORDER BY id
            """).map {
            StoredEntity(type: try $0.get("type"), value: try $0.get("value"), normalized: try $0.get("normalized"),
                         source: try $0.get("source"), start: try $0.optional("start", as: Int32.self).map(Int.init),
                         end: try $0.optional("end", as: Int32.self).map(Int.init))
        }
    }

    /// The content hash and live paths of `id`, most recently seen first (an image request reads
    /// only these, not the text and word boxes).
    func contentAndPaths(id: Int64) throws -> (sha256: String, paths: [String])? {
        try withSession { session in
            guard let sha256 = try session.value("SELECT sha256 FROM screenshot WHERE id = \(id)", as: String.self) else { return nil }
            let paths = try session.rows("""
                SELECT path FROM path WHERE screenshot_id = \(id) AND gone_at IS NULL ORDER BY last_seen_at DESC, path COLLATE "C"
                """).map { try $0.get("path", as: String.self) }
            return (sha256, paths)
        }
    }

    func knownPhoneNumbers(among numbers: [String]) throws -> Set<String> {
        guard !numbers.isEmpty else { return [] }
        return try withSession { session in
            Set(try session.rows("""
                SELECT DISTINCT normalized FROM entity WHERE type = 'phone' AND normalized = ANY(\(numbers))
                """).map { try $0.get("normalized", as: String.self) })
        }
    }

    // MARK: Tags and notes

    /// Changes tags or the note, and makes the row's search document again (the tags and the
    /// note are searched with the text).
    private func annotate(_ id: Int64, _ change: (inout [String], inout String?) throws -> Void) throws -> [String] {
        try transaction { session in
            guard let row = try session.rows("""
                SELECT body, codes, tags, note FROM screenshot_text WHERE id = \(id) FOR UPDATE
                """).first else { throw AnnotationError.notRecognized(id: id) }
            var tags = try row.get("tags", as: [String].self), note = try row.optional("note", as: String.self)
            let (oldTags, oldNote) = (tags, note)
            try change(&tags, &note)
            guard tags != oldTags || note != oldNote else { return tags }
            let document = SearchDocument(text: try row.get("body", as: String.self), codes: try row.optional("codes", as: String.self),
                                          tags: tags, note: note)
            try session.execute("""
                UPDATE screenshot_text SET tags = \(tags), note = \(note), length = \(document.length),
                    document = lens_document(\(document.text)::tsvector, \(document.tags)::tsvector, \(document.note)::tsvector)
                WHERE id = \(id)
                """)
            return tags
        }
    }

    func changeTags(of id: Int64, adding tags: [String], removing: [String]) throws -> [String] {
        try annotate(id) { list, _ in
            for tag in tags where !list.contains(tag) { list.append(tag) }
            list.removeAll { removing.contains($0) }
        }
    }

    func setNote(of id: Int64, to text: String?, appending: Bool) throws {
        _ = try annotate(id) { _, note in
            note = try LensDatabase.note(text, appendedTo: appending ? note : nil)
        }
    }

    func annotations(of id: Int64) throws -> (tags: [String], note: String?) {
        try withSession { session in
            guard let row = try session.rows("SELECT tags, note FROM screenshot_text WHERE id = \(id)").first else { return ([], nil) }
            return (try row.get("tags", as: [String].self), try row.optional("note", as: String.self))
        }
    }
}

/// What `lens status` reads, in PostgreSQL.
extension PostgresStore {
    func screenshotCounts(under folders: [String]) throws -> [String: Int] {
        try withSession { session in
            var counts: [String: Int] = [:]
            for folder in folders {
                let range = LensDatabase.pathRange(inside: folder)
                counts[folder] = Int(try session.value("""
                    SELECT count(DISTINCT screenshot_id) FROM path
                    WHERE gone_at IS NULL AND path > \(range.lower) COLLATE "C" AND path < \(range.upper) COLLATE "C"
                    """, as: Int64.self) ?? 0)
            }
            return counts
        }
    }

    func recognizedCount(since: Date) throws -> Int {
        try withSession { session in
            Int(try session.value("SELECT count(*) FROM screenshot WHERE recognized_at >= \(since.timeIntervalSince1970)", as: Int64.self) ?? 0)
        }
    }

    /// The database's size on the server.
    func databaseBytes() -> Int {
        (try? withSession { session in Int(try session.value("SELECT pg_database_size(current_database())", as: Int64.self) ?? 0) }) ?? 0
    }
}

extension PostgresStore {
    func tagCounts() throws -> [(tag: String, count: Int)] {
        try withSession { session in
            try session.rows("""
                SELECT tag, count(*) AS n FROM screenshot_text, unnest(tags) AS tag WHERE tags <> '{}'
                GROUP BY tag ORDER BY n DESC, tag COLLATE "C"
                """).map { (try $0.get("tag", as: String.self), Int(try $0.get("n", as: Int64.self))) }
        }
    }
}

extension PostgresStore {
    /// Changes whenever a screenshot is added, recognized or removed, by any host.
    func changeMark() throws -> String {
        try withSession { session in
            guard let row = try session.rows("""
                SELECT count(*) AS n, coalesce(max(recognized_at), 0)::float8 AS recognized FROM screenshot
                """).first else { return "0-0" }
            return "\(try row.get("n", as: Int64.self))-\(try row.get("recognized", as: Double.self))"
        }
    }
}

/// The most frequent entities, from `entity_count` (migration p5), as the SQLite store reads them.
extension PostgresStore {
    func topEntities(type: String?, limit: Int) throws -> [EntityCount] {
        try withSession { session in
            // Each type's best `limit` from the rank index (the types by index seeks), merged.
            let types = try type.map { [$0] }
                ?? session.rows(PostgresQuery(unsafeSQL: LensDatabase.countedTypesSQL)).map { try $0.get("type", as: String.self) }
            var counts: [EntityCount] = []
            for type in types {
                counts += try session.rows("""
                    SELECT normalized, screenshots, occurrences FROM entity_count WHERE type = \(type)
                    ORDER BY screenshots DESC, occurrences DESC, normalized COLLATE "C" LIMIT \(Int64(limit))
                    """).map {
                    EntityCount(type: type, normalized: try $0.get("normalized"), example: "",
                                screenshots: Int(try $0.get("screenshots", as: Int32.self)), occurrences: Int(try $0.get("occurrences", as: Int32.self)))
                }
            }
            counts = LensDatabase.mostFrequent(counts, limit: limit)
            for i in counts.indices {
                counts[i].example = try session.value("""
                    SELECT value FROM entity WHERE type = \(counts[i].type) AND normalized = \(counts[i].normalized)
                    ORDER BY screenshot_id, id LIMIT 1
                    """, as: String.self) ?? counts[i].normalized
            }
            return counts
        }
    }
}
