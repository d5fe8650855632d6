import ArgumentParser
import Foundation
import LensApp

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print Lens's version and the versions of Tesseract and SQLite it runs on.",
        discussion: """
            'lens --version' and 'lens -V' print Lens's version alone.

            Examples:
              lens version
              lens version --json
            """)

    @Flag(help: "Print the versions as a JSON object.")
    var json = false

    func run() throws {
        let components = LensVersion.components()
        if json {
            try printJSON(Dictionary(uniqueKeysWithValues: components.map { ($0.name, $0.version) }))
        } else {
            for component in components { print("\(component.name) \(component.version)") }
        }
    }
}
