import ArgumentParser
import Foundation
import LensApp
import LensCore

struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "List the screenshots whose text is about the same thing as one screenshot's.",
        discussion: """
            Nearest first, by the meaning of their text (the vectors 'lens watch' or \
            'lens reindex --embeddings' made); the same list as 'Similar screenshots' on the page.

            Examples:
              lens similar 42
              lens similar ~/Pictures/Screenshots/shot.png --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The screenshot's id or one of its paths.", valueName: "id-or-path"))
    var target: String

    @Option(parsing: .unconditional, help: "The most screenshots to list.")
    var limit: Int = 12

    @Flag(help: "Print the results as a JSON array.")
    var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() throws {
        let library = try global.openLibrary()
        let id = try screenshotID(library, target)
        let hits = try library.similar(to: id, limit: limit)
        if json {
            try printJSON(hits.map(JSONOutput.Hit.init))
        } else if hits.isEmpty {
            print("No screenshot is about the same thing as \(id).")
        } else {
            SearchCommand.printHits(hits)
        }
    }
}
