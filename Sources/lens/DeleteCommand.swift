import ArgumentParser
import Foundation
import LensApp

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Take screenshots out of the index, and with --file delete their files too.",
        discussion: """
            The screenshots' text, entities, connections and index rows go, as one batch that \
            'lens undo' reverts without OCR for undo_days (30) days. The daemon does not index a \
            deleted screenshot's file again; 'lens import' of that file brings it back.

            With --file, every file holding the screenshot is deleted from disk too, after you \
            confirm on a terminal (--yes for scripts). A file whose bytes changed since it was \
            indexed is kept. When the configuration names a trash folder, files are moved there \
            and 'lens undo' puts them back; otherwise they are gone for good.

            The exit status is 1 when a file could not be deleted (each is listed with the reason).

            Examples:
              lens delete 42 43
              lens delete ~/Pictures/Screenshots/secret.png --file
              lens undo
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Argument(help: ArgumentHelp("Screenshot ids or paths.", valueName: "id-or-path"))
    var targets: [String] = []

    @Flag(help: "Delete the files on disk too (into the trash folder when the configuration has one).")
    var file = false

    @Flag(help: "Do not ask for confirmation before deleting files.")
    var yes = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard !targets.isEmpty else { throw ValidationError("Give at least one screenshot id or path.") }
    }

    func run() throws {
        let settings = try configOption.load()
        let library = try global.openLibrary()
        // Every target must exist before anything is touched.
        var ids: [Int64] = [], files: [String] = []
        for target in targets {
            guard let detail = try library.screenshot(idOrPath: target) else {
                throw LensCLIError(message: "no screenshot with id or path '\(target)'; nothing was deleted")
            }
            ids.append(detail.id)
            files += detail.paths
        }
        if file, !yes, !files.isEmpty {
            guard isatty(STDIN_FILENO) == 1 else {
                throw LensCLIError(message: "--file deletes \(files.count) file(s) from disk: confirm on a terminal, or add --yes")
            }
            let destination = settings.trashFolder.map { "move to the trash (\($0))" } ?? "delete for good"
            FileHandle.standardError.write(Data((files.map { "  \(OutputStyle.visible($0))\n" }.joined()
                + "\(destination.prefix(1).uppercased() + destination.dropFirst()) these \(files.count) file(s)? [y/N] ").utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                throw LensCLIError(message: "nothing was deleted")
            }
        }
        let report = try HistoryUseCases.delete(library, ids: ids, deletingFiles: file, trashFolder: settings.trashFolder)
        if json {
            try printJSON(report)
        } else {
            for item in report.removed {
                print("removed \(item.id): " + item.paths.map { OutputStyle.visible($0) }.joined(separator: ", "))
            }
            for action in report.files {
                let detail = action.detail.map { ": \(OutputStyle.visible($0))" } ?? ""
                print("\(action.action.rawValue) \(OutputStyle.visible(action.path))\(detail)")
            }
            print("batch \(report.batch): \(report.removed.count) screenshot(s) removed; 'lens undo' brings them back")
        }
        if report.files.contains(where: { $0.action == .kept }) { throw ExitCode(1) }
    }
}
