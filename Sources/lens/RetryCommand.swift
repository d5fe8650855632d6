import ArgumentParser
import Foundation
import LensApp

struct RetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Queue failed screenshots for recognition again.",
        discussion: """
            Resets the attempt and crash counts of failed screenshots (including ones poisoned after \
            crashing Lens twice) and queues them. A running 'lens watch' picks them up within 30 \
            seconds; otherwise run 'lens import' with no paths.

            Examples:
              lens retry 42 57
              lens retry --all
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Ids of failed screenshots (from 'lens status' or 'lens show').", valueName: "id"))
    var ids: [Int64] = []

    @Flag(help: "Retry every failed screenshot.")
    var all = false

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("Give screenshot ids or --all (not both).") }
    }

    func run() throws {
        let library = try global.openLibrary()
        let count = try library.retry(ids: all ? nil : ids)
        print("\(count) screenshot(s) queued again.")
        if count == 0 && !all { throw LensCLIError(message: "none of \(ids.map(String.init).joined(separator: ", ")) is a failed screenshot") }
    }
}
