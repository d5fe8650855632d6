import CFTS5Rank
import Foundation
import GRDB
import LensCore

/// The one door to Lens's database. It owns the schema and its migrations, the FTS5 index and
/// the OCR queue; callers see intention-revealing transactions, never SQL.
///
/// Invariants live in the schema: one row per content hash (`screenshot.sha256 UNIQUE`), a path
/// belongs to exactly one content (`path.path UNIQUE`), paths go with their content
/// (`ON DELETE CASCADE`), and the full-text index follows `screenshot.text` through triggers.
///
/// A library lives in a SQLite file (the default) or in PostgreSQL (``init(store:)`` with a
/// `postgresql://` address): the same methods serve both. Those the PostgreSQL store does not do
/// yet throw ``PostgresStoreError/unsupported(_:)`` naming the operation.
public final class LensDatabase: Sendable {
    /// The SQLite connection(s). A pool in WAL mode for files, so readers never wait for the writer.
    private let sqlite: (any DatabaseWriter)?
    /// The PostgreSQL store, when the library lives there.
    let postgres: PostgresStore?
    /// The database file, or `nil` in memory or in PostgreSQL.
    public let path: String?

    /// The SQLite connections; on PostgreSQL, an error naming the operation (`function`) that the
    /// PostgreSQL store does not do yet.
    func writer(_ function: String = #function) throws -> any DatabaseWriter {
        guard let sqlite else { throw PostgresStoreError.unsupported(function.prefix { $0 != "(" } + " (SQLite only for now)") }
        return sqlite
    }

    /// Where the library lives, for messages (a PostgreSQL address without its password).
    public var location: String { postgres?.address.description ?? path ?? ":memory:" }

    /// Whether the library lives in PostgreSQL.
    public var isPostgreSQL: Bool { postgres != nil }

    /// Notifications of content queued by any process on any host (PostgreSQL); nil for SQLite,
    /// whose writers are on this host and whose workers look at the queue themselves.
    public func queueNotifications() throws -> QueueNotifications? {
        try postgres.map { try QueueNotifications(store: $0) }
    }

    /// Opens the library at `store`: a SQLite file, or a PostgreSQL database (connecting to it and
    /// setting up or migrating its schema). `lease` is how long a claim of the OCR queue holds
    /// before another worker may take the item over (PostgreSQL; SQLite claims end with their process).
    /// `worker` names this process's claims in PostgreSQL (default `host:pid`).
    public convenience init(store: StoreAddress, lease: Double = LensDatabase.defaultLease, worker: String? = nil) throws {
        switch store {
        case .sqlite(let path): try self.init(path: path)
        case .postgresql(let address):
            try self.init(postgres: PostgresStore(address: address, workerID: worker ?? PostgresStore.defaultWorkerID()), lease: lease)
        }
    }

    private init(postgres: PostgresStore, lease: Double) throws {
        self.sqlite = nil
        self.path = nil
        self.postgres = postgres
        self.lease = lease
    }

    /// How long a claim holds on PostgreSQL before another worker may take the item: past the
    /// longest an OCR may run (`ocr_timeout_s`, 60 s by default), so a live worker never loses
    /// an item it is still recognizing.
    public static let defaultLease: Double = 180
    let lease: Double

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
        let pool = try Self.openPool(path: path)
        try Self.migrate(pool)
        self.sqlite = pool
        self.postgres = nil
        self.lease = Self.defaultLease
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
        let queue = try DatabaseQueue(configuration: Self.configuration())
        try Self.migrate(queue)
        self.sqlite = queue
        self.postgres = nil
        self.lease = Self.defaultLease
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        // An import writes while `lens search` reads: wait for the lock rather than fail.
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            // WAL + NORMAL: a commit survives a crash or kill -9 of the process (not a power cut).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Freed pages are overwritten with zeros: text replaced by `lens reindex --privacy`
            // or deleted with a screenshot does not linger in the file.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            for function in TextCompression.functions + Vocabulary.functions { db.add(function: function) }
            // `lens_rank`: bm25 with IDFs from the vocabulary table (see Search.swift).
            let rc = lens_fts5_register_rank(db.sqliteConnection)
            guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot register lens_rank") }
        }
        return config
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
        if let postgres { return try postgres.releaseClaim(on: id) }
        return try writer().write { db in
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
        if let postgres { return try postgres.markGone(path: path, now: now) }
        try writer().write { db in
            try db.execute(sql: "UPDATE path SET gone_at = ? WHERE path = ? AND gone_at IS NULL", arguments: [now, path])
        }
    }

    /// Moves a known path to its new name (a rename within the watched trees): no re-hash, no OCR.
    /// Returns `false` when `from` was not known, so the caller treats `to` as a new candidate.
    public func movePath(from: String, to: String, size: Int, modifiedAt: Double,
                         now: Double = Date().timeIntervalSince1970) throws -> Bool {
        if let postgres { return try postgres.movePath(from: from, to: to, size: size, modifiedAt: modifiedAt, now: now) }
        return try writer().write { db in
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
        if let postgres { return try postgres.livePaths(under: folder) }
        let range = Self.pathRange(inside: folder)
        return try writer().read { db in
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
        try writer().write { db in
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
        if let postgres { return try postgres.retry(ids: ids) }
        return try writer().write { db in
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
    /// Records the daemon that has just started (replacing any earlier record), for `lens status`.
    /// A PostgreSQL library keeps no such record: many hosts may watch folders into it, and its
    /// `lens status` reports the shared queue instead.
    public func recordDaemonStart(pid: Int32, folders: [String], now: Double = Date().timeIntervalSince1970) throws {
        if postgres != nil { return }
        try writer().write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO daemon (id, pid, started_at, folders) VALUES (1, ?, ?, ?)",
                           arguments: [pid, now, folders.joined(separator: "\n")])
        }
    }

    /// Updates the watched folders after a reload.
    public func recordDaemonFolders(pid: Int32, folders: [String]) throws {
        if postgres != nil { return }
        try writer().write { db in
            try db.execute(sql: "UPDATE daemon SET folders = ? WHERE pid = ?", arguments: [folders.joined(separator: "\n"), pid])
        }
    }

    /// Removes the record of a daemon that stops cleanly.
    public func recordDaemonStop(pid: Int32) throws {
        if postgres != nil { return }
        try writer().write { db in try db.execute(sql: "DELETE FROM daemon WHERE pid = ?", arguments: [pid]) }
    }

    public func daemonRecord() throws -> DaemonRecord? {
        if postgres != nil { return nil }
        return try writer().read { db in
            try Row.fetchOne(db, sql: "SELECT pid, started_at, folders FROM daemon WHERE id = 1").map {
                DaemonRecord(pid: $0["pid"], startedAt: Date(timeIntervalSince1970: $0["started_at"]),
                             folders: ($0["folders"] as String).split(separator: "\n").map(String.init))
            }
        }
    }

    /// Screenshots with a live path under each folder.
    public func screenshotCounts(under folders: [String]) throws -> [String: Int] {
        if let postgres { return try postgres.screenshotCounts(under: folders) }
        return try writer().read { db in
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
        if let postgres { return try postgres.recognizedCount(since: since) }
        return try writer().read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM screenshot WHERE recognized_at >= ?",
                             arguments: [since.timeIntervalSince1970]) ?? 0
        }
    }
}
