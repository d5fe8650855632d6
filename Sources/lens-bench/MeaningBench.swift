import ArgumentParser
import Foundation
import LensApp
import LensCore
import LensEmbed
import LensStore
import Synchronization

/// Search by meaning on queries that share no word with their targets: a library of real text
/// (man pages and changelogs of this machine) with the targets in it, searched by words alone,
/// by meaning alone and by both, in the same run; and the ways of pooling a long text's windows.
struct MeaningBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meaning",
        abstract: "Top-10 rate of paraphrase queries by words, by meaning and by both, on a library of real text.",
        discussion: """
            The queries file has lines 'set<TAB>target<TAB>query': a target is man:NAME (the first \
            30 lines of NAME's man page), corpus-kind:KIND (any screenshot of the corpus of that \
            kind) or none (nothing in the library is about it: its best similarity shows where \
            the floor must be). A query that shares a word with its target, stop words aside, is \
            refused and listed. The library holds the corpus's texts, the targets and --distractors \
            pieces of other man pages and changelogs (files shuffled with a fixed seed); it is \
            built once in --work and reused.

            Example: lens-bench meaning --queries Tests/Meaning/queries.tsv --distractors 5000
            """)

    @Option(help: "The queries (see above).")
    var queries = "Tests/Meaning/queries.tsv"

    @Option(help: "The corpus folder (its *.json ground truth).")
    var corpus = "../shared/corpus/public"

    @Option(help: "Pieces of other real text in the library.")
    var distractors = 5_000

    @Option(help: "A folder for the library and its vectors (reused when it holds the same documents).")
    var work = "/tmp/lens-meaning"

    @Option(help: "The model's folder (model.safetensors, vocab.txt).")
    var model = TextEmbedder.directory()

    @Flag(help: "Only check the queries against their targets' words.")
    var check = false

    @Option(help: "Also rank among the corpus, the targets and only the first N other pieces, for each N (in memory, mean of windows).")
    var sizes: [Int] = [0, 500, 1_000, 2_000]

    @Option(help: "Tokens a window holds ([CLS] and [SEP] included); as many windows as cover about 1,016 pieces.")
    var windowTokens = TextEmbedder.maximumTokens

    @Flag(help: "Print each query's rank and what came first.")
    var show = false

    struct Query {
        var set: String, target: String, text: String
        var targets: Set<Int64> = []
    }

    func run() throws {
        var (documents, queries) = try loadQueries()
        guard !check else { return }
        let targetFiles = Set(queries.compactMap { $0.target.hasPrefix("man:") ? $0.target : nil })
        documents += Self.distractorTexts(count: distractors, avoiding: targetFiles)
        print("library: \(documents.count) texts (\(documents.count - distractors) corpus and target texts, \(distractors) other pieces)")
        let embedder = try TextEmbedder(directory: model)
        let (library, windows) = try build(documents, embedder: embedder)

        // In memory, each way of pooling a text's windows: the mean (what Lens stores), the
        // first window only, and the best window for the query.
        func dot(_ a: [Float], _ b: [Float]) -> Float { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
        let means: [Int64: [Float]] = windows.mapValues { TextEmbedder.mean(of: $0) }
        var table: [String: [String: [Int]]] = [:] // set → method → rank of the first right answer (0: not in the top 10)
        var floor: [String: [Float]] = [:], times: [Double] = []
        // Tried: the library's mean vector taken out of every text's (and of the query's), so that
        // what all texts of a genre share does not decide the ranking. Measured, not used by Lens.
        let base = Int64(documents.count - distractors) // ids up to this are the corpus's and the targets'
        func centroid(_ ids: [Int64]) -> [Float] {
            var sum = [Float](repeating: 0, count: TextEmbedder.dimensions)
            for id in ids { if let v = means[id] { for j in sum.indices { sum[j] += v[j] } } }
            return sum.map { $0 / Float(max(1, ids.count)) }
        }
        func centered(_ v: [Float], _ m: [Float]) -> [Float] {
            let d = zip(v, m).map { $0 - $1 }
            let norm = max(1e-6, d.reduce(0) { $0 + $1 * $1 }.squareRoot())
            return d.map { $0 / norm }
        }
        var centeredMeans: [Int: ([Float], [Int64: [Float]])] = [:]
        for size in sizes + [distractors] {
            let kept = windows.keys.filter { $0 <= base + Int64(size) }
            let m = centroid(kept)
            centeredMeans[size] = (m, Dictionary(uniqueKeysWithValues: kept.compactMap { id in means[id].map { (id, centered($0, m)) } }))
        }
        for query in queries {
            let parsed = try SearchQuery(parsing: query.text)
            func rank(_ meaning: SearchMeaning) throws -> Int {
                var request = SearchRequest(query: parsed, limit: 10)
                request.meaning = meaning
                let (hits, seconds) = try Measure.time { try library.search(request) }
                if meaning == .alongWords { times.append(seconds) }
                return (hits.firstIndex { query.targets.contains($0.id) } ?? -1) + 1
            }
            let q = embedder.embedding(parsed.meaningText)
            func memoryRank(_ score: (Int64) -> Float) -> Int {
                let scored = windows.keys.map { ($0, score($0)) }.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.prefix(10)
                return (scored.firstIndex { query.targets.contains($0.0) }.map { $0 - scored.startIndex } ?? -1) + 1
            }
            let best = windows.keys.map { id in means[id].map { dot(q, $0) } ?? -1 }.max() ?? -1
            for size in sizes + [distractors] where query.target != "none" {
                let kept = windows.keys.filter { $0 <= base + Int64(size) }
                func rankIn(_ score: (Int64) -> Float) -> Int {
                    let scored = kept.map { ($0, score($0)) }.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.prefix(10)
                    return (scored.firstIndex { query.targets.contains($0.0) }.map { $0 - scored.startIndex } ?? -1) + 1
                }
                if size != distractors {
                    table[query.set, default: [:]]["library of \(kept.count) (memory)", default: []].append(rankIn { means[$0].map { dot(q, $0) } ?? -1 })
                }
                let (m, centeredByID) = centeredMeans[size]!
                let qc = centered(q, m)
                table[query.set, default: [:]]["library of \(kept.count), centered (memory)", default: []]
                    .append(rankIn { centeredByID[$0].map { dot(qc, $0) } ?? -1 })
                table[query.set, default: [:]]["library of \(kept.count), texts centered (memory)", default: []]
                    .append(rankIn { centeredByID[$0].map { dot(q, $0) } ?? -1 })
            }
            if query.target == "none" {
                floor["none (best of all)", default: []].append(best)
                continue
            }
            let targetBest = query.targets.compactMap { means[$0].map { dot(q, $0) } }.max() ?? -1
            floor[query.set + " (best right answer)", default: []].append(targetBest)
            var row = table[query.set, default: [:]]
            row["words", default: []].append(try rank(.off))
            row["meaning", default: []].append(try rank(.only))
            row["words+meaning", default: []].append(try rank(.alongWords))
            row["mean of windows (memory)", default: []].append(memoryRank { means[$0].map { dot(q, $0) } ?? -1 })
            row["first window (memory)", default: []].append(memoryRank { windows[$0].map { dot(q, $0[0].vector) } ?? -1 })
            row["best window (memory)", default: []].append(memoryRank { windows[$0]?.map { dot(q, $0.vector) }.max() ?? -1 })
            // Tried: the nearest 100 shown without near-duplicates of a text shown above them
            // (folded at a cosine of t), and reordered by maximal marginal relevance (λ).
            let candidates = windows.keys.compactMap { id in means[id].map { (id, dot(q, $0)) } }
                .sorted { ($0.1, $0.0) > ($1.1, $1.0) }.prefix(100)
            func rankOf(_ shown: [Int64]) -> Int { (shown.prefix(10).firstIndex { query.targets.contains($0) } ?? -1) + 1 }
            for t in Self.foldings {
                var shown: [Int64] = []
                for (id, _) in candidates where shown.count < 10 && !shown.contains(where: { dot(means[$0]!, means[id]!) >= t }) {
                    shown.append(id)
                }
                row[Self.folded(t), default: []].append(rankOf(shown))
            }
            for lambda in Self.lambdas {
                var pool = Array(candidates), shown: [Int64] = []
                while shown.count < 10, !pool.isEmpty {
                    let scores = pool.map { c in lambda * c.1 - (1 - lambda) * (shown.map { dot(means[$0]!, means[c.0]!) }.max() ?? 0) }
                    let best = scores.indices.max { scores[$0] < scores[$1] }!
                    shown.append(pool.remove(at: best).0)
                }
                row[Self.mmr(lambda), default: []].append(rankOf(shown))
            }
            // Tried: the query moved toward its nearest k texts (pseudo-relevance feedback,
            // q + α · their mean, made unit length again), then ranked again.
            for (k, alpha) in Self.feedbacks {
                var moved = q
                for (id, _) in candidates.prefix(k) { for j in moved.indices { moved[j] += alpha / Float(k) * means[id]![j] } }
                let norm = max(moved.reduce(0) { $0 + $1 * $1 }.squareRoot(), 1e-12)
                moved = moved.map { $0 / norm }
                row[Self.feedback(k, alpha), default: []].append(memoryRank { means[$0].map { dot(moved, $0) } ?? -1 })
            }
            let position = (candidates.firstIndex { query.targets.contains($0.0) }.map { $0 - candidates.startIndex } ?? -1) + 1
            row["in the top 20 (memory)", default: []].append(position <= 20 ? position : 0)
            row["in the top 100 (memory)", default: []].append(position)
            table[query.set] = row
            if show {
                let top = windows.keys.map { ($0, means[$0].map { dot(q, $0) } ?? -1) }.max { ($0.1, $0.0) < ($1.1, $1.0) }
                let first = top.map { String(documents[Int($0.0) - 1].prefix(60)).replacingOccurrences(of: "\n", with: " ") } ?? ""
                print("  [\(query.set)] \(row["meaning"]!.last!) \(query.text) (\(query.target)) — first: \(first)")
            }
        }
        for (set, rows) in table.sorted(by: { $0.key < $1.key }) {
            let n = rows.values.first?.count ?? 0
            print("\n\(set): \(n) queries")
            let sized = rows.keys.filter { $0.hasPrefix("library of") }.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
            let tried = Self.foldings.map(Self.folded) + Self.lambdas.map(Self.mmr) + Self.feedbacks.map(Self.feedback)
                + ["in the top 20 (memory)", "in the top 100 (memory)"]
            for method in ["words", "meaning", "words+meaning", "mean of windows (memory)", "first window (memory)", "best window (memory)"] + tried + sized {
                let ranks = rows[method] ?? []
                let hits = ranks.filter { $0 > 0 }.count
                let mrr = ranks.reduce(0.0) { $0 + ($1 > 0 ? 1 / Double($1) : 0) } / Double(max(1, ranks.count))
                let found = method.hasPrefix("in the top") ? "found:" : "top 10:"
                print(String(format: "  %-26@ %@ %3d/%d (%.1f %%)  MRR %.3f", method as NSString, found as NSString, hits, ranks.count,
                             100 * Double(hits) / Double(max(1, ranks.count)), mrr))
            }
        }
        print("\nsimilarity of the query to (the floor is \(MeaningIndex.minimumSimilarity)):")
        for (name, values) in floor.sorted(by: { $0.key < $1.key }) {
            let v = values.map(Double.init)
            print(String(format: "  %-32@ min %.3f  p10 %.3f  median %.3f  max %.3f", name as NSString, v.min() ?? 0,
                         Measure.percentile(v, 0.1), Measure.percentile(v, 0.5), v.max() ?? 0))
        }
        print(String(format: "\nwords+meaning query time: median %.1f ms, p95 %.1f ms (%d queries, %d vectors)",
                     Measure.percentile(times, 0.5) * 1000, Measure.percentile(times, 0.95) * 1000, times.count, windows.count))
    }

    /// The cosines at which a near-duplicate is folded, and the λ of maximal marginal relevance, tried.
    static let foldings: [Float] = [0.95, 0.9, 0.85], lambdas: [Float] = [0.9, 0.8, 0.7]
    static func folded(_ t: Float) -> String { String(format: "folded at %.2f (memory)", t) }
    static func mmr(_ lambda: Float) -> String { String(format: "mmr %.1f (memory)", lambda) }
    /// The nearest texts and the weight of their mean added to a query, tried.
    static let feedbacks: [(Int, Float)] = [(3, 0.3), (3, 0.6), (10, 0.5)]
    static func feedback(_ k: Int, _ alpha: Float) -> String { String(format: "feedback %d, %.1f (memory)", k, alpha) }

    /// The queries, their targets' texts (the first documents of the library) and, for each
    /// query, the ids of its right answers. Queries sharing a word with a target are refused.
    func loadQueries() throws -> ([String], [Query]) {
        var documents: [String] = [], kinds: [String: [Int64]] = [:]
        let folder = URL(fileURLWithPath: corpus)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasPrefix("pub_") && name.hasSuffix(".json") {
            guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))) as? [String: Any],
                  let text = object["text"] as? String, let kind = object["kind"] as? String else { continue }
            documents.append(text)
            kinds[kind, default: []].append(Int64(documents.count))
        }
        var result: [Query] = [], refused = 0, missing: [String] = []
        var manTargets: [String: Int64] = [:]
        for line in try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 3 else { continue }
            var query = Query(set: fields[0], target: fields[1], text: fields[2])
            var texts: [String] = []
            if query.target.hasPrefix("corpus-kind:") {
                query.targets = Set(kinds[String(query.target.dropFirst("corpus-kind:".count))] ?? [])
                texts = query.targets.map { documents[Int($0) - 1] }
            } else if query.target.hasPrefix("man:") {
                let name = String(query.target.dropFirst(4))
                guard let file = Self.manPage(name), let first = RealTextBench.pieces(of: file, lines: 30).first else {
                    missing.append(name)
                    continue
                }
                if manTargets[query.target] == nil {
                    documents.append(first)
                    manTargets[query.target] = Int64(documents.count)
                }
                query.targets = [manTargets[query.target]!]
                texts = [first]
            }
            guard !query.targets.isEmpty || query.target == "none" else { continue }
            let shared = Self.sharedWords(query.text, texts)
            if !shared.isEmpty {
                print("refused (\(query.set)) '\(query.text)': shares \(shared.sorted().joined(separator: ", ")) with \(query.target)")
                refused += 1
                continue
            }
            result.append(query)
        }
        if !missing.isEmpty { print("no man page on this machine for: \(missing.joined(separator: ", ")) (skipped)") }
        print("\(result.count) queries, \(refused) refused for sharing words")
        return (documents, result)
    }

    static let stopWords: Set<String> = [
        "a", "an", "the", "of", "to", "in", "on", "at", "for", "from", "by", "with", "and", "or", "is", "are", "was", "be",
        "it", "its", "this", "that", "my", "me", "i", "we", "our", "you", "your", "how", "what", "which", "who", "when",
        "so", "can", "do", "does", "not", "into", "onto", "up", "down", "out", "off", "as", "am", "has", "have", "too",
        "many", "much", "some", "any", "all", "one", "each", "else", "there", "they", "them", "their", "still", "only",
        "while", "before", "after", "another", "other", "more", "most", "new", "same", "no", "s",
    ]

    /// The query's words (stop words aside) that a target holds, compared folded and by stem:
    /// the same word, or the same first five letters (`compress` and `compression`).
    static func sharedWords(_ query: String, _ targets: [String]) -> Set<String> {
        func words(_ text: String) -> [String] {
            SearchQuery.searchTokens(in: text).map { SearchQuery.folded($0) }
        }
        let asked = Set(words(query)).subtracting(stopWords)
        var shared = Set<String>()
        for target in targets {
            let held = Set(words(target))
            let stems = Set(held.filter { $0.count >= 5 }.map { String($0.prefix(5)) })
            for word in asked where held.contains(word) || (word.count >= 5 && stems.contains(String(word.prefix(5)))) {
                shared.insert(word)
            }
        }
        return shared
    }

    static func manPage(_ name: String) -> String? {
        for section in ["1", "8", "5"] {
            let path = "/usr/share/man/man\(section)/\(name).\(section).gz"
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// Pieces of man pages and changelogs other than the targets', up to three a file, the
    /// files shuffled with a fixed seed so the library mixes many subjects.
    static func distractorTexts(count: Int, avoiding targets: Set<String>) -> [String] {
        let avoided = Set(targets.compactMap { manPage(String($0.dropFirst(4))) })
        var files: [String] = []
        for root in ["/usr/share/man", "/usr/share/doc"] {
            let walker = FileManager.default.enumerator(atPath: root)
            while let name = walker?.nextObject() as? String {
                let path = root + "/" + name
                if (name.hasSuffix("changelog.Debian.gz") || (name.hasPrefix("man") && name.hasSuffix(".gz"))) && !avoided.contains(path) {
                    files.append(path)
                }
            }
        }
        files.sort()
        var state: UInt64 = 2026
        for i in stride(from: files.count - 1, to: 0, by: -1) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            files.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        var texts: [String] = []
        for file in files where texts.count < count {
            texts += RealTextBench.pieces(of: file, lines: 30).prefix(min(3, count - texts.count))
        }
        return texts
    }

    /// The library of `documents` (ids 1…) in `work`, with every text's window vectors; both are
    /// made once and reused while the documents are the same.
    func build(_ documents: [String], embedder: TextEmbedder) throws -> (Library, [Int64: [(vector: [Float], pieces: Int)]]) {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let signature = String(format: "%016llx-%d", RealTextBench.fnv(documents.joined(separator: "\u{1}")), documents.count)
        // Another window size gets its own library and vectors beside the model's own size's.
        let size = windowTokens == TextEmbedder.maximumTokens ? "" : "-w\(windowTokens)"
        let database = work + "/library\(size).db", cache = work + "/windows-\(signature)\(size).json"
        if let data = FileManager.default.contents(atPath: cache),
           let saved = try? JSONDecoder().decode([String: [[Float]]].self, from: data), FileManager.default.fileExists(atPath: database) {
            print("reusing \(database)")
            var windows: [Int64: [(vector: [Float], pieces: Int)]] = [:]
            for (key, rows) in saved { windows[Int64(key)!] = rows.map { (Array($0.dropLast()), Int($0.last!)) } }
            return (try Library(databasePath: database, modelDirectory: model), windows)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let export = work + "/library.jsonl"
        _ = FileManager.default.createFile(atPath: export, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: export))
        let header: [String: Any] = ["format": "lens-export", "version": 1, "screenshots": documents.count, "exported_at": "2026-11-25T00:00:00Z"]
        handle.write(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]) + Data("\n".utf8))
        for (index, text) in documents.enumerated() {
            let record = RealTextBench.record(id: index + 1, text: text, sha256: String(format: "%016llx%048x", RealTextBench.fnv(text), index),
                                              path: "/home/user/Pictures/Screenshots/shot-\(index + 1).png", entities: [])
            handle.write(try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) + Data("\n".utf8))
        }
        try handle.close()
        let library = try Library(databasePath: database, modelDirectory: model)
        _ = try BackupUseCases.restore(library, from: export, replacing: true)
        var windows: [Int64: [(vector: [Float], pieces: Int)]] = [:]
        var before: Int64?
        let start = ContinuousClock.now
        // As many windows of `windowTokens` as cover what Lens's default windows do.
        let tokens = windowTokens, count = max(1, (TextEmbedder.maximumTokens - 2) * 4 / max(1, tokens - 2))
        while true {
            let batch = try library.database.textsWithoutEmbedding(model: EmbeddingModel.name, limit: 64, before: before)
            guard let last = batch.last else { break }
            before = last.id
            // Both cores: the texts of a batch are embedded side by side, then stored in order.
            let made = Mutex([[(vector: [Float], pieces: Int)]](repeating: [], count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                let parts = embedder.windowEmbeddings(of: batch[index].text, maximumWindows: count, windowTokens: tokens)
                made.withLock { $0[index] = parts }
            }
            for (item, parts) in zip(batch, made.withLock { $0 }) {
                windows[item.id] = parts
                try library.database.saveEmbedding(QuantizedVector(TextEmbedder.mean(of: parts)), model: EmbeddingModel.name, for: item)
            }
            FileHandle.standardError.write(Data("\r\(windows.count)/\(documents.count) embedded".utf8))
        }
        print(String(format: "\nembedded %d texts in %.0f s", windows.count, (ContinuousClock.now - start).seconds))
        let saved = Dictionary(uniqueKeysWithValues: windows.map { (String($0.key), $0.value.map { $0.vector + [Float($0.pieces)] }) })
        try JSONEncoder().encode(saved).write(to: URL(fileURLWithPath: cache))
        return (library, windows)
    }
}

/// Gives every text of a large library a vector, reusing in turn the vectors another library's
/// real texts were given (embedding 100,000 texts takes hours on two cores): for timing search
/// by meaning at a size, where the scan's cost does not depend on the values and as many texts
/// pass the similarity floor as among real ones.
struct VectorsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Fill a library's missing vectors with another library's real ones, in turn (for timings at 100,000).",
        discussion: "Example: lens-bench vectors --db /tmp/real.db --from /tmp/lens-meaning/library.db")

    @Option(help: "The library to fill.")
    var db: String

    @Option(help: "A library whose vectors were made by the model (e.g. lens-bench meaning's).")
    var from: String

    func run() throws {
        let source = try Library(databasePath: from).database.embeddings(model: EmbeddingModel.name, dimensions: TextEmbedder.dimensions)
        guard !source.isEmpty else { throw ValidationError("\(from) has no vectors") }
        let library = try Library(databasePath: db)
        var before: Int64?, made = 0
        while true {
            let batch = try library.database.textsWithoutEmbedding(model: EmbeddingModel.name, limit: 1_000, before: before)
            guard let last = batch.last else { break }
            before = last.id
            for item in batch {
                try library.database.saveEmbedding(source[made % source.count].vector, model: EmbeddingModel.name, for: item)
                made += 1
            }
        }
        print("\(made) vectors given from \(source.count) real ones")
    }
}
