import ArgumentParser
import Foundation
import LensApp
import LensCore
import Logging

struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Recognize and index the images in files and folders.",
        discussion: """
            Folders are walked recursively (hidden entries are skipped). Images are recognized by \
            their bytes (PNG, JPEG, WebP, TIFF, GIF, BMP), not their names. Content already indexed \
            is not recognized again: the same bytes under a new name only add the path. Work left \
            over by an interrupted import is finished first; with no paths, only that work is done.

            The exit status is 1 when any file failed; each failure is listed with its reason.

            Examples:
              lens import ~/Pictures/Screenshots
              lens import --json shot.png other-folder
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Files and folders to import.", valueName: "path"))
    var paths: [String] = []

    @Option(help: "How many images to recognize at once (default: the number of cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Tesseract languages, joined with '+'.", valueName: "langs"))
    var languages: String = "eng"

    @OptionGroup var regionOption: RegionOption
    @OptionGroup var configOption: ConfigOption

    @Option(help: ArgumentHelp("Refuse files larger than this many megabytes, unread.", valueName: "mb"))
    var maxFileMb: Int = 256

    @Option(help: ArgumentHelp("Refuse images of more than this many megapixels, from their header.", valueName: "mpx"))
    var maxMegapixels: Int = 64

    @Option(help: ArgumentHelp("Stop recognizing an image after this many seconds and list it as failed.", valueName: "seconds"))
    var ocrTimeout: Int?

    @Option(help: ArgumentHelp("Symbolic links inside the folders: inside (followed when they point inside the folders), follow or never.",
                               valueName: "policy"))
    var symlinks: String = "inside"

    @Flag(help: "Print the summary as one JSON object.")
    var json = false

    @Flag(help: "Do not draw a progress bar, even on a terminal.")
    var noProgress = false

    @Flag(help: "Do not read the new texts for meaning after OCR ('lens watch' or 'lens reindex --embeddings' does it later).")
    var skipMeaning = false

    @Flag(help: "Only queue the images: 'lens worker' processes on this or other hosts recognize them (a PostgreSQL --store).")
    var queueOnly = false

    func validate() throws {
        guard (1...64).contains(workers) else { throw ValidationError("--workers must be between 1 and 64.") }
        guard (1...4096).contains(maxFileMb) else { throw ValidationError("--max-file-mb must be between 1 and 4096.") }
        guard (1...1000).contains(maxMegapixels) else { throw ValidationError("--max-megapixels must be between 1 and 1000.") }
        if let ocrTimeout, !(1...3600).contains(ocrTimeout) { throw ValidationError("--ocr-timeout must be between 1 and 3600 seconds.") }
        guard LensConfiguration.SymlinkPolicy(rawValue: symlinks) != nil else {
            throw ValidationError("--symlinks must be inside, follow or never.")
        }
        for path in paths where path.withSystemPath({ access($0, F_OK) }) != 0 {
            throw ValidationError("'\(OutputStyle.visible(path))' does not exist.")
        }
    }

    func run() async throws {
        let settings = try configOption.load()
        let library = try global.openLibrary(creating: true)
        var options = ImportOptions(workers: workers, recognizer: .init(languages: languages, maximumPixels: maxMegapixels * 1_000_000,
                                                                        timeLimit: .seconds(ocrTimeout ?? settings.ocrTimeoutSeconds)),
                                    maximumFileBytes: maxFileMb << 20, region: regionOption.region,
                                    symlinks: LensConfiguration.SymlinkPolicy(rawValue: symlinks)!)
        options.folders = settings.folders // their tags (and masks) go to the screenshots under them
        options.privacy = settings.privacy
        options.phoneRegions = settings.phoneRegions
        options.queueOnly = queueOnly
        if queueOnly && !library.isPostgreSQL {
            throw LensCLIError(message: "--queue-only needs a shared library (--store postgresql://…): 'lens watch' or the next 'lens import' recognizes what a SQLite library queues")
        }
        let importer = Importer(library: library, options: options, logger: Logger(label: "lens.import"))
        let bar = !noProgress && isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
        let summary: ImportSummary
        do {
            summary = try await importer.run(paths: paths) { bar?.update($0) }
        } catch {
            bar?.finish()
            throw LensCLIError(message: "import stopped: " + (Library.explanation(of: error, path: global.databasePath) ?? "\(error)"))
        }
        bar?.finish()
        // After OCR: the texts are searchable by their words already; this makes them findable
        // by meaning too. Without the model, the import is complete all the same.
        var meaning = ""
        if !skipMeaning && summary.recognized > 0 {
            do {
                let start = ContinuousClock.now
                let report = try library.fillEmbeddings(with: try EmbeddingModel.load())
                meaning = String(format: "; %d read for meaning in %.1f s", report.made, (ContinuousClock.now - start).seconds)
            } catch {
                FileHandle.standardError.write(Data("lens: search by meaning is off: \(error)\n".utf8))
            }
        }
        if json {
            try printJSON(summary)
        } else {
            for failure in summary.failed {
                print("failed: \(OutputStyle.visible(failure.path)): \(failure.reason)")
            }
            // The rate only when something was recognized (453 images/s of nothing says nothing).
            let rate = summary.recognized > 0 ? String(format: " (%.2f images/s)", summary.imagesPerSecond) : ""
            if queueOnly {
                print(String(format: "%d queued for workers, %d already known, %d skipped (not images), %d failed in %.1f s",
                             summary.added, summary.known, summary.skipped, summary.failed.count, summary.seconds))
                if !summary.failed.isEmpty { throw ExitCode(1) }
                return
            }
            print(String(format: "%d added, %d already known, %d skipped (not images), %d failed in %.1f s",
                         summary.added, summary.known, summary.skipped, summary.failed.count, summary.seconds) + rate + meaning)
        }
        if !summary.failed.isEmpty { throw ExitCode(1) }
    }
}
