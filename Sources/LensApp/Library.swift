import Foundation
import LensCore
import LensOCR
import LensStore

/// The read side of Lens for the CLI: search, show, status, doctor. Opens the database once.
public struct Library: Sendable {
    public let database: LensDatabase
    public let databasePath: String

    /// Opens (creating if needed) the database at `path` after checking that SQLite's FTS5 works.
    public init(databasePath: String) throws {
        try LensDatabase.selfCheck()
        self.databasePath = databasePath
        self.database = try LensDatabase(path: databasePath)
    }

    public func search(_ request: SearchRequest) throws -> [SearchHit] {
        try database.search(request)
    }

    public func topEntities(type: String?, limit: Int) throws -> [EntityCount] {
        try database.topEntities(type: type, limit: limit)
    }

    /// Finds a screenshot by numeric id or by a path it was seen at.
    public func screenshot(idOrPath: String) throws -> ScreenshotDetail? {
        if let id = Int64(idOrPath), let found = try database.screenshot(id: id) { return found }
        guard let id = try database.screenshotID(forPath: LensLocations.absolute(idOrPath)) else { return nil }
        return try database.screenshot(id: id)
    }

    public func status(now: Date = Date()) throws -> StatusReport {
        let daemon = try database.daemonRecord()
        let running = daemon.map { isProcessAlive($0.pid) } ?? false
        return StatusReport(
            database: databasePath, databaseBytes: database.fileSize(), counts: try database.stateCounts(),
            daemon: running ? daemon : nil,
            folderCounts: try database.screenshotCounts(under: running ? daemon?.folders ?? [] : []),
            recognizedLastFiveMinutes: try database.recognizedCount(since: now.addingTimeInterval(-300)),
            waitingForRetry: try database.waitingForRetryCount())
    }
}

public struct StatusReport: Sendable {
    public var database: String
    public var databaseBytes: Int
    public var counts: [QueueState: Int]
    /// The running `lens watch`, if any.
    public var daemon: DaemonRecord?
    /// Screenshots under each folder the daemon watches.
    public var folderCounts: [String: Int]
    public var recognizedLastFiveMinutes: Int
    /// Queued items waiting out a backoff after a transient problem (counted in `queued` too).
    public var waitingForRetry: Int
}

/// Facts about the OCR environment, for `lens doctor`.
public struct DoctorReport: Sendable, Encodable {
    public var tesseractVersion: String
    public var languages: [String]
    public var ompThreadLimit: Int?
    public var ompThreadLimitVariable: String?
    public var fts5: Bool
    public var databasePath: String
    /// `["ok"]`, the problems found, or `nil` when there is no database yet.
    public var databaseIntegrity: [String]?

    public static func collect(databasePath: String) -> DoctorReport {
        DoctorReport(
            tesseractVersion: Recognizer.tesseractVersion,
            languages: Recognizer.installedLanguages(),
            ompThreadLimit: OpenMPLimit.effectiveLimit,
            ompThreadLimitVariable: ProcessInfo.processInfo.environment[OpenMPLimit.variable],
            fts5: (try? LensDatabase.selfCheck()) != nil,
            databasePath: databasePath,
            databaseIntegrity: integrity(of: databasePath))
    }

    /// Checks an existing database without creating one.
    private static func integrity(of path: String) -> [String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try LensDatabase(path: path).integrityCheck()
        } catch {
            return ["cannot open: \(error)"]
        }
    }

    enum CodingKeys: String, CodingKey {
        case tesseractVersion = "tesseract_version", languages
        case ompThreadLimit = "omp_thread_limit", ompThreadLimitVariable = "omp_thread_limit_env"
        case fts5, databasePath = "database", databaseIntegrity = "database_integrity"
    }
}
