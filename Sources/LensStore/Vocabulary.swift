import Foundation
import GRDB
import LensCore

/// The index's vocabulary with document counts (`term`), kept by triggers as texts, tags and notes
/// change, so that a word typed in part expands to its most frequent completions in well under a
/// millisecond. (FTS5 answers `lo*` by merging the doclists of every word starting with `lo`: half
/// a second at 100,000 screenshots; its `fts5vocab` table counts documents by reading doclists:
/// 25 ms for the same prefix. Neither fits a keystroke.)
enum Vocabulary {
    /// `lens_terms(text, tags, note)`: a JSON array of the distinct folded tokens of the three.
    static let functions: [DatabaseFunction] = [
        DatabaseFunction("lens_terms", argumentCount: 3, pure: true) { values in
            var terms = Set<String>()
            for value in values {
                if let text = String.fromDatabaseValue(value) { terms.formUnion(SearchQuery.indexTerms(in: text)) }
            }
            let data = try JSONSerialization.data(withJSONObject: Array(terms))
            return String(decoding: data, as: UTF8.self)
        },
    ]

    /// The terms of a screenshot_text row (`new` or `old`), as the FTS triggers index them.
    static func terms(of row: String) -> String {
        "json_each(lens_terms(lens_inflate(\(row).body) || coalesce(char(10, 10) || \(row).codes, ''), \(row).tags, \(row).note))"
    }

    static let migration = """
        CREATE TABLE term (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
        CREATE VIRTUAL TABLE temp.lens_vocabulary USING fts5vocab(main, screenshot_fts, row);
        INSERT INTO term(term, docs) SELECT term, doc FROM temp.lens_vocabulary;
        DROP TABLE temp.lens_vocabulary;
        CREATE TRIGGER term_insert AFTER INSERT ON screenshot_text BEGIN
            INSERT INTO term(term, docs) SELECT value, 1 FROM \(terms(of: "new")) WHERE true
            ON CONFLICT(term) DO UPDATE SET docs = docs + 1;
        END;
        CREATE TRIGGER term_delete AFTER DELETE ON screenshot_text BEGIN
            UPDATE term SET docs = docs - 1 WHERE term IN (SELECT value FROM \(terms(of: "old")));
            DELETE FROM term WHERE docs <= 0 AND term IN (SELECT value FROM \(terms(of: "old")));
        END;
        CREATE TRIGGER term_update AFTER UPDATE OF body, codes, tags, note ON screenshot_text BEGIN
            UPDATE term SET docs = docs - 1 WHERE term IN (SELECT value FROM \(terms(of: "old")));
            DELETE FROM term WHERE docs <= 0 AND term IN (SELECT value FROM \(terms(of: "old")));
            INSERT INTO term(term, docs) SELECT value, 1 FROM \(terms(of: "new")) WHERE true
            ON CONFLICT(term) DO UPDATE SET docs = docs + 1;
        END;
        """
}

extension LensDatabase {
    /// The most frequent index words starting with each of `prefixes` (folded), at most
    /// ``completionLimit(forPrefix:)`` each, most frequent first; and whether any prefix had more.
    func completions(of prefixes: [String], in db: Database) throws -> (words: [String: [String]], truncated: Bool) {
        var words: [String: [String]] = [:]
        var truncated = false
        for prefix in Set(prefixes) where !prefix.isEmpty {
            let limit = Self.completionLimit(forPrefix: prefix)
            let found = try String.fetchAll(db, sql: """
                SELECT term FROM term WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ?
                """, arguments: [prefix, prefix + "\u{10FFFF}", limit + 1])
            truncated = truncated || found.count > limit
            words[prefix] = Array(found.prefix(limit))
        }
        return (words, truncated)
    }

    /// How many screenshots hold `term` (folded), by the vocabulary.
    public func documentCount(of term: String) throws -> Int {
        if let postgres { return try postgres.documentCount(of: term) }
        return try writer().read { db in try Self.documents(of: term, in: db) }
    }
}
