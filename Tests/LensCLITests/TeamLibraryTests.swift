import Foundation
import LensCore
import LensTestSupport
import Testing

/// A shared library in PostgreSQL, driven through the `lens` binary: a folder queued on one
/// "host", recognized by worker processes, one of them killed with SIGKILL mid-image.
@Suite(.serialized)
struct TeamLibraryTests {
    let cluster: PostgresCluster
    let address: PostgresAddress
    let lens: LensBinary
    var url: String { cluster.url(of: address) }

    init() throws {
        cluster = try PostgresCluster.shared.get()
        address = try cluster.makeDatabase()
        lens = try LensBinary()
    }

    func sql(_ query: String) throws -> String {
        try cluster.psql(address.database, query).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `lens worker` in the background; with `host`, in a UTS namespace of its own under
    /// that host name (`unshare --uts`), so its claims are another host's.
    func startWorker(_ extra: [String], host: String? = nil) throws -> Process {
        try start(["worker", "--store", url, "--workers", "1"] + extra, host: host)
    }

    /// What the processes started by ``start(_:host:)`` have logged so far.
    func workerLogs() -> String {
        let files = (try? FileManager.default.contentsOfDirectory(at: lens.home, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.lastPathComponent.hasPrefix("worker-") }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined()
    }

    /// Starts `lens arguments…` in the background (see ``startWorker(_:host:)``), its output in a log.
    func start(_ arguments: [String], host: String? = nil) throws -> Process {
        let process = Process()
        if let host {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["--uts", "/bin/sh", "-c", "hostname \(host) && exec \"$0\" \"$@\"", LensBinary.url.path] + arguments
        } else {
            process.executableURL = LensBinary.url
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = lens.home.path
        process.environment = environment
        let log = lens.home.appendingPathComponent("worker-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    func waitFor(_ what: String, seconds: Double, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return }
            usleep(20_000)
        }
        Issue.record("timed out waiting for \(what)")
    }

    @Test func queuedHereRecognizedByWorkersAndAKilledWorkerLosesNothing() throws {
        let queued = try lens.run(["import", "--store", url, "--queue-only", "--json", TestSupport.samplesFolder.path], useDefaultDatabase: true)
        #expect(queued.status == 0, "\(queued.stderr)")
        let images = Int(try sql("SELECT count(*) FROM screenshot")) ?? 0
        #expect(images >= 6)
        #expect(try sql("SELECT count(*) FROM screenshot WHERE state = 'queued'") == "\(images)")

        // Worker A, on "another host", holds short leases; it is killed while it holds a claim.
        // This host cannot tell it died: only the lease's end gives its image to B.
        let a = try startWorker(["--lease", "3", "--ocr-timeout", "2"], host: "lens-test-host-a")
        let owner = "lens-test-host-a:\(a.processIdentifier)"
        var killedItem = ""
        try waitFor("worker A to claim an image", seconds: 30) {
            killedItem = try sql("SELECT id FROM screenshot WHERE state = 'running' AND claimed_by = '\(owner)'")
            return !killedItem.isEmpty
        }
        kill(a.processIdentifier, SIGKILL)
        a.waitUntilExit()
        #expect(a.terminationReason == .uncaughtSignal)
        #expect(try sql("SELECT state FROM screenshot WHERE id = \(killedItem)") == "running")

        // Worker B finishes the queue, the killed worker's image included once its lease ends.
        let killedAt = Date()
        let b = try startWorker([])
        try waitFor("every image to be recognized", seconds: 120) {
            try sql("SELECT count(*) FROM screenshot WHERE state = 'done'") == "\(images)"
        }
        #expect(try sql("SELECT attempts FROM screenshot WHERE id = \(killedItem)") == "2")
        #expect(Date().timeIntervalSince(killedAt) > 1) // not before the lease ended (3 s after the claim)
        #expect(try sql("SELECT count(*) FROM screenshot_text") == "\(images)")
        #expect(try sql("SELECT count(*) FROM screenshot WHERE claimed_by IS NOT NULL") == "0")

        // SIGTERM: B stops cleanly.
        kill(b.processIdentifier, SIGTERM)
        b.waitUntilExit()
        #expect(b.terminationStatus == 0)

        // Every read command answers from the shared library.
        let search = try lens.run(["search", "--store", url, "--json", "555-0132"], useDefaultDatabase: true)
        #expect(search.status == 0, "\(search.stderr)")
        let hits = try #require(try search.json() as? [[String: Any]])
        #expect(hits.count >= 2)
        let status = try lens.run(["status", "--store", url, "--json"], useDefaultDatabase: true)
        #expect(status.status == 0, "\(status.stderr)")
        let show = try lens.run(["show", "--store", url, killedItem], useDefaultDatabase: true)
        #expect(show.status == 0 && show.stdout.contains("state:       done"), "\(show.stdout)\(show.stderr)")

        // The page's API answers from it too: search, a screenshot's record, its image.
        let port = 7600 + Int(getpid() % 300)
        let server = Process()
        server.executableURL = LensBinary.url
        server.arguments = ["serve", "--store", url, "--listen", "127.0.0.1:\(port)"]
        server.environment = ["HOME": lens.home.path]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { kill(server.processIdentifier, SIGTERM); server.waitUntilExit() }
        func get(_ path: String, discardingBody: Bool = false) throws -> LensBinary.Result {
            try lens.runProgram("/usr/bin/curl", ["-s", "--retry", "20", "--retry-connrefused", "--retry-delay", "1", "-w", "\n%{http_code}"]
                                + (discardingBody ? ["-o", "/dev/null"] : []) + ["http://127.0.0.1:\(port)\(path)"])
        }
        let api = try get("/api/search?q=555-0132&meaning=off")
        #expect(api.stdout.hasSuffix("\n200") && api.stdout.contains("receipt_light.png"), "\(api.stdout)")
        #expect(try get("/api/screenshots/\(killedItem)").stdout.hasSuffix("\n200"))
        #expect(try get("/images/\(killedItem)", discardingBody: true).stdout.hasSuffix("\n200"))
        #expect(try get("/thumbnails/\(killedItem)", discardingBody: true).stdout.hasSuffix("\n200"))
        // The page's filters: folders, entity types and tags of the shared library.
        let facets = try get("/api/facets")
        #expect(facets.stdout.hasSuffix("\n200"), "\(facets.stdout)")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(facets.stdout.split(separator: "\n").dropLast().joined(separator: "\n").utf8))
                                as? [String: Any])
        #expect((body["types"] as? [[String: Any]])?.contains { $0["key"] as? String == "phone" } == true, "\(body)")
        #expect((body["folders"] as? [[String: Any]])?.isEmpty == false, "\(body)")
        // The mind map, kept by the workers: the samples that share a number or a name are connected.
        let graph = try get("/api/graph")
        #expect(graph.stdout.hasSuffix("\n200"), "\(graph.stdout)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(graph.stdout.split(separator: "\n").dropLast().joined(separator: "\n").utf8))
                               as? [String: Any])
        #expect((map["edges"] as? [Any])?.isEmpty == false, "\(map)")
    }

    /// `lens watch` on the host with the folder only queues (`--workers 0`); a worker recognizes.
    /// Renames and deletions in the folder reach the shared library as on SQLite.
    @Test func aWatcherQueuesAndAWorkerElsewhereRecognizes() throws {
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let watcher = try start(["watch", "--store", url, "--folder", folder.path, "--workers", "0"])
        defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
        let first = folder.appendingPathComponent("a.png")
        try FileManager.default.copyItem(at: TestSupport.samplePNG("receipt_light"), to: first)
        try waitFor("the watcher to queue the new file", seconds: 30) {
            (try? sql("SELECT state FROM screenshot")) == "queued" // the watcher makes the schema first
        }
        usleep(1_500_000)
        #expect(try sql("SELECT state || ' ' || attempts FROM screenshot") == "queued 0") // nothing recognized here

        let worker = try startWorker([])
        defer { if worker.isRunning { kill(worker.processIdentifier, SIGKILL) } }
        try waitFor("the worker to recognize it", seconds: 60) { try sql("SELECT state FROM screenshot") == "done" }
        #expect(try sql("SELECT count(*) FROM screenshot_text WHERE body <> ''") == "1")

        // A rename keeps the recognized screenshot (no second OCR); a deletion marks the path gone.
        let second = folder.appendingPathComponent("b.png")
        try FileManager.default.moveItem(at: first, to: second)
        try waitFor("the rename to reach the library", seconds: 30) {
            try sql("SELECT path FROM path WHERE gone_at IS NULL") == second.path
        }
        #expect(try sql("SELECT count(*) || ' ' || min(attempts) FROM screenshot") == "1 1")
        try FileManager.default.removeItem(at: second)
        try waitFor("the deletion to reach the library", seconds: 30) {
            try sql("SELECT count(*) FROM path WHERE gone_at IS NULL") == "0"
        }
        for process in [watcher, worker] {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        // Only queueing is refused without a shared library.
        let refused = try lens.run(["watch", "--folder", folder.path, "--workers", "0"])
        #expect(refused.status != 0 && refused.stderr.contains("--workers 0 only queues"), "\(refused.stderr)")
    }

    @Test func aWorkerWakesWhenContentIsQueued() throws {
        let worker = try startWorker(["--log-level", "debug"])
        defer { kill(worker.processIdentifier, SIGTERM); worker.waitUntilExit() }
        // Idle and listening (it listens before its first look at the queue): a fixed second was
        // too short under a busy suite, the image queued before the worker listened.
        try waitFor("the worker to find the queue empty", seconds: 120) { workerLogs().contains("idle: the queue is empty") }
        let one = TestSupport.samplesFolder.appendingPathComponent("receipt_light.png").path
        let queued = try lens.run(["import", "--store", url, "--queue-only", one], useDefaultDatabase: true)
        #expect(queued.status == 0, "\(queued.stderr)")
        try waitFor("the queued image to be recognized", seconds: 300) {
            try sql("SELECT count(*) FROM screenshot WHERE state = 'done'") == "1"
        }
        // The NOTIFY woke it, not its own look at the queue every 30 s. (Asked of its log, not of
        // a clock: under a busy suite the recognition itself may take longer than that look.)
        let logs = workerLogs()
        #expect(logs.contains("woken: content was queued"), "\(logs)")
        // With the queue empty, the worker reads the text for meaning: the receipt is then found
        // by what it is about, from any host.
        // Under SCHED_IDLE, behind the rest of a busy suite: a long wait that ends when it is done.
        try waitFor("the worker to read the text for meaning", seconds: 600) {
            try sql("SELECT count(*) FROM screenshot_embedding") == "1"
        }
        let status = try lens.run(["status", "--store", url], useDefaultDatabase: true)
        #expect(status.stdout.contains("read for meaning: 1 of 1 texts"), "\(status.stdout)")
        let found = try lens.run(["search", "--store", url, "--meaning", "--json", "dessert bought at a coffee shop"], useDefaultDatabase: true)
        let hits = try #require(try found.json() as? [[String: Any]], "\(found.stderr)")
        #expect((hits.first?["path"] as? String)?.hasSuffix("receipt_light.png") == true && hits.first?["semantic"] as? Bool == true)
    }

    @Test func badStoreAddressesAreRefusedWithTheReason() throws {
        let wrong = try lens.run(["search", "--store", "mysql://u:secret@h/db", "x"], useDefaultDatabase: true)
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("not a store Lens knows"))
        #expect(!wrong.stderr.contains("secret"))
        let unreachable = try lens.run(["status", "--store", "postgresql://u:secret@/nothing?host=/nonexistent"], useDefaultDatabase: true)
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.contains("cannot connect to the PostgreSQL store"), "\(unreachable.stderr)")
        #expect(!unreachable.stderr.contains("secret"))
        let sqliteWorker = try lens.run(["worker"])
        #expect(sqliteWorker.status == 2 && sqliteWorker.stderr.contains("--store postgresql://"), "\(sqliteWorker.stderr)")
        let queueOnly = try lens.run(["import", "--queue-only", TestSupport.samplesFolder.path])
        #expect(queueOnly.status == 2 && queueOnly.stderr.contains("--queue-only needs a shared library"), "\(queueOnly.stderr)")
    }

    /// A worker on another network host: a second network namespace joined by a veth pair, which
    /// reaches the database by its TCP address across the link, and reads the images through a
    /// path map (the folder as this host queued it, at another path "there").
    @Test(.enabled(if: getuid() == 0, "network namespaces need root"))
    func aWorkerInAnotherNetworkNamespaceRecognizesOverTCP() throws {
        let serverAddress = "169.254.78.1", workerAddress = "169.254.78.2", port = 5439
        let remote = try RemoteHost("worker", lens: lens, localAddress: serverAddress, remoteAddress: workerAddress)
        defer { remote.remove() }
        let namespace = remote.namespace
        let server = try PostgresCluster(tcp: (serverAddress, port))
        defer { server.stop() }
        let database = try server.makeDatabase()
        // The folder as the queueing host sees it, and the same files "mounted" elsewhere for the worker.
        let queued = lens.home.appendingPathComponent("Pictures")
        let mounted = lens.home.appendingPathComponent("mnt-pictures")
        try FileManager.default.copyItem(at: TestSupport.samplesFolder, to: queued)
        let enqueue = try lens.run(["import", "--store", server.url(of: database), "--queue-only", queued.path], useDefaultDatabase: true)
        #expect(enqueue.status == 0, "\(enqueue.stderr)")
        // The files are no longer where they were queued: only the path map finds them.
        try FileManager.default.moveItem(at: queued, to: mounted)
        let images = try server.psql(database.database, "SELECT count(*) FROM screenshot").trimmingCharacters(in: .whitespacesAndNewlines)

        let worker = Process()
        worker.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        worker.arguments = ["netns", "exec", namespace, LensBinary.url.path, "worker", "--workers", "1",
                            "--store", "postgresql://lens@\(serverAddress):\(port)/\(database.database)",
                            "--path-map", "\(queued.path)=\(mounted.path)"]
        worker.environment = ["HOME": lens.home.path]
        let log = lens.home.appendingPathComponent("netns-worker.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        worker.standardOutput = try FileHandle(forWritingTo: log)
        worker.standardError = try FileHandle(forWritingTo: log)
        try worker.run()
        defer { kill(worker.processIdentifier, SIGTERM); worker.waitUntilExit() }
        // Under a busy suite one worker may take minutes: a long wait that ends when it is done, or
        // when the worker has stopped (its log then says why).
        var recognized = false
        try waitFor("the worker across the link to recognize every image", seconds: 600) {
            recognized = try server.psql(database.database, "SELECT count(*) FROM screenshot WHERE state = 'done'")
                .trimmingCharacters(in: .whitespacesAndNewlines) == images
            return recognized || !worker.isRunning
        }
        #expect(recognized && worker.isRunning, "the worker stopped or is stuck: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        // Its connections came from the other namespace's address, not the socket or loopback.
        let clients = try server.psql(database.database, "SELECT DISTINCT host(client_addr) FROM pg_stat_activity WHERE datname = current_database() AND client_addr IS NOT NULL")
        #expect(clients.contains(workerAddress), "\(clients)")
        #expect(try server.psql(database.database, "SELECT count(*) FROM screenshot WHERE state = 'failed'").hasPrefix("0"))
        let log_ = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(!log_.contains("Total paid"), "no OCR text in the worker's log")
    }

    /// A library moves from SQLite to PostgreSQL and back with lens export and lens restore:
    /// the exports of all three are the same records (ids, texts, word boxes, entities, tags,
    /// notes, links a person drew).
    @Test func aLibraryMovesBetweenTheStoresBothWays() throws {
        #expect(try lens.importSamples().status == 0)
        #expect(try lens.run(["tag", "3", "ticket"]).status == 0)
        #expect(try lens.run(["note", "2", "met at the café"]).status == 0)
        #expect(try lens.run(["link", "1", "2", "--note", "same day"]).status == 0)
        let first = lens.home.appendingPathComponent("from-sqlite.jsonl").path
        let second = lens.home.appendingPathComponent("from-postgresql.jsonl").path
        let third = lens.home.appendingPathComponent("back-in-sqlite.jsonl").path
        #expect(try lens.run(["export", "--output", first]).status == 0)
        let restored = try lens.run(["restore", "--store", url, first], useDefaultDatabase: true)
        #expect(restored.status == 0, "\(restored.stderr)")
        let found = try lens.run(["search", "--store", url, "--json", "café", "met"], useDefaultDatabase: true)
        #expect((try found.json() as? [[String: Any]])?.map { $0["id"] as? Int } == [2], "\(found.stdout)\(found.stderr)")
        #expect(try lens.run(["export", "--store", url, "--output", second], useDefaultDatabase: true).status == 0)
        let back = lens.home.appendingPathComponent("back.db").path
        #expect(try lens.runProgram(LensBinary.url.path, ["restore", "--db", back, second]).status == 0)
        #expect(try lens.runProgram(LensBinary.url.path, ["export", "--db", back, "--output", third]).status == 0)
        func records(_ path: String) throws -> [NSDictionary] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst().map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
            }
        }
        let original = try records(first)
        #expect(original.count >= 6)
        #expect(try records(second) == original)
        #expect(try records(third) == original)
        #expect(original.contains { ($0["links"] as? [Any])?.isEmpty == false })
        // Moving in again keeps what is there.
        let again = try lens.run(["restore", "--store", url, first], useDefaultDatabase: true)
        #expect(again.stdout.contains("0 screenshot(s) restored"), "\(again.stdout)")
    }
}
