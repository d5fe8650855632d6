import GRDB
import LensCore

/// How often one entity (by normalized value) occurs in the library.
public struct EntityCount: Sendable, Equatable {
    public var type: String
    public var normalized: String
    /// One way it was written: as the oldest screenshot holding it shows it.
    public var example: String
    /// Screenshots that show it.
    public var screenshots: Int
    /// Times it was found, counting repeats within a screenshot.
    public var occurrences: Int
}

/// How many screenshots and occurrences each entity has (`entity_count`), kept by triggers as
/// entities are written and deleted, so the most frequent entities are an index walk. Counting
/// them with `GROUP BY` read every entity row: 5.9 s at 100,000 screenshots (a million entities),
/// for `lens entities`, the page and an agent's `list_entities`.
enum EntityCounts {
    /// A screenshot is counted once per entity however often it holds it: the triggers ask
    /// whether another row of the same screenshot holds it, through `entity_key`, which also
    /// serves every lookup by (type, normalized) that `entity_normalized` served.
    ///
    /// Size: one row and one rank entry per distinct entity, about 100 bytes. On the benchmark
    /// library of 100,000 screenshots, whose e-mails and URLs are nearly all distinct (987,432 of
    /// 1,001,337), that is 99 MB (table and rank index) beside the entities' own 162 MB; the library grew
    /// from 455 to 544 MB. An example of each entity as
    /// shown and a rank index over all types would have doubled it; both are read at query time
    /// instead (one index probe per entity shown, one walk per type).
    static let migration = """
        CREATE INDEX entity_key ON entity(type, normalized, screenshot_id);
        DROP INDEX entity_normalized;
        CREATE TABLE entity_count (
            type        TEXT    NOT NULL,
            normalized  TEXT    NOT NULL,
            screenshots INTEGER NOT NULL,
            occurrences INTEGER NOT NULL,
            PRIMARY KEY (type, normalized)
        ) WITHOUT ROWID;
        INSERT INTO entity_count (type, normalized, screenshots, occurrences)
            SELECT type, normalized, count(DISTINCT screenshot_id), count(*) FROM entity GROUP BY type, normalized;
        CREATE INDEX entity_count_rank ON entity_count(type, screenshots DESC, occurrences DESC, normalized);
        CREATE TRIGGER entity_count_insert AFTER INSERT ON entity BEGIN
            INSERT INTO entity_count (type, normalized, screenshots, occurrences) VALUES (new.type, new.normalized, 1, 1)
            ON CONFLICT (type, normalized) DO UPDATE SET
                occurrences = occurrences + 1,
                screenshots = screenshots + NOT EXISTS (
                    SELECT 1 FROM entity WHERE type = new.type AND normalized = new.normalized
                        AND screenshot_id = new.screenshot_id AND id <> new.id);
        END;
        CREATE TRIGGER entity_count_delete AFTER DELETE ON entity BEGIN
            UPDATE entity_count SET
                occurrences = occurrences - 1,
                screenshots = screenshots - NOT EXISTS (
                    SELECT 1 FROM entity WHERE type = old.type AND normalized = old.normalized
                        AND screenshot_id = old.screenshot_id)
            WHERE type = old.type AND normalized = old.normalized;
            DELETE FROM entity_count WHERE type = old.type AND normalized = old.normalized AND occurrences <= 0;
        END;
        CREATE TRIGGER entity_count_update AFTER UPDATE OF screenshot_id, type, normalized ON entity BEGIN
            SELECT RAISE(ABORT, 'entities are replaced, not moved: entity_count counts inserts and deletes');
        END;
        """
}

extension LensDatabase {
    /// The most frequent entities, by the screenshots that hold them, then occurrences; each with
    /// its value as the oldest screenshot holding it shows it.
    /// The entity types `entity_count` holds, by index seeks from one type to the next (both stores).
    static let countedTypesSQL = """
        WITH RECURSIVE kind(type) AS (
            SELECT min(type) FROM entity_count
            UNION ALL SELECT (SELECT min(type) FROM entity_count WHERE type > kind.type) FROM kind WHERE kind.type IS NOT NULL)
        SELECT type FROM kind WHERE type IS NOT NULL
        """

    /// Each type's best counts merged: the `limit` most frequent, by screenshots, then
    /// occurrences, then type and value.
    static func mostFrequent(_ counts: [EntityCount], limit: Int) -> [EntityCount] {
        Array(counts.sorted {
            ($1.screenshots, $1.occurrences, $0.type, $0.normalized) < ($0.screenshots, $0.occurrences, $1.type, $1.normalized)
        }.prefix(limit))
    }

    public func topEntities(type: String? = nil, limit: Int = 20) throws -> [EntityCount] {
        let limit = max(0, limit)
        if let postgres { return try postgres.topEntities(type: type, limit: limit) }
        return try writer().read { db in
            // Each type's best `limit` from the rank index (the types themselves by index seeks),
            // merged.
            let types = try type.map { [$0] } ?? String.fetchAll(db, sql: Self.countedTypesSQL)
            var counts: [EntityCount] = []
            for type in types {
                counts += try Row.fetchAll(db, sql: """
                    SELECT normalized, screenshots, occurrences FROM entity_count WHERE type = ?
                    ORDER BY screenshots DESC, occurrences DESC, normalized LIMIT ?
                    """, arguments: [type, limit]).map {
                    EntityCount(type: type, normalized: $0["normalized"], example: "", screenshots: $0["screenshots"], occurrences: $0["occurrences"])
                }
            }
            counts = Self.mostFrequent(counts, limit: limit)
            for i in counts.indices {
                counts[i].example = try String.fetchOne(db, sql: """
                    SELECT value FROM entity WHERE type = ? AND normalized = ? ORDER BY screenshot_id, id LIMIT 1
                    """, arguments: [counts[i].type, counts[i].normalized]) ?? counts[i].normalized
            }
            return counts
        }
    }
}
