import Foundation
import LensApp
import LensCore
import Logging
import MCP

extension AgentTools {
    /// The most values one filter takes, and the longest text argument: a call's cost is bounded
    /// by what it asks for, as the web API's is.
    static let maximumValues = 16
    static let maximumTextLength = 10_000

    /// Runs one tool. A mistake of the caller (an unknown tool or argument, a value of the wrong
    /// kind, an id that is not in the library) is an `invalidParams` error that says what to
    /// change; anything else is logged by its type and answered as an internal error, without
    /// the library's text.
    func call(_ name: String, arguments: [String: Value]) async throws -> CallTool.Result {
        let started = ContinuousClock.now
        defer { logger.debug("tool answered", metadata: ["tool": "\(name)", "ms": "\(Int((ContinuousClock.now - started).seconds * 1000))"]) }
        do {
            let arguments = Arguments(values: arguments, tool: name)
            switch name {
            case "search_screenshots": return try search(arguments)
            case "get_screenshot": return try screenshot(arguments)
            case "list_entities": return try entities(arguments)
            case "connections": return try connections(arguments)
            case "tag_screenshot", "set_note":
                guard allowsChanges else {
                    throw MCPError.invalidParams("\(name) changes the library: it is offered only when Lens runs as 'lens mcp --allow-changes'")
                }
                return name == "tag_screenshot" ? try tag(arguments) : try note(arguments)
            default:
                throw MCPError.invalidParams("there is no tool '\(name)'; the tools are \(definitions.map(\.name).joined(separator: ", "))")
            }
        } catch let error as MCPError {
            throw error
        } catch let error as SearchFormError {
            throw MCPError.invalidParams(error.description)
        } catch let error as AnnotationError {
            throw MCPError.invalidParams(error.description)
        } catch let error as ScreenshotFileError {
            throw MCPError.invalidParams(error.description)
        } catch let error where Library.unsupportedHere(error) != nil {
            // A shared library that does not keep this yet: the agent is told so, as a tool error.
            return CallTool.Result(content: [.text(text: Library.unsupportedHere(error)!, annotations: nil, _meta: nil)], isError: true)
        } catch {
            logger.error("tool failed", metadata: ["tool": "\(name)", "error": "\(type(of: error))"])
            throw MCPError.internalError("\(name) failed inside Lens (its log on standard error says more)")
        }
    }

    // MARK: Tools

    private func search(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["query", "limit", "since", "until", "type", "entity", "tag", "folder"])
        var form = SearchForm()
        form.text = try arguments.text("query") ?? ""
        form.limit = try arguments.integer("limit", in: 1...Self.maximumResults) ?? 20
        form.since = try arguments.text("since")
        form.until = try arguments.text("until")
        form.types = try arguments.texts("type")
        form.entities = try arguments.texts("entity")
        form.tags = try arguments.texts("tag")
        form.folder = try arguments.text("folder")
        form.region = region
        guard !form.text.trimmingCharacters(in: .whitespaces).isEmpty || form.hasFilter else {
            throw MCPError.invalidParams("search_screenshots needs a query or a filter (since, until, type, entity, tag, folder)")
        }
        let hits = try library.search(try form.request()).map(JSONOutput.Hit.init)
        return try Self.answer(hits, wrappedAs: "results")
    }

    private func screenshot(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["id", "thumbnail"])
        let id = try arguments.id()
        guard let detail = try library.screenshot(id: id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        let answer = try Self.answer(JSONOutput.Screenshot(detail, includeWords: false))
        guard try arguments.flag("thumbnail") ?? true else { return answer }
        let picture: Tool.Content
        do {
            let (jpeg, _) = try thumbnails.thumbnail(of: id, in: library)
            picture = .image(data: Data(jpeg).base64EncodedString(), mimeType: "image/jpeg", annotations: nil, _meta: nil)
        } catch let error as ScreenshotFileError {
            // The text is still worth having when the file is gone.
            picture = .text(text: "No thumbnail: \(error.description).", annotations: nil, _meta: nil)
        }
        return CallTool.Result(content: answer.content + [picture], structuredContent: answer.structuredContent)
    }

    private func entities(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["type", "limit"])
        let type = try arguments.text("type").map { try SearchForm.entityType($0).rawValue }
        let limit = try arguments.integer("limit", in: 1...Self.maximumResults) ?? 20
        let counts = try library.topEntities(type: type, limit: limit).map(JSONOutput.EntityCountJSON.init)
        return try Self.answer(counts, wrappedAs: "entities")
    }

    private func connections(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["id", "depth"])
        let id = try arguments.id()
        let depth = try arguments.integer("depth", in: 1...6) ?? 1
        guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        let map = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: id, depth: depth, maximumNodes: nil)
        let json = String(decoding: try MindMapUseCases.render(map, format: .json), as: UTF8.self)
        return try CallTool.Result(content: [.text(text: json, annotations: nil, _meta: nil)], structuredContent: Self.decoded(json))
    }

    private func tag(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["id", "add", "remove"])
        let id = try arguments.id()
        let add = try arguments.texts("add"), remove = try arguments.texts("remove")
        guard !add.isEmpty || !remove.isEmpty else { throw MCPError.invalidParams("tag_screenshot needs tags to add or to remove") }
        if let bad = (add + remove).first(where: { !Library.isTag($0) }) { throw AnnotationError.invalidTag(bad) }
        guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        let tags = try library.changeTags(of: id, adding: add, removing: remove)
        return try Self.answer(TagsAnswer(id: id, tags: tags))
    }

    private func note(_ arguments: Arguments) throws -> CallTool.Result {
        try arguments.allow(["id", "note"])
        let id = try arguments.id()
        guard let text = try arguments.text("note") else { throw MCPError.invalidParams("set_note needs a note (an empty one clears it)") }
        guard try library.exists(id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        let masked = try library.setNote(of: id, to: text.isEmpty ? nil : text)
        let stored = try library.screenshot(id: id)?.note
        return try Self.answer(NoteAnswer(id: id, note: stored, masked: masked.map(\.rawValue)))
    }

    // MARK: Answers

    private struct TagsAnswer: Encodable { var id: Int64; var tags: [String] }
    private struct NoteAnswer: Encodable {
        var id: Int64
        var note: String?
        var masked: [String]
        enum CodingKeys: String, CodingKey { case id, note, masked }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(note, forKey: .note) // null when cleared, not left out
            try container.encode(masked, forKey: .masked)
        }
    }
    private struct Wrapped<T: Encodable>: Encodable {
        var key: String
        var value: T
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(value, forKey: AnyKey(stringValue: key))
        }
    }
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The answer as text (the JSON the command line prints) and as structured content. A list is
    /// structured as an object holding it (structured content is an object), its text the list.
    static func answer(_ value: some Encodable, wrappedAs key: String? = nil) throws -> CallTool.Result {
        let json = try JSONOutput.encode(value)
        let structured = try key.map { try decoded(JSONOutput.encode(Wrapped(key: $0, value: value))) } ?? decoded(json)
        return try CallTool.Result(content: [.text(text: json, annotations: nil, _meta: nil)], structuredContent: structured)
    }

    static func decoded(_ json: String) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(json.utf8))
    }
}
