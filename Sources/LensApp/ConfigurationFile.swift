import Foundation
import LensCore
import LensOCR
import TOMLKit

/// A configuration problem, naming the file, the line when known, the key and what is wrong.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var key: String?
    public var message: String

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        return key.map { "\(place): \($0): \(message)" } ?? "\(place): \(message)"
    }
}

/// Reads and writes `config.toml`.
public enum ConfigurationFile {
    /// `--config`, else `$LENS_CONFIG`, else `$XDG_CONFIG_HOME/lens/config.toml`, else
    /// `~/.config/lens/config.toml`.
    public static func path(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit, !explicit.isEmpty { return LensLocations.absolute(explicit) }
        if let fromEnv = environment["LENS_CONFIG"], !fromEnv.isEmpty { return LensLocations.absolute(fromEnv) }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/lens/config.toml" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.config/lens/config.toml"
    }

    /// Fails, naming the key, when a language the configuration asks for has no Tesseract data:
    /// better at start than as a failure on every screenshot of that folder.
    public static func checkLanguages(of settings: LensConfiguration, file: String) throws(ConfigurationError) {
        var wanted = [("languages", settings.languages)]
        for (index, folder) in settings.folders.enumerated() where folder.isEnabled {
            if let languages = folder.languages { wanted.append(("folders[\(index + 1)].languages", languages)) }
        }
        for (key, languages) in wanted {
            let missing = Recognizer.missingLanguages(languages.joined(separator: "+"))
            if !missing.isEmpty {
                let packages = missing.map(Recognizer.debianPackage(for:))
                throw ConfigurationError(file: file, line: nil, key: key, message: """
                    no Tesseract data for \(missing.joined(separator: ", ")) (install the Debian package \(packages.joined(separator: " ")))
                    """)
            }
        }
    }

    /// Loads the file at `path`; a missing file is an empty configuration (no folders).
    public static func load(_ path: String, home: String = NSHomeDirectory()) throws(ConfigurationError) -> LensConfiguration {
        guard FileManager.default.fileExists(atPath: path) else { return LensConfiguration() }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, line: nil, key: nil, message: "cannot read the file as UTF-8 text")
        }
        return try parse(text, file: path, home: home)
    }

    private static let topLevelKeys: Set<String> = ["database", "workers", "languages", "region", "regions", "stability_ms", "log_level", "folders",
                                                         "max_file_mb", "max_megapixels", "ocr_timeout_s", "symlinks", "trash", "undo_days", "gc_grace_days", "web", "privacy", "store"]
    private static let webKeys: Set<String> = ["enabled", "listen", "token"]
    private static let storeKeys: Set<String> = ["url"]
    private static let privacyKeys: Set<String> = ["mask", "skip_images_with"]
    private static let folderKeys: Set<String> = ["path", "recursive", "include", "exclude", "languages", "region", "enabled",
                                                  "delete_after_import", "poll_interval", "tags", "mask"]

    /// Parses TOML text. Unknown keys are errors too: a misspelt key would otherwise be ignored silently.
    public static func parse(_ text: String, file: String, home: String) throws(ConfigurationError) -> LensConfiguration {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(file: file, line: error.source.begin.line, key: nil, message: "not valid TOML: \(error.description)")
        } catch {
            throw ConfigurationError(file: file, line: nil, key: nil, message: "not valid TOML: \(error)")
        }
        let locate = KeyLocator(text: text)
        func fail(_ key: String, _ message: String, folder: Int?) -> ConfigurationError {
            let shown = folder.map { "folders[\($0 + 1)].\(key)" } ?? key
            return ConfigurationError(file: file, line: locate.line(of: key, folder: folder), key: shown, message: message)
        }
        func failTop(_ key: String, _ message: String) -> ConfigurationError { fail(key, message, folder: nil) }
        for key in table.keys where !topLevelKeys.contains(key) {
            throw failTop(key, "unknown key (known: \(topLevelKeys.sorted().joined(separator: ", ")))")
        }
        var config = LensConfiguration()
        config.database = try string(table, "database", failTop).map { expand($0, home: home) }
        config.workers = try int(table, "workers", failTop)
        config.languages = try strings(table, "languages", failTop) ?? config.languages
        config.region = try string(table, "region", failTop) ?? config.region
        config.phoneRegions = try strings(table, "regions", failTop)?.map { $0.uppercased() } ?? []
        config.stabilityMilliseconds = try int(table, "stability_ms", failTop) ?? config.stabilityMilliseconds
        config.logLevel = try string(table, "log_level", failTop) ?? config.logLevel
        if let megabytes = try int(table, "max_file_mb", failTop) {
            config.maximumFileBytes = (1...4096).contains(megabytes) ? megabytes << 20 : 0
        }
        if let megapixels = try int(table, "max_megapixels", failTop) {
            config.maximumPixels = (1...1000).contains(megapixels) ? megapixels * 1_000_000 : 0
        }
        config.ocrTimeoutSeconds = try int(table, "ocr_timeout_s", failTop) ?? config.ocrTimeoutSeconds
        if let policy = try string(table, "symlinks", failTop) {
            guard let parsed = LensConfiguration.SymlinkPolicy(rawValue: policy) else {
                throw failTop("symlinks", "must be \"inside\", \"follow\" or \"never\"")
            }
            config.symlinks = parsed
        }
        config.trashFolder = try string(table, "trash", failTop).map { expand($0, home: home) }
        config.undoDays = try int(table, "undo_days", failTop) ?? config.undoDays
        config.gcGraceDays = try int(table, "gc_grace_days", failTop) ?? config.gcGraceDays
        /// A `[name]` table whose keys are all `known`, with the error maker for its keys.
        func subtable(_ name: String, known: Set<String>) throws(ConfigurationError) -> (table: TOMLTable, fail: Fail)? {
            guard let value = table[name] else { return nil }
            guard let sub = value.table else { throw failTop(name, "must be a table ([\(name)])") }
            let failHere: Fail = { key, message in
                ConfigurationError(file: file, line: locate.line(of: key, inTable: name), key: "\(name).\(key)", message: message)
            }
            for key in sub.keys where !known.contains(key) {
                throw failHere(key, "unknown key (known: \(known.sorted().joined(separator: ", ")))")
            }
            return (sub, failHere)
        }
        if let (store, failStore) = try subtable("store", known: storeKeys), let url = try string(store, "url", failStore) {
            do { config.store = try StoreAddress(url) } catch { throw failStore("url", error.reason) }
        }
        if let (web, failWeb) = try subtable("web", known: webKeys) {
            config.web.isEnabled = try bool(web, "enabled", failWeb) ?? false
            if let listen = try string(web, "listen", failWeb) {
                do { config.web.listen = try ListenAddress(parsing: listen) } catch { throw failWeb("listen", error.description) }
            }
            if let token = try string(web, "token", failWeb) {
                guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                    throw failWeb("token", "must be at least 16 printable ASCII characters (e.g. openssl rand -hex 16)")
                }
                config.web.token = token
            }
            if !config.web.listen.isLoopback && config.web.token == nil {
                throw failWeb("listen", "\(config.web.listen) is reachable from other machines: set web.token too, or listen on 127.0.0.1")
            }
        }
        if let (privacy, failPrivacy) = try subtable("privacy", known: privacyKeys) {
            config.privacy.mask = try secretKinds(privacy, "mask", failPrivacy) ?? config.privacy.mask
            config.privacy.skipImagesWith = try secretKinds(privacy, "skip_images_with", failPrivacy) ?? []
        }
        if let value = table["folders"] {
            guard let array = value.array else { throw failTop("folders", "must be an array of tables ([[folders]])") }
            for (index, element) in array.enumerated() {
                guard let folder = element.table else { throw failTop("folders", "must be an array of tables ([[folders]])") }
                func failHere(_ key: String, _ message: String) -> ConfigurationError { fail(key, message, folder: index) }
                for key in folder.keys where !folderKeys.contains(key) {
                    throw failHere(key, "unknown key (known: \(folderKeys.sorted().joined(separator: ", ")))")
                }
                guard let path = try string(folder, "path", failHere) else { throw failHere("path", "is required") }
                // Relative paths stay as written so that validation refuses them: relative to what?
                let expanded = expand(path, home: home)
                var entry = LensConfiguration.Folder(
                    path: expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded).standardizedFileURL.path : expanded)
                entry.recursive = try bool(folder, "recursive", failHere) ?? entry.recursive
                entry.include = try strings(folder, "include", failHere) ?? entry.include
                entry.exclude = try strings(folder, "exclude", failHere) ?? entry.exclude
                entry.languages = try strings(folder, "languages", failHere)
                entry.region = try string(folder, "region", failHere)
                entry.isEnabled = try bool(folder, "enabled", failHere) ?? entry.isEnabled
                entry.deletesAfterImport = try bool(folder, "delete_after_import", failHere) ?? entry.deletesAfterImport
                entry.tags = try strings(folder, "tags", failHere) ?? entry.tags
                entry.mask = try secretKinds(folder, "mask", failHere)
                if let value = folder["poll_interval"] {
                    guard let seconds = value.double ?? value.int.map(Double.init) else {
                        throw failHere("poll_interval", "must be a number of seconds")
                    }
                    entry.pollInterval = seconds
                }
                config.folders.append(entry)
            }
        }
        if let problem = config.problems().first {
            let parts = problem.key.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].hasPrefix("folders["), let n = Int(parts[0].dropFirst(8).dropLast()) {
                throw fail(parts[1], problem.message, folder: n - 1)
            }
            throw failTop(problem.key, problem.message)
        }
        return config
    }

    private typealias Fail = (String, String) -> ConfigurationError

    private static func string(_ t: TOMLTable, _ key: String, _ fail: Fail) throws(ConfigurationError) -> String? {
        guard let value = t[key] else { return nil }
        guard let s = value.string else { throw fail(key, "must be a string") }
        return s
    }

    private static func int(_ t: TOMLTable, _ key: String, _ fail: Fail) throws(ConfigurationError) -> Int? {
        guard let value = t[key] else { return nil }
        guard let n = value.int else { throw fail(key, "must be a whole number") }
        return n
    }

    private static func bool(_ t: TOMLTable, _ key: String, _ fail: Fail) throws(ConfigurationError) -> Bool? {
        guard let value = t[key] else { return nil }
        guard let b = value.bool else { throw fail(key, "must be true or false") }
        return b
    }

    private static func strings(_ t: TOMLTable, _ key: String, _ fail: Fail) throws(ConfigurationError) -> [String]? {
        guard let value = t[key] else { return nil }
        guard let array = value.array else { throw fail(key, "must be an array of strings") }
        var out: [String] = []
        for element in array {
            guard let s = element.string else { throw fail(key, "must be an array of strings") }
            out.append(s)
        }
        return out
    }

    /// An array of secret kinds (`["card", "api_key"]`).
    private static func secretKinds(_ t: TOMLTable, _ key: String, _ fail: Fail) throws(ConfigurationError) -> Set<SecretKind>? {
        guard let names = try strings(t, key, fail) else { return nil }
        var kinds = Set<SecretKind>()
        for name in names {
            guard let kind = SecretKind(rawValue: name) else {
                throw fail(key, "'\(name)' is not a kind of secret (kinds: \(SecretKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            kinds.insert(kind)
        }
        return kinds
    }

    static func expand(_ path: String, home: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst(1) }
        return path
    }
}

/// Finds the line of a key, since TOMLKit does not report where values are.
///
/// Hand-written and deliberately simple: a key at the top level is looked for before the first
/// table header; a folder's key after its `[[folders]]` header and before the next header.
struct KeyLocator {
    private let lines: [Substring]

    init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The line of `key` in the table `[name]` (e.g. `[web]`), or of the header when the key is not there.
    func line(of key: String, inTable name: String) -> Int? {
        guard let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "[\(name)]" }) else { return nil }
        let end = lines[(header + 1)...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
        for index in (header + 1)..<end {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(key), trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces).hasPrefix("=") { return index + 1 }
        }
        return header + 1
    }

    func line(of key: String, folder: Int?) -> Int? {
        var start = 0, end = lines.count
        if let folder {
            let headers = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("[[folders]]") }
            guard folder < headers.count else { return nil }
            start = headers[folder] + 1
            end = lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
            if key == "folders" { return headers[folder] + 1 }
        } else if key != "folders" {
            end = lines.firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[") } ?? lines.count
        }
        for index in start..<end {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(key) else { continue }
            let rest = trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("=") { return index + 1 }
        }
        if folder != nil { return start } // a missing key: point at its [[folders]] header
        if key == "folders", let first = lines.firstIndex(where: { $0.contains("folders") }) { return first + 1 }
        return nil
    }
}

extension ConfigurationFile {
    /// The fully commented configuration `lens init` writes, watching `folders`.
    public static func defaultText(folders: [String]) -> String {
        var text = """
            # Lens configuration. Lens reads it at start and again on SIGHUP (systemctl --user reload lens).
            # Paths may start with ~/. Unknown keys are errors, so a misspelt key cannot be ignored silently.

            # Where the index lives (default: $XDG_DATA_HOME/lens/lens.db, i.e. ~/.local/share/lens/lens.db).
            # database = "~/.local/share/lens/lens.db"

            # How many images to recognize at once (default: one per core).
            # workers = 2

            # Tesseract languages, each installed as a Debian package (tesseract-ocr-eng, tesseract-ocr-deu…).
            # ["Latin"] (tesseract-ocr-script-latn) reads accented names (García, Müller) that "eng" misses
            # and ₹, at about twice the CPU.
            languages = ["eng"]

            # The region (ISO 3166) of phone numbers written without a country code, and of numeric dates:
            # 03/05/2024 is March 5 in "US", May 3 elsewhere.
            region = "US"

            # Regions whose national phone numbers ("030 901820") are read, in this order, when a number is no
            # number of `region` and nothing in its screenshot says where it is from (a number in
            # international form, a country's address or name). Empty: such numbers are left alone.
            # regions = ["DE", "FR"]

            # A new file is read only once its size and modification time have not changed for this long,
            # so a screenshot still being written or copied is never read half-way.
            stability_ms = \(LensConfiguration.defaultStabilityMilliseconds)

            # trace, debug, info, notice, warning, error or critical.
            log_level = "info"

            # Hostile files: larger files are refused unread; images declaring more pixels are refused from
            # their header, before anything is decoded (a 150 KB PNG can declare 30000x30000).
            max_file_mb = 256
            max_megapixels = 64
            # One image may take this long to recognize; then it is stopped and listed as failed
            # ('lens retry' tries again), so a slow one never holds the rest up for long.
            ocr_timeout_s = 60

            # Symbolic links inside the folders: "inside" follows those pointing inside the watched folders,
            # "follow" every one, "never" none. A link pointing elsewhere (e.g. to ~/.ssh) is never read
            # under "inside"; it is reported with its target.
            symlinks = "inside"

            # lens delete --file moves files here, so that lens undo can put them back; without it such files
            # are deleted for good (after confirmation).
            # trash = "~/.local/share/lens/trash"

            # How many days an import run or a delete can be undone (lens history, lens undo); lens gc then
            # lets go of what the undo needed, trashed files included.
            undo_days = 30

            # lens gc removes a screenshot once every file it was seen at has been gone this many days.
            gc_grace_days = 30

            # One [[folders]] table per watched folder.
            #   path                 the folder (required)
            #   recursive            watch sub-folders too (default true)
            #   include              globs a file name must match (default: every name)
            #   exclude              globs of names to skip (default: hidden files, *.part, *.crdownload, ~*, .Trash*)
            #   languages            Tesseract languages for this folder, e.g. ["eng", "deu"]
            #   region               the region for this folder's phone numbers and dates, e.g. "DE"
            #   enabled              false keeps the folder here but stops importing from it
            #   poll_interval        seconds between scans instead of inotify; network shares (NFS, SMB, FUSE)
            #                        are detected and polled every \(Int(LensConfiguration.defaultPollSeconds)) s without it
            #   tags                 tags for every screenshot recognized from this folder, e.g. ["work"]
            #   delete_after_import  DANGER: delete each original once its text is safely stored (default false).
            #                        The file is gone from disk afterwards; only Lens's copy of the text remains.
            #                        Under systemd the folder must also be in the unit's ReadWritePaths=.

            """
        if folders.isEmpty {
            text += """
                # [[folders]]
                # path = "~/Pictures/Screenshots"

                """
        }
        for folder in folders {
            text += """
                [[folders]]
                path = "\(folder.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))"
                recursive = true
                enabled = true
                delete_after_import = false

                """
        }
        return text
    }
}
