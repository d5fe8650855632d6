import ArgumentParser
import Foundation
import LensCore
import LensPhone

/// Scores entity extraction against the corpus labels, on the ground-truth text or on OCR output.
struct EntityBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entities",
        abstract: "Score entity extraction against a corpus's labels: recall and precision per type.",
        discussion: """
            An extracted entity matches a label of the same type when their normalized values are \
            equal; a date also matches when it adds seconds the label leaves out (log lines show \
            04:11:22, the labels say 04:11). Precision counts only images whose labels are \
            complete. Duplicate copies are skipped. With --ocr, the text is DIR/STEM.txt (e.g. from \
            lens-bench ocr) instead of the ground truth.

            Example: lens-bench entities ../shared/corpus/public --ocr /tmp/ocr-eval/psm6
            """)

    @Argument(help: "A corpus folder with sidecar JSON files (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "A folder of OCR outputs (STEM.txt) to extract from instead of the ground-truth text.")
    var ocr: String?

    @Option(help: "The default region for phone numbers and numeric dates.")
    var region = "US"

    @Option(help: ArgumentHelp("Also list the missed labels and the wrong extractions of this type.", valueName: "type"))
    var show: String?

    @Option(help: "The Public Suffix List.")
    var suffixes = "/usr/share/publicsuffix/public_suffix_list.dat"

    func run() throws {
        let folder = URL(fileURLWithPath: corpus)
        guard let list = try? String(contentsOfFile: suffixes, encoding: .utf8) else {
            throw ValidationError("cannot read \(suffixes) (Debian package publicsuffix)")
        }
        let extractor = EntityExtractor(region: region, suffixes: PublicSuffixList(parsing: list), phoneFinder: PhoneNumberLibrary())
        // Tables built once per process (the census lists, the name model) are built here, so the
        // time per image is what a running daemon pays.
        let (_, warmUp) = Measure.time { extractor.entities(in: "Warm-up: Sarah Connor paid $5 on May 9, 2024 at example.org") }
        print("first extraction (builds the tables): \(String(format: "%.1f", warmUp * 1000)) ms")
        var labels: [EntityType: Int] = [:], hits: [EntityType: Int] = [:]
        var extracted: [EntityType: Int] = [:], correct: [EntityType: Int] = [:]
        var seconds = 0.0, images = 0
        var receipts = (total: 0, recognized: 0, vendor: 0, amount: 0, date: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where name.hasSuffix(".json") && !["manifest.json", "duplicates.json", "relations.json"].contains(name) {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                  let sidecar = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  sidecar["duplicate_of"] == nil, let truth = sidecar["text"] as? String else { continue }
            let stem = (name as NSString).deletingPathExtension
            let text = try ocr.map { try String(contentsOfFile: "\($0)/\(stem).txt", encoding: .utf8) } ?? truth
            let (found, time) = Measure.time { extractor.entities(in: text) }
            seconds += time
            images += 1
            var unused = found
            let isComplete = sidecar["labels_complete"] as? Bool ?? false
            for label in sidecar["entities"] as? [[String: Any]] ?? [] {
                guard let type = (label["type"] as? String).flatMap(EntityType.init(rawValue:)),
                      let normalized = label["normalized"] as? String else { continue }
                labels[type, default: 0] += 1
                if let index = unused.firstIndex(where: { Self.matches($0, type: type, normalized: normalized) }) {
                    hits[type, default: 0] += 1
                    if isComplete { correct[type, default: 0] += 1 }
                    unused.remove(at: index)
                } else if show == type.rawValue {
                    print("missed  \(stem): \(label["value"] as? String ?? "")")
                }
            }
            if isComplete, let show { for entity in unused where entity.type.rawValue == show { print("wrong   \(stem): \(entity.value)") } }
            if isComplete { for entity in found { extracted[entity.type, default: 0] += 1 } }
            if sidecar["template"] as? String == "receipt" {
                // The labels have no receipt fields: the first line is the vendor, the amount
                // labelled on the TOTAL line the total, the first labelled non-due date the date.
                let labelled = (sidecar["entities"] as? [[String: Any]] ?? []).compactMap { label -> (String, String, String)? in
                    guard let type = label["type"] as? String, let value = label["value"] as? String,
                          let normalized = label["normalized"] as? String else { return nil }
                    return (type, value, normalized)
                }
                let lines = truth.split(separator: "\n").map(String.init)
                let totalLine = lines.last { $0.uppercased().hasPrefix("TOTAL") } ?? ""
                let expected = Receipt(
                    vendor: lines.first,
                    total: labelled.last { $0.0 == "money" && totalLine.contains($0.1) }?.2 ?? "?",
                    date: labelled.first { label in label.0 == "date" && !lines.contains { $0.lowercased().contains("due") && $0.contains(label.1) } }
                        .map { String($0.2.prefix(10)) })
                let read = ReceiptReading.receipt(in: text, entities: found)
                receipts.total += 1
                if read != nil { receipts.recognized += 1 }
                if read?.vendor == expected.vendor { receipts.vendor += 1 }
                if read?.total == expected.total { receipts.amount += 1 }
                if read?.date == expected.date { receipts.date += 1 }
                if show == "receipt", read != expected { print("receipt \(stem): read \(String(describing: read)), expected \(expected)") }
            }
        }
        print("images: \(images), text: \(ocr ?? "ground truth"), region \(region); extraction \(String(format: "%.2f", seconds * 1000 / Double(max(1, images)))) ms per image")
        print("type      labels   found   recall   extracted*  correct*  precision*")
        for type in EntityType.allCases {
            let l = labels[type, default: 0], h = hits[type, default: 0], e = extracted[type, default: 0], c = correct[type, default: 0]
            print(type.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + String(format: " %7d %7d  %6.1f%%  %10d  %8d   %6.1f%%", l, h,
                         l > 0 ? 100 * Double(h) / Double(l) : .nan, e, c, e > 0 ? 100 * Double(c) / Double(e) : .nan))
        }
        print("* on images whose labels are complete")
        print("receipts: \(receipts.recognized) / \(receipts.total) recognized; vendor \(receipts.vendor), total \(receipts.amount), "
              + "date \(receipts.date) correct")
    }

    static func matches(_ entity: Entity, type: EntityType, normalized: String) -> Bool {
        guard entity.type == type else { return false }
        if entity.normalized == normalized { return true }
        return type == .date && entity.normalized.hasPrefix(normalized + ":")
    }
}
