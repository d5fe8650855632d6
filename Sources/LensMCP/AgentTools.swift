import Foundation
import LensApp
import LensCore
import Logging
import MCP

/// The tools `lens mcp` offers: what they take (JSON Schema), what they answer, and the calls.
/// Their answers are the JSON the command line prints with `--json`, so a script and an agent see
/// the same library.
public struct AgentTools: Sendable {
    public let library: Library
    public let allowsChanges: Bool
    let thumbnails: ThumbnailCache
    let region: String
    let logger: Logger

    /// The most results one call returns (a client asking for more gets this many).
    static let maximumResults = 100

    init(library: Library, allowsChanges: Bool, thumbnails: ThumbnailCache, region: String, logger: Logger) {
        self.library = library
        self.allowsChanges = allowsChanges
        self.thumbnails = thumbnails
        self.region = region
        self.logger = logger
    }

    static let readOnly = Tool.Annotations(readOnlyHint: true, openWorldHint: false)

    public var definitions: [Tool] {
        var tools = [
            Tool(name: "search_screenshots", title: "Search screenshots",
                 description: """
                    Finds the user's screenshots by the words OCR read in them (also through common OCR \
                    misreadings), best matches first, with filters. Without a query, the filters alone \
                    list screenshots, newest first. Query syntax: all words must appear; "quoted phrase"; \
                    pref* for a prefix; -word to exclude; a OR b. After the screenshots holding the words \
                    come those whose text is about the same thing without them, marked "semantic": true \
                    with their "similarity"; a query starting with ~ is searched by meaning only \
                    (~plane arrival time), useful when the exact words are not known.
                    """,
                 inputSchema: Schema.object([
                    "query": Schema.string("What to search for (may be empty when a filter is given)."),
                    "limit": Schema.integer("The most results to return (1-\(Self.maximumResults), default 20).", minimum: 1, maximum: Self.maximumResults),
                    "since": Schema.string("Only screenshots taken on or after this date: YYYY-MM-DD, today, yesterday, 7d, 2w, 3m."),
                    "until": Schema.string("Only screenshots taken on or before this date (same forms)."),
                    "type": Schema.strings("Only screenshots with an entity of this type: url, email, phone, person, date, money (all must be there)."),
                    "entity": Schema.strings("Only screenshots with this entity, as type:value, e.g. phone:+14155550132 or 'email:ana@example.org'."),
                    "tag": Schema.strings("Only screenshots with this tag (all must be there)."),
                    "folder": Schema.string("Only screenshots stored under this folder (an absolute path)."),
                 ]),
                 annotations: Self.readOnly,
                 outputSchema: Schema.object(["results": .object(["type": "array", "items": Schema.hit])], required: ["results"])),
            Tool(name: "get_screenshot", title: "Read a screenshot",
                 description: """
                    One screenshot by id: the text OCR read in it (secrets masked as [kind ••••1234]), its \
                    entities, QR codes, tags, note, paths and dates; and, unless thumbnail is false, a \
                    small JPEG of it with the masked spans painted over.
                    """,
                 inputSchema: Schema.object([
                    "id": Schema.integer("The screenshot's id (from search_screenshots).", minimum: 1),
                    "thumbnail": .object(["type": "boolean", "description": "Whether to include the thumbnail image (default true)."]),
                 ], required: ["id"]),
                 annotations: Self.readOnly,
                 outputSchema: Schema.screenshot),
            Tool(name: "list_entities", title: "List entities",
                 description: "The entities found most often across the library, with how many screenshots hold each: people, phone numbers, e-mail addresses, links, dates, amounts.",
                 inputSchema: Schema.object([
                    "type": Schema.string("Only this type: url, email, phone, person, date or money."),
                    "limit": Schema.integer("How many (1-\(Self.maximumResults), default 20).", minimum: 1, maximum: Self.maximumResults),
                 ]),
                 annotations: Self.readOnly,
                 outputSchema: Schema.object(["entities": .object(["type": "array", "items": Schema.entityCount])], required: ["entities"])),
            Tool(name: "connections", title: "Connections around a screenshot",
                 description: """
                    The mind map around one screenshot: the screenshots that share a person, phone number, \
                    e-mail address or link with it, up to depth steps away, and what connects them.
                    """,
                 inputSchema: Schema.object([
                    "id": Schema.integer("The screenshot at the centre.", minimum: 1),
                    "depth": Schema.integer("How many steps away (1-6, default 1).", minimum: 1, maximum: 6),
                 ], required: ["id"]),
                 annotations: Self.readOnly,
                 outputSchema: Schema.graph),
        ]
        if allowsChanges {
            let writes = Tool.Annotations(readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            tools += [
                Tool(name: "tag_screenshot", title: "Tag a screenshot",
                     description: "Adds and removes tags on a screenshot (a tag is one word: letters, digits, '-', '_' or '.'). A tag holding a secret is refused. Answers the tags after the change.",
                     inputSchema: Schema.object([
                        "id": Schema.integer("The screenshot's id.", minimum: 1),
                        "add": Schema.strings("Tags to add."),
                        "remove": Schema.strings("Tags to remove."),
                     ], required: ["id"]),
                     annotations: writes,
                     outputSchema: Schema.object(["id": .object(["type": "integer"]), "tags": .object(["type": "array", "items": .object(["type": "string"])])],
                                                 required: ["id", "tags"])),
                Tool(name: "set_note", title: "Set a screenshot's note",
                     description: "Sets the note of a screenshot (an empty note clears it). Secrets in it are masked before it is stored, as in the text. Answers the note as stored.",
                     inputSchema: Schema.object([
                        "id": Schema.integer("The screenshot's id.", minimum: 1),
                        "note": Schema.string("The note (at most 10,000 characters; empty clears it)."),
                     ], required: ["id", "note"]),
                     annotations: writes,
                     outputSchema: Schema.object(["id": .object(["type": "integer"]), "note": .object(["type": ["string", "null"]]),
                                                  "masked": .object(["type": "array", "items": .object(["type": "string"])])],
                                                 required: ["id", "note", "masked"])),
            ]
        }
        return tools
    }
}
