import ArgumentParser
import Foundation
import LensApp
import LensCore

/// Scores entity extraction on third-party test cases (`Tests/EntityCases/*.jsonl`, collected
/// by `collect.py` from other projects' test suites and an annotated corpus): P/R/F1 per type,
/// per source and split.
struct EntityCaseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entity-cases",
        abstract: "Score entity extraction on third-party cases: precision, recall and F1 per type, source and split.",
        discussion: """
            A case lists the types its source annotates; only those are counted. A found entity \
            is right when it matches an expected one of its type: dates by ISO date (a date \
            written without a year by month and day), money by amount (and currency when the \
            case names one), phones by E.164, URLs by the text as written (case and a final `/` \
            aside), e-mails and names by the text. --show lists misses and wrong finds of one \
            type in the dev split only: the held-out split is scored, never read.

            Example: lens-bench entity-cases Tests/EntityCases
            """)

    @Argument(help: "The folder of case files (Tests/EntityCases).")
    var folder: String

    @Option(help: ArgumentHelp("List the dev split's misses and wrong finds of this type.", valueName: "type"))
    var show: String?

    @Option(help: "The region for cases that name none.")
    var region = "US"

    struct Case: Decodable {
        struct Expected: Decodable { var type: String; var value: String; var normalized: String? }
        var source: String
        var split: String
        var text: String
        var types: [String]
        var entities: [Expected]
        var region: String?
        var reference: String?
    }

    struct Tally {
        var expected = 0, predicted = 0, correct = 0
        mutating func add(_ other: Tally) { expected += other.expected; predicted += other.predicted; correct += other.correct }
        var precision: Double { predicted == 0 ? .nan : Double(correct) / Double(predicted) }
        var recall: Double { expected == 0 ? .nan : Double(correct) / Double(expected) }
        var f1: Double { precision + recall == 0 || precision.isNaN || recall.isNaN ? 0 : 2 * precision * recall / (precision + recall) }
    }

    func run() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
        var cases: [Case] = []
        for file in files {
            let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
            for line in text.split(separator: "\n") where !line.isEmpty {
                cases.append(try JSONDecoder().decode(Case.self, from: Data(line.utf8)))
            }
        }
        var tallies: [String: Tally] = [:]   // "type|source|split"
        var seconds = 0.0
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        iso.timeZone = TimeZone(identifier: "UTC")
        for item in cases {
            let caseRegion = item.region ?? region
            let reference = item.reference.flatMap { iso.date(from: $0) } ?? Date()
            let (found, time) = Measure.time {
                EntityExtractors.entitiesMaskingSecrets(in: item.text, region: caseRegion, reference: reference)
            }
            seconds += time
            for typeName in item.types {
                guard let type = EntityType(rawValue: typeName) else { continue }
                var tally = Tally()
                var unused = found.filter { entity in
                    entity.type == type && !(type == .person && Self.isInHandleOrHashtag(entity, in: item.text))
                }
                tally.predicted = unused.count
                for expected in item.entities where expected.type == typeName {
                    tally.expected += 1
                    if let index = unused.firstIndex(where: { Self.matches($0, expected) }) {
                        tally.correct += 1
                        unused.remove(at: index)
                    } else if show == typeName, item.split == "dev" {
                        print("missed  [\(item.source)] \(expected.value) \(expected.normalized ?? "")  in: \(item.text.prefix(160).replacingOccurrences(of: "\n", with: "⏎"))")
                    }
                }
                if show == typeName, item.split == "dev" {
                    for wrong in unused {
                        print("wrong   [\(item.source)] \(wrong.value) → \(wrong.normalized)  in: \(item.text.prefix(160).replacingOccurrences(of: "\n", with: "⏎"))")
                    }
                }
                tallies["\(typeName)|\(item.source)|\(item.split)", default: Tally()].add(tally)
                tallies["\(typeName)|all|\(item.split)", default: Tally()].add(tally)
                tallies["\(typeName)|all|all", default: Tally()].add(tally)
            }
        }
        print("\(cases.count) cases from \(files.joined(separator: ", ")); extraction \(String(format: "%.3f", seconds * 1000 / Double(max(1, cases.count)))) ms per case")
        print("type    source                  split     expected  found  correct  precision  recall    F1")
        for key in tallies.keys.sorted() {
            let parts = key.split(separator: "|").map(String.init)
            let t = tallies[key]!
            print(parts[0].padding(toLength: 8, withPad: " ", startingAt: 0) + parts[1].padding(toLength: 24, withPad: " ", startingAt: 0)
                  + parts[2].padding(toLength: 8, withPad: " ", startingAt: 0)
                  + String(format: " %8d %6d %8d     %5.2f   %5.2f   %5.2f", t.expected, t.predicted, t.correct, t.precision, t.recall, t.f1))
        }
    }

    /// Whether a found name is (inside) an @-handle or a hashtag: those are not scored (see collect.py).
    static func isInHandleOrHashtag(_ entity: Entity, in text: String) -> Bool {
        let utf8 = Array(text.utf8)
        var i = entity.start
        while i > 0, utf8[i - 1] != 0x20, utf8[i - 1] != 0x0A { i -= 1 }
        return utf8[i] == UInt8(ascii: "@") || utf8[i] == UInt8(ascii: "#")
    }

    static func matches(_ entity: Entity, _ expected: Case.Expected) -> Bool {
        switch entity.type {
        case .date:
            guard let normalized = expected.normalized else { return false }
            if normalized.hasPrefix("--") { return entity.normalized.dropFirst(4).hasPrefix(normalized.dropFirst()) }
            return entity.normalized.hasPrefix(normalized)
        case .money:
            guard let normalized = expected.normalized else { return false }
            let want = normalized.split(separator: " "), got = entity.normalized.split(separator: " ")
            guard let wantAmount = want.first.flatMap({ Decimal(string: String($0)) }),
                  let gotAmount = got.first.flatMap({ Decimal(string: String($0)) }), wantAmount == gotAmount else { return false }
            return want.count < 2 || (got.count > 1 && want[1] == got[1])
        case .phone:
            return expected.normalized.map { $0 == entity.normalized } ?? false
        case .url:
            func key(_ s: String) -> String { var t = s.lowercased(); while t.hasSuffix("/") { t.removeLast() }; return t }
            return key(entity.value) == key(expected.value)
        case .email:
            return entity.value.lowercased() == expected.value.lowercased()
        case .person:
            return entity.value.split(whereSeparator: \.isWhitespace) == expected.value.split(whereSeparator: \.isWhitespace)
        case .secret:
            return false
        }
    }
}
