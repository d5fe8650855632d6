import ArgumentParser
import Foundation
import LensApp
import LensCore
import LensStore

/// OCR-noise-tolerant search, measured two ways on a corpus with ground truth:
/// - injected: a library of the ground-truth texts in which one word per screenshot is misread
///   with one OCR confusion (`rn`↔`m`, `l`/`1`/`I`, `0`/`O`, `5`/`S`, `cl`↔`d`, `vv`↔`w`, a letter
///   dropped or doubled), searched with the word spelled right;
/// - real: the library Lens's own OCR makes of the corpus, searched with ground-truth words that
///   OCR misread on that screenshot (data the confusions were not written from).
/// And how often fuzzy hits displace an exact query's top 10 (they come after: the goal is 0).
struct FuzzyBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzzy",
        abstract: "Measure how often a misread word still finds its screenshot, and that exact results keep their places.",
        discussion: "Example: lens-bench fuzzy ../shared/corpus/public")

    @Argument(help: "A corpus folder of NAME.png with NAME.json ground truth (its 'text').")
    var corpus: String

    @Option(help: "The lens binary that imports (for the real-OCR part).")
    var lens: String = Measure.siblingLens

    @Option(help: "Words tried per screenshot.")
    var wordsPerScreenshot = 4

    func run() throws {
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var truths: [(file: String, text: String)] = []
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let file = object["file"] as? String, let text = object["text"] as? String else { continue }
            truths.append((file, text))
        }
        print("\(truths.count) screenshots with ground truth in \(folder.path)")
        let work = try Measure.makeTemporaryFolder("lens-bench-fuzzy")
        defer { try? FileManager.default.removeItem(at: work) }
        try injected(truths, work: work)
        try real(truths, folder: folder, work: work)
    }

    /// Words worth searching for: letters only, five or more, not too common in the corpus.
    private func words(of text: String, documentFrequency: [String: Int], limit: Int) -> [String] {
        var seen = Set<String>()
        return SearchQuery.searchTokens(in: text).filter { word in
            word.count >= 5 && word.allSatisfy(\.isLetter) && (documentFrequency[SearchQuery.folded(word)] ?? 0) <= 3
                && seen.insert(SearchQuery.folded(word)).inserted
        }.prefix(limit).map { $0 }
    }

    private func documentFrequencies(_ texts: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for text in texts { for term in SearchQuery.indexTerms(in: text) { counts[term, default: 0] += 1 } }
        return counts
    }

    /// One confusion applied to `word`, chosen by `seed`, or nil when none applies.
    private func misread(_ word: String, seed: Int) -> String? {
        let lower = word.lowercased()
        var options: [String] = []
        for (a, b) in [("m", "rn"), ("rn", "m"), ("w", "vv"), ("d", "cl"), ("cl", "d"), ("l", "1"), ("i", "l"), ("l", "i"),
                       ("o", "0"), ("s", "5"), ("e", "c")] {
            if let range = lower.range(of: a) { options.append(lower.replacingCharacters(in: range, with: b)) }
        }
        let characters = Array(lower)
        let middle = characters.count / 2
        var dropped = characters; dropped.remove(at: middle); options.append(String(dropped))
        var doubled = characters; doubled.insert(characters[middle], at: middle); options.append(String(doubled))
        return options.isEmpty ? nil : options[seed % options.count]
    }

    private func injected(_ truths: [(file: String, text: String)], work: URL) throws {
        let store = try LensDatabase(path: work.appendingPathComponent("injected.db").path)
        let frequency = documentFrequencies(truths.map(\.text))
        var queries: [(word: String, id: Int64)] = []
        var seed = 0
        for (index, truth) in truths.enumerated() {
            var text = truth.text
            let chosen = words(of: truth.text, documentFrequency: frequency, limit: wordsPerScreenshot)
            var misreadWords: [String] = []
            for word in chosen {
                seed += 1
                guard let wrong = misread(word, seed: seed), let range = text.range(of: word) else { continue }
                text.replaceSubrange(range, with: wrong)
                misreadWords.append(word)
            }
            let registration = try store.register(FileObservation(
                path: "/corpus/\(truth.file)", size: 1, modifiedAt: Double(index), sha256: String(format: "%064x", index + 1),
                format: .png, seenAt: Double(index)))
            guard let item = try store.claimNext(owner: getpid()) else { continue }
            try store.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), for: item.id, seconds: 0)
            for word in misreadWords where !text.lowercased().contains(word.lowercased()) {
                queries.append((word, registration.id))
            }
        }
        let (found, exactFound) = try recall(store, queries)
        print(String(format: "\ninjected misreadings: %d words, the right screenshot in the top 10: %.1f %% with fuzzy matching (%d), %.1f %% exact only",
                     queries.count, 100 * Double(found) / Double(max(1, queries.count)), found,
                     100 * Double(exactFound) / Double(max(1, queries.count))))
        try displacement(store, truths.map(\.text), frequency: frequency)
    }

    /// (found with fuzzy, found exact only) in the top 10.
    private func recall(_ store: LensDatabase, _ queries: [(word: String, id: Int64)]) throws -> (Int, Int) {
        var found = 0, exactFound = 0
        for (word, id) in queries {
            var request = SearchRequest(query: try SearchQuery(parsing: word), limit: 10)
            if try store.search(request).contains(where: { $0.id == id }) { found += 1 }
            request.allowsFuzzy = false
            if try store.search(request).contains(where: { $0.id == id }) { exactFound += 1 }
        }
        return (found, exactFound)
    }

    /// Exact queries (words that are in the texts): does fuzzy matching move any exact hit of the top 10?
    private func displacement(_ store: LensDatabase, _ texts: [String], frequency: [String: Int]) throws {
        var queries = 0, displaced = 0, appended = 0
        for text in texts {
            for word in words(of: text, documentFrequency: frequency, limit: wordsPerScreenshot) {
                var request = SearchRequest(query: try SearchQuery(parsing: word), limit: 10)
                let withFuzzy = try store.search(request).map(\.id)
                request.allowsFuzzy = false
                let exact = try store.search(request).map(\.id)
                guard !exact.isEmpty else { continue }
                queries += 1
                if Array(withFuzzy.prefix(exact.count)) != exact { displaced += 1 }
                if withFuzzy.count > exact.count { appended += 1 }
            }
        }
        print("exact queries: \(queries); top 10 with an exact hit displaced by fuzzy hits: \(displaced); with fuzzy hits added after the exact ones: \(appended)")
    }

    private func real(_ truths: [(file: String, text: String)], folder: URL, work: URL) throws {
        let database = work.appendingPathComponent("ocr.db").path
        let (status, seconds) = try Measure.time {
            try Measure.run(lens, ["import", "--no-progress", "--db", database, folder.path], environment: Measure.benchEnvironment)
        }
        guard status == 0 || status == 1 else { throw ValidationError("lens import exited with \(status)") }
        print(String(format: "\nreal OCR: imported %@ with lens in %.1f s", folder.path, seconds))
        let store = try LensDatabase(path: database)
        let frequency = documentFrequencies(truths.map(\.text))
        var queries: [(word: String, id: Int64)] = []
        for truth in truths {
            guard let id = try store.screenshotID(forPath: folder.appendingPathComponent(truth.file).path),
                  let ocr = try store.texts(ids: [id])[id] else { continue }
            let ocrTerms = SearchQuery.indexTerms(in: ocr)
            for word in words(of: truth.text, documentFrequency: frequency, limit: 1_000)
            where !ocrTerms.contains(SearchQuery.folded(word)) {
                queries.append((word, id))
            }
        }
        let (found, exactFound) = try recall(store, queries)
        for (word, id) in queries {
            let ocr = try store.texts(ids: [id])[id] ?? ""
            let near = SearchQuery.searchTokens(in: ocr).filter { (EditDistance.levenshtein(SearchQuery.folded($0), SearchQuery.folded(word), limit: 2) ?? 3) <= 2 }
            print("  \(word): OCR has \(near.isEmpty ? "nothing within 2 edits" : near.joined(separator: ", "))")
        }
        print(String(format: "real misreadings (ground-truth words OCR got wrong): %d words, in the top 10: %.1f %% with fuzzy matching (%d), %.1f %% exact only",
                     queries.count, 100 * Double(found) / Double(max(1, queries.count)), found,
                     100 * Double(exactFound) / Double(max(1, queries.count))))
        try displacement(store, truths.map(\.text), frequency: frequency)
    }
}
