import Foundation

/// BERT's uncased WordPiece tokenizer, as the text-embedding model was trained with it
/// (Hugging Face's `BertNormalizer` + `BertPreTokenizer` + `WordPiece`): clean the text, put
/// spaces around CJK ideographs, lower-case it and strip its accents, split at white space and
/// around every punctuation mark, then take each word as the longest pieces of the vocabulary
/// (`unaffable` → `una ##ff ##able`). A word with a piece the vocabulary lacks, or longer than
/// 100 characters, becomes `[UNK]`.
///
/// Hand-written: no Swift package here tokenizes for BERT, and the model's own tokenizer is Rust
/// behind Python. `Tests/Embedding/reference.json` holds the ids the model's tokenizer gives for
/// texts of many shapes; the tests compare against them.
public struct WordPieceTokenizer: Sendable {
    public let vocabulary: [String: Int32]
    public let unknown: Int32, classifier: Int32, separator: Int32
    /// The longest piece, in Unicode scalars without `##`: no candidate longer is looked up, so a
    /// word costs at most 100 × this many lookups.
    let longestPiece: Int
    static let maximumCharactersPerWord = 100

    /// `vocabulary`: the model's `vocab.txt`, one piece a line, its id the line's index.
    public init?(vocabulary text: String) {
        var vocabulary: [String: Int32] = [:]
        vocabulary.reserveCapacity(32_000)
        var index: Int32 = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let piece = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if !piece.isEmpty, vocabulary[piece] == nil { vocabulary[piece] = index }
            index += 1
        }
        guard let unknown = vocabulary["[UNK]"], let classifier = vocabulary["[CLS]"], let separator = vocabulary["[SEP]"] else {
            return nil
        }
        self.vocabulary = vocabulary
        longestPiece = vocabulary.keys.map { $0.hasPrefix("##") ? $0.unicodeScalars.count - 2 : $0.unicodeScalars.count }.max() ?? 1
        self.unknown = unknown
        self.classifier = classifier
        self.separator = separator
    }

    /// The ids of `text` between `[CLS]` and `[SEP]`, at most `maximumTokens` in all.
    public func ids(_ text: String, maximumTokens: Int = 256) -> [Int32] {
        var ids: [Int32] = [classifier]
        Self.forEachWord(text) { word in
            ids += pieces(of: word)
            return ids.count < maximumTokens - 1
        }
        if ids.count > maximumTokens - 1 { ids.removeLast(ids.count - (maximumTokens - 1)) }
        ids.append(separator)
        return ids
    }

    /// The pieces of `text` without `[CLS]` and `[SEP]`, at most `maximum`: a long text's windows.
    public func pieceIDs(_ text: String, maximum: Int) -> [Int32] {
        var ids: [Int32] = []
        Self.forEachWord(text) { word in
            ids += pieces(of: word)
            return ids.count < maximum
        }
        return Array(ids.prefix(maximum))
    }

    /// One word's pieces: the longest prefix the vocabulary has, then `##` and the longest next.
    func pieces(of word: String) -> [Int32] {
        let characters = Array(word.unicodeScalars)
        guard characters.count <= Self.maximumCharactersPerWord else { return [unknown] }
        var result: [Int32] = []
        var start = 0
        while start < characters.count {
            var end = min(characters.count, start + longestPiece)
            var found: Int32?
            while start < end {
                var candidate = String(String.UnicodeScalarView(characters[start..<end]))
                if start > 0 { candidate = "##" + candidate }
                if let id = vocabulary[candidate] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let found else { return [unknown] }
            result.append(found)
            start = end
        }
        return result
    }

    /// Calls `body` with the normalized words and punctuation marks of `text`, in order, until it
    /// returns false. The text is normalized one stretch between white space (or CJK ideographs)
    /// at a time, so a long text costs only as far as its pieces are wanted. The result is the
    /// same as normalizing it whole: decomposition and case work scalar by scalar, and combining
    /// marks, the only ones reordered, go anyway.
    static func forEachWord(_ text: String, _ body: (String) -> Bool) {
        var stretch = String.UnicodeScalarView()
        // The stretch's words: normalized, then split around every punctuation mark.
        func flush() -> Bool {
            defer { stretch = String.UnicodeScalarView() }
            guard !stretch.isEmpty else { return true }
            var word = String.UnicodeScalarView()
            for scalar in normalized(String(stretch)).unicodeScalars {
                guard isPunctuation(scalar) else {
                    word.append(scalar)
                    continue
                }
                if !word.isEmpty, !body(String(word)) { return false }
                word = String.UnicodeScalarView()
                if !body(String(scalar)) { return false }
            }
            return word.isEmpty || body(String(word))
        }
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || isControl(scalar) { continue }
            if isWhitespace(scalar) {
                guard flush() else { return }
            } else if isCJK(scalar) {
                guard flush() else { return }
                stretch.append(scalar)
                guard flush() else { return }
            } else {
                stretch.append(scalar)
            }
        }
        _ = flush()
    }

    /// Accents stripped (NFD, then no combining marks), then lower case, in `BertNormalizer`'s
    /// order; control characters, white space and CJK ideographs are handled by ``forEachWord``.
    static func normalized(_ text: String) -> String {
        var stripped = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            stripped.append(scalar)
        }
        return String(stripped).lowercased()
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar.properties.isWhitespace
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: return true
        default: return false
        }
    }

    /// ASCII's symbols count as punctuation (`$`, `^`, `` ` ``), as for BERT, and every Unicode `P*`.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if (33...47).contains(value) || (58...64).contains(value) || (91...96).contains(value) || (123...126).contains(value) {
            return true
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            return true
        default:
            return false
        }
    }

    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
             0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }
}
