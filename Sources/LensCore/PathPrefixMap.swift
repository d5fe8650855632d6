/// Where another host's paths are on this one: a worker reads a screenshot queued by a host
/// that saw it at `/home/ana/Pictures/x.png` from its own mount of that share, say
/// `/mnt/ana-pictures/x.png` (`lens worker --path-map /home/ana/Pictures=/mnt/ana-pictures`).
/// The longest matching prefix wins; a prefix matches whole path components only.
public struct PathPrefixMap: Sendable, Equatable {
    public private(set) var prefixes: [(from: String, to: String)]

    public init(_ prefixes: [(from: String, to: String)] = []) {
        self.prefixes = prefixes.map { (Self.trimmed($0.from), Self.trimmed($0.to)) }
            .sorted { $0.from.count > $1.from.count }
    }

    /// Reads `FROM=TO` (both absolute paths).
    public init(parsing entries: [String]) throws(PathPrefixMapError) {
        var pairs: [(String, String)] = []
        for entry in entries {
            guard let equals = entry.firstIndex(of: "=") else { throw PathPrefixMapError(entry: entry, reason: "not FROM=TO") }
            let from = String(entry[..<equals]), to = String(entry[entry.index(after: equals)...])
            guard from.hasPrefix("/"), to.hasPrefix("/") else {
                throw PathPrefixMapError(entry: entry, reason: "both sides must be absolute paths")
            }
            pairs.append((from, to))
        }
        self.init(pairs)
    }

    public var isEmpty: Bool { prefixes.isEmpty }

    /// The path on this host for `path` as it was recorded.
    public func local(_ path: String) -> String {
        for (from, to) in prefixes {
            if path == from { return to }
            if from == "/" { return to + path }
            if path.hasPrefix(from + "/") { return to + path.dropFirst(from.count) }
        }
        return path
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.prefixes.map(\.from) == rhs.prefixes.map(\.from) && lhs.prefixes.map(\.to) == rhs.prefixes.map(\.to)
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}

public struct PathPrefixMapError: Error, Equatable, CustomStringConvertible {
    public var entry: String
    public var reason: String
    public var description: String { "--path-map '\(entry)': \(reason)" }
}
