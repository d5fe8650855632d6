import Foundation

/// A small statistical tagger for people's names in running text ("met Sarah Connor at the
/// station"), where no cue such as `From:` says a name follows.
///
/// An averaged perceptron over capitalized tokens, tagging each B (a name starts), I (goes on)
/// or O, left to right with the previous tag as a feature. Features: the word and its
/// neighbours, word shapes (`Xx`, `Xx'Xx`), prefixes and suffixes, membership of the census
/// given-name and surname lists, and line starts. Trained by `scripts/train-name-model.py` on
/// the Broad Twitter Corpus (CC-BY 4.0; Derczynski, Bontcheva and Roberts, COLING 2016) sections
/// A, B, E, G and H; its weights are the data file `Assets/name-tagger-weights.tsv` (9,847
/// features, one a line: the feature, a tab, the averaged perceptron's weights ×100 for O, B and
/// I), built into the binary. Do not edit the weights: retrain instead. Hand-written because no
/// package here tags names; the tokenizer and features mirror the training script exactly.
public enum NameTagger {
    static let tags: [Substring] = ["O", "B", "I"]

    /// Feature (its ``featureKey``) → weights for O, B and I.
    static let weights: WeightTable = {
        var table = WeightTable(capacity: 10_500)
        for line in EmbeddedAssets.text(of: "name-tagger-weights.tsv").split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { continue }
            let numbers = line[line.index(after: tab)...].split(separator: " ").compactMap { Int32($0) }
            guard numbers.count == 3 else { continue }
            table.insert(featureKey(line[..<tab]), SIMD4(numbers[0], numbers[1], numbers[2], 0))
        }
        return table
    }()

    /// An open-addressing table keyed by the features' FNV hashes, which are already well mixed:
    /// a lookup is a mask and a probe or two, where `Dictionary` would hash each key again.
    struct WeightTable: Sendable {
        private var keys: [UInt64]
        private var values: [SIMD4<Int32>]
        private let mask: Int

        init(capacity: Int) {
            var size = 16
            while size < capacity * 2 { size <<= 1 }
            keys = Array(repeating: 0, count: size)
            values = Array(repeating: SIMD4(), count: size)
            mask = size - 1
        }

        /// Key 0 marks an empty slot; a feature hashing to 0 (1 in 2^64) is dropped.
        mutating func insert(_ key: UInt64, _ value: SIMD4<Int32>) {
            guard key != 0 else { return }
            var slot = Int(truncatingIfNeeded: key) & mask
            while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }

        subscript(key: UInt64) -> SIMD4<Int32>? {
            var slot = Int(truncatingIfNeeded: key) & mask
            while keys[slot] != 0 {
                if keys[slot] == key { return values[slot] }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// FNV-1a over a feature's UTF-8 bytes, fed in parts so no feature string is built.
    struct FeatureKey {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        mutating func add(_ part: some StringProtocol) {
            for byte in part.utf8 { add(byte) }
        }
        mutating func add(_ part: StaticString) {
            part.withUTF8Buffer { for byte in $0 { add(byte) } }
        }
        mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        /// The UTF-8 bytes of `scalars`.
        mutating func add(scalars: some Sequence<Unicode.Scalar>) {
            for scalar in scalars { for byte in UTF8.encode(scalar)! { add(byte) } }
        }
    }

    static func featureKey(_ a: some StringProtocol) -> UInt64 {
        var key = FeatureKey()
        key.add(a)
        return key.value
    }

    struct Token {
        var text: String, lower: String, shape: String
        var start: Int, end: Int
        var isGiven: Bool, isSurname: Bool
        /// Python's `isupper()` on two or more characters: cased, and no lower-case letter.
        var isAllCaps: Bool { text.count > 1 && text != lower && !text.contains(where: \.isLowercase) }
    }

    /// The names in `text`, as UTF-8 byte ranges.
    public static func names(in text: String) -> [Range<Int>] {
        let utf8 = Array(text.utf8)
        let ranges = tokenize(text)
        // Only capitalized tokens are tagged; their features read two tokens before and one after.
        let candidates = ranges.map { range in
            let first = utf8[range.lowerBound]
            if first < 0x80 { return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") }
            return String(decoding: utf8[range], as: UTF8.self).first?.isUppercase ?? false
        }
        var tokens = ranges.map { Token(text: "", lower: "", shape: "", start: $0.lowerBound, end: $0.upperBound, isGiven: false, isSurname: false) }
        var needed = [Bool](repeating: false, count: ranges.count)
        for index in ranges.indices where candidates[index] {
            for j in max(0, index - 2)...min(ranges.count - 1, index + 1) { needed[j] = true }
        }
        for index in ranges.indices where needed[index] {
            let word = String(decoding: utf8[ranges[index]], as: UTF8.self)
            let lower = word.lowercased()
            tokens[index].text = word
            tokens[index].lower = lower
            tokens[index].isGiven = GivenNames.census1990.contains(Substring(lower))
            tokens[index].isSurname = Surnames.census1990.contains(Substring(lower))
        }
        return tag(tokens, utf8: utf8)
    }

    /// Words (`\w` runs, joined inside by `'`, `’` or `-` before another word character) and
    /// single other characters, as UTF-8 ranges: the training script's `\w(?:\w|['’\-](?=\w))*|[^\s\w]`,
    /// by hand because a regular expression that builds a match object per token was a third of
    /// the time of all extraction.
    static func tokenize(_ text: String) -> [Range<Int>] {
        func isWord(_ s: Unicode.Scalar) -> Bool {
            if s.isASCII {
                let v = s.value
                return (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
            }
            switch s.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
            default: return s.properties.isAlphabetic
            }
        }
        let positions = ScalarOffsets(text)
        let scalars = positions.scalars, offsets = positions.utf8
        var ranges: [Range<Int>] = []
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s.isASCII ? (s == " " || (s.value >= 0x09 && s.value <= 0x0D)) : s.properties.isWhitespace { i += 1; continue }
            if !isWord(s) { ranges.append(offsets[i]..<offsets[i + 1]); i += 1; continue }
            var j = i + 1
            while j < scalars.count {
                if isWord(scalars[j]) { j += 1; continue }
                if "'’-".unicodeScalars.contains(scalars[j]), j + 1 < scalars.count, isWord(scalars[j + 1]) { j += 2; continue }
                break
            }
            ranges.append(offsets[i]..<offsets[j])
            i = j
        }
        return ranges
    }

    static func tag(_ input: [Token], utf8: [UInt8]) -> [Range<Int>] {
        var tokens = input
        // Shapes are needed only for capitalized tokens and their neighbours.
        for index in tokens.indices where isCandidate(tokens[index].text) {
            for j in max(0, index - 1)...min(tokens.count - 1, index + 1) where tokens[j].shape.isEmpty {
                tokens[j].shape = shape(tokens[j].text)
            }
        }
        var spans: [Range<Int>] = []
        var previous = 0, open: Range<Int>?
        var sink = KeySink(keys: [])
        for index in tokens.indices {
            var tag = 0
            if isCandidate(tokens[index].text) {
                sink.keys.removeAll(keepingCapacity: true)
                features(tokens, utf8: utf8, at: index, previousTag: tags[previous], into: &sink)
                var score = SIMD4<Int32>()
                for key in sink.keys { if let w = weights[key] { score &+= w } }
                tag = score[0] >= score[1] && score[0] >= score[2] ? 0 : score[1] >= score[2] ? 1 : 2
                if tag == 2, previous == 0 { tag = 1 }
            }
            switch tag {
            case 1:
                if let o = open { spans.append(o) }
                open = tokens[index].start..<tokens[index].end
            case 2:
                if let o = open { open = o.lowerBound..<tokens[index].end }
            default:
                if let o = open { spans.append(o) }
                open = nil
            }
            previous = tag
        }
        if let o = open { spans.append(o) }
        return spans
    }

    static func isCandidate(_ word: String) -> Bool { word.first?.isUppercase ?? false }

    /// `O'Neill` → `X'Xx`, `2024` → `d`: each character's class, runs collapsed.
    static func shape(_ word: String) -> String {
        var out = "", last: Character?
        for c in word {
            let k: Character = c.isUppercase ? "X" : c.isLowercase ? "x" : c.isWholeNumber ? "d" : c
            if k != last { out.append(k); last = k }
        }
        return out
    }

    /// Where features go: hashed for scoring, or as names for the tests.
    protocol FeatureSink {
        /// The feature `name` + `value` + `separator` + `more` (`pw=` `met` `|` `Xx`).
        mutating func add(_ name: StaticString, _ value: Substring, _ separator: StaticString, _ more: Substring)
        /// The feature `name` + the UTF-8 of `scalars` (a prefix or suffix).
        mutating func add(_ name: StaticString, scalars: Substring.UnicodeScalarView.SubSequence)
    }

    struct KeySink: FeatureSink {
        var keys: [UInt64]
        mutating func add(_ name: StaticString, _ value: Substring, _ separator: StaticString, _ more: Substring) {
            var key = FeatureKey()
            key.add(name)
            key.add(value)
            key.add(separator)
            key.add(more)
            keys.append(key.value)
        }
        mutating func add(_ name: StaticString, scalars: Substring.UnicodeScalarView.SubSequence) {
            var key = FeatureKey()
            key.add(name)
            key.add(scalars: scalars)
            keys.append(key.value)
        }
    }

    struct NameSink: FeatureSink {
        var names: [String] = []
        mutating func add(_ name: StaticString, _ value: Substring, _ separator: StaticString, _ more: Substring) {
            names.append(name.description + value + separator.description + more)
        }
        mutating func add(_ name: StaticString, scalars: Substring.UnicodeScalarView.SubSequence) {
            names.append(name.description + String(String.UnicodeScalarView(scalars)))
        }
    }

    /// The features of token `i`, in the training script's order and with its names (`w=`, `p=`…).
    static func features(_ tokens: [Token], utf8: [UInt8], at i: Int, previousTag: Substring, into sink: inout some FeatureSink) {
        func low(_ j: Int) -> Substring { j < 0 ? "<s>" : j >= tokens.count ? "</s>" : Substring(tokens[j].lower) }
        func shp(_ j: Int) -> Substring { tokens.indices.contains(j) ? Substring(tokens[j].shape) : "-" }
        func add(_ name: StaticString, _ value: Substring = "", _ separator: StaticString = "", _ more: Substring = "") {
            sink.add(name, value, separator, more)
        }
        let token = tokens[i], lower = Substring(token.lower), wordShape = Substring(token.shape)
        let before = low(i - 1)
        let startsLine = i == 0 || utf8[tokens[i - 1].end..<token.start].contains(0x0A)
        add("b")
        add("w=", lower)
        add("p=", before)
        add("n=", low(i + 1))
        add("pp=", low(i - 2))
        add("s=", wordShape)
        add("ps=", shp(i - 1))
        add("ns=", shp(i + 1))
        sink.add("suf=", scalars: lower.unicodeScalars.suffix(3))
        sink.add("pre=", scalars: lower.unicodeScalars.prefix(3))
        add("t=", previousTag)
        add("ts=", previousTag, "", wordShape)
        add("pw=", before, "|", wordShape)
        if token.isGiven { add("g") }
        if token.isSurname { add("sn") }
        if i > 0, tokens[i - 1].isGiven { add("pg") }
        if i + 1 < tokens.count, tokens[i + 1].isSurname { add("nsn") }
        if startsLine || before == "." || before == "!" || before == "?" || before == ":" || before == "\"" { add("first") }
        if token.isAllCaps { add("caps") }
    }

    /// The features of token `i` as the keys the weights are looked up by.
    static func features(_ tokens: [Token], utf8: [UInt8], at i: Int, previousTag: StaticString, into keys: inout [UInt64]) {
        var sink = KeySink(keys: keys)
        keys = []
        features(tokens, utf8: utf8, at: i, previousTag: Substring(previousTag.description), into: &sink)
        keys = sink.keys
    }

    /// The features of token `i` by name, as the training script writes them (for tests).
    static func featureNames(_ tokens: [Token], utf8: [UInt8], at i: Int, previousTag: String) -> [String] {
        var sink = NameSink()
        features(tokens, utf8: utf8, at: i, previousTag: Substring(previousTag), into: &sink)
        return sink.names
    }
}
