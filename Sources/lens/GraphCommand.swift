import ArgumentParser
import Foundation
import LensApp

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Export the mind map: screenshots linked by the people, numbers, addresses and links they share.",
        discussion: """
            Connections are kept up to date as screenshots are imported; --rebuild recomputes them \
            all (manual links from 'lens link' are kept). Screenshots without connections are left \
            out unless --isolated is given. --max-nodes keeps the strongest connected groups whole. \
            Near-duplicates (copies re-encoded or cropped: connected screenshots whose text is \
            90 % the same) are drawn as one screenshot that lists its copies.

            Examples:
              lens graph --format svg --output ~/mindmap.svg
              lens graph --around 42 --depth 2 --format json
              lens graph --type phone --min-score 0.9 | sfdp -Tpng -o phones.png
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "dot, svg (drawn with GraphViz) or json.")
    var format: String = "dot"

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Only connections with at least this score (0-1).", valueName: "s"))
    var minScore: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many screenshots.", valueName: "n"))
    var maxNodes: Int?

    @Option(name: .customLong("type"), help: ArgumentHelp("Only connections through this entity type (person, email, phone, url).", valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("Only the screenshots within --depth connections of this one (an id).", valueName: "id"))
    var around: Int64?

    @Option(help: "How many connections away from --around to go.")
    var depth: Int = 1

    @Flag(help: "Also draw the screenshots without connections (not with --around).")
    var isolated = false

    @Flag(help: "Recompute every connection first.")
    var rebuild = false

    func validate() throws {
        guard MindMapUseCases.Format(rawValue: format) != nil else { throw ValidationError("--format must be dot, svg or json.") }
        guard (0...1).contains(minScore) else { throw ValidationError("--min-score must be between 0 and 1.") }
        if let maxNodes, maxNodes < 2 { throw ValidationError("--max-nodes must be at least 2.") }
        guard depth >= 1 else { throw ValidationError("--depth must be at least 1.") }
        if let type, !["person", "email", "phone", "url"].contains(type) {
            throw ValidationError("--type must be person, email, phone or url (dates and amounts do not link screenshots).")
        }
    }

    func run() throws {
        let library = try global.openLibrary()
        do {
            if rebuild {
                let (screenshots, edges) = try MindMapUseCases.rebuild(library)
                FileHandle.standardError.write(Data("rebuilt: \(edges) connections among \(screenshots) screenshots with linkable entities\n".utf8))
            }
            let map = try MindMapUseCases.mindMap(library, minimumScore: minScore, type: type, around: around, depth: depth,
                                                  maximumNodes: maxNodes, includingIsolated: isolated)
            let data = try MindMapUseCases.render(map, format: MindMapUseCases.Format(rawValue: format)!)
            if let output {
                try MindMapUseCases.write(data, to: output)
                print("Wrote the mind map to \(OutputStyle.visible(LensLocations.absolute(output))): "
                      + "\(map.nodes.count) screenshots, \(map.edges.count) connections.")
            } else {
                FileHandle.standardOutput.write(data)
            }
        } catch let error as MindMapError {
            throw LensCLIError(message: error.message)
        }
    }
}

struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Connect two screenshots by hand; the link stays across rebuilds.",
        discussion: "Example: lens link 12 40 --note 'same trip'")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The two screenshots' ids.")
    var ids: [Int64]

    @Option(help: "Why they belong together.")
    var note: String?

    func validate() throws {
        guard ids.count == 2, ids[0] != ids[1] else { throw ValidationError("Give two different screenshot ids.") }
    }

    func run() throws {
        guard try global.openLibrary().link(ids[0], ids[1], note: note) else {
            throw LensCLIError(message: "no screenshot with id \(ids[0]) or \(ids[1])")
        }
    }
}

struct UnlinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlink",
        abstract: "Remove a link drawn with 'lens link'.",
        discussion: "Example: lens unlink 12 40")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The two screenshots' ids.")
    var ids: [Int64]

    func validate() throws {
        guard ids.count == 2, ids[0] != ids[1] else { throw ValidationError("Give two different screenshot ids.") }
    }

    func run() throws {
        guard try global.openLibrary().unlink(ids[0], ids[1]) else {
            throw LensCLIError(message: "\(ids[0]) and \(ids[1]) are not linked by hand")
        }
    }
}
