import Foundation
@testable import LensApp
import LensCore
import LensGraph
import LensStore
import LensTestSupport
import Synchronization
import Testing

/// Connections kept on ingest, rebuilt, linked by hand and drawn, on a real database.
@Suite(.serialized)
struct MindMapTests {
    let root: URL
    let library: Library

    init() throws { try self.init(.sqlite) }

    init(_ kind: StoreKind) throws {
        root = try TestSupport.makeTemporaryFolder("lens-mindmap")
        library = kind == .sqlite ? try Library(databasePath: root.appendingPathComponent("lens.db").path)
            : try Library(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
    }

    /// Records `text` as the recognized text of a new screenshot at `path`, with its entities,
    /// and connects it as the queue drain does.
    @discardableResult
    func add(_ text: String, path: String, keeper: ConnectionKeeper, knowing: Bool = false) throws -> Int64 {
        let registration = try library.database.register(FileObservation(
            path: path, size: 10, modifiedAt: 1, sha256: String(repeating: "0", count: 56) + String(format: "%08x", path.hashValue & 0x7fff_ffff),
            format: .png, seenAt: 2))
        let extractor = knowing ? EntityExtractors.make(region: "US", knowing: library.database) : EntityExtractors.make(region: "US")
        let entities = extractor.entities(in: text)
        let item = try #require(try library.database.claimNext(owner: getpid()))
        #expect(item.id == registration.id)
        try library.database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), entities: entities,
                                               for: registration.id, seconds: 0.1)
        try keeper.connect(registration.id)
        return registration.id
    }

    @Test(arguments: StoreKind.allCases)
    func connectionsKeptOnIngestEqualARebuildAndManualLinksSurviveIt(_ kind: StoreKind) throws {
        let fixture = try MindMapTests(kind)
        let library = fixture.library
        let keeper = ConnectionKeeper(database: library.database)
        let a = try fixture.add("From: Jon Smith <jon@example.com>\nCall (415) 555-0132", path: "/s/a.png", keeper: keeper)
        let b = try fixture.add("John Smith\nMobile +1 415-555-0132", path: "/s/b.png", keeper: keeper)
        let c = try fixture.add("From: Jon Smyth <jon.smyth@web.de>\nsee example.org/docs/", path: "/s/c.png", keeper: keeper)
        let d = try fixture.add("Docs at https://www.example.org/docs and 415.555.0133", path: "/s/d.png", keeper: keeper)
        let e = try fixture.add("Nothing in common here", path: "/s/e.png", keeper: keeper)

        let incremental = try library.database.edges(minimumScore: 0)
        #expect(incremental.map { [$0.a, $0.b] } == [[a, b], [a, c], [b, c], [c, d]])
        #expect(incremental.first?.score == 1) // a shared phone number
        #expect(try MindMapUseCases.rebuild(library) == (screenshots: 4, edges: 4))
        let rebuilt = try library.database.edges(minimumScore: 0)
        #expect(rebuilt == incremental, "\(rebuilt)\n\(incremental)")

        #expect(try library.database.link(e, a, note: "same trip"))
        _ = try MindMapUseCases.rebuild(library)
        let map = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: nil)
        #expect(map.edges.contains { $0.a == a && $0.b == e && $0.isManual && $0.note == "same trip" })
        #expect(try library.database.unlink(a, e))
        #expect(try !library.database.unlink(a, e))

        let phones = try MindMapUseCases.mindMap(library, minimumScore: 0, type: "phone", around: nil, depth: 1, maximumNodes: nil)
        #expect(phones.edges.map { [$0.a, $0.b] } == [[a, b]]) // 415-555-0133 is another number
        let nearD = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: d, depth: 1, maximumNodes: nil)
        #expect(Set(nearD.nodes.map(\.id)) == [c, d])
        let small = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: 2)
        #expect(small.nodes.count == 2)
    }

    /// A national number with no country in its text is the number the library holds in
    /// international form, whichever screenshot came first: on import once that one is stored;
    /// and when it comes later, the screenshots showing its national form are read again.
    @Test func nationalNumbersJoinTheInternationalOnesTheLibraryHolds() throws {
        let keeper = ConnectionKeeper(database: library.database)
        let extractor = EntityExtractors.make(region: "US", knowing: library.database)
        func phones(_ id: Int64) throws -> [String] {
            try library.database.entities(ofScreenshot: id).filter { $0.type == "phone" }.map(\.normalized)
        }
        let national = "Tidewater Books\nTel: 020 7946 0018\nopen 9-17, ask for Ann"
        let early = try add(national, path: "/s/early.png", keeper: keeper, knowing: true)
        let other = try add("Order 020 7946 0018 77 shipped", path: "/s/other.png", keeper: keeper, knowing: true)
        #expect(try phones(early).isEmpty)
        let card = try add("Tidewater Books Ltd\nPhone +44 20 7946 0018", path: "/s/card.png", keeper: keeper, knowing: true)
        let cardEntities = extractor.entities(in: "Tidewater Books Ltd\nPhone +44 20 7946 0018")
        let before = try library.database.entities(ofScreenshot: early)
        #expect(try NationalNumbers.revisit(after: card, entities: cardEntities, database: library.database, extractor: extractor,
                                            connections: keeper) == [early])
        #expect(try phones(early) == ["+442079460018"])
        // What the screenshot held stays as it was; the number is added.
        #expect(try library.database.entities(ofScreenshot: early).filter { $0.type != "phone" } == before)
        #expect(try phones(other).isEmpty) // the digits are there, but not as that number
        #expect(try library.database.edges(minimumScore: 0).contains { [$0.a, $0.b] == [early, card] })

        let late = try add(national, path: "/s/late.png", keeper: keeper, knowing: true)
        #expect(try phones(late) == ["+442079460018"])
        #expect(try library.database.edges(minimumScore: 0).contains { [$0.a, $0.b] == [card, late] })
        _ = try library.reextractEntities(region: "US", phoneRegions: [])
        #expect(try phones(early) == ["+442079460018"])
    }

    /// The same in a shared library (PostgreSQL): the screenshot showing
    /// the national form gains the number when the international one arrives.
    @Test func nationalNumbersJoinInASharedLibraryToo() throws {
        let database = try LensDatabase(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
        func add(_ text: String, _ n: Int) throws -> (id: Int64, entities: [Entity]) {
            _ = try database.register(FileObservation(path: "/s/\(n).png", size: 10, modifiedAt: 1,
                                                      sha256: String(repeating: "0", count: 63) + String(n), format: .png, seenAt: 2))
            let item = try #require(try database.claimNext(owner: getpid()))
            let entities = EntityExtractors.make(region: "US", knowing: database).entities(in: text)
            try database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), entities: entities, for: item.id, seconds: 0.1)
            return (item.id, entities)
        }
        func phones(_ id: Int64) throws -> [String] {
            try database.entities(ofScreenshot: id).filter { $0.type == "phone" }.map(\.normalized)
        }
        let early = try add("Tidewater Books\nTel: 020 7946 0018\nopen 9-17, ask for Ann", 1).id
        let other = try add("Order 020 7946 0018 77 shipped", 2).id
        #expect(try phones(early).isEmpty)
        let card = try add("Tidewater Books Ltd\nPhone +44 20 7946 0018", 3)
        let revisited = try NationalNumbers.revisit(after: card.id, entities: card.entities, database: database,
                                                    extractor: EntityExtractors.make(region: "US", knowing: database), connections: nil)
        #expect(revisited == [early])
        #expect(try phones(early) == ["+442079460018"] && phones(other).isEmpty)
        #expect(try database.topEntities(type: "phone", limit: 5).first { $0.normalized == "+442079460018" }?.screenshots == 2)
    }

    /// What an edge shares is stored compactly and read back the same; the JSON of libraries
    /// from before still reads.
    /// Workers on two hosts keep their own indexes: a screenshot connected by one is in the
    /// other's comparisons next time it connects (it replays the store's log), however stale its
    /// index was; and screenshots connected on both at once give the edges a rebuild gives.
    @Test func workersOnTwoHostsSeeEachOthersScreenshots() throws {
        let fixture = try MindMapTests(.postgresql)
        let library = fixture.library
        let address = try StoreAddress(library.databasePath)
        let elsewhere = try LensDatabase(store: address, worker: "elsewhere:1")
        let here = ConnectionKeeper(database: library.database), there = ConnectionKeeper(database: elsewhere)
        _ = try fixture.add("Nothing in common here", path: "/s/x.png", keeper: there) // its index is loaded now
        let a = try fixture.add("From: Jon Smith <jon@example.com>", path: "/s/a.png", keeper: here)
        let b = try fixture.add("Reply to jon@example.com by Friday", path: "/s/b.png", keeper: there)
        #expect(try library.database.edges(minimumScore: 0).map { [$0.a, $0.b] } == [[a, b]])

        // Forty more, half connected by each host at the same time, sharing numbers and names
        // (some spelled alike: Dana Kims ~ Dana Kim).
        var ids: [Int64] = []
        for n in 0..<40 {
            // At most 16 holders of an entity (ConnectionFinder.fanOut): past that, which ones a
            // screenshot links to depends on the order they came in.
            let names = ["Dana Kim", "Ravi Patel", "Lena Fischer", "Tomas Novak", "Aiko Tanaka", "Omar Haddad", "Sofia Rossi", "Jon Smith"]
            let text = "Ticket \(n): call (415) 555-01\(10 + n % 7), ask for \(names[n % 8])\(n % 3 == 0 ? "" : "s") re order \(n % 5)"
            let registration = try library.database.register(FileObservation(
                path: "/s/t\(n).png", size: 10, modifiedAt: 1, sha256: String(format: "%064x", 1000 + n), format: .png, seenAt: 2))
            let item = try #require(try library.database.claimNext(owner: getpid()))
            try library.database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1),
                                                   entities: EntityExtractors.make(region: "US").entities(in: text), for: item.id, seconds: 0.1)
            ids.append(registration.id)
        }
        let keepers = [here, there], all = ids
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            for id in all where Int(id) % 2 == half {
                do { try keepers[half].connect(id) } catch { failures.withLock { $0.append("\(error)") } }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        // The edges by shared entities (copies by text depend on which neighbours a text had
        // when it came, on SQLite as here).
        func byEntities() throws -> Set<String> {
            Set(try library.database.edges(minimumScore: 0).filter { !$0.via.isEmpty }.map { "\($0.a)-\($0.b) \($0.score) \($0.via)" })
        }
        let incremental = try byEntities()
        #expect(incremental.count > 40)
        let before = try #require(try elsewhere.connected(since: nil)).mark
        _ = try MindMapUseCases.rebuild(library)
        // A rebuild (after entities were re-extracted) makes every worker load its index again, once.
        #expect(try elsewhere.connected(since: before).map(\.mark) == nil)
        let after = try #require(try elsewhere.connected(since: nil)).mark
        #expect(try elsewhere.connected(since: after).map(\.ids) == [])
        let rebuilt = try byEntities()
        #expect(rebuilt == incremental, "\(rebuilt.symmetricDifference(incremental).sorted().prefix(10))")
    }

    /// A daemon (or a worker) keeps every screenshot's entities in memory: once another process
    /// re-extracted them and rebuilt the map, it loads them again before it next connects (on
    /// SQLite it once linked new screenshots by entities the library no longer held).
    @Test(arguments: StoreKind.allCases)
    func aRebuildMakesADaemonLoadItsEntitiesAgain(_ kind: StoreKind) throws {
        let fixture = try MindMapTests(kind)
        let library = fixture.library
        let elsewhere = kind == .sqlite ? try LensDatabase(path: library.databasePath)
            : try LensDatabase(store: try StoreAddress(library.databasePath), worker: "daemon:1")
        let daemon = ConnectionKeeper(database: elsewhere)
        let first = try fixture.add("From: Jon Smith <jon@example.com>", path: "/s/a.png", keeper: daemon)
        // Another process (`lens reindex --entities`): the entities change (here, none are kept)
        // and the map is rebuilt.
        _ = try library.database.reextractEntities { _, _ in [] }
        _ = try MindMapUseCases.rebuild(library)
        let second = try fixture.add("Reply to jon@example.com by Friday", path: "/s/b.png", keeper: daemon)
        let byEntities = try library.database.edges(minimumScore: 0).filter { !$0.via.isEmpty }
        #expect(byEntities.isEmpty, "\(first)-\(second) linked by \(byEntities.map(\.via))")
    }

    @Test func sharedEntitiesRoundTripAndOldJSONReads() {
        let shared = [SharedEntity(type: "email", a: "smcv@debian.org", b: "smcv@debian.org", similarity: 1),
                      SharedEntity(type: "person", a: "jon smith", b: "jon smyth", similarity: 0.889),
                      SharedEntity(type: "url", a: "example.org/a\tb", b: "example.org/a\tb", similarity: 1)]
        let stored = MindMapUseCases.encoded(shared)
        #expect(stored == "email\tsmcv@debian.org\nperson\tjon smith\tjon smyth\t0.889\nurl\texample.org/a b")
        #expect(MindMapUseCases.decoded(stored) == Array(shared.prefix(2))
                + [SharedEntity(type: "url", a: "example.org/a b", b: "example.org/a b", similarity: 1)])
        #expect(MindMapUseCases.encoded([]).isEmpty && MindMapUseCases.decoded("").isEmpty)
        let old = #"[{"a":"jon smith","b":"jon smyth","similarity":0.889,"type":"person"}]"#
        #expect(MindMapUseCases.describe(old) == ["person: jon smith ~ jon smyth"])
        #expect(MindMapUseCases.describe(stored) == ["email: smcv@debian.org", "person: jon smith ~ jon smyth", "url: example.org/a b"])
    }

    /// Label text is escaped: file names with quotes, backslashes, newlines and braces stay text,
    /// and GraphViz's dot and sfdp both accept the result.
    @Test func hostileNamesMakeValidDOT() throws {
        let keeper = ConnectionKeeper(database: library.database)
        try add("From: Priya Nair <priya@example.org>", path: "/s/we\"ird\\na}me [x].png", keeper: keeper)
        try add("To: Priya Nair <priya@example.org>", path: "/s/line\nbreak\"; ] node [shape=egg.png", keeper: keeper)
        let map = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: nil)
        #expect(map.edges.count == 1)
        let dot = DOTWriter.dot(map)
        #expect(!dot.contains("shape=egg\"")) // the injected attribute stays inside a label
        for layout in ["/usr/bin/dot", "/usr/bin/sfdp"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: layout)
            process.arguments = ["-Tsvg", "-o", "/dev/null"]
            let input = Pipe()
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data(dot.utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(layout) refused:\n\(dot)")
        }
        let svg = String(decoding: try MindMapUseCases.render(map, format: .svg), as: UTF8.self)
        #expect(svg.contains("<svg"))
        let json = try #require(try JSONSerialization.jsonObject(with: MindMapUseCases.render(map, format: .json)) as? [String: Any])
        #expect((json["nodes"] as? [[String: Any]])?.count == 2)
        let edge = try #require((json["edges"] as? [[String: Any]])?.first)
        #expect(edge["via"] as? [String] == ["email: priya@example.org", "person: priya nair"])
        #expect(edge["source"] is Int && edge["target"] is Int && edge["score"] as? Double == 1)
    }

    /// A cropped copy and a re-encoded copy of one chat are one node listing its copies, with one
    /// edge to the screenshot they share a person with; a chat of the same app with other people
    /// stays apart. `--isolated` adds the screenshot without connections.
    @Test(arguments: StoreKind.allCases)
    func nearDuplicatesAreOneNodeAndIsolatedScreenshotsAreAddedOnRequest(_ kind: StoreKind) throws {
        let fixture = try MindMapTests(kind)
        let library = fixture.library
        let keeper = ConnectionKeeper(database: library.database)
        let chat = """
            Messages  Priya Nair  online
            Priya Nair 09:14
            are we still on for the design review tomorrow morning?
            yes, room four, bring the printed mockups and the budget sheet
            Priya Nair 09:16
            great, see you there
            """
        let original = try fixture.add(chat, path: "/s/chat.png", keeper: keeper)
        let reencoded = try fixture.add(chat.replacingOccurrences(of: "mockups", with: "rnockups"), path: "/s/chat.jpg", keeper: keeper)
        let cropped = try fixture.add(chat.split(separator: "\n").dropFirst().joined(separator: "\n"), path: "/s/chat-crop.png", keeper: keeper)
        let invite = try fixture.add("Invite: design review\nOrganizer: Priya Nair <priya.nair@fabrikam.io>\nRoom four, 9:00",
                             path: "/s/invite.png", keeper: keeper)
        let other = try fixture.add("""
            Messages  Priya Nair  online
            Priya Nair 18:02
            the invoice for the flat is attached, can you pay it by friday?
            sure, sending it tonight after work
            """, path: "/s/other.png", keeper: keeper)
        let lonely = try fixture.add("A terminal with nothing to link", path: "/s/terminal.png", keeper: keeper)
        // Copies that share no linkable entity are found by their text alone.
        let log = """
            2024-12-19 05:21:48 INFO [ocr-worker] picked job 4411 from the durable queue
            2024-12-19 05:21:49 WARN [ocr-worker] retrying the upload after a transient failure
            2024-12-19 05:21:52 INFO [ocr-worker] finished job 4411 in three seconds
            """
        let logShot = try fixture.add(log, path: "/s/log.png", keeper: keeper)
        let logCopy = try fixture.add(log.replacingOccurrences(of: "transient", with: "transiemt"), path: "/s/log.jpg", keeper: keeper)

        let stored = try library.database.edges(minimumScore: 0)
        let copyEdges = stored.filter { ($0.resemblance ?? 0) >= TextResemblance.nearDuplicateThreshold }
        #expect(copyEdges.map { [$0.a, $0.b] } == [[original, reencoded], [original, cropped], [reencoded, cropped], [logShot, logCopy]])
        #expect(stored.first { $0.a == original && $0.b == other }.map { ($0.resemblance ?? 0) < 0.9 } == true)

        let map = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: nil)
        #expect(map.nodes.map(\.id) == [original, invite, other])
        #expect(map.nodes.first?.copies.map(\.id) == [reencoded, cropped])
        #expect(map.edges.map { [$0.a, $0.b] } == [[original, invite], [original, other], [invite, other]])
        #expect(DOTWriter.dot(map).contains("+ 2 near-duplicates: chat.jpg, chat-crop.png"))

        let all = try MindMapUseCases.mindMap(library, minimumScore: 0, type: nil, around: nil, depth: 1, maximumNodes: nil,
                                              includingIsolated: true)
        #expect(all.nodes.map(\.id) == [original, invite, other, lonely, logShot])
        #expect(all.nodes.last?.copies.map(\.id) == [logCopy])
        #expect(DOTWriter.dot(all).contains("  n\(lonely) [label=\"terminal.png\""))
        let json = try #require(try JSONSerialization.jsonObject(with: MindMapUseCases.render(all, format: .json)) as? [String: Any])
        let first = try #require((json["nodes"] as? [[String: Any]])?.first)
        #expect((first["copies"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["/s/chat.jpg", "/s/chat-crop.png"])

        // A rebuild measures the same resemblance.
        _ = try MindMapUseCases.rebuild(library)
        #expect(try library.database.edges(minimumScore: 0) == stored)
    }

    /// Sixteen groups of 2 to 9 screenshots, chains and stars: the SVG lays each group out on its
    /// own and packs them into a picture near a screen's shape (side by side they made a strip
    /// 6 times as wide as high), with no two screenshots' boxes overlapping and every
    /// connection's label drawn.
    @Test func theSVGPacksGroupsIntoASanePicture() throws {
        var nodes: [MindMap.Node] = [], edges: [MindMap.Edge] = []
        var next: Int64 = 1
        for group in 0..<16 {
            let size = [2, 3, 3, 4, 5, 6, 9][group % 7]
            let ids = (0..<Int64(size)).map { next + $0 }
            next += Int64(size)
            nodes += ids.map { MindMap.Node(id: $0, path: "/s/screenshot-\($0).png", entities: ["person: Priya Nair", "phone: (415) 555-0132"]) }
            for (a, b) in zip(ids, ids.dropFirst()) {
                let from = group.isMultiple(of: 2) ? ids[0] : a // stars and chains
                edges.append(MindMap.Edge(a: from, b: b, score: 0.9, via: ["phone: +1415555\(group)"]))
            }
        }
        let svg = String(decoding: try MindMapUseCases.render(MindMap(nodes: nodes, edges: edges), format: .svg), as: UTF8.self)
        let size = try #require(svg.firstMatch(of: /<svg width="(\d+)pt" height="(\d+)pt"/))
        let aspect = Double(size.1)! / Double(size.2)!
        #expect(aspect > 0.5 && aspect < 2.2, "\(size.1) x \(size.2) pt")
        // Every label, and a box per screenshot, none over another.
        for group in 0..<16 { #expect(svg.contains("phone: +1415555\(group)\n") || svg.contains(">phone: +1415555\(group)<")) }
        var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
        for node in svg.matches(of: /<g id="node\d+" class="node">[\s\S]*?<path[^>]* d="([^"]+)"/) {
            let numbers = String(node.1).split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
            let xs = stride(from: 0, to: numbers.count - 1, by: 2).map { numbers[$0] }
            let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
            boxes.append((xs.min()!, ys.min()!, xs.max()!, ys.max()!))
        }
        #expect(boxes.count == nodes.count)
        var overlaps = 0
        for i in boxes.indices { for j in boxes.indices where i < j {
            let (a, b) = (boxes[i], boxes[j])
            if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 { overlaps += 1 }
        } }
        #expect(overlaps == 0)
    }

    @Test func outputPathsAreChecked() throws {
        #expect(throws: MindMapError.self) { try MindMapUseCases.write(Data("x".utf8), to: root.path) }
        #expect(throws: MindMapError.self) { try MindMapUseCases.write(Data("x".utf8), to: root.path + "/missing/map.dot") }
        try MindMapUseCases.write(Data("x".utf8), to: root.path + "/map.dot")
        #expect(FileManager.default.contents(atPath: root.path + "/map.dot") == Data("x".utf8))
    }
}
