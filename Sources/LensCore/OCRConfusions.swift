/// How OCR misreads words, so that a word typed correctly still finds the screenshot whose text
/// Tesseract read as `lnvoice`: the spellings OCR plausibly produced for a word, nearest first.
///
/// Generated on the query side only and looked up in the index's vocabulary (a primary-key probe
/// each), so no index of misspellings is stored. The confusions are the ones OCR makes on UI text
/// (`rn`/`m`, `l`/`1`/`I`, `0`/`O`, `5`/`S`, `cl`/`d`, `vv`/`w`, `e`/`c`, `u`/`v`), then a letter
/// dropped or doubled.
public enum OCRConfusions {
    /// Pairs of folded spellings OCR mistakes for each other (both directions are tried).
    static let pairs: [(String, String)] = [
        ("m", "rn"), ("w", "vv"), ("d", "cl"), ("l", "1"), ("i", "l"), ("i", "1"), ("o", "0"), ("s", "5"),
        ("e", "c"), ("u", "v"), ("b", "6"), ("g", "9"), ("z", "2"), ("h", "b"), ("n", "h"), ("a", "o"),
    ]

    /// Spellings one confusion, then one dropped or doubled letter, away from `word` (folded), without
    /// `word` itself; none for words under three characters (too many real words lie that close).
    public static func variants(of word: String) -> [String] {
        let characters = Array(word)
        guard characters.count >= 3 else { return [] }
        var seen: Set<String> = [word]
        var result: [String] = []
        func add(_ candidate: String) {
            if seen.insert(candidate).inserted { result.append(candidate) }
        }
        for (a, b) in pairs {
            for (from, to) in [(a, b), (b, a)] {
                var searchStart = word.startIndex
                while let range = word.range(of: from, range: searchStart..<word.endIndex) {
                    add(word.replacingCharacters(in: range, with: to))
                    searchStart = range.upperBound
                }
            }
        }
        if characters.count >= 4 {
            for index in characters.indices {
                var dropped = characters
                dropped.remove(at: index)
                add(String(dropped))
            }
            for index in characters.indices where characters[index].isLetter {
                var doubled = characters
                doubled.insert(characters[index], at: index)
                add(String(doubled))
            }
        }
        return result
    }
}
