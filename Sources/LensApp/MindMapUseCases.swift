import Foundation
import LensCore
import LensGraph
import LensStore

/// Keeps the `connection` table in step as screenshots are recognized: each new screenshot is
/// compared with the entities already indexed (never with every screenshot), then indexed itself.
final class ConnectionKeeper: @unchecked Sendable {
    private let database: LensDatabase
    private let lock = NSLock()
    /// Loaded from the database on first use, then kept up to date by `connect(_:)`.
    private var index: EntityIndex?

    init(database: LensDatabase) { self.database = database }

    func connect(_ id: Int64) throws {
        let entities = try database.entities(ofScreenshot: id).compactMap { stored in
            EntityType(rawValue: stored.type).map { (type: $0, normalized: stored.normalized) }
        }
        lock.lock()
        defer { lock.unlock() }
        var current = try index ?? MindMapUseCases.loadIndex(database)
        let found = ConnectionFinder.connections(of: ScreenshotEntities(id: id, entities: entities), in: current)
        for (type, normalized) in entities { current.insert(screenshot: id, type: type, normalized: normalized) }
        index = current
        try database.saveConnections(found.map(MindMapUseCases.stored))
    }
}

/// `lens graph`, `lens link` and `lens unlink`.
public enum MindMapUseCases {
    public enum Format: String, CaseIterable, Sendable { case dot, svg, json }

    static func loadIndex(_ database: LensDatabase) throws -> EntityIndex {
        var index = EntityIndex()
        for screenshot in try linkable(database) {
            for (type, normalized) in screenshot.entities { index.insert(screenshot: screenshot.id, type: type, normalized: normalized) }
        }
        return index
    }

    static func linkable(_ database: LensDatabase) throws -> [ScreenshotEntities] {
        try database.linkableEntities(types: ConnectionRules.linkingTypes.map(\.rawValue)).map { row in
            ScreenshotEntities(id: row.id, entities: row.entities.compactMap { e in EntityType(rawValue: e.type).map { ($0, e.normalized) } })
        }
    }

    static func stored(_ connection: Connection) -> StoredEdge {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes] // the same edge is stored as the same text
        let via = (try? encoder.encode(connection.via)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return StoredEdge(a: connection.a, b: connection.b, score: connection.score, via: via)
    }

    /// Recomputes every connection through the index; manual links are kept. Returns the
    /// number of screenshots with linkable entities and of edges.
    public static func rebuild(_ library: Library) throws -> (screenshots: Int, edges: Int) {
        let screenshots = try linkable(library.database)
        let connections = ConnectionFinder.rebuild(screenshots)
        try library.database.replaceAllConnections(connections.map(stored))
        return (screenshots.count, connections.count)
    }

    /// The map to draw, filtered as `lens graph` asks.
    public static func mindMap(_ library: Library, minimumScore: Double, type: String?, around: Int64?, depth: Int,
                               maximumNodes: Int?) throws -> MindMap {
        let edges = try library.database.edges(minimumScore: minimumScore).map { edge in
            MindMap.Edge(a: edge.a, b: edge.b, score: edge.score, via: describe(edge.via), isManual: edge.isManual, note: edge.note)
        }
        let kept = MindMap.select(edges, type: type, around: around, depth: depth, maximumNodes: maximumNodes)
        let ids = Array(Set(kept.flatMap { [$0.a, $0.b] })).sorted()
        let nodes = try library.database.graphNodes(ids: ids).map { node in
            MindMap.Node(id: node.id, path: node.path, entities: node.entities.map { "\($0.type): \($0.value)" })
        }
        return MindMap(nodes: nodes, edges: kept)
    }

    /// `person: jon smith ~ jon smyth`, one line per shared entity.
    static func describe(_ via: String) -> [String] {
        guard let shared = try? JSONDecoder().decode([SharedEntity].self, from: Data(via.utf8)) else { return [] }
        return shared.map { $0.a == $0.b ? "\($0.type): \($0.a)" : "\($0.type): \($0.a) ~ \($0.b)" }
    }

    /// The map in `format`; SVG is drawn by GraphViz (`dot`, or `sfdp` past 300 nodes), run with
    /// an argument array and the DOT text on its standard input, never through a shell.
    public static func render(_ map: MindMap, format: Format) throws -> Data {
        switch format {
        case .json: return Data(try GraphJSONWriter.json(map).utf8)
        case .dot: return Data(DOTWriter.dot(map).utf8)
        case .svg:
            let program = map.nodes.count > 300 ? "sfdp" : "dot"
            guard let executable = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + program }).first(where: FileManager.default.isExecutableFile) else {
                throw MindMapError(message: "SVG needs GraphViz's \(program): install the Debian package graphviz")
            }
            return try runFilter(executable, ["-Tsvg"], input: Data(DOTWriter.dot(map).utf8))
        }
    }

    private static func runFilter(_ executable: String, _ arguments: [String], input: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        // Write and read concurrently: a large graph would fill one pipe while the other waits.
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MindMapError(message: "\(executable) failed: \(String(decoding: errors, as: UTF8.self).prefix(300))")
        }
        return output
    }

    /// Writes `data` to `path` through a temporary file in the same folder, refusing folders and
    /// missing parents with a message that names the path.
    public static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw MindMapError(message: "\(url.path) is a folder; give a file name")
        }
        let parent = url.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MindMapError(message: "\(parent.path) does not exist")
        }
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw MindMapError(message: "cannot write \(url.path): \(error.localizedDescription)")
        }
    }
}

public struct MindMapError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
