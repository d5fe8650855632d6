import Foundation
import LensStore
import LensTestSupport
import Testing

/// Runs the built `lens` binary as a user would and inspects exit codes and output.
struct LensBinary {
    /// `$LENS_BINARY`, else `lens` beside the test bundle in the build folder.
    static let url: URL = {
        if let explicit = ProcessInfo.processInfo.environment["LENS_BINARY"] { return URL(fileURLWithPath: explicit) }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("lens")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(stdout.utf8)) }
    }

    let home: URL
    var database: String { home.appendingPathComponent("lens.db").path }
    /// The library's `--store` URL when it lives in PostgreSQL (a database of the tests' cluster).
    let store: String?
    /// What `lens status` names the library by.
    var location: String { store.map { _ in storeDescription! } ?? database }
    private let storeDescription: String?

    init(_ kind: StoreKind = .sqlite) throws {
        home = try TestSupport.makeTemporaryFolder("lens-cli")
        if kind == .postgresql {
            let cluster = try PostgresCluster.shared.get()
            let address = try cluster.makeDatabase()
            store = cluster.url(of: address)
            storeDescription = address.description
        } else {
            store = nil
            storeDescription = nil
        }
    }

    /// Runs `lens args…` on this fixture's library (`--db` in its folder, or `--store`) unless `useDefaultDatabase`.
    func run(_ args: [String], environment extra: [String: String?] = [:], useDefaultDatabase: Bool = false) throws -> Result {
        let library = useDefaultDatabase ? [] : store.map { ["--store", $0] } ?? ["--db", database]
        return try runProgram(Self.url.path, args + library, environment: extra)
    }

    /// Runs any program with this fixture's HOME and no Lens variables from the outer environment.
    func runProgram(_ executable: String, _ args: [String], environment extra: [String: String?] = [:],
                    stdin: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment.removeValue(forKey: "XDG_DATA_HOME")
        environment.removeValue(forKey: "LENS_DB")
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        // Files, not pipes: a chatty child can never block on a full pipe.
        let out = home.appendingPathComponent("stdout-\(UUID().uuidString)"), err = home.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8))
    }

    func importSamples() throws -> Result {
        try run(["import", "--json", TestSupport.samplesFolder.path])
    }
}

@Suite(.serialized)
struct CLITests {
    @Test(arguments: StoreKind.allCases)
    func importPrintsASummaryAsJSON(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        let result = try lens.importSamples()
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try #require(try result.json() as? [String: Any])
        #expect(summary["added"] as? Int == TestSupport.samplePNGCount)
        #expect(summary["known"] as? Int == 0)
        #expect((summary["failed"] as? [Any])?.isEmpty == true)
        #expect(summary["seconds"] is Double)
        let again = try #require(try lens.importSamples().json() as? [String: Any])
        #expect(again["added"] as? Int == 0)
        #expect(again["known"] as? Int == TestSupport.samplePNGCount)
        #expect(again["recognized"] as? Int == 0)
    }

    /// Completions for bash, zsh and fish come from the command definitions (scripts/install.sh
    /// installs them): every command and option is in them.
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsCoverEveryCommand(shell: String) throws {
        let lens = try LensBinary()
        let script = try lens.runProgram(LensBinary.url.path, ["--generate-completion-script", shell])
        #expect(script.status == 0)
        for word in ["import", "search", "stats", "graph", "extract", "isolated", "symlinks", "max-megapixels"] { // fish omits the --
            #expect(script.stdout.contains(word), "\(shell) completion lacks \(word)")
        }
    }

    /// Tags and notes: set by id or path, shown, searchable, and a filter that needs no query.
    @Test(arguments: StoreKind.allCases)
    func tagsAndNotesRoundTrip(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        let receipt = TestSupport.samplePNG("receipt_light").path
        #expect(try lens.run(["tag", receipt, "receipts", "cafe"]).stdout.hasSuffix(": receipts cafe\n"))
        let chat = try #require(try lens.run(["show", "--json", TestSupport.samplePNG("chat_dark").path]).json() as? [String: Any])
        let chatID = String(try #require(chat["id"] as? Int))
        #expect(try lens.run(["tag", chatID, "cafe"]).status == 0)
        #expect(try lens.run(["note", chatID, "ask Priya about the report"]).status == 0)
        #expect(try lens.run(["note", chatID, "--append", "due Friday"]).status == 0)

        let shown = try #require(try lens.run(["show", "--json", chatID]).json() as? [String: Any])
        #expect(shown["tags"] as? [String] == ["cafe"] && shown["note"] as? String == "ask Priya about the report\ndue Friday")
        let byTag = try #require(try lens.run(["search", "--json", "--tag", "cafe"]).json() as? [[String: Any]])
        #expect(byTag.count == 2)
        let both = try #require(try lens.run(["search", "--json", "--tag", "cafe", "--tag", "receipts"]).json() as? [[String: Any]])
        #expect((both.first?["paths"] as? [String]) == [receipt] && both.count == 1)
        let byNote = try #require(try lens.run(["search", "--json", "--exact", "Friday"]).json() as? [[String: Any]])
        #expect(byNote.map { $0["id"] as? Int } == [Int(chatID)])
        let tags = try #require(try lens.run(["tags", "--json"]).json() as? [[String: Any]])
        #expect(tags.map { "\($0["tag"] ?? "") \($0["count"] ?? "")" } == ["cafe 2", "receipts 1"])

        #expect(try lens.run(["untag", receipt, "receipts"]).status == 0)
        #expect((try lens.run(["search", "--json", "--tag", "receipts"]).json() as? [Any])?.isEmpty == true)
        let bad = try lens.run(["tag", chatID, "two words"])
        #expect(bad.status == 2 && bad.stderr.contains("is not a tag"))
        #expect(try lens.run(["tag", "9999", "x"]).status == 2)
    }

    /// `lens stats` summarizes what was imported, in both forms.
    @Test(arguments: StoreKind.allCases)
    func statsSummarizeTheCollection(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        let stats = try #require(try lens.run(["stats", "--json"]).json() as? [String: Any])
        let count = TestSupport.samplePNGCount
        #expect(stats["screenshots"] as? Int == count && stats["done"] as? Int == count)
        #expect(stats["failed"] as? Int == 0 && stats["poisoned"] as? Int == 0 && stats["queued"] as? Int == 0)
        #expect(stats["with_text"] as? Int == count)
        let withEntities = try #require(stats["with_entities"] as? Int)
        #expect(withEntities > 0 && withEntities <= count)
        let types = try #require(stats["by_entity_type"] as? [[String: Any]])
        #expect(types.contains { $0["key"] as? String == "phone" && ($0["count"] as? Int ?? 0) >= 1 })
        let folders = try #require(stats["by_folder"] as? [[String: Any]])
        #expect(folders.map { $0["key"] as? String } == [TestSupport.samplesFolder.path] && folders.first?["count"] as? Int == count)
        #expect((stats["by_month"] as? [[String: Any]])?.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == count)
        #expect(stats["last_run_images"] as? Int == count)
        #expect((stats["mean_ocr_seconds"] as? Double ?? 0) > 0)
        #expect((stats["database_bytes"] as? Int ?? 0) > 0)
        let text = try lens.run(["stats"]).stdout
        #expect(text.contains("screenshots:   \(count) (done \(count)") && text.contains("by folder:"))
        // Nothing is gone, so gc removes nothing (the store tests cover removal).
        let gc = try #require(try lens.run(["gc", "--json"]).json() as? [String: Any])
        #expect((gc["removed"] as? [Any])?.isEmpty == true && gc["dry_run"] as? Bool == false)
        #expect(try lens.run(["gc", "--older-than", "-1"]).status == 2)
    }

    @Test func importOfBadFilesExitsOneAndListsEachWithItsReason() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("bad")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("empty.png"))
        try Data("plain text".utf8).write(to: folder.appendingPathComponent("not_really.jpg"))
        try FileManager.default.copyItem(at: TestSupport.samplePNG("terminal"), to: folder.appendingPathComponent("good.png"))
        let result = try lens.run(["import", "--json", folder.path])
        #expect(result.status == 1)
        let summary = try #require(try result.json() as? [String: Any])
        let failed = try #require(summary["failed"] as? [[String: String]])
        #expect(failed.map { $0["path"]! } == [folder.appendingPathComponent("empty.png").path, folder.appendingPathComponent("not_really.jpg").path])
        #expect(failed.allSatisfy { !($0["reason"] ?? "").isEmpty })
        #expect(summary["added"] as? Int == 1)

        let text = try lens.run(["import", folder.path])
        #expect(text.status == 1)
        #expect(text.stdout.contains("failed: \(folder.appendingPathComponent("empty.png").path): empty file"))
    }

    @Test(arguments: StoreKind.allCases)
    func searchPrintsRankedHitsWithMarkedSnippets(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        _ = try lens.importSamples()
        let json = try lens.run(["search", "--json", "quarterly", "report"])
        #expect(json.status == 0)
        let all = try #require(try json.json() as? [[String: Any]])
        // One holds the words; those about them without holding them come after, marked.
        let hits = all.filter { $0["semantic"] == nil }
        #expect(hits.count == 1 && all.first?["semantic"] == nil && all.dropFirst().allSatisfy { $0["semantic"] as? Bool == true })
        let hit = try #require(hits.first)
        for key in ["id", "path", "paths", "score", "snippet", "imported_at", "captured_at"] {
            #expect(hit[key] != nil, "missing \(key)")
        }
        #expect((hit["path"] as? String)?.hasSuffix("chat_dark.png") == true)
        #expect((hit["snippet"] as? String)?.contains("[quarterly] [report]") == true)

        let text = try lens.run(["search", "555-0132"]) // not a TTY: [ ] markers, no escape codes
        #expect(text.status == 0)
        #expect(text.stdout.contains("receipt_light.png"))
        #expect(text.stdout.contains("[555-0132]") || text.stdout.contains("[555]-[0132]"))
        #expect(!text.stdout.contains("\u{1B}"))

        let excluded = try lens.run(["search", "--json", "report", "-quarterly"]) // no `--` needed to exclude
        #expect(excluded.status == 0, "\(excluded.stderr)")
        // No screenshot holds "report" without "quarterly"; none found by meaning holds "quarterly" either.
        let others = try #require(try excluded.json() as? [[String: Any]])
        #expect(others.allSatisfy { $0["semantic"] as? Bool == true && !($0["path"] as? String ?? "").hasSuffix("chat_dark.png") })
        let typo = try lens.run(["search", "report", "--jsn"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("Unknown option '--jsn'"))

        let none = try lens.run(["search", "zebra"])
        #expect(none.status == 0)
        #expect(none.stdout == "No matches.\n")
    }

    @Test(arguments: ["\"", "(", "NEAR(", "a:b", "*", "-", "-x", "'; DROP TABLE screenshot; --", "\"\"\"", "x*", "OR", "^"])
    func hostileQueriesGiveResultsOrAClearMessage(query: String) throws {
        let lens = try LensBinary()
        _ = try LensDatabase(path: lens.database) // creates the database
        let result = try lens.run(["search", "--", query])
        #expect(result.status == 0 || result.status == 2, "status \(result.status): \(result.stderr)")
        #expect(!result.stderr.localizedCaseInsensitiveContains("sql"), "\(result.stderr)")
        if result.status == 2 { #expect(result.stderr.contains("Error:")) }
    }

    /// On a terminal (a pseudo-terminal from util-linux `script`) matches are bold, never with NO_COLOR.
    @Test func matchesAreBoldOnATerminalUnlessNO_COLOR() throws {
        let lens = try LensBinary()
        _ = try lens.importSamples()
        let command = "'\(LensBinary.url.path)' search --db '\(lens.database)' quarterly"
        let styled = try lens.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": nil])
        #expect(styled.stdout.contains("\u{1B}[1mquarterly\u{1B}[0m"), "\(styled.stdout.debugDescription)")
        let plain = try lens.runProgram("/usr/bin/script", ["-qec", command, "/dev/null"], environment: ["NO_COLOR": "1"])
        #expect(plain.stdout.contains("[quarterly]"))
        #expect(!plain.stdout.contains("\u{1B}["))
    }

    @Test func initWritesAPrivateConfigAndNeverOverwritesSilently() throws {
        let lens = try LensBinary()
        let shots = lens.home.appendingPathComponent("Pictures/Screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let config = lens.home.appendingPathComponent(".config/lens/config.toml").path
        // No terminal and no --yes: nothing is watched without being asked for.
        let quiet = try lens.runProgram(LensBinary.url.path, ["init"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.contains("no folder is watched yet"))
        #expect(try FileManager.default.attributesOfItem(atPath: config)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: lens.home.appendingPathComponent(".config/lens").path)[.posixPermissions] as? Int == 0o700)

        let again = try lens.runProgram(LensBinary.url.path, ["init", "--yes"])
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists; pass --force"))

        let forced = try lens.runProgram(LensBinary.url.path, ["init", "--yes", "--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout.contains(shots.path))
        #expect(forced.stdout.contains("systemctl --user enable --now lens"))
        #expect(try String(contentsOfFile: config, encoding: .utf8).contains("path = \"\(shots.path)\""))
    }

    @Test(arguments: StoreKind.allCases)
    func showAndStatusReportAsJSON(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        _ = try lens.importSamples()
        let path = TestSupport.samplePNG("terminal").path
        let show = try lens.run(["show", "--json", path])
        #expect(show.status == 0)
        let detail = try #require(try show.json() as? [String: Any])
        #expect((detail["text"] as? String)?.contains("Prometheus") == true)
        #expect((detail["paths"] as? [String]) == [path])
        #expect((detail["sha256"] as? String)?.count == 64)
        #expect(detail["confidence"] is Double)
        #expect(detail["id"] is Int)

        let byID = try lens.run(["show", "--json", String(detail["id"] as! Int)])
        #expect(byID.stdout == show.stdout)

        let missing = try lens.run(["show", "9999"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no screenshot with id or path '9999'"))

        let status = try #require(try lens.run(["status", "--json"]).json() as? [String: Any])
        #expect((status["counts"] as? [String: Int]) == ["queued": 0, "running": 0, "done": TestSupport.samplePNGCount, "failed": 0])
        #expect(status["database"] as? String == lens.location)
        #expect((status["database_bytes"] as? Int ?? 0) > 0)
    }

    /// QR payloads are shown and searchable (a 2FA secret in one is masked); `--mark-below` marks
    /// uncertain words; `--min-confidence` keeps exactly the screenshots whose mean confidence reaches it.
    @Test func codesConfidenceMarksAndConfidenceFilter() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        // "tickets" is only in the ticket's QR payload, not in its text.
        let hits = try #require(try lens.run(["search", "--json", "--exact", "tickets"]).json() as? [[String: Any]])
        #expect(hits.count == 1)
        let ticket = TestSupport.samplePNG("qr_ticket").path
        #expect((hits.first?["paths"] as? [String]) == [ticket])
        let detail = try #require(try lens.run(["show", "--json", ticket]).json() as? [String: Any])
        let codes = try #require(detail["codes"] as? [[String: String]])
        #expect(codes == [["symbology": "QR-Code", "payload": "https://example.org/tickets/8F3K2Q?seat=14C"]])
        #expect(try lens.run(["show", ticket]).stdout.contains("code:        QR-Code https://example.org/tickets/"))
        let qr = TestSupport.samplePNG("qr_dark_2fa").path
        #expect(try lens.run(["show", qr]).stdout.contains("code:        QR-Code [api key: 2FA secret]"))

        // Every word under 100 is marked; none under 0.
        let receipt = TestSupport.samplePNG("receipt_light").path
        let plain = try lens.run(["show", receipt]).stdout
        #expect(!plain.contains("[?"))
        #expect(try lens.run(["show", receipt, "--mark-below", "0"]).stdout == plain)
        let allMarked = try lens.run(["show", receipt, "--mark-below", "100"]).stdout
        #expect(allMarked.contains("[?Receipt?]") && allMarked.contains("[?Total?]"))
        #expect(try lens.run(["show", receipt, "--mark-below", "101"]).status == 2)
        // The receipt's fields, as read by OCR (the vendor folded: `eng` may drop the accents).
        let fields = try #require(try lens.run(["show", "--json", receipt]).json() as? [String: Any])["receipt"] as? [String: String]
        #expect(fields?["total"] == "15.70 USD")
        #expect(fields?["vendor"]?.folding(options: .diacriticInsensitive, locale: nil) == "Cafe Lumiere")
        #expect(fields?["date"] == nil)
        #expect(plain.contains("receipt:     "))

        // The filter keeps the screenshots at or above the threshold, and works without a query.
        var confidence: [String: Double] = [:]
        for name in ["chat_dark", "receipt_light", "terminal", "small_text", "retina_chat", "qr_ticket", "qr_dark_2fa", "contact_card"] {
            let path = TestSupport.samplePNG(name).path
            confidence[path] = try #require(try lens.run(["show", "--json", path]).json() as? [String: Any])["confidence"] as? Double
        }
        let sorted = confidence.values.sorted()
        let threshold = (sorted[2] + sorted[3]) / 2
        let kept = try #require(try lens.run(["search", "--json", "--min-confidence", String(threshold)]).json() as? [[String: Any]])
        let keptPaths = Set(kept.compactMap { ($0["paths"] as? [String])?.first })
        #expect(keptPaths == Set(confidence.filter { $0.value >= threshold }.keys))
        #expect(keptPaths.count == sorted.count - 3)
        #expect(try lens.run(["search", "--min-confidence", "-1"]).status == 2)
    }

    /// `lens extract` reads stdin and prints one JSON object per entity with UTF-8 offsets;
    /// the region comes from --region or $ENTITY_REGION.
    @Test func extractPrintsEntitiesAsJSONLines() throws {
        let lens = try LensBinary()
        let input = home(lens, "input.txt", "Crème: call (415) 555-0132 on 03/05/2024, pay €12,50 at example.org/pay")
        let result = try lens.runProgram(LensBinary.url.path, ["extract", "--json"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == [
            #"{"end":27,"normalized":"+14155550132","start":13,"type":"phone","value":"(415) 555-0132"}"#,
            #"{"end":41,"normalized":"2024-03-05","start":31,"type":"date","value":"03/05/2024"}"#,
            #"{"end":55,"normalized":"12.50 EUR","start":47,"type":"money","value":"€12,50"}"#,
            #"{"end":74,"normalized":"https://example.org/pay","start":59,"type":"url","value":"example.org/pay"}"#,
        ])
        let british = try lens.runProgram(LensBinary.url.path, ["extract", "--json"], environment: ["ENTITY_REGION": "GB"], stdin: input)
        #expect(british.stdout.contains(#""normalized":"2024-05-03""#))
        #expect(try lens.runProgram(LensBinary.url.path, ["extract", "--region", "GB"], stdin: input).stdout.contains("2024-05-03"))
        #expect(try lens.runProgram(LensBinary.url.path, ["extract", "--region", "XX"], stdin: input).status == 2)
        // An empty $ENTITY_REGION counts as unset (US), as an empty NO_COLOR does.
        let empty = try lens.runProgram(LensBinary.url.path, ["extract", "--json"], environment: ["ENTITY_REGION": ""], stdin: input)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains(#""normalized":"2024-03-05""#))

        let image = try lens.runProgram(LensBinary.url.path, ["extract", "--image", TestSupport.samplePNG("receipt_light").path])
        #expect(image.status == 0, "\(image.stderr)")
        for expected in ["phone  (415) 555-0132  → +14155550132", "money  $15.70  → 15.70 USD", "email  billing@cafe-lumiere.example"] {
            #expect(image.stdout.contains(expected), "\(image.stdout)")
        }
    }

    /// Imported screenshots keep their entities; `show --json` lists them with their source.
    @Test(arguments: StoreKind.allCases)
    func importedScreenshotsKeepTheirEntities(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        let receipt = try #require(try lens.run(["show", "--json", TestSupport.samplePNG("receipt_light").path]).json() as? [String: Any])
        let entities = try #require(receipt["entities"] as? [[String: String]])
        #expect(entities.contains(["type": "phone", "value": "(415) 555-0132", "normalized": "+14155550132", "source": "text"]))
        #expect(entities.contains(["type": "money", "value": "$15.70", "normalized": "15.70 USD", "source": "text"]))
        let ticket = try #require(try lens.run(["show", "--json", TestSupport.samplePNG("qr_ticket").path]).json() as? [String: Any])
        #expect((ticket["entities"] as? [[String: String]])?.contains(
            ["type": "url", "value": "https://example.org/tickets/8F3K2Q?seat=14C",
             "normalized": "https://example.org/tickets/8F3K2Q?seat=14C", "source": "code"]) == true)
    }

    /// Entity filters work with or without a query; `lens entities` counts by normalized value;
    /// `lens reindex --entities` rebuilds the text entities and keeps those of codes.
    @Test(arguments: StoreKind.allCases)
    func entityFiltersCountsAndReindex(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        #expect(try lens.importSamples().status == 0)
        func paths(_ args: [String]) throws -> Set<String> {
            let hits = try #require(try lens.run(["search", "--json"] + args).json() as? [[String: Any]])
            return Set(hits.compactMap { ($0["paths"] as? [String])?.first.map { URL(fileURLWithPath: $0).lastPathComponent } })
        }
        #expect(try paths(["--type", "money"]) == ["receipt_light.png"])
        #expect(try paths(["--type", "phone"]) == ["receipt_light.png", "retina_chat.png", "contact_card.png"])
        #expect(try paths(["--type", "phone", "--type", "email"]) == ["receipt_light.png", "contact_card.png"]) // both types
        #expect(try paths(["--entity", "phone:+14155550132"]) == ["receipt_light.png", "contact_card.png"])
        #expect(try paths(["--entity", "phone:415.555.0132"]) == ["receipt_light.png", "contact_card.png"]) // normalized like the text
        #expect(try paths(["--entity", "phone:+14155550133"]).isEmpty) // one digit off is another number
        #expect(try paths(["espresso", "--type", "email"]) == ["receipt_light.png"])
        #expect(try paths(["espresso", "--type", "url", "--entity", "url:example.org/tickets/8F3K2Q?seat=14C"]).isEmpty)
        #expect(try lens.run(["search", "--type", "bogus"]).status == 2)
        #expect(try lens.run(["search", "--entity", "phone"]).status == 2)

        let counts = try #require(try lens.run(["entities", "--json", "--type", "phone"]).json() as? [[String: Any]])
        #expect(Set(counts.compactMap { $0["normalized"] as? String }) == ["+14155550132", "+442079460018"])
        #expect(Dictionary(uniqueKeysWithValues: counts.compactMap { row in (row["normalized"] as? String).map { ($0, row["screenshots"] as? Int ?? 0) } })
                == ["+14155550132": 2, "+442079460018": 1])
        #expect(counts.allSatisfy { $0["type"] as? String == "phone" })
        let all = try #require(try lens.run(["entities", "--json", "--top", "100"]).json() as? [[String: Any]])

        let reindexed = try lens.run(["reindex", "--entities"])
        #expect(reindexed.status == 0, "\(reindexed.stderr)")
        let occurrences = all.reduce(0) { $0 + ($1["occurrences"] as? Int ?? 0) }
        // Every entity but the ticket QR code's URL and the 2FA code's masked secret comes from the text.
        #expect(reindexed.stdout.hasPrefix("\(occurrences - 2) entities in \(TestSupport.samplePNGCount) screenshots"), "\(reindexed.stdout)")
        let again = try #require(try lens.run(["entities", "--json", "--top", "100"]).json() as? [[String: Any]])
        #expect(again.map { "\($0["normalized"] ?? "")/\($0["occurrences"] ?? "")" } == all.map { "\($0["normalized"] ?? "")/\($0["occurrences"] ?? "")" })
        #expect(try lens.run(["reindex"]).status == 2)
    }

    /// The corpus's "Jon Smith / John Smith / Jon Smyth" screenshots, read by OCR, become three
    /// connected screenshots; links drawn by hand come and go; SVG is drawn by GraphViz.
    @Test(.enabled(if: TestSupport.corpusFolder != nil, "needs ../shared/corpus"))
    func theGraphLinksTheSamePersonWrittenThreeWays() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["pub_049_email.png", "pub_031_contact.png", "pub_015_email.png", "pub_001_dialog.png"] {
            try FileManager.default.copyItem(at: try #require(TestSupport.corpusFolder).appendingPathComponent(name),
                                             to: folder.appendingPathComponent(name))
        }
        #expect(try lens.run(["import", "--no-progress", folder.path]).status == 0)
        func graph(_ args: [String] = []) throws -> (nodes: [String: Int], edges: [[String: Any]]) {
            let json = try #require(try lens.run(["graph", "--format", "json"] + args).json() as? [String: Any])
            var names: [String: Int] = [:]
            for node in json["nodes"] as? [[String: Any]] ?? [] { names[node["name"] as? String ?? ""] = node["id"] as? Int }
            return (names, json["edges"] as? [[String: Any]] ?? [])
        }
        let (nodes, edges) = try graph()
        #expect(Set(nodes.keys) == ["pub_049_email.png", "pub_031_contact.png", "pub_015_email.png"]) // the dialog stays out
        #expect(edges.count == 3)
        #expect(edges.allSatisfy { ($0["via"] as? [String])?.contains { $0.hasPrefix("person: ") } == true })

        let dialog = try #require(try lens.run(["show", "--json", folder.appendingPathComponent("pub_001_dialog.png").path]).json() as? [String: Any])
        let dialogID = try #require(dialog["id"] as? Int), smith = try #require(nodes["pub_031_contact.png"])
        #expect(try lens.run(["link", String(dialogID), String(smith), "--note", "same client"]).status == 0)
        let linked = try graph()
        #expect(linked.edges.count == 4)
        #expect(linked.edges.contains { $0["manual"] as? Bool == true && $0["note"] as? String == "same client" })
        #expect(try graph(["--rebuild"]).edges.count == 4) // manual links survive a rebuild
        #expect(try lens.run(["reindex", "--entities"]).status == 0) // and extracting the entities again
        #expect(try graph().edges.contains { $0["manual"] as? Bool == true && $0["note"] as? String == "same client" })
        #expect(try graph(["--around", String(dialogID)]).nodes.count == 2)
        #expect(try lens.run(["unlink", String(dialogID), String(smith)]).status == 0)
        #expect(try lens.run(["unlink", String(dialogID), String(smith)]).status == 2)
        #expect(try lens.run(["link", "1", "9999"]).status == 2)

        let svg = lens.home.appendingPathComponent("map.svg").path
        #expect(try lens.run(["graph", "--format", "svg", "--output", svg]).status == 0)
        #expect(String(decoding: FileManager.default.contents(atPath: svg) ?? Data(), as: UTF8.self).contains("<svg"))
        let missing = try lens.run(["graph", "--output", lens.home.appendingPathComponent("no/such/map.dot").path])
        #expect(missing.status == 2 && missing.stderr.contains("does not exist"))
        #expect(try lens.run(["graph", "--format", "png"]).status == 2)
    }

    private func home(_ lens: LensBinary, _ name: String, _ text: String) -> URL {
        let url = lens.home.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8))
        return url
    }

    @Test func usageErrorsExitTwoWithAMessage() throws {
        let lens = try LensBinary()
        for args in [["search", "--limit", "0", "x"], ["search", "--since", "someday", "x"], ["import", "/no/such/path"],
                     ["search", "x", "--log-level", "loud"], ["frobnicate"], ["search"]] {
            let result = try lens.run(args)
            #expect(result.status == 2, "\(args): \(result.status) \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func theDatabaseFollowsXDGAndLENS_DB() throws {
        let lens = try LensBinary()
        let data = lens.home.appendingPathComponent("xdg-data")
        // Only commands that bring screenshots in create the library: an import of nothing does.
        let empty = lens.home.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        func create(_ environment: [String: String?]) throws {
            let created = try lens.run(["import", "--no-progress", empty.path], environment: environment, useDefaultDatabase: true)
            #expect(created.status == 0, "\(created.stderr)")
        }
        try create(["XDG_DATA_HOME": data.path])
        let xdg = try lens.run(["status", "--json"], environment: ["XDG_DATA_HOME": data.path], useDefaultDatabase: true)
        #expect((try xdg.json() as? [String: Any])?["database"] as? String == data.path + "/lens/lens.db")
        let mode = try FileManager.default.attributesOfItem(atPath: data.path + "/lens/lens.db")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: data.path + "/lens")[.posixPermissions] as? Int == 0o700)

        try create(["LENS_DB": lens.home.appendingPathComponent("env.db").path])
        let env = try lens.run(["status", "--json"], environment: ["LENS_DB": lens.home.appendingPathComponent("env.db").path], useDefaultDatabase: true)
        #expect((try env.json() as? [String: Any])?["database"] as? String == lens.home.appendingPathComponent("env.db").path)

        try create([:])
        let home = try lens.run(["status", "--json"], useDefaultDatabase: true)
        #expect((try home.json() as? [String: Any])?["database"] as? String == lens.home.path + "/.local/share/lens/lens.db")
    }

    /// libgomp reads OMP_THREAD_LIMIT when it loads, so lens must re-exec itself with it set.
    @Test func theOpenMPThreadLimitIsInForceWhateverTheEnvironment() throws {
        let lens = try LensBinary()
        let unset = try #require(try lens.run(["doctor", "--json"], environment: ["OMP_THREAD_LIMIT": nil]).json() as? [String: Any])
        #expect(unset["omp_thread_limit"] as? Int == 1)
        #expect(unset["omp_thread_limit_env"] as? String == "1")
        // A limit the user chose is respected, which also shows the value is read from libgomp itself.
        let chosen = try #require(try lens.run(["doctor", "--json"], environment: ["OMP_THREAD_LIMIT": "3"]).json() as? [String: Any])
        #expect(chosen["omp_thread_limit"] as? Int == 3)
    }

    /// Searches run while an import writes: the busy timeout and WAL mean none of them fails.
    @Test func searchesDuringAnImportNeverFailWithALockedDatabase() throws {
        let lens = try LensBinary()
        let folder = try Self.distinctShots(in: lens, count: 18)
        let process = Process()
        process.executableURL = LensBinary.url
        process.arguments = ["import", "--workers", "2", "--db", lens.database, folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var searches = 0, failures: [String] = []
        while process.isRunning || searches == 0 {
            let result = try lens.run(["search", "--json", "report"])
            searches += 1
            // Before the import has created the library, search says there is none.
            if result.status != 0 && !result.stderr.contains("there is no library at") { failures.append(result.stderr) }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(failures.isEmpty, "\(failures.count) of \(searches) searches failed: \(failures.first ?? "")")
        #expect(searches >= 3, "only \(searches) searches overlapped the import")
    }

    /// `count` copies of the samples with distinct bytes (so each is new content) in a fresh folder.
    static func distinctShots(in lens: LensBinary, count: Int) throws -> URL {
        let folder = lens.home.appendingPathComponent("shots-\(count)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for i in 0..<count {
            let name = TestSupport.sampleNames[i % TestSupport.sampleNames.count]
            try Data(TestSupport.distinctCopy(of: try TestSupport.sampleBytes(name), tag: i))
                .write(to: folder.appendingPathComponent("shot-\(i).png"))
        }
        return folder
    }

    /// A kill -9 in the middle of an import loses nothing: the next import finishes the queue,
    /// every file is indexed exactly once, and SQLite's integrity check passes.
    @Test func killNineMidImportThenResume() throws {
        let lens = try LensBinary()
        let count = 24
        let folder = try Self.distinctShots(in: lens, count: count)
        let process = Process()
        process.executableURL = LensBinary.url
        process.arguments = ["import", "--workers", "2", "--db", lens.database, folder.path]
        let importLog = lens.home.appendingPathComponent("import.log")
        _ = FileManager.default.createFile(atPath: importLog.path, contents: nil)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: importLog)
        try process.run()
        // Wait until some, not all, images are done, then kill without warning.
        let deadline = Date().addingTimeInterval(120)
        var done = 0
        var pollErrors: [String] = []
        while Date() < deadline, process.isRunning {
            let poll = try lens.run(["status", "--json"])
            // Before the import has created the library, status says there is none.
            if poll.status != 0 && !poll.stderr.contains("there is no library at") { pollErrors.append(poll.stderr) }
            done = ((try? poll.json() as? [String: Any])?["counts"] as? [String: Int])?["done"] ?? 0
            if done >= 2 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let log = (try? String(contentsOf: importLog, encoding: .utf8)) ?? ""
        #expect(pollErrors.isEmpty, "status failed during the import: \(pollErrors.first ?? "")")
        #expect(process.terminationReason == .uncaughtSignal, "import ended by itself (status \(process.terminationStatus)): \(log)")
        #expect(done >= 2 && done < count, "killed after \(done) of \(count)")

        let resumed = try lens.run(["import", "--json", folder.path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let status = try #require(try lens.run(["status", "--json"]).json() as? [String: Any])
        #expect((status["counts"] as? [String: Int]) == ["queued": 0, "running": 0, "done": count, "failed": 0])
        for i in 0..<count {
            let show = try #require(try lens.run(["show", "--json", folder.appendingPathComponent("shot-\(i).png").path]).json() as? [String: Any])
            #expect(show["state"] as? String == "done")
            #expect((show["paths"] as? [String])?.count == 1)
        }
        let doctor = try #require(try lens.run(["doctor", "--json"]).json() as? [String: Any])
        #expect(doctor["database_integrity"] as? [String] == ["ok"])
    }
}
