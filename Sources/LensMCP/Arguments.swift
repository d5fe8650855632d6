import MCP

/// A tool call's arguments, read with the checks the tool's input schema states (clients do not
/// always check it): each problem is an `invalidParams` error naming the argument.
struct Arguments {
    var values: [String: Value]
    var tool: String

    func allow(_ names: Set<String>) throws {
        if let unknown = values.keys.sorted().first(where: { !names.contains($0) }) {
            throw MCPError.invalidParams("\(tool) has no argument '\(unknown)'; it takes \(names.sorted().joined(separator: ", "))")
        }
    }

    func text(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw MCPError.invalidParams("\(name) must be a string") }
        guard text.utf8.count <= AgentTools.maximumTextLength else {
            throw MCPError.invalidParams("\(name) is longer than \(AgentTools.maximumTextLength) bytes")
        }
        return text
    }

    /// One string or a list of strings.
    func texts(_ name: String) throws -> [String] {
        guard let value = values[name], !value.isNull else { return [] }
        if let one = value.stringValue { return try [checked(one, name)] }
        guard let list = value.arrayValue else { throw MCPError.invalidParams("\(name) must be a string or a list of strings") }
        guard list.count <= AgentTools.maximumValues else { throw MCPError.invalidParams("\(name) takes at most \(AgentTools.maximumValues) values") }
        return try list.map { item in
            guard let text = item.stringValue else { throw MCPError.invalidParams("\(name) must be a string or a list of strings") }
            return try checked(text, name)
        }
    }

    private func checked(_ text: String, _ name: String) throws -> String {
        guard text.utf8.count <= 1_000 else { throw MCPError.invalidParams("a value of \(name) is longer than 1000 bytes") }
        return text
    }

    /// An integer, also when a client sent it as 3.0 or "3".
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        let number: Int?
        switch value {
        case .int(let int): number = int
        case .double(let double) where double.rounded() == double && abs(double) < 1e15: number = Int(double)
        case .string(let text): number = Int(text)
        default: number = nil
        }
        guard let number else { throw MCPError.invalidParams("\(name) must be an integer") }
        guard range.contains(number) else {
            throw MCPError.invalidParams("\(name) must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return number
    }

    func id() throws -> Int64 {
        guard let id = try integer("id", in: 1...Int.max) else { throw MCPError.invalidParams("\(tool) needs the screenshot's id") }
        return Int64(id)
    }

    func flag(_ name: String) throws -> Bool? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let flag = value.boolValue else { throw MCPError.invalidParams("\(name) must be true or false") }
        return flag
    }
}
