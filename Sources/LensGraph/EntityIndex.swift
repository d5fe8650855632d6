import LensCore

/// The entities of every screenshot, indexed so that a new screenshot finds the ones it shares
/// without comparing against all of them.
///
/// Exact types (phone, e-mail, url) are a hash lookup. Names go through a `SegmentIndex` over
/// surnames (one-word names: over the word), split by the first letter, since the person rule
/// only accepts pairs that agree on both (see `ConnectionRules`); the rule then checks each
/// candidate.
public struct EntityIndex: Sendable {
    /// Screenshots by (type, key) for the exact types, in increasing id order (ingestion and
    /// rebuilds insert in that order, so an insert is an append).
    private var exact: [EntityType: [String: [Int64]]] = [:]
    /// Distinct person keys and their screenshots.
    private var personKeys: [String] = []
    private var personNames: [PersonName] = []
    private var personIDs: [String: Int] = [:]
    private var personScreenshots: [[Int64]] = []
    private var names = SegmentIndex()

    public init() {}

    /// Adds one entity of `screenshot` (its normalized value; the key is derived here).
    public mutating func insert(screenshot: Int64, type: EntityType, normalized: String) {
        guard ConnectionRules.linkingTypes.contains(type) else { return }
        let key = ConnectionRules.key(normalized, type: type)
        guard type == .person else {
            Self.insertSorted(screenshot, into: &exact[type, default: [:]][key, default: []])
            return
        }
        if let id = personIDs[key] {
            Self.insertSorted(screenshot, into: &personScreenshots[id])
            return
        }
        let id = personKeys.count
        let name = PersonName(key)
        personKeys.append(key)
        personNames.append(name)
        personIDs[key] = id
        personScreenshots.append([screenshot])
        names.insert(id, Self.indexed(name), partition: Self.partition(name))
    }

    /// Keeps `ids` sorted and without repeats; appending is the common case.
    private static func insertSorted(_ id: Int64, into ids: inout [Int64]) {
        guard let last = ids.last, id <= last else { return ids.append(id) }
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] < id { low = mid + 1 } else { high = mid }
        }
        if low < ids.count, ids[low] == id { return }
        ids.insert(id, at: low)
    }

    /// The indexed keys that are the same thing as `normalized` (a `type` entity), with their
    /// similarity and screenshots (in increasing id order).
    public func matches(type: EntityType, normalized: String) -> [(key: String, similarity: Double, screenshots: [Int64])] {
        guard ConnectionRules.linkingTypes.contains(type) else { return [] }
        let key = ConnectionRules.key(normalized, type: type)
        guard type == .person else {
            return exact[type]?[key].map { [(key, 1.0, $0)] } ?? []
        }
        let name = PersonName(key)
        var candidates = Set<Int>()
        names.addCandidates(of: Self.indexed(name), partition: Self.partition(name), to: &candidates)
        return candidates.sorted().compactMap { id in
            ConnectionRules.similarity(name, personNames[id]).map { (personKeys[id], $0, personScreenshots[id]) }
        }
    }

    /// What a name is found by: its surname, or the word of a one-word name.
    private static func indexed(_ name: PersonName) -> [Unicode.Scalar] { name.surname ?? name.whole }

    /// Names are only compared within the same first letter and the same kind (one word or more).
    private static func partition(_ name: PersonName) -> UInt64 {
        UInt64(name.letter?.value ?? 0) << 1 | (name.surname == nil ? 1 : 0)
    }
}

/// An index of short strings that finds every indexed string within the person threshold of a
/// query (edit distance ≤ 20 % of the longer length, `ConnectionRules.personEdits`), by
/// partitions (the PassJoin idea).
///
/// Why it is exact: a string of length l may only pair with strings up to l / 0.8 long, so with
/// at most k = personEdits(l / 0.8) edits. It is cut into k + 1 segments; k edits leave at least
/// one segment intact, and the edits before it shift it by at most k. So a query probes, for each
/// length the threshold allows, each segment's place ± k: a few dozen hash lookups of 2–4
/// letter substrings, which are far more selective than single q-grams. Hand-written: no library
/// here offers an approximate-string index.
struct SegmentIndex: Sendable {
    private struct Slot: Hashable {
        var partition: UInt64
        var length: Int32
        var segment: Int32
        var text: UInt64
    }

    private var postings: [Slot: [Int32]] = [:]

    /// The segments (start, length) a string of `length` is cut into.
    static func segments(ofLength length: Int) -> [(start: Int, count: Int)] {
        let longestPartner = Int(Double(length) / ConnectionRules.personSimilarity + 1e-6)
        let pieces = min(length, ConnectionRules.personEdits(longestPartner) + 1)
        guard pieces > 0 else { return [] }
        // Even pieces, the longer ones last.
        let short = length / pieces, longer = length % pieces
        var start = 0
        return (0..<pieces).map { index in
            let count = short + (index >= pieces - longer ? 1 : 0)
            defer { start += count }
            return (start, count)
        }
    }

    mutating func insert(_ id: Int, _ text: [Unicode.Scalar], partition: UInt64) {
        for (index, segment) in Self.segments(ofLength: text.count).enumerated() {
            let slot = Slot(partition: partition, length: Int32(text.count), segment: Int32(index),
                            text: Self.hash(text[segment.start..<(segment.start + segment.count)]))
            postings[slot, default: []].append(Int32(id))
        }
    }

    func addCandidates(of text: [Unicode.Scalar], partition: UInt64, to result: inout Set<Int>) {
        let length = text.count
        // The lengths a partner may have: |l − m| ≤ personEdits(max(l, m)).
        var shortest = length
        while shortest > 1, length - (shortest - 1) <= ConnectionRules.personEdits(length) { shortest -= 1 }
        var longest = length
        while (longest + 1) - length <= ConnectionRules.personEdits(longest + 1) { longest += 1 }
        for other in shortest...longest {
            let shift = ConnectionRules.personEdits(max(other, length))
            for (index, segment) in Self.segments(ofLength: other).enumerated() {
                let first = max(0, segment.start - shift), last = min(length - segment.count, segment.start + shift)
                guard first <= last else { continue }
                for start in first...last {
                    let slot = Slot(partition: partition, length: Int32(other), segment: Int32(index),
                                    text: Self.hash(text[start..<(start + segment.count)]))
                    for id in postings[slot] ?? [] { result.insert(Int(id)) }
                }
            }
        }
    }

    /// FNV-1a over the scalars: a collision only adds a candidate, which the caller rejects.
    static func hash(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for scalar in scalars { hash = (hash ^ UInt64(scalar.value)) &* 0x100_0000_01b3 }
        return hash
    }
}
