import LensCore

/// The entities of every screenshot, indexed so that a new screenshot finds the ones it shares
/// without comparing against all of them.
///
/// Exact types (phone, e-mail, url) are a hash lookup. Names are found through a bigram count
/// filter: two strings within edit distance k share at least max(|a|,|b|) + 1 − 2k padded bigrams
/// (the q-gram lemma), so counting shared bigrams through an inverted index yields every pair the
/// rule accepts, and the Levenshtein check then runs on those few. A second bigram index over
/// surnames finds the pairs the initial rule accepts (`K. Nowakowska`). Hand-written: no library
/// here offers an approximate-string index.
public struct EntityIndex: Sendable {
    /// Screenshots by (type, key) for the exact types.
    private var exact: [EntityType: [String: Set<Int64>]] = [:]
    /// Distinct person keys, their screenshots, and bigram postings over the whole key and the surname.
    private var personKeys: [String] = []
    private var personIDs: [String: Int] = [:]
    private var personScreenshots: [Set<Int64>] = []
    private var nameGrams: [String: [(id: Int, count: Int)]] = [:]
    private var surnameGrams: [String: [(id: Int, count: Int)]] = [:]

    public init() {}

    /// Adds one entity of `screenshot` (its normalized value; the key is derived here).
    public mutating func insert(screenshot: Int64, type: EntityType, normalized: String) {
        guard ConnectionRules.linkingTypes.contains(type) else { return }
        let key = ConnectionRules.key(normalized, type: type)
        guard type == .person else {
            exact[type, default: [:]][key, default: []].insert(screenshot)
            return
        }
        if let id = personIDs[key] {
            personScreenshots[id].insert(screenshot)
            return
        }
        let id = personKeys.count
        personKeys.append(key)
        personIDs[key] = id
        personScreenshots.append([screenshot])
        for (gram, count) in Self.bigrams(key) { nameGrams[gram, default: []].append((id, count)) }
        if let surname = Self.surname(key) {
            for (gram, count) in Self.bigrams(surname) { surnameGrams[gram, default: []].append((id, count)) }
        }
    }

    /// The indexed keys that are the same thing as `normalized` (a `type` entity), with their
    /// similarity and screenshots.
    public func matches(type: EntityType, normalized: String) -> [(key: String, similarity: Double, screenshots: Set<Int64>)] {
        guard ConnectionRules.linkingTypes.contains(type) else { return [] }
        let key = ConnectionRules.key(normalized, type: type)
        guard type == .person else {
            return exact[type]?[key].map { [(key, 1.0, $0)] } ?? []
        }
        var candidates = Self.candidates(of: key, postings: nameGrams, lengths: { self.personKeys[$0] })
        if let surname = Self.surname(key) {
            candidates.formUnion(Self.candidates(of: surname, postings: surnameGrams, lengths: { Self.surname(self.personKeys[$0]) ?? "" }))
        }
        return candidates.sorted().compactMap { id in
            ConnectionRules.similarity(key, personKeys[id], type: .person).map { (personKeys[id], $0, personScreenshots[id]) }
        }
    }

    /// Ids whose string (`text(id)`) may be within the person threshold of `query`: the length
    /// filter and the bigram count filter, both exact bounds, so nothing the rule accepts is lost.
    private static func candidates(of query: String, postings: [String: [(id: Int, count: Int)]],
                                   lengths text: (Int) -> String) -> Set<Int> {
        var shared: [Int: Int] = [:]
        for (gram, count) in bigrams(query) {
            for posting in postings[gram] ?? [] { shared[posting.id, default: 0] += min(count, posting.count) }
        }
        let queryLength = query.unicodeScalars.count
        var result = Set<Int>()
        for (id, common) in shared {
            let length = text(id).unicodeScalars.count
            let longest = max(queryLength, length)
            let k = Int((1 - ConnectionRules.personSimilarity) * Double(longest) + 1e-9)
            if abs(queryLength - length) <= k, common >= longest + 1 - 2 * k { result.insert(id) }
        }
        return result
    }

    /// Padded bigrams with their counts (`^a`, `ab`, `b$`).
    static func bigrams(_ text: String) -> [String: Int] {
        let scalars = ["\u{2}"] + text.unicodeScalars.map { String($0) } + ["\u{3}"]
        var counts: [String: Int] = [:]
        for index in 0..<(scalars.count - 1) { counts[scalars[index] + scalars[index + 1], default: 0] += 1 }
        return counts
    }

    /// Everything after the first word of a name of two or more words.
    static func surname(_ key: String) -> String? {
        let words = key.split(separator: " ")
        return words.count >= 2 ? words.dropFirst().joined(separator: " ") : nil
    }
}
