import Foundation
import LensCore
import LensGraph
import LensStore

/// Keeps the `connection` table in step as screenshots are recognized: each new screenshot is
/// compared with the entities already indexed (never with every screenshot), then indexed itself.
///
/// In a shared library (PostgreSQL) workers on many hosts each keep an index: connecting happens
/// under the store's lock (``LensDatabase/whileConnecting(_:)``), and first adds the screenshots
/// the others connected since (``LensDatabase/connected(since:)``), so two screenshots recognized
/// at once on two hosts are still compared with each other: whichever connects second sees the first.
public final class ConnectionKeeper: @unchecked Sendable {
    private let database: LensDatabase
    private let lock = NSLock()
    /// Loaded from the database on first use, then kept up to date by `connect(_:)`.
    private var index: EntityIndex?
    /// The batch log when the index was loaded: another process's import, delete, undo or
    /// restore changes it, and the index is loaded again so it knows what that process did.
    private var indexedAtLog: [Int64] = []
    /// Where the index is in the log of screenshots connected (PostgreSQL).
    private var connectedMark: Int64 = 0

    public init(database: LensDatabase) { self.database = database }

    /// A keeper of `database`'s mind map (a queue drain's, an undo's).
    static func ifKept(by database: LensDatabase) -> ConnectionKeeper? {
        ConnectionKeeper(database: database)
    }

    /// How long this keeper's `connect` calls held the store's mind-map lock, in all: what every
    /// other worker of a shared library may have waited for (`lens-bench postgres --with-mind-map`).
    public var secondsHoldingTheLock: Double { lock.withLock { held } }
    private var held: Double = 0

    /// Finds and stores the connections of screenshot `id`, whose entities are stored, to those
    /// indexed before it; then indexes it. Under the lock only what must be: the index brought up
    /// to date, the entity comparison and the band keys; the copies' texts are read and compared
    /// after it (the expensive part), and the edges saved then.
    public func connect(_ id: Int64) throws {
        let entities = try database.entities(ofScreenshot: id).compactMap { stored in
            EntityType(rawValue: stored.type).map { (type: $0, normalized: stored.normalized) }
        }
        let words = try database.texts(ids: [id])[id].map(TextResemblance.words(in:))
        let bands = words.map(TextResemblance.rankedBands(of:))
        let (found, neighbours) = try database.whileConnecting { () throws -> ([Connection], [Int64]) in
            let start = ContinuousClock.now
            let log = try database.batchLogVersion()
            let others = try database.connected(since: connectedMark)
            lock.lock()
            defer {
                held += (ContinuousClock.now - start).seconds
                lock.unlock()
            }
            if index == nil || log != indexedAtLog || others == nil {
                // The mark first: what is connected after it is replayed next time (an entity
                // added twice is kept once).
                connectedMark = try database.connected(since: nil)?.mark ?? 0
                index = try MindMapUseCases.loadIndex(database)
                indexedAtLog = log
            } else if let others {
                // One read for all of them, however many the other hosts connected meanwhile.
                let replayed = others.ids.filter { $0 != id }
                if !replayed.isEmpty {
                    for screenshot in try MindMapUseCases.linkable(database, among: replayed) {
                        for (type, normalized) in screenshot.entities { index?.insert(screenshot: screenshot.id, type: type, normalized: normalized) }
                    }
                }
                connectedMark = others.mark
            }
            // Mutated in place (`index?.insert`): a local copy would copy the whole index each time.
            let found = ConnectionFinder.connections(of: ScreenshotEntities(id: id, entities: entities), in: index!)
            for (type, normalized) in entities { index?.insert(screenshot: id, type: type, normalized: normalized) }
            // Copies: the screenshots sharing a band key of this text.
            let neighbours = try bands.map { try database.replaceTextBands(of: id, with: $0, neighbours: TextResemblance.neighbours) } ?? []
            try database.recordConnected(id)
            return (found, neighbours)
        }
        var connections = found
        if let words, !neighbours.isEmpty {
            var resemblance: [Int64: Double] = [:]
            for (other, otherText) in try database.texts(ids: neighbours) {
                resemblance[other] = TextResemblance.containment(words, TextResemblance.words(in: otherText))
            }
            connections = MindMapUseCases.addingResemblance(resemblance.map { (min(id, $0.key), max(id, $0.key), $0.value) }, to: found)
        }
        try database.saveConnections(connections.map(MindMapUseCases.stored))
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

    static func linkable(_ database: LensDatabase, among ids: [Int64]? = nil) throws -> [ScreenshotEntities] {
        try database.linkableEntities(types: ConnectionRules.linkingTypes.map(\.rawValue), among: ids).map { row in
            ScreenshotEntities(id: row.id, entities: row.entities.compactMap { e in EntityType(rawValue: e.type).map { ($0, e.normalized) } })
        }
    }

    static func stored(_ connection: Connection) -> StoredEdge {
        StoredEdge(a: connection.a, b: connection.b, score: connection.score, via: encoded(connection.via),
                   resemblance: connection.resemblance.map { ($0 * 1000).rounded() / 1000 })
    }

    /// What two screenshots share, as stored in `connection.via`: one entity a line, `type⇥value`
    /// when both hold the same, else `type⇥value⇥other value⇥similarity`. (It was JSON, 98 bytes
    /// an edge on real text against about 35 now; with 700,000 edges at 100,000 screenshots the
    /// edges were the largest table.) Values are entity keys, which hold no tab or line break.
    static func encoded(_ shared: [SharedEntity]) -> String {
        func clean(_ value: String) -> String { String(value.map { $0 == "\t" || $0 == "\n" ? " " : $0 }) }
        return shared.map { entity in
            entity.a == entity.b && entity.similarity == 1
                ? "\(entity.type)\t\(clean(entity.a))"
                : "\(entity.type)\t\(clean(entity.a))\t\(clean(entity.b))\t\((entity.similarity * 1000).rounded() / 1000)"
        }.joined(separator: "\n")
    }

    /// The shared entities of a stored `via`, in either form (JSON in libraries from before).
    static func decoded(_ via: String) -> [SharedEntity] {
        if via.hasPrefix("[") { return (try? JSONDecoder().decode([SharedEntity].self, from: Data(via.utf8))) ?? [] }
        return via.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.count {
            case 2: return SharedEntity(type: fields[0], a: fields[1], b: fields[1], similarity: 1)
            case 4: return Double(fields[3]).map { SharedEntity(type: fields[0], a: fields[1], b: fields[2], similarity: $0) }
            default: return nil
            }
        }
    }

    /// An edge for two copies that share no linkable entity: they are the same screenshot.
    static func copies(_ x: Int64, _ y: Int64, _ resemblance: Double) -> Connection {
        Connection(a: min(x, y), b: max(x, y), score: 1, via: [], resemblance: resemblance)
    }

    /// `connections` with the text resemblance of the given pairs filled in, and an edge added
    /// for each pair of copies that shares no entity. Only pairs that share a band key are
    /// measured, on ingest and in a rebuild alike, so both store the same.
    static func addingResemblance(_ measured: [(a: Int64, b: Int64, resemblance: Double)], to connections: [Connection]) -> [Connection] {
        var result = connections
        let index = Dictionary(connections.enumerated().map { ("\($0.element.a)-\($0.element.b)", $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (a, b, resemblance) in measured {
            if let position = index["\(a)-\(b)"] {
                result[position].resemblance = resemblance
            } else if resemblance >= TextResemblance.nearDuplicateThreshold {
                result.append(copies(a, b, resemblance))
            }
        }
        return result.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// Recomputes every connection through the index; manual links are kept. Returns the
    /// number of screenshots with linkable entities and of edges.
    /// In a shared library, under the lock workers connect under: none adds an edge meanwhile
    /// that the rebuild would then erase.
    public static func rebuild(_ library: Library) throws -> (screenshots: Int, edges: Int) {
        try library.database.whileConnecting { try rebuildUnlocked(library) }
    }

    private static func rebuildUnlocked(_ library: Library) throws -> (screenshots: Int, edges: Int) {
        let screenshots = try linkable(library.database)
        // Copies: band keys of every text, then the pairs sharing one, compared by containment.
        // Each text is read and split into words once; the words are kept in a compact form
        // (the top 32 bits of each hash, still sorted: ~0.5 KB a text) for the comparisons.
        var bands: [(id: Int64, bands: [(band: Int64, rank: Int64)])] = []
        var compact: [Int64: [UInt32]] = [:]
        try library.database.forEachText { id, text in
            let words = TextResemblance.words(in: text)
            let ranked = TextResemblance.rankedBands(of: words)
            bands.append((id, ranked))
            if !ranked.isEmpty { compact[id] = TextResemblance.compact(words) }
        }
        let pairs = try library.database.replaceAllTextBands(bands, neighbours: TextResemblance.neighbours)
        bands = []
        let measured = pairs.compactMap { a, b -> (a: Int64, b: Int64, resemblance: Double)? in
            guard let x = compact[a], let y = compact[b] else { return nil }
            return (a, b, TextResemblance.containment(x, y))
        }
        let connections = addingResemblance(measured, to: ConnectionFinder.rebuild(screenshots))
        try library.database.replaceAllConnections(connections.map(stored))
        // A rebuild follows re-extracted or re-masked entities: the workers' indexes are old.
        try library.database.forgetConnectionIndexes()
        return (screenshots.count, connections.count)
    }

    /// The map to draw, filtered as `lens graph` asks. Near-duplicates are one node (with their
    /// copies listed); with `includingIsolated`, screenshots without connections are added (after
    /// the connected ones, within `maximumNodes`; not with `around`).
    public static func mindMap(_ library: Library, minimumScore: Double, type: String?, around: Int64?, depth: Int,
                               maximumNodes: Int?, includingIsolated: Bool = false) throws -> MindMap {
        let edges = try library.database.edges(minimumScore: minimumScore).map { edge in
            MindMap.Edge(a: edge.a, b: edge.b, score: edge.score, via: describe(edge.via), isManual: edge.isManual, note: edge.note,
                         resemblance: edge.resemblance)
        }
        // Copies are found among all edges, so a --min-score or --type cut does not split them.
        let (merged, copies) = MindMap.mergingNearDuplicates(edges)
        let copyOf = Dictionary(copies.flatMap { main, others in others.map { ($0, main) } }, uniquingKeysWith: { first, _ in first })
        let kept = MindMap.select(merged, type: type, around: around.map { copyOf[$0] ?? $0 }, depth: depth,
                                  maximumNodes: maximumNodes)
        var ids = Array(Set(kept.flatMap { [$0.a, $0.b] })).sorted()
        if let around, ids.isEmpty { ids = [copyOf[around] ?? around] }
        if includingIsolated, around == nil {
            let shown = Set(ids).union(copyOf.keys)
            let room = maximumNodes.map { max(0, $0 - ids.count) } ?? .max
            ids += try library.database.recognizedIDs().lazy.filter { !shown.contains($0) }.prefix(room)
        }
        let allIDs = ids + ids.flatMap { copies[$0] ?? [] }
        let nodes = Dictionary(uniqueKeysWithValues: try library.database.graphNodes(ids: allIDs).map { node in
            (node.id, MindMap.Node(id: node.id, path: node.path, entities: node.entities.map { "\($0.type): \($0.value)" }))
        })
        return MindMap(nodes: ids.compactMap { id in
            guard var node = nodes[id] else { return nil }
            node.copies = (copies[id] ?? []).compactMap { nodes[$0] }
            return node
        }, edges: kept)
    }

    /// `person: jon smith ~ jon smyth`, one line per shared entity.
    static func describe(_ via: String) -> [String] {
        decoded(via).map { $0.a == $0.b ? "\($0.type): \($0.a)" : "\($0.type): \($0.a) ~ \($0.b)" }
    }

    /// The map in `format`. SVG is drawn by GraphViz, each group on its own and the groups
    /// packed by size, largest first, into a near-square picture: up to 300 screenshots each
    /// group is laid out by `dot`, packed by `gvpack -g` and drawn by `neato -n2` (which keeps
    /// the positions and splines); past that `sfdp` lays out and packs in one run. Every program
    /// runs with an argument array and the DOT text on its standard input, never through a shell.
    public static func render(_ map: MindMap, format: Format) throws -> Data {
        switch format {
        case .json: return Data(try GraphJSONWriter.json(map).utf8)
        case .dot: return Data(DOTWriter.dot(map).utf8)
        case .svg:
            if map.nodes.count > 300 || map.nodes.isEmpty {
                return try runFilter(graphViz("sfdp"), ["-Tsvg"], input: Data(DOTWriter.dot(map).utf8))
            }
            let laidOut = try runFilter(graphViz("dot"), ["-Tdot"], input: Data(DOTWriter.componentGraphs(map).utf8))
            let packed = try runFilter(graphViz("gvpack"), ["-g", "-slens"], input: laidOut)
            return try runFilter(graphViz("neato"), ["-n2", "-Tsvg"], input: packed)
        }
    }

    /// Where GraphViz's `program` is installed, if it is.
    static func graphVizProgram(_ program: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + program }.first(where: FileManager.default.isExecutableFile)
    }

    private static func graphViz(_ program: String) throws -> String {
        guard let executable = graphVizProgram(program) else {
            throw MindMapError(message: "SVG needs GraphViz's \(program): install the Debian package graphviz")
        }
        return executable
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
