/// How OCR misreads words, so that a word typed correctly still finds the screenshot whose text
/// Tesseract read as `lnvoice`: the spellings OCR plausibly produced for a word, nearest first.
///
/// Generated on the query side only and looked up in the index's vocabulary (a primary-key probe
/// each), so no index of misspellings is stored. The confusions are the ones OCR makes on UI text
/// (`rn`/`m`, `l`/`1`/`I`, `0`/`O`, `5`/`S`, `cl`/`d`, `vv`/`w`, `e`/`c`, `u`/`v`), then two
/// neighbouring letters swapped (a typing slip in the query: `invioce`), a letter dropped or doubled, then (for longer words, where few real words lie that close) any one
/// character added, such as an icon read as a glyph glued to the word (`Abstract4`), or changed.
/// A letter typed with a diacritic may come out as any letter or none: the `eng` model knows few
/// of them (`Petrović` → `Petrovié`, `Szabó` → `Szabé`, `Sørensen` → `Sgrensen`).
public enum OCRConfusions {
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")

    /// Pairs of folded spellings OCR mistakes for each other (both directions are tried).
    static let pairs: [(String, String)] = [
        ("m", "rn"), ("w", "vv"), ("d", "cl"), ("l", "1"), ("i", "l"), ("i", "1"), ("o", "0"), ("s", "5"),
        ("e", "c"), ("u", "v"), ("b", "6"), ("g", "9"), ("z", "2"), ("h", "b"), ("n", "h"), ("a", "o"),
    ]

    /// The characters OCR reads for `character` one for one among the ``pairs`` whose sides are a
    /// letter and a digit (`s` and `5`, `g` and `9`), both ways; empty when none.
    /// Pairs of two letters (`e`/`c`, `h`/`b`) are left out: what they make of a word is another word.
    public static func singleGlyphPartners(of character: Character) -> String {
        let folded = Character(character.lowercased())
        return String(pairs.compactMap { a, b -> Character? in
            guard a.count == 1, b.count == 1, let x = a.first, let y = b.first, x.isNumber != y.isNumber else { return nil }
            return x == folded ? y : y == folded ? x : nil
        })
    }

    /// Spellings one edit away from `word` (folded), nearest first: a confusion, two neighbours
    /// swapped, a dropped or doubled letter, then for words of five or more characters one character added, and of seven or more
    /// one changed. Never `word` itself, and nothing for words under three characters (too many
    /// real words lie that close).
    /// `typed`: the word as typed, when its accents are known; a letter that had one may be any
    /// letter, or missing, in the text.
    /// `limit`: at most this many spellings, the nearest; a word longer than
    /// ``SearchQuery/longestExpandableWord`` has none (its variants grow with its length, and
    /// each is a lookup: a 3,200-character word made 230,000 of them).
    public static func variants(of word: String, typed: String? = nil, limit: Int = 2_000) -> [String] {
        let characters = Array(word)
        guard characters.count >= 3, word.unicodeScalars.count <= SearchQuery.longestExpandableWord, limit > 0 else { return [] }
        var seen: Set<String> = [word]
        var result: [String] = []
        var isFull: Bool { result.count >= limit }
        func add(_ candidate: String) {
            if !isFull, seen.insert(candidate).inserted { result.append(candidate) }
        }
        if let typed = typed.map({ Array($0.lowercased()) }), typed.count == characters.count {
            for index in characters.indices where typed[index] != characters[index] && characters[index].isLetter {
                for glyph in alphabet where glyph != characters[index] {
                    var changed = characters
                    changed[index] = glyph
                    add(String(changed))
                }
                var dropped = characters
                dropped.remove(at: index)
                add(String(dropped))
            }
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
        // Two neighbours swapped, the commonest typing slip (`invioce`, `Nowakowksa`): a
        // Levenshtein distance of 2, which nothing below reaches.
        if characters.count >= 4 {
            for index in characters.indices.dropLast() where characters[index] != characters[index + 1] {
                var swapped = characters
                swapped.swapAt(index, index + 1)
                add(String(swapped))
            }
        }
        if characters.count >= 4, !isFull {
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
        if characters.count >= 5, !isFull {
            for index in 0...characters.count where !isFull {
                for glyph in alphabet {
                    var added = characters
                    added.insert(glyph, at: index)
                    add(String(added))
                }
            }
        }
        if characters.count >= 7, !isFull {
            for index in characters.indices where !isFull {
                for glyph in alphabet where glyph != characters[index] {
                    var changed = characters
                    changed[index] = glyph
                    add(String(changed))
                }
            }
        }
        return result
    }
}
