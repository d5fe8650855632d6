import Foundation
import LensStore
import LensTestSupport
import Testing

/// Batches, delete, undo, export and restore, through the real binary.
@Suite(.serialized)
struct HistoryTests {
    /// A folder of `count` distinct screenshots made from the samples, and a config that watches
    /// it with `tags` and moves deleted files to a trash folder.
    static func library(_ lens: LensBinary, count: Int, tags: [String] = []) throws -> (folder: URL, config: URL, trash: URL) {
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let name = TestSupport.sampleNames[i % TestSupport.sampleNames.count]
            try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(name), tag: i)).write(to: folder.appendingPathComponent("s\(i).png"))
        }
        let trash = lens.home.appendingPathComponent("trash")
        let config = lens.home.appendingPathComponent("config.toml")
        try """
            trash = "\(trash.path)"
            [[folders]]
            path = "\(folder.path)"
            tags = [\(tags.map { "\"\($0)\"" }.joined(separator: ", "))]
            """.write(to: config, atomically: true, encoding: .utf8)
        return (folder, config, trash)
    }

    static func counts(_ lens: LensBinary) throws -> [String: Int] {
        (try lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int] ?? [:]
    }

    static func history(_ lens: LensBinary) throws -> [[String: Any]] {
        try #require(try lens.run(["history", "--json"]).json() as? [[String: Any]])
    }

    @Test(arguments: StoreKind.allCases)
    func undoingAnImportTakesItsScreenshotsOutAndImportBringsThemBack(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        let batches = try Self.history(lens)
        #expect(batches.count == 1)
        #expect(batches.first?["kind"] as? String == "import" && batches.first?["items"] as? Int == TestSupport.samplePNGCount)
        // A second import of the same files adds nothing, and leaves no batch to undo.
        #expect(try lens.importSamples().status == 0)
        #expect(try Self.history(lens).count == 1)

        let undone = try lens.run(["undo", "--json", "--yes"])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect((try undone.json() as? [String: Any])?["removed"] as? Int == TestSupport.samplePNGCount)
        #expect(try Self.counts(lens).values.reduce(0, +) == 0)
        #expect(try Self.history(lens).first?["undone_at"] != nil)

        let again = try lens.run(["undo"])
        #expect(again.status == 2 && again.stderr.contains("nothing to undo"), "\(again.stderr)")
        let first = try #require(batches.first?["id"] as? Int)
        let twice = try lens.run(["undo", String(first)])
        #expect(twice.status == 2 && twice.stderr.contains("batch \(first) was already undone"), "\(twice.stderr)")
        let missing = try lens.run(["undo", "99"])
        #expect(missing.status == 2 && missing.stderr.contains("there is no batch 99"))

        // Asked for by name, the files come back (recognized again).
        let reimport = try #require(try lens.importSamples().json() as? [String: Any])
        #expect(reimport["added"] as? Int == TestSupport.samplePNGCount)
        if kind == .sqlite { #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"]) }
    }

    /// Delete with --file into the trash, then undo: the same records (ids, tags, note, links,
    /// text without OCR) and the files where they were.
    @Test(arguments: StoreKind.allCases)
    func deleteWithFilesAndUndoBringBackRecordsAndFiles(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        let (folder, config, trash) = try Self.library(lens, count: 4)
        #expect(try lens.run(["import", "--no-progress", "--config", config.path, folder.path]).status == 0)
        let first = folder.appendingPathComponent("s0.png").path, second = folder.appendingPathComponent("s1.png").path
        let before = try #require(try WatchTests.show(lens, first))
        let id = String(try #require(before["id"] as? Int))
        let other = String(try #require(try WatchTests.show(lens, second)?["id"] as? Int))
        #expect(try lens.run(["tag", id, "keep-me"]).status == 0)
        #expect(try lens.run(["note", id, "a note to bring back"]).status == 0)
        #expect(try lens.run(["link", id, other, "--note", "pair"]).status == 0)
        let exportBefore = try lens.run(["export"]).stdout

        // Without a terminal, --file needs --yes: nothing happens.
        let refused = try lens.run(["delete", id, "--file", "--config", config.path])
        #expect(refused.status == 2 && refused.stderr.contains("--yes"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: first))

        let deleted = try lens.run(["delete", id, other, "--file", "--yes", "--json", "--config", config.path])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let report = try #require(try deleted.json() as? [String: Any])
        #expect((report["files"] as? [[String: Any]])?.map { $0["action"] as? String } == ["trashed", "trashed"])
        #expect(!FileManager.default.fileExists(atPath: first) && !FileManager.default.fileExists(atPath: second))
        #expect(try FileManager.default.contentsOfDirectory(atPath: trash.path).count == 1) // one folder per batch
        #expect(try WatchTests.show(lens, id) == nil)
        #expect((try lens.run(["search", "--json", "--exact", "bring"]).json() as? [Any])?.isEmpty == true)
        #expect(try Self.counts(lens).values.reduce(0, +) == 2)
        let database = kind == .sqlite ? try LensDatabase(path: lens.database) : nil
        #expect(try database?.orphanCounts().values.allSatisfy { $0 == 0 } != false)

        let undone = try lens.run(["undo", "--json", "--config", config.path])
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(FileManager.default.fileExists(atPath: first) && FileManager.default.fileExists(atPath: second))
        let after = try #require(try WatchTests.show(lens, id))
        #expect(after["sha256"] as? String == before["sha256"] as? String && after["text"] as? String == before["text"] as? String)
        #expect(after["paths"] as? [String] == before["paths"] as? [String] && after["confidence"] as? Double == before["confidence"] as? Double)
        #expect(after["tags"] as? [String] == ["keep-me"] && after["note"] as? String == "a note to bring back")
        #expect(try lens.run(["export"]).stdout.split(separator: "\n").dropFirst() == exportBefore.split(separator: "\n").dropFirst(),
                "the library after undo is the library before the delete")
        #expect(try database?.integrityCheck() ?? ["ok"] == ["ok"])
        #expect(try database?.orphanCounts().values.allSatisfy { $0 == 0 } != false)
        #expect((try lens.run(["search", "--json", "--exact", "bring"]).json() as? [[String: Any]])?.first?["id"] as? Int == Int(id))

        // Undone again by redo: out of the index once more, the files left where undo put them.
        let redone = try lens.run(["redo", "--json"])
        #expect(redone.status == 0, "\(redone.stderr)")
        #expect(try WatchTests.show(lens, id) == nil && FileManager.default.fileExists(atPath: first))
        #expect(try lens.run(["undo", "--json", "--config", config.path]).status == 0)
        #expect(try WatchTests.show(lens, id)?["note"] as? String == "a note to bring back")

        // A file changed since it was indexed is someone's work: it is kept, and the exit status says so.
        try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes("terminal"), tag: 999)).write(to: URL(fileURLWithPath: second))
        let kept = try lens.run(["delete", other, "--file", "--yes", "--config", config.path])
        #expect(kept.status == 1 && kept.stdout.contains("kept \(second): it changed since it was indexed"), "\(kept.stdout)")
        #expect(FileManager.default.fileExists(atPath: second))
    }

    /// With the daemon running: what is deleted stays out through restarts and rescans, undo
    /// brings it back, and folder tags apply to what the daemon recognizes.
    @Test func theDaemonRespectsDeletesAndUndoAcrossRestarts() throws {
        let lens = try LensBinary()
        let (folder, config, _) = try Self.library(lens, count: 3, tags: ["inbox"])
        var daemon = try WatchTests.Daemon(lens, folder: nil, config: config)
        var counts = try WatchTests.waitForCounts(lens) { $0["done"] == 3 }
        #expect(counts["done"] == 3, "\(daemon.output)")
        let first = folder.appendingPathComponent("s0.png").path
        #expect(try WatchTests.show(lens, first)?["tags"] as? [String] == ["inbox"])
        let id = String(try #require(try WatchTests.show(lens, first)?["id"] as? Int))

        #expect(try lens.run(["delete", id]).status == 0) // the index only: the file stays
        #expect(daemon.terminate() == 0)
        daemon = try WatchTests.Daemon(lens, folder: nil, config: config) // its start-up scan sees s0.png again
        try FileManager.default.copyItem(atPath: first, toPath: folder.appendingPathComponent("s0-copy.png").path) // and a copy lands
        Thread.sleep(forTimeInterval: 2)
        counts = try Self.counts(lens)
        #expect(counts["done"] == 2 && counts["queued"] == 0, "\(counts)")
        #expect(try WatchTests.show(lens, first) == nil)

        #expect(try lens.run(["undo"]).status == 0) // while the daemon runs
        #expect(daemon.terminate() == 0)
        daemon = try WatchTests.Daemon(lens, folder: nil, config: config)
        counts = try WatchTests.waitForCounts(lens) { $0["done"] == 3 }
        let copy = folder.appendingPathComponent("s0-copy.png").path
        for _ in 0..<100 where try WatchTests.show(lens, copy) == nil { Thread.sleep(forTimeInterval: 0.1) } // its start-up scan
        #expect(daemon.terminate() == 0)
        #expect(counts == ["done": 3, "queued": 0, "running": 0, "failed": 0], "\(counts)")
        let back = try #require(try WatchTests.show(lens, first))
        #expect(String(back["id"] as? Int ?? 0) == id)
        #expect(Set(back["paths"] as? [String] ?? []) == [first, copy])
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }

    /// export → restore into an empty database → export gives the same lines (the header's
    /// time aside); a merge keeps local edits; CSV is one row per screenshot.
    @Test func exportRestoreExportIsIdenticalAndMergeKeepsLocalEdits() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        #expect(try lens.run(["tag", "1", "alpha", "beta"]).status == 0)
        #expect(try lens.run(["note", "2", "line one\nline \"two\" ✓"]).status == 0)
        #expect(try lens.run(["link", "1", "3", "--note", "by hand"]).status == 0)
        let exported = lens.home.appendingPathComponent("backup.jsonl")
        #expect(try lens.run(["export", "--output", exported.path]).status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: exported.path)[.posixPermissions] as? Int == 0o600)
        let original = try String(contentsOf: exported, encoding: .utf8)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(original.split(separator: "\n")[0].utf8)) as? [String: Any])
        #expect(header["format"] as? String == "lens-export" && header["screenshots"] as? Int == TestSupport.samplePNGCount)

        let empty = lens.home.appendingPathComponent("restored.db").path
        let restored = try lens.runProgram(LensBinary.url.path, ["restore", "--replace", "--json", exported.path, "--db", empty])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect((try restored.json() as? [String: Any])?["added"] as? Int == TestSupport.samplePNGCount)
        let again = try lens.runProgram(LensBinary.url.path, ["export", "--db", empty]).stdout
        #expect(again.split(separator: "\n").dropFirst() == original.split(separator: "\n").dropFirst())
        let searched = try lens.runProgram(LensBinary.url.path, ["search", "--json", "--tag", "alpha", "--db", empty])
        #expect((try searched.json() as? [[String: Any]])?.map { $0["id"] as? Int } == [1])
        let graph = try lens.runProgram(LensBinary.url.path, ["graph", "--format", "json", "--db", empty])
        #expect(graph.stdout.contains("by hand"))
        #expect(try LensDatabase(path: empty).integrityCheck() == ["ok"])

        // Merge: a local edit wins, a screenshot the database lacks comes back.
        #expect(try lens.runProgram(LensBinary.url.path, ["note", "2", "newer local note", "--db", empty]).status == 0)
        #expect(try lens.runProgram(LensBinary.url.path, ["delete", "4", "--db", empty]).status == 0)
        let merged = try lens.runProgram(LensBinary.url.path, ["restore", "--json", exported.path, "--db", empty])
        let report = try #require(try merged.json() as? [String: Any])
        #expect(report["added"] as? Int == 1 && report["kept"] as? Int == TestSupport.samplePNGCount - 1)
        let note = try lens.runProgram(LensBinary.url.path, ["show", "--json", "2", "--db", empty])
        #expect((try note.json() as? [String: Any])?["note"] as? String == "newer local note")

        let csv = try lens.run(["export", "--format", "csv"]).stdout
        #expect(csv.hasPrefix("id,sha256,path,other_paths,state,captured_at,"))
        #expect(csv.contains("\"line one\nline \"\"two\"\" ✓\""), "notes are quoted with their line breaks and quotes")
        #expect(csv.contains(",alpha beta,"))
    }

    /// Damaged and hostile backups: each refused before anything is written, with the file,
    /// the line and the reason.
    @Test func hostileBackupsFailCleanlyAndChangeNothing() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        let good = try lens.run(["export"]).stdout
        var lines = good.split(separator: "\n").map(String.init)
        let record = lines[1]
        func variant(_ name: String, _ text: String) throws -> URL {
            let url = lens.home.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
        let huge = String(repeating: "x", count: 5 << 20)
        let cases: [(URL, String)] = [
            (try variant("types.jsonl", good.replacingOccurrences(of: "\"byte_count\":", with: "\"byte_count\":\"many\",\"x\":")), "line 2: not a screenshot record: byte_count"),
            (try variant("huge.jsonl", good.replacingOccurrences(of: "\"text\":\"", with: "\"text\":\"\(huge)")), "text is over 4 MiB"),
            (try variant("version.jsonl", good.replacingOccurrences(of: "\"version\":2", with: "\"version\":7")), "export version 7 is newer"),
            (try variant("notjson.jsonl", "hello\n"), "line 1: not a Lens export"),
            (try variant("empty.jsonl", ""), "is empty: not a Lens export"),
            (try variant("short.jsonl", lines.prefix(3).joined(separator: "\n") + "\n"), "holds 2 (cut short?)"),
            (try variant("twice.jsonl", ([lines[0], record, record] + lines.dropFirst(2)).joined(separator: "\n")), "is listed twice"),
            (try variant("sha.jsonl", good.replacingOccurrences(of: "\"sha256\":\"", with: "\"sha256\":\"zz")), "sha256 is not 64"),
            (try variant("path.jsonl", good.replacingOccurrences(of: "\"path\":\"/", with: "\"path\":\"../")), "is not an absolute path"),
            (try variant("tag.jsonl", good.replacingOccurrences(of: "\"tags\":[]", with: "\"tags\":[\"a b\"]")), "is not a tag"),
            (try variant("entity.jsonl", good.replacingOccurrences(of: "\"type\":\"url\"", with: "\"type\":\"ssn\"")), "entity type 'ssn' is unknown"),
            (try variant("long.jsonl", lines[0] + "\n" + String(repeating: "y", count: 33 << 20) + "\n"), "line 2: longer than 32 MiB"),
        ]
        lines.removeAll()
        for (file, reason) in cases {
            for mode in ["--merge", "--replace"] {
                let result = try lens.run(["restore", mode, file.path])
                #expect(result.status == 2, "\(file.lastPathComponent): \(result.stderr)")
                #expect(result.stderr.contains(file.path) && result.stderr.contains(reason) && result.stderr.contains("nothing was changed"),
                        "\(file.lastPathComponent): \(result.stderr)")
            }
        }
        #expect(try lens.run(["export"]).stdout.split(separator: "\n").dropFirst() == good.split(separator: "\n").dropFirst())
        #expect(try Self.history(lens).count == 1, "no batch was recorded")
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }

    /// Every command's help reads as documentation, and every read command's --json parses.
    @Test func helpTextsAndJSONShapes() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        for command in ["init", "import", "watch", "retry", "search", "show", "tag", "untag", "tags", "note", "extract", "entities",
                        "reindex", "graph", "link", "unlink", "delete", "undo", "redo", "history", "export", "restore", "status", "stats",
                        "gc", "doctor"] {
            let help = try lens.run(["help", command], useDefaultDatabase: true)
            #expect(help.status == 0, "\(command)")
            #expect(help.stdout.contains("OVERVIEW: ") && help.stdout.contains("Example"), "lens \(command) --help has no overview or example")
        }
        let shapes: [([String], [String])] = [
            (["status", "--json"], ["counts", "database"]),
            (["stats", "--json"], ["screenshots", "by_folder"]),
            (["show", "1", "--json"], ["id", "sha256", "text", "paths", "tags", "entities"]),
            (["gc", "--dry-run", "--json"], ["removed", "dry_run"]),
            (["delete", "1", "--json"], ["batch", "removed", "files"]),
            (["undo", "--json"], ["batch", "restored", "removed"]),
        ]
        for (arguments, keys) in shapes {
            let result = try lens.run(arguments)
            let object = try #require(try result.json() as? [String: Any], "\(arguments)")
            for key in keys { #expect(object[key] != nil, "\(arguments) lacks \(key)") }
        }
        for arguments in [["history", "--json"], ["search", "--json", "--limit", "2", "report"], ["tags", "--json"], ["entities", "--json"]] {
            #expect(try lens.run(arguments).json() is [Any], "\(arguments)")
        }
        let batch = try #require(try Self.history(lens).first)
        for key in ["id", "kind", "started_at", "summary", "items"] { #expect(batch[key] != nil, "history lacks \(key)") }
    }
}
