import Foundation
import GRDB
import LensCore

/// Why a tag or note could not be set.
public enum AnnotationError: Error, Equatable, CustomStringConvertible {
    /// Only recognized screenshots carry tags and notes (they are indexed with the text).
    case notRecognized(id: Int64)
    case invalidTag(String)
    /// A tag that holds a secret (named by its kind only: the value is never repeated).
    case secretInTag(kind: String)
    /// A note over ``LensDatabase/maximumNoteBytes`` (with what it is appended to).
    case noteTooLong(bytes: Int)

    public var description: String {
        switch self {
        case .noteTooLong(let bytes): "that note would be \(bytes) bytes; a note holds at most \(LensDatabase.maximumNoteBytes) (the one stored is unchanged)"
        case .secretInTag(let kind): "that tag holds a secret (\(kind)): tags are shown everywhere, so it is not stored"
        case .notRecognized(let id): "screenshot \(id) is not recognized yet; tag it once its text is stored (lens status)"
        case .invalidTag(let tag): "'\(tag)' is not a tag: use letters, digits, '-', '_' or '.', without spaces"
        }
    }
}

extension LensDatabase {
    /// Tags are words: letters, digits, `-`, `_`, `.` (so `--tag` and the search index agree).
    public static func isTag(_ tag: String) -> Bool { LensConfiguration.isTag(tag) }

    /// The tags stored in `screenshot_text.tags` (a JSON array; missing or damaged: none).
    static func tags(fromJSON json: String?) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data((json ?? "[]").utf8))) ?? []
    }

    /// Adds (or with `removing`, removes) `tags` on screenshot `id`; returns its tags after.
    @discardableResult
    public func changeTags(of id: Int64, adding tags: [String] = [], removing: [String] = []) throws -> [String] {
        for tag in tags + removing where !Self.isTag(tag) { throw AnnotationError.invalidTag(tag) }
        if let postgres { return try postgres.changeTags(of: id, adding: tags, removing: removing) }
        return try writer().write { db in
            guard let current = try String.fetchOne(db, sql: "SELECT tags FROM screenshot_text WHERE id = ?", arguments: [id]) else {
                throw AnnotationError.notRecognized(id: id)
            }
            var list = Self.tags(fromJSON: current)
            for tag in tags where !list.contains(tag) { list.append(tag) }
            list.removeAll { removing.contains($0) }
            let json = String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
            if json != current { try db.execute(sql: "UPDATE screenshot_text SET tags = ? WHERE id = ?", arguments: [json, id]) }
            return list
        }
    }

    /// Sets the note of screenshot `id` (nil or empty clears it), or appends a line with `appending`.
    public func setNote(of id: Int64, to text: String?, appending: Bool = false) throws {
        if let postgres { return try postgres.setNote(of: id, to: text, appending: appending) }
        return try writer().write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT note FROM screenshot_text WHERE id = ?", arguments: [id]) else {
                throw AnnotationError.notRecognized(id: id)
            }
            let note = try Self.note(text, appendedTo: appending ? row["note"] : nil)
            try db.execute(sql: "UPDATE screenshot_text SET note = ? WHERE id = ?", arguments: [note, id])
        }
    }

    /// The most bytes a note holds: a note is a few lines about a screenshot. Every note is masked
    /// for secrets and indexed, at a cost that grows with its length, and `lens note --append`
    /// run again and again would grow one without end.
    public static let maximumNoteBytes = 65_536

    /// The note to store: `text` (empty: none), after `old` and a line break when appending;
    /// refused over ``maximumNoteBytes``.
    static func note(_ text: String?, appendedTo old: String?) throws -> String? {
        var note = text.flatMap { $0.isEmpty ? nil : $0 }
        if let old, !old.isEmpty { note = note.map { old + "\n" + $0 } ?? old }
        if let note, note.utf8.count > maximumNoteBytes { throw AnnotationError.noteTooLong(bytes: note.utf8.count) }
        return note
    }

    /// The tags and note of screenshot `id`.
    public func annotations(of id: Int64) throws -> (tags: [String], note: String?) {
        if let postgres { return try postgres.annotations(of: id) }
        return try writer().read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT tags, note FROM screenshot_text WHERE id = ?", arguments: [id]) else {
                return ([], nil)
            }
            return (Self.tags(fromJSON: row["tags"]), row["note"])
        }
    }

    /// Every tag with the number of screenshots carrying it, most used first.
    public func tagCounts() throws -> [(tag: String, count: Int)] {
        if let postgres { return try postgres.tagCounts() }
        return try writer().read { db in
            try Row.fetchAll(db, sql: """
                SELECT j.value AS tag, count(*) AS n FROM screenshot_text t INDEXED BY screenshot_text_tags, json_each(t.tags) j
                WHERE t.tags <> '[]' GROUP BY j.value ORDER BY n DESC, tag
                """).map { (tag: $0["tag"], count: $0["n"]) }
        }
    }
}
