import ArgumentParser
import Foundation
import LensApp
import LensCore
import LensWeb
import Logging
import ServiceLifecycle

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Index new screenshots as they land in the watched folders (the daemon).",
        discussion: """
            Watches the folders of the configuration file (see 'lens init'), or those given with \
            --folder, with inotify. At start every folder is scanned, so files added, changed or \
            removed while Lens was not running are handled. A new file is read once its size and \
            modification time have held still for stability_ms. SIGTERM or Ctrl-C stops taking \
            new files, lets recognition in progress finish and exits 0. Under systemd it reports \
            readiness (Type=notify).

            Examples:
              lens watch
              lens watch --folder ~/Pictures/Screenshots --log-level debug
              lens watch --store postgresql://lens@db.internal/lens --folder /srv/shots --workers 0
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The configuration file.", discussion: "Defaults to $LENS_CONFIG, else $XDG_CONFIG_HOME/lens/config.toml, else ~/.config/lens/config.toml.", valueName: "path"))
    var config: String?

    @Option(name: .customLong("folder"), help: ArgumentHelp("Watch this folder instead of the configured ones (repeatable).", valueName: "dir"))
    var folders: [String] = []

    @Option(help: ArgumentHelp("How many images to recognize at once (default: the configuration's, else the number of cores).",
                               discussion: "With a shared library (--store), 0 only queues: 'lens worker' processes on other hosts recognize."))
    var workers: Int?

    func run() async throws {
        let configPath = ConfigurationFile.path(explicit: config)
        var settings: LensConfiguration
        do {
            settings = try ConfigurationFile.load(configPath)
            try ConfigurationFile.checkLanguages(of: settings, file: configPath)
        } catch {
            throw LensCLIError(message: "\(error)")
        }
        if !folders.isEmpty {
            settings.folders = folders.map { LensConfiguration.Folder(path: LensLocations.absolute($0)) }
        }
        guard !settings.folders.filter(\.isEnabled).isEmpty else {
            throw LensCLIError(message: "no folder to watch: run 'lens init FOLDER' or pass --folder DIR (\(configPath))")
        }
        for folder in settings.folders where folder.isEnabled && !FileManager.default.fileExists(atPath: folder.path) {
            throw LensCLIError(message: "the watched folder \(folder.path) does not exist")
        }
        var globalOptions = global
        let shared = try globalOptions.storeAddress().isPostgreSQL
        if !shared, globalOptions.db == nil, let database = settings.database { globalOptions.db = database }
        if workers == 0, !shared {
            throw LensCLIError(message: "--workers 0 only queues, for a shared library (--store postgresql://…) whose workers recognize elsewhere")
        }
        if globalOptions.logLevel == "warning" { globalOptions.logLevel = settings.logLevel }
        let library = try globalOptions.openLibrary(creating: true)
        let logger = Logger(label: "lens.watch")
        var importOptions = ImportOptions(
            workers: workers ?? settings.workers ?? ProcessInfo.processInfo.activeProcessorCount,
            recognizer: .init(languages: settings.languages.joined(separator: "+"), maximumPixels: settings.maximumPixels,
                              timeLimit: .seconds(settings.ocrTimeoutSeconds)),
            maximumFileBytes: settings.maximumFileBytes,
            retryPolicy: .daemon,
            region: settings.region,
            symlinks: settings.symlinks)
        importOptions.privacy = settings.privacy
        importOptions.phoneRegions = settings.phoneRegions
        let options = WatchOptions(
            folders: settings.folders,
            stabilitySeconds: Double(settings.stabilityMilliseconds) / 1000,
            importOptions: importOptions,
            reloadFolders: { [folders] in
                // --folder pins the folders; otherwise SIGHUP re-reads the file.
                guard folders.isEmpty else { return folders.map { LensConfiguration.Folder(path: LensLocations.absolute($0)) } }
                let reloaded = try ConfigurationFile.load(configPath)
                try ConfigurationFile.checkLanguages(of: reloaded, file: configPath)
                return reloaded.folders
            })
        do {
            var alongside: [any Service] = []
            if settings.web.isEnabled {
                alongside.append(try WebServer.makeApplication(
                    library: library, settings: WebSettings(settings, listen: settings.web.listen), logger: Logger(label: "lens.web"),
                    onRunning: { url in logger.notice("the web page is at \(url)") }))
            }
            try await WatchDaemon.run(library: library, options: options, logger: logger, alongside: alongside)
            if WatchDaemon.leftAThreadRunning {
                // Everything else has stopped; the idle thread's writes are one transaction each.
                fflush(nil)
                _exit(0)
            }
        } catch let error as WebServerError {
            throw LensCLIError(message: "[web]: \(error.description)")
        } catch {
            throw LensCLIError(message: "watch stopped: " + (Library.explanation(of: error, path: globalOptions.databasePath) ?? "\(error)"))
        }
    }
}
