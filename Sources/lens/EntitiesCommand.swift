import ArgumentParser
import Foundation
import LensApp
import LensCore

struct EntitiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entities",
        abstract: "List the most frequent entities (URLs, e-mails, phones, dates, money) with counts.",
        discussion: """
            Entities are counted by normalized value, so (415) 555-0132 and +1 415-555-0132 are one \
            phone number. The first column is how many screenshots show it.

            Examples:
              lens entities --type phone --top 10
              lens entities --json
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("type"), help: ArgumentHelp("Only entities of this type (url, email, phone, person, date, money).", valueName: "type"))
    var type: String?

    @Option(parsing: .unconditional, help: "How many to list.")
    var top: Int = 20

    @Flag(help: "Print a JSON array.")
    var json = false

    func validate() throws {
        guard top > 0 else { throw ValidationError("--top must be at least 1.") }
        if let type { _ = try SearchCommand.entityType(type) }
    }

    func run() throws {
        let library = try global.openLibrary()
        let counts = try library.topEntities(type: try type.map(SearchCommand.entityType)?.rawValue, limit: top)
        if json {
            try printJSON(counts.map(JSONOutput.EntityCountJSON.init))
            return
        }
        guard !counts.isEmpty else {
            print("No entities.")
            return
        }
        for count in counts {
            let readable = EntityExtractors.readable(count.normalized, type: count.type)
            let shown = count.example == count.normalized || count.example == readable ? "" : "  (\(OutputStyle.visible(count.example)))"
            print(String(format: "%6d  ", count.screenshots) + count.type.padding(toLength: 7, withPad: " ", startingAt: 0)
                  + OutputStyle.visible(readable) + shown)
        }
    }
}
