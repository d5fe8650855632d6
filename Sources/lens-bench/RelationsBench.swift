import ArgumentParser
import Foundation
import LensApp
import LensGraph
import LensStore

/// The mind map of a corpus against its designed relations (`relations.json`, `duplicates.json`).
struct RelationsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relations",
        abstract: "Import a corpus with lens, then score the mind map against relations.json and duplicates.json.",
        discussion: """
            Designed edges: a pair counts as found when the map (near-duplicates merged) has an \
            edge between them. Near misses: pairs of different entities with similar values; one \
            counts as linked when an edge between them goes through that entity type. Edges that \
            touch an 'unrelated' screenshot (one sharing no entity with any other) are listed. \
            Duplicates: exact copies must be one screenshot, near ones one node.

            Example: lens-bench relations ../shared/corpus/public
            """)

    @Argument(help: "A corpus folder with relations.json and duplicates.json (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "Use this database (already imported) instead of importing into a temporary one.")
    var db: String?

    @Option(help: "The lens binary that imports.")
    var lens: String = Measure.siblingLens

    func run() throws {
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        var work: URL?
        let database: String
        if let db {
            database = db
        } else {
            let temporary = try Measure.makeTemporaryFolder("lens-bench-relations")
            work = temporary
            database = temporary.appendingPathComponent("lens.db").path
            let (status, seconds) = try Measure.time {
                try Measure.run(lens, ["import", "--no-progress", "--db", database, folder.path], environment: Measure.benchEnvironment)
            }
            guard status == 0 || status == 1 else { throw ValidationError("lens import exited with \(status)") }
            print(String(format: "imported %@ in %.1f s", folder.path, seconds))
        }
        defer { if let work { try? FileManager.default.removeItem(at: work) } }

        let library = try Library(databasePath: database)
        func id(_ file: String) throws -> Int64? { try library.database.screenshotID(forPath: folder.appendingPathComponent(file).path) }
        let map = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: nil,
                                              includingIsolated: true)
        var node: [Int64: Int64] = [:] // screenshot → the node drawing it
        for drawn in map.nodes {
            node[drawn.id] = drawn.id
            for copy in drawn.copies { node[copy.id] = drawn.id }
        }
        func edge(_ a: String, _ b: String) throws -> MindMap.Edge? {
            guard let x = try id(a), let y = try id(b) else { return nil }
            let (p, q) = (node[x] ?? x, node[y] ?? y)
            return map.edges.first { ($0.a, $0.b) == (min(p, q), max(p, q)) }
        }

        let relations = try Self.json(folder.appendingPathComponent("relations.json"))
        var found = 0, designed = 0, byType: [String: (found: Int, total: Int)] = [:]
        var missed: [String] = []
        for pair in relations["edges"] as? [[String: Any]] ?? [] {
            guard let a = pair["a"] as? String, let b = pair["b"] as? String, let type = pair["type"] as? String else { continue }
            designed += 1
            let hit = try edge(a, b) != nil
            if hit { found += 1 } else { missed.append("  missed \(type): \(a) – \(b) \(pair["values"] ?? "")") }
            byType[type, default: (0, 0)].found += hit ? 1 : 0
            byType[type, default: (0, 0)].total += 1
        }
        print(String(format: "designed edges found: %d / %d (recall %.2f; goal ≥ 0.9)", found, designed, Double(found) / Double(max(1, designed))))
        for (type, counts) in byType.sorted(by: { $0.key < $1.key }) { print("  \(type): \(counts.found) / \(counts.total)") }
        missed.forEach { print($0) }

        var nearMisses = 0, linkedMisses = 0
        for pair in relations["near_miss"] as? [[String: Any]] ?? [] {
            guard let a = pair["a"] as? String, let b = pair["b"] as? String, let type = pair["type"] as? String else { continue }
            nearMisses += 1
            if let edge = try edge(a, b), edge.via.contains(where: { $0.hasPrefix(type + ":") }) {
                linkedMisses += 1
                print("  linked near miss \(type): \(a) – \(b): \(edge.via.joined(separator: "; "))")
            }
        }
        print("near-miss pairs linked through their entity: \(linkedMisses) / \(nearMisses) (goal 0)")

        let unrelated = Set(try (relations["unrelated"] as? [String] ?? []).compactMap { try id($0) })
        let touching = map.edges.filter { unrelated.contains($0.a) || unrelated.contains($0.b) }
        print("edges touching an unrelated screenshot: \(touching.count) of \(map.edges.count) edges")
        for edge in touching { print("  \(edge.a) – \(edge.b): \(edge.via.joined(separator: "; "))") }

        let duplicates = try Self.json(folder.appendingPathComponent("duplicates.json"))
        var exact = (0, 0), near = (0, 0)
        for pair in duplicates["pairs"] as? [[String: Any]] ?? [] {
            guard let a = pair["a"] as? String, let b = pair["b"] as? String, let x = try id(a), let y = try id(b) else { continue }
            if pair["expected"] as? String == "exact_duplicate" {
                exact.1 += 1
                if x == y { exact.0 += 1 }
            } else {
                near.1 += 1
                if let p = node[x], p == node[y] { near.0 += 1 } else { print("  near-duplicate not merged: \(a) – \(b)") }
            }
        }
        print("exact duplicates stored once: \(exact.0) / \(exact.1); near-duplicates drawn as one node: \(near.0) / \(near.1)")
    }

    static func json(_ url: URL) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: url.path),
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("cannot read \(url.path)")
        }
        return object
    }
}
