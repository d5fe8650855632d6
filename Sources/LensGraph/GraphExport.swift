import Foundation

/// A graph to draw: screenshots and the edges between them.
public struct MindMap: Sendable, Equatable {
    public struct Node: Sendable, Equatable {
        public var id: Int64
        public var path: String?
        /// Top entities, as `type: value`.
        public var entities: [String]
        /// Near-duplicates drawn as this node (re-encoded or cropped copies).
        public var copies: [Node]

        public init(id: Int64, path: String?, entities: [String], copies: [Node] = []) {
            self.id = id
            self.path = path
            self.entities = entities
            self.copies = copies
        }

        /// The file name, or `#id` when no path is known.
        public var name: String { path.map { ($0 as NSString).lastPathComponent } ?? "#\(id)" }
    }

    public struct Edge: Sendable, Equatable {
        public var a: Int64, b: Int64
        public var score: Double
        /// What links them, as `type: value` (`value` as in a, and `~ value in b` when it differs).
        public var via: [String]
        public var isManual: Bool
        public var note: String?
        /// `TextResemblance.containment` of the two screenshots' text, when known.
        public var resemblance: Double?

        public init(a: Int64, b: Int64, score: Double, via: [String], isManual: Bool = false, note: String? = nil,
                    resemblance: Double? = nil) {
            self.a = a
            self.b = b
            self.score = score
            self.via = via
            self.isManual = isManual
            self.note = note
            self.resemblance = resemblance
        }

        var isNearDuplicate: Bool { (resemblance ?? 0) >= TextResemblance.nearDuplicateThreshold }
    }

    public var nodes: [Node]
    public var edges: [Edge]

    public init(nodes: [Node], edges: [Edge]) {
        self.nodes = nodes
        self.edges = edges
    }

    /// Near-duplicates as one screenshot: each group of screenshots joined by near-duplicate
    /// edges is represented by its smallest id; edges inside a group go, and edges between two
    /// groups become one (the highest score, every shared entity, manual if any was). Returns the
    /// edges and, for each representative, its copies.
    public static func mergingNearDuplicates(_ edges: [Edge]) -> (edges: [Edge], copies: [Int64: [Int64]]) {
        var representative: [Int64: Int64] = [:]
        func find(_ x: Int64) -> Int64 {
            var root = x
            while let p = representative[root], p != root { root = p }
            return root
        }
        for edge in edges where edge.isNearDuplicate {
            let (ra, rb) = (find(edge.a), find(edge.b))
            representative[ra] = ra
            representative[rb] = rb
            if ra != rb { representative[max(ra, rb)] = min(ra, rb) }
        }
        var copies: [Int64: [Int64]] = [:]
        for id in representative.keys where find(id) != id { copies[find(id), default: []].append(id) }
        var merged: [String: Edge] = [:]
        for edge in edges {
            let (x, y) = (find(edge.a), find(edge.b))
            guard x != y else { continue }
            var moved = edge
            (moved.a, moved.b) = (min(x, y), max(x, y))
            let key = "\(moved.a)-\(moved.b)"
            if var existing = merged[key] {
                existing.score = max(existing.score, moved.score)
                existing.via += moved.via.filter { !existing.via.contains($0) }
                existing.isManual = existing.isManual || moved.isManual
                existing.note = existing.note ?? moved.note
                merged[key] = existing
            } else {
                moved.resemblance = nil
                merged[key] = moved
            }
        }
        return (merged.values.sorted { ($0.a, $0.b) < ($1.a, $1.b) }, copies.mapValues { $0.sorted() })
    }

    /// Connected components, largest total score first; each is a sorted list of ids.
    public static func components(of edges: [Edge]) -> [[Int64]] {
        var parent: [Int64: Int64] = [:]
        func find(_ x: Int64) -> Int64 {
            var root = x
            while let p = parent[root], p != root { root = p }
            var node = x
            while let p = parent[node], p != root { parent[node] = root; node = p }
            return root
        }
        for edge in edges {
            parent[edge.a] = parent[edge.a] ?? edge.a
            parent[edge.b] = parent[edge.b] ?? edge.b
            let (ra, rb) = (find(edge.a), find(edge.b))
            if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
        }
        var groups: [Int64: [Int64]] = [:]
        for node in parent.keys { groups[find(node), default: []].append(node) }
        var weight: [Int64: Double] = [:]
        for edge in edges { weight[find(edge.a), default: 0] += edge.score }
        return groups.sorted { (weight[$0.key] ?? 0, -$0.key) > (weight[$1.key] ?? 0, -$1.key) }.map { $0.value.sorted() }
    }

    /// The edges to draw: those of type `type` (any when nil), within `depth` steps of `around`
    /// (all when nil), and at most `maximumNodes` screenshots, taken whole component by strongest
    /// component (a component larger than what is left keeps its best-connected screenshots).
    public static func select(_ edges: [Edge], type: String? = nil, around: Int64? = nil, depth: Int = 1,
                              maximumNodes: Int? = nil) -> [Edge] {
        var kept = edges.filter { edge in type.map { t in edge.isManual || edge.via.contains { $0.hasPrefix(t + ":") } } ?? true }
        if let around {
            var reached: Set<Int64> = [around], frontier: Set<Int64> = [around]
            for _ in 0..<max(0, depth) {
                var next = Set<Int64>()
                for edge in kept where frontier.contains(edge.a) || frontier.contains(edge.b) {
                    for node in [edge.a, edge.b] where !reached.contains(node) { next.insert(node) }
                }
                reached.formUnion(next)
                frontier = next
            }
            kept = kept.filter { reached.contains($0.a) && reached.contains($0.b) }
        }
        if let maximumNodes {
            var chosen = Set<Int64>()
            for component in components(of: kept) where chosen.count < maximumNodes {
                let room = maximumNodes - chosen.count
                if component.count <= room {
                    chosen.formUnion(component)
                } else {
                    var degree: [Int64: Double] = [:]
                    for edge in kept where component.contains(edge.a) {
                        degree[edge.a, default: 0] += edge.score
                        degree[edge.b, default: 0] += edge.score
                    }
                    chosen.formUnion(component.sorted { (degree[$0] ?? 0, -$0) > (degree[$1] ?? 0, -$1) }.prefix(room))
                }
            }
            kept = kept.filter { chosen.contains($0.a) && chosen.contains($0.b) }
        }
        return kept
    }
}

/// Writes a mind map as GraphViz DOT: one cluster per connected component, nodes labeled with
/// the file name and top entities, edges with what links them and the score.
public enum DOTWriter {
    /// The map as one graph. Its groups (connected components) are drawn apart and packed by
    /// size into a near-square picture (`pack`, `packmode="graph"`) by `neato`, `fdp` and
    /// `sfdp`. (GraphViz 2.42's `dot` drops edge labels when it packs: ``componentGraphs(_:)``
    /// is what `lens graph --format svg` lays out with `dot`.)
    public static func dot(_ map: MindMap) -> String {
        var out = "graph lens {\n" + header(packed: true)
        var drawn = Set<Int64>()
        let nodes = Dictionary(map.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, component) in MindMap.components(of: map.edges).enumerated() {
            out += "  subgraph cluster_\(index + 1) {\n    style=dotted;\n"
            for id in component { out += "    " + line(id, nodes) }
            out += "  }\n"
            drawn.formUnion(component)
        }
        // Screenshots without connections (asked for with --isolated), outside any cluster.
        for node in map.nodes where !drawn.contains(node.id) { out += "  " + line(node.id, nodes) }
        for edge in map.edges { out += "  " + line(edge) }
        return out + "}\n"
    }

    /// The map as one graph per group (connected component), largest first, then one of the
    /// screenshots without connections: to be laid out each on its own (`dot -Tdot`) and packed
    /// (`gvpack -g`), as `lens graph --format svg` does.
    public static func componentGraphs(_ map: MindMap) -> String {
        let nodes = Dictionary(map.nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let components = MindMap.components(of: map.edges)
        var component: [Int64: Int] = [:]
        for (index, ids) in components.enumerated() { for id in ids { component[id] = index } }
        var edges = Array(repeating: [MindMap.Edge](), count: components.count)
        for edge in map.edges { if let index = component[edge.a] { edges[index].append(edge) } }
        var out = ""
        for (index, ids) in components.enumerated() {
            out += "graph group_\(index + 1) {\n" + header(packed: false)
            out += "  subgraph cluster_\(index + 1) {\n    style=dotted;\n"
            for id in ids { out += "    " + line(id, nodes) }
            out += "  }\n"
            for edge in edges[index] { out += "  " + line(edge) }
            out += "}\n"
        }
        let isolated = map.nodes.filter { component[$0.id] == nil }
        if !isolated.isEmpty {
            out += "graph isolated {\n" + header(packed: true)
            for node in isolated { out += "  " + line(node.id, nodes) }
            out += "}\n"
        }
        return out
    }

    private static func header(packed: Bool) -> String {
        "  graph [overlap=false, splines=true, fontname=\"Helvetica\"\(packed ? ", pack=true, packmode=\"graph\"" : "")];\n"
            + "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=8];\n"
    }

    private static func line(_ id: Int64, _ nodes: [Int64: MindMap.Node]) -> String {
        let node = nodes[id] ?? MindMap.Node(id: id, path: nil, entities: [])
        var label = [node.name]
        if !node.copies.isEmpty {
            label.append("+ \(node.copies.count) near-duplicate\(node.copies.count == 1 ? "" : "s"): "
                         + node.copies.map(\.name).joined(separator: ", "))
        }
        label += node.entities
        return "n\(id) [label=\(quoted(label.joined(separator: "\n"))), tooltip=\(quoted(node.path ?? node.name))];\n"
    }

    private static func line(_ edge: MindMap.Edge) -> String {
        var label = edge.via.joined(separator: "\n")
        if edge.isManual { label = (["linked by hand" + (edge.note.map { ": \($0)" } ?? "")] + edge.via).joined(separator: "\n") }
        let style = edge.isManual ? ", style=dashed" : ""
        return "n\(edge.a) -- n\(edge.b) [label=\(quoted(label + String(format: "\n%.2f", edge.score))), "
            + "penwidth=\(String(format: "%.1f", 1 + 3 * edge.score))\(style)];\n"
    }

    /// A DOT string literal: backslashes and quotes escaped, line breaks as `\n`, control
    /// characters dropped, so no label text can end the string or inject attributes.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default:
                if scalar.properties.generalCategory == .control { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Writes a mind map as JSON: `{"nodes":[{"id","path","name","entities","copies":[{"id","path"}]}],"edges":[{"source","target","score","via","manual","note"}]}`.
public enum GraphJSONWriter {
    struct Document: Encodable {
        struct Copy: Encodable { var id: Int64; var path: String? }
        struct Node: Encodable { var id: Int64; var path: String?; var name: String; var entities: [String]; var copies: [Copy] }
        struct Edge: Encodable { var source: Int64; var target: Int64; var score: Double; var via: [String]; var manual: Bool; var note: String? }
        var nodes: [Node]
        var edges: [Edge]
    }

    public static func json(_ map: MindMap) throws -> String {
        let document = Document(
            nodes: map.nodes.map { node in
                .init(id: node.id, path: node.path, name: node.name, entities: node.entities,
                      copies: node.copies.map { .init(id: $0.id, path: $0.path) })
            },
            edges: map.edges.map { .init(source: $0.a, target: $0.b, score: ($0.score * 1000).rounded() / 1000, via: $0.via,
                                         manual: $0.isManual, note: $0.note) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}
