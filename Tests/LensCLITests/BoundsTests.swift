import Foundation
import LensCore
import LensTestSupport
import Testing

/// Accidents and hostile input, through the real binary: mistyped paths, undo typed twice or
/// during an import, files that are not files, queries of unbounded cost, a slow image.
@Suite(.serialized)
struct BoundsTests {
    @Test(arguments: [["search", "invoice"], ["show", "1"], ["undo"], ["redo"], ["status"], ["history"], ["tags"], ["stats"],
                      ["entities"], ["export"], ["gc", "--dry-run"], ["graph"], ["serve", "--listen", "127.0.0.1:0"]])
    func aCommandOnAMissingLibraryFailsAndCreatesNothing(arguments: [String]) throws {
        let lens = try LensBinary()
        let typo = lens.home.appendingPathComponent("typo.db").path
        let result = try lens.runProgram(LensBinary.url.path, arguments + ["--db", typo])
        #expect(result.status == 2, "\(arguments): \(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("there is no library at \(typo)") && result.stderr.contains("lens import"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: typo))
    }

    @Test func aRefusedRestoreLeavesNoDatabaseBehind() throws {
        let lens = try LensBinary()
        let backup = lens.home.appendingPathComponent("broken.jsonl")
        try "{\"format\":\"lens-export\",\"version\":1}\nnot json\n".write(to: backup, atomically: true, encoding: .utf8)
        let result = try lens.run(["restore", backup.path])
        #expect(result.status == 2 && result.stderr.contains("nothing was changed"), "\(result.stderr)")
        for suffix in ["", "-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: lens.database + suffix)) }
    }

    @Test func undoingAnImportAsksAndRedoBringsItBackWithoutOCR() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        #expect(try lens.run(["tag", "1", "trip"]).status == 0)
        // No terminal, no --yes: refused, nothing undone ("did it work?" typed twice loses nothing).
        for _ in 0..<2 {
            let refused = try lens.run(["undo"])
            #expect(refused.status == 2 && refused.stderr.contains("confirm on a terminal, or add --yes"), "\(refused.stderr)")
            #expect(refused.stderr.contains("\(TestSupport.samplePNGCount) screenshot(s)"))
        }
        #expect(try HistoryTests.counts(lens)["done"] == TestSupport.samplePNGCount)

        let undone = try lens.run(["undo", "--yes"])
        #expect(undone.status == 0 && undone.stdout.contains("\(TestSupport.samplePNGCount) screenshot(s) taken out"), "\(undone.stdout)")
        #expect(try HistoryTests.counts(lens).values.reduce(0, +) == 0)
        let history = try lens.run(["history"])
        #expect(history.stdout.contains("lens redo 1 brings it back"), "\(history.stdout)")

        let redone = try lens.run(["redo", "--json"])
        #expect(redone.status == 0, "\(redone.stderr)")
        let report = try #require(try redone.json() as? [String: Any])
        #expect((report["restored"] as? [Int])?.count == TestSupport.samplePNGCount)
        #expect(try HistoryTests.counts(lens)["done"] == TestSupport.samplePNGCount)
        #expect(try lens.run(["tags"]).stdout.contains("trip"))
        #expect(try lens.run(["search", "--json", "cafe"]).json() as? [Any] != nil)
        #expect(try HistoryTests.history(lens).first?["redone_at"] is String)
        let nothing = try lens.run(["redo"])
        #expect(nothing.status == 2 && nothing.stderr.contains("nothing to redo"), "\(nothing.stderr)")
    }

    /// An undo during an import is refused with the running batch's number; the import's report
    /// stays true.
    /// Undo waits for an import running in another process (on PostgreSQL, possibly another
    /// host's); an import killed with SIGKILL no longer holds it up, and its batch can be undone.
    @Test(arguments: StoreKind.allCases)
    func undoWaitsForARunningImport(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        let library = lens.store.map { ["--store", $0] } ?? ["--db", lens.database]
        func startImport(_ name: String, count: Int, tag: Int) throws -> (Process, URL) {
            let folder = lens.home.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for i in 0..<count {
                let sample = TestSupport.sampleNames[i % TestSupport.sampleNames.count]
                try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(sample), tag: tag + i))
                    .write(to: folder.appendingPathComponent("s\(i).png"))
            }
            let output = lens.home.appendingPathComponent("\(name).json")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let importer = Process()
            importer.executableURL = LensBinary.url
            importer.arguments = ["import", "--json", "--workers", "1", folder.path] + library
            importer.environment = ProcessInfo.processInfo.environment.merging(["HOME": lens.home.path]) { $1 }
            importer.standardOutput = try FileHandle(forWritingTo: output)
            importer.standardError = FileHandle.nullDevice
            try importer.run()
            return (importer, output)
        }
        /// Tries undo while `importer` runs, until it was refused `wanted` times.
        func refusals(while importer: Process, wanted: Int) throws -> Int {
            let deadline = Date().addingTimeInterval(60)
            var refusals = 0
            while importer.isRunning && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.3)
                guard kind == .postgresql || FileManager.default.fileExists(atPath: lens.database) else { continue }
                let attempt = try lens.run(["undo", "--yes"])
                if attempt.status == 0 { Issue.record("undo ran during the import: \(attempt.stdout)"); break }
                if attempt.stderr.contains("is still running") && attempt.stderr.contains("in process \(importer.processIdentifier)") { refusals += 1 }
                if refusals >= wanted { break }
            }
            return refusals
        }

        let count = 24
        let (importer, output) = try startImport("many", count: count, tag: 0)
        defer { if importer.isRunning { importer.terminate() } }
        #expect(try refusals(while: importer, wanted: 2) >= 2, "no undo was refused while the import ran")
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        #expect(summary["added"] as? Int == count)
        #expect(try HistoryTests.counts(lens)["done"] == count)
        // Once it has finished, it can be undone.
        #expect(try lens.run(["undo", "--yes"]).status == 0)
        #expect(try HistoryTests.counts(lens).values.reduce(0, +) == 0)

        // An import killed mid-run (SIGKILL: no chance to close its batch) holds nothing up.
        let (killed, _) = try startImport("more", count: count, tag: 100)
        defer { if killed.isRunning { killed.terminate() } }
        #expect(try refusals(while: killed, wanted: 1) >= 1)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let batch = try #require(try HistoryTests.history(lens).first)
        #expect(batch["finished_at"] is NSNull && batch["undone_at"] is NSNull)
        var undone: [String: Any]?
        for _ in 0..<20 where undone == nil {
            let attempt = try lens.run(["undo", "--yes", "--json"])
            undone = attempt.status == 0 ? try attempt.json() as? [String: Any] : nil
            if undone == nil { Thread.sleep(forTimeInterval: 0.25) }
        }
        #expect((undone?["batch"] as? [String: Any])?["id"] as? Int == batch["id"] as? Int)
        #expect(try HistoryTests.counts(lens).values.reduce(0, +) == 0)
    }


    @Test func namedPipesAndSocketsAreNotRegularFiles() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("odd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("x.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("real.png"))
        for target in [folder.path, fifo] {
            let result = try lens.run(["import", "--json", target])
            #expect(result.status == 1, "\(target): \(result.stderr)")
            let summary = try #require(try result.json() as? [String: Any])
            let failed = try #require(summary["failed"] as? [[String: Any]])
            #expect(failed.count == 1)
            #expect(failed.first?["path"] as? String == fifo)
            #expect(failed.first?["reason"] as? String == "not a regular file: it is a named pipe (FIFO)")
        }
    }

    @Test func queriesOverTheBoundsAreRefusedWithAClearMessage() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        let long = try lens.run(["search", String(repeating: "ab", count: 1_600)])
        #expect(long.status == 2 && long.stderr.contains("3200 characters long; at most 1000"), "\(long.stderr)")
        let many = try lens.run(["search"] + (0..<40).map { "w\($0)" })
        #expect(many.status == 2 && many.stderr.contains("40 words; at most 32"), "\(many.stderr)")
        // A long token is searched as typed, at once.
        let token = try lens.run(["search", "--json", String(repeating: "Zq7", count: 300)])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(try (token.json() as? [Any])?.isEmpty == true)
    }

    /// A deliberately slow image (random specks) does not hold up the screenshots that arrive
    /// after it, and is stopped at its time limit as a failure naming it.
    @Test func aSlowImageNeitherBlocksTheOthersNorRunsPastItsLimit() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = lens.home.appendingPathComponent("config.toml")
        try "ocr_timeout_s = 12\nstability_ms = 200\n".write(to: config, atomically: true, encoding: .utf8)
        let daemon = try WatchTests.Daemon(lens, folder: folder, config: config, workers: 2)
        defer { _ = daemon.terminate() }
        _ = try WatchTests.waitForCounts(lens) { _ in true }
        let noise = folder.appendingPathComponent("noise.png")
        try Data(TestSupport.noisePNG(width: 1_400, height: 1_400, seed: 7)).write(to: noise)
        // The noise image is claimed first...
        _ = try WatchTests.waitForCounts(lens, timeout: 30) { ($0["running"] ?? 0) == 1 }
        let dropped = Date()
        for (i, name) in TestSupport.sampleNames.enumerated() {
            try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(name), tag: 100 + i)).write(to: folder.appendingPathComponent("new\(i).png"))
        }
        // ...and the three ordinary ones are done while it is still being read.
        let counts = try WatchTests.waitForCounts(lens, timeout: 60) { ($0["done"] ?? 0) == 3 }
        let latency = Date().timeIntervalSince(dropped)
        #expect(counts["running"] == 1, "the slow image finished before the others: \(counts)")
        #expect(latency < 12, "three screenshots took \(latency) s behind a slow image")
        let failed = try WatchTests.waitForCounts(lens, timeout: 60) { ($0["failed"] ?? 0) == 1 }
        #expect(failed["done"] == 3)
        let show = try lens.run(["status", "--json"])
        #expect(show.status == 0)
        let log = try String(contentsOf: daemon.log, encoding: .utf8)
        #expect(log.contains("noise.png") && log.contains("recognition took over 12 s"), "\(log)")
    }

    /// Writes `bytes` to a file whose name is `name` as bytes (not UTF-8), in `folder`.
    static func write(_ bytes: [UInt8], toRawName name: [UInt8], in folder: URL) throws -> String {
        let path = SystemPath.string(fromBytes: Array(folder.path.utf8) + [0x2F] + name)
        let fd = path.withSystemPath { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
        return path
    }

    /// A screenshot whose name is Latin-1 (`café.png` from an old system) is indexed by import,
    /// by name on the command line, and by the daemon, and shown with the byte escaped.
    @Test func namesThatAreNotUTF8AreIndexedAndShownEscaped() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("latin1")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cafe = try Self.write(try TestSupport.sampleBytes("receipt_light"), toRawName: Array("caf".utf8) + [0xE9] + Array(".png".utf8), in: folder)
        let result = try lens.run(["import", "--json", folder.path])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect((try? result.json() as? [String: Any])?["added"] as? Int == 1, "\(result.stdout) \(result.stderr)")
        let search = try lens.run(["search", "--json", "espresso"])
        let hits = try #require(try? search.json() as? [[String: Any]], "\(search.stdout) \(search.stderr)")
        #expect(hits.first?["path"] as? String == folder.path + "/caf\\xE9.png")
        let shown = try lens.run(["show", "1"])
        #expect(shown.stdout.contains("caf\\xE9.png"), "\(shown.stdout)")

        // Named on the command line as bytes: known, not "does not exist".
        let named = try lens.runProgram("/bin/sh", ["-c", "exec \"$0\" import --json --db \"$1\" \"$2\"$(printf '\\351').png",
                                                    LensBinary.url.path, lens.database, folder.path + "/caf"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect((try? named.json() as? [String: Any])?["known"] as? Int == 1, "\(named.stdout) \(named.stderr)")
        _ = cafe

        // The daemon: a new file with such a name is indexed too.
        let watched = lens.home.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        let daemon = try WatchTests.Daemon(lens, folder: watched)
        defer { _ = daemon.terminate() }
        _ = try WatchTests.waitForCounts(lens) { _ in true }
        Thread.sleep(forTimeInterval: 1)
        _ = try Self.write(TestSupport.distinctCopy(of: try TestSupport.sampleBytes("terminal"), tag: 5),
                           toRawName: [0x72, 0xE9, 0x73, 0x75, 0x6D, 0xE9, 0xFF] + Array(".png".utf8), in: watched)
        let counts = try WatchTests.waitForCounts(lens) { $0["done"] == 2 }
        #expect(counts["done"] == 2, "\(counts) \((try? String(contentsOf: daemon.log, encoding: .utf8)) ?? "")")
        let all = try #require(try lens.run(["search", "--json", "--limit", "5", "--since", "30d"]).json() as? [[String: Any]])
        #expect(all.contains { ($0["path"] as? String)?.hasSuffix("/r\\xE9sum\\xE9\\xFF.png") == true }, "\(all.map { $0["path"] ?? "" })")
    }
}
