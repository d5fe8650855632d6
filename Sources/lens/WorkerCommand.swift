import ArgumentParser
import Foundation
import LensApp
import LensCore
import Logging
import ServiceLifecycle

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Recognize the images queued in a shared library, on this host, until stopped.",
        discussion: """
            Run any number of workers, on any hosts, against one PostgreSQL library: each claims \
            queued images one at a time, reads them from the path where they were queued (or \
            where --path-map puts that path on this host), recognizes them and stores the text. \
            A worker that dies mid-image loses nothing: another takes the image when the claim's \
            lease ends. When the queue is empty, workers read the texts for meaning (search by \
            meaning), each text by one of them. SIGTERM or Ctrl-C finishes the images in hand, then stops.

            Examples:
              lens worker --store postgresql://lens@db.internal/lens
              lens worker --store postgresql:///lens?host=/run/postgresql --workers 1
              lens worker --store … --path-map /home/ana/Pictures=/mnt/ana-pictures
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var regionOption: RegionOption
    @OptionGroup var configOption: ConfigOption

    @Option(help: "How many images to recognize at once (default: the number of cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Tesseract languages, joined with '+'.", valueName: "langs"))
    var languages: String = "eng"

    @Option(name: .customLong("path-map"), help: ArgumentHelp(
        "Read files recorded under FROM from TO on this host (a share mounted elsewhere); repeatable.", valueName: "FROM=TO"))
    var pathMap: [String] = []

    @Option(help: ArgumentHelp("How long a claim holds before another worker may take the image (seconds; longer than --ocr-timeout).",
                               valueName: "seconds"))
    var lease: Int = Int(Library.defaultLease)

    @Option(help: ArgumentHelp("Stop recognizing an image after this many seconds and record it as failed.", valueName: "seconds"))
    var ocrTimeout: Int?

    func validate() throws {
        guard (1...64).contains(workers) else { throw ValidationError("--workers must be between 1 and 64.") }
        guard (2...86_400).contains(lease) else { throw ValidationError("--lease must be between 2 and 86400 seconds.") }
        if let ocrTimeout {
            guard (1...3600).contains(ocrTimeout) else { throw ValidationError("--ocr-timeout must be between 1 and 3600 seconds.") }
            guard ocrTimeout < lease else { throw ValidationError("--lease must be longer than --ocr-timeout, or a live worker may lose the image it reads.") }
        }
        do { _ = try PathPrefixMap(parsing: pathMap) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let settings = try configOption.load()
        guard try global.storeAddress().isPostgreSQL else {
            throw LensCLIError(message: "lens worker serves a shared library: give --store postgresql://… "
                               + "(a SQLite library is recognized by 'lens watch' or 'lens import')")
        }
        let library = try global.openLibrary(lease: Double(lease))
        let timeout = ocrTimeout ?? min(settings.ocrTimeoutSeconds, lease - 1)
        var options = ImportOptions(workers: workers, recognizer: .init(languages: languages, timeLimit: .seconds(timeout)),
                                    maximumFileBytes: settings.maximumFileBytes, retryPolicy: .daemon, region: regionOption.region)
        options.folders = settings.folders
        options.privacy = settings.privacy
        options.phoneRegions = settings.phoneRegions
        let logger = Logger(label: "lens.worker")
        let services = QueueWorker.services(library: library, options: options, pathMap: try PathPrefixMap(parsing: pathMap), logger: logger)
        try await ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}
