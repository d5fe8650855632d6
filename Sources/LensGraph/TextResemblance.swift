/// Whether two connected screenshots are copies of one another (re-encoded, scaled or cropped),
/// judged by their recognized text: the share of the smaller word set found in the larger.
///
/// Containment, not Jaccard, so that a crop (a part of the words) still counts. On the corpus's
/// OCR text the nine duplicate pairs (copies, JPEG q85, crops) have containment ≥ 0.99 and every
/// other pair ≤ 0.65 (two chats of the same app share their chrome), hence 0.9. Screenshots with
/// fewer than 10 distinct words are never called copies: a few words prove nothing.
public enum TextResemblance {
    public static let nearDuplicateThreshold = 0.9
    public static let minimumWords = 10

    /// The distinct words of `text` (letters and digits, 3 or more, case-folded), as sorted
    /// hashes: compact enough to keep for every connected screenshot during a rebuild.
    public static func words(in text: String) -> [UInt64] {
        var hashes = Set<UInt64>()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325, length = 0
        func finish() {
            if length >= 3 { hashes.insert(hash) }
            hash = 0xcbf2_9ce4_8422_2325
            length = 0
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                    hash = (hash ^ UInt64(lower.value)) &* 0x100_0000_01b3
                }
                length += 1
            } else {
                finish()
            }
        }
        finish()
        return hashes.sorted()
    }

    /// Locality-sensitive keys of a word set (MinHash, 8 bands of 4): two screenshots whose
    /// word sets overlap by 90 % share a key with probability > 0.999, by 50 % with about 0.4,
    /// by 30 % with 0.06. Copies are looked for only among screenshots sharing a key, so no text
    /// is compared with every other; containment then decides. Empty below `minimumWords`.
    public static func bands(of words: [UInt64]) -> [Int64] {
        guard words.count >= minimumWords else { return [] }
        var minimums = [UInt64](repeating: .max, count: bandCount * rowsPerBand)
        for word in words {
            for index in minimums.indices {
                let value = mix(word ^ (UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15))
                if value < minimums[index] { minimums[index] = value }
            }
        }
        return (0..<bandCount).map { band in
            var hash = mix(UInt64(band + 1))
            for row in 0..<rowsPerBand { hash = mix(hash ^ minimums[band * rowsPerBand + row]) }
            return stored(hash)
        }
    }

    static let bandCount = 8, rowsPerBand = 4

    /// Band keys with a rank each: one more MinHash per band, by which the screenshots sharing a
    /// key are ordered. Two copies get the same rank with the probability of their Jaccard
    /// similarity (≥ 0.9), so they sit side by side; each screenshot is then compared with its
    /// ``neighbours`` nearest in that order only, and a key shared by thousands of screenshots
    /// (common words of real text) costs thousands of comparisons, not millions.
    public static func rankedBands(of words: [UInt64]) -> [(band: Int64, rank: Int64)] {
        let keys = bands(of: words)
        guard !keys.isEmpty else { return [] }
        return keys.enumerated().map { band, key in
            var minimum = UInt64.max
            let seed = UInt64(bandCount * rowsPerBand + band + 1) &* 0x9E37_79B9_7F4A_7C15
            for word in words {
                let value = mix(word ^ seed)
                if value < minimum { minimum = value }
            }
            return (key, stored(minimum))
        }
    }

    /// The top 32 bits, signed: SQLite stores such an integer in 4 bytes rather than 8, which
    /// makes the band table 30 % smaller (46 → 32 MB at 100,000 screenshots of real text). A key
    /// shared by chance (some 75 pairs among 800,000 keys) only adds a comparison; ranks keep
    /// their order, and copies, which share the whole minimum, their shared rank.
    static func stored(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value) >> 32
    }

    /// How many screenshots on each side, in a band key's rank order, one is compared with.
    public static let neighbours = 3

    /// SplitMix64's finalizer: a fixed permutation, so keys stay the same across runs.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The top 32 bits of each word hash: still sorted, half the memory, and a collision among a
    /// few hundred words of two texts is a 1-in-10-million event.
    public static func compact(_ words: [UInt64]) -> [UInt32] {
        words.map { UInt32(truncatingIfNeeded: $0 >> 32) }
    }

    /// |A ∩ B| / min(|A|, |B|) over two outputs of `words(in:)` (or of `compact`); 0 when either is too small.
    public static func containment<Word: FixedWidthInteger>(_ a: [Word], _ b: [Word]) -> Double {
        guard min(a.count, b.count) >= minimumWords else { return 0 }
        var i = 0, j = 0, shared = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                shared += 1; i += 1; j += 1
            } else if a[i] < b[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return Double(shared) / Double(min(a.count, b.count))
    }
}
