import ArgumentParser
import Foundation
import LensCore
import LensStore

/// Grows a benchmark library (a SQLite file and a PostgreSQL database loaded by `lens-bench
/// postgres` with the same real texts) to a million screenshots, for search figures at that size.
/// The machine's real text gives some 100,000 pieces; the rest are made from them: screenshot k
/// is the first half of the lines of real piece k mod N and the second half of another's, so
/// the words, their frequencies and the lengths stay those of real text while each text is new.
/// Both stores get the same texts, through `restore` (the way a library moves between them), a
/// transaction of `--batch` at a time. PostgreSQL's vocabulary trigger costs 5× the rest of a
/// bulk load (87 against 433 screenshots a second): switch it off for the load and count the
/// vocabulary afterwards, as migration p4 does (the discussion below has the statements).
struct GrowBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grow",
        abstract: "Grow a lens-bench postgres library (SQLite file and PostgreSQL database) to N screenshots made from its real texts.",
        discussion: """
            Example: cp /tmp/bench100k.db /tmp/bench1m.db && createdb -h /tmp/pg -U lens -T bench100k bench1m && \
            psql -h /tmp/pg -U lens bench1m -c 'ALTER TABLE screenshot_text DISABLE TRIGGER screenshot_text_vocabulary' && \
            lens-bench grow --sqlite /tmp/bench1m.db --store 'postgresql://lens@/bench1m?host=/tmp/pg' --to 1000000 && \
            psql -h /tmp/pg -U lens bench1m -c 'BEGIN; TRUNCATE lens_vocabulary; INSERT INTO lens_vocabulary SELECT word, ndoc \
            FROM ts_stat($$SELECT document FROM screenshot_text$$); ALTER TABLE screenshot_text ENABLE TRIGGER \
            screenshot_text_vocabulary; COMMIT; VACUUM ANALYZE' && \
            lens-bench postgres --reuse --sqlite /tmp/bench1m.db --store 'postgresql://lens@/bench1m?host=/tmp/pg'
            """)

    @Option(help: "The SQLite file of the library to grow (none: only the PostgreSQL database).")
    var sqlite: String?

    @Option(help: "The SQLite file holding the real texts to grow from (default: --sqlite, before it grows).")
    var real: String?

    @Option(help: "The PostgreSQL database holding the same library (none: grow the SQLite file only).")
    var store: String?

    @Option(help: "How many screenshots each store should hold.")
    var to = 1_000_000

    @Option(help: "Screenshots a restore transaction.")
    var batch = 50_000

    func validate() throws {
        guard sqlite != nil || store != nil else { throw ValidationError("Give --sqlite, --store or both.") }
        guard sqlite != nil || real != nil else { throw ValidationError("Give --real: the SQLite file with the real texts.") }
    }

    func run() throws {
        // The real texts are read before anything grows (and from a file no other run grows).
        let source = try LensDatabase(store: .sqlite(path: real ?? sqlite!))
        let real = try PostgresBench.storedTexts(in: source).map { $0.split(separator: "\n", omittingEmptySubsequences: false) }
        print("real texts: \(real.count)")
        var targets: [(String, LensDatabase)] = []
        if let sqlite { targets.append(("sqlite", try LensDatabase(store: .sqlite(path: sqlite)))) }
        if let store { targets.append(("postgresql", try LensDatabase(store: try StoreAddress(store)))) }
        for (name, database) in targets {
            var held = try database.stateCounts().values.reduce(0, +)
            while held < to {
                let end = min(to, held + batch)
                let start = ContinuousClock.now
                let report = try database.restore(replacing: false, summary: "lens-bench grow") { sink in
                    for k in held..<end { try sink(try Self.record(k, real: real)) }
                }
                let seconds = (ContinuousClock.now - start).seconds
                FileHandle.standardError.write(Data(String(format: "%@: %d → %d screenshots (%d added) in %.1f s, %.0f a second\n", name, held, end, report.added,
                             seconds, Double(end - held) / seconds).utf8))
                held = end
            }
        }
    }

    /// Screenshot `k`: half of real piece k mod N, half of another.
    static func text(_ k: Int, real: [[Substring]]) -> String {
        let a = real[k % real.count], b = real[(k &* 7919 &+ k / real.count) % real.count]
        return (a.prefix(max(1, a.count / 2)) + b.suffix(b.count - b.count / 2)).joined(separator: "\n")
    }

    static func record(_ k: Int, real: [[Substring]]) throws -> ArchivedScreenshot {
        let text = Self.text(k, real: real)
        let seen = 1_700_000_000 + Double(k)
        // The hash `lens-bench postgres` gives screenshot number k.
        let hash = String(format: "%064llx", UInt64(k) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let json: [String: Any] = [
            "id": k + 1, "sha256": hash, "byte_count": text.utf8.count, "format": "png", "width": 1280, "height": 800,
            "state": "done", "confidence": 90.0, "ocr_seconds": 0.5, "captured_at": seen, "imported_at": seen, "recognized_at": seen,
            "paths": [["path": "/bench/\(k).png", "size": text.utf8.count, "modified_at": seen, "first_seen_at": seen, "last_seen_at": seen]],
            "text": text, "codes": [], "entities": [], "tags": [], "links": [],
        ]
        return try JSONDecoder().decode(ArchivedScreenshot.self, from: JSONSerialization.data(withJSONObject: json))
    }
}
