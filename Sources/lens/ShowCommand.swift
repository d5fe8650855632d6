import ArgumentParser
import Foundation
import LensApp
import LensCore

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print everything Lens knows about one screenshot.",
        discussion: """
            Give the number from 'lens search' or a path the screenshot was imported from.

            Examples:
              lens show 42
              lens show ~/Pictures/Screenshots/shot.png --json
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The screenshot's id or one of its paths.", valueName: "id-or-path"))
    var target: String

    @Flag(help: "Print one JSON object.")
    var json = false

    @Flag(help: "Include each word with its confidence and box (JSON only).")
    var words = false

    @Option(help: ArgumentHelp("Mark the words read with a confidence under this (0-100) as [?word?].", valueName: "n"))
    var markBelow: Float?

    func validate() throws {
        if let markBelow, !(0...100).contains(markBelow) {
            throw ValidationError("--mark-below must be between 0 and 100.")
        }
    }

    func run() throws {
        let library = try global.openLibrary()
        guard let detail = try library.screenshot(idOrPath: target) else {
            throw LensCLIError(message: "no screenshot with id or path '\(target)'")
        }
        if json {
            try printJSON(JSONOutput.Screenshot(detail, includeWords: words))
            return
        }
        let date = Date.ISO8601FormatStyle(timeZone: .current)
        print("id:          \(detail.id)")
        for path in detail.paths { print("path:        \(OutputStyle.visible(path))") }
        for path in detail.gonePaths { print("gone:        \(OutputStyle.visible(path))") }
        print("sha256:      \(detail.sha256)")
        print("size:        \(detail.byteCount) bytes, \(detail.format)" + (detail.width.map { ", \($0)x\(detail.height ?? 0)" } ?? ""))
        print("state:       \(detail.state.rawValue)" + (detail.lastError.map { " (\($0))" } ?? ""))
        if let confidence = detail.confidence { print(String(format: "confidence:  %.1f", confidence)) }
        print("taken:       \(detail.capturedAt.formatted(date))")
        print("imported:    \(detail.importedAt.formatted(date))")
        if let recognized = detail.recognizedAt {
            print("recognized:  \(recognized.formatted(date))" + (detail.ocrSeconds.map { String(format: " in %.2f s", $0) } ?? ""))
        }
        for code in detail.codes {
            print("code:        \(code.symbology) \(OutputStyle.visible(code.payload))")
        }
        for entity in detail.entities where entity.type == EntityType.secret.rawValue {
            // What was masked, by kind; the value itself was never stored.
            let place = entity.source == "code" ? "in a code" : "in the text"
            print("masked:      \(entity.normalized) \(place), shown as \(entity.value)")
        }
        for entity in detail.entities where entity.type != EntityType.secret.rawValue {
            let normalized = entity.normalized == entity.value ? "" : "  → \(OutputStyle.visible(entity.normalized))"
            print("\(entity.type):".padding(toLength: 13, withPad: " ", startingAt: 0) + OutputStyle.visible(entity.value) + normalized)
        }
        if !detail.tags.isEmpty { print("tags:        \(detail.tags.joined(separator: " "))") }
        if let note = detail.note {
            // One line per line of the note, aligned under the first.
            let lines = note.split(separator: "\n", omittingEmptySubsequences: false).map { OutputStyle.visible($0) }
            print("note:        " + lines.joined(separator: "\n             "))
        }
        if let receipt = detail.receipt {
            print("receipt:     " + ([receipt.vendor, receipt.total, receipt.date].compactMap { $0 }.map { OutputStyle.visible($0) }.joined(separator: " · ")))
        }
        if var text = detail.text {
            if let markBelow {
                text = Recognition.marking(text, words: detail.words, below: markBelow, open: "[?", close: "?]")
            }
            print("")
            print(OutputStyle.visible(text, keepingLineBreaks: true))
        }
    }
}
