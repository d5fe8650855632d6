import ArgumentParser
import Foundation
import LensApp

struct GcCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove screenshots whose files have all been gone for a while, and give the space back.",
        discussion: """
            A screenshot is removed when every path it was seen at has been gone for longer than \
            --older-than days (gc_grace_days in the configuration, 30 by default): its text, \
            entities, codes and connections go with it. Batches older than undo_days can no longer \
            be undone: what they kept for undo is let go, trashed files included. The full-text \
            index is then merged, and the file is compacted (VACUUM) when a fifth of it is free. \
            Safe with the daemon running.

            Examples:
              lens gc --dry-run
              lens gc --older-than 90
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Option(help: ArgumentHelp("Days a screenshot's files must have been gone (default: gc_grace_days, 30).", valueName: "days"))
    var olderThan: Double?

    @Flag(help: "Only list what would be removed.")
    var dryRun = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard (olderThan ?? 0) >= 0 else { throw ValidationError("--older-than must be 0 or more days.") }
    }

    func run() throws {
        let settings = try configOption.load()
        let library = try global.openLibrary()
        let days = olderThan ?? Double(settings.gcGraceDays)
        let trashed = dryRun ? 0 : try HistoryUseCases.expire(library, undoDays: settings.undoDays)
        let report = try library.collectGarbage(goneBefore: Date().timeIntervalSince1970 - days * 86_400, dryRun: dryRun)
        if json {
            struct Output: Encodable {
                struct Item: Encodable { var id: Int64; var paths: [String] }
                var removed: [Item]; var dry_run: Bool; var bytes_before: Int; var bytes_after: Int; var vacuumed: Bool
                var trash_files_deleted: Int
            }
            try printJSON(Output(removed: report.removed.map { .init(id: $0.id, paths: $0.paths) }, dry_run: dryRun,
                                 bytes_before: report.bytesBefore, bytes_after: report.bytesAfter, vacuumed: report.vacuumed,
                                 trash_files_deleted: trashed))
            return
        }
        for item in report.removed {
            print("\(dryRun ? "would remove" : "removed") \(item.id): " + item.paths.map { OutputStyle.visible($0) }.joined(separator: ", "))
        }
        let size = { (bytes: Int) in ByteCountFormatter.string(fromByteCount: Int64(bytes), countStyle: .file) }
        if trashed > 0 { print("\(trashed) trashed file(s) of expired batches deleted") }
        if dryRun {
            print("\(report.removed.count) screenshot(s) would be removed (nothing changed).")
        } else {
            print("\(report.removed.count) screenshot(s) removed; database \(size(report.bytesBefore)) → \(size(report.bytesAfter))"
                  + (report.vacuumed ? " (compacted)" : ""))
        }
    }
}
