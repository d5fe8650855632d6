import Foundation

/// gitleaks' default rules (Assets/gitleaks-rules.json, MIT; made by `scripts/gitleaks-rules.py`
/// from the upstream `config/gitleaks.toml`): some two hundred providers' key shapes, kept up by
/// the gitleaks project, read as data rather than copied into Swift. They run as gitleaks runs
/// them: a rule is tried only when the text holds one of its keywords; the secret is the rule's
/// secret group (or its first non-empty group, or the whole match); it must be more random than
/// the rule's entropy floor; and neither the global nor the rule's allowlists may hold it.
/// Left out: rules for file paths (a screenshot has none). Lens's own rules still run first; these
/// widen them to providers Lens has no shape for.
///
/// One change in how they run, for time: a rule searches only from the lines that hold its
/// keywords (each with the line after it, for `key:` and its value on the next line; to the end of
/// the text for the few patterns that span lines). Its keyword is part of what every rule matches,
/// and gitleaks' generic rule, tried at every offset of a text, took 0.43 ms of a screenshot's 0.73.
struct GitleaksRules: Sendable {
    struct Allowlist: Sendable {
        enum Target: String, Sendable { case secret, match, line }
        var target: Target
        /// `AND`: every kind of check it has must hold; `OR`: any one.
        var needsAll: Bool
        var regexes: [ICURegex]
        let stopwords: [String]
        /// The stopwords (ASCII, small letters) by their first three bytes; shorter ones under 0.
        /// The generic rule has 1,446: `String.contains` for each took half a millisecond a match.
        let stopwordIndex: [UInt32: [[UInt8]]]

        init(target: Target, needsAll: Bool, regexes: [ICURegex], stopwords: [String]) {
            self.target = target
            self.needsAll = needsAll
            self.regexes = regexes
            self.stopwords = stopwords
            stopwordIndex = Self.index(stopwords)
        }

        static func index(_ stopwords: [String]) -> [UInt32: [[UInt8]]] {
            var index: [UInt32: [[UInt8]]] = [:]
            for word in stopwords {
                let bytes = Array(word.lowercased().utf8)
                index[bytes.count >= 3 ? key(bytes, 0) : 0, default: []].append(bytes)
            }
            return index
        }

        static func key(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
        }

        /// Whether `value`, in small letters, holds a stopword: each position looked up once.
        func holdsStopword(_ value: String) -> Bool {
            let bytes = value.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            func holds(_ word: [UInt8], at start: Int) -> Bool {
                start + word.count <= bytes.count && bytes[start..<(start + word.count)].elementsEqual(word)
            }
            if let short = stopwordIndex[0], short.contains(where: { word in bytes.indices.contains { holds(word, at: $0) } }) { return true }
            guard bytes.count >= 3 else { return false }
            for start in 0...(bytes.count - 3) {
                if let words = stopwordIndex[Self.key(bytes, start)], words.contains(where: { holds($0, at: start) }) { return true }
            }
            return false
        }

        func allows(secret: String, match: String, line: String) -> Bool {
            let subject: String
            switch target {
            case .secret: subject = secret
            case .match: subject = match
            case .line: subject = line
            }
            let searched = regexes.isEmpty ? nil : UTF16Text(subject)
            let regexHolds = searched.map { searched in regexes.contains { !$0.results(in: searched, range: searched.whole, first: true).isEmpty } } ?? false
            let stopwordHolds = holdsStopword(secret)
            if needsAll {
                return (regexes.isEmpty || regexHolds) && (stopwords.isEmpty || stopwordHolds)
            }
            return regexHolds || stopwordHolds
        }
    }

    struct Rule: Sendable {
        var id: String
        var regex: ICURegex
        var secretGroup: Int
        var entropy: Double
        var keywords: [[UInt8]]
        var allowlists: [Allowlist]
        /// Whether a match may run over many lines (a PEM block, a `curl` command continued with `\`).
        var spansLines: Bool
        /// Whether the pattern starts with gitleaks' identifier prefix `[\w.-]{0,50}?` before its
        /// keyword (`my_adafruit_key = …`): it is tried only where such a prefix can start.
        var startsWithIdentifier: Bool
    }

    let rules: [Rule]
    let allowlists: [Allowlist]
    /// The patterns (of rules and allowlists) ICU could not compile: none with the shipped file, a test checks.
    let unreadable: [String]
    /// Keywords by their first two bytes (a table of 65,536 slots, each a range of `keywords`):
    /// one pass over a text, one array read a byte, finds the rules to try.
    let keywordSlots: [Range<Int32>]
    let keywords: [(keyword: [UInt8], rule: Int)]

    static let shared = GitleaksRules(json: EmbeddedAssets.text(of: "gitleaks-rules.json"))

    init(json: String) {
        // The file is part of the build: a malformed one is a mistake in the build, not in input.
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let ruleObjects = object["rules"] as? [[String: Any]] else { preconditionFailure("gitleaks-rules.json is malformed") }
        var unreadable: [String] = []
        func regex(_ pattern: String) -> ICURegex? {
            if let compiled = try? ICURegex(Self.icuPattern(pattern)) { return compiled }
            unreadable.append(pattern)
            return nil
        }
        func lists(_ value: Any?) -> [Allowlist] {
            ((value as? [[String: Any]]) ?? []).map { entry in
                Allowlist(target: Allowlist.Target(rawValue: entry["target"] as? String ?? "secret") ?? .secret,
                          needsAll: (entry["condition"] as? String) == "AND",
                          regexes: ((entry["regexes"] as? [String]) ?? []).compactMap(regex),
                          stopwords: (entry["stopwords"] as? [String]) ?? [])
            }
        }
        var rules: [Rule] = []
        for rule in ruleObjects {
            guard let id = rule["id"] as? String, let pattern = rule["regex"] as? String else { continue }
            guard let compiled = regex(pattern) else { continue }
            rules.append(Rule(id: id, regex: compiled, secretGroup: rule["secretGroup"] as? Int ?? 0,
                              entropy: (rule["entropy"] as? NSNumber)?.doubleValue ?? 0,
                              keywords: ((rule["keywords"] as? [String]) ?? []).map { Array($0.lowercased().utf8) },
                              allowlists: lists(rule["allowlists"]),
                              spansLines: ["[\\s\\S", "[\\r\\n]", "\\r\\n"].contains(where: pattern.contains),
                              startsWithIdentifier: pattern.hasPrefix(#"[\w.-]{0,50}?"#) || pattern.hasPrefix(#"(?i)[\w.-]{0,50}?"#)))
        }
        let keywords = rules.enumerated().flatMap { number, rule in rule.keywords.filter { $0.count >= 2 }.map { ($0, number) } }
            .sorted { Self.slot($0.0[0], $0.0[1]) < Self.slot($1.0[0], $1.0[1]) }
        var slots = [Range<Int32>](repeating: 0..<0, count: 65_536)
        for (position, entry) in keywords.enumerated() {
            let slot = Self.slot(entry.0[0], entry.0[1])
            slots[slot] = (slots[slot].isEmpty ? Int32(position) : slots[slot].lowerBound)..<Int32(position + 1)
        }
        self.rules = rules
        self.allowlists = lists(object["allowlists"])
        self.unreadable = unreadable
        self.keywords = keywords
        keywordSlots = slots
    }

    static func slot(_ first: UInt8, _ second: UInt8) -> Int { Int(first) << 8 | Int(second) }

    /// The most characters a rule's `.*` reads (``icuPattern(_:)``).
    static let longestWildcard = 256

    /// A Go (RE2) pattern in ICU's syntax. They differ where the rules use:
    /// - named groups `(?P<name>…)` (ICU has `(?<name>…)`, and its names allow no `_`): they become
    ///   plain groups; a rule whose only groups they are then reports its whole match, which masks
    ///   more, not less;
    /// - a `{` that starts no repetition (`{{ $.Values.password }}`), literal in Go, an error in ICU;
    /// - `]` first in a set (`[^]]`) and `[` inside one, literal in Go, a nested set in ICU.
    /// And an unbounded `.*` (the `curl` rules': `\bcurl\b.*?… -u …`) reads at most
    /// ``longestWildcard`` characters: RE2 runs in linear time, ICU backtracks, and on a line of
    /// many `curl`s each one read the rest of the line (32 KB of `curl -b '…'` took 1.4 s).
    static func icuPattern(_ pattern: String) -> String {
        let source = Array(pattern.replacingOccurrences(of: #"\(\?P<[A-Za-z0-9_]+>"#, with: "(?:", options: .regularExpression))
        var out = "", i = 0, inSet = false
        /// Whether `{` at `index` opens a repetition: `{n}`, `{n,}` or `{n,m}`.
        func isRepetition(_ index: Int) -> Bool {
            var j = index + 1, digits = 0
            while j < source.count, source[j].isASCIIDigit { j += 1; digits += 1 }
            guard digits > 0, j < source.count else { return false }
            if source[j] == "}" { return true }
            guard source[j] == "," else { return false }
            j += 1
            while j < source.count, source[j].isASCIIDigit { j += 1 }
            return j < source.count && source[j] == "}"
        }
        var repetitionEnd = -1
        while i < source.count {
            let c = source[i]
            if c == "\\", i + 1 < source.count {
                out.append(c)
                out.append(source[i + 1])
                i += 2
                continue
            }
            if inSet {
                if c == "[", i + 1 < source.count, source[i + 1] == ":", let close = source[(i + 2)...].firstIndex(of: "]") {
                    // A POSIX class inside a set (`[[:alnum:]]`): ICU reads it as Go does.
                    out += String(source[i...close])
                    i = close + 1
                    continue
                }
                if c == "]" { inSet = false }
                out += c == "[" ? "\\[" : String(c)
                i += 1
                continue
            }
            switch c {
            case "[":
                inSet = true
                out.append(c)
                i += 1
                if i < source.count, source[i] == "^" { out.append("^"); i += 1 }
                if i < source.count, source[i] == "]" { out += "\\]"; i += 1 }
                continue
            case "{":
                if isRepetition(i) { repetitionEnd = source[i...].firstIndex(of: "}")! } else { out += "\\{"; i += 1; continue }
            case "}":
                if i != repetitionEnd { out += "\\}"; i += 1; continue }
            case "." where i + 1 < source.count && source[i + 1] == "*":
                out += ".{0,\(Self.longestWildcard)}"
                i += 2
                continue
            default: break
            }
            out.append(c)
            i += 1
        }
        return out
    }

    /// The rules whose keywords `lowered` (a text's bytes, ASCII lower-cased) holds, in file order.
    func rules(triggeredBy lowered: [UInt8]) -> [Int] {
        guard lowered.count >= 2 else { return [] }
        var triggered = [Bool](repeating: false, count: rules.count)
        lowered.withUnsafeBufferPointer { bytes in
            for i in 0..<(bytes.count - 1) {
                let candidates = keywordSlots[Self.slot(bytes[i], bytes[i + 1])]
                for position in candidates {
                    let (keyword, rule) = keywords[Int(position)]
                    guard !triggered[rule], i + keyword.count <= bytes.count else { continue }
                    var j = 2
                    while j < keyword.count, bytes[i + j] == keyword[j] { j += 1 }
                    if j == keyword.count { triggered[rule] = true }
                }
            }
        }
        return triggered.indices.filter { triggered[$0] }
    }
}

extension SecretScan {
    /// Keys found by gitleaks' rules (see ``GitleaksRules``), labelled with the rule's id.
    func gitleaksKeys(_ rules: GitleaksRules = .shared) -> [Secret] {
        let triggered = rules.rules(triggeredBy: lowered)
        guard !triggered.isEmpty else { return [] }
        let ns = searchable
        let lines = lineRanges()
        var found: [Secret] = []
        for number in triggered {
            let rule = rules.rules[number]
            for result in matches(of: rule, lines: lines, ns) {
                // gitleaks trims line breaks at the ends of a match.
                var matchRange = result.range
                while matchRange.length > 0, ns.character(at: matchRange.location + matchRange.length - 1) == 0x0A { matchRange.length -= 1 }
                while matchRange.length > 0, ns.character(at: matchRange.location) == 0x0A {
                    matchRange.location += 1
                    matchRange.length -= 1
                }
                var secretRange = matchRange
                if result.numberOfRanges >= 2 {
                    if rule.secretGroup > 0 {
                        guard rule.secretGroup < result.numberOfRanges else { continue }
                        secretRange = result.range(at: rule.secretGroup)
                    } else if let group = (1..<result.numberOfRanges).lazy.map({ result.range(at: $0) })
                        .first(where: { $0.location != NSNotFound && $0.length > 0 }) {
                        secretRange = group
                    }
                }
                guard secretRange.location != NSNotFound, secretRange.length > 0 else { continue }
                let value = ns.substring(with: secretRange)
                if rule.entropy > 0, Self.entropy(value) <= rule.entropy { continue }
                // (The rule's `\s` lets a value start on the next line: under a name whose value is
                // empty, that line's setting is none of its, ``isNextLinesSetting(at:forLabelAt:)``.)
                if secretRange.location > matchRange.location, let valueStart = ns.utf8Offset(secretRange.location), let labelStart = ns.utf8Offset(matchRange.location),
                   isNextLinesSetting(at: valueStart, forLabelAt: labelStart) { continue }
                // Lens's own test for a value that only shows where one goes (`USERNAME:PASSWORD`,
                // `${TOKEN}`, `xxxx`), on the value and on a `user:` value's part after the colon.
                let bare = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'`"))
                if Self.isPlaceholder(bare) || bare.split(separator: ":").last.map({ Self.isPlaceholder(String($0)) }) == true { continue }
                let match = ns.substring(with: matchRange)
                // A public key is none, its name however OCR spelled it (`PublicKkey = …`), also when
                // the rule's keyword starts after the word (`public key: …` in `wg show`); nor is a
                // hash of a secret (`HashedControlPassword 16:…`, `password_hash: …`), nor a
                // CAPTCHA's site key (`data-sitekey="6Lc…"`, ``namesAPublicValue(_:)``).
                if secretRange.location > matchRange.location,
                   case let name = ns.substring(with: NSRange(location: matchRange.location, length: secretRange.location - matchRange.location)),
                   case let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber && !"_-.".contains($0) }).flatMap({ Self.nameWords($0) }),
                   name.lowercased().contains("public") || Self.saysHash(name) || Self.tailscalePublicKeyTag.firstMatch(in: name) != nil
                    || Self.namesAPublicValue(words)
                    // (Nor an identifier's, its `_` OCR read as a space so the rule's allowlist,
                    // `api[_.-]?id`, misses it: `"api id": "8043d2…"`; a secret's id is Vault's token.
                    // Round 157.)
                    || ["id", "ids"].contains(words.last ?? "") && !words.contains("secret")
                    // (Nor a key's fingerprint, a hash of its public part: Passbolt's `server key
                    // fingerprint matches: 3A8F…`; round 164.)
                    || words.contains(where: { ["fingerprint", "fingerprints", "thumbprint"].contains($0.lowercased()) }) {
                    continue
                }
                // The match's line, but no more than ``allowlistReach`` units on either side: the
                // allowlists read words near the match, and a long line of matches would otherwise be
                // read once per match.
                let lineRange = Self.line(holding: matchRange, in: lines, reach: Self.allowlistReach)
                let nameStart = max(lineRange.location, matchRange.location - 24)
                if Self.publicNameEnd.firstMatch(in: ns.substring(with: NSRange(location: nameStart, length: matchRange.location - nameStart))) != nil { continue }
                let line = ns.substring(with: lineRange)
                if (rules.allowlists + rule.allowlists).contains(where: { $0.allows(secret: value, match: match, line: line) }) { continue }
                guard let range = ns.utf8Range(secretRange) else { continue }
                found.append(secret(.apiKey, rule.id, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    /// The matches of `rule`: in its windows, or, for a rule that starts with an identifier, only
    /// from where one can start. Such a pattern, searched at every offset, retries its lazy
    /// 50-character prefix at each (gitleaks' generic rule took 0.09 ms of a screenshot that way
    /// even within lines). Its leftmost match starts where the run of `[A-Za-z0-9_.-]` before a
    /// keyword does (at most 50 back: Go's `\w` is ASCII), so it is tried anchored there once per
    /// keyword, which finds what the search finds.
    /// Each search reads only its window (``ICURegex/results(in:range:options:first:)``),
    /// and an anchored try reads at most ``longestAnchoredMatch`` units: a line of thousands of
    /// keywords costs its length times that, not its square.
    func matches(of rule: GitleaksRules.Rule, lines: [(bytes: Range<Int>, utf16: NSRange)], _ ns: UTF16Text) -> [RegexResult] {
        let options: ICURegex.Options = [.transparentBounds, .withoutAnchoringBounds]
        guard rule.startsWithIdentifier, !rule.spansLines else {
            return windows(of: rule, lines: lines).flatMap { rule.regex.results(in: ns, range: $0, options: options) }
        }
        var results: [RegexResult] = []
        var covered = 0 // UTF-16 offset the last match ended at
        for (index, line) in lines.enumerated() where rule.keywords.contains(where: { Self.holds(lowered[line.bytes], $0) }) {
            let end = NSMaxRange(lines[min(index + 1, lines.count - 1)].utf16)
            var offset16 = line.utf16.location
            var i = line.bytes.lowerBound
            while i < line.bytes.upperBound {
                if rule.keywords.contains(where: { $0[0] == lowered[i] && i + $0.count <= line.bytes.upperBound && lowered[i..<(i + $0.count)].elementsEqual($0) }) {
                    var back = 0
                    while back < 50, i - back - 1 >= line.bytes.lowerBound, Self.isIdentifierByte(utf8[i - back - 1]) { back += 1 }
                    let start = offset16 - back // the bytes walked back over are ASCII: one UTF-16 unit each
                    if start >= covered,
                       let result = rule.regex.results(in: ns, range: NSRange(location: start, length: min(end, start + Self.longestAnchoredMatch) - start),
                                                       options: options.union(.anchored), first: true).first {
                        results.append(result)
                        covered = NSMaxRange(result.range)
                    }
                }
                let byte = utf8[i]
                if byte & 0xC0 != 0x80 { offset16 += byte >= 0xF0 ? 2 : 1 }
                i += 1
            }
        }
        return results
    }

    /// `public` or `publishable` right before a match (`public key: …`), or a field named so
    /// whose value the match is (`"PublicKey": "nodekey:…"`, Tailscale's), compiled once.
    static let publicNameEnd = TextMatcher(#"(?i)publi(?:c|shable)(?:[ \t_\-]*key)?[ \t_\-]*(?:["'”’]?[ \t]*[:=][ \t]*["'“‘]?)?$"#)

    /// The tag before a key Tailscale prints as public (`nodekey:…`, `mkey:…`, `discokey:…`; its
    /// private keys are `privkey:…`), whatever OCR made of the field's name (`"PublickKey":`).
    static let tailscalePublicKeyTag = TextMatcher(#"(?i)^["'“”‘’]*(?:nodekey|discokey|mkey)[ \t]?:[ \t]?$"#)

    /// How far a gitleaks allowlist reads around a match, in UTF-16 units.
    static let allowlistReach = 512

    /// The UTF-16 range of the line that holds `range` (line break included, as `NSString`'s
    /// `lineRange(for:)` has it), cut to `reach` units on either side of it; found by halving.
    static func line(holding range: NSRange, in lines: [(bytes: Range<Int>, utf16: NSRange)], reach: Int) -> NSRange {
        var low = 0, high = lines.count
        while low < high { let mid = (low + high) / 2; if NSMaxRange(lines[mid].utf16) <= range.location { low = mid + 1 } else { high = mid } }
        guard low < lines.count else { return range }
        var end = NSMaxRange(lines[low].utf16)
        // (A range across lines ends on the line of its last unit.)
        var last = low
        while NSMaxRange(range) > end, last + 1 < lines.count { last += 1; end = NSMaxRange(lines[last].utf16) }
        let start = max(lines[low].utf16.location, range.location - reach)
        end = min(end, NSMaxRange(range) + reach)
        return NSRange(location: start, length: end - start)
    }

    /// The most UTF-16 units an anchored try of a one-line rule reads: far more than any key a
    /// rule describes, far less than a hostile line.
    static let longestAnchoredMatch = 4_096

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == 0x5F || byte == 0x2E || byte == 0x2D
    }

    /// Each line's bytes and its UTF-16 range (line break included).
    func lineRanges() -> [(bytes: Range<Int>, utf16: NSRange)] {
        var lines: [(bytes: Range<Int>, utf16: NSRange)] = []
        var start = 0, start16 = 0, offset16 = 0
        for (i, byte) in utf8.enumerated() {
            // UTF-16 units: one for each character's first byte, two for a 4-byte one.
            if byte & 0xC0 != 0x80 { offset16 += byte >= 0xF0 ? 2 : 1 }
            if byte == 0x0A {
                lines.append((start..<(i + 1), NSRange(location: start16, length: offset16 - start16)))
                start = i + 1
                start16 = offset16
            }
        }
        if start < utf8.count { lines.append((start..<utf8.count, NSRange(location: start16, length: offset16 - start16))) }
        return lines
    }

    /// Where `rule` searches: from each line that holds one of its keywords through the next line
    /// (to the end for a rule that spans lines), merged.
    func windows(of rule: GitleaksRules.Rule, lines: [(bytes: Range<Int>, utf16: NSRange)]) -> [NSRange] {
        var windows: [NSRange] = []
        for (index, line) in lines.enumerated()
        where rule.keywords.contains(where: { Self.holds(lowered[line.bytes], $0) }) {
            let last = rule.spansLines ? lines.count - 1 : min(index + 1, lines.count - 1)
            let end = NSMaxRange(lines[last].utf16)
            if let previous = windows.last, NSMaxRange(previous) >= line.utf16.location {
                windows[windows.count - 1].length = max(NSMaxRange(previous), end) - previous.location
            } else {
                windows.append(NSRange(location: line.utf16.location, length: end - line.utf16.location))
            }
            if rule.spansLines { break }
        }
        return windows
    }
}
