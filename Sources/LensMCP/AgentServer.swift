import Foundation
import LensApp
import Logging
import MCP

/// `lens mcp`: the library offered to agents over the Model Context Protocol, on standard input
/// and output (the client starts Lens as a subprocess). Tools search, read and map the library;
/// the two that write (tags, notes) are offered only when `allowsChanges` is set. Every answer is
/// built from what is stored, where secrets are already masked, and from thumbnails with the
/// masked spans painted over. Nothing but protocol messages goes to standard output: logs go to
/// standard error, and never carry a screenshot's text.
public struct AgentServer: Sendable {
    public var tools: AgentTools
    public var logger: Logger

    public init(library: Library, allowsChanges: Bool, thumbnails: ThumbnailCache = ThumbnailCache(),
                region: String = "US", logger: Logger = Logger(label: "lens.mcp")) {
        self.tools = AgentTools(library: library, allowsChanges: allowsChanges, thumbnails: thumbnails, region: region, logger: logger)
        self.logger = logger
    }

    /// Serves until the client closes standard input.
    public func run() async throws {
        let server = Server(
            name: "lens", version: LensVersion.current, title: "Lens",
            instructions: """
                Lens indexes the user's screenshots: the text OCR read in them, the entities in that \
                text (links, e-mail addresses, phone numbers, people, dates, amounts), tags and notes, \
                and connections between screenshots that share entities. Search with \
                search_screenshots, read one with get_screenshot (its text and a thumbnail), and \
                follow connections. Secrets were masked before anything was stored.
                """,
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: false)))
        let tools = tools
        let resources = AgentResources(tools: tools)
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools.definitions) }
        await server.withMethodHandler(CallTool.self) { call in try await tools.call(call.name, arguments: call.arguments ?? [:]) }
        await server.withMethodHandler(ListResources.self) { _ in try resources.list() }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in resources.templates() }
        await server.withMethodHandler(ReadResource.self) { read in try resources.read(read.uri) }
        try await server.start(transport: LineTransport(logger: logger))
        logger.info("serving the library over MCP on standard input and output", metadata: ["changes": "\(tools.allowsChanges)"])
        await server.waitUntilCompleted()
    }
}
