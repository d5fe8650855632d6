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
            folder when they went there. A batch can be undone once, within undo_days (30) days, \
            and brought back by 'lens redo' until then.

            Undoing an import, or any batch of more than 100 screenshots, asks first on a terminal \
            and needs --yes in scripts. An import still running cannot be undone (nor can anything \
            else while it runs).

            Examples:
              lens undo
              lens history && lens undo 12
              lens redo
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Argument(help: ArgumentHelp("The batch to undo (from 'lens history'); default: the newest not yet undone.", valueName: "batch"))
    var batch: Int64?

    @Flag(help: "Do not ask for confirmation before undoing an import or a large batch.")
    var yes = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let settings = try configOption.load()
        let library = try global.openLibrary()
        let report: UndoReport
        do {
            let (candidate, needsConfirmation) = try HistoryUseCases.undoCandidate(library, batch: batch, undoDays: settings.undoDays)
            if needsConfirmation && !yes {
                let what = "batch \(candidate.id) (\(candidate.kind.rawValue) of \(OutputStyle.visible(candidate.summary)), "
                    + "\(candidate.items) screenshot(s), with their tags and notes)"
                guard isatty(STDIN_FILENO) == 1 else {
                    throw LensCLIError(message: "undoing \(what) takes them out of the library: confirm on a terminal, or add --yes")
                }
                FileHandle.standardError.write(Data("Undo \(what)? 'lens redo' brings it back. [y/N] ".utf8))
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    throw LensCLIError(message: "nothing was undone")
                }
            }
            // The batch confirmed, not whatever is newest by now.
            report = try HistoryUseCases.undo(library, batch: candidate.id, undoDays: settings.undoDays)
        } catch let error as UndoError {
            throw LensCLIError(message: error.description)
        }
        try HistoryPrinter.print(report, verb: "undid", json: json)
    }
}

struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Bring back the last undone batch (or the batch given), without OCR.",
        discussion: """
            Redoing an undone import or restore brings its screenshots back as they were when \
            they were undone (ids, text, tags, notes, links); redoing an undone delete deletes \
            them from the index again (files stay where the undo put them). Possible within \
            undo_days, until 'lens gc' lets go of what it needs.

            Examples:
              lens redo
              lens redo 12
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Argument(help: ArgumentHelp("The batch to redo (from 'lens history'); default: the one undone last.", valueName: "batch"))
    var batch: Int64?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let settings = try configOption.load()
        let library = try global.openLibrary()
        let report: UndoReport
        do {
            report = try HistoryUseCases.redo(library, batch: batch, undoDays: settings.undoDays)
        } catch let error as UndoError {
            throw LensCLIError(message: error.description)
        }
        try HistoryPrinter.print(report, verb: "redid", json: json)
    }
}

/// How undo and redo report what they did.
enum HistoryPrinter {
    static func print(_ report: UndoReport, verb: String, json: Bool) throws {
        if json {
            try printJSON(report)
            return
        }
        for file in report.files {
            Swift.print("\(file.action == .restored ? "restored" : "kept") \(OutputStyle.visible(file.path))" + (file.detail.map { ": \($0)" } ?? ""))
        }
        let kind = report.batch.kind.rawValue
        // Undoing a delete, or redoing an import or restore, brings screenshots back.
        if (report.batch.kind == .delete) == (verb == "undid") {
            Swift.print("\(verb) batch \(report.batch.id) (\(kind)): \(report.restored.count) screenshot(s) back: "
                        + report.restored.map(String.init).joined(separator: " "))
        } else {
            Swift.print("\(verb) batch \(report.batch.id) (\(kind)): \(report.removed) screenshot(s) taken out")
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

    @Option(parsing: .unconditional, help: ArgumentHelp("How many batches to list.", valueName: "n"))
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
            let state = batch.undoneAt.map { " (undone \(format.string(from: $0)); lens redo \(batch.id) brings it back)" }
                ?? batch.redoneAt.map { " (redone \(format.string(from: $0)))" }
                ?? (batch.finishedAt == nil ? (batch.pid.map { " (running in process \($0), or interrupted)" } ?? " (interrupted)") : "")
            print("\(batch.id)\t\(format.string(from: batch.startedAt))\t\(batch.kind.rawValue)\t\(batch.items) screenshot(s)\t"
                  + OutputStyle.visible(batch.summary) + state)
        }
        if batches.isEmpty { print("no batches yet: imports, deletes and restores appear here") }
    }
}
