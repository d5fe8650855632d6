import ArgumentParser
import Foundation
import LensApp

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that Tesseract, its languages, OpenMP settings, SQLite FTS5 and the database are in order.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let report = DoctorReport.collect(databasePath: global.databasePath)
        if json {
            try printJSON(report)
            return
        }
        var problems = 0
        print("tesseract:        \(report.tesseractVersion)")
        print("languages:        \(report.languages.joined(separator: ", "))")
        if report.languages.isEmpty {
            problems += 1
            print("  problem: no Tesseract language data; fix: sudo apt-get install tesseract-ocr-eng")
        }
        print("OpenMP threads:   \(report.ompThreadLimit.map(String.init) ?? "libgomp not loaded")")
        if let limit = report.ompThreadLimit, limit != 1 {
            print("  note: OMP_THREAD_LIMIT=\(report.ompThreadLimitVariable ?? "unset"); Lens runs best with 1 (the default it sets)")
        }
        print("SQLite FTS5:      \(report.fts5 ? "ok" : "missing")")
        if !report.fts5 { problems += 1 }
        print("database:         \(report.databasePath)")
        if let integrity = report.databaseIntegrity {
            print("integrity:        \(integrity.joined(separator: "; "))")
            if integrity != ["ok"] {
                problems += 1
                print("  problem: the database is damaged; fix: restore a backup, or re-import into a new database with --db")
            }
        }
        if problems > 0 { throw ExitCode(1) }
    }
}
