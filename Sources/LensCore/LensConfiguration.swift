/// Lens's settings, as read from `config.toml`. Pure values with their defaults; loading and
/// path expansion happen in LensApp.
public struct LensConfiguration: Sendable, Equatable {
    /// The database file; `nil` means the XDG default.
    public var database: String?
    /// OCR workers; `nil` means one per core.
    public var workers: Int?
    /// Tesseract languages for folders that do not set their own, e.g. `["eng", "deu"]`.
    public var languages: [String]
    /// ISO 3166 region for phone numbers written without a country code and for numeric dates
    /// (`03/05/2024` is March in `US`, May elsewhere).
    public var region: String
    /// Regions whose national phone numbers are read, in order, when a number is no number of
    /// `region` and its text points to no country (`regions = ["DE", "FR"]`).
    public var phoneRegions: [String] = []
    /// How long a new file's size and mtime must stay unchanged before it is read.
    public var stabilityMilliseconds: Int
    public var logLevel: String
    public var folders: [Folder]
    /// Files larger than this are refused without being read (`max_file_mb`).
    public var maximumFileBytes: Int = 256 << 20
    /// Images with more pixels than this are refused from their header, before decoding
    /// (`max_megapixels`): a 150 KB PNG can declare 900 Mpx.
    public var maximumPixels: Int = 64_000_000
    /// How long recognizing one image may take before it is stopped and failed (`ocr_timeout_s`),
    /// so that one slow image (a photo of noise, a huge page) cannot hold a worker for minutes.
    public var ocrTimeoutSeconds: Int = 60
    /// Which symbolic links inside watched or imported folders are followed (`symlinks`).
    public var symlinks: SymlinkPolicy = .inside
    /// Where `lens delete --file` moves files so `lens undo` can bring them back (`trash`);
    /// `nil`: such files are deleted for good, after confirmation.
    public var trashFolder: String?
    /// How long a batch (an import run, a delete) can be undone (`undo_days`); after that,
    /// `lens gc` lets go of what the undo needed, trashed files included.
    public var undoDays: Int = 30
    /// How long a screenshot's files must all have been gone before `lens gc` removes it.
    public var gcGraceDays: Int = 30
    /// Where the library lives when it is not the SQLite file (`[store] url = "postgresql://…"`).
    public var store: StoreAddress?
    /// The local web page (`[web]`).
    public var web = Web()
    /// What is masked before anything is stored (`[privacy]`).
    public var privacy = Privacy()

    /// `[privacy]`: the kinds of secrets masked before anything is stored, and the kinds that make
    /// Lens keep no text of a screenshot at all.
    public struct Privacy: Sendable, Equatable {
        /// Masked in text, code payloads and everything made from them (all kinds by default).
        public var mask: Set<SecretKind> = Set(SecretKind.allCases)
        /// A screenshot with one of these is recorded without any text (`skip_images_with`; none by default).
        public var skipImagesWith: Set<SecretKind> = []

        public init() {}
    }

    /// `[web]`: the page `lens serve` shows, and whether `lens watch` serves it too.
    public struct Web: Sendable, Equatable {
        /// `lens watch` serves the page while it indexes.
        public var isEnabled = false
        /// Where to listen; loopback unless a token is set.
        public var listen = ListenAddress.default
        /// Required on every request when set; a non-loopback `listen` is refused without one.
        public var token: String?

        public init() {}
    }

    public init(database: String? = nil, workers: Int? = nil, languages: [String] = ["eng"], region: String = "US",
                stabilityMilliseconds: Int = Self.defaultStabilityMilliseconds, logLevel: String = "info", folders: [Folder] = []) {
        self.database = database
        self.workers = workers
        self.languages = languages
        self.region = region
        self.stabilityMilliseconds = stabilityMilliseconds
        self.logLevel = logLevel
        self.folders = folders
    }

    /// 200 ms: the daemon's overhead from a rename to searchable text is this delay plus ~5 ms
    /// (lens-bench latency: p50 0.305 s at 300 ms, 0.105 s at 100 ms; the goal is 0.3 s), while a
    /// writer that closes and reopens the file within 200 ms is still waited for.
    public static let defaultStabilityMilliseconds = 200
    /// How often a folder on a network share is rescanned when its `poll_interval` is not set.
    public static let defaultPollSeconds: Double = 30
    /// How often a tree that hit the inotify watch limit is rescanned.
    public static let watchLimitRescanSeconds: Double = 60
    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// One watched folder (`[[folders]]`).
    public struct Folder: Sendable, Equatable {
        public var path: String
        public var recursive: Bool
        /// Globs a file name must match (empty: every name).
        public var include: [String]
        /// Globs of file or folder names to skip.
        public var exclude: [String]
        /// Overrides the global languages.
        public var languages: [String]?
        /// Overrides the global region.
        public var region: String?
        /// The auto-import toggle: a disabled folder is kept in the config but not watched.
        public var isEnabled: Bool
        /// Delete the original once its record and text are durable (off by default; dangerous).
        public var deletesAfterImport: Bool
        /// Poll every this many seconds instead of relying on inotify (network shares are
        /// detected and polled automatically); `nil` means inotify.
        public var pollInterval: Double?
        /// Tags given to every screenshot recognized from this folder (`tags`).
        public var tags: [String] = []
        /// Overrides `[privacy] mask` for this folder (`mask`).
        public var mask: Set<SecretKind>?

        public init(path: String, recursive: Bool = true, include: [String] = [], exclude: [String] = Self.defaultExcludes,
                    languages: [String]? = nil, isEnabled: Bool = true, deletesAfterImport: Bool = false, pollInterval: Double? = nil) {
            self.path = path
            self.recursive = recursive
            self.include = include
            self.exclude = exclude
            self.languages = languages
            self.isEnabled = isEnabled
            self.deletesAfterImport = deletesAfterImport
            self.pollInterval = pollInterval
        }

        /// Hidden files, partial downloads, editor temp files and trash folders.
        public static let defaultExcludes = [".*", "*.part", "*.crdownload", "~*", ".Trash*"]
    }

    /// Which symbolic links a walk follows. Links given on the command line are always followed.
    public enum SymlinkPolicy: String, Sendable, CaseIterable {
        /// Links whose target lies inside one of the folders being read (the default): a link
        /// cannot make Lens read `~/.ssh` because it sits in `~/Pictures/Screenshots`.
        case inside
        /// Every link, wherever it points.
        case follow
        /// No link (they are skipped quietly).
        case never
    }

    /// Tags are words: letters, digits, `-`, `_`, `.`, at most 64 characters (so `--tag` and the
    /// search index agree).
    public static func isTag(_ tag: String) -> Bool {
        !tag.isEmpty && tag.count <= 64
            && tag.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    /// Two upper-case ASCII letters, e.g. `US`.
    public static func isRegionCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// Problems that make the configuration unusable, each naming the key (e.g. `folders[2].path`).
    public func problems() -> [(key: String, message: String)] {
        var found: [(String, String)] = []
        if let workers, !(1...64).contains(workers) { found.append(("workers", "must be between 1 and 64")) }
        if !(0...60_000).contains(stabilityMilliseconds) {
            found.append(("stability_ms", "must be between 0 and 60000 milliseconds"))
        }
        if !Self.logLevels.contains(logLevel) {
            found.append(("log_level", "must be one of \(Self.logLevels.joined(separator: ", "))"))
        }
        if languages.isEmpty { found.append(("languages", "must name at least one language")) }
        if !(1...(4 << 30)).contains(maximumFileBytes) { found.append(("max_file_mb", "must be between 1 and 4096")) }
        if !(1_000_000...1_000_000_000).contains(maximumPixels) { found.append(("max_megapixels", "must be between 1 and 1000")) }
        if !(1...3600).contains(ocrTimeoutSeconds) { found.append(("ocr_timeout_s", "must be between 1 and 3600 seconds")) }
        if !Self.isRegionCode(region) { found.append(("region", "must be a two-letter ISO 3166 code such as \"US\" or \"GB\"")) }
        if let bad = phoneRegions.first(where: { !Self.isRegionCode($0) }) {
            found.append(("regions", "\"\(bad)\" is not a two-letter ISO 3166 code such as \"US\" or \"GB\""))
        }
        if !(1...3650).contains(undoDays) { found.append(("undo_days", "must be between 1 and 3650 days")) }
        if !(0...3650).contains(gcGraceDays) { found.append(("gc_grace_days", "must be between 0 and 3650 days")) }
        if let trashFolder, !trashFolder.hasPrefix("/") { found.append(("trash", "must be an absolute path (or start with ~/)")) }
        var seen = Set<String>()
        for (index, folder) in folders.enumerated() {
            let key = "folders[\(index + 1)]"
            if !folder.path.hasPrefix("/") { found.append(("\(key).path", "must be an absolute path (or start with ~/)")) }
            if !seen.insert(folder.path).inserted { found.append(("\(key).path", "\(folder.path) is listed twice")) }
            if let interval = folder.pollInterval, !(1...86_400).contains(interval) {
                found.append(("\(key).poll_interval", "must be between 1 and 86400 seconds"))
            }
            if folder.languages?.isEmpty == true { found.append(("\(key).languages", "must name at least one language")) }
            if let bad = folder.tags.first(where: { !Self.isTag($0) }) {
                found.append(("\(key).tags", "'\(bad)' is not a tag: use letters, digits, '-', '_' or '.', without spaces"))
            }
            if let region = folder.region, !Self.isRegionCode(region) {
                found.append(("\(key).region", "must be a two-letter ISO 3166 code such as \"US\" or \"GB\""))
            }
        }
        return found
    }
}
