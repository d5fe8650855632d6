import ArgumentParser
import Foundation
import LensCore

/// Scores the secret detector on third-party cases and on real text that holds no secrets.
struct SecretBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Score secret detection: precision and recall per kind and per source, false alarms on real text, time per text.",
        discussion: """
            --cases is a JSON Lines file of {"text","kinds","source"} (Tests/SecretCases/cases.jsonl, \
            collected from other projects' test suites). A case counts once per kind: found when it \
            expects the kind, a false alarm when it does not ("password|api_key" accepts either). \
            --real names files or folders of real text with no secrets in them (Debian changelogs, \
            man pages; .gz is read with zcat): they are cut into screenshot-sized pieces of 40 lines and \
            every secret found there is a false alarm, listed with --show. --corpus adds a corpus's \
            ground-truth texts (which hold no secrets) and times the detector on them. --masked FILE \
            writes the pieces masking changes; the files of two builds, diffed, show what a change of \
            rules masks anew or no longer (--all-files reads test logs and the rest too).

            Example: lens-bench secrets --cases Tests/SecretCases/cases.jsonl --real /usr/share/doc --corpus ../shared/corpus/public
            """)

    @Option(help: "Third-party cases (JSON Lines).")
    var cases: String?

    @Option(parsing: .upToNextOption, help: "Files or folders of real text without secrets.")
    var real: [String] = []

    @Option(help: "Read at most this many files from --real.")
    var maxFiles = 3000

    @Option(help: "A corpus folder whose JSON sidecars hold ground-truth text (negatives, and the timing).")
    var corpus: String?

    @Option(help: "How many times the detector reads every corpus text when timed (each round timed apart).")
    var rounds = 20

    @Flag(help: "Read every text file under --real folders (test logs, READMEs, …), not only changelogs, copyright files, man pages and .txt.")
    var allFiles = false

    @Option(help: "Write every --real piece that masking changes to this file, one line each (file, line, the masked text as JSON), to diff two builds' files.")
    var masked: String?

    @Flag(help: "List the misses and false alarms.")
    var show = false

    func run() throws {
        let detector = SecretDetector()
        if let cases { try scoreCases(cases, detector) }
        if !real.isEmpty { try scoreReal(detector) }
        if let corpus { try scoreCorpus(corpus, detector) }
    }

    struct Tally {
        var expected = 0, found = 0, falseAlarms = 0
        var recall: Double { expected == 0 ? .nan : Double(found) / Double(expected) }
        var precision: Double { found + falseAlarms == 0 ? .nan : Double(found) / Double(found + falseAlarms) }
        var f1: Double { 2 * precision * recall / (precision + recall) }
    }

    func scoreCases(_ path: String, _ detector: SecretDetector) throws {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        var byKind: [String: Tally] = [:], bySource: [String: Tally] = [:]
        var leaked = 0, withValue = 0
        // Provider keys that only show a key's shape (`AKIAZZZZ…`, `AP6xxxxxxxxxx`), which Lens leaves
        // alone on purpose: a run of 6+ of one character, which a random key of 20–40 characters
        // holds with a chance under one in a million. Counted apart, never taken out of the table.
        var shapeOnly = Tally(), keysOnly = Tally()
        for line in lines {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let text = object["text"] as? String, let kinds = object["kinds"] as? [String],
                  let source = object["source"] as? String else { continue }
            let project = String(source.prefix { $0 != "@" })
            let found = Set(detector.secrets(in: text).map(\.kind.rawValue))
            var unmatched = found
            for expected in kinds {
                let accepted = Set(expected.split(separator: "|").map(String.init))
                let kind = expected.replacingOccurrences(of: "|", with: " or ")
                byKind[kind, default: Tally()].expected += 1
                bySource[project, default: Tally()].expected += 1
                if let hit = accepted.first(where: found.contains) {
                    byKind[kind]!.found += 1
                    bySource[project]!.found += 1
                    unmatched.remove(hit)
                } else if show {
                    print("  missed \(kind) [\(project)]: \(text.prefix(160).debugDescription)")
                }
            }
            for kind in unmatched {
                byKind[kind, default: Tally()].falseAlarms += 1
                bySource[project, default: Tally()].falseAlarms += 1
                if show { print("  false \(kind) [\(project)]: \(text.prefix(160).debugDescription)") }
            }
            if kinds.contains("api_key") {
                let isShapeOnly = Self.holdsRun(of: 6, in: text)
                if isShapeOnly { shapeOnly.expected += 1 } else { keysOnly.expected += 1 }
                if found.contains("api_key") {
                    if isShapeOnly { shapeOnly.found += 1 } else { keysOnly.found += 1 }
                }
            }
            if let value = object["secret"] as? String, !kinds.isEmpty {
                withValue += 1
                if detector.masking(text).text.contains(value) { leaked += 1 }
            }
        }
        print("third-party cases (\(lines.count)): a case counts once per kind")
        printTable(byKind, heading: "kind")
        printTable(bySource, heading: "source")
        if withValue > 0 { print("values left in the masked text: \(leaked) of \(withValue) cases that name their value") }
        if shapeOnly.expected > 0 {
            print(String(format: "api_key cases that show a shape only (a run of 6+ of one character): %d, found %d; the other %d: recall %.3f",
                         shapeOnly.expected, shapeOnly.found, keysOnly.expected, keysOnly.recall))
        }
    }

    /// Whether `text` holds `length` copies of one letter, digit or symbol in a row.
    static func holdsRun(of length: Int, in text: String) -> Bool {
        var run = 0
        var previous: Character?
        for character in text where !character.isWhitespace {
            run = character == previous ? run + 1 : 1
            if run >= length { return true }
            previous = character
        }
        return false
    }

    func printTable(_ tallies: [String: Tally], heading: String) {
        print(heading.padding(toLength: 24, withPad: " ", startingAt: 0) + "expected  found  false  precision  recall    F1")
        for (name, t) in tallies.sorted(by: { $0.key < $1.key }) {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0)
                  + String(format: "%8d %6d %6d %10.3f %7.3f %6.3f", t.expected, t.found, t.falseAlarms, t.precision, t.recall, t.f1))
        }
    }

    func scoreReal(_ detector: SecretDetector) throws {
        var files: [String] = []
        for root in real {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                let walker = FileManager.default.enumerator(atPath: root)
                while let name = walker?.nextObject() as? String {
                    if allFiles || name.hasSuffix("changelog.Debian.gz") || name.hasSuffix(".1.gz") || name.hasSuffix(".txt") || name.hasSuffix("copyright") {
                        files.append(root + "/" + name)
                    }
                }
            } else {
                files.append(root)
            }
        }
        files = Array(files.sorted().prefix(maxFiles))
        var pieces = 0, bytes = 0
        var alarms: [String: Int] = [:]
        // (Two builds' files, diffed, show what a change of rules masks anew or no longer: how this
        // round's regressions in real text were found.)
        var maskedLines: [String] = []
        for file in files {
            guard let text = Self.read(file) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix(".") && !$0.hasPrefix("'\\\"") } // roff requests of man pages
            for chunk in stride(from: 0, to: lines.count, by: 40) {
                let piece = lines[chunk..<min(lines.count, chunk + 40)].joined(separator: "\n")
                pieces += 1
                bytes += piece.utf8.count
                // (One detection per piece: masking returns what it found.)
                let result = detector.masking(piece)
                if masked != nil, !result.secrets.isEmpty, let json = try? JSONEncoder().encode(result.text) {
                    maskedLines.append("\(file):\(chunk + 1)\t" + String(decoding: json, as: UTF8.self))
                }
                for secret in result.secrets {
                    alarms[secret.kind.rawValue, default: 0] += 1
                    if show {
                        let utf8 = Array(piece.utf8)
                        let from = max(0, secret.start - 40), to = min(utf8.count, secret.end + 20)
                        print("  false \(secret.kind.rawValue) in \(file): \(String(decoding: utf8[from..<to], as: UTF8.self).debugDescription)")
                    }
                }
            }
        }
        if let masked {
            try (maskedLines.joined(separator: "\n") + "\n").write(toFile: masked, atomically: true, encoding: .utf8)
            print("wrote the \(maskedLines.count) pieces that masking changes to \(masked)")
        }
        print("real text without secrets: \(files.count) files, \(pieces) pieces of 40 lines, \(bytes / 1_000_000) MB")
        for kind in SecretKind.allCases {
            let n = alarms[kind.rawValue, default: 0]
            print("  \(kind.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)) \(n) false alarms (\(String(format: "%.2f", Double(n) * 1000 / Double(max(pieces, 1)))) per 1,000 pieces)")
        }
    }

    static func read(_ path: String) -> String? {
        guard path.hasSuffix(".gz") else { return try? String(contentsOfFile: path, encoding: .utf8) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/zcat")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func scoreCorpus(_ folder: String, _ detector: SecretDetector) throws {
        let texts = try Measure.groundTruthTexts(in: folder)
        var alarms = 0
        for text in texts {
            for secret in detector.secrets(in: text) {
                alarms += 1
                if show {
                    let utf8 = Array(text.utf8)
                    let from = max(0, secret.start - 40), to = min(utf8.count, secret.end + 20)
                    print("  corpus \(secret.kind.rawValue): \(String(decoding: utf8[from..<to], as: UTF8.self).debugDescription)")
                }
            }
        }
        // Time: every text, several rounds, each round timed apart. The fastest round and the
        // median are printed: on a shared machine a round that another process interrupted is
        // slower, never faster, so the fastest is the steadiest figure to compare two builds by.
        let rounds = max(1, self.rounds)
        var sink = 0
        func perText(_ detector: SecretDetector) -> (fastest: Double, median: Double) {
            var times: [Double] = []
            for _ in 0..<rounds {
                let start = ContinuousClock.now
                for text in texts { sink &+= detector.secrets(in: text).count }
                times.append((ContinuousClock.now - start).seconds * 1000 / Double(max(texts.count, 1)))
            }
            times.sort()
            return (times[0], times[times.count / 2])
        }
        let all = perText(detector)
        var perKind: [String] = []
        for kind in SecretKind.allCases {
            let one = perText(SecretDetector(kinds: [kind]))
            perKind.append(String(format: "%@ %.3f", kind.rawValue, one.fastest))
        }
        let meanBytes = texts.reduce(0) { $0 + $1.utf8.count } / max(texts.count, 1)
        print("corpus ground truth: \(texts.count) texts (mean \(meanBytes) bytes), \(alarms) secrets found (none are labelled)")
        print(String(format: "detection time: %.3f ms per screenshot in the fastest of %d rounds over %d texts, %.3f in the median round%@",
                     all.fastest, rounds, texts.count, all.median, sink < 0 ? "" : ""))
        print("  each kind alone (ms, fastest round): " + perKind.joined(separator: ", "))
    }
}
