import ArgumentParser
import Foundation
import LensCore
import LensApp
import LensGraph

/// Connections at scale: the index against comparing all pairs, on synthetic libraries.
struct GraphBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Time connection finding through the entity index against all pairs, on synthetic libraries.",
        discussion: """
            Each synthetic screenshot has 5-15 entities (10 on average): names, phone numbers, e-mails, \
            URLs, dates and amounts drawn from pools as large as the library, so that values recur \
            now and then. Given names come from 40 common ones with a skew (a few are very common, \
            as in life); surnames are random and pronounceable; 10 % of names are written with an \
            initial and 10 % with a one-letter variant of the surname.

            For each size: the full rebuild (ConnectionFinder.rebuild, as `lens graph --rebuild` \
            runs it), the time to load an index of all but the last 1,000 screenshots (what the \
            daemon does once), and then the time per new screenshot for those 1,000 (find its \
            connections, then index it), as mean and 99th percentile. All pairs is measured up to \
            --brute-force-limit screenshots and must give the same edges as the index without its \
            bound on linked holders (ConnectionFinder.fanOut).
            """)

    @Option(help: "Library sizes to time through the index.")
    var sizes: [Int] = [1_000, 10_000, 100_000]

    @Option(help: "The largest library also compared all pairs.")
    var bruteForceLimit = 10_000

    @Option(help: "Also build a SQLite store of this many synthetic screenshots (0: none) and time `lens graph --rebuild` and the daemon's per-screenshot update on it.")
    var store = 100_000

    @Option(help: "Keep the store built with --store at this path (e.g. for the web page's mind map).")
    var keep: String?

    @Option(help: "Time the store part on this library instead of a synthetic one (e.g. a `lens restore` of `lens-bench realtext`): its newest 1,000 screenshots arrive one by one. Their states are set back to done as they go.")
    var reuse: String?

    func run() throws {
        try timeIndex()
        if let reuse { try timeStore(reusing: reuse) } else if store > 0 { try timeStore(size: store) }
    }

    /// Through the real store and use cases: the rebuild `lens graph --rebuild` runs (load the
    /// entities, find the edges, band keys of every text for copies, replace the tables), and the
    /// daemon's step for each new screenshot (`ConnectionKeeper`: read its entities and text,
    /// find, index, look for copies, save its edges).
    func timeStore(size: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lens-graph-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try Library(databasePath: keep ?? folder.appendingPathComponent("lens.sqlite").path)
        let screenshots = Self.library(size: size, seed: 11)
        let tail = min(1_000, size / 10)
        var random = SeededRandom(seed: 3)
        let (_, buildSeconds) = try Measure.time {
            for batch in stride(from: 0, to: size, by: 5_000) {
                try library.database.unsafeBulkWrite { db in
                    for screenshot in screenshots[batch..<min(size, batch + 5_000)] {
                        try db.execute(sql: """
                            INSERT INTO screenshot (id, sha256, byte_count, format, state, captured_at, imported_at)
                            VALUES (?, ?, 1, 'png', 'done', 0, 0)
                            """, arguments: [screenshot.id, String(format: "%064x", screenshot.id)])
                        // A text of 80 words (its entities among words of a 5,000-word vocabulary),
                        // so rebuilds and new screenshots also pay for the near-duplicate search.
                        var text = screenshot.entities.map(\.normalized)
                        while text.count < 80 { text.append(Self.vocabulary[random.next(upTo: Self.vocabulary.count)]) }
                        try db.execute(sql: "INSERT INTO screenshot_text (id, body) VALUES (?, lens_deflate(?))",
                                       arguments: [screenshot.id, text.joined(separator: " ")])
                        for (type, value) in screenshot.entities {
                            try db.execute(sql: "INSERT INTO entity (screenshot_id, type, value, normalized) VALUES (?, ?, ?, ?)",
                                           arguments: [screenshot.id, type.rawValue, value, value])
                        }
                    }
                }
            }
        }
        print(String(format: "\nstore of %d screenshots built in %.1f s; the first %d are in the graph:", size, buildSeconds, size - tail))
        try timeArrivals(library, newest: Array((size - tail + 1)...size).map(Int64.init))
    }

    /// The same on an existing library: its newest 1,000 screenshots arrive one by one.
    func timeStore(reusing path: String) throws {
        let library = try Library(databasePath: path)
        let ids = try library.database.unsafeBulkWrite { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM screenshot WHERE state = 'done' ORDER BY id DESC LIMIT 1000")
        }
        print("\nlibrary \(path); all but its newest \(ids.count) screenshots are in the graph:")
        try timeArrivals(library, newest: ids.reversed())
    }

    /// Rebuilds the graph over all but `newest`, which then arrive one by one (in that order)
    /// through the daemon's step.
    func timeArrivals(_ library: Library, newest: [Int64]) throws {
        fflush(nil)
        try library.database.unsafeBulkWrite { db in
            try db.execute(sql: "UPDATE screenshot SET state = 'queued' WHERE id IN (\(newest.map(String.init).joined(separator: ",")))")
        }
        let (counts, rebuildSeconds) = try Measure.time { try MindMapUseCases.rebuild(library) }
        print(String(format: "  lens graph --rebuild: %.1f s (%d screenshots with linkable entities, %d edges)",
                     rebuildSeconds, counts.screenshots, counts.edges))
        fflush(nil)
        let keeper = ConnectionKeeper(database: library.database)
        var perNew: [Double] = []
        for id in newest {
            try library.database.unsafeBulkWrite { db in
                try db.execute(sql: "UPDATE screenshot SET state = 'done' WHERE id = ?", arguments: [id])
            }
            let (_, seconds) = try Measure.time { try keeper.connect(id) }
            perNew.append(seconds * 1000)
        }
        let load = perNew.removeFirst()
        perNew.sort()
        print(String(format: "  daemon, per new screenshot (%d): mean %.2f ms, p99 %.2f ms; the first also loads the index: %.0f ms",
                     perNew.count, perNew.reduce(0, +) / Double(perNew.count), perNew[perNew.count * 99 / 100], load))
    }

    func timeIndex() throws {
        print("screenshots  entities    edges  rebuild s  load s  new mean ms  new p99 ms  all-pairs s  speed-up  same edges")
        fflush(nil)
        for size in sizes {
            let library = Self.library(size: size, seed: 7)
            let entityCount = library.reduce(0) { $0 + $1.entities.count }
            let (rebuilt, rebuildSeconds) = Measure.time { ConnectionFinder.rebuild(library) }

            let tail = min(1_000, size / 10)
            let (loaded, loadSeconds) = Measure.time {
                var index = EntityIndex()
                for screenshot in library.dropLast(tail) {
                    for (type, value) in screenshot.entities { index.insert(screenshot: screenshot.id, type: type, normalized: value) }
                }
                return index
            }
            var index = loaded
            var perNew: [Double] = []
            for screenshot in library.suffix(tail) {
                let (_, seconds) = Measure.time {
                    let found = ConnectionFinder.connections(of: screenshot, in: index)
                    for (type, value) in screenshot.entities { index.insert(screenshot: screenshot.id, type: type, normalized: value) }
                    return found
                }
                perNew.append(seconds * 1000)
            }
            perNew.sort()
            let mean = perNew.reduce(0, +) / Double(max(1, perNew.count))
            let p99 = perNew.isEmpty ? 0 : perNew[min(perNew.count - 1, perNew.count * 99 / 100)]

            var brute = "-", speedUp = "-", same = "-"
            if size <= bruteForceLimit {
                let (reference, seconds) = Measure.time { ConnectionFinder.bruteForce(library) }
                brute = String(format: "%.1f", seconds)
                speedUp = String(format: "%.0f×", seconds / rebuildSeconds)
                // The index without its bound on linked holders must give exactly the pairs.
                same = reference == ConnectionFinder.rebuild(library, fanOut: .max) ? "yes" : "NO"
            }
            print(String(format: "%11d %9d %8d %10.2f %7.2f %12.3f %11.3f", size, entityCount, rebuilt.count, rebuildSeconds,
                         loadSeconds, mean, p99) + brute.leftPadded(13) + speedUp.leftPadded(10) + same.leftPadded(12))
            fflush(nil) // one line per size as it is measured
        }
    }

    /// Pronounceable words of 3-8 letters.
    static let vocabulary: [String] = {
        var random = SeededRandom(seed: 5)
        let consonants = Array("bcdfghjklmnprstvwz"), vowels = Array("aeiou")
        return (0..<5_000).map { _ in
            String((0..<(3 + random.next(upTo: 6))).map { i in
                i % 2 == 0 ? consonants[random.next(upTo: consonants.count)] : vowels[random.next(upTo: vowels.count)]
            })
        }
    }()

    static func library(size: Int, seed: UInt64) -> [ScreenshotEntities] {
        var random = SeededRandom(seed: seed)
        let givens = ["James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
                      "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
                      "Jon", "Priya", "Katarzyna", "Aarav", "Amara", "José", "Chloé", "Olusegun", "Ingrid", "Mateo",
                      "Yuki", "Ana", "Anna", "Lars", "Fatima", "Wei", "Sofia", "Omar", "Emma", "Noah"]
        let pool = max(50, size)
        // Random pronounceable surnames of 5-9 letters: unlike "Surname17"/"Surname18", two of
        // them are rarely within the name threshold, as real surnames are.
        let consonants = Array("bcdfghjklmnprstvwz"), vowels = Array("aeiou")
        let surnames = (0..<pool).map { _ -> String in
            let letters = (0..<(5 + random.next(upTo: 5))).map { i in
                i % 2 == 0 ? consonants[random.next(upTo: consonants.count)] : vowels[random.next(upTo: vowels.count)]
            }
            return String(letters).capitalized
        }
        return (0..<size).map { id in
            let entities = (0..<(5 + random.next(upTo: 11))).map { _ -> (type: EntityType, normalized: String) in
                let n = random.next(upTo: pool)
                switch random.next(upTo: 20) {
                case 0..<5:
                    // Skewed: the square of a uniform pick favours the first names of the list.
                    let pick = random.next(upTo: givens.count)
                    var given = givens[pick * pick / givens.count]
                    if random.next(upTo: 10) == 0 { given = String(given.prefix(1)) + "." }
                    var surname = surnames[n]
                    if random.next(upTo: 10) == 0 { surname.removeLast() } // a one-letter variant
                    return (.person, "\(given) \(surname)")
                case 5..<8: return (.phone, "+1415\(String(format: "%07d", n))")
                case 8..<11: return (.email, "user\(n)@example.org")
                case 11..<15: return (.url, "https://example.org/page/\(n)")
                case 15..<18: return (.date, String(format: "2024-%02d-%02d", 1 + n % 12, 1 + n % 28))
                default: return (.money, "\(n % 500).00 USD")
                }
            }
            return ScreenshotEntities(id: Int64(id + 1), entities: entities)
        }
    }
}

/// SplitMix64: the same library on every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
