import ArgumentParser
import Foundation
import LensApp

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the whole index to a file: enough to rebuild it without OCR.",
        discussion: """
            The JSON export holds, for every screenshot, its content hash, paths, text, word \
            confidences and boxes, codes, entities, tags, note, manual links, state and dates. It is \
            JSON Lines (a header line, then one screenshot per line), written as it is read, so a \
            library of any size needs little memory. 'lens restore' reads it back. The CSV export \
            is one row per screenshot, for spreadsheets. A file is created 0600, and appears under \
            its name only once complete.

            Examples:
              lens export --output ~/lens-backup.jsonl
              lens export --format csv --output screenshots.csv
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("json (for lens restore) or csv (for spreadsheets).", valueName: "format"))
    var format: String = "json"

    @Option(help: ArgumentHelp("The file to write; default: standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard BackupUseCases.Format(rawValue: format) != nil else { throw ValidationError("--format must be json or csv.") }
    }

    func run() throws {
        let library = try global.openLibrary()
        do {
            let count = try BackupUseCases.export(library, format: BackupUseCases.Format(rawValue: format)!, to: output)
            if let output { FileHandle.standardError.write(Data("exported \(count) screenshot(s) to \(output)\n".utf8)) }
        } catch let error as BackupError {
            throw LensCLIError(message: error.message)
        }
    }
}

struct RestoreCommand: ParsableCommand {
    enum Mode: String, EnumerableFlag {
        case merge, replace

        static func help(for value: Mode) -> ArgumentHelp? {
            switch value {
            case .merge: "Add what the index lacks; screenshots already here keep their local text, tags and note (the default)."
            case .replace: "Empty the index first, then restore the export as it is (cannot be undone)."
            }
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Rebuild the index from a 'lens export' file, without OCR.",
        discussion: """
            The whole file is checked first; a problem is reported with its line and the record's \
            content hash, and nothing changes. Then it is restored in one transaction, the secrets in \
            its texts are masked as [privacy] says (an export made before Lens masked them holds \
            them), and the mind map is recomputed. A merge is a batch that 'lens undo' reverts.

            Examples:
              lens restore ~/lens-backup.jsonl
              lens restore --replace ~/lens-backup.jsonl --db ~/new.db
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The export to restore.", valueName: "file"))
    var file: String

    @Flag var mode: Mode = .merge

    @Flag(help: "Print one JSON object {batch, added, kept, replaced}.")
    var json = false

    @OptionGroup var configOption: ConfigOption

    func validate() throws {
        guard FileManager.default.isReadableFile(atPath: file) else { throw ValidationError("'\(file)' does not exist or cannot be read.") }
    }

    func run() throws {
        let settings = try configOption.load()
        let path = global.databasePath
        let isNew = !FileManager.default.fileExists(atPath: path)
        let report: RestoreReport
        do {
            let library = try global.openLibrary(creating: true)
            report = try BackupUseCases.restore(library, from: LensLocations.absolute(file), replacing: mode == .replace,
                                                privacy: settings.privacy, region: settings.region)
        } catch {
            // A refused restore into a library it created leaves nothing behind.
            if isNew { for file in [path, path + "-wal", path + "-shm", path + ".crashes"] { unlink(file) } }
            if let error = error as? BackupError { throw LensCLIError(message: error.message + "; nothing was changed") }
            throw error
        }
        if json {
            try printJSON(report)
        } else {
            print("batch \(report.batch): \(report.added) screenshot(s) restored, \(report.kept) already here and kept"
                  + (report.replaced ? " (the index was replaced)" : ""))
        }
    }
}
