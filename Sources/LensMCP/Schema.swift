import MCP

/// JSON Schema for the tools' arguments and answers, written as `Value`s: the answers' schemas
/// describe the JSON `JSONOutput` encodes (the shapes of `lens search --json`, `lens show --json`,
/// `lens entities --json` and `lens graph --format json`).
enum Schema {
    static func object(_ properties: [String: Value], required: [String] = []) -> Value {
        var schema: [String: Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        return .object(schema)
    }

    /// An answer's object: more fields may come in later versions.
    static func record(_ properties: [String: Value], required: [String]) -> Value {
        .object(["type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) })])
    }

    static func string(_ description: String) -> Value {
        .object(["type": "string", "description": .string(description)])
    }

    static func integer(_ description: String, minimum: Int, maximum: Int? = nil) -> Value {
        var schema: [String: Value] = ["type": "integer", "description": .string(description), "minimum": .int(minimum)]
        if let maximum { schema["maximum"] = .int(maximum) }
        return .object(schema)
    }

    /// One string or a list of them (a filter given several times).
    static func strings(_ description: String) -> Value {
        .object(["description": .string(description),
                 "anyOf": [["type": "string"], ["type": "array", "items": ["type": "string"], "maxItems": .int(AgentTools.maximumValues)]]])
    }

    static let text: Value = ["type": "string"]
    static let optionalText: Value = ["type": ["string", "null"]]
    static let texts: Value = ["type": "array", "items": ["type": "string"]]
    static let number: Value = ["type": "number"]
    static let id: Value = ["type": "integer"]
    static let date: Value = ["type": "string", "format": "date-time"]

    static let hit = record([
        "id": id, "path": optionalText, "paths": texts, "score": number, "snippet": text,
        "matches": ["type": "array", "items": ["type": "array", "items": ["type": "integer"]]],
        "captured_at": date, "imported_at": date, "approximate": ["type": "boolean"], "fuzzy": ["type": "boolean"],
        "fuzzy_words": texts, "gone_path": text, "matched_in": text, "semantic": ["type": "boolean"], "similarity": number,
    ], required: ["id", "paths", "score", "snippet", "captured_at", "imported_at"])

    static let entityCount = record([
        "type": text, "normalized": text, "example": text, "screenshots": id, "occurrences": id,
    ], required: ["type", "normalized", "example", "screenshots", "occurrences"])

    static let screenshot = record([
        "id": id, "text": text,
        "codes": ["type": "array", "items": record(["symbology": text, "payload": text], required: ["symbology", "payload"])],
        "entities": ["type": "array", "items": record(["type": text, "value": text, "normalized": text, "source": text],
                                                       required: ["type", "value", "normalized"])],
        "receipt": ["type": ["object", "null"]], "tags": texts, "note": optionalText, "confidence": ["type": ["number", "null"]],
        "paths": texts, "gone_paths": texts, "sha256": text, "size": id, "format": text,
        "width": ["type": ["integer", "null"]], "height": ["type": ["integer", "null"]], "state": text, "attempts": id,
        "last_error": optionalText, "captured_at": date, "imported_at": date, "recognized_at": ["type": ["string", "null"]],
        "ocr_seconds": ["type": ["number", "null"]],
    ], required: ["id", "text", "entities", "tags", "paths", "state", "captured_at"])

    static let graph = record([
        "nodes": ["type": "array", "items": ["type": "object"]],
        "edges": ["type": "array", "items": ["type": "object"]],
    ], required: ["nodes", "edges"])
}
