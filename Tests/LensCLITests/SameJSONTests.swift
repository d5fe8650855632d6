import Foundation
import LensTestSupport
import Testing

/// `lens serve`, `lens search` and every read command answer a shared library with the JSON they
/// give for a file: the same samples imported into each, every read command run on both, the
/// same keys at every level and the same screenshots, texts, entities and connections.
struct SameJSONTests {
    /// Every key path in `value` (`.hits[].paths`), arrays merged.
    static func keys(_ value: Any, _ prefix: String = "") -> Set<String> {
        if let object = value as? [String: Any] {
            return object.reduce(into: Set<String>()) { found, pair in
                found.insert(prefix + "." + pair.key)
                found.formUnion(keys(pair.value, prefix + "." + pair.key))
            }
        }
        if let array = value as? [Any] { return array.reduce(into: Set<String>()) { $0.formUnion(keys($1, prefix + "[]")) } }
        return []
    }

    /// `key`'s value in `value` (in each element of an array), as canonical JSON.
    static func field(_ value: Any, _ key: String) -> String {
        func canonical(_ item: Any?) -> String {
            guard let item else { return "-" }
            if let data = try? JSONSerialization.data(withJSONObject: item, options: [.sortedKeys, .fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
            return "\(item)"
        }
        if let array = value as? [[String: Any]] { return array.map { canonical($0[key]) }.joined(separator: "|") }
        return canonical((value as? [String: Any])?[key])
    }

    @Test func readCommandsAnswerTheSameJSONOnBothStores() throws {
        let file = try LensBinary(), shared = try LensBinary(.postgresql)
        for lens in [file, shared] {
            let imported = try lens.run(["import", "--json", "--workers", "1", TestSupport.samplesFolder.path])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        // What is compared beside the keys: values that do not depend on the store or the clock.
        let commands: [(arguments: [String], same: [String])] = [
            (["search", "--json", "--limit", "20", "receipt"], ["id", "path", "paths", "snippet", "matches"]),
            (["search", "--json", "--exact", "--limit", "20", "555-0132"], ["id", "paths", "snippet"]),
            (["search", "--json", "--limit", "20", "--type", "phone"], ["id", "paths"]),
            (["search", "--json", "--meaning", "--limit", "5", "dessert bought at a coffee shop"], ["id", "semantic"]),
            (["show", "1", "--json"], ["text", "paths", "entities", "tags", "note", "width", "height", "format"]),
            (["similar", "1", "--json", "--limit", "3"], ["id", "semantic"]),
            (["stats", "--json"], ["screenshots", "done", "queued", "failed", "with_text", "with_entities", "by_entity_type", "by_month"]),
            (["tags", "--json"], ["tag", "count"]),
            (["entities", "--json"], ["type", "normalized", "screenshots", "occurrences"]),
            (["history", "--json"], ["kind", "items"]),
            (["graph", "--format", "json"], ["edges"]),
            (["status", "--json"], ["counts"]),
        ]
        for (arguments, same) in commands {
            let a = try file.run(arguments), b = try shared.run(arguments)
            #expect(a.status == 0 && b.status == 0, "\(arguments): \(a.stderr) \(b.stderr)")
            let x = try a.json(), y = try b.json()
            #expect(Self.keys(x) == Self.keys(y), "\(arguments): \(Self.keys(x).symmetricDifference(Self.keys(y)).sorted())")
            for key in same {
                #expect(Self.field(x, key) == Self.field(y, key), "\(arguments) \(key): \(Self.field(x, key).prefix(300)) ≠ \(Self.field(y, key).prefix(300))")
            }
        }
        // An export line: the same record, but for the import time.
        let lines = try [file, shared].map { try $0.run(["export"]).stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? "" }
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(Self.keys(records[0]) == Self.keys(records[1]))
        for key in ["sha256", "text", "words", "entities", "paths"] where key != "paths" {
            #expect(Self.field(records[0], key) == Self.field(records[1], key), "export \(key)")
        }
    }
}
