import LensCore
import LensGraph
import LensTestSupport
import Testing

struct ConnectionRuleTests {
    /// The designed groups of the corpus (`relations.json`): the same thing written three ways.
    @Test(arguments: [
        (EntityType.person, "Jon Smith", "John Smith"), (.person, "Jon Smith", "Jon Smyth"), (.person, "John Smith", "Jon Smyth"),
        (.person, "Katarzyna Nowakowska", "Katarzyna Nowakowski"), (.person, "Katarzyna Nowakowska", "K. Nowakowska"),
        (.person, "José Müller", "Jose Muller"), (.person, "Priya", "Pria"), (.person, "J. Smith", "Joan Smith"),
        (.url, "https://example.org/docs", "https://example.org/docs/"), (.url, "https://example.org/docs", "http://www.example.org/docs"),
        (.phone, "+14155550132", "+14155550132"), (.email, "priya.nair@fabrikam.io", "priya.nair@fabrikam.io"),
    ])
    func theSameThingWrittenDifferentlyConnects(type: EntityType, a: String, b: String) throws {
        let similarity = try #require(ConnectionRules.similarity(ConnectionRules.key(a, type: type), ConnectionRules.key(b, type: type), type: type))
        #expect(similarity > 0.7 && similarity <= 1)
    }

    /// The corpus's hard negatives (similarity ≥ 0.85, yet different things), and other names.
    @Test(arguments: [
        (EntityType.email, "aarav@orchid.flowers", "amara@orchid.flowers"), (.email, "pfernandez@example.org", "afernandez@example.org"),
        (.phone, "+16175550163", "+16175550166"), (.phone, "+15125550192", "+15125550195"),
        (.url, "https://example.org/events/meetup-berlin", "https://example.com/events/meetup-berlin"),
        (.url, "https://example.org/track?order=775120", "https://example.com/track?order=775120"),
        (.person, "Aarav Gupta", "Ananya Gupta"), (.person, "Priya Nair", "Priya Fernández"), (.person, "K. Nowakowska", "M. Nowakowska"),
        (.person, "Jon Smith", "Don Smith"), (.person, "Priya", "Priya Nair"), (.person, "J. Smith", "Smith"),
        (.date, "2024-03-05", "2024-03-05"), (.money, "12.50 USD", "12.50 USD"),
    ])
    func differentThingsDoNotConnect(type: EntityType, a: String, b: String) {
        let keyA = ConnectionRules.key(a, type: type), keyB = ConnectionRules.key(b, type: type)
        let linked = ConnectionRules.linkingTypes.contains(type) && ConnectionRules.similarity(keyA, keyB, type: type) != nil
        #expect(!linked)
    }
}

struct ConnectionIndexTests {
    /// The index finds exactly the edges that comparing every pair finds, with the same scores,
    /// on random libraries full of near-identical names, numbers and addresses.
    @Test(arguments: [1, 2, 3, 4, 5])
    func theIndexFindsWhatBruteForceFinds(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let givens = ["Jon", "John", "Joan", "Don", "Priya", "Pria", "Katarzyna", "K.", "J.", "Aarav", "Amara", "José", "Jose", "Ana", "Anna", ""]
        let surnames = ["Smith", "Smyth", "Smithe", "Nowakowska", "Nowakowski", "Nair", "Naír", "Gupta", "Müller", "Muller", "Mueller"]
        var screenshots: [ScreenshotEntities] = []
        for id in 1...150 {
            var entities: [(type: EntityType, normalized: String)] = []
            for _ in 0..<random.next(upTo: 4) {
                switch random.next(upTo: 5) {
                case 0, 1: entities.append((.person, "\(givens[random.next(upTo: givens.count)]) \(surnames[random.next(upTo: surnames.count)])"))
                case 2: entities.append((.phone, "+1415555\(String(format: "%04d", 130 + random.next(upTo: 8)))"))
                case 3: entities.append((.email, "\(["priya", "pria", "jon"][random.next(upTo: 3)])@example.\(["org", "com"][random.next(upTo: 2)])"))
                default: entities.append((.url, ["https://example.org/docs", "example.org/docs/", "http://www.example.org/docs", "https://example.com/docs"][random.next(upTo: 4)]))
                }
            }
            if random.next(upTo: 5) == 0 { entities.append((.date, "2024-03-05")) }
            screenshots.append(ScreenshotEntities(id: Int64(id), entities: entities))
        }
        // Without a bound on the holders linked, the index finds exactly what brute force finds.
        let reference = ConnectionFinder.bruteForce(screenshots)
        #expect(!reference.isEmpty)
        #expect(ConnectionFinder.rebuild(screenshots, fanOut: .max) == reference)
        // With the bound (entities here are held by up to 40 screenshots): fewer edges, each of
        // them a real one, and the same groups, since each holder is chained to the ones before.
        let bounded = ConnectionFinder.rebuild(screenshots, fanOut: 4)
        #expect(bounded.count < reference.count)
        #expect(Set(bounded.map { [$0.a, $0.b] }).isSubset(of: Set(reference.map { [$0.a, $0.b] })))
        #expect(Self.groups(bounded) == Self.groups(reference))
    }

    /// The connected components, as sets of ids.
    static func groups(_ edges: [Connection]) -> Set<Set<Int64>> {
        var parent: [Int64: Int64] = [:]
        func find(_ x: Int64) -> Int64 {
            var root = x
            while let p = parent[root], p != root { root = p }
            return root
        }
        for edge in edges {
            parent[edge.a] = parent[edge.a] ?? edge.a
            parent[edge.b] = parent[edge.b] ?? edge.b
            parent[find(edge.a)] = find(edge.b)
        }
        return Set(Dictionary(grouping: parent.keys, by: find).values.map(Set.init))
    }

    @Test func scoresCombineSharedEntities() throws {
        let one = ScreenshotEntities(id: 1, entities: [(.phone, "+14155550132"), (.person, "Jon Smith")])
        let two = ScreenshotEntities(id: 2, entities: [(.phone, "+14155550132"), (.person, "John Smith"), (.date, "2024-03-05")])
        let three = ScreenshotEntities(id: 3, entities: [(.person, "Jon Smyth"), (.date, "2024-03-05")])
        let edges = ConnectionFinder.rebuild([one, two, three])
        #expect(edges.map { [$0.a, $0.b] } == [[1, 2], [1, 3], [2, 3]])
        let phoneAndName = try #require(edges.first)
        #expect(phoneAndName.score == 1) // a shared phone number is certain
        #expect(phoneAndName.via.map(\.type) == ["person", "phone"])
        let nameOnly = edges[1]
        #expect(nameOnly.score > 0.75 && nameOnly.score < 0.85) // 0.9 × similarity 0.89
        #expect(nameOnly.via == [SharedEntity(type: "person", a: "jon smith", b: "jon smyth", similarity: nameOnly.via[0].similarity)])
    }
}

struct NearDuplicateTests {
    static let page = "Quarterly report for the northern region: revenue grew while costs fell, and the new warehouse opened on schedule"

    /// Copies keep (almost) every word; crops keep a part of them; other texts of the same kind do not.
    @Test(arguments: [
        (page, page.replacingOccurrences(of: "revenue", with: "reveune"), true), // OCR noise on a re-encoded copy
        (page, String(page.prefix(70)), true), // a crop: every word of the smaller is in the larger
        (page, "Quarterly report for the southern region: revenue fell while costs grew, the old depot closed", false),
        ("Total 12.00 USD Thank you", "Total 12.00 USD Thank you", false), // too few words to tell
    ])
    func copiesAreTold(a: String, b: String, copies: Bool) {
        let resemblance = TextResemblance.containment(TextResemblance.words(in: a), TextResemblance.words(in: b))
        #expect((resemblance >= TextResemblance.nearDuplicateThreshold) == copies, "\(resemblance)")
    }

    @Test func copiesBecomeOneNodeAndTheirEdgesMerge() {
        let edges = [
            MindMap.Edge(a: 1, b: 2, score: 1, via: ["person: priya nair"], resemblance: 0.98),
            MindMap.Edge(a: 2, b: 3, score: 0.9, via: ["person: priya nair"], resemblance: 0.95),
            MindMap.Edge(a: 1, b: 4, score: 0.8, via: ["url: example.org"], resemblance: 0.2),
            MindMap.Edge(a: 3, b: 4, score: 1, via: ["phone: +14155550132"], resemblance: 0.3),
            MindMap.Edge(a: 4, b: 5, score: 1, via: ["email: a@b.org"], isManual: true, note: "hand"),
        ]
        let (merged, copies) = MindMap.mergingNearDuplicates(edges)
        #expect(copies == [1: [2, 3]])
        #expect(merged.map { [$0.a, $0.b] } == [[1, 4], [4, 5]])
        #expect(merged[0].score == 1 && merged[0].via == ["url: example.org", "phone: +14155550132"])
        #expect(merged[1].isManual && merged[1].note == "hand")
    }
}
