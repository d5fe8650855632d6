import ArgumentParser
import Foundation
import LensApp

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that Lens has what it needs, and print the exact fix for each problem.",
        discussion: """
            Checks Tesseract and its languages, OpenMP, SQLite FTS5, libphonenumber, the public \
            suffix list, GraphViz, the configuration and its folders, the inotify limits against \
            the folders watched, the database (integrity, orphan rows, the full-text index) and \
            the systemd user unit; for a shared library (--store postgresql://…), the server, \
            whether the connection is encrypted, the schema, claims past their lease and the \
            entity counts. Exits 1 when a problem is found; notes are optional things.

            Examples:
              lens doctor
              lens doctor --json | jq '.checks[] | select(.status != "ok")'
              lens doctor --store postgresql://lens@db.internal/lens?sslmode=verify-full
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The configuration file to check.", discussion: "Defaults to $LENS_CONFIG, else $XDG_CONFIG_HOME/lens/config.toml, else ~/.config/lens/config.toml.", valueName: "path"))
    var config: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let report = DoctorReport.collect(store: try global.storeAddress(), configPath: ConfigurationFile.path(explicit: config),
                                          unitPath: ServiceInstructions.unitPath())
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
        for check in report.checks {
            print("\(check.name):".padding(toLength: 18, withPad: " ", startingAt: 0) + (check.status == .ok ? "ok, " : "")
                  + OutputStyle.visible(check.detail))
            if check.status != .ok, let fix = check.fix { print("  \(check.status.rawValue): fix: \(fix)") }
        }
        problems += report.problemCount
        if problems > 0 { throw ExitCode(1) }
    }
}
