import Foundation
import GRDB
import LensCore

/// The schema: named, append-only migrations, and applying them safely when several processes
/// open a new file at once.
extension LensDatabase {
    // MARK: - Schema

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Migrations are named and append-only: never edit one that has shipped; add a new one.
        migrator.registerMigration("v1: screenshots, paths, queue, full-text index") { db in
            try db.execute(sql: """
                -- One row per content (SHA-256); small rows, so queue updates and filters stay cheap.
                CREATE TABLE screenshot (
                    id            INTEGER PRIMARY KEY,
                    sha256        TEXT    NOT NULL UNIQUE CHECK (length(sha256) = 64),
                    byte_count    INTEGER NOT NULL,
                    format        TEXT    NOT NULL,
                    width         INTEGER,
                    height        INTEGER,
                    state         TEXT    NOT NULL DEFAULT 'queued'
                                  CHECK (state IN ('queued', 'running', 'done', 'failed')),
                    attempts      INTEGER NOT NULL DEFAULT 0,
                    last_error    TEXT,
                    claimed_by    INTEGER,
                    claimed_at    REAL,
                    confidence    REAL,
                    ocr_seconds   REAL,
                    captured_at   REAL    NOT NULL,
                    imported_at   REAL    NOT NULL,
                    recognized_at REAL
                );
                CREATE INDEX screenshot_pending ON screenshot(state) WHERE state IN ('queued', 'running');
                CREATE INDEX screenshot_captured ON screenshot(captured_at);

                CREATE TABLE path (
                    id            INTEGER PRIMARY KEY,
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    path          TEXT    NOT NULL UNIQUE,
                    size          INTEGER NOT NULL,
                    modified_at   REAL    NOT NULL,
                    first_seen_at REAL    NOT NULL,
                    last_seen_at  REAL    NOT NULL,
                    gone_at       REAL
                );
                CREATE INDEX path_screenshot ON path(screenshot_id);

                -- Recognized text and word boxes (Recognition.encode), both deflated (TextCompression).
                CREATE TABLE screenshot_text (
                    id    INTEGER PRIMARY KEY REFERENCES screenshot(id) ON DELETE CASCADE,
                    body  BLOB NOT NULL,
                    words BLOB
                );
                CREATE VIEW screenshot_content(id, text) AS
                    SELECT id, lens_inflate(body) FROM screenshot_text;

                -- External content: the text is stored once, in screenshot_text.
                CREATE VIRTUAL TABLE screenshot_fts USING fts5(
                    text, content = 'screenshot_content', content_rowid = 'id',
                    tokenize = 'unicode61 remove_diacritics 2');

                CREATE TRIGGER screenshot_fts_insert AFTER INSERT ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(rowid, text) VALUES (new.id, lens_inflate(new.body));
                END;
                CREATE TRIGGER screenshot_fts_delete AFTER DELETE ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text) VALUES ('delete', old.id, lens_inflate(old.body));
                END;
                -- One trigger, so the old row leaves the index before the new one enters
                -- (SQLite runs separate triggers on one event newest-first).
                CREATE TRIGGER screenshot_fts_update AFTER UPDATE OF body ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text) VALUES ('delete', old.id, lens_inflate(old.body));
                    INSERT INTO screenshot_fts(rowid, text) VALUES (new.id, lens_inflate(new.body));
                END;
                """)
        }
        migrator.registerMigration("v2: crash count per screenshot") { db in
            // Crashes of the process while this content was being recognized (from the crash
            // journal); a kill from outside is not a crash and is not counted.
            try db.execute(sql: "ALTER TABLE screenshot ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v3: the running daemon") { db in
            // At most one row: the `lens watch` that last started (its pid tells whether it still runs).
            try db.execute(sql: """
                CREATE TABLE daemon (
                    id         INTEGER PRIMARY KEY CHECK (id = 1),
                    pid        INTEGER NOT NULL,
                    started_at REAL    NOT NULL,
                    folders    TEXT    NOT NULL -- one watched folder per line
                )
                """)
            try db.execute(sql: "CREATE INDEX screenshot_recognized ON screenshot(recognized_at)")
        }
        migrator.registerMigration("v4: retry after a transient failure") { db in
            // A queued item with retry_at in the future waits (backoff after a busy file, a file
            // briefly gone, a full disk); NULL means "claim now".
            try db.execute(sql: "ALTER TABLE screenshot ADD COLUMN retry_at REAL")
        }
        migrator.registerMigration("v5: QR codes and barcodes, entities") { db in
            try db.execute(sql: """
                -- Codes decoded on an image (zbar), in the order found.
                CREATE TABLE code (
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    symbology     TEXT    NOT NULL,
                    payload       TEXT    NOT NULL
                );
                CREATE INDEX code_screenshot ON code(screenshot_id);

                -- Things found in a screenshot: type (url, email, phone…), the value as shown, its
                -- normalized form, and where it is: UTF-8 offsets in the text, or NULL for a code's payload.
                CREATE TABLE entity (
                    id            INTEGER PRIMARY KEY,
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    type          TEXT    NOT NULL,
                    value         TEXT    NOT NULL,
                    normalized    TEXT    NOT NULL,
                    start         INTEGER,
                    "end"         INTEGER,
                    source        TEXT    NOT NULL DEFAULT 'text' CHECK (source IN ('text', 'code'))
                );
                CREATE INDEX entity_screenshot ON entity(screenshot_id);
                CREATE INDEX entity_normalized ON entity(type, normalized);

                -- Code payloads are indexed with the text, after a blank line. They live in the same
                -- row as the text so that each trigger can remove exactly what it indexed.
                ALTER TABLE screenshot_text ADD COLUMN codes TEXT;

                DROP TRIGGER screenshot_fts_insert;
                DROP TRIGGER screenshot_fts_delete;
                DROP TRIGGER screenshot_fts_update;
                DROP VIEW screenshot_content;
                CREATE VIEW screenshot_content(id, text) AS
                    SELECT id, lens_inflate(body) || coalesce(char(10, 10) || codes, '') FROM screenshot_text;
                CREATE TRIGGER screenshot_fts_insert AFTER INSERT ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(rowid, text)
                    VALUES (new.id, lens_inflate(new.body) || coalesce(char(10, 10) || new.codes, ''));
                END;
                CREATE TRIGGER screenshot_fts_delete AFTER DELETE ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text)
                    VALUES ('delete', old.id, lens_inflate(old.body) || coalesce(char(10, 10) || old.codes, ''));
                END;
                CREATE TRIGGER screenshot_fts_update AFTER UPDATE OF body, codes ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text)
                    VALUES ('delete', old.id, lens_inflate(old.body) || coalesce(char(10, 10) || old.codes, ''));
                    INSERT INTO screenshot_fts(rowid, text)
                    VALUES (new.id, lens_inflate(new.body) || coalesce(char(10, 10) || new.codes, ''));
                END;
                """)
        }
        migrator.registerMigration("v6: connections and manual links") { db in
            try db.execute(sql: """
                -- Computed edges of the mind map (a < b); `via` is JSON: the shared entities.
                CREATE TABLE connection (
                    a     INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    b     INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    score REAL    NOT NULL,
                    via   TEXT    NOT NULL,
                    PRIMARY KEY (a, b),
                    CHECK (a < b)
                ) WITHOUT ROWID;
                CREATE INDEX connection_b ON connection(b);

                -- Edges a person drew (lens link); kept across rebuilds.
                CREATE TABLE manual_link (
                    a          INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    b          INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    note       TEXT,
                    created_at REAL    NOT NULL,
                    PRIMARY KEY (a, b),
                    CHECK (a < b)
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v7: text resemblance of connected screenshots") { db in
            // TextResemblance.containment of the two texts; ≥ 0.9 marks near-duplicates. NULL
            // until computed (rows from v6 get it at the next `lens graph --rebuild`).
            try db.execute(sql: """
                ALTER TABLE connection ADD COLUMN resemblance REAL;

                -- MinHash band keys of each screenshot's words (TextResemblance.bands): screenshots
                -- sharing a key are compared for near-duplicate text. Filled on recognition and by
                -- `lens graph --rebuild`.
                CREATE TABLE text_band (
                    band          INTEGER NOT NULL,
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    PRIMARY KEY (band, screenshot_id)
                ) WITHOUT ROWID;
                CREATE INDEX text_band_screenshot ON text_band(screenshot_id);
                """)
        }
        migrator.registerMigration("v8: tags and notes, indexed with the text") { db in
            // Tags (a JSON array of names) and the note live in the text's row, so each FTS trigger
            // still removes exactly the values it indexed. The array is indexed as it is: its
            // brackets, quotes and commas are separators to the tokenizer (a correlated json_each
            // in the content view makes FTS5's rebuild fail). Tags weigh 3 and the note 2 against
            // the text's 1 in the ranking. The index is rebuilt once, from the stored texts.
            try db.execute(sql: """
                ALTER TABLE screenshot_text ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE screenshot_text ADD COLUMN note TEXT;
                DROP TRIGGER screenshot_fts_insert;
                DROP TRIGGER screenshot_fts_delete;
                DROP TRIGGER screenshot_fts_update;
                DROP TABLE screenshot_fts;
                DROP VIEW screenshot_content;
                CREATE VIEW screenshot_content(id, text, tags, note) AS
                    SELECT id, lens_inflate(body) || coalesce(char(10, 10) || codes, ''),
                           tags, coalesce(note, '')
                    FROM screenshot_text;
                CREATE VIRTUAL TABLE screenshot_fts USING fts5(
                    text, tags, note, content = 'screenshot_content', content_rowid = 'id',
                    tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO screenshot_fts(screenshot_fts, rank) VALUES ('rank', 'bm25(1.0, 3.0, 2.0)');
                CREATE TRIGGER screenshot_fts_insert AFTER INSERT ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(rowid, text, tags, note)
                    VALUES (new.id, lens_inflate(new.body) || coalesce(char(10, 10) || new.codes, ''),
                            new.tags, coalesce(new.note, ''));
                END;
                CREATE TRIGGER screenshot_fts_delete AFTER DELETE ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text, tags, note)
                    VALUES ('delete', old.id, lens_inflate(old.body) || coalesce(char(10, 10) || old.codes, ''),
                            old.tags, coalesce(old.note, ''));
                END;
                CREATE TRIGGER screenshot_fts_update AFTER UPDATE OF body, codes, tags, note ON screenshot_text BEGIN
                    INSERT INTO screenshot_fts(screenshot_fts, rowid, text, tags, note)
                    VALUES ('delete', old.id, lens_inflate(old.body) || coalesce(char(10, 10) || old.codes, ''),
                            old.tags, coalesce(old.note, ''));
                    INSERT INTO screenshot_fts(rowid, text, tags, note)
                    VALUES (new.id, lens_inflate(new.body) || coalesce(char(10, 10) || new.codes, ''),
                            new.tags, coalesce(new.note, ''));
                END;
                INSERT INTO screenshot_fts(screenshot_fts) VALUES ('rebuild');
                """)
        }
        migrator.registerMigration("v9: the batch log, for history and undo") { db in
            try db.execute(sql: """
                -- Append-only: every import run, delete and restore (lens history, lens undo).
                CREATE TABLE batch (
                    id          INTEGER PRIMARY KEY,
                    kind        TEXT    NOT NULL CHECK (kind IN ('import', 'delete', 'restore', 'replace')),
                    started_at  REAL    NOT NULL,
                    finished_at REAL,
                    undone_at   REAL,
                    summary     TEXT    NOT NULL DEFAULT ''
                );
                -- The contents a batch added (import, restore) or removed (delete). A delete keeps the
                -- archived screenshot (JSON) until the batch expires, and where its files went in the trash.
                CREATE TABLE batch_item (
                    batch_id INTEGER NOT NULL REFERENCES batch(id) ON DELETE CASCADE,
                    sha256   TEXT    NOT NULL,
                    record   TEXT,
                    trashed  TEXT,
                    PRIMARY KEY (batch_id, sha256)
                ) WITHOUT ROWID;
                -- Contents taken out on purpose: the daemon's scans do not index them again.
                CREATE TABLE removed_content (
                    sha256   TEXT    PRIMARY KEY,
                    batch_id INTEGER REFERENCES batch(id) ON DELETE SET NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v10: an index of tagged screenshots, for the page's tag filter") { db in
            // Covering and partial: counting tags reads only the tagged rows' tags, not every text.
            try db.execute(sql: "CREATE INDEX screenshot_text_tags ON screenshot_text(tags) WHERE tags <> '[]'")
        }
        migrator.registerMigration("v11: the vocabulary, for words typed in part") { db in
            try db.execute(sql: Vocabulary.migration)
        }
        migrator.registerMigration("v12: which texts went through secret masking") { db in
            // 0 for every text stored before: `lens doctor` counts them, `lens watch` and
            // `lens reindex --privacy` mask them.
            try db.execute(sql: "ALTER TABLE screenshot_text ADD COLUMN privacy_checked INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v13: ranks of band keys, so copies are looked for among neighbours") { db in
            // The rank is part of the key, so one B-tree serves both the neighbour reads (band,
            // rank) and uniqueness. 0 until `lens graph --rebuild` (or the next recognition of a
            // text) sets it.
            try db.execute(sql: """
                CREATE TABLE text_band_ranked (
                    band          INTEGER NOT NULL,
                    rank          INTEGER NOT NULL DEFAULT 0,
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    PRIMARY KEY (band, rank, screenshot_id)
                ) WITHOUT ROWID;
                INSERT INTO text_band_ranked (band, rank, screenshot_id) SELECT band, 0, screenshot_id FROM text_band;
                DROP TABLE text_band;
                ALTER TABLE text_band_ranked RENAME TO text_band;
                CREATE INDEX text_band_screenshot ON text_band(screenshot_id);
                """)
        }
        migrator.registerMigration("v14: band keys and ranks in 32 bits") { db in
            // `TextResemblance` keeps the top 32 bits of each (SQLite then stores 4 bytes, not 8);
            // SQLite's >> is arithmetic, as Swift's is on Int64, so the keys are the ones new
            // texts get. Two keys of one screenshot that become one are kept once.
            try db.execute(sql: """
                CREATE TABLE text_band_narrow (
                    band          INTEGER NOT NULL,
                    rank          INTEGER NOT NULL DEFAULT 0,
                    screenshot_id INTEGER NOT NULL REFERENCES screenshot(id) ON DELETE CASCADE,
                    PRIMARY KEY (band, rank, screenshot_id)
                ) WITHOUT ROWID;
                INSERT OR IGNORE INTO text_band_narrow (band, rank, screenshot_id)
                    SELECT band >> 32, rank >> 32, screenshot_id FROM text_band ORDER BY band >> 32, rank >> 32, screenshot_id;
                DROP TABLE text_band;
                ALTER TABLE text_band_narrow RENAME TO text_band;
                CREATE INDEX text_band_screenshot ON text_band(screenshot_id);
                """)
        }
        migrator.registerMigration("v15: the process running a batch, and redone batches") { db in
            // An import's batch is open while it runs; undo must not take its screenshots out
            // from under it. Redo brings an undone batch back from what its undo archived.
            try db.execute(sql: """
                ALTER TABLE batch ADD COLUMN pid INTEGER;
                ALTER TABLE batch ADD COLUMN redone_at REAL;
                """)
        }
        migrator.registerMigration("v16: entity counts, kept by triggers") { db in
            try db.execute(sql: EntityCounts.migration)
        }
        migrator.registerMigration("v17: text embeddings, dropped when their text changes") { db in
            try db.execute(sql: Embeddings.migration)
        }
        migrator.registerMigration("v18: a log of saved and dropped embeddings, for readers that keep them in memory") { db in
            try db.execute(sql: Embeddings.changeLogMigration)
        }
        migrator.registerMigration("v19: a generation of the mind map, raised by a rebuild") { db in
            // A daemon keeps the entities of every screenshot in memory to connect new ones; a
            // rebuild after entities were re-extracted raises this, and the daemon loads again.
            try db.execute(sql: """
                CREATE TABLE mind_map_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
                INSERT INTO mind_map_generation (id, generation) VALUES (1, 0);
                """)
        }
        return migrator
    }

    static func migrate(_ writer: any DatabaseWriter) throws {
        let migrator = Self.migrator
        // GRDB serializes migrations within one process only. Another process opening the same new
        // file at the same moment may apply a migration between our check and our transaction; each
        // migration is one transaction, so ours then rolls back and the schema is the winner's.
        for attempt in 1... {
            if try writer.read({ try migrator.hasBeenSuperseded($0) }) {
                throw StoreError.newerSchema
            }
            do {
                try migrator.migrate(writer)
                return
            } catch {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                if attempt == 5 { throw error }
            }
        }
    }
}
