import Foundation

/// A user's search text, parsed into terms that can be rendered as a safe FTS5 expression.
///
/// Syntax (deliberately small, like a search box):
/// - `word` — must appear (accents and case are ignored by the index);
/// - `"a phrase"` — words in this order;
/// - `pref*` — any word starting with `pref` (at least ``minimumPrefixLength`` characters);
/// - `-word`, `-"a phrase"` — must not appear (needs at least one positive term);
/// - `a OR b` — either;
/// - punctuated terms such as `555-0132` or `example.org/doc` are phrases of their parts, and
///   their last part is a prefix, so fragments of phone numbers and URLs are found.
///
/// User text reaches `MATCH` only through ``fts5Expression``: every token is double-quoted with
/// embedded quotes doubled, so operators, column filters and parentheses in the input are inert.
public struct SearchQuery: Sendable, Equatable {
    public struct Term: Sendable, Equatable {
        /// The text to match, without surrounding quotes or trailing `*`.
        public var text: String
        public var isPrefix: Bool
        public var isExcluded: Bool
    }

    /// Terms joined by AND; each inner array is a group of alternatives joined by OR.
    public private(set) var groups: [[Term]]
    /// When the whole query is the start of a web address (`github.com/apple/sw`,
    /// `https://www.Example.org/Docs`): that start without scheme or `www.`, the host lower-cased
    /// (`example.org/Docs`). Search looks it up among the URLs found in screenshots first.
    public private(set) var webAddressPrefix: String?

    public static let minimumPrefixLength = 2
    /// The longest query parsed, in Unicode scalars. A search box holds a few words; a pasted log
    /// line or base64 blob is refused with a message instead of being searched at great cost.
    public static let maximumLength = 1_000
    /// The most words (runs of letters and digits, over every term, phrase and exclusion) one
    /// query searches: each is a doclist walk, and each may be expanded to completions and
    /// misreadings.
    public static let maximumWords = 32
    /// Words longer than this are searched as typed only: no completions, no misreadings. No
    /// natural-language word is this long; hashes, tokens and base64 runs are, and each of their
    /// one-edit variants would be a lookup.
    public static let longestExpandableWord = 40

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case empty
        case onlyExclusions
        case prefixTooShort(String)
        case tooLong(length: Int)
        case tooManyWords(count: Int)

        public var description: String {
            switch self {
            case .empty:
                return "The query has no words to search for."
            case .onlyExclusions:
                return "A query needs at least one word to find; '-word' only excludes."
            case .prefixTooShort(let p):
                return "The prefix '\(p)*' is too short: use at least \(SearchQuery.minimumPrefixLength) letters before '*'."
            case .tooLong(let length):
                return "The query is \(length) characters long; at most \(SearchQuery.maximumLength) are searched: keep a few distinctive words."
            case .tooManyWords(let count):
                return "The query has \(count) words; at most \(SearchQuery.maximumWords) are searched at once: keep a few distinctive words."
            }
        }
    }

    /// Parses `input`. Never fails on odd characters; fails when nothing searchable is left, or
    /// when the query is over ``maximumLength`` or ``maximumWords`` (so its cost is bounded).
    public init(parsing input: String) throws(ParseError) {
        let length = input.unicodeScalars.count
        guard length <= Self.maximumLength else { throw .tooLong(length: length) }
        var groups: [[Term]] = []
        var pendingOr = false
        let raws = Self.lex(input)
        var words = 0
        for raw in raws {
            if raw.text == "OR" && !raw.quoted && !raw.excluded && !raw.starred {
                pendingOr = !groups.isEmpty
                continue
            }
            words += Self.searchTokens(in: raw.text).count
        }
        guard words <= Self.maximumWords else { throw .tooManyWords(count: words) }
        for raw in raws {
            if raw.text == "OR" && !raw.quoted && !raw.excluded && !raw.starred {
                pendingOr = !groups.isEmpty
                continue
            }
            guard let term = try Self.term(from: raw) else { continue }
            if pendingOr, !term.isExcluded, let last = groups.indices.last, !groups[last].contains(where: \.isExcluded) {
                groups[last].append(term)
            } else {
                groups.append([term])
            }
            pendingOr = false
        }
        guard !groups.isEmpty else { throw .empty }
        guard groups.contains(where: { !$0[0].isExcluded }) else { throw .onlyExclusions }
        self.groups = groups
        if raws.count == 1, let raw = raws.first, !raw.quoted, !raw.excluded { webAddressPrefix = Self.webAddressPrefix(raw.text) }
    }

    /// `example.org/do` from `example.org/do`, `www.example.org/do*` or `HTTPS://Example.org/do`: a
    /// host of two or more labels (letters, digits, `-`; the last one two letters or more), then a
    /// path of characters RFC 3986 allows; nil for anything else (`555-0132`, `setup.py`…
    /// pass: file names are told apart by the entities, not here).
    static func webAddressPrefix(_ typed: String) -> String? {
        var text = Substring(typed)
        while text.hasSuffix("*") { text.removeLast() }
        for scheme in ["https://", "http://"] where text.lowercased().hasPrefix(scheme) { text = text.dropFirst(scheme.count) }
        if text.lowercased().hasPrefix("www.") { text = text.dropFirst(4) }
        let host = text.prefix { $0 != "/" }
        let path = text.dropFirst(host.count)
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }),
              let last = labels.last, last.count >= 2, last.allSatisfy(\.isLetter),
              path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/?#[]@!$&'()*+,;=%:".contains($0)) })
        else { return nil }
        return host.lowercased() + path
    }

    /// What search by meaning reads: the words to find, as typed, without the syntax (quotes,
    /// `*`, `OR`) and without the excluded ones.
    public var meaningText: String {
        groups.flatMap { $0.filter { !$0.isExcluded }.map(\.text) }.joined(separator: " ")
    }

    /// Whether the query has words a meaning can be read from: a term of letters only (a word
    /// or a phrase) with a word of three letters or more. Numbers, codes (`INV-2207`), fragments of
    /// phone numbers and web addresses are looked for as written only: their "meaning" would
    /// bring screenshots of any number or link.
    public var readsAsWords: Bool {
        webAddressPrefix == nil && groups.contains { group in
            group.contains { term in
                let tokens = Self.searchTokens(in: term.text)
                return !term.isExcluded && tokens.allSatisfy { $0.allSatisfy(\.isLetter) } && tokens.contains { $0.count >= 3 }
            }
        }
    }

    /// The excluded terms as a query of their own, any of them (`-draft -"old copy"` → `draft OR
    /// "old copy"`): what a screenshot found by meaning must not hold. Nil when none is excluded.
    public var exclusions: SearchQuery? {
        let excluded = groups.flatMap { $0.filter(\.isExcluded) }.map { Term(text: $0.text, isPrefix: $0.isPrefix, isExcluded: false) }
        guard !excluded.isEmpty else { return nil }
        var query = self
        query.groups = [excluded]
        query.webAddressPrefix = nil
        return query
    }

    /// The FTS5 query expression. Safe to bind as the right-hand side of `MATCH`.
    public var fts5Expression: String {
        fts5(completions: [:]).expression
    }

    private struct RawTerm {
        var text: String
        var quoted = false
        var excluded = false
        var starred = false
    }

    /// Splits on white space, keeping `"…"` together (an unclosed quote runs to the end).
    private static func lex(_ input: String) -> [RawTerm] {
        var terms: [RawTerm] = []
        var chars = Array(input)
        chars.removeAll { $0 == "\u{0}" }
        var i = 0
        while i < chars.count {
            while i < chars.count, chars[i].isWhitespace { i += 1 }
            guard i < chars.count else { break }
            var raw = RawTerm(text: "")
            if chars[i] == "-", i + 1 < chars.count, !chars[i + 1].isWhitespace {
                raw.excluded = true
                i += 1
            }
            if chars[i] == "\"" {
                raw.quoted = true
                i += 1
                var text = ""
                while i < chars.count, chars[i] != "\"" { text.append(chars[i]); i += 1 }
                i += 1 // closing quote, if any
                raw.text = text
                if i < chars.count, chars[i] == "*" { raw.starred = true; i += 1 }
            } else {
                var text = ""
                while i < chars.count, !chars[i].isWhitespace { text.append(chars[i]); i += 1 }
                raw.text = text
            }
            terms.append(raw)
        }
        return terms
    }

    private static func term(from raw: RawTerm) throws(ParseError) -> Term? {
        var text = raw.text
        var starred = raw.starred
        if !raw.quoted {
            while text.hasSuffix("*") { text.removeLast(); starred = true }
        }
        let tokens = searchTokens(in: text)
        guard !tokens.isEmpty else { return nil }
        let isPunctuated = !raw.quoted && tokens.count > 1
        if starred, let last = tokens.last, last.count < minimumPrefixLength {
            throw .prefixTooShort(last)
        }
        // A punctuated fragment (phone number, URL, file name) matches like a substring from a token start.
        let isPrefix = starred || (isPunctuated && (tokens.last?.count ?? 0) >= minimumPrefixLength)
        return Term(text: raw.quoted ? text : tokens.joined(separator: " "),
                    isPrefix: isPrefix, isExcluded: raw.excluded)
    }

    /// The runs of letters and digits, as the index's `unicode61` tokenizer sees them.
    public static func searchTokens(in text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if isTokenScalar(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// unicode61's default token characters: categories L*, N*, Co (and marks, which it folds away).
    public static func isTokenScalar(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse,
             .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }
}

extension SearchQuery {
    /// Whether a recognized word is one the query asked for, as the index would match it (case
    /// and accents ignored; prefixes match word starts; each word of a phrase counts). Used to
    /// draw the matched words' boxes on a screenshot.
    public func highlights(word: String) -> Bool { highlighter()(word) }

    /// ``highlights(word:)`` for many words (a snippet, a page of word boxes): the query's words
    /// are split and folded once, not once a word. Without `phraseWords`, only the terms of one
    /// word: a phrase's words are then marked where the phrase occurs, by the caller.
    public func highlighter(phraseWords: Bool = true) -> @Sendable (String) -> Bool {
        let terms = groups.filter { !$0[0].isExcluded }.flatMap { $0 }.filter { phraseWords || Self.searchTokens(in: $0.text).count == 1 }
        let parts: [(text: String, isPrefix: Bool)] = terms.flatMap { term in
            let parts = Self.searchTokens(in: term.text).map(Self.folded)
            return parts.enumerated().map { index, part in (part, term.isPrefix && index == parts.count - 1) }
        }
        return { word in
            let tokens = Self.searchTokens(in: word).map(Self.folded)
            return parts.contains { part in tokens.contains { part.isPrefix ? $0.hasPrefix(part.text) : $0 == part.text } }
        }
    }

    /// The distinct index terms of `text`: its tokens folded as the index folds them.
    public static func indexTerms(in text: String) -> Set<String> {
        Set(searchTokens(in: text).map(folded))
    }

    /// The single words typed in part (`lumi*`), folded: the ones a vocabulary can expand. The
    /// last word of a phrase or a punctuated fragment (`example.org/quv`) is left to FTS5: as an
    /// `OR` of phrases, one per completion, it was slower at 100,000 screenshots (p50 114 ms
    /// against 41) and found fewer of the right screenshots.
    public var expandablePrefixes: [String] {
        groups.flatMap { $0 }.filter { $0.isPrefix && Self.searchTokens(in: $0.text).count == 1 && Self.isExpandable($0.text) }
            .map { Self.folded($0.text) }
    }

    /// A phrase of an FTS5 expression: its text (tokens as written in the query) and whether
    /// its last token is a prefix.
    public struct Phrase: Sendable, Equatable {
        public var text: String
        public var isPrefix: Bool
    }

    /// The expression, and its phrases in the order they appear in it (the order FTS5 numbers
    /// them in, which a ranking function's per-phrase arguments follow). Each prefix term's last
    /// word is replaced by the word as typed so far (`exactPrefixes`) or by its `completions` (an
    /// `OR` of them; none known: `"word"*`, which then has little to merge); whole words with
    /// `alternatives` (the spellings OCR made of them) become an `OR` of themselves and those.
    /// ``fts5Expression`` is the expression with none of these.
    public func fts5(completions: [String: [String]], exactPrefixes: Bool = false,
                     alternatives: [String: [String]] = [:]) -> (expression: String, phrases: [Phrase]) {
        var phrases: [Phrase] = []
        func phrase(_ text: String, prefix: Bool = false) -> String {
            phrases.append(Phrase(text: text, isPrefix: prefix))
            return Self.quoted(text) + (prefix ? "*" : "")
        }
        func render(_ group: [Term]) -> String {
            let parts = group.map { term -> String in
                guard term.isPrefix else {
                    guard !term.isExcluded, let others = alternatives[Self.folded(term.text)], !others.isEmpty else { return phrase(term.text) }
                    return "(" + ([phrase(term.text)] + others.map { phrase($0) }).joined(separator: " OR ") + ")"
                }
                guard Self.searchTokens(in: term.text).count == 1 else { return phrase(term.text, prefix: true) }
                if exactPrefixes { return phrase(term.text) }
                guard let words = completions[Self.folded(term.text)], !words.isEmpty else { return phrase(term.text, prefix: true) }
                return words.count == 1 ? phrase(words[0]) : "(" + words.map { phrase($0) }.joined(separator: " OR ") + ")"
            }
            return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        }
        let positive = groups.filter { !$0[0].isExcluded }.map(render)
        let negative = groups.filter { $0[0].isExcluded }.map(render)
        var expression = positive.joined(separator: " AND ")
        for n in negative { expression = "(\(expression)) NOT \(n)" }
        return (expression, phrases)
    }


    /// The whole single words the query asks for (not prefixes, phrases or exclusions), as typed:
    /// the ones that may have been misread by OCR where they appear. Case and accents are kept
    /// (which letters carried a diacritic matters: the `eng` model misreads most of them, see
    /// ``OCRConfusions``).
    public var fuzzyCandidatesAsTyped: [String] {
        groups.filter { !$0[0].isExcluded }.flatMap { $0 }
            .filter { !$0.isPrefix && Self.searchTokens(in: $0.text).count == 1 && Self.isExpandable($0.text) }.map(\.text)
    }

    /// Whether a word is short enough to be expanded to completions or misreadings
    /// (``longestExpandableWord``).
    static func isExpandable(_ word: String) -> Bool {
        word.unicodeScalars.count <= longestExpandableWord
    }

    /// Whether the query has a word typed only in part (a single-word prefix term).
    /// `argument` as a word to complete (`pharm` → look for `pharm*`) when it is one plain word
    /// of at least three letters or digits as typed (no quotes, operators, `*` or punctuation),
    /// else `nil`.
    public static func plainWordToComplete(_ argument: String) -> String? {
        let word = argument.trimmingCharacters(in: .whitespaces)
        guard word.count >= 3, word.count <= longestExpandableWord, word != "OR", word != "AND", word != "NOT",
              word.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return word
    }

    public var hasExpandablePrefix: Bool { !expandablePrefixes.isEmpty }

    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    /// Lower case without diacritics, as `unicode61 remove_diacritics 2` folds a token.
    public static func folded(_ token: String) -> String {
        // ASCII has no marks and decomposes to itself: lower case is all there is to do.
        if token.utf8.allSatisfy({ $0 < 0x80 }) { return token.lowercased() }
        var out = String.UnicodeScalarView()
        for scalar in token.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars where !Self.isMark(scalar) {
            out.append(scalar)
        }
        return String(out)
    }

    private static func isMark(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}

