import Foundation
import LensCore
import LensStore
import LensTestSupport
import Testing

/// Fault injection through the real binary: hostile and broken files each fail alone, with their
/// path and reason; the run goes on, and nothing stored is harmed.
@Suite(.serialized)
struct FaultTests {
    /// The corpus's bad set (when present) and generated cases in one folder.
    @Test func hostileFilesEachFailAloneWithPathAndReason() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("in")
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        var expected: [String: String] = [:] // name → part of the reason
        if let bad = TestSupport.corpusFolder?.deletingLastPathComponent().appendingPathComponent("bad"), fm.fileExists(atPath: bad.path) {
            for name in ["empty.png", "truncated.png", "not_really.jpg", "bomb_30000x30000.png"] {
                try fm.copyItem(at: bad.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            try fm.copyItem(at: bad.appendingPathComponent("watched"), to: folder.appendingPathComponent("watched"))
            expected["empty.png"] = "empty file"
            expected["truncated.png"] = "truncated PNG"
            expected["not_really.jpg"] = "not an image"
            expected["bomb_30000x30000.png"] = "over the limit of 64 Mpx; refused before decoding"
        }
        // A name that is not UTF-8 (Latin-1 é and 0xFF), made through the C API.
        let bytes: [UInt8] = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array("_".utf8) + [0xFF] + Array(".png".utf8) + [0]
        let fd = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        _ = try Data(contentsOf: TestSupport.samplePNG("terminal")).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // Links: a folder loop, a self loop, a link out of the tree, a link to a file inside it.
        let outside = lens.home.appendingPathComponent("outside")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.copyItem(at: TestSupport.samplePNG("small_text"), to: outside.appendingPathComponent("secret.png"))
        try fm.createDirectory(at: folder.appendingPathComponent("loop/a"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("loop/a/up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("self").path, withDestinationPath: "self")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("escape.png").path,
                                  withDestinationPath: outside.appendingPathComponent("secret.png").path)
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("outside-folder").path, withDestinationPath: outside.path)
        expected["self"] = "symbolic link loop"
        expected["escape.png"] = "outside the folders being read"
        expected["outside-folder"] = "outside the folders being read"
        // A name with a line break and an escape sequence; a file over a 1 MB cap; 60 folders deep.
        let forged = "forged\nfailed: etc-passwd \u{1B}[31m.png"
        try Data("not an image".utf8).write(to: folder.appendingPathComponent(forged))
        expected[forged] = "not an image"
        var big = Data(try Data(contentsOf: TestSupport.samplePNG("terminal")))
        big.append(Data(count: (1 << 20) + 1))
        try big.write(to: folder.appendingPathComponent("big.png"))
        expected["big.png"] = "over the 1048576-byte limit"
        var deep = folder
        for level in 0..<60 { deep.appendPathComponent("d\(level)") }
        try fm.createDirectory(at: deep, withIntermediateDirectories: true)
        try fm.copyItem(at: TestSupport.samplePNG("chat_dark"), to: deep.appendingPathComponent("deep.png"))

        let result = try lens.run(["import", "--json", "--no-progress", "--max-file-mb", "1", folder.path])
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try #require(try result.json() as? [String: Any])
        let failed = try #require(summary["failed"] as? [[String: String]])
        for (name, reason) in expected {
            let failure = failed.first { $0["path"] == folder.path + "/" + name }
            #expect(failure?["reason"]?.contains(reason) == true, "\(name.debugDescription): \(String(describing: failure))")
        }
        // The name that is not UTF-8 is read like any other (its bytes kept; shown escaped).
        #expect(!failed.contains { $0["path"]?.contains("caf") == true }, "\(failed)")
        #expect(failed.count == expected.count, "\(failed.map { $0["path"] ?? "" })")
        // Imported: the deep image, the Latin-1 name (and the corpus's good one); the link out of
        // the tree was not read.
        #expect(summary["added"] as? Int == (expected["empty.png"] != nil ? 3 : 2))
        let shown = try lens.run(["show", "--json", outside.appendingPathComponent("secret.png").path])
        #expect(shown.status != 0)

        // Human output and the log escape the forged name: no line starts with "failed: etc-passwd".
        let text = try lens.run(["import", "--no-progress", "--max-file-mb", "1", folder.path])
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("failed: etc-passwd") }, "\(text.stdout)")
        #expect(text.stdout.contains("forged\\u{A}failed: etc-passwd \\u{1B}[31m.png"))
        #expect(!text.stdout.contains("\u{1B}"))

        // Nothing stored is harmed, and --symlinks follow does read the link out of the tree.
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
        let followed = try #require(try lens.run(["import", "--json", "--no-progress", "--max-file-mb", "1", "--symlinks", "follow", folder.path]).json() as? [String: Any])
        #expect(followed["added"] as? Int == 1)
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }

    /// The database may live inside a folder being imported: its own files (the database, WAL,
    /// crash journal) are never input, and an empty file not named like an image is skipped.
    @Test func theDatabaseInsideAnImportedFolderIsNotInput() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("all")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("a.png"))
        try Data().write(to: folder.appendingPathComponent("notes.txt"))
        let database = folder.appendingPathComponent("lens.db").path
        for _ in 0..<2 {
            let result = try lens.runProgram(LensBinary.url.path, ["import", "--json", "--no-progress", "--db", database, folder.path])
            #expect(result.status == 0, "\(result.stdout)")
            let summary = try #require(try result.json() as? [String: Any])
            #expect((summary["failed"] as? [Any])?.isEmpty == true)
            #expect(summary["skipped"] as? Int == 1) // notes.txt, not the database's files
        }
    }

    /// A file Lens may not read (permission denied) fails alone. Run as nobody: root reads anything.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root to run lens as nobody"))
    func anUnreadableFileFailsAlone() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("perm")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("ok.png"))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: folder.appendingPathComponent("secret.png"))
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.appendingPathComponent("secret.png").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: lens.home.path)
        let result = try lens.runProgram("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", LensBinary.url.path,
                                                              "import", "--json", "--no-progress", "--db", folder.path + "/db/lens.db", folder.path],
                                         environment: ["HOME": folder.path])
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try #require(try result.json() as? [String: Any])
        #expect(summary["added"] as? Int == 1)
        #expect(summary["failed"] as? [[String: String]] == [["path": folder.path + "/secret.png", "reason": "cannot open: Permission denied"]])
    }

    /// The daemon meets the same hostile files as they arrive: it stays up, logs each with its
    /// path and reason (names escaped), and indexes the good file that comes after them.
    @Test(.enabled(if: TestSupport.corpusFolder != nil, "needs ../shared/corpus"))
    func theDaemonSurvivesHostileFilesAsTheyArrive() throws {
        let lens = try LensBinary()
        let watched = lens.home.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        let daemon = try WatchTests.Daemon(lens, folder: watched)
        Thread.sleep(forTimeInterval: 1.5)
        let bad = try #require(TestSupport.corpusFolder).deletingLastPathComponent().appendingPathComponent("bad")
        for name in ["empty.png", "truncated.png", "not_really.jpg", "bomb_30000x30000.png"] {
            try FileManager.default.copyItem(at: bad.appendingPathComponent(name), to: watched.appendingPathComponent(name))
        }
        try Data("x".utf8).write(to: watched.appendingPathComponent("evil\nname \u{1B}[2J.png"))
        try FileManager.default.createSymbolicLink(atPath: watched.appendingPathComponent("loop.png").path, withDestinationPath: "loop.png")
        let outside = lens.home.appendingPathComponent("private.png")
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: outside)
        try FileManager.default.createSymbolicLink(atPath: watched.appendingPathComponent("escape.png").path, withDestinationPath: outside.path)
        Thread.sleep(forTimeInterval: 1)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: watched.appendingPathComponent("good.png"))
        let counts = try WatchTests.waitForCounts(lens) { ($0["done"] ?? 0) >= 1 && ($0["queued"] ?? 0) + ($0["running"] ?? 0) == 0 }
        // A link to a file inside the folder is followed: the same content gains a path.
        try FileManager.default.createSymbolicLink(atPath: watched.appendingPathComponent("alias.png").path, withDestinationPath: "good.png")
        var tries = 0
        while tries < 50, try WatchTests.show(lens, watched.appendingPathComponent("alias.png").path) == nil {
            Thread.sleep(forTimeInterval: 0.1)
            tries += 1
        }
        #expect(try WatchTests.show(lens, watched.appendingPathComponent("alias.png").path)?["state"] as? String == "done")
        #expect(try WatchTests.show(lens, watched.appendingPathComponent("escape.png").path) == nil)
        #expect(daemon.process.isRunning, "\(daemon.output)")
        #expect(counts["done"] == 1, "\(counts)")
        #expect(try WatchTests.show(lens, watched.appendingPathComponent("good.png").path)?["state"] as? String == "done")
        #expect(daemon.terminate() == 0)
        let log = daemon.output
        for reason in ["empty.png: empty file", "not_really.jpg: not an image", "bomb_30000x30000.png: image is 30000x30000 (900 Mpx), over the limit",
                       "truncated.png: truncated PNG", "loop.png: symbolic link loop", "escape.png: symbolic link to \(outside.path), outside the folders", "evil\\u{A}name \\u{1B}[2J.png: not an image"] {
            #expect(log.contains(reason), "missing \(reason) in\n\(log)")
        }
        #expect(!log.contains("\u{1B}"))
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }

    /// Arguments that are not UTF-8 (bytes a shell can pass) reach search and its filters: each
    /// gives results or a clear usage error, never a crash or an SQL message.
    @Test(arguments: [#"\377\376"#, #"a\377b"#, #"\300\257etc"#, #"\"\377("#])
    func bytesThatAreNotUTF8InArguments(bytes: String) throws {
        let lens = try LensBinary()
        _ = try lens.importSamples()
        for form in [#"search --db "$1" "$(printf '%s')""#, #"search --db "$1" --folder "$(printf '%s')""#,
                     #"search --db "$1" --entity "phone:$(printf '%s')""#, #"show --db "$1" "$(printf '%s')""#] {
            let script = #"exec "$0" "# + form.replacingOccurrences(of: "%s", with: bytes)
            let result = try lens.runProgram("/bin/sh", ["-c", script, LensBinary.url.path, lens.database])
            #expect([0, 2].contains(result.status), "\(form): \(result.status) \(result.stderr)")
            #expect(!result.stderr.localizedCaseInsensitiveContains("sql"), "\(result.stderr)")
        }
    }

    /// A folder of 100,000 entries (text files beside two screenshots): one pass, the images
    /// indexed, the rest skipped as not images, nothing failed.
    @Test func aFolderOfAHundredThousandEntries() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("crowded")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<99_998 {
            let fd = open(folder.path + "/note-\(i).txt", O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            _ = write(fd, "x", 1)
            close(fd)
        }
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("a.png"))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: folder.appendingPathComponent("b.png"))
        let result = try lens.run(["import", "--json", "--no-progress", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try result.json() as? [String: Any])
        #expect(summary["added"] as? Int == 2)
        #expect(summary["skipped"] as? Int == 99_998)
        #expect((summary["failed"] as? [Any])?.isEmpty == true)
    }

    /// Kill-9 soak: the daemon is killed without warning again and again while files arrive (some
    /// before a start, some while it runs), and restarted each time. In the end every file is
    /// indexed exactly once, nothing is orphaned, and SQLite's and FTS5's checks pass.
    /// CI runs a short soak; `LENS_SOAK_FILES=1000 LENS_SOAK_KILLS=20` runs the long one.
    @Test func killNineSoakLosesNothingAndIndexesEachFileOnce() throws {
        let environment = ProcessInfo.processInfo.environment
        let count = environment["LENS_SOAK_FILES"].flatMap(Int.init) ?? 96
        let kills = environment["LENS_SOAK_KILLS"].flatMap(Int.init) ?? 6
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("soak")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written = 0
        func drop(_ n: Int) throws {
            for _ in 0..<n where written < count {
                let name = TestSupport.sampleNames[written % TestSupport.sampleNames.count]
                try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(name), tag: written))
                    .write(to: folder.appendingPathComponent("shot-\(written).png"))
                written += 1
            }
        }
        try drop(count / 2) // present before the first start: found by its scan
        var random = SplitMix(seed: 2026)
        var killedWithWork = 0
        for _ in 0..<kills {
            let daemon = try WatchTests.Daemon(lens, folder: folder)
            Thread.sleep(forTimeInterval: 0.3 + Double(random.next(upTo: 900)) / 1000)
            try drop(count / (2 * kills) + 1) // arrive while it runs: found through inotify
            Thread.sleep(forTimeInterval: Double(random.next(upTo: 700)) / 1000)
            let counts = ((try? lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int]) ?? [:]
            if (counts["queued"] ?? 0) + (counts["running"] ?? 0) > 0 { killedWithWork += 1 }
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitUntilExit()
            #expect(daemon.process.terminationReason == .uncaughtSignal, "\(daemon.output)")
        }
        try drop(count) // the rest, before the last start
        let last = try WatchTests.Daemon(lens, folder: folder)
        let deadline = Date().addingTimeInterval(Double(count) * 2 + 60)
        var counts: [String: Int] = [:]
        while Date() < deadline {
            counts = ((try? lens.run(["status", "--json"]).json() as? [String: Any])?["counts"] as? [String: Int]) ?? [:]
            if counts["done"] == count { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(last.terminate() == 0, "\(last.output)")
        #expect(killedWithWork >= kills / 2, "the kills should land while work is pending (\(killedWithWork) of \(kills))")
        #expect(counts == ["queued": 0, "running": 0, "done": count, "failed": 0], "\(counts)")
        let database = try LensDatabase(path: lens.database)
        #expect(try database.integrityCheck() == ["ok"])
        let orphans = try database.orphanCounts()
        #expect(orphans.count >= 10 && orphans.values.allSatisfy { $0 == 0 }, "\(orphans)")
        for i in 0..<count {
            let shown = try #require(try WatchTests.show(lens, folder.appendingPathComponent("shot-\(i).png").path))
            #expect(shown["state"] as? String == "done")
            #expect((shown["paths"] as? [String])?.count == 1)
        }
    }
}

/// Storage faults: a full disk, a read-only mount, a lock held by another process, and readers
/// during heavy ingest. The first two need a small filesystem of their own: a tmpfs, mounted when
/// the tests run as root (they are skipped, with that reason, otherwise).
@Suite(.serialized)
struct StorageFaultTests {
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("lens-mount-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard mount(["-t", "tmpfs", "-o", "size=1m", "none", probe.path]) else { return false }
        return mount(["-l", probe.path], program: "/bin/umount")
    }()

    @discardableResult
    static func mount(_ arguments: [String], program: String = "/bin/mount") -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Distinct copies of the samples, `count` of them.
    static func shots(_ lens: LensBinary, _ count: Int) throws -> URL {
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let name = TestSupport.sampleNames[i % TestSupport.sampleNames.count]
            try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(name), tag: i)).write(to: folder.appendingPathComponent("s\(i).png"))
        }
        return folder
    }

    /// The database fills its disk mid-import: a clear error naming it, nothing corrupted, and the
    /// same command finishes the work once there is room again.
    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func aFullDiskStopsCleanlyAndTheWorkResumesWithRoom() throws {
        let lens = try LensBinary()
        let disk = lens.home.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        #expect(Self.mount(["-t", "tmpfs", "-o", "size=1600k", "none", disk.path]))
        defer { Self.mount(["-l", disk.path], program: "/bin/umount") }
        let database = disk.appendingPathComponent("lens.db").path
        let folder = try Self.shots(lens, 60)
        let full = try lens.runProgram(LensBinary.url.path, ["import", "--no-progress", "--db", database, folder.path])
        #expect(full.status == 2)
        #expect(full.stderr.contains("the disk holding \(database) is full"), "\(full.stderr)")
        #expect(Self.mount(["-o", "remount,size=64m", disk.path]))
        let resumed = try lens.runProgram(LensBinary.url.path, ["import", "--json", "--no-progress", "--db", database, folder.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let store = try LensDatabase(path: database)
        #expect(try store.stateCounts()[.done] == 60)
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.orphanCounts().values.allSatisfy { $0 == 0 })
    }

    /// The daemon's disk fills while files arrive: it stays up, says so once per file, and
    /// finishes everything by itself once there is room, without a restart.
    @Test(.enabled(if: canMount, "needs root to mount a small tmpfs"))
    func theDaemonRidesOutAFullDisk() throws {
        let lens = try LensBinary()
        let disk = lens.home.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        #expect(Self.mount(["-t", "tmpfs", "-o", "size=1600k", "none", disk.path]))
        defer { Self.mount(["-l", disk.path], program: "/bin/umount") }
        let watched = lens.home.appendingPathComponent("watched")
        try FileManager.default.createDirectory(at: watched, withIntermediateDirectories: true)
        let daemon = Process()
        daemon.executableURL = LensBinary.url
        daemon.arguments = ["watch", "--db", disk.appendingPathComponent("lens.db").path, "--folder", watched.path,
                            "--config", lens.home.appendingPathComponent("absent.toml").path]
        let log = lens.home.appendingPathComponent("watch.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try FileHandle(forWritingTo: log)
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        Thread.sleep(forTimeInterval: 1.5)
        let shots = try Self.shots(lens, 60)
        for name in try FileManager.default.contentsOfDirectory(atPath: shots.path) {
            try FileManager.default.moveItem(at: shots.appendingPathComponent(name), to: watched.appendingPathComponent(name))
        }
        var output = ""
        for _ in 0..<100 where !output.contains("is full") {
            Thread.sleep(forTimeInterval: 0.2)
            output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        }
        #expect(output.contains("the disk holding") && output.contains("is full"), "\(output)")
        #expect(daemon.isRunning)
        #expect(Self.mount(["-o", "remount,size=64m", disk.path]))
        var done = 0
        for _ in 0..<600 where done < 60 {
            Thread.sleep(forTimeInterval: 0.2)
            let status = try lens.runProgram(LensBinary.url.path, ["status", "--json", "--db", disk.appendingPathComponent("lens.db").path])
            done = ((try? status.json() as? [String: Any])?["counts"] as? [String: Int])?["done"] ?? 0
        }
        #expect(done == 60)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        let store = try LensDatabase(path: disk.appendingPathComponent("lens.db").path)
        #expect(try store.integrityCheck() == ["ok"])
        #expect(try store.orphanCounts().values.allSatisfy { $0 == 0 })
    }

    /// On a read-only mount nothing can be written: a clear error, and the file is unchanged.
    @Test(.enabled(if: canMount, "needs root to mount a tmpfs read-only"))
    func aReadOnlyDatabaseGivesAClearErrorAndStaysIntact() throws {
        let lens = try LensBinary()
        let disk = lens.home.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        #expect(Self.mount(["-t", "tmpfs", "-o", "size=64m", "none", disk.path]))
        defer { Self.mount(["-l", disk.path], program: "/bin/umount") }
        let database = disk.appendingPathComponent("lens.db").path
        #expect(try lens.runProgram(LensBinary.url.path, ["import", "--no-progress", "--db", database, TestSupport.samplesFolder.path]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        #expect(Self.mount(["-o", "remount,ro", disk.path]))
        for arguments in [["import", "--no-progress", TestSupport.samplesFolder.path], ["search", "quarterly"]] {
            let result = try lens.runProgram(LensBinary.url.path, arguments + ["--db", database])
            #expect(result.status == 2)
            #expect(result.stderr.contains(database) && result.stderr.contains("written"), "\(result.stderr)")
        }
        #expect(Self.mount(["-o", "remount,rw", disk.path]))
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        #expect(try LensDatabase(path: database).integrityCheck() == ["ok"])
    }

    /// Another process holds a write transaction past the 10 s busy timeout: the import stops
    /// with a message naming the database and the likely holder, and nothing is half-written.
    @Test func aDatabaseLockedByAnotherProcessGivesAClearError() throws {
        let lens = try LensBinary()
        _ = try LensDatabase(path: lens.database) // creates the database
        let folder = try Self.shots(lens, 4)
        let holder = try LensDatabase(path: lens.database)
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? holder.unsafeBulkWrite { _ in
                locked.signal()
                _ = release.wait(timeout: .now() + 30)
            }
        }
        locked.wait()
        let result = try lens.run(["import", "--no-progress", folder.path])
        release.signal()
        #expect(result.status == 2)
        #expect(result.stderr.contains("stayed locked by another process"), "\(result.stderr)")
        let again = try lens.run(["import", "--json", "--no-progress", folder.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }

    /// Readers never wait for the writer: 1,000 searches while an import writes, none refused.
    @Test func searchesKeepWorkingDuringHeavyIngest() throws {
        let lens = try LensBinary()
        _ = try LensDatabase(path: lens.database) // creates the database
        let folder = try Self.shots(lens, 80)
        let importer = Process()
        importer.executableURL = LensBinary.url
        importer.arguments = ["import", "--no-progress", "--workers", "2", "--db", lens.database, folder.path]
        importer.standardOutput = FileHandle.nullDevice
        importer.standardError = FileHandle.nullDevice
        try importer.run()
        let reader = try LensDatabase(path: lens.database)
        var failures: [String] = [], overlapping = 0
        let query = try SearchQuery(parsing: "report")
        for _ in 0..<1_000 {
            do {
                _ = try reader.search(SearchRequest(query: query))
                if importer.isRunning { overlapping += 1 }
            } catch {
                failures.append("\(error)")
            }
            usleep(2_000)
        }
        importer.waitUntilExit()
        #expect(failures.isEmpty, "\(failures.count) failed, e.g. \(failures.first ?? "")")
        #expect(overlapping >= 500, "only \(overlapping) searches overlapped the import")
        #expect(importer.terminationStatus == 0)
    }
}
