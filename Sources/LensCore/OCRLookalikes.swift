import Foundation

/// How Tesseract's English model reads Greek and Cyrillic letters: Lens OCRs with `eng` only, so a
/// Russian `Пароль:` reaches the secret rules as `Naponb:`, `naponb:` or `Tlapomb:`, a Greek
/// `κωδικός` as `Kw61K6¢` or `KWOLKOG`. The readings are measured, not guessed: the data file
/// `Assets/ocr-lookalikes.tsv` is written by `Tests/SecretCases/lookalikes.py table`, which renders
/// words in those scripts in the rendered screens' fonts, sizes and themes, OCRs them with Lens's own
/// settings and aligns each reading with its word (each reading kept was seen at least three times).
///
/// ``pattern(for:)`` turns a word into a regular expression that matches what OCR makes of it, so a
/// cue word in those scripts needs no hand-written spelling of its misreadings (rounds 145 and 146 had
/// added `Naponb` and `Maponb` one by one; lower-case `naponb`, `NAPOJIb` and every Greek reading
/// were still missed).
enum OCRLookalikes {
    /// Each measured letter's readings, most often first, its capital's and small letter's together:
    /// which of the two OCR takes a letter for depends on the font more than on the letter (`п` is
    /// read `N` as often as `n`). (Greek's final `ς` shares `Σ` with `σ`.)
    static let readings: [Character: [String]] = {
        var measured: [Character: [String: Int]] = [:]
        for line in EmbeddedAssets.text(of: "ocr-lookalikes.tsv").split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t")
            guard columns.count == 3, let letter = columns[0].first, let total = Int(columns[1]) else { continue }
            for reading in columns[2].split(separator: " ") {
                // (A reading of one letter, or none, in under 1 % of the letter's is left out: the
                // alignment's slips, such as `κ` as `o`, are that rare, and each lets far more words
                // match: `koooge`, a name, read as `κωδικός` when it was in. Two glyphs or more,
                // `ς` as `cg`, match little else; nor does one digit or symbol, which no word of
                // another language has inside it: `δ` as `8`, 4 of 896, kept since round 148.)
                guard let colon = reading.lastIndex(of: ":"), let count = Int(reading[reading.index(after: colon)...]) else { continue }
                let glyphs = reading[..<colon]
                if glyphs.count <= 1, count * 100 < total, glyphs == dropped || glyphs.allSatisfy(\.isLetter) { continue }
                measured[letter, default: [:]][String(glyphs), default: 0] += count
            }
        }
        var merged: [Character: [String: Int]] = [:]
        for letter in measured.keys {
            let forms = Set([letter, Character(letter.lowercased()), Character(letter.uppercased())])
            for form in forms {
                for (reading, count) in measured[form] ?? [:] { merged[letter, default: [:]][reading, default: 0] += count }
            }
        }
        return merged.mapValues { readings in readings.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key) }
    }()

    /// A pattern that matches `word` itself and what OCR reads for it, letter by letter: each
    /// measured letter as any of its readings, the longest tried first, every other character as
    /// itself. Case is ignored (it is `(?i:…)`): the readings were seen in capital and small letters
    /// by font (`ς` as `CG` and as `cg`, `π` as `T` and as `t`). A letter with an accent may be read
    /// as any glyph (the `eng` model knows few of them, as ``OCRConfusions`` says of Latin ones: `ό`
    /// was read `é` at sizes the table's screens did not have). One letter at most may be missing:
    /// one OCR was seen to drop (`∅` in the table: `Пароль` read `Napon`) or an accented one; two
    /// would leave too short a word (`пароль` as `Mapo`, a dish). Its cost is bounded by the word:
    /// one group per letter in each of at most one alternative per letter, no repetition.
    static func pattern(for word: String) -> String {
        let letters = Array(word)
        let groups = letters.map { letter -> String in
            let measured = readings[letter] ?? []
            let forms = [String(letter), letter.lowercased(), letter.uppercased()]
            let alternatives = Set(forms + measured.filter { $0 != dropped }).sorted { ($0.count, $1) > ($1.count, $0) }
            let any = isAccented(letter) ? ["[^\\s]"] : []
            return alternatives.count == 1 && any.isEmpty ? escaped(alternatives[0]) : "(?:" + (alternatives.map(escaped) + any).joined(separator: "|") + ")"
        }
        let missable = letters.indices.filter { readings[letters[$0]]?.contains(dropped) == true || isAccented(letters[$0]) }
        let whole = [groups.joined()] + missable.map { missing in groups.indices.filter { $0 != missing }.map { groups[$0] }.joined() }
        return "(?i:" + whole.joined(separator: "|") + ")"
    }

    /// Whether `letter` is a letter with an accent (one that decomposes into a letter and a mark).
    static func isAccented(_ letter: Character) -> Bool {
        letter.isLetter && String(letter).decomposedStringWithCanonicalMapping.unicodeScalars.count > 1
    }

    /// The table's mark for a letter OCR did not read at all.
    static let dropped = "∅"

    /// Small-letter strings of which every reading of `word` holds one: what OCR reads for three
    /// letters in a row, from the place in the word where that gives the fewest strings, so a caller
    /// can tell cheaply that a text cannot hold the word before trying ``pattern(for:)`` on it. A
    /// letter OCR may drop takes the next one's place (`κω` then `ι` when `δ` is not read); a run
    /// never goes through a letter with an accent (it may be read as any glyph). The word's own
    /// letters, as written, give one more. (A word with no such run, `είναι`, has itself alone: a
    /// caller tries its pattern only after a word that has anchors.)
    static func anchors(for word: String) -> [String] {
        let letters = Array(word)
        // The strings read from `index` on until `count` more letters were read; nil when the run
        // meets an accented letter or the word's end first.
        func reads(from index: Int, count: Int) -> Set<String>? {
            guard count > 0 else { return [""] }
            guard index < letters.count, !isAccented(letters[index]) else { return nil }
            let options = readings[letters[index]] ?? [String(letters[index])]
            var found: Set<String> = []
            for option in options {
                let rest = option == dropped ? reads(from: index + 1, count: count) : reads(from: index + 1, count: count - 1)
                guard let rest else { return nil }
                for tail in rest { found.insert((option == dropped ? "" : option.lowercased()) + tail) }
            }
            return found
        }
        let runs = letters.indices.compactMap { start -> Set<String>? in
            guard let run = reads(from: start, count: 3), start + 3 <= letters.count else { return nil }
            return run.union([String(letters[start..<(start + 3)]).lowercased()])
        }
        return (runs.min { $0.count < $1.count } ?? [word.lowercased()]).sorted()
    }

    /// `text` with the characters regular expressions treat as operators escaped.
    static func escaped(_ text: String) -> String {
        text.map { "\\^$.|?*+()[]{}/".contains($0) ? "\\\($0)" : String($0) }.joined()
    }
}
