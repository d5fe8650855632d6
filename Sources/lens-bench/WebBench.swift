import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import LensApp
import LensCore

/// `lens serve` under the load a person typing makes: every keystroke's request against a large
/// library (the `Server-Timing` the server reports, and the round trip), thumbnails made and
/// served from the cache, and the server's memory idle and after the load.
struct WebBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Measure lens serve: time per keystroke at 100,000 screenshots, thumbnails, memory.",
        discussion: """
            Build the library first: lens-bench search --documents 100000 --keep /tmp/lens-100k.db
            then: lens-bench web --db /tmp/lens-100k.db --image ../shared/corpus/public/pub_000_web.png
            """)

    @Option(help: "The library to serve (e.g. made by 'lens-bench search --keep').")
    var db: String

    @Option(help: "A 1080p screenshot for the thumbnail figures.")
    var image: String?

    @Option(help: "Words typed letter by letter, per frequency band.")
    var wordsPerBand: Int = 12

    @Option(help: "The lens binary.")
    var lens: String = Measure.siblingLens

    @Option(help: "Also send each query of this file (lens-bench meaning's format) whole, as the page does once typing pauses: words and meaning, and meaning only.")
    var queries: String?

    @Flag(help: "Type words of the library's own vocabulary (by how many screenshots hold them), for a library of real text (lens-bench realtext, then lens restore); without it, the synthetic corpus's words.")
    var real = false

    func run() async throws {
        let work = try Measure.makeTemporaryFolder("lens-bench-web")
        defer { try? FileManager.default.removeItem(at: work) }

        // The server, as a user starts it.
        let output = Pipe()
        let server = try launch(["serve", "--db", db, "--listen", "127.0.0.1:0"], cache: work, printing: output, logging: nil)
        defer { server.terminate(); server.waitUntilExit() }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let range = line.range(of: #"http://[^ ]+/"#, options: .regularExpression) else {
            throw ValidationError("lens serve did not print its address: \(line)")
        }
        let base = String(line[range])
        try await Task.sleep(for: .seconds(1))
        let idleKB = Measure.memory(server.processIdentifier, "VmRSS")
        print("lens serve at \(base) over \(db)")
        print(String(format: "idle RSS after start: %.1f MB", idleKB / 1024))

        // Keystrokes: each word typed letter by letter (2+ letters), as the page sends them.
        let corpus = SyntheticCorpus(seed: 2024)
        // Words of 3 or more letters, the most widespread first.
        let vocabulary = real ? try await DatabaseQueue(path: db, configuration: { var c = Configuration(); c.readonly = true; return c }()).read { db in
            try String.fetchAll(db, sql: "SELECT term FROM term WHERE length(term) >= 3 AND term NOT GLOB '*[^a-z]*' ORDER BY docs DESC, term")
        } : []
        var rng = SplitMix64(seed: 7)
        func word(rankIn ranks: Range<Int>) -> String {
            guard real else { return corpus.word(rankIn: ranks, using: &rng) }
            let upper = min(ranks.upperBound, vocabulary.count), lower = min(ranks.lowerBound, max(0, upper - 1))
            return vocabulary[lower + Int(rng.next() % UInt64(max(1, upper - lower)))]
        }
        let bands: [(String, Range<Int>)] = [("common word (rank 1-50)", 0..<50), ("mid word (rank 200-2000)", 200..<2000),
                                             ("rare word (rank 10000+)", 10_000..<40_000)]
        let session = URLSession(configuration: .ephemeral)
        var allServer: [Double] = [], allRoundTrip: [Double] = []
        print("\n| typed | requests | server p50 | server p95 | round trip p50 | round trip p95 |")
        print("|---|---:|---:|---:|---:|---:|")
        for (label, ranks) in bands {
            var serverTimes: [Double] = [], roundTrips: [Double] = []
            for _ in 0..<wordsPerBand {
                let word = word(rankIn: ranks)
                for length in 2...max(2, word.count) {
                    let prefix = String(word.prefix(length))
                    let (server, roundTrip) = try await keystroke(session, base, prefix)
                    serverTimes.append(server)
                    roundTrips.append(roundTrip)
                }
            }
            allServer += serverTimes
            allRoundTrip += roundTrips
            print(row(label, serverTimes, roundTrips))
        }
        // A second word after a common one: "word1 wo", "word1 wor"…
        var twoWords: ([Double], [Double]) = ([], [])
        for _ in 0..<wordsPerBand {
            let first = word(rankIn: 0..<200), second = word(rankIn: 0..<2000)
            for length in 2...max(2, second.count) {
                let (s, r) = try await keystroke(session, base, first + " " + String(second.prefix(length)))
                twoWords.0.append(s)
                twoWords.1.append(r)
            }
        }
        allServer += twoWords.0
        allRoundTrip += twoWords.1
        print(row("second word after a common one", twoWords.0, twoWords.1))
        print(row("all keystrokes", allServer, allRoundTrip))
        if let queries {
            // Whole queries after typing pauses: words, then meaning (query embedding included).
            let texts = try String(contentsOfFile: queries, encoding: .utf8).split(separator: "\n")
                .filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: "\t").last.map(String.init) }
            let words = (0..<wordsPerBand * 2).map { _ in word(rankIn: 0..<2000) + " " + word(rankIn: 200..<10_000) }
            for (label, meaning, list) in [("paraphrase, words then meaning", "on", texts), ("paraphrase, meaning only", "only", texts),
                                           ("two words, words then meaning", "on", words)] {
                var server: [Double] = [], roundTrip: [Double] = []
                for _ in 0..<2 {
                    for text in list {
                        let (s, r) = try await keystroke(session, base, text, typing: false, meaning: meaning)
                        server.append(s)
                        roundTrip.append(r)
                    }
                }
                print(row(label, server, roundTrip))
            }
        }
        let (_, listing) = try await keystroke(session, base, "")
        print(String(format: "\nthe library, newest first (empty box): %.1f ms round trip", listing))
        let loadedKB = Measure.memory(server.processIdentifier, "VmRSS")
        print(String(format: "RSS after %d requests: %.1f MB (peak %.1f MB)", allServer.count + 1, loadedKB / 1024,
                     Measure.memory(server.processIdentifier, "VmHWM") / 1024))

        if let image {
            try thumbnails(image: image, work: work)
        }
        try await daemonMemory(work: work)
    }

    /// What serving the page adds to the daemon: `lens watch` idle with and without `[web] enabled`,
    /// and after the page's first requests.
    private func daemonMemory(work: URL) async throws {
        let folder = work.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var figures: [Bool: (Double, Double)] = [:]
        for web in [false, true] {
            let config = work.appendingPathComponent("config-\(web).toml")
            try """
                database = "\(work.path)/daemon.db"
                [web]
                enabled = \(web)
                listen = "127.0.0.1:0"
                [[folders]]
                path = "\(folder.path)"
                """.write(to: config, atomically: true, encoding: .utf8)
            let log = Pipe()
            let daemon = try launch(["watch", "--config", config.path, "--log-level", "notice"], cache: work, printing: nil, logging: log)
            try await Task.sleep(for: .seconds(4))
            let idle = Measure.memory(daemon.processIdentifier, "VmRSS")
            var afterPage = idle
            if web {
                let text = String(decoding: log.fileHandleForReading.availableData, as: UTF8.self)
                if let range = text.range(of: #"http://[^ ]+/"#, options: .regularExpression) {
                    let session = URLSession(configuration: .ephemeral)
                    for path in ["", "assets/app.js", "assets/map.js", "assets/app.css", "api/search?limit=60", "api/facets", "api/graph"] {
                        _ = try? await session.data(from: URL(string: String(text[range]) + path)!)
                    }
                    try await Task.sleep(for: .seconds(1))
                    afterPage = Measure.memory(daemon.processIdentifier, "VmRSS")
                }
            }
            daemon.terminate()
            daemon.waitUntilExit()
            figures[web] = (idle, afterPage)
        }
        let without = figures[false]!.0, with = figures[true]!
        print(String(format: "\nlens watch idle RSS: %.1f MB; with [web] enabled %.1f MB (+%.1f MB), after loading the page %.1f MB (+%.1f MB)",
                     without / 1024, with.0 / 1024, (with.0 - without) / 1024, with.1 / 1024, (with.1 - without) / 1024))
    }

    /// Starts `lens ARGUMENTS` with the bench environment and its thumbnail cache under `cache`.
    private func launch(_ arguments: [String], cache: URL, printing output: Pipe?, logging log: Pipe?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lens)
        process.arguments = arguments
        var environment = Measure.benchEnvironment
        environment["XDG_CACHE_HOME"] = cache.path
        process.environment = environment
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = log ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    private func row(_ label: String, _ server: [Double], _ roundTrip: [Double]) -> String {
        String(format: "| %@ | %d | %.2f ms | %.2f ms | %.2f ms | %.2f ms |", label, server.count,
               Measure.percentile(server, 0.5), Measure.percentile(server, 0.95),
               Measure.percentile(roundTrip, 0.5), Measure.percentile(roundTrip, 0.95))
    }

    /// One search request as the page sends it; the server's own time and the round trip, in ms.
    private func keystroke(_ session: URLSession, _ base: String, _ text: String, typing: Bool = true,
                           meaning: String? = nil) async throws -> (Double, Double) {
        var components = URLComponents(string: base + "api/search")!
        components.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "limit", value: "60")]
            + (typing ? [URLQueryItem(name: "typing", value: "1")] : []) + (meaning.map { [URLQueryItem(name: "meaning", value: $0)] } ?? [])
        let start = ContinuousClock.now
        let (_, response) = try await session.data(from: components.url!)
        let roundTrip = (ContinuousClock.now - start).seconds * 1000
        let timing = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Server-Timing") ?? ""
        let server = Double(timing.split(separator: "=").last ?? "") ?? .nan
        return (server, roundTrip)
    }

    /// First thumbnails (cold cache) and cached ones, in process, as the server makes them.
    private func thumbnails(image: String, work: URL) throws {
        let library = try Library(databasePath: work.appendingPathComponent("thumbs.db").path)
        let folder = work.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: image, toPath: folder.appendingPathComponent("shot.png").path)
        let semaphore = DispatchSemaphore(value: 0)
        let importer = Importer(library: library, options: ImportOptions(workers: 1), logger: .init(label: "bench"))
        Task { _ = try? await importer.run(paths: [folder.path]); semaphore.signal() }
        semaphore.wait()
        guard let id = try library.screenshot(idOrPath: folder.appendingPathComponent("shot.png").path)?.id else {
            throw ValidationError("\(image) was not imported")
        }
        var cold: [Double] = [], warm: [Double] = []
        for round in 0..<15 {
            let cache = ThumbnailCache(folder: work.appendingPathComponent("cache-\(round)").path)
            cold.append(try Measure.time { try cache.thumbnail(of: id, in: library) }.1 * 1000)
            for _ in 0..<10 { warm.append(try Measure.time { try cache.thumbnail(of: id, in: library) }.1 * 1000) }
        }
        let size = try library.screenshot(id: id).map { "\($0.width ?? 0)x\($0.height ?? 0)" } ?? "?"
        print(String(format: "\nthumbnail of a %@ screenshot: first %.1f ms (p50; max %.1f), from the cache %.2f ms (p50; p95 %.2f)",
                     size, Measure.percentile(cold, 0.5), cold.max() ?? .nan, Measure.percentile(warm, 0.5), Measure.percentile(warm, 0.95)))
    }
}
