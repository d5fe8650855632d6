import ArgumentParser
import Foundation
import LensApp

/// The screenshot a command is about, by id or path, or a usage error naming what was given.
func screenshotID(_ library: Library, _ target: String) throws -> Int64 {
    guard let detail = try library.screenshot(idOrPath: target) else {
        throw LensCLIError(message: "no screenshot with id or path '\(target)'")
    }
    return detail.id
}

private func annotating<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as AnnotationError {
        throw LensCLIError(message: error.description)
    }
}

struct TagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add tags to a screenshot; they are searchable and filter 'lens search --tag'.",
        discussion: """
            A tag is one word of letters, digits, '-', '_' or '.'. Tags are indexed with the \
            text and rank above it.

            Examples:
              lens tag 42 receipts trip-2024
              lens search --tag receipts --since 30d
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The screenshot's id or one of its paths.", valueName: "id-or-path"))
    var target: String

    @Argument(help: "The tags to add.")
    var tags: [String]

    func validate() throws {
        guard !tags.isEmpty else { throw ValidationError("Give at least one tag.") }
        if let bad = tags.first(where: { !Library.isTag($0) }) { throw ValidationError(AnnotationError.invalidTag(bad).description) }
    }

    func run() throws {
        let library = try global.openLibrary()
        let id = try screenshotID(library, target)
        let now = try annotating { try library.changeTags(of: id, adding: tags) }
        print("\(id): \(now.joined(separator: " "))")
    }
}

struct UntagCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "untag",
        abstract: "Remove tags from a screenshot.",
        discussion: "Example: lens untag 42 trip-2024")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The screenshot's id or one of its paths.", valueName: "id-or-path"))
    var target: String

    @Argument(help: "The tags to remove.")
    var tags: [String]

    func validate() throws {
        guard !tags.isEmpty else { throw ValidationError("Give at least one tag.") }
    }

    func run() throws {
        let library = try global.openLibrary()
        let id = try screenshotID(library, target)
        let now = try annotating { try library.changeTags(of: id, removing: tags.filter(Library.isTag)) }
        print("\(id): \(now.joined(separator: " "))")
    }
}

struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List every tag with the number of screenshots carrying it.",
        discussion: "Example: lens tags --json")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print a JSON array of {tag, count}.")
    var json = false

    func run() throws {
        let counts = try global.openLibrary().tagCounts()
        if json {
            struct Row: Encodable { var tag: String; var count: Int }
            try printJSON(counts.map { Row(tag: $0.tag, count: $0.count) })
            return
        }
        for (tag, count) in counts { print("\(count)\t\(tag)") }
    }
}

struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Set, extend or clear a screenshot's note; notes are searchable.",
        discussion: """
            A note holds at most 65,536 bytes (with what it is appended to); a longer one is \
            refused and the stored note kept.

            Examples:
              lens note 42 'paid by card, refund expected'
              lens note 42 --append 'refund arrived 3 May'
              lens note 42 ''        # clears it
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The screenshot's id or one of its paths.", valueName: "id-or-path"))
    var target: String

    @Argument(help: "The note (empty clears it).")
    var text: String

    @Flag(help: "Add the text as a new line instead of replacing the note.")
    var append = false

    func run() throws {
        let library = try global.openLibrary()
        let id = try screenshotID(library, target)
        let masked = try annotating { try library.setNote(of: id, to: text, appending: append) }
        if text.isEmpty && !append {
            print("\(id): note cleared.")
        } else {
            print("\(id): note \(append ? "extended" : "saved"); it is searchable ('lens show \(id)' shows it).")
        }
        if !masked.isEmpty {
            let kinds = Set(masked.map(\.rawValue)).sorted().joined(separator: ", ")
            print("   It held \(masked.count == 1 ? "a secret" : "\(masked.count) secrets") (\(kinds)), stored masked as in screenshots.")
        }
    }
}
