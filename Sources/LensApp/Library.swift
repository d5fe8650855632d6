import Foundation
import LensCore
import LensEmbed
import LensOCR
import LensPhone
import LensStore

/// The read side of Lens for the CLI: search, show, status, doctor. Opens the database once.
public struct Library: Sendable {
    /// The store. `package`: the command line and the web layer go through Library's methods.
    package let database: LensDatabase
    public let databasePath: String
    /// The vectors and the model search by meaning uses, loaded when first needed.
    let meaning: MeaningIndex

    /// Opens (creating if needed) the database at `path` after checking that SQLite's FTS5 works.
    /// The embedding model is looked for in `modelDirectory` when a search first needs it.
    public init(databasePath: String, modelDirectory: String = TextEmbedder.directory()) throws {
        try self.init(store: .sqlite(path: databasePath), modelDirectory: modelDirectory)
    }

    /// Opens the library at `store`: a SQLite file (created if needed, after checking that
    /// SQLite's FTS5 works) or a PostgreSQL database (its schema set up or migrated).
    /// `lease`: how long a claim of the OCR queue holds in PostgreSQL before another worker may take it.
    public init(store: StoreAddress, modelDirectory: String = TextEmbedder.directory(),
                lease: Double = LensDatabase.defaultLease) throws {
        if case .sqlite = store { try LensDatabase.selfCheck() }
        self.databasePath = store.description
        self.database = try LensDatabase(store: store, lease: lease)
        self.meaning = MeaningIndex(modelDirectory: modelDirectory)
    }

    /// How long a claim of the OCR queue holds in a PostgreSQL library before another worker may take the item.
    public static let defaultLease = LensDatabase.defaultLease

    /// Whether the library lives in PostgreSQL (a team library) rather than a SQLite file.
    public var isPostgreSQL: Bool { database.isPostgreSQL }

    /// Whether the library holds no screenshot yet (then "no matches" means "import first").
    public func isEmpty() throws -> Bool { try database.isEmpty() }

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
        let meaning = try database.embeddingProgress(model: EmbeddingModel.name)
        return StatusReport(
            database: databasePath, databaseBytes: database.fileSize(), counts: try database.stateCounts(),
            daemon: running ? daemon : nil,
            folderCounts: try database.screenshotCounts(under: running ? daemon?.folders ?? [] : []),
            recognizedLastFiveMinutes: try database.recognizedCount(since: now.addingTimeInterval(-300)),
            waitingForRetry: try database.waitingForRetryCount(),
            readForMeaning: meaning.embedded, texts: meaning.texts)
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
    /// Texts read for meaning (search by meaning finds them), of all texts.
    public var readForMeaning: Int
    public var texts: Int
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
    /// Everything else checked, each with the exact fix when it is not in order.
    public var checks: [Check] = []

    /// One check: `ok`, or a `problem` (Lens cannot do part of its job) or a `note` (optional).
    public struct Check: Sendable, Encodable, Equatable {
        public enum Status: String, Sendable, Encodable { case ok, note, problem }
        public var name: String
        public var status: Status
        public var detail: String
        public var fix: String?
    }

    public var problemCount: Int { checks.filter { $0.status == .problem }.count }

    /// The checks of a shared library (PostgreSQL), in place of a SQLite file's: whether the
    /// server answers, over what, with which schema, and whether its derived counts hold.
    public static func sharedLibraryChecks(_ address: PostgresAddress) -> [Check] {
        let library: LensDatabase
        do {
            library = try LensDatabase(store: .postgresql(address))
        } catch {
            return [Check(name: "shared library", status: .problem, detail: "\(error)",
                          fix: "check the address (--store, $LENS_STORE or [store] url), that the server runs and that this host may connect")]
        }
        do {
            guard let health = try library.sharedLibraryHealth() else { return [] }
            var checks: [Check] = []
            let over = health.isSocket ? "a Unix socket" : health.isEncrypted ? "TCP with TLS" : "TCP without TLS"
            let remote = !health.isSocket && !["localhost", "127.0.0.1", "::1"].contains(address.host ?? "")
            checks.append(Check(name: "shared library", status: remote && !health.isEncrypted ? .note : .ok,
                                detail: "\(health.serverVersion), over \(over)",
                                fix: remote && !health.isEncrypted ? "add ?sslmode=verify-full to the address (the server needs ssl = on)" : nil))
            checks.append(health.migrationsApplied == health.migrationsKnown
                ? Check(name: "schema", status: .ok, detail: "\(health.migrationsApplied) migrations, as this Lens knows them", fix: nil)
                : Check(name: "schema", status: .problem, detail: "\(health.migrationsApplied) migrations applied, this Lens knows \(health.migrationsKnown)",
                        fix: "run the same Lens version on every host"))
            checks.append(health.expiredLeases == 0
                ? Check(name: "queue leases", status: .ok, detail: "no claim past its lease", fix: nil)
                : Check(name: "queue leases", status: .note, detail: "\(health.expiredLeases) claim(s) past their lease: their workers stopped",
                        fix: "nothing: the next worker's claim takes them over (a second stop fails the image as poisoned)"))
            checks.append(health.entityCountDrift == 0
                ? Check(name: "entity counts", status: .ok, detail: "the most frequent entities match a recount", fix: nil)
                : Check(name: "entity counts", status: .problem, detail: "\(health.entityCountDrift) entities counted otherwise than a recount",
                        fix: "lens reindex --entities --store …"))
            return checks
        } catch {
            return [Check(name: "shared library", status: .problem, detail: "\(error)", fix: nil)]
        }
    }

    /// Collects the checks; `store`, when it is a shared library, is checked instead of a SQLite file.
    public static func collect(store: StoreAddress, configPath: String, unitPath: String,
                               limitsFolder: String = "/proc/sys/fs/inotify") -> DoctorReport {
        guard case .postgresql(let address) = store else {
            return collect(databasePath: store.description, configPath: configPath, unitPath: unitPath, limitsFolder: limitsFolder)
        }
        var report = collect(databasePath: "", configPath: configPath, unitPath: unitPath, limitsFolder: limitsFolder)
        report.databasePath = address.description
        report.databaseIntegrity = nil
        report.checks += sharedLibraryChecks(address)
        return report
    }

    public static func collect(databasePath: String, configPath: String, unitPath: String,
                               limitsFolder: String = "/proc/sys/fs/inotify") -> DoctorReport {
        var report = DoctorReport(
            tesseractVersion: Recognizer.tesseractVersion,
            languages: Recognizer.installedLanguages(),
            ompThreadLimit: OpenMPLimit.effectiveLimit,
            ompThreadLimitVariable: ProcessInfo.processInfo.environment[OpenMPLimit.variable],
            fts5: (try? LensDatabase.selfCheck()) != nil,
            databasePath: databasePath,
            databaseIntegrity: integrity(of: databasePath))
        var checks: [Check] = []

        let phones = PhoneNumberLibrary().phoneNumbers(in: "call +1 415 555 0132", region: "US")
        checks.append(phones.first?.e164 == "+14155550132"
            ? Check(name: "libphonenumber", status: .ok, detail: "finds and formats numbers", fix: nil)
            : Check(name: "libphonenumber", status: .problem, detail: "found no number in a test text",
                    fix: "sudo apt-get install libphonenumber8 (or rebuild Lens with libphonenumber-dev)"))
        checks.append(EntityExtractors.hasPublicSuffixList
            ? Check(name: "public suffixes", status: .ok, detail: EntityExtractors.publicSuffixListPath, fix: nil)
            : Check(name: "public suffixes", status: .problem, detail: "missing: bare domains (example.org/docs) are not found",
                    fix: "sudo apt-get install publicsuffix"))
        // Every program `lens graph --format svg` runs (MindMapUseCases.render).
        let programs = ["dot", "gvpack", "neato", "sfdp"]
        let missing = programs.filter { MindMapUseCases.graphVizProgram($0) == nil }
        checks.append(missing.isEmpty
            ? Check(name: "GraphViz", status: .ok, detail: programs.compactMap(MindMapUseCases.graphVizProgram).joined(separator: ", "), fix: nil)
            : Check(name: "GraphViz", status: .note, detail: missing.joined(separator: ", ") + " not found: lens graph --format svg cannot draw",
                    fix: "sudo apt-get install graphviz"))

        // The configuration, and what its folders ask of inotify.
        var folders: [LensConfiguration.Folder] = []
        do {
            let settings = try ConfigurationFile.load(configPath)
            try ConfigurationFile.checkLanguages(of: settings, file: configPath)
            folders = settings.folders.filter(\.isEnabled)
            let exists = FileManager.default.fileExists(atPath: configPath)
            checks.append(Check(name: "configuration", status: exists ? .ok : .note,
                                detail: exists ? "\(configPath): \(folders.count) folder(s) watched" : "\(configPath) does not exist",
                                fix: exists ? nil : "lens init ~/Pictures/Screenshots"))
            for folder in folders where !FileManager.default.fileExists(atPath: folder.path) {
                checks.append(Check(name: "folder", status: .problem, detail: "\(folder.path) does not exist",
                                    fix: "mkdir -p '\(folder.path)', or remove it from \(configPath)"))
            }
        } catch {
            checks.append(Check(name: "configuration", status: .problem, detail: "\(error)", fix: "edit \(configPath) at the line named"))
        }
        let watches = Self.readNumber(limitsFolder + "/max_user_watches"), queued = Self.readNumber(limitsFolder + "/max_queued_events")
        let needed = folders.filter { $0.pollInterval == nil }.reduce(0) { $0 + Self.folderCount(under: $1.path, recursive: $1.recursive) }
        if let watches {
            let enough = needed <= watches * 9 / 10
            checks.append(Check(name: "inotify watches", status: enough ? .ok : .problem,
                                detail: "\(needed) folder(s) to watch, limit \(watches)",
                                fix: enough ? nil : "echo fs.inotify.max_user_watches=\(max(524_288, needed * 2)) | sudo tee /etc/sysctl.d/90-lens.conf && sudo sysctl --system"))
        }
        if let queued {
            let enough = queued >= 16_384
            checks.append(Check(name: "inotify queue", status: enough ? .ok : .note,
                                detail: "max_queued_events \(queued)" + (enough ? "" : ": bursts overflow sooner (Lens then rescans)"),
                                fix: enough ? nil : "echo fs.inotify.max_queued_events=16384 | sudo tee -a /etc/sysctl.d/90-lens.conf && sudo sysctl --system"))
        }

        // The database's consistency beyond SQLite's own check (opened once for both checks).
        let store = FileManager.default.fileExists(atPath: databasePath) ? try? LensDatabase(path: databasePath) : nil
        if let orphans = try? store?.orphanCounts() {
            let bad = orphans.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            checks.append(bad.isEmpty
                ? Check(name: "database rows", status: .ok, detail: "no orphan rows; full-text index matches the texts", fix: nil)
                : Check(name: "database rows", status: .problem, detail: bad.map { "\($0.key): \($0.value)" }.joined(separator: ", "),
                        fix: "lens reindex --entities, then lens graph --rebuild; if it stays, re-import into a new database with --db"))
        }
        // Texts stored before Lens masked secrets (or restored from an old backup) may hold them.
        if let unchecked = try? store?.uncheckedTextCount() {
            checks.append(unchecked == 0
                ? Check(name: "secret masking", status: .ok, detail: "every stored text went through it", fix: nil)
                : Check(name: "secret masking", status: .problem,
                        detail: "\(unchecked) stored texts were never checked for secrets (stored before Lens masked them)",
                        fix: "lens reindex --privacy (lens watch also does it when it starts)"))
        }

        // The systemd user unit, when installed: its ExecStart must point at a lens that runs.
        if let unit = try? String(contentsOfFile: unitPath, encoding: .utf8) {
            let exec = unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }
                .map { String($0.dropFirst("ExecStart=".count).split(separator: " ").first ?? "") } ?? ""
            let binary = exec.replacingOccurrences(of: "%h", with: NSHomeDirectory())
            checks.append(FileManager.default.isExecutableFile(atPath: binary)
                ? Check(name: "systemd unit", status: .ok, detail: unitPath, fix: nil)
                : Check(name: "systemd unit", status: .problem, detail: "\(unitPath) runs \(binary), which is not there",
                        fix: ServiceInstructions.sourceFolder().map { "bash \($0)/scripts/install.sh (installs the binary where the unit expects it)" }
                            ?? "install lens at \(binary), or edit ExecStart in \(unitPath)"))
        } else {
            checks.append(Check(name: "systemd unit", status: .note, detail: "not installed at \(unitPath) (optional)",
                                fix: ServiceInstructions.steps(unitPath: unitPath).joined(separator: "; then ")))
        }
        report.checks = checks
        return report
    }

    static func readNumber(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Folders under `root` (itself included) that a watch needs, not following links; stops
    /// counting at 1,000,000.
    static func folderCount(under root: String, recursive: Bool) -> Int {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue else { return 0 }
        guard recursive else { return 1 }
        var count = 0, pending = [root]
        while let folder = pending.popLast(), count < 1_000_000 {
            count += 1
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                var info = stat()
                let child = folder + "/" + name
                if child.withSystemPath({ lstat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR { pending.append(child) }
            }
        }
        return count
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
