import LensCore

/// The entities of every screenshot, indexed so that a new screenshot finds the ones it shares
/// without comparing against all of them.
///
/// Exact types (phone, e-mail, url) are a hash lookup. Names go through a bigram index: two
/// strings within edit distance k share at least max(|a|,|b|) + 1 − 2k padded bigrams (the q-gram
/// lemma), so probing only the query's ~2k + 1 rarest bigrams finds every pair the rule accepts
/// (prefix filtering), and the Levenshtein check then runs on those few. A second bigram index over
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
        var candidates = Self.candidates(of: key, postings: nameGrams, text: { self.personKeys[$0] })
        if let surname = Self.surname(key) {
            candidates.formUnion(Self.candidates(of: surname, postings: surnameGrams, text: { Self.surname(self.personKeys[$0]) ?? "" }))
        }
        return candidates.sorted().compactMap { id in
            ConnectionRules.similarity(key, personKeys[id], type: .person).map { (personKeys[id], $0, personScreenshots[id]) }
        }
    }

    /// Ids whose string (`text(id)`) may be within the person threshold of `query`.
    ///
    /// Prefix filtering: a pair within the threshold shares at least max(|a|,|b|) + 1 − 2k padded
    /// bigrams (k the edit budget at the longer length), so at most a known number of the query's
    /// bigrams are unshared, and any one more than that of them holds a shared one. Probing only that many of the rarest bigrams finds every such pair while
    /// reading short posting lists; the similarity rule then checks each candidate.
    private static func candidates(of query: String, postings: [String: [(id: Int, count: Int)]],
                                   text: (Int) -> String) -> Set<Int> {
        // Each repeated bigram counts once per occurrence: "a#1", "a#2" make a set of a multiset.
        var grams: [(gram: String, postings: [(id: Int, count: Int)], occurrence: Int)] = []
        for (gram, count) in bigrams(query) {
            for occurrence in 1...count { grams.append((gram, postings[gram] ?? [], occurrence)) }
        }
        let queryLength = query.unicodeScalars.count
        func budget(_ length: Int) -> Int { Int((1 - ConnectionRules.personSimilarity) * Double(length) + 1e-9) }
        // Unshared query bigrams are at most 2·k(m) − (m − |query|) for the longer length m; a
        // longer candidate may have a larger budget, so take the worst allowed m.
        var worst = 2 * budget(queryLength)
        var longer = queryLength + 1
        while longer - queryLength <= budget(longer) {
            worst = max(worst, 2 * budget(longer) - (longer - queryLength))
            longer += 1
        }
        let probe = min(grams.count, worst + 1)
        grams.sort { ($0.postings.count, $0.gram, $0.occurrence) < ($1.postings.count, $1.gram, $1.occurrence) }
        var result = Set<Int>()
        for gram in grams.prefix(probe) {
            for posting in gram.postings where posting.count >= gram.occurrence {
                let length = text(posting.id).unicodeScalars.count
                if abs(queryLength - length) <= budget(max(queryLength, length)) { result.insert(posting.id) }
            }
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
