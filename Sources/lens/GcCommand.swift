import ArgumentParser
import Foundation
import LensApp
import LensStore

struct GcCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove screenshots whose files have all been gone for a while, and give the space back.",
        discussion: """
            A screenshot is removed when every path it was seen at has been gone for longer than \
            --older-than days: its text, entities, codes and connections go with it. The full-text \
            index is then merged, and the file is compacted (VACUUM) when a fifth of it is free. \
            Safe with the daemon running.

            Examples:
              lens gc --dry-run
              lens gc --older-than 90
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Days a screenshot's files must have been gone.", valueName: "days"))
    var olderThan: Double = 30

    @Flag(help: "Only list what would be removed.")
    var dryRun = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard olderThan >= 0 else { throw ValidationError("--older-than must be 0 or more days.") }
    }

    func run() throws {
        let library = try global.openLibrary()
        let report = try library.database.collectGarbage(goneBefore: Date().timeIntervalSince1970 - olderThan * 86_400, dryRun: dryRun)
        if json {
            struct Output: Encodable {
                struct Item: Encodable { var id: Int64; var paths: [String] }
                var removed: [Item]; var dry_run: Bool; var bytes_before: Int; var bytes_after: Int; var vacuumed: Bool
            }
            try printJSON(Output(removed: report.removed.map { .init(id: $0.id, paths: $0.paths) }, dry_run: dryRun,
                                 bytes_before: report.bytesBefore, bytes_after: report.bytesAfter, vacuumed: report.vacuumed))
            return
        }
        for item in report.removed {
            print("\(dryRun ? "would remove" : "removed") \(item.id): " + item.paths.map { OutputStyle.visible($0) }.joined(separator: ", "))
        }
        let size = { (bytes: Int) in ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file) }
        if dryRun {
            print("\(report.removed.count) screenshot(s) would be removed (nothing changed).")
        } else {
            print("\(report.removed.count) screenshot(s) removed; database \(size(report.bytesBefore)) → \(size(report.bytesAfter))"
                  + (report.vacuumed ? " (compacted)" : ""))
        }
    }
}
