import ArgumentParser
import Foundation
import LensApp

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the last import run, delete or restore (or the batch given).",
        discussion: """
            Undoing an import takes its new screenshots out of the index (the daemon leaves their \
            files alone afterwards; 'lens import' brings them back). Undoing a delete puts the \
            screenshots back as they were, without OCR, and their files back from the trash \
            folder when they went there. A batch can be undone once, within undo_days (30) days.

            Examples:
              lens undo
              lens history && lens undo 12
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Argument(help: ArgumentHelp("The batch to undo (from 'lens history'); default: the newest not yet undone.", valueName: "batch"))
    var batch: Int64?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let settings = try configOption.load()
        let library = try global.openLibrary()
        let report: UndoReport
        do {
            report = try HistoryUseCases.undo(library, batch: batch, undoDays: settings.undoDays)
        } catch let error as UndoError {
            throw LensCLIError(message: error.description)
        }
        if json {
            try printJSON(report)
            return
        }
        for file in report.files {
            print("\(file.action == .restored ? "restored" : "kept") \(OutputStyle.visible(file.path))" + (file.detail.map { ": \($0)" } ?? ""))
        }
        switch report.batch.kind {
        case .delete: print("undid batch \(report.batch.id) (delete): \(report.restored.count) screenshot(s) back: \(report.restored.map(String.init).joined(separator: " "))")
        default: print("undid batch \(report.batch.id) (\(report.batch.kind.rawValue)): \(report.removed) screenshot(s) taken out")
        }
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List recent import runs, deletes and restores, newest first.",
        discussion: """
            Each batch shows its number (for 'lens undo N'), when it ran, what it was about, how \
            many screenshots it added or removed, and whether it was undone.

            Example: lens history --limit 5
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("How many batches to list.", valueName: "n"))
    var limit: Int = 20

    @Flag(help: "Print a JSON array of {id, kind, started_at, finished_at, undone_at, summary, items}.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let batches = try global.openLibrary().batches(limit: limit)
        if json {
            try printJSON(batches)
            return
        }
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd HH:mm"
        for batch in batches {
            let state = batch.undoneAt.map { " (undone \(format.string(from: $0)))" } ?? (batch.finishedAt == nil ? " (interrupted)" : "")
            print("\(batch.id)\t\(format.string(from: batch.startedAt))\t\(batch.kind.rawValue)\t\(batch.items) screenshot(s)\t"
                  + OutputStyle.visible(batch.summary) + state)
        }
        if batches.isEmpty { print("no batches yet: imports, deletes and restores appear here") }
    }
}
