import Foundation
import LensTestSupport
import Testing

/// A newcomer's first hour, through the real binary: which Lens this is, typos that get help,
/// and commands that say what they did.
@Suite(.serialized)
struct FirstHourTests {
    @Test func theVersionIsThereUnderEveryNameAUserTries() throws {
        let lens = try LensBinary()
        let long = try lens.runProgram(LensBinary.url.path, ["--version"])
        let short = try lens.runProgram(LensBinary.url.path, ["-V"])
        #expect(long.status == 0 && short.status == 0)
        #expect(long.stdout == short.stdout && long.stdout.split(separator: ".").count == 3, "\(long.stdout)")
        let full = try lens.runProgram(LensBinary.url.path, ["version", "--json"])
        let versions = try #require(try full.json() as? [String: String])
        #expect(versions["lens"].map { $0 + "\n" } == long.stdout)
        #expect(versions["tesseract"]?.first?.isNumber == true && versions["sqlite"]?.hasPrefix("3.") == true, "\(versions)")
    }

    @Test func typosGetTheNearestName() throws {
        let lens = try LensBinary()
        let command = try lens.runProgram(LensBinary.url.path, ["serch", "invoice"])
        #expect(command.status == 2 && command.stderr.contains("'serch' is not a lens command. Did you mean 'search'?"), "\(command.stderr)")
        let nothingNear = try lens.runProgram(LensBinary.url.path, ["zzzzzz"])
        #expect(nothingNear.status == 2 && nothingNear.stderr.contains("not a lens command") && !nothingNear.stderr.contains("Did you mean"))
        let option = try lens.run(["search", "invoice", "--limt", "3"])
        #expect(option.status == 2 && option.stderr.contains("Did you mean '--limit'?"), "\(option.stderr)")
        // A negative number is a value, refused for what it is (not "missing").
        for arguments in [["search", "x", "--limit", "-1"], ["entities", "--top", "-1"], ["history", "--limit", "-1"]] {
            let negative = try lens.run(arguments)
            #expect(negative.status == 2 && negative.stderr.contains("must be at least 1") && !negative.stderr.contains("Missing value"),
                    "\(arguments): \(negative.stderr)")
        }
    }

    @Test func anEmptyLibrarySaysHowToFillIt() throws {
        let lens = try LensBinary()
        let empty = lens.home.appendingPathComponent("nothing")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let imported = try lens.run(["import", "--no-progress", empty.path])
        #expect(imported.status == 0 && !imported.stdout.contains("images/s"), "\(imported.stdout)") // no rate of nothing
        let search = try lens.run(["search", "invoice"])
        #expect(search.status == 0 && search.stdout.contains("The library is empty") && search.stdout.contains("lens import"), "\(search.stdout)")
    }

    @Test func swappedLettersAndUnfinishedWordsStillFind() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        // Two neighbouring letters swapped, as people type them.
        let swapped = try lens.run(["search", "--json", "Deplyoment"])
        let hits = try #require(try swapped.json() as? [[String: Any]])
        #expect(hits.contains { ($0["path"] as? String)?.hasSuffix("chat_dark.png") == true }, "\(swapped.stdout)")
        // An unfinished word: the words it starts, as the page does while typing, and said so.
        let partial = try lens.run(["search", "Promethe"])
        #expect(partial.stdout.contains("No screenshot holds the word 'Promethe'") && partial.stdout.contains("terminal.png"), "\(partial.stdout)")
        // Scripts get exactly what they asked for: no word widened, only what came by meaning, marked.
        let json = try #require(try lens.run(["search", "--json", "Promethe"]).json() as? [[String: Any]])
        #expect(json.allSatisfy { $0["semantic"] as? Bool == true })
    }

    @Test func changesSayWhatTheyDid() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        let note = try lens.run(["note", "1", "called Jon\nrefund on Monday"])
        #expect(note.status == 0 && note.stdout.contains("1: note saved"), "\(note.stdout)")
        let show = try lens.run(["show", "1"])
        #expect(show.stdout.contains("note:        called Jon\n             refund on Monday\n"), "\(show.stdout)")
        #expect(try lens.run(["note", "1", ""]).stdout.contains("note cleared"))
        let output = lens.home.appendingPathComponent("map.dot").path
        let graph = try lens.run(["graph", "--format", "dot", "--output", output])
        #expect(graph.status == 0 && graph.stdout.hasPrefix("Wrote the mind map to \(output):") && graph.stdout.contains("connections"),
                "\(graph.stdout)")
        // Phone numbers are listed grouped, with their country code.
        let entities = try lens.run(["entities", "--type", "phone"])
        #expect(entities.stdout.contains("+1 415-555-0132"), "\(entities.stdout)")
    }

    @Test func theExportWritesDatesAsISO8601AndOldExportsStillRestore() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        let file = lens.home.appendingPathComponent("all.jsonl")
        #expect(try lens.run(["export", "--output", file.path]).status == 0)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        let captured = try #require(record["captured_at"] as? String)
        #expect(captured.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/) != nil, "\(captured)")
        let path = try #require((record["paths"] as? [[String: Any]])?.first)
        #expect(path["modified_at"] is String)

        // A version 1 export (seconds since 1970) restores to the same records.
        var old = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        old["version"] = 1
        var converted = record
        converted["captured_at"] = 1_709_647_331.25
        let oldFile = lens.home.appendingPathComponent("old.jsonl")
        let oldLines = [old, converted].map { String(decoding: try! JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        old["screenshots"] = 1
        try ([String(decoding: try JSONSerialization.data(withJSONObject: old), as: UTF8.self), oldLines[1]].joined(separator: "\n") + "\n")
            .write(to: oldFile, atomically: true, encoding: .utf8)
        let fresh = lens.home.appendingPathComponent("fresh.db").path
        let restored = try lens.runProgram(LensBinary.url.path, ["restore", oldFile.path, "--db", fresh])
        #expect(restored.status == 0, "\(restored.stderr)")
        let again = lens.home.appendingPathComponent("again.jsonl")
        #expect(try lens.runProgram(LensBinary.url.path, ["export", "--output", again.path, "--db", fresh]).status == 0)
        let line = try String(contentsOf: again, encoding: .utf8).split(separator: "\n")[1]
        #expect(line.contains("\"captured_at\":\"2024-03-05T14:02:11.250000Z\""), "\(line.prefix(300))")
    }

    @Test func snippetsShowWhatMatched() throws {
        let lens = try LensBinary()
        #expect(try lens.importSamples().status == 0)
        func hits(_ arguments: [String]) throws -> [[String: Any]] {
            let run = try lens.run(["search", "--json"] + arguments)
            return try #require(try run.json() as? [[String: Any]], "\(run.stderr)")
        }
        func id(of sample: String) throws -> String {
            let all = try hits(["--since", "2000-01-01", "--limit", "50"])
            let found = all.first { ($0["path"] as? String)?.hasSuffix(sample) == true }
            return try #require(found?["id"] as? Int).description
        }
        let chat = try id(of: "chat_dark.png"), card = try id(of: "contact_card.png")
        #expect(try lens.run(["note", chat, "called the plumber Copperpot on Monday"]).status == 0)
        #expect(try lens.run(["tag", card, "plumbing"]).status == 0)

        // A word found only in the note: the note is shown, the word marked, and said to be the note.
        let note = try #require(try hits(["copperpot"]).first)
        #expect(note["matched_in"] as? String == "note" && (note["snippet"] as? String)?.contains("[Copperpot]") == true, "\(note)")
        let printed = try lens.run(["search", "copperpot"])
        #expect(printed.stdout.contains("note: called the plumber [Copperpot] on Monday"), "\(printed.stdout)")
        // Only in the tags: the tags, marked, then the text's first words.
        let tagged = try #require(try hits(["plumbing"]).first)
        #expect(tagged["matched_in"] as? String == "tags" && (tagged["snippet"] as? String)?.hasPrefix("[plumbing] · ") == true, "\(tagged)")
        let byTag = try #require(try hits(["--tag", "plumbing"]).first)
        #expect((byTag["snippet"] as? String)?.hasPrefix("[plumbing] · Contact") == true, "\(byTag)")
        // A word in the text keeps the text's snippet.
        let text = try #require(try hits(["Deployment"]).first)
        #expect(text["matched_in"] == nil && (text["snippet"] as? String)?.contains("[Deployment]") == true, "\(text)")

        // An entity filter alone: the entity, as written, marked, wherever it is in the text.
        let phones = try hits(["--entity", "phone:+14155550132"])
        #expect(phones.count == 2 && phones.allSatisfy { ($0["snippet"] as? String)?.contains("[(415) 555-0132]") == true }, "\(phones)")
        let money = try hits(["--type", "money"])
        #expect(!money.isEmpty && money.allSatisfy { ($0["snippet"] as? String)?.contains("[$") == true }, "\(money)")
    }
}
