import ArgumentParser
import Foundation
import GRDB
import LensCore
import LensStore

/// Search latency, end-to-end `lens search` time and database size on a synthetic index.
struct SearchBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Build a synthetic index of screenshots and measure search latency and database size.")

    @Option(help: "How many synthetic screenshots to index.")
    var documents: Int = 100_000

    @Option(help: "Words per screenshot.")
    var words: Int = 300

    @Option(help: "Queries timed per query kind.")
    var queries: Int = 200

    @Option(help: "Hits asked for per query (the web page asks for 60).")
    var limit: Int = 20

    @Option(help: "Runs of the lens process for the end-to-end figure.")
    var processRuns: Int = 30

    @Option(help: "The lens binary for the end-to-end figure.")
    var lens: String = Measure.siblingLens

    @Option(help: "Keep the database here instead of a temp folder.")
    var keep: String?

    @Option(help: "Reuse a database built by an earlier run with --keep (skips the build).")
    var reuse: String?

    @Option(help: "Stop timing a query kind after this many seconds (the figures say how many ran).")
    var secondsPerKind: Double = 60

    @Flag(help: "With --reuse of a library of real text (lens-bench realtext, then lens restore): take phrases from its texts and URL and phone fragments from its entities.")
    var real = false

    func run() throws {
        let work = try Measure.makeTemporaryFolder("lens-bench-search")
        defer { if keep == nil { try? FileManager.default.removeItem(at: work) } }
        let path = reuse ?? keep ?? work.appendingPathComponent("bench.db").path
        if reuse == nil { try? FileManager.default.removeItem(atPath: path) }
        let store = try LensDatabase(path: path)
        var corpus = SyntheticCorpus(seed: 2024)
        var rawTextBytes = 0
        if real {
            guard reuse != nil else { throw ValidationError("--real measures a library given with --reuse") }
            let samples = try RealQueries(store)
            try report(store, path: path, rawTextBytes: samples.rawTextBytes, corpus: corpus, realQueries: samples)
            return
        }
        if reuse != nil {
            // Regenerate the same text to know its size and phrases, without inserting it.
            for _ in 0..<documents { rawTextBytes += corpus.document(words: words).utf8.count }
        } else {
            rawTextBytes = try build(store, corpus: &corpus)
        }
        try report(store, path: path, rawTextBytes: rawTextBytes, corpus: corpus)
    }

    private func build(_ store: LensDatabase, corpus: inout SyntheticCorpus) throws -> Int {

        // Build: one transaction per 1,000 screenshots, through the real schema and its FTS triggers.
        var rawTextBytes = 0
        let (_, buildSeconds) = try Measure.time {
            var next = 0
            while next < documents {
                let batch = min(1_000, documents - next)
                try store.unsafeBulkWrite { db in
                    for i in next..<next + batch {
                        let text = corpus.document(words: words)
                        rawTextBytes += text.utf8.count
                        try db.execute(sql: """
                            INSERT INTO screenshot (sha256, byte_count, format, state, confidence, captured_at, imported_at, recognized_at)
                            VALUES (?, 1, 'png', 'done', 90, ?, ?, ?)
                            """, arguments: [String(format: "%064x", i), 1.7e9 + Double(i) * 60, 1.7e9, 1.7e9])
                        let id = db.lastInsertedRowID
                        try db.execute(sql: "INSERT INTO screenshot_text (id, body) VALUES (?, lens_deflate(?))", arguments: [id, text])
                        // The URLs and e-mails written in it as entities, as an import would store them.
                        for (type, value) in corpus.lastEntities {
                            try db.execute(sql: "INSERT INTO entity (screenshot_id, type, value, normalized) VALUES (?, ?, ?, ?)",
                                           arguments: [id, type, value, value.lowercased()])
                        }
                        try db.execute(sql: """
                            INSERT INTO path (screenshot_id, path, size, modified_at, first_seen_at, last_seen_at)
                            VALUES (?, ?, 1, 0, 0, 0)
                            """, arguments: [id, "/home/user/Pictures/Screenshots/\(i / 1000)/Screenshot \(i).png"])
                    }
                }
                next += batch
            }
            // As the queue drain does once the queue is empty.
            try store.mergeSearchIndexIfFragmented()
        }
        print("synthetic index:   \(documents) screenshots x \(words) words, built in \(String(format: "%.1f", buildSeconds)) s")
        return rawTextBytes
    }

    private func report(_ store: LensDatabase, path: String, rawTextBytes: Int, corpus: SyntheticCorpus,
                        realQueries: RealQueries? = nil) throws {
        try store.checkpoint()
        let dbBytes = store.fileSize()
        print(String(format: "raw text:          %.1f MB (%.0f bytes per screenshot)", Double(rawTextBytes) / 1e6, Double(rawTextBytes) / Double(documents)))
        print(String(format: "database:          %.1f MB = %.2f x raw text (goal <= 1.3); %.2f MB per 1,000 screenshots",
                     Double(dbBytes) / 1e6, Double(dbBytes) / Double(rawTextBytes), Double(dbBytes) / Double(documents) * 1000 / 1e6))
        let breakdown = try store.unsafeBulkWrite { db in
            try Row.fetchAll(db, sql: "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 6")
        }
        print("  largest parts: " + breakdown.map { "\($0["name"] as String) \(String(format: "%.1f", Double($0["bytes"] as Int) / 1e6)) MB" }.joined(separator: ", "))

        // Query words by how many screenshots contain them, read from FTS5's own vocabulary.
        let vocabulary = try store.unsafeBulkWrite { db -> [(term: String, documents: Int)] in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_vocab USING fts5vocab(main, screenshot_fts, 'row')")
            return try Row.fetchAll(db, sql: "SELECT term, doc FROM temp.bench_vocab WHERE term GLOB '[a-z]*'").map { ($0["term"], $0["doc"]) }
        }
        func band(_ low: Double, _ high: Double) -> [String] {
            vocabulary.filter { Double($0.documents) >= low * Double(documents) && Double($0.documents) < high * Double(documents) }.map(\.term)
        }
        let rare = band(0, 0.001), medium = band(0.001, 0.01), frequent = band(0.01, 0.1), veryCommon = band(0.1, 1.01)
        fflush(nil)
        print("query words by share of screenshots containing them: rare < 0.1% (\(rare.count) words), 0.1-1% (\(medium.count)), 1-10% (\(frequent.count)), > 10% (\(veryCommon.count))")
        // Words a person would start typing: at least 4 letters.
        let typed = (medium + frequent).filter { $0.count >= 4 }
        var rng = SplitMix64(seed: 7)
        func pick(_ words: [String]) -> String { words.isEmpty ? "none" : words[Int(rng.next() % UInt64(words.count))] }
        let kinds: [(String, () -> String)] = [
            ("word <0.1%", { pick(rare) }),
            ("word 0.1-1%", { pick(medium) }),
            ("word 1-10%", { pick(frequent) }),
            ("word >10%", { pick(veryCommon) }),
            ("two words 1-10%", { pick(frequent) + " " + pick(frequent) }),
            ("phrase", { "\"" + (realQueries?.phrase(using: &rng) ?? corpus.phrase(using: &rng)) + "\"" }),
            ("prefix 4", { String(pick(typed).prefix(4)) + "*" }),
            ("prefix 2", { String(pick(typed).prefix(2)) + "*" }),
            ("phone fragment", { realQueries?.phoneFragment(using: &rng) ?? String(format: "555-01%02d", Int(rng.next() % 100)) }),
            ("url fragment", { realQueries?.urlFragment(using: &rng) ?? corpus.urlFragment(using: &rng) }),
        ]
        print("latency, in process (top \(limit) with bm25 + snippet), \(queries) queries each:")
        var samples: [String: [String]] = [:]
        for (kind, make) in kinds {
            var times: [Double] = []
            var hits = 0
            var slowest = (text: "", milliseconds: 0.0)
            let kindStart = ContinuousClock.now
            for _ in 0..<queries where (ContinuousClock.now - kindStart).seconds < secondsPerKind {
                let text = make()
                samples[kind, default: []].append(text)
                let request = SearchRequest(query: try SearchQuery(parsing: text), limit: limit)
                let (found, seconds) = try Measure.time { try store.search(request) }
                hits += found.count
                times.append(seconds * 1000)
                if seconds * 1000 > slowest.milliseconds { slowest = (text, seconds * 1000) }
            }
            print(String(format: "  %-16@ p50 %6.2f ms  p95 %7.2f ms  max %7.2f ms  (%d queries, mean hits %.1f)  e.g. %@, slowest %@",
                         kind as NSString, Measure.percentile(times, 0.5), Measure.percentile(times, 0.95),
                         times.max() ?? 0, times.count, Double(hits) / Double(max(1, times.count)), samples[kind]![0] as NSString,
                         slowest.text as NSString))
            fflush(nil)
        }

        // End to end: a new `lens search` process each time, as a user at a shell.
        guard FileManager.default.isExecutableFile(atPath: lens) else {
            print("end to end: skipped (no lens binary at \(lens))")
            return
        }
        let environment = Measure.benchEnvironment // with OMP_THREAD_LIMIT set; without it, as from a shell (measured below: lens search does not re-exec)
        var processTimes: [Double] = [], reexecTimes: [Double] = []
        for i in 0..<processRuns {
            let query = samples["word 0.1-1%"]![i % samples["word 0.1-1%"]!.count]
            let (_, seconds) = try Measure.time { try Measure.run(lens, ["search", "--db", path, query], environment: environment) }
            processTimes.append(seconds * 1000)
            var bare = environment
            bare.removeValue(forKey: "OMP_THREAD_LIMIT")
            let (_, reexec) = try Measure.time { try Measure.run(lens, ["search", "--db", path, query], environment: bare) }
            reexecTimes.append(reexec * 1000)
        }
        print(String(format: "end to end, lens search process: p50 %.1f ms, p95 %.1f ms (goal p50 < 60 ms); without OMP_THREAD_LIMIT (a shell): p50 %.1f ms",
                     Measure.percentile(processTimes, 0.5), Measure.percentile(processTimes, 0.95), Measure.percentile(reexecTimes, 0.5)))
    }
}

/// Deterministic pseudo-text with a Zipf word distribution, phone numbers, links, e-mails and dates,
/// so that an index of it has the shape of screenshot text.
struct SyntheticCorpus {
    private var rng: SplitMix64
    private let vocabulary: [String]
    private let cumulative: [Double]
    private var recentPhrases: [String] = []

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        var vocabRNG = SplitMix64(seed: seed ^ 0x5EED)
        let syllables = ["ka", "to", "ri", "men", "sa", "lo", "ver", "na", "pi", "dus", "el", "or", "an", "tic", "qu", "bra", "ste", "mo", "lin", "gra", "ex", "port", "al", "ion"]
        var words = Set<String>()
        var ordered: [String] = []
        while ordered.count < 40_000 {
            let n = 1 + Int(vocabRNG.next() % 4)
            let w = (0..<n).map { _ in syllables[Int(vocabRNG.next() % UInt64(syllables.count))] }.joined()
            if words.insert(w).inserted { ordered.append(w) }
        }
        vocabulary = ordered
        var total = 0.0
        cumulative = (1...ordered.count).map { rank in total += 1.0 / Double(rank); return total }
    }

    /// The URLs and e-mails of the last document, with their types.
    var lastEntities: [(String, String)] = []

    mutating func document(words count: Int) -> String {
        var parts: [String] = []
        parts.reserveCapacity(count)
        lastEntities.removeAll(keepingCapacity: true)
        while parts.count < count {
            switch rng.next() % 60 {
            case 0: parts.append(String(format: "(415) 555-01%02d", Int(rng.next() % 100)))
            case 1:
                parts.append("https://\(vocabulary[Int(rng.next() % 500)]).example.org/\(vocabulary[Int(rng.next() % 2000)])/\(Int(rng.next() % 1000))")
                lastEntities.append(("url", parts[parts.count - 1]))
            case 2:
                parts.append("\(vocabulary[Int(rng.next() % 3000)]).\(vocabulary[Int(rng.next() % 3000)])@example.com")
                lastEntities.append(("email", parts[parts.count - 1]))
            case 3: parts.append(String(format: "2024-%02d-%02d", 1 + Int(rng.next() % 12), 1 + Int(rng.next() % 28)))
            default: parts.append(zipfWord())
            }
        }
        if recentPhrases.count < 1_000, parts.count > 10 {
            recentPhrases.append(parts[5] + " " + parts[6])
        }
        var text = ""
        for (i, part) in parts.enumerated() {
            text += part
            text += i % 12 == 11 ? "\n" : " "
        }
        return text
    }

    private mutating func zipfWord() -> String {
        let x = Double(rng.next() % 1_000_000_000) / 1e9 * cumulative.last!
        var lo = 0, hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return vocabulary[lo]
    }

    func word(rankIn range: Range<Int>, using rng: inout SplitMix64) -> String {
        vocabulary[range.lowerBound + Int(rng.next() % UInt64(range.count))]
    }

    func phrase(using rng: inout SplitMix64) -> String {
        recentPhrases.isEmpty ? vocabulary[0] : recentPhrases[Int(rng.next() % UInt64(recentPhrases.count))]
    }

    func urlFragment(using rng: inout SplitMix64) -> String {
        "\(vocabulary[Int(rng.next() % 500)]).example.org/\(String(vocabulary[Int(rng.next() % 2000)].prefix(3)))"
    }
}

/// A small, fast, seedable generator (Steele, Lea & Flood), so every run indexes the same text.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Queries drawn from a library of real text: phrases of 2–3 words from its texts, URL fragments
/// (`host/pa`) and phone fragments (`555-0132`, as written) from its entities, as a person would type them.
struct RealQueries {
    var rawTextBytes = 0
    private var phrases: [String] = []
    private var urls: [String] = []
    private var phones: [String] = []

    init(_ store: LensDatabase) throws {
        var rng = SplitMix64(seed: 11)
        let (bytes, texts, urls, phones) = try store.unsafeBulkWrite { db in
            (try Int.fetchOne(db, sql: "SELECT sum(length(CAST(lens_inflate(body) AS BLOB))) FROM screenshot_text") ?? 0,
             try String.fetchAll(db, sql: "SELECT lens_inflate(body) FROM screenshot_text ORDER BY random() LIMIT 500"),
             try String.fetchAll(db, sql: "SELECT DISTINCT normalized FROM entity WHERE type = 'url' ORDER BY random() LIMIT 500"),
             try String.fetchAll(db, sql: "SELECT DISTINCT value FROM entity WHERE type = 'phone' ORDER BY random() LIMIT 500"))
        }
        rawTextBytes = bytes
        for text in texts {
            let words = text.split(whereSeparator: { !$0.isLetter }).filter { $0.count >= 3 }.map(String.init)
            guard words.count >= 3 else { continue }
            let start = Int(rng.next() % UInt64(words.count - 2)), length = 2 + Int(rng.next() % 2)
            phrases.append(words[start..<min(words.count, start + length)].joined(separator: " "))
        }
        self.urls = urls.compactMap { url in
            var rest = Substring(url)
            if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
            let host = rest.prefix { $0 != "/" }
            let path = rest.dropFirst(host.count + 1).prefix(3)
            return path.isEmpty ? String(host) : "\(host)/\(path)"
        }
        // The last two groups of digits as written (`(415) 555-0132` → `555-0132`).
        self.phones = phones.compactMap { phone in
            let groups = phone.split(whereSeparator: { !$0.isNumber })
            guard groups.count >= 2 else { return nil }
            let last = groups[groups.count - 1], before = groups[groups.count - 2]
            guard let from = phone.range(of: String(before), options: .backwards, range: phone.startIndex..<last.startIndex) else { return nil }
            return String(phone[from.lowerBound..<last.endIndex])
        }
    }

    func phrase(using rng: inout SplitMix64) -> String { phrases.isEmpty ? "none" : phrases[Int(rng.next() % UInt64(phrases.count))] }
    func urlFragment(using rng: inout SplitMix64) -> String { urls.isEmpty ? "none" : urls[Int(rng.next() % UInt64(urls.count))] }
    func phoneFragment(using rng: inout SplitMix64) -> String { phones.isEmpty ? "none" : phones[Int(rng.next() % UInt64(phones.count))] }
}
