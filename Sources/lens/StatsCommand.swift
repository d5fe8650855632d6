import ArgumentParser
import Foundation
import LensApp

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Summarize the collection: screenshots by folder and month, text, entities, failures, OCR speed, size.",
        discussion: """
            The last run is the newest stretch of recognitions with no gap over a minute between \
            two (an import, or a burst the daemon handled).

            Examples:
              lens stats
              lens stats --json | jq .by_entity_type
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print one JSON object (snake_case keys).")
    var json = false

    func run() throws {
        let stats = try global.openLibrary().statistics()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            print(String(decoding: try encoder.encode(stats), as: UTF8.self))
            return
        }
        func share(_ n: Int) -> String { stats.done > 0 ? String(format: " (%.0f %%)", 100 * Double(n) / Double(stats.done)) : "" }
        print("screenshots:   \(stats.screenshots) (done \(stats.done), queued \(stats.queued), failed \(stats.failed), poisoned \(stats.poisoned))")
        print("with text:     \(stats.withText)\(share(stats.withText))")
        print("with entities: \(stats.withEntities)\(share(stats.withEntities))"
              + (stats.byEntityType.isEmpty ? "" : ": " + stats.byEntityType.map { "\($0.key) \($0.count)" }.joined(separator: ", ")))
        if !stats.byFolder.isEmpty {
            print("by folder:")
            for folder in stats.byFolder { print("  \(OutputStyle.visible(folder.key)): \(folder.count)") }
        }
        if !stats.byMonth.isEmpty {
            print("by month:      " + stats.byMonth.map { "\($0.key) \($0.count)" }.joined(separator: ", "))
        }
        if let mean = stats.meanOCRSeconds { print(String(format: "OCR:           %.2f s per image", mean)) }
        if stats.lastRunImages > 0 {
            print("last run:      \(stats.lastRunImages) image(s)"
                  + (stats.lastRunImagesPerSecond.map { String(format: ", %.2f images/s", $0) } ?? ""))
        }
        print("database:      \(ByteCountFormatter.string(fromByteCount: Int64(stats.databaseBytes), countStyle: .file))")
    }
}
