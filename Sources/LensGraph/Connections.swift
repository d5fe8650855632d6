import LensCore

/// One entity two screenshots share, as each of them shows it.
public struct SharedEntity: Sendable, Equatable, Hashable, Codable {
    public var type: String
    public var a: String
    public var b: String
    public var similarity: Double

    public init(type: String, a: String, b: String, similarity: Double) {
        self.type = type
        self.a = a
        self.b = b
        self.similarity = similarity
    }
}

/// An edge of the mind map: two screenshots (a < b) that share entities.
public struct Connection: Sendable, Equatable {
    public var a: Int64, b: Int64
    /// 1 − Π(1 − weight × similarity) over the shared entities: one shared phone number is 1,
    /// one slightly different name 0.9 × 0.9, and every further shared entity adds to it.
    public var score: Double
    public var via: [SharedEntity]
    /// How much of the smaller screenshot's text the other holds (`TextResemblance`), when known.
    public var resemblance: Double?

    public init(a: Int64, b: Int64, score: Double, via: [SharedEntity], resemblance: Double? = nil) {
        self.a = a
        self.b = b
        self.score = score
        self.via = via
        self.resemblance = resemblance
    }
}

/// The entities of one screenshot, as stored.
public struct ScreenshotEntities: Sendable {
    public var id: Int64
    public var entities: [(type: EntityType, normalized: String)]

    public init(id: Int64, entities: [(type: EntityType, normalized: String)]) {
        self.id = id
        self.entities = entities
    }
}

public enum ConnectionFinder {
    /// How many screenshots holding one entity a new screenshot is linked to: the most recent.
    ///
    /// An e-mail address or a name on thousands of screenshots (a maintainer in every changelog,
    /// a colleague in every chat) would otherwise link each new one to all of them: edges growing
    /// with the square of the library (1.1 million among 10,000 pieces of Debian changelogs; 0.15 million with this bound).
    /// Linked to the 16 before it, each holder still reaches every other through the chain, the
    /// mind map still draws the group, and the entity's own list (`lens search --entity`) still
    /// has them all; edges grow linearly.
    public static let fanOut = 16

    /// The connections of `screenshot` to the screenshots already in `index` (not itself): for
    /// each entity, to the ``fanOut`` nearest holders before it (and after it, if any).
    public static func connections(of screenshot: ScreenshotEntities, in index: EntityIndex, fanOut: Int = fanOut) -> [Connection] {
        var via: [Int64: Set<SharedEntity>] = [:]
        for (type, normalized) in screenshot.entities {
            let own = ConnectionRules.key(normalized, type: type)
            for match in index.matches(type: type, normalized: normalized) {
                // Sorted by id: the nearest holders before it (and after it, when an older
                // screenshot is connected again).
                let holders = match.screenshots
                var split = holders.count
                while split > 0, holders[split - 1] >= screenshot.id { split -= 1 }
                var after = split
                while after < holders.count, holders[after] == screenshot.id { after += 1 }
                let nearest = holders[(split - min(split, fanOut))..<split] + holders[after..<(after + min(holders.count - after, fanOut))]
                for other in nearest {
                    let (a, b) = screenshot.id < other ? (own, match.key) : (match.key, own)
                    via[other, default: []].insert(SharedEntity(type: type.rawValue, a: a, b: b, similarity: match.similarity))
                }
            }
        }
        return via.map { other, shared in makeConnection(screenshot.id, other, shared) }.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// Every connection among `screenshots`, through the index: each screenshot is compared with
    /// those before it, as ingestion does.
    public static func rebuild(_ screenshots: [ScreenshotEntities], fanOut: Int = fanOut) -> [Connection] {
        var index = EntityIndex()
        var found: [Connection] = []
        for screenshot in screenshots {
            found += connections(of: screenshot, in: index, fanOut: fanOut)
            for (type, normalized) in screenshot.entities { index.insert(screenshot: screenshot.id, type: type, normalized: normalized) }
        }
        return found.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    /// Every connection by comparing all pairs of entities: the reference the index must equal.
    public static func bruteForce(_ screenshots: [ScreenshotEntities]) -> [Connection] {
        // Keys are derived once per entity; every pair of same-type entities is then compared.
        let keyed = screenshots.map { screenshot in
            screenshot.entities.filter { ConnectionRules.linkingTypes.contains($0.type) }
                .map { (type: $0.type, key: ConnectionRules.key($0.normalized, type: $0.type)) }
        }
        var found: [Connection] = []
        for i in screenshots.indices {
            for j in (i + 1)..<screenshots.count where screenshots[j].id != screenshots[i].id {
                let (first, second) = (screenshots[i].id, screenshots[j].id)
                var shared = Set<SharedEntity>()
                for (typeA, keyA) in keyed[i] {
                    for (typeB, keyB) in keyed[j] where typeB == typeA {
                        guard let similarity = ConnectionRules.similarity(keyA, keyB, type: typeA) else { continue }
                        let (a, b) = first < second ? (keyA, keyB) : (keyB, keyA)
                        shared.insert(SharedEntity(type: typeA.rawValue, a: a, b: b, similarity: similarity))
                    }
                }
                if !shared.isEmpty { found.append(makeConnection(first, second, shared)) }
            }
        }
        return found.sorted { ($0.a, $0.b) < ($1.a, $1.b) }
    }

    static func makeConnection(_ x: Int64, _ y: Int64, _ shared: Set<SharedEntity>) -> Connection {
        let via = shared.sorted { ($0.type, $0.a, $0.b) < ($1.type, $1.a, $1.b) }
        let missing = via.reduce(1.0) { product, entity in
            product * (1 - ConnectionRules.weight(of: EntityType(rawValue: entity.type) ?? .date) * entity.similarity)
        }
        return Connection(a: min(x, y), b: max(x, y), score: 1 - missing, via: via)
    }
}
