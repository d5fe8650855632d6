import ArgumentParser
import Foundation
import LensApp
import LensCore
import LensStore

/// The PostgreSQL store against the SQLite store, on the same real text in the same run: how
/// far their top 10s agree, search latency, write rate with several writers, and size.
struct PostgresBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres",
        abstract: "Compare the PostgreSQL store with the SQLite store on real text: top-10 agreement, search p50/p95, write rate, size.",
        discussion: """
            Loads the same screenshots (the corpus's ground-truth texts, then pieces of the \
            machine's man pages and changelogs as 'lens-bench realtext' cuts them) into a new SQLite \
            file and an empty PostgreSQL database, through the store's own register, claim and \
            record (the rows a worker writes). Queries are drawn from the loaded texts by a fixed \
            seed: one or two words, a prefix, a phrase. Agreement is |A ∩ B| / max(|A|, |B|) of the \
            two top 10s, over queries where either store finds something.

            Example (a throwaway cluster): initdb -D /tmp/pg -A trust -U lens && \
            pg_ctl -D /tmp/pg -o "-k /tmp/pg -c listen_addresses=''" start && createdb -h /tmp/pg -U lens bench && \
            lens-bench postgres --store 'postgresql://lens@/bench?host=/tmp/pg' --documents 10000
            """)

    @Option(help: "The PostgreSQL database to fill (it should be empty).")
    var store: String

    @Option(help: "How many screenshots of real text, beside the corpus's.")
    var documents = 5_000

    @Option(help: "The corpus folder with ground-truth texts (its *.json files).")
    var corpus = "../shared/corpus/public"

    @Option(help: "How many queries.")
    var queries = 300

    @Option(help: "A second, empty PostgreSQL database for the write-rate figure (none: no write-rate figure).")
    var writeStore: String?

    @Option(help: "Concurrent writers for the write-rate figure (each a store of its own, as workers are).")
    var writers: [Int] = [1, 2, 4, 8]

    @Option(help: "Writes per writer count, for the write-rate figure.")
    var writes = 2_000

    @Flag(help: "Keep the mind map in the write-rate figure: each writer connects what it records, as workers do (under the shared lock).")
    var withMindMap = false

    @Flag(help: "Find and store entities in the write-rate figure (implied by --with-mind-map).")
    var withEntities = false

    @Flag(help: "Skip loading: the PostgreSQL database and the SQLite file at --sqlite already hold the library (its texts, read from the SQLite file, give the queries).")
    var reuse = false

    @Option(help: "The SQLite file to fill (or reuse).")
    var sqlite = "/tmp/lens-postgres-bench.db"

    func run() throws {
        guard case .postgresql = try StoreAddress(store) else { throw ValidationError("--store must be a postgresql:// URL") }
        if !reuse { try? FileManager.default.removeItem(atPath: sqlite) }
        let lite = try LensDatabase(store: .sqlite(path: sqlite))
        // Reusing: the texts loaded before, from the SQLite file in load order (the machine's files
        // may have changed since, and reading them again takes minutes).
        let (texts, fromCorpus) = reuse ? (try Self.storedTexts(in: lite), 0) : try loadTexts()
        print("texts: \(texts.count)" + (reuse ? " (as stored)" : " (of which \(fromCorpus) from the corpus)"))
        let pg = try LensDatabase(store: try StoreAddress(store))
        if !reuse {
            for (name, database) in [("sqlite", lite), ("postgresql", pg)] {
                let start = ContinuousClock.now
                for (index, text) in texts.enumerated() { try Self.add(text, number: index, to: database) }
                let seconds = (ContinuousClock.now - start).seconds
                print(String(format: "load %@: %d screenshots in %.1f s (%.0f a second, one writer)", name, texts.count, seconds, Double(texts.count) / seconds))
            }
        }
        let sqliteBytes = lite.fileSize(), pgBytes = pg.fileSize()
        print(String(format: "size: sqlite %.1f MB (%.0f bytes a screenshot), postgresql %.1f MB (%.0f bytes a screenshot, %.2fx)",
                     Double(sqliteBytes) / 1e6, Double(sqliteBytes) / Double(texts.count), Double(pgBytes) / 1e6,
                     Double(pgBytes) / Double(texts.count), Double(pgBytes) / Double(max(1, sqliteBytes))))

        // Agreement and latency.
        var random = SplitMix64(seed: 28)
        let drawn = Self.queries(from: texts, count: queries, random: &random)
        var overlaps: [Double] = [], same = 0, bothEmpty = 0
        var liteTimes: [Double] = [], pgTimes: [Double] = []
        var worst: [(Double, String)] = []
        var byKind: [Int: [Double]] = [:], pgByKind: [Int: [Double]] = [:]
        var snippetsCompared = 0, snippetsSame = 0, differing: [(String, String)] = []
        for (index, query) in drawn.enumerated() {
            var request = SearchRequest(query: try SearchQuery(parsing: query), limit: 10)
            request.allowsFuzzy = false
            var start = ContinuousClock.now
            let liteHits = try lite.search(request)
            let a = liteHits.map(\.id)
            liteTimes.append((ContinuousClock.now - start).seconds * 1000)
            start = ContinuousClock.now
            var pgHits: [SearchHit] = []
            do {
                pgHits = try pg.search(request)
            } catch let error as SearchError {
                // Past the 1 s limit: counted as a search that took the limit and found nothing.
                print("  postgresql stopped \(query): \(error)")
            }
            let b = pgHits.map(\.id)
            // The snippets of the screenshots both found: the same words shown, the same marked.
            let pgSnippets = Dictionary(pgHits.map { ($0.id, $0.snippet) }, uniquingKeysWith: { x, _ in x })
            for hit in liteHits {
                guard let other = pgSnippets[hit.id] else { continue }
                snippetsCompared += 1
                if other == hit.snippet { snippetsSame += 1 } else if differing.count < 3 { differing.append((hit.snippet, other)) }
            }
            pgTimes.append((ContinuousClock.now - start).seconds * 1000)
            pgByKind[index % 4, default: []].append(pgTimes.last!)
            guard !(a.isEmpty && b.isEmpty) else { bothEmpty += 1; continue }
            let overlap = Double(Set(a).intersection(b).count) / Double(max(a.count, b.count))
            overlaps.append(overlap)
            byKind[index % 4, default: []].append(overlap)
            if Set(a) == Set(b) { same += 1 }
            worst.append((overlap, query))
        }
        let mean = overlaps.reduce(0, +) / Double(max(1, overlaps.count))
        print(String(format: "top-10 agreement over %d queries (%d found nothing in either): mean %.1f %%, identical sets %.1f %%",
                     overlaps.count, bothEmpty, mean * 100, Double(same) / Double(max(1, overlaps.count)) * 100))
        for (kind, name) in ["one word", "two words", "a prefix", "a phrase"].enumerated() {
            let values = byKind[kind] ?? []
            print(String(format: "  %@: agreement %.1f %% (%d queries), postgresql p95 %.2f ms", name,
                         values.reduce(0, +) / Double(max(1, values.count)) * 100, values.count, Measure.percentile(pgByKind[kind] ?? [], 0.95)))
        }
        for (overlap, query) in worst.sorted(by: { $0.0 < $1.0 }).prefix(5) { print(String(format: "  %.0f %%  %@", overlap * 100, query)) }
        print(String(format: "snippets of screenshots both found: %d of %d the same (%.1f %%)", snippetsSame, snippetsCompared,
                     Double(snippetsSame) / Double(max(1, snippetsCompared)) * 100))
        for (x, y) in differing { print("  sqlite: \(x.debugDescription)\n  postgresql: \(y.debugDescription)") }
        print(String(format: "search ms (client side, %d queries): sqlite p50 %.2f p95 %.2f; postgresql p50 %.2f p95 %.2f",
                     drawn.count, Measure.percentile(liteTimes, 0.5), Measure.percentile(liteTimes, 0.95),
                     Measure.percentile(pgTimes, 0.5), Measure.percentile(pgTimes, 0.95)))

        // Write rate: writers registering, claiming and recording new screenshots at once.
        for count in writers where writes > 0 {
            guard let writeStore else { break }
            let stores = try (0..<count).map { n in try LensDatabase(store: try StoreAddress(writeStore), worker: "bench:\(n)") }
            let keepers = withMindMap ? stores.map { ConnectionKeeper(database: $0) } : []
            let base = 10_000_000 + count * 1_000_000
            let start = ContinuousClock.now
            let extractor = EntityExtractors.make(region: "US")
            DispatchQueue.concurrentPerform(iterations: count) { n in
                for k in 0..<(writes / count) {
                    let number = base + n * 100_000 + k
                    let text = texts[number % texts.count]
                    try? Self.add(text, number: number, to: stores[n], entities: withEntities || withMindMap ? extractor.entities(in: text) : [],
                                  keeper: keepers.isEmpty ? nil : keepers[n])
                }
            }
            let seconds = (ContinuousClock.now - start).seconds
            if !keepers.isEmpty {
                let locked = keepers.map(\.secondsHoldingTheLock).reduce(0, +) / Double(writes / count * count)
                print(String(format: "  mind map lock held %.2f ms a screenshot: connecting alone would cap a fleet at %.0f screenshots a second",
                             locked * 1000, 1 / max(1e-9, locked)))
            }
            print(String(format: "write rate, %d writer(s): %.0f screenshots a second (register + claim + record, 3 transactions each%@)",
                         count, Double(writes / count * count) / seconds,
                         withMindMap ? ", entities found and connected" : withEntities ? ", entities found" : ""))
        }
    }

    /// One screenshot through the queue, as a worker stores it.
    static func add(_ text: String, number: Int, to database: LensDatabase, entities: [Entity] = [], keeper: ConnectionKeeper? = nil) throws {
        let hash = String(format: "%064llx", UInt64(number) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let seen = 1_700_000_000 + Double(number)
        _ = try database.register(FileObservation(path: "/bench/\(number).png", size: text.utf8.count, modifiedAt: seen,
                                                  sha256: hash, format: .png, seenAt: seen))
        guard let item = try database.claimNext(owner: getpid()) else { return }
        try database.recordRecognition(Recognition(text: text, words: [], width: 1280, height: 800), entities: entities, for: item.id, seconds: 0.5)
        try keeper?.connect(item.id)
    }

    /// Every stored text, in id order (the order they were loaded in).
    static func storedTexts(in database: LensDatabase) throws -> [String] {
        var texts: [String] = [], next: Int64 = 1
        while true {
            let ids = Array(next..<(next + 1000))
            let page = try database.texts(ids: ids)
            if page.isEmpty { return texts }
            texts += ids.compactMap { page[$0] }
            next += 1000
        }
    }

    func loadTexts() throws -> (texts: [String], fromCorpus: Int) {
        var texts: [String] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        for name in names {
            guard let data = FileManager.default.contents(atPath: corpus + "/" + name),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let text = object["text"] as? String else { continue }
            texts.append(text)
        }
        let fromCorpus = texts.count
        var pieces = 0
        for file in RealTextBench.sourceFiles() where pieces < documents {
            for piece in RealTextBench.pieces(of: file, lines: 25) where pieces < documents {
                texts.append(piece)
                pieces += 1
            }
        }
        return (texts, fromCorpus)
    }

    /// Queries a person might type about these texts: a word, two words, a prefix, a phrase,
    /// drawn from a random text's words of four letters or more.
    static func queries(from texts: [String], count: Int, random: inout SplitMix64) -> [String] {
        var queries: [String] = []
        while queries.count < count {
            let text = texts[Int(random.next() % UInt64(texts.count))]
            let words = SearchQuery.searchTokens(in: text).filter { $0.count >= 4 && $0.allSatisfy(\.isLetter) }
            guard words.count >= 2 else { continue }
            let i = Int(random.next() % UInt64(words.count - 1))
            switch queries.count % 4 {
            case 0: queries.append(words[i])
            case 1: queries.append(words[i] + " " + words[Int(random.next() % UInt64(words.count))])
            case 2: queries.append(String(words[i].prefix(4)) + "*")
            default: queries.append("\"" + words[i] + " " + words[i + 1] + "\"")
            }
        }
        return queries
    }
}
