import Foundation
import LensTestSupport
import Testing

/// `lens watch` as a user runs it: real inotify, Tesseract and SQLite, signals from outside.
@Suite(.serialized)
struct WatchTests {
    struct Daemon {
        let process = Process()
        let log: URL

        /// Watches `folder`, or, without one, the folders of the config file `config`.
        init(_ lens: LensBinary, folder: URL?, config: URL? = nil, workers: Int = 2, environment extra: [String: String] = [:]) throws {
            log = lens.home.appendingPathComponent("watch-\(UUID().uuidString.prefix(6)).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = LensBinary.url
            process.arguments = ["watch", "--db", lens.database, "--workers", String(workers),
                                 "--config", (config ?? lens.home.appendingPathComponent("absent.toml")).path]
                + (folder.map { ["--folder", $0.path] } ?? [])
            var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
            environment["HOME"] = lens.home.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
        }

        /// Sends SIGTERM and waits (up to 30 s) for the exit status.
        func terminate() -> Int32? {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            guard !process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                return nil
            }
            return process.terminationStatus
        }

        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    /// Polls `lens status` until `condition` holds on the counts (or 60 s pass).
    static func waitForCounts(_ lens: LensBinary, timeout: TimeInterval = 60, _ condition: ([String: Int]) -> Bool) throws -> [String: Int] {
        let deadline = Date().addingTimeInterval(timeout)
        var counts: [String: Int] = [:]
        while Date() < deadline {
            let status = try lens.run(["status", "--json"])
            counts = ((try? status.json() as? [String: Any])?["counts"] as? [String: Int]) ?? [:]
            if condition(counts) { return counts }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return counts
    }

    /// The screenshot's JSON, or nil when lens does not know it (exit 2).
    static func show(_ lens: LensBinary, _ target: String) throws -> [String: Any]? {
        let result = try lens.run(["show", "--json", target])
        return result.status == 0 ? try result.json() as? [String: Any] : nil
    }

    @Test func indexesWhatLandsFollowsMovesAndStopsCleanly() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("Screenshots")
        let stage = lens.home.appendingPathComponent("stage")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: stage.appendingPathComponent("trip/day1"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("before.png"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("notes.txt"))

        let daemon = try Daemon(lens, folder: folder)
        // Start-up reconciliation indexes what was there before.
        #expect(try Self.waitForCounts(lens) { $0["done"] == 1 }["done"] == 1, "\(daemon.output)")

        // An atomic rename into the folder, and a folder moved in with content.
        try FileManager.default.copyItem(at: TestSupport.samplePNG("receipt_light"), to: stage.appendingPathComponent("r.png"))
        try FileManager.default.moveItem(at: stage.appendingPathComponent("r.png"), to: folder.appendingPathComponent("receipt.png"))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: stage.appendingPathComponent("trip/day1/chat.png"))
        try FileManager.default.moveItem(at: stage.appendingPathComponent("trip"), to: folder.appendingPathComponent("trip"))
        #expect(try Self.waitForCounts(lens) { $0["done"] == 3 }["done"] == 3, "\(daemon.output)")
        #expect(try lens.run(["search", "555-0132"]).stdout.contains(folder.appendingPathComponent("receipt.png").path))
        #expect(try lens.run(["search", "quarterly"]).stdout.contains(folder.appendingPathComponent("trip/day1/chat.png").path))

        // A rename within the folder keeps the record; a delete marks the path gone.
        let before = try #require(try Self.show(lens, folder.appendingPathComponent("receipt.png").path))
        try FileManager.default.moveItem(at: folder.appendingPathComponent("receipt.png"), to: folder.appendingPathComponent("renamed.png"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("before.png"))
        var renamed: [String: Any]?
        for _ in 0..<100 {
            renamed = try Self.show(lens, folder.appendingPathComponent("renamed.png").path)
            if renamed != nil { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(renamed?["id"] as? Int == before["id"] as? Int)
        #expect(renamed?["recognized_at"] as? String == before["recognized_at"] as? String) // not recognized again
        Thread.sleep(forTimeInterval: 0.3)
        let gone = try #require(try Self.show(lens, folder.appendingPathComponent("before.png").path))
        #expect((gone["gone_paths"] as? [String]) == [folder.appendingPathComponent("before.png").path])

        // While it runs, status names the daemon, its folders and what it did lately.
        let running = try #require(try lens.run(["status", "--json"]).json() as? [String: Any])
        let daemonInfo = try #require(running["daemon"] as? [String: Any])
        #expect(daemonInfo["running"] as? Bool == true)
        #expect(daemonInfo["pid"] as? Int == Int(daemon.process.processIdentifier))
        #expect((running["folders"] as? [[String: Any]])?.first?["path"] as? String == folder.path)
        #expect((running["folders"] as? [[String: Any]])?.first?["screenshots"] as? Int == 2) // before.png is gone
        #expect(running["recognized_last_5_minutes"] as? Int == 3)
        #expect(try lens.run(["status"]).stdout.contains("daemon:    running, pid \(daemon.process.processIdentifier)"))

        #expect(daemon.terminate() == 0, "\(daemon.output)")
        #expect(try Self.waitForCounts(lens) { _ in true } == ["done": 3, "queued": 0, "running": 0, "failed": 0])
        let stopped = try #require(try lens.run(["status", "--json"]).json() as? [String: Any])
        #expect((stopped["daemon"] as? [String: Any])?["running"] as? Bool == false)
    }

    /// A file copied in chunks, closed after each, is read only once complete.
    @Test func aFileWrittenInChunksIsReadOnlyWhenComplete() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("Screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let daemon = try Daemon(lens, folder: folder)
        _ = try Self.waitForCounts(lens) { $0["done"] == 0 }
        Thread.sleep(forTimeInterval: 0.5) // watching
        let bytes = try TestSupport.sampleBytes("chat_dark")
        let target = folder.appendingPathComponent("slow.png").path
        let chunks = stride(from: 0, to: bytes.count, by: bytes.count / 4 + 1).map { Array(bytes[$0..<min(bytes.count, $0 + bytes.count / 4 + 1)]) }
        for chunk in chunks {
            let fd = open(target, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            _ = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd) // IN_CLOSE_WRITE after every chunk
            Thread.sleep(forTimeInterval: 0.15) // shorter than the 200 ms stability delay
        }
        let counts = try Self.waitForCounts(lens) { ($0["done"] ?? 0) + ($0["failed"] ?? 0) >= 1 }
        #expect(counts == ["done": 1, "queued": 0, "running": 0, "failed": 0], "\(daemon.output)")
        let shown = try #require(try Self.show(lens, target))
        #expect(shown["size"] as? Int == bytes.count)
        #expect(daemon.terminate() == 0)
    }

    /// SIGTERM while images are being recognized: exit 0, nothing left running, and the next start finishes the rest.
    @Test func sigtermDuringRecognitionLosesNothing() throws {
        let lens = try LensBinary()
        let folder = try CLITests.distinctShots(in: lens, count: 16)
        let first = try Daemon(lens, folder: folder)
        _ = try Self.waitForCounts(lens) { ($0["done"] ?? 0) >= 2 }
        #expect(first.terminate() == 0, "\(first.output)")
        let afterStop = try Self.waitForCounts(lens) { _ in true }
        #expect(afterStop["running"] == 0)
        #expect((afterStop["done"] ?? 0) < 16, "stopped too late to test anything: \(afterStop)")

        let second = try Daemon(lens, folder: folder)
        #expect(try Self.waitForCounts(lens) { $0["done"] == 16 }["done"] == 16, "\(second.output)")
        #expect(second.terminate() == 0)
        let doctor = try #require(try lens.run(["doctor", "--json"]).json() as? [String: Any])
        #expect(doctor["database_integrity"] as? [String] == ["ok"])
    }

    /// A `kill -9` of the daemon in the middle of a 200-file ingest loses nothing: after a restart
    /// every file is indexed exactly once (200 contents, 200 records, all done, each with its path)
    /// and SQLite's and FTS5's integrity checks pass.
    @Test func killNineMidIngestThenRestart() throws {
        let lens = try LensBinary()
        let count = 200
        let source = try CLITests.distinctShots(in: lens, count: count)
        let inbox = lens.home.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let first = try Daemon(lens, folder: inbox)
        Thread.sleep(forTimeInterval: 0.3)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: inbox.appendingPathComponent(name))
        }
        let before = try Self.waitForCounts(lens) { ($0["done"] ?? 0) >= 10 }
        kill(first.process.processIdentifier, SIGKILL)
        first.process.waitUntilExit()
        #expect(first.process.terminationReason == .uncaughtSignal)
        let killed = try Self.waitForCounts(lens) { _ in true }
        #expect((before["done"] ?? 0) >= 10 && (killed["done"] ?? 0) < count, "killed too late to test anything: \(killed)")

        let second = try Daemon(lens, folder: inbox)
        // (The rest, some 190 files, in a debug build beside the other suites on two cores: the
        // wait guards against a hang and ends when they are done.)
        let after = try Self.waitForCounts(lens, timeout: 300) { $0["done"] == count }
        #expect(after == ["done": count, "queued": 0, "running": 0, "failed": 0], "\(second.output)")
        let status = try #require(try lens.run(["status", "--json"]).json() as? [String: Any])
        #expect(status["total"] as? Int == count)
        let folders = try #require(status["folders"] as? [[String: Any]])
        #expect(folders.first?["screenshots"] as? Int == count, "\(folders)")
        #expect(second.terminate() == 0)
        let doctor = try #require(try lens.run(["doctor", "--json"]).json() as? [String: Any])
        #expect(doctor["database_integrity"] as? [String] == ["ok"])
    }

    /// An inotify queue overflow makes the daemon rescan, so nothing dropped by the kernel is
    /// missed. The daemon's queue is shrunk (needs root) and the daemon stopped while the files land,
    /// so the overflow is certain.
    @Test func aQueueOverflowTriggersARescanThatFindsEverything() throws {
        let lens = try LensBinary()
        let count = 40
        let source = try CLITests.distinctShots(in: lens, count: count)
        let inbox = lens.home.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let started = try TestSupport.withInotifyQueueLimit(16) {
            let daemon = try Daemon(lens, folder: inbox)
            try Self.waitUntil { daemon.output.contains("watching") } // its queue size is fixed by now
            return daemon
        }
        guard let daemon = started else {
            print("skipped: shrinking max_queued_events needs root")
            return
        }
        kill(daemon.process.processIdentifier, SIGSTOP)
        // kill() returns before the stop takes effect: wait until every thread is stopped, or a
        // thread still running could read the first events and the queue would not overflow.
        try Self.waitUntil { Self.isStopped(pid: daemon.process.processIdentifier) }
        #expect(Self.isStopped(pid: daemon.process.processIdentifier))
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.moveItem(at: source.appendingPathComponent(name), to: inbox.appendingPathComponent(name))
        }
        kill(daemon.process.processIdentifier, SIGCONT)
        let counts = try Self.waitForCounts(lens) { $0["done"] == count }
        #expect(counts["done"] == count, "\(daemon.output)")
        #expect(daemon.output.contains("inotify queue overflowed"), "\(daemon.output)")
        #expect(daemon.terminate() == 0)
    }

    /// SIGHUP re-reads the config: new folders are watched and reconciled, removed ones dropped,
    /// and an invalid file leaves the daemon running with its folders.
    @Test func sighupReloadsTheFolders() throws {
        let lens = try LensBinary()
        let a = lens.home.appendingPathComponent("A"), b = lens.home.appendingPathComponent("B")
        try FileManager.default.createDirectory(at: a, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: a.appendingPathComponent("a.png"))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: b.appendingPathComponent("b.png"))
        let config = lens.home.appendingPathComponent("config.toml")
        func configure(_ folders: [URL]) throws {
            try folders.map { "[[folders]]\npath = \"\($0.path)\"\n" }.joined().write(to: config, atomically: true, encoding: .utf8)
        }
        try configure([a])
        let daemon = try Daemon(lens, folder: nil, config: config)
        #expect(try Self.waitForCounts(lens) { $0["done"] == 1 }["done"] == 1, "\(daemon.output)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try Self.show(lens, b.appendingPathComponent("b.png").path) == nil) // B is not watched yet

        try configure([b])
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(try Self.waitForCounts(lens) { $0["done"] == 2 }["done"] == 2, "\(daemon.output)")
        // A is no longer watched: a new file there is left alone.
        try FileManager.default.copyItem(at: TestSupport.samplePNG("receipt_light"), to: a.appendingPathComponent("later.png"))
        Thread.sleep(forTimeInterval: 1)
        #expect(try Self.show(lens, a.appendingPathComponent("later.png").path) == nil)

        try "workers = \"many\"\n".write(to: config, atomically: true, encoding: .utf8)
        kill(daemon.process.processIdentifier, SIGHUP)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(daemon.process.isRunning)
        #expect(daemon.output.contains("configuration not reloaded"), "\(daemon.output)")
        #expect(daemon.terminate() == 0)
    }

    /// A folder with `poll_interval` is scanned on a timer and not watched with inotify (as a
    /// network share is: inotify would miss what other machines write there).
    @Test func aPolledFolderIsScannedNotWatched() throws {
        let lens = try LensBinary()
        let watched = lens.home.appendingPathComponent("watched"), polled = lens.home.appendingPathComponent("polled")
        for folder in [watched, polled] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let config = lens.home.appendingPathComponent("config.toml")
        try """
            [[folders]]
            path = "\(watched.path)"
            [[folders]]
            path = "\(polled.path)"
            poll_interval = 1
            """.write(to: config, atomically: true, encoding: .utf8)
        let daemon = try Daemon(lens, folder: nil, config: config)
        defer { _ = daemon.terminate() }
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: watched.appendingPathComponent("a.png"))
        #expect(try Self.waitForCounts(lens) { $0["done"] == 1 }["done"] == 1, "\(daemon.output)")

        let inodes = Self.inotifyWatchedInodes(pid: daemon.process.processIdentifier)
        #expect(inodes.contains(try Self.inode(watched)))
        #expect(!inodes.contains(try Self.inode(polled)))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: polled.appendingPathComponent("p.png"))
        #expect(try Self.waitForCounts(lens) { $0["done"] == 2 }["done"] == 2, "\(daemon.output)")
        #expect(try Self.show(lens, polled.appendingPathComponent("p.png").path) != nil)
        #expect(daemon.terminate() == 0)
    }

    /// `delete_after_import`: the original goes once its text is stored; the record, its text and
    /// the path (marked gone) stay. A folder without the setting keeps its files, and content
    /// already indexed that lands again in the deleting folder is removed without new OCR.
    @Test func deleteAfterImportRemovesOnlyIndexedOriginals() throws {
        let lens = try LensBinary()
        let inbox = lens.home.appendingPathComponent("inbox"), kept = lens.home.appendingPathComponent("kept")
        for folder in [inbox, kept] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // A folder outside the configured ones, reached through a link that "follow" follows: its
        // file is indexed, but never deleted (the link's path lies in the inbox, the file does not).
        let outside = lens.home.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let outsideFile = outside.appendingPathComponent("mine.png")
        try FileManager.default.copyItem(at: TestSupport.samplePNG("chat_dark"), to: outsideFile)
        try FileManager.default.createSymbolicLink(at: inbox.appendingPathComponent("linked"), withDestinationURL: outside)
        let config = lens.home.appendingPathComponent("config.toml")
        try """
            symlinks = "follow"
            [[folders]]
            path = "\(inbox.path)"
            delete_after_import = true
            [[folders]]
            path = "\(kept.path)"
            """.write(to: config, atomically: true, encoding: .utf8)
        let daemon = try Daemon(lens, folder: nil, config: config)
        #expect(try Self.waitForCounts(lens) { $0["done"] == 1 }["done"] == 1, "\(daemon.output)")
        #expect(try Self.show(lens, inbox.appendingPathComponent("linked/mine.png").path)?["state"] as? String == "done")
        let dropped = inbox.appendingPathComponent("receipt.png"), keptFile = kept.appendingPathComponent("terminal.png")
        try FileManager.default.copyItem(at: TestSupport.samplePNG("receipt_light"), to: dropped)
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: keptFile)
        #expect(try Self.waitForCounts(lens) { $0["done"] == 3 }["done"] == 3, "\(daemon.output)")
        try Self.waitUntil { !FileManager.default.fileExists(atPath: dropped.path) }
        #expect(FileManager.default.fileExists(atPath: outsideFile.path), "\(daemon.output)")
        #expect(!FileManager.default.fileExists(atPath: dropped.path), "\(daemon.output)")
        #expect(FileManager.default.fileExists(atPath: keptFile.path))
        let record = try #require(try Self.show(lens, dropped.path))
        #expect((record["text"] as? String)?.isEmpty == false)
        #expect(record["gone_paths"] as? [String] == [dropped.path], "\(record)")
        // Still found by its text (the hit has no live path any more).
        let hits = try #require(try lens.run(["search", "--json", "receipt"]).json() as? [[String: Any]])
        #expect(hits.compactMap { $0["id"] as? Int }.contains(try #require(record["id"] as? Int)), "\(hits)")

        // The same bytes again, under another name: known content, deleted without OCR.
        let again = inbox.appendingPathComponent("again.png")
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: again)
        try Self.waitUntil { !FileManager.default.fileExists(atPath: again.path) }
        #expect(!FileManager.default.fileExists(atPath: again.path), "\(daemon.output)")
        #expect(FileManager.default.fileExists(atPath: keptFile.path))
        #expect(try Self.waitForCounts(lens) { _ in true }["done"] == 3)
        #expect(daemon.terminate() == 0)
        #expect(FileManager.default.fileExists(atPath: outsideFile.path))
    }

    /// Waits up to 30 s for `condition`.
    static func waitUntil(_ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(30)
        while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    }

    /// Whether every thread of the process is stopped (state `T` in /proc/PID/task/TID/stat).
    static func isStopped(pid: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return !tasks.isEmpty && tasks.allSatisfy { tid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").first == "T"
        }
    }

    static func inode(_ url: URL) throws -> UInt64 {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return UInt64(info.st_ino)
    }

    /// Inodes watched by a process's inotify instances, from /proc/PID/fdinfo (`ino:` is hex).
    static func inotifyWatchedInodes(pid: Int32) -> Set<UInt64> {
        let fdFolder = "/proc/\(pid)/fd"
        var inodes = Set<UInt64>()
        for fd in (try? FileManager.default.contentsOfDirectory(atPath: fdFolder)) ?? [] {
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: fdFolder + "/" + fd)) == "anon_inode:inotify",
                  let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("inotify ") {
                if let field = line.split(separator: " ").first(where: { $0.hasPrefix("ino:") }),
                   let inode = UInt64(field.dropFirst(4), radix: 16) {
                    inodes.insert(inode)
                }
            }
        }
        return inodes
    }

    @Test func configurationErrorsStopBeforeAnythingStarts() throws {
        let lens = try LensBinary()
        let config = lens.home.appendingPathComponent("bad.toml")
        try "workers = 2\n[[folders]]\npath = \"/tmp\"\nrecursve = false\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try lens.run(["watch", "--config", config.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(config.path):4: folders[1].recursve: unknown key"), "\(result.stderr)")
        // A folder's language without Tesseract data stops the start, naming the key and the package.
        try "[[folders]]\npath = \"/tmp\"\nlanguages = [\"eng\", \"zzz\"]\n".write(to: config, atomically: true, encoding: .utf8)
        let language = try lens.run(["watch", "--config", config.path])
        #expect(language.status == 2)
        #expect(language.stderr.contains("folders[1].languages: no Tesseract data for zzz (install the Debian package tesseract-ocr-zzz)"),
                "\(language.stderr)")
        let none = try lens.run(["watch", "--config", lens.home.appendingPathComponent("absent.toml").path])
        #expect(none.status == 2)
        #expect(none.stderr.contains("no folder to watch"))
    }
}
