/// Levenshtein distance, the measure `LensGraph` uses to tell "the same entity written slightly
/// differently" (`Jon Smith` / `John Smith`) from different ones.
///
/// Hand-written: no package in the mirror provides it, and it is a few lines. Distances are over
/// Unicode scalars (so `é` is one edit, not two UTF-8 bytes), and a `limit` bounds the work to a
/// diagonal band (Ukkonen): callers only ask "within k?", which costs O(k · n) instead of O(n · m).
public enum EditDistance {
    /// The Levenshtein distance between `a` and `b`, or `nil` when it exceeds `limit`.
    public static func levenshtein(_ a: String, _ b: String, limit: Int = .max) -> Int? {
        levenshtein(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit)
    }

    static func levenshtein(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int? {
        // Make `a` the shorter: the band is measured along it.
        if a.count > b.count { return levenshtein(b, a, limit: limit) }
        let (n, m) = (a.count, b.count)
        guard m - n <= limit else { return nil }
        if n == 0 { return m }
        let band = min(limit, m)
        let infinity = Int.max / 2
        var previous = [Int](repeating: infinity, count: m + 1)
        var current = [Int](repeating: infinity, count: m + 1)
        for j in 0...min(m, band) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - band), high = min(m, i + band)
            current[low - 1] = low == 1 ? i : infinity
            var rowMinimum = current[low - 1]
            for j in low...high {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                let value = min(substitution, previous[j] + 1, current[j - 1] + 1)
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if high < m { current[high + 1] = infinity }
            guard rowMinimum <= limit else { return nil }
            swap(&previous, &current)
        }
        return previous[m] <= limit ? previous[m] : nil
    }

    /// The similarity of `a` and `b` when it is at least `threshold`, else `nil`; only the band
    /// the threshold allows is computed.
    public static func similarity(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], atLeast threshold: Double) -> Double? {
        let longest = max(a.count, b.count)
        guard longest > 0 else { return 1 }
        let limit = Int((1 - threshold) * Double(longest) + 1e-6)
        guard let distance = levenshtein(a, b, limit: limit) else { return nil }
        let similarity = 1 - Double(distance) / Double(longest)
        return similarity >= threshold ? similarity : nil
    }

    /// 1 for equal strings, falling to 0 as the distance reaches the longer length.
    public static func similarity(_ a: String, _ b: String) -> Double {
        let (x, y) = (Array(a.unicodeScalars), Array(b.unicodeScalars))
        let longest = max(x.count, y.count)
        guard longest > 0 else { return 1 }
        let distance = levenshtein(x, y, limit: longest) ?? longest
        return 1 - Double(distance) / Double(longest)
    }
}
