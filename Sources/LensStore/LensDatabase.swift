import Foundation
import GRDB
import LensCore

/// The one door to Lens's database. It owns the schema and its migrations, the FTS5 index and
/// the OCR queue; callers see intention-revealing transactions, never SQL.
///
/// Invariants live in the schema: one row per content hash (`screenshot.sha256 UNIQUE`), a path
/// belongs to exactly one content (`path.path UNIQUE`), paths go with their content
/// (`ON DELETE CASCADE`), and the full-text index follows `screenshot.text` through triggers.
public final class LensDatabase: Sendable {
    /// The SQLite connection(s). A pool in WAL mode for files, so readers never wait for the writer.
    let writer: any DatabaseWriter
    /// The database file, or `nil` in memory.
    public let path: String?

    /// Opens (creating if needed) the database at `path`, migrating it forward.
    ///
    /// A new file is created with mode 0600 and its folder with 0700 before SQLite opens it;
    /// SQLite gives its `-wal` and `-shm` files the same mode as the database.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
        if !FileManager.default.fileExists(atPath: path) {
            let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw StoreError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
            close(fd)
        }
        self.path = path
        self.writer = try Self.openPool(path: path)
        try Self.migrate(writer)
    }

    /// Opens the pool, waiting out a concurrent first open: turning a new file to WAL needs an
    /// exclusive lock, and SQLite reports SQLITE_BUSY at once (no busy handler) while another
    /// connection is converting or migrating the same file.
    private static func openPool(path: String) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration())
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(20_000)
            }
        }
    }

    /// An in-memory database, for tests.
    public init() throws {
        self.path = nil
        self.writer = try DatabaseQueue(configuration: Self.configuration())
        try Self.migrate(writer)
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        // An import writes while `lens search` reads: wait for the lock rather than fail.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // WAL + NORMAL: a commit survives a crash or kill -9 of the process (not a power cut).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            for function in TextCompression.functions + Vocabulary.functions { db.add(function: function) }
        }
        return config
    }

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
        return migrator
    }

    private static func migrate(_ writer: any DatabaseWriter) throws {
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

    // MARK: - Registering files

    /// Records that a file with known content was seen at a path.
    ///
    /// New content is queued for OCR; known content (the same bytes anywhere) only gains the path.
    /// A path that now holds different bytes moves to the new content.
    /// With `batch`, new content is recorded as that batch's (so `lens undo` can take it out).
    /// Registering content that was removed on purpose brings it back: the caller decides whether
    /// to (``wasRemoved(sha256:)``).
    public func register(_ file: FileObservation, batch: Int64? = nil) throws -> Registration {
        try writer.write { db in
            let now = file.seenAt
            if let row = try Row.fetchOne(db, sql: "SELECT id, state, last_error FROM screenshot WHERE sha256 = ?",
                                          arguments: [file.sha256]) {
                let id: Int64 = row["id"]
                let existing = try Row.fetchOne(db, sql: "SELECT screenshot_id, gone_at FROM path WHERE path = ?",
                                                arguments: [file.path])
                let isNewPath = existing == nil || existing?["screenshot_id"] != id
                try Self.upsertPath(db, file, screenshotID: id, now: now)
                return .known(id: id, state: QueueState(rawValue: row["state"]) ?? .queued,
                              lastError: row["last_error"], isNewPath: isNewPath)
            }
            try db.execute(sql: """
                INSERT INTO screenshot (sha256, byte_count, format, captured_at, imported_at)
                VALUES (?, ?, ?, ?, ?)
                """, arguments: [file.sha256, file.size, file.format.rawValue, file.modifiedAt, now])
            let id = db.lastInsertedRowID
            try Self.upsertPath(db, file, screenshotID: id, now: now)
            try db.execute(sql: "DELETE FROM removed_content WHERE sha256 = ?", arguments: [file.sha256])
            if let batch {
                try db.execute(sql: "INSERT OR IGNORE INTO batch_item (batch_id, sha256) VALUES (?, ?)", arguments: [batch, file.sha256])
            }
            return .added(id: id)
        }
    }

    private static func upsertPath(_ db: Database, _ file: FileObservation, screenshotID: Int64, now: Double) throws {
        try db.execute(sql: """
            INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(path) DO UPDATE SET
                screenshot_id = excluded.screenshot_id, size = excluded.size,
                modified_at = excluded.modified_at, last_seen_at = excluded.last_seen_at, gone_at = NULL
            """, arguments: [screenshotID, file.path, file.size, file.modifiedAt, now, now])
    }

    /// The screenshot already recorded at `path` if the file's size and modification time are
    /// unchanged since then, so re-scanning a folder need not re-hash every file.
    public func unchangedScreenshot(atPath path: String, size: Int, modifiedAt: Double) throws -> ScreenshotState? {
        try writer.read { db in
            // Cached: a scan asks this for every file (100,000 in a big folder).
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT s.id, s.state, s.last_error FROM path p JOIN screenshot s ON s.id = p.screenshot_id
                WHERE p.path = ? AND p.size = ? AND p.modified_at = ? AND p.gone_at IS NULL
                """), arguments: [path, size, modifiedAt]).map {
                ScreenshotState(id: $0["id"], state: QueueState(rawValue: $0["state"]) ?? .queued, lastError: $0["last_error"])
            }
        }
    }

    // MARK: - Queue

    /// Puts back items left `running` by processes that are gone (crash, kill -9), so no work is lost.
    ///
    /// - Parameter isAlive: tells whether a process id still runs (a live process keeps its claims,
    ///   so an import and a daemon can share one database).
    @discardableResult
    public func requeueAbandoned(isAlive: (Int32) -> Bool) throws -> Int {
        try writer.write { db in
            let owners = try Int32.fetchAll(db, sql: "SELECT DISTINCT claimed_by FROM screenshot WHERE state = 'running'")
            var count = 0
            for owner in owners where !isAlive(owner) {
                try db.execute(sql: """
                    UPDATE screenshot SET state = 'queued', claimed_by = NULL, claimed_at = NULL
                    WHERE state = 'running' AND claimed_by = ?
                    """, arguments: [owner])
                count += db.changesCount
            }
            return count
        }
    }

    /// Atomically takes the oldest queued item for `owner` (a process id), marking it running.
    public func claimNext(owner: Int32, now: Double = Date().timeIntervalSince1970) throws -> ClaimedItem? {
        try writer.write { db in
            guard let row = try Row.fetchOne(db, sql: """
                UPDATE screenshot SET state = 'running', claimed_by = ?, claimed_at = ?, attempts = attempts + 1
                WHERE id = (SELECT id FROM screenshot WHERE state = 'queued' AND (retry_at IS NULL OR retry_at <= ?)
                            ORDER BY id LIMIT 1)
                RETURNING id, sha256, attempts
                """, arguments: [owner, now, now]) else { return nil }
            let id: Int64 = row["id"]
            let paths = try String.fetchAll(db, sql: """
                SELECT path FROM path WHERE screenshot_id = ? AND gone_at IS NULL ORDER BY last_seen_at DESC
                """, arguments: [id])
            return ClaimedItem(id: id, sha256: row["sha256"], attempts: row["attempts"], paths: paths)
        }
    }

    /// Stores the OCR result of a claimed item and marks it done; the text enters the index.
    public func recordRecognition(_ recognition: Recognition, entities: [Entity] = [], for id: Int64, seconds: Double,
                                  now: Double = Date().timeIntervalSince1970) throws {
        try writer.write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'done', confidence = ?, width = ?, height = ?,
                    ocr_seconds = ?, recognized_at = ?, last_error = NULL, claimed_by = NULL, claimed_at = NULL,
                    retry_at = NULL
                WHERE id = ?
                """, arguments: [recognition.meanConfidence, recognition.width, recognition.height, seconds, now, id])
            let payloads = recognition.codes.isEmpty ? nil : recognition.codes.map(\.payload).joined(separator: "\n")
            try db.execute(sql: """
                INSERT INTO screenshot_text (id, body, words, codes) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET body = excluded.body, words = excluded.words, codes = excluded.codes
                """, arguments: [id, Data(TextCompression.deflate(recognition.text)),
                                 Data(TextCompression.deflate(bytes: Recognition.encode(recognition.words))), payloads])
            try db.execute(sql: "DELETE FROM code WHERE screenshot_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM entity WHERE screenshot_id = ?", arguments: [id])
            try Self.insertTextEntities(entities, of: id, in: db)
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

    /// Marks a claimed item failed with a reason the user can act on.
    public func recordFailure(_ reason: String, for id: Int64) throws {
        try writer.write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'failed', last_error = ?, claimed_by = NULL, claimed_at = NULL,
                    retry_at = NULL WHERE id = ?
                """, arguments: [reason, id])
        }
    }

    /// Returns a claimed item to the queue after a transient failure, to be claimed again no
    /// earlier than `retryAt`; the reason stays visible (`lens status`, `lens show`) meanwhile.
    public func deferItem(_ id: Int64, reason: String, retryAt: Double) throws {
        try writer.write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'queued', last_error = ?, retry_at = ?, claimed_by = NULL, claimed_at = NULL
                WHERE id = ?
                """, arguments: [reason, retryAt, id])
        }
    }

    /// Whether some queued item may be claimed now (not waiting out a backoff).
    public func hasClaimableWork(now: Double = Date().timeIntervalSince1970) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM screenshot WHERE state = 'queued' AND (retry_at IS NULL OR retry_at <= ?))
                """, arguments: [now]) ?? false
        }
    }

    /// When the earliest item waiting after a transient failure may be claimed, if any waits.
    public func nextRetryTime() throws -> Double? {
        try writer.read { db in
            try Double.fetchOne(db, sql: "SELECT min(retry_at) FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL")
        }
    }

    /// When each of `ids` that still waits after a transient failure may be claimed again.
    public func retryTimes(ids: [Int64]) throws -> [Int64: Double] {
        guard !ids.isEmpty else { return [:] }
        return try writer.read { db in
            var times: [Int64: Double] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT id, retry_at FROM screenshot
                WHERE state = 'queued' AND retry_at IS NOT NULL AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                """, arguments: StatementArguments(ids)) {
                times[row["id"]] = row["retry_at"]
            }
            return times
        }
    }

    /// How many queued items wait for a retry after a transient failure.
    public func waitingForRetryCount() throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE state = 'queued' AND retry_at IS NOT NULL") ?? 0
        }
    }

    /// Whether `error` is the storage refusing a write for now (disk full, I/O error, a lock held
    /// past the busy timeout): the work is worth retrying later, the item is not at fault.
    /// What a storage error means for the person at the keyboard, naming `path` and the fix; nil
    /// for errors that are not about the database file.
    public static func explanation(of error: any Error, path: String) -> String? {
        guard let error = error as? DatabaseError else { return nil }
        switch error.resultCode {
        case .SQLITE_FULL:
            return "the disk holding \(path) is full: free some space (what was stored before is intact, "
                + "and unfinished work stays queued for the next run or the daemon's next try)"
        case .SQLITE_READONLY:
            return "\(path) cannot be written (a read-only file, folder or mount): Lens needs write access to it"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "\(path) stayed locked by another process for more than 10 s (an open sqlite3 shell or a backup "
                + "holding a write transaction?): close it and run the command again"
        case .SQLITE_CANTOPEN:
            return "cannot open \(path): check that its folder exists and can be written"
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "\(path) is damaged or is not a Lens database (\(error.message ?? "")): restore it from a backup or move it away"
        case .SQLITE_IOERR:
            return "reading or writing \(path) failed (\(error.message ?? "I/O error")): check the disk"
        default:
            return nil
        }
    }

    public static func isTransientStorageError(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM].contains(error.resultCode)
    }

    /// How many items are in each queue state.
    public func stateCounts() throws -> [QueueState: Int] {
        try writer.read { db in
            var counts = Dictionary(uniqueKeysWithValues: QueueState.allCases.map { ($0, 0) })
            for row in try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM screenshot GROUP BY state") {
                if let state = QueueState(rawValue: row["state"]) { counts[state] = row["n"] }
            }
            return counts
        }
    }

    /// Paths that failed, with the reason, for items whose content is `failed`.
    public func failures(ids: [Int64]) throws -> [(path: String, reason: String)] {
        guard !ids.isEmpty else { return [] }
        return try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT p.path, s.last_error FROM screenshot s JOIN path p ON p.screenshot_id = s.id
                WHERE s.state = 'failed' AND s.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                ORDER BY p.path
                """, arguments: StatementArguments(ids)).map { ($0["path"], $0["last_error"] ?? "unknown error") }
        }
    }

    // MARK: - Reading

    /// Everything known about one screenshot.
    public func screenshot(id: Int64) throws -> ScreenshotDetail? {
        try writer.read { db in
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

    /// Runs `extract` over the stored text of every recognized screenshot and replaces the
    /// entities found in text (those from codes stay), `batchSize` screenshots per transaction.
    /// Returns how many screenshots and entities were written.
    public func reextractEntities(batchSize: Int = 500, _ extract: (String) -> [Entity]) throws -> (screenshots: Int, entities: Int) {
        var last: Int64 = 0, screenshots = 0, entities = 0
        while true {
            let rows = try writer.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT id, lens_inflate(body) AS text FROM screenshot_text WHERE id > ? ORDER BY id LIMIT ?
                    """, arguments: [last, batchSize])
            }
            guard let lastRow = rows.last else { return (screenshots, entities) }
            last = lastRow["id"]
            let found = rows.map { row -> (Int64, [Entity]) in (row["id"], extract(row["text"] ?? "")) }
            try writer.write { db in
                for (id, list) in found {
                    try db.execute(sql: "DELETE FROM entity WHERE screenshot_id = ? AND source = 'text'", arguments: [id])
                    try Self.insertTextEntities(list, of: id, in: db)
                }
            }
            screenshots += found.count
            entities += found.reduce(0) { $0 + $1.1.count }
        }
    }

    private static func insertTextEntities(_ entities: [Entity], of id: Int64, in db: Database) throws {
        for entity in entities {
            try db.execute(sql: """
                INSERT INTO entity (screenshot_id, type, value, normalized, start, "end", source)
                VALUES (?, ?, ?, ?, ?, ?, 'text')
                """, arguments: [id, entity.type.rawValue, entity.value, entity.normalized, entity.start, entity.end])
        }
    }

    /// The entities stored for a screenshot, in the order they were found.
    public func entities(ofScreenshot id: Int64) throws -> [StoredEntity] {
        try writer.read { db in try Self.entities(ofScreenshot: id, in: db) }
    }

    private static func entities(ofScreenshot id: Int64, in db: Database) throws -> [StoredEntity] {
        try Row.fetchAll(db, sql: """
            SELECT type, value, normalized, source, start, "end" FROM entity WHERE screenshot_id = ? ORDER BY id
            """, arguments: [id]).map {
            StoredEntity(type: $0["type"], value: $0["value"], normalized: $0["normalized"], source: $0["source"],
                         start: $0["start"], end: $0["end"])
        }
    }

    /// The screenshot recorded at `path` (present or gone).
    public func screenshotID(forPath path: String) throws -> Int64? {
        try writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT screenshot_id FROM path WHERE path = ?", arguments: [path])
        }
    }

    /// Size of the database file and its WAL, in bytes.
    public func fileSize() -> Int {
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
        let busy = try writer.writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(FULL)").map { $0[0] as Int } ?? 0
        }
        guard busy == 0 else { throw StoreError.cannotSync(path: path ?? "database", reason: "a reader kept the checkpoint from finishing") }
    }

    /// Folds the WAL back into the main file (e.g. before measuring its size).
    public func checkpoint() throws {
        try writer.writeWithoutTransaction { db in
            _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    /// Runs SQLite's integrity check and FTS5's own index check; returns the problems
    /// (`["ok"]` when healthy).
    public func integrityCheck() throws -> [String] {
        let messages = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        guard messages == ["ok"] else { return messages }
        do {
            // FTS5's check compares the index with the external content; it reports through an error.
            try writer.write { db in
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
        try writer.read { db in
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
        try writer.write(body)
    }
}

/// Errors opening the store. Each message names the file and what to do.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    case cannotCreate(path: String, reason: String)
    case newerSchema
    case cannotSync(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            return "cannot create the database at \(path): \(reason)"
        case .cannotSync(let path, let reason):
            return "cannot flush \(path) to disk: \(reason)"
        case .newerSchema:
            return "the database was written by a newer version of Lens; upgrade Lens (the file was left untouched)"
        }
    }
}

extension LensDatabase {
    /// Returns a claimed item to the queue untouched (e.g. when a shutdown interrupts it).
    public func releaseClaim(on id: Int64) throws {
        try writer.write { db in
            try db.execute(sql: """
                UPDATE screenshot SET state = 'queued', claimed_by = NULL, claimed_at = NULL
                WHERE id = ? AND state = 'running'
                """, arguments: [id])
        }
    }
}

extension LensDatabase {
    /// Marks a path deleted or moved out. Its content keeps its record (other paths, history).
    public func markGone(path: String, now: Double = Date().timeIntervalSince1970) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE path SET gone_at = ? WHERE path = ? AND gone_at IS NULL", arguments: [now, path])
        }
    }

    /// Moves a known path to its new name (a rename within the watched trees): no re-hash, no OCR.
    /// Returns `false` when `from` was not known, so the caller treats `to` as a new candidate.
    public func movePath(from: String, to: String, size: Int, modifiedAt: Double,
                         now: Double = Date().timeIntervalSince1970) throws -> Bool {
        try writer.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM path WHERE path = ?", arguments: [from]) == true else {
                return false
            }
            try db.execute(sql: "DELETE FROM path WHERE path = ?", arguments: [to])
            try db.execute(sql: """
                UPDATE path SET path = ?, size = ?, modified_at = ?, last_seen_at = ?, gone_at = NULL WHERE path = ?
                """, arguments: [to, size, modifiedAt, now, from])
            return true
        }
    }

    /// Live paths recorded under `folder` (for reconciling with what is on disk).
    public func livePaths(under folder: String) throws -> [String] {
        let range = Self.pathRange(inside: folder)
        return try writer.read { db in
            try String.fetchAll(db, sql: "SELECT path FROM path WHERE gone_at IS NULL AND path > ? AND path < ?",
                                arguments: [range.lower, range.upper])
        }
    }

    /// Bounds that select, over the unique index on `path.path`, every path strictly inside
    /// `folder`: `path > "folder/" AND path < "folder0"` ('0' is the character after '/').
    static func pathRange(inside folder: String) -> (lower: String, upper: String) {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return (base + "/", base + "0")
    }
}

extension LensDatabase {
    /// Crashes after which content is no longer tried automatically.
    public static let poisonCrashCount = 2

    /// Records that the process crashed while recognizing these items. An item that has now crashed
    /// ``poisonCrashCount`` times is failed as poisoned, so one evil file cannot crash-loop the service.
    /// Returns the ids poisoned by this call.
    @discardableResult
    public func recordCrashes(ids: [Int64]) throws -> [Int64] {
        try writer.write { db in
            var poisoned: [Int64] = []
            for id in Set(ids) {
                try db.execute(sql: "UPDATE screenshot SET crashes = crashes + 1 WHERE id = ?", arguments: [id])
                let crashes = try Int.fetchOne(db, sql: "SELECT crashes FROM screenshot WHERE id = ?", arguments: [id]) ?? 0
                if crashes >= Self.poisonCrashCount {
                    try db.execute(sql: """
                        UPDATE screenshot SET state = 'failed', claimed_by = NULL, claimed_at = NULL,
                            last_error = ? WHERE id = ? AND state != 'done'
                        """, arguments: ["poisoned: recognizing this file crashed Lens \(crashes) times; 'lens retry \(id)' tries again", id])
                    poisoned.append(id)
                }
            }
            return poisoned.sorted()
        }
    }

    /// Puts failed items back in the queue with their counters reset; `ids == nil` means every failed item.
    /// Returns how many were re-queued.
    @discardableResult
    public func retry(ids: [Int64]?) throws -> Int {
        try writer.write { db in
            let reset = """
                UPDATE screenshot SET state = 'queued', attempts = 0, crashes = 0, last_error = NULL, retry_at = NULL
                WHERE state = 'failed'
                """
            if let ids {
                guard !ids.isEmpty else { return 0 }
                try db.execute(sql: reset + " AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
                               arguments: StatementArguments(ids))
            } else {
                try db.execute(sql: reset)
            }
            return db.changesCount
        }
    }
}

/// The `lens watch` process recorded in the database.
public struct DaemonRecord: Sendable, Equatable {
    public var pid: Int32
    public var startedAt: Date
    public var folders: [String]
}

extension LensDatabase {
    /// Records the daemon that has just started (replacing any earlier record).
    public func recordDaemonStart(pid: Int32, folders: [String], now: Double = Date().timeIntervalSince1970) throws {
        try writer.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO daemon (id, pid, started_at, folders) VALUES (1, ?, ?, ?)",
                           arguments: [pid, now, folders.joined(separator: "\n")])
        }
    }

    /// Updates the watched folders after a reload.
    public func recordDaemonFolders(pid: Int32, folders: [String]) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE daemon SET folders = ? WHERE pid = ?", arguments: [folders.joined(separator: "\n"), pid])
        }
    }

    /// Removes the record of a daemon that stops cleanly.
    public func recordDaemonStop(pid: Int32) throws {
        try writer.write { db in try db.execute(sql: "DELETE FROM daemon WHERE pid = ?", arguments: [pid]) }
    }

    public func daemonRecord() throws -> DaemonRecord? {
        try writer.read { db in
            try Row.fetchOne(db, sql: "SELECT pid, started_at, folders FROM daemon WHERE id = 1").map {
                DaemonRecord(pid: $0["pid"], startedAt: Date(timeIntervalSince1970: $0["started_at"]),
                             folders: ($0["folders"] as String).split(separator: "\n").map(String.init))
            }
        }
    }

    /// Screenshots with a live path under each folder.
    public func screenshotCounts(under folders: [String]) throws -> [String: Int] {
        try writer.read { db in
            var counts: [String: Int] = [:]
            for folder in folders {
                let range = Self.pathRange(inside: folder)
                counts[folder] = try Int.fetchOne(db, sql: """
                    SELECT count(DISTINCT screenshot_id) FROM path WHERE gone_at IS NULL AND path > ? AND path < ?
                    """, arguments: [range.lower, range.upper]) ?? 0
            }
            return counts
        }
    }

    /// How many screenshots were recognized at or after `since`.
    public func recognizedCount(since: Date) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE recognized_at >= ?",
                             arguments: [since.timeIntervalSince1970]) ?? 0
        }
    }
}
