import ArgumentParser
import Foundation
import LensApp
import LensMCP
import Logging

struct McpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve the library to an AI agent over the Model Context Protocol (stdio).",
        discussion: """
            An MCP client (an assistant or a coding agent) starts 'lens mcp' as a subprocess and \
            talks to it on standard input and output. It offers the tools search_screenshots, \
            get_screenshot (text, entities and a thumbnail), list_entities and connections, and the \
            newest screenshots as resources lens://screenshots/ID. Only with --allow-changes does it \
            offer tag_screenshot and set_note, the two that write. Secrets stay masked in every \
            answer. Logs go to standard error. It stops when the client closes its input.

            Client configuration (the mcpServers form):
              {"mcpServers": {"lens": {"command": "lens", "args": ["mcp"]}}}
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var configOption: ConfigOption

    @Flag(help: "Also offer the tools that change the library: tag_screenshot and set_note.")
    var allowChanges = false

    @Option(help: ArgumentHelp("The region for entity filters on phone numbers without a country; default: $ENTITY_REGION, else US.", valueName: "cc"))
    var region: String = RegionOption.environmentRegion ?? "US"

    func run() async throws {
        let settings = try configOption.load()
        var global = global
        if global.db == nil, let database = settings.database { global.db = database }
        let library = try global.openLibrary()
        let server = AgentServer(library: library, allowsChanges: allowChanges, region: region)
        do {
            try await server.run()
        } catch {
            throw LensCLIError(message: "the MCP server stopped: \(error)")
        }
    }
}
