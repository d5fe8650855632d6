import ArgumentParser
import Foundation
import LensApp
import LensCore

/// Entry point: fix the OpenMP environment, parse, run, and map errors to Lens's exit codes
/// (0 ok, 1 some files failed, 2 usage, configuration or environment error).
@main
enum Main {
    static func main() async {
        OpenMPLimit.reexecIfNeeded()
        do {
            var command = try Lens.parseAsRoot(Main.arguments == ["-V"] ? ["--version"] : Main.arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as LensCLIError {
            FileHandle.standardError.write(Data("lens: \(error.message)\n".utf8))
            exit(2)
        } catch {
            let code = Lens.exitCode(for: error)
            if code == .validationFailure, let unknown = Main.unknownCommand(in: Main.arguments) {
                FileHandle.standardError.write(Data((unknown + "\n").utf8))
                exit(2)
            }
            if code == .validationFailure {
                FileHandle.standardError.write(Data((Lens.fullMessage(for: error) + "\n").utf8))
                exit(2)
            }
            if code != .success && !(error is ExitCode) {
                let message = Library.explanation(of: error, path: "the database") ?? "\(error)"
                FileHandle.standardError.write(Data("lens: \(message)\n".utf8))
                exit(2)
            }
            Lens.exit(withError: error)
        }
    }
}

extension Main {
    /// The arguments, with file names that are not UTF-8 kept as ``SystemPath`` text
    /// (`CommandLine.arguments` replaces their bytes with U+FFFD, and the file is then not found).
    static var arguments: [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return SystemPath.string(fromBytes: UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) })
        }
    }
}

extension Main {
    /// "unknown command" with the nearest command's name, when the first argument names no
    /// command (`lens serch invoice` would otherwise be "2 unexpected arguments").
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = Lens.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        var message = "lens: '\(OutputStyle.visible(first))' is not a lens command."
        if let nearest = Suggestion.nearest(to: first, among: names) {
            message += " Did you mean '\(nearest)'?"
        }
        return message + " See 'lens --help' for the commands."
    }
}

/// The candidate nearest to a mistyped word, within two edits (one for words of four letters or
/// fewer), or `nil`.
enum Suggestion {
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        let limit = typed.count <= 4 ? 1 : 2
        return candidates
            .compactMap { candidate in EditDistance.levenshtein(typed.lowercased(), candidate, limit: limit).map { (candidate, $0) } }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }
}

/// An error the user can fix; printed as `lens: message`, exit status 2.
struct LensCLIError: Error {
    var message: String
}

struct Lens: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lens",
        abstract: "Find every screenshot by the text in it.",
        discussion: """
            Lens recognizes the text in your screenshots with Tesseract and indexes it with SQLite \
            full-text search. Import a folder, then search it:

              lens import ~/Pictures/Screenshots
              lens search "invoice 2024"
            """,
        version: LensVersion.current,
        subcommands: [InitCommand.self, ImportCommand.self, WatchCommand.self, WorkerCommand.self, RetryCommand.self, SearchCommand.self, SimilarCommand.self, ShowCommand.self, TagCommand.self, UntagCommand.self, TagsCommand.self, NoteCommand.self, ExtractCommand.self, EntitiesCommand.self, ReindexCommand.self, GraphCommand.self, LinkCommand.self, UnlinkCommand.self, DeleteCommand.self, UndoCommand.self, RedoCommand.self, HistoryCommand.self, ExportCommand.self, RestoreCommand.self, StatusCommand.self, StatsCommand.self, GcCommand.self, DoctorCommand.self, ServeCommand.self, OpenCommand.self, McpCommand.self, VersionCommand.self]
    )
}

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file to use.",
        discussion: "Defaults to $LENS_DB, else $XDG_DATA_HOME/lens/lens.db, else ~/.local/share/lens/lens.db.",
        valueName: "path"))
    var db: String?

    @Option(name: .long, help: ArgumentHelp(
        "Where the library lives: a postgresql:// URL for a team library, or a SQLite file.",
        discussion: "Defaults to $LENS_STORE, else [store] url in the configuration file, else the --db file.",
        valueName: "url"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("How much to log on standard error: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: String = "warning"

    var databasePath: String { LensLocations.databasePath(explicit: db) }

    /// The library's address: `--store`, `$LENS_STORE`, the configuration's `[store] url`, else
    /// the SQLite file (`--db`).
    func storeAddress() throws -> StoreAddress {
        if db != nil && store != nil { throw LensCLIError(message: "give --db or --store, not both") }
        if db == nil, let text = store ?? ProcessInfo.processInfo.environment["LENS_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do { return try StoreAddress(text) } catch { throw LensCLIError(message: error.description) }
        }
        if db == nil, store == nil,
           let configured = (try? ConfigurationFile.load(ConfigurationFile.path(explicit: nil)))?.store {
            return configured
        }
        return .sqlite(path: databasePath)
    }

    func validate() throws {
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ValidationError("'\(logLevel)' is not a log level: use trace, debug, info, notice, warning, error or critical.")
        }
    }

    /// Opens the library, turning failures into a message that names the file. Only the commands
    /// that bring screenshots in (`import`, `watch`, `restore`) create it: any other command given
    /// a path where there is no library (a typo in `--db`) says so, rather than answering from a
    /// new, empty one.
    func openLibrary(creating: Bool = false, lease: Double = Library.defaultLease) throws -> Library {
        Logging.bootstrap(level: logLevel)
        let address = try storeAddress()
        if case .postgresql = address {
            do {
                return try Library(store: address, lease: lease)
            } catch {
                throw LensCLIError(message: "\(error)")
            }
        }
        if !creating && !FileManager.default.fileExists(atPath: databasePath) {
            throw LensCLIError(message: "there is no library at \(OutputStyle.visible(databasePath)): 'lens import FOLDER' creates it "
                               + "(or give the right --db, or set LENS_DB)")
        }
        do {
            return try Library(databasePath: databasePath)
        } catch {
            throw LensCLIError(message: Library.explanation(of: error, path: databasePath)
                               ?? "cannot open the database \(databasePath): \(error)")
        }
    }
}

func printJSON(_ value: some Encodable) throws {
    print(try JSONOutput.encode(value))
}
