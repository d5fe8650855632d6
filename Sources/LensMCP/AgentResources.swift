import Foundation
import LensApp
import LensCore
import MCP

/// The library as MCP resources: the newest screenshots, each `lens://screenshots/ID`, read as the
/// JSON of `lens show --json`; any id can be read through the template.
struct AgentResources: Sendable {
    var tools: AgentTools

    /// How many of the newest screenshots a client browsing resources sees.
    static let listed = 50
    static let prefix = "lens://screenshots/"

    func list() throws -> ListResources.Result {
        var form = SearchForm()
        form.limit = Self.listed
        let newest = try tools.library.search(try form.request(listingWhenEmpty: true))
        let resources = newest.map { hit in
            let name = hit.paths.first.map { SystemPath.visible(($0 as NSString).lastPathComponent) } ?? "screenshot \(hit.id)"
            return Resource(name: name, uri: Self.prefix + String(hit.id), title: name,
                            description: "Screenshot \(hit.id), taken \(hit.capturedAt.formatted(.iso8601)): its text, entities, tags and note",
                            mimeType: "application/json")
        }
        return .init(resources: resources, nextCursor: nil)
    }

    func templates() -> ListResourceTemplates.Result {
        .init(templates: [Resource.Template(uriTemplate: Self.prefix + "{id}", name: "screenshot",
                                            description: "A screenshot by id: its text, entities, tags and note (lens show --json)",
                                            mimeType: "application/json")])
    }

    func read(_ uri: String) throws -> ReadResource.Result {
        guard uri.hasPrefix(Self.prefix), let id = Int64(uri.dropFirst(Self.prefix.count)), id > 0 else {
            throw MCPError.invalidParams("Lens has no resource '\(uri)': its resources are \(Self.prefix)ID")
        }
        guard let detail = try tools.library.screenshot(id: id) else {
            throw MCPError.invalidParams("no screenshot with id \(id)")
        }
        let json = try JSONOutput.encode(JSONOutput.Screenshot(detail, includeWords: false))
        return .init(contents: [.text(json, uri: uri, mimeType: "application/json")])
    }
}
