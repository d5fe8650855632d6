import ArgumentParser
import Foundation
import LensApp

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show how many screenshots are queued, being recognized, done and failed.",
        discussion: """
            Also shows the running daemon (its pid, since when, the folders it watches and how many \
            screenshots each holds), the images recognized in the last five minutes, the items \
            waiting to be retried, and the size of the database.

            Examples:
              lens status
              lens status --json
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let library = try global.openLibrary()
        let report = try library.status()
        if json {
            try printJSON(JSONOutput.Status(report))
            return
        }
        print("database:  \(report.database) (\(ByteCountFormatter.string(fromByteCount: Int64(report.databaseBytes), countStyle: .file)))")
        if let daemon = report.daemon {
            print("daemon:    running, pid \(daemon.pid), since \(daemon.startedAt.formatted(Date.ISO8601FormatStyle(timeZone: .current)))")
            for folder in daemon.folders {
                print("  \(OutputStyle.visible(folder)): \(report.folderCounts[folder] ?? 0) screenshot(s)")
            }
        } else if !library.isPostgreSQL {
            print("daemon:    not running")
        }
        for state in [.done, .queued, .running, .failed] as [LensCore.QueueState] {
            let waiting = state == .queued && report.waitingForRetry > 0 ? " (\(report.waitingForRetry) waiting to retry after a transient problem)" : ""
            print("\(state.rawValue):".padding(toLength: 11, withPad: " ", startingAt: 0) + "\(report.counts[state] ?? 0)" + waiting)
        }
        print("recognized in the last 5 minutes: \(report.recognizedLastFiveMinutes)")
        let reader = library.isPostgreSQL ? "lens worker" : "lens watch"
        print("read for meaning: \(report.readForMeaning) of \(report.texts) texts"
              + (report.readForMeaning < report.texts ? " (\(reader) reads the rest when idle; or lens reindex --embeddings)" : ""))
    }
}

import LensCore
