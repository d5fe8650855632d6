import Foundation

/// The rules that expect what OCR does to a secret on a screen: spaces inserted inside a token
/// (`sk_live_ MGm2…`, `ghp_Zq8R kW2m…`), an underscore read as a space (`sk live …`), a character
/// confused (`J` → `]`, `0` → `O`, `@` → `Q`), curly or mismatched quotes, dashes of a PEM header
/// read as em dashes. Each finds where a value starts by its label or its provider's prefix, then
/// takes the value across the spaces OCR put in it: a following piece on the same line belongs to
/// the value when it looks machine-made (``isMachineMade(_:_:)``), never when it is a plain word or
/// a flag, so `mysql -pS3cr3t! orders` masks the password and keeps `orders`.
extension SecretScan {
    // MARK: - Pieces of a line

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isLineBreak(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    /// The length of a quote character at `index` (ASCII `'` `"` `` ` ``, or `‘ ’ “ ” „` in
    /// UTF-8), 0 when there is none.
    func quoteLength(at index: Int) -> Int {
        guard index < utf8.count else { return 0 }
        let byte = utf8[index]
        if byte == 0x22 || byte == 0x27 || byte == 0x60 { return 1 }
        if byte == 0xE2, index + 2 < utf8.count, utf8[index + 1] == 0x80, (0x98...0x9E).contains(utf8[index + 2]) { return 3 }
        return 0
    }

    /// The kind of the quote at `index` (``quoteLength(at:)``), whatever glyph OCR read for it:
    /// 1 for a single quote (`'`, `‘`, `’`, `‚`, `‛`), 2 for a double one (`"`, `“`, `”`, `„`, `‟`),
    /// 3 for a backtick; 0 when there is none.
    func quoteFamily(at index: Int) -> Int {
        switch quoteLength(at: index) {
        case 1: return utf8[index] == 0x27 ? 1 : utf8[index] == 0x22 ? 2 : 3
        case 3: return utf8[index + 2] <= 0x9B ? 1 : 2
        default: return 0
        }
    }

    /// The length of a quote, as ``quoteLength(at:)`` counts one, that ends just before `end`; 0 if none.
    func quoteLength(endingAt end: Int) -> Int {
        if end >= 1, quoteLength(at: end - 1) == 1 { return 1 }
        if end >= 3, quoteLength(at: end - 3) == 3 { return 3 }
        return 0
    }

    /// `end` moved back past the quotes that end there (``quoteLength(endingAt:)``), and past the
    /// spaces among them when `spaces` (OCR's, before an address's closing quote: `…%3D '`); never
    /// before `start`.
    func endBeforeClosingQuotes(_ end: Int, notBefore start: Int, spaces: Bool = false) -> Int {
        var end = end
        while end > start {
            if spaces, Self.isSpace(utf8[end - 1]) {
                end -= 1
            } else if case let length = quoteLength(endingAt: end), length > 0, end - length >= start {
                end -= length
            } else {
                break
            }
        }
        return end
    }

    /// Whether a piece of a line (no spaces in it) looks machine-made rather than a word: a digit,
    /// a symbol, or a capital after its first letter with small letters around. A flag (`-h`,
    /// `--force`) is not, nor a word with punctuation after it (`short.`, `Forgot?`).
    func isMachineMade(_ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        let bytes = utf8[start..<end]
        // A flag, unless what follows the `-` is random on its own: 8+ letters, digits or `_` whose
        // case changes inside (`-vsZnnCZtbBYx`, `-azE_syHqOWVv5j`: a value OCR split before its
        // `-`), which no flag's name does.
        // Nor is one whose name (before any `=`) holds a symbol no option's name holds
        // (`-KfbJZ2-%I`: a password that starts with `-`).
        if bytes.first == 0x2D, end - start >= 2, Self.isLetter(utf8[start + 1]) || utf8[start + 1] == 0x2D {
            let rest = bytes.dropFirst()
            let name = rest.prefix { $0 != 0x3D }
            if name.count >= 5, name.contains(where: Self.nameForbiddenSymbols.contains) { return true }
            // (Base64url's `-` may be inside too, where a digit says no option's name is: `-EfscE-2qW2m…`.)
            let digit = rest.contains(where: { (0x30...0x39).contains($0) })
            // (Or both cases and digits, switching often: `-PLX5kj08bCO1Y6i`; an option's name has
            // one case, `--enable-x86-feature`.)
            let cases = rest.contains(where: { (0x41...0x5A).contains($0) }) && rest.contains(where: { (0x61...0x7A).contains($0) })
            // (A `-` inside too when the case changes six times or more: `-E-irXErXjW-yVvvsTcsBpAFI`.)
            let random = Self.caseChanges(rest) >= 6
            guard rest.count >= 8, Self.caseChanges(rest) >= 2 || cases && digit && Self.classSwitches(rest) >= 5,
                  rest.allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D && (digit && cases || random) }) else { return false }
            return true
        }
        // Nor is a Windows tool's option, a `/`, letters and a `:` (`/TargetFile:shop.bacpac` after
        // SqlPackage's `/SourcePassword:…`): no path's first part ends with a colon.
        if bytes.first == 0x2F, case let name = bytes.dropFirst().prefix(while: Self.isLetter), (2...24).contains(name.count),
           start + 1 + name.count < end, utf8[start + 1 + name.count] == 0x3A {
            return false
        }
        var digit = false, symbol = false, innerCapital = false, lower = false, letters = 0
        var previous: UInt8 = 0
        for byte in bytes {
            defer { previous = byte }
            switch byte {
            case 0x30...0x39: digit = true
            case 0x41...0x5A:
                letters += 1
                if (0x61...0x7A).contains(previous) { innerCapital = true } // `aB`, as in random text and camelCase
            case 0x61...0x7A:
                letters += 1
                lower = true
            case 0x21, 0x23, 0x24, 0x25, 0x26, 0x2A, 0x2B, 0x2F, 0x3D, 0x3F, 0x40, 0x5E, 0x5F, 0x7E, 0x7C, 0x5C: symbol = true
            default: break
            }
        }
        // Trailing punctuation alone does not make a word machine-made (`Forgot?`, `docs/`); symbols
        // no sentence or path ends with do (`Jow%*`: a password's piece).
        if symbol, !digit, !innerCapital, letters > 0 {
            let core = bytes.reversed().drop { !Self.isAlphanumeric($0) && !Self.passwordSymbols.contains($0) }
            if core.allSatisfy({ Self.isLetter($0) }) { return false }
        }
        return digit || symbol || (innerCapital && lower)
    }

    /// Symbols that end a password's piece but no word of a sentence or a path: `% * # ^ $ @ ~ + =`.
    static let passwordSymbols: Set<UInt8> = Set("%*#^$@~+=".utf8)

    /// Symbols no command-line option's name of five or more holds: `!` `#` `$` `%` `^` `&` `*` `@` `~` `\` `+`.
    static let nameForbiddenSymbols: Set<UInt8> = [0x21, 0x23, 0x24, 0x25, 0x5E, 0x26, 0x2A, 0x40, 0x7E, 0x5C, 0x2B]

    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// Whether a name found before a label's separator is base64 that happens to hold a label's
    /// letters (`o3iNEIn4ByQfZPnKKGrnPw`): 16+ letters and digits, a digit among them, the case
    /// changing four times or more, and never four small letters in a row, where the words of a
    /// name in camel case have them (`aes256GcmSecretKey`, `getUserAccessTokenForApp2`).
    static func isBase64RatherThanAName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard bytes.count >= 16, bytes.allSatisfy(isAlphanumeric), bytes.contains(where: { (0x30...0x39).contains($0) }),
              caseChanges(bytes) >= 4 else { return false }
        var run = 0
        for byte in bytes {
            run = (0x61...0x7A).contains(byte) ? run + 1 : 0
            if run >= 4 { return false }
        }
        return true
    }

    /// A name's case: 1 in small letters (`db_password`), 2 in capitals (`DB_PASSWORD`), 0 mixed.
    static func nameCase(_ name: some StringProtocol) -> Int {
        name == name.lowercased() ? 1 : name == name.uppercased() ? 2 : 0
    }

    /// Whether `bytes` are letters with no vowel among them (`Ltdwt`, `Zkmzgkbd`): no word, whatever
    /// their case (``splitSettingRest(after:)``, a wrapped rest in ``wrappedRest(after:of:isKey:)``).
    static func isLettersWithoutVowel(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.allSatisfy(isLetter) && !holdsAVowel(bytes)
    }

    /// Whether `bytes` hold a vowel, `y` counted, of either case.
    static func holdsAVowel(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.contains(where: { "aeiouyAEIOUY".utf8.contains($0) })
    }

    /// Whether small letters and digits hold too few vowels for a word: none, or one in six or more
    /// (`gtj`, `rnhzolmk`; a word of six letters or more has two, save rare ones like `strengths`).
    static func hasTooFewVowelsForAWord(_ bytes: some Collection<UInt8>) -> Bool {
        let vowels = bytes.count(where: { "aeiouy".utf8.contains($0) })
        return vowels == 0 || vowels == 1 && bytes.count >= 6
    }

    /// How often a small letter is followed by a capital: random keys do it again and again
    /// (`kkjYCkvxXjtF`), words and names once at most (`GitLab`, `correctAB`).
    static func caseChanges(_ bytes: some Collection<UInt8>) -> Int {
        zip(bytes, bytes.dropFirst()).filter { (0x61...0x7A).contains($0) && (0x41...0x5A).contains($1) }.count
    }

    /// The next piece of the line from `index`: its bounds after at most `maximumSpaces` spaces,
    /// nil at the end of the line. A piece ends after ``longestPiece`` bytes, spaces or not: rules
    /// ask for the piece after each label or cue, and a line of thousands of them without a space
    /// (`;Password=;Password=…`) would cost the square of its length. No line a screen shows is
    /// that long without a space; the next piece starts where the cut one ended.
    func piece(from index: Int, maximumSpaces: Int = 2) -> (start: Int, end: Int)? {
        var start = index, spaces = 0
        while start < utf8.count, Self.isSpace(utf8[start]) {
            spaces += 1
            start += 1
        }
        guard spaces <= maximumSpaces, start < utf8.count, !Self.isLineBreak(utf8[start]) else { return nil }
        var end = start
        let limit = min(utf8.count, start + Self.longestPiece)
        while end < limit, !Self.isSpace(utf8[end]), !Self.isLineBreak(utf8[end]) { end += 1 }
        return (start, end)
    }

    /// The most bytes ``piece(from:maximumSpaces:)`` takes.
    static let longestPiece = 1_024

    /// The length of a prompt's mark at `index` followed by a space: `…`, `›`, `»`, or two or
    /// three dots; nil when there is none.
    func promptMarkLength(at index: Int) -> Int? {
        let marks: [[UInt8]] = [[0xE2, 0x80, 0xA6], [0xE2, 0x80, 0xBA], [0xC2, 0xBB], [0x2E, 0x2E, 0x2E], [0x2E, 0x2E]]
        for mark in marks where index + mark.count < utf8.count && utf8[index..<(index + mark.count)].elementsEqual(mark) {
            return Self.isSpace(utf8[index + mark.count]) ? mark.count : nil
        }
        return nil
    }

    /// A file's name or a path among the pieces after a value (`unrar x -p… backup.rar /srv/`):
    /// it starts with `/`, `~/` or `./`, or is a name and a short extension in small letters.
    func isFileName(_ piece: (start: Int, end: Int)) -> Bool {
        let bytes = utf8[piece.start..<piece.end]
        if bytes.first == 0x2F || bytes.starts(with: [0x7E, 0x2F]) || bytes.starts(with: [0x2E, 0x2F]) { return true }
        guard let dot = bytes.lastIndex(of: 0x2E), dot > piece.start, (2...4).contains(piece.end - dot - 1),
              utf8[(dot + 1)..<piece.end].allSatisfy({ (0x61...0x7A).contains($0) }) else { return false }
        return utf8[piece.start..<dot].allSatisfy { Self.isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// Where a value written after `index` ends, taken across the spaces OCR inserted: each
    /// following piece of the line that looks machine-made, up to `maximumLength` bytes.
    func valueEnd(from end: Int, maximumLength: Int = 160, stoppingAt stops: Set<UInt8> = []) -> Int {
        var end = end
        let start = end
        func isStopped(_ piece: (start: Int, end: Int)) -> Bool {
            !stops.isEmpty && keyPieceEnd(piece.start, piece.end) < piece.end
        }
        // A machine-made piece that runs into a stop (`…-TEMEQNHb6S@gitlab.com`) still belongs
        // to the value up to the stop.
        func untilStop(_ piece: (start: Int, end: Int)) -> Int? {
            let stop = keyPieceEnd(piece.start, piece.end)
            return stop > piece.start && isMachineMade(piece.start, stop) ? stop : nil
        }
        // An address's next part glued to a key its rule ended before the `/` (Telegram's
        // `…/bot<token>/getUpdates`, `/sendMessage?chat_id=42`) is no piece of it (round 143).
        if startsAddressPart(at: end) { return end }
        while var next = piece(from: end), next.end - start <= maximumLength {
            // A shell's redirection or pipe ends a command's argument (`… HomeNet Xk2… > /etc/wpa.conf`).
            if next.start > start, next.end - next.start <= 4, Self.shellOperators.contains(slice(next.start, next.end)) { break }
            // (So does the shell's `\` alone at the line's end, which goes on with the command on the
            // next line: `--token … \`; round 159, older: it was masked with the key.)
            if next.end - next.start == 1, utf8[next.start] == 0x5C, piece(from: next.end, maximumSpaces: .max) == nil { break }
            // A dot or dash alone (`eyJ… . n8ox…`), or a letter or two OCR cut off (`… I TegT…`,
            // and two such scraps where one glyph became a space and a letter: `. ey I ZdWIi…`),
            // joins what is around it.
            // (So does a word OCR read in a key beside one of its joiners alone: round 161.)
            if isJoiner(next), let after = machineMadeAfterScraps(next) ?? machineMadeBesideAShortWord(next, isFirst: next.start == start) {
                guard !isStopped(after) else { return untilStop(after) ?? end }
                next = (next.start, after.end)
            } else if let after = machineMadeBesideAShortWord(next, isFirst: next.start == start) {
                guard !isStopped(after) else { return untilStop(after) ?? end }
                next = (next.start, after.end)
            }
            // (Nor a host's address after the value: `--proxy-auth root:… 10.0.8.21 22`; nor an
            // address with its scheme, the command's next argument: `wget --ftp-password=…
            // ftp://files.acme.io/…`, round 158.)
            // (Nor the next setting, a name in one case and `=` before a value: dbt's `PASS=12 WARN=0
            // ERROR=0`; round 162.)
            guard isMachineMade(next.start, next.end), !isFileName(next), !isSecretsName(next),
                  Self.ipv4Address.firstMatch(in: slice(next.start, next.end)) == nil, !Self.holds(utf8[next.start..<next.end], Self.schemeMark),
                  Self.settingInOneCase.firstMatch(in: slice(next.start, min(next.end, next.start + 36))) == nil else { break }
            guard !isStopped(next) else { return untilStop(next) ?? end }
            end = next.end
        }
        return end
    }

    /// What follows an address's scheme: `://`.
    static let schemeMark = Array("://".utf8)

    /// Whether `piece` starts with an address's next part: `/` and a name of words in small
    /// letters, maybe in camel case (`/getUpdates`, `/repos`, `/send-message`), to the piece's end
    /// or its next `/`, `?` or `#`. A key's scrap of letters after a `/` has too few vowels for
    /// words, or changes case more often.
    func isPathPartOfWords(_ piece: (start: Int, end: Int)) -> Bool {
        guard utf8[piece.start] == 0x2F else { return false }
        let part = utf8[(piece.start + 1)..<piece.end].prefix { $0 != 0x2F && $0 != 0x3F && $0 != 0x23 }
        return Self.pathPartOfWords.firstMatch(in: String(decoding: part, as: UTF8.self)) != nil && !Self.hasTooFewVowelsForAWord(part)
    }
    /// Whether the piece glued at `index` (no space before it) is an address's next part
    /// (``isPathPartOfWords(_:)``): what a key's run ends before.
    func startsAddressPart(at index: Int) -> Bool {
        piece(from: index, maximumSpaces: 0).map(isPathPartOfWords) ?? false
    }
    /// Whether `[start, end)` is a value with its own quotes around it (`'…'`, `"…"`): the closing
    /// one ends it.
    func isInItsQuotes(_ start: Int, _ end: Int) -> Bool {
        end - start >= 3 && (utf8[start] == 0x27 || utf8[start] == 0x22) && utf8[end - 1] == utf8[start]
    }
    /// A shell's operators, at most four bytes each.
    static let shellOperators: Set<String> = [">", ">>", "<", "2>", "2>>", "&>", "|", "||", "&&", "2>&1"]
    static let pathPartOfWords = TextMatcher(#"^[a-z]{2,}(?:[A-Z][a-z]{2,}){0,2}(?:[\-_][a-z]{2,}){0,3}$"#)

    /// A piece of letters alone that names a secret (`secretKey`, `apiToken`): the next value's
    /// name, not a piece of this one (`tccli configure set secretId AKID… secretKey …`).
    func isSecretsName(_ piece: (start: Int, end: Int)) -> Bool {
        piece.end - piece.start >= 5 && utf8[piece.start..<piece.end].allSatisfy(Self.isLetter)
            && Self.secretName(slice(piece.start, piece.end)) != nil
    }

    /// A piece that joins the pieces around it when a machine-made one follows: a dot, dash,
    /// `_` or `:` alone, or a scrap (``isScrap(_:)``).
    func isJoiner(_ piece: (start: Int, end: Int)) -> Bool {
        isScrap(piece) || isSymbolJoiner(piece)
    }

    /// The machine-made piece after `piece` and the one after it, when they are a short word OCR
    /// read in a key (four letters or digits at most, not machine-made) and a lone joiner beside
    /// it, in either order: `…-dfa655fal Sad . bOZR…` for Bitwarden's `…19ad.bOZR…`, `…defd3 .
    /// Ehgj 1kqd18…` (round 161). A word that starts the value is none of a key's. Nil otherwise.
    func machineMadeBesideAShortWord(_ piece: (start: Int, end: Int), isFirst: Bool) -> (start: Int, end: Int)? {
        let isShortWord = { (word: (start: Int, end: Int)) in
            word.end - word.start <= 4 && self.utf8[word.start..<word.end].allSatisfy(Self.isAlphanumeric) && !self.isMachineMade(word.start, word.end)
        }
        // (The piece itself first: a key's long pieces, most of what `valueEnd` walks, end it here.)
        let startsWithJoiner = isSymbolJoiner(piece)
        guard startsWithJoiner || !isFirst && isShortWord(piece), let second = self.piece(from: piece.end),
              startsWithJoiner ? isShortWord(second) : isSymbolJoiner(second),
              let after = self.piece(from: second.end), isMachineMade(after.start, after.end) else { return nil }
        return after
    }

    /// Whether a piece is a key's joiners alone: `.`, `-`, `_` or `:`.
    func isSymbolJoiner(_ piece: (start: Int, end: Int)) -> Bool {
        utf8[piece.start..<piece.end].allSatisfy { [0x2E, 0x2D, 0x5F, 0x3A].contains($0) }
    }

    /// One or two characters OCR cut from a value, maybe with a symbol it read after them
    /// (`f`, `Ee!`, `Cp?`): at most three bytes, at most two of them letters or digits.
    func isScrap(_ piece: (start: Int, end: Int)) -> Bool {
        let bytes = utf8[piece.start..<piece.end]
        return bytes.count <= 2 || (bytes.count == 3 && bytes.filter(Self.isAlphanumeric).count <= 2)
    }

    /// The machine-made piece after `scrap` and at most one more joiner (OCR reads one glyph as
    /// a space and a letter, so a split key may show two scraps in a row), or nil.
    func machineMadeAfterScraps(_ scrap: (start: Int, end: Int)) -> (start: Int, end: Int)? {
        guard let after = piece(from: scrap.end) else { return nil }
        if isMachineMade(after.start, after.end) { return after }
        guard isJoiner(after), let last = piece(from: after.end), isMachineMade(last.start, last.end) else { return nil }
        return last
    }

    /// The bracket that closes each opening one: `[`, `(`, `{`.
    static let closingBrackets: [UInt8: UInt8] = [0x5B: 0x5D, 0x28: 0x29, 0x7B: 0x7D]

    /// The value after a label ending at `index`: quoted (to the next quote of any kind on the line,
    /// or to its end), else a piece and the machine-made pieces after it. `[start, end)` and
    /// whether it was quoted; nil when the line ends first.
    func value(after index: Int) -> (start: Int, end: Int, quoted: Bool)? {
        var i = index
        while i < utf8.count, Self.isSpace(utf8[i]) { i += 1 }
        // A prompt's mark between its question and the answer (`Enter a secret value: … hunter2`,
        // `› `, `» `; OCR reads a `…` as `..`): the answer follows it.
        if let mark = promptMarkLength(at: i) {
            i += mark
            while i < utf8.count, Self.isSpace(utf8[i]) { i += 1 }
        }
        guard i < utf8.count, !Self.isLineBreak(utf8[i]) else { return nil }
        let quote = quoteLength(at: i)
        if quote > 0 {
            // At most a kilobyte: a line of many labels costs linear time, not quadratic.
            // OCR may read one quote as two of different kinds (`="'j sHcd…"`): the value starts
            // after both, also when OCR put a space between them (`=‘ "SOL gtw…';`). The same quote
            // twice is an empty value (`password = '', domain = ''`), unless the value goes on
            // right after them to a quote that closes it on the line (`= ‘‘b8nWpCBj';`).
            var start = i + quote
            let gap = start < utf8.count && Self.isSpace(utf8[start]) ? 1 : 0
            if start + gap < utf8.count, case let more = quoteLength(at: start + gap), more > 0, !utf8[start + gap..<start + gap + more].elementsEqual(utf8[i..<i + quote]),
               gap == 0 || start + gap + more < utf8.count && !Self.isSpace(utf8[start + gap + more]) && !Self.isLineBreak(utf8[start + gap + more]) {
                start += gap + more
            } else if gap == 0, start < utf8.count, case let more = quoteLength(at: start), more > 0, start + more < utf8.count,
                      case let next = utf8[start + more], !Self.isSpace(next), !Self.isLineBreak(next), !",;)]}".utf8.contains(next), quoteLength(at: start + more) == 0 {
                var close = start + more
                while close < min(utf8.count, start + 1024), !Self.isLineBreak(utf8[close]), quoteLength(at: close) == 0 { close += 1 }
                if close < utf8.count, quoteLength(at: close) > 0 { start += more }
            }
            let limit = min(utf8.count, start + 1024)
            var end = start
            while end < limit, !Self.isLineBreak(utf8[end]), quoteLength(at: end) == 0 { end += 1 }
            guard end > start else { return nil }
            // A quote glyph with the value going on right after it (`'m#2dH‘DpL&86e6Bh'`: OCR read a
            // `^` as one) is inside it when another quote closes it on the line. Not one of the
            // opening quote's kind after a space: that closes the value, and the next argument
            // starts (`-p “Ny99…_En "SELECT * FROM DUMMY”`, the password's `^` read as `“`);
            // a quote of the other kind is a literal inside (`-a "name=ops password={{ '…' }}"`).
            let opening = quoteFamily(at: i)
            while end < limit, case let length = quoteLength(at: end), length > 0, end + length < limit,
                  !Self.isSpace(utf8[end + length]), !Self.isLineBreak(utf8[end + length]), !",;)]}".utf8.contains(utf8[end + length]),
                  !(Self.isSpace(utf8[end - 1]) && quoteFamily(at: end) == opening) {
                var next = end + length
                while next < limit, !Self.isLineBreak(utf8[next]), quoteLength(at: next) == 0 { next += 1 }
                guard next < limit, quoteLength(at: next) > 0 else { break }
                end = next
            }
            return (start, end, true)
        }
        guard let first = piece(from: i, maximumSpaces: 0) else { return nil }
        // A YAML tag says where the value is or how it is kept, not what it is: `!vault |` (the
        // encrypted block below), `!secret wifi_password` (Home Assistant), `!Ref DbPassword`.
        if utf8[first.start] == 0x21, Self.isYAMLTag(slice(first.start, first.end)) { return nil }
        // A bracket alone that its line closes holds a description or a list, not a value OCR
        // split: connman's `Passphrase = [ Type=psk, Requirement=mandatory ]` (round 133).
        if first.end - first.start == 1, let close = Self.closingBrackets[utf8[first.start]],
           utf8[first.end..<min(utf8.count, first.end + 256)].prefix(while: { !Self.isLineBreak($0) }).contains(close) { return nil }
        var end = first.end
        // In a connection string, the next `;Name=` ends the value (`Password=Abc123!x;Database=shop`).
        if let next = Self.nextSetting.firstMatch(in: slice(first.start, first.end)) {
            return (first.start, first.start + next.start, false)
        }
        // A list or a sentence goes on after the value: `pass: S3cret!, then…`. Unless what is
        // left is a scrap (`password 3; AWLEagCU`): then OCR read a letter as the `;`.
        while end > first.start, [0x2C, 0x3B].contains(utf8[end - 1]) { end -= 1 }
        if end < first.end, squeezed(first.start, end).count >= 3 { return (first.start, end, false) }
        end = first.end
        end = valueEnd(from: end)
        // No password or key is one or two characters: OCR split it (`DB_PASSWORD=0 j -hZgCaF36`),
        // so the next pieces belong to it, whatever they look like, until it has three or more.
        // Not when a word of letters follows a scrap of letters: that is a sentence
        // (`Password: at least 12 characters`).
        // (Nor when the next piece is a setting of its own, a name of letters and `=`: a row of
        // counts, dbt's `PASS=12 WARN=0 ERROR=0`; round 162.)
        let isLetters = { (start: Int, end: Int) in start < end && self.utf8[start..<end].allSatisfy(Self.isLetter) }
        while squeezed(first.start, end).count < 3, let next = piece(from: end, maximumSpaces: 1),
              !(isLetters(first.start, end) && next.end - next.start >= 3 && utf8[next.start..<next.end].allSatisfy({ (0x61...0x7A).contains($0) })),
              Self.namedSettingStart.firstMatch(in: slice(next.start, min(next.end, next.start + 66))) == nil {
            end = valueEnd(from: next.end)
        }
        return (first.start, end, false)
    }

    /// The value that starts the line after a wide line (``endsAWideLine(_:)``) that ends at `index`
    /// (maybe after spaces), as when a terminal wrapped the line there; nil otherwise. (A line
    /// longer than 400 bytes is wider than a terminal: no terminal wrapped it.)
    func valueStartingTheNextLine(after index: Int) -> (start: Int, end: Int, quoted: Bool)? {
        guard let start = wrapStart(afterSpacesFrom: index), start - 1 - lineStart(of: start - 1, atMost: 401) <= 400 else { return nil }
        return value(after: start)
    }

    /// A YAML tag: `!` and letters (`!vault`, `!secret`, `!Ref`, `!FindInMap`) that read as words:
    /// each word (a capital after a small letter starts the next) holds a vowel and no two capitals
    /// in a row, which a password's random letters after a `!` seldom do (`!FhvhOOVjb`).
    static func isYAMLTag(_ value: String) -> Bool {
        guard value.count >= 3, value.first == "!", value.dropFirst().allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        var words: [[Character]] = [[]]
        for character in value.dropFirst() {
            if character.isUppercase, let last = words[words.count - 1].last, last.isLowercase { words.append([]) }
            words[words.count - 1].append(character)
        }
        return words.allSatisfy { word in
            word.contains(where: "aeiouyAEIOUY".contains) && !zip(word, word.dropFirst()).contains { $0.isUppercase && $1.isUppercase }
        }
    }

    /// A shell's redirection or pipe between pieces: ` < `, ` > `, ` | `.
    static let redirection = TextMatcher(#"[ \t][<>|][ \t]"#)

    static let nextSetting = TextMatcher(#"(?<=.);[A-Za-z][A-Za-z ]{1,30}="#)

    /// A piece that starts as a setting's name does: two or more letters or `_` (no digit, as a
    /// password's scrap has), then `=` or `:` (`WARN=0`, `APPSMITH_ENCRYPTION_SALT=`, `verify_ssl=True`).
    static let namedSettingStart = TextMatcher(#"^[A-Za-z_]{2,64}[=:]"#)

    /// A piece that is a setting: a name in capitals or in small letters (and `_`), `=`, and a value.
    static let settingInOneCase = TextMatcher(#"^(?:[A-Z_]{2,32}|[a-z_]{2,32})=[^=\s]"#)

    /// Whether a value at `start` found for the label at `label` starts a later line as the next
    /// setting does (``namedSettingStart``): the label's own value is empty (`client_secret=` /
    /// `verify_ssl=True`, `…_PASSWORD=` / `…_SALT=`); round 162.
    func isNextLinesSetting(at start: Int, forLabelAt label: Int) -> Bool {
        guard label < start, utf8[label..<start].contains(where: Self.isLineBreak) else { return false }
        return Self.namedSettingStart.firstMatch(in: slice(start, min(utf8.count, start + 66))) != nil
    }

    /// A value with the symbols OCR reads for letters and digits (`}` for `j`, `@` for `0`, `|`
    /// or `\` for `l`, and any character outside ASCII: `®` for `0`, `é` for `5`; keys and tokens are
    /// ASCII) put back as a letter, for the checks of randomness. Where a value is one piece, a
    /// `%` may be read back as the slashed `0` (Inconsolata's) OCR read it for, `readingPercentAsZero`
    /// (`99fda53c817065de81b@fdc1%e22468b`); not in a line's test, where a `%` is as often a
    /// shell's or a format's (`%any`, `50%`) as junk.
    static func withoutOCRJunk(_ value: String, readingPercentAsZero: Bool = false) -> String {
        // (`@` is put back as the `0` it stands for: a key OCR read every `0` of as `@` has no
        // digit left otherwise, `MgSJLj@bevPekeNr/mWWQ/…`.)
        String(value.map { $0 == "@" || readingPercentAsZero && $0 == "%" ? "0" : !$0.isASCII || "}{][)(|!$€\\'\"#&".contains($0) ? "x" : $0 })
    }

    /// A value without the glyph or two of junk the screen's edge may leave after it (`…57ed4?`,
    /// `…62c9%`: no token ends with `%`, whose escapes end with a hex digit; `…GtVv<` at the edge).
    static func withoutTrailingJunk(_ value: String) -> String {
        String(value.reversed().drop(while: { "?.,;:%<>".contains($0) }).reversed())
    }

    /// A letter or digit of a token, or a glyph OCR read for one (``junkGlyphs``, any byte outside ASCII).
    static func isTokenLetterOrJunk(_ byte: UInt8) -> Bool { isAlphanumeric(byte) || byte >= 0x80 || junkGlyphs.contains(byte) }

    /// A byte of a key as OCR read it: a token's letter or junk (``isTokenLetterOrJunk(_:)``), or one
    /// of the symbols keys hold (base64's `+/=`, base64url's `-_`, `.` and `~`).
    static func isKeyByteOrJunk(_ byte: UInt8) -> Bool { isTokenLetterOrJunk(byte) || "+/=-_.~".utf8.contains(byte) }

    /// A name in capitals as OCR reads it, put back: a space beside a `_` dropped, a space for a `_`
    /// made one (`DB_ PASSWORD`, `API SECRET` → `DB_PASSWORD`, `API_SECRET`).
    static func joinedName(_ name: String) -> String {
        name.replacingOccurrences(of: " _", with: "_").replacingOccurrences(of: "_ ", with: "_").replacingOccurrences(of: " ", with: "_")
    }

    /// Whether a value is a list of two or more random tokens, each after a `,` (base64's `+`, `/`
    /// and `=` padding aside, and OCR's junk): Strapi's `APP_KEYS`. Only after a name that says it
    /// holds keys (``secretName(_:)``).
    static func isListOfRandomTokens(_ value: String) -> Bool {
        guard value.contains(","), case let parts = value.split(separator: ",", omittingEmptySubsequences: false), parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            // (OCR may read a `+` as `-`; a key may hold no digit, `DAnZovowfQukgeyObrsNdw==`, and
            // the name says what the list holds: 12+ characters of random case will do.)
            let body = withoutOCRJunk(String(part.reversed().drop(while: { $0 == "=" }).reversed().filter { !"+/-".contains($0) }))
            guard body.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
            // (Three changes from small to capital letters in 16+, four in 12+: `ASASXxKOyZyt+hoBELCUMLg==`.)
            return isRandomToken(body) || body.count >= 12 && caseChanges(body.utf8) >= (body.count >= 16 ? 3 : 4) && entropy(body) >= 3.0
        }
    }

    /// The value's bytes without the spaces OCR put in it.
    func squeezed(_ start: Int, _ end: Int) -> String {
        String(decoding: utf8[start..<end].filter { !Self.isSpace($0) }, as: UTF8.self)
    }

    // MARK: - Labels and assignments

    /// An identifier that names a secret (`PGPASSWORD`, `SMTP_PASS`, `OPENAI_API_KEY`,
    /// `db.password`, `--password`, `clientSecret`, a Wi-Fi `psk`, npm's `_auth`, a personal access token's `GITHUB_PAT`, a subscript's `os.environ["API_KEY"]`,
    /// a quoted key before `=>` (PHP's and Perl's `'dbpassword' => '…'`, its closing quote maybe
    /// read as `!` or `*`: `‘secret! => '…'`) or `:` (JSON's and a Python
    /// dict's `"AtRestEncryptKey": "…"`), a PHP variable assigned
    /// (`$wgSecretKey = "…"`, and an object's member, `$CFG->dbpass = '…'`, whose `>` OCR dropped); OCR
    /// may read an `l` of a part before a `_` as `|` or `]` (`sas|_password`), a `J` before `_AUTH` as `)` (`NEO4)_AUTH`), and
    /// may put a space on either side of a `_`: `ldap _default_authtok`, a word of one case after it,
    /// (parts may be joined by two `_`, as Airflow's and .NET's settings are: `AIRFLOW__CORE__FERNET_KEY`, round 155;
    /// OCR may put a space on either side of them: `AIRFLOW __CORE__…`, round 156; an application's
    /// `…_SALT` after a `_` or `.`, ``secretName(_:)``'s; a dump's `Salt:` alone is public, round 162;
    /// or after a space OCR read for that `_`, before `=` and a quoted value, `$g_crypto_master salt = '…'` (`$g_crypto_ master salt`), or a space OCR put after the `_`, `$g_crypto_master_ salt`, round 163),
    /// a last word after a space and a `-`, glued to its `=` (`scw init secret -key=…`: OCR split `secret-key`; round 156),
    /// not a value that starts with `_`: `--eab-hmac-key _Ke6RM…`), then
    /// `=`, `:` (not a path's `::`, `Credentials::new`, which OCR may space: `Credentials: :new`), `:=`, `is` or only spaces
    /// (after the name's closing quote, which OCR may read twice: `"SessionToken"”: "IQoJ…`; round 136;
    /// or as a `]` before a subscript's own, `$config['db_pass]] = …`; round 163); or
    /// one more word and `=` or `:` (group 4, 5: a `_` OCR read as a space, or a name's last letters
    /// OCR split off, `DBPasswor d=`), not an address's scheme (nginx's `proxy_pass http://backend:8080`).
    static let secretIdentifier = TextMatcher(
        #"(?<![A-Za-z0-9_.\-$%{/+\\])(?:export\s+|set\s+|\$env:|\$(?=[A-Za-z_][A-Za-z0-9_]{0,63}(?:-[A-Za-z_][A-Za-z0-9_]{0,63})?[ \t]*=[^=]))?(-{0,2}(?:[A-Za-z0-9]+(?:[|\]][A-Za-z0-9]*)?(?: __|__ ?|[_.\-]|_ | _))*[A-Za-z0-9]*(?:(?i:pass|pwd|pw|secret|token|key|psk|credentials?|authtok|session)|(?<=[_.]|[_.] )(?i:salt)|(?=[sS][aA][lL][tT])(?<=_ ?[A-Za-z0-9]{1,24} )(?i:salt)(?=[ \t]*=[ \t]*["'‘’“”])|\)?_AUTH\b|_(?:PAT|pat)\b|(?<![A-Za-z0-9])_auth(?![A-Za-z0-9_]))[A-Za-z0-9]*(?:[_.\-][A-Za-z0-9]+|(?:_ | _)(?:[a-z0-9]+|[A-Z0-9]+)(?![A-Za-z0-9])| -[a-z][a-z0-9]{1,11}(?==))*)(?:(?:["'”’]{0,2}|["'”’]\]|\]\](?=[ \t]*=[^=])|["'!*](?=[ \t]*=>))[ \t]*(:=|==|=>|:(?![ \t]?:[ \t]?[A-Za-z_])|[=：]|>(?=[ \t]+["'“‘]))|[ \t]+(is)\b|[ \t]([A-Za-z0-9]{1,12})[ \t]*(:=|[:=])(?![ \t]?//)(?=[ \t]*[^\s=])|(?=[ \t]))"#)

    /// The last word of a name about a secret's place or kind, not the secret: `TOKEN_URL`,
    /// `SECRET_NAME`, `passwordVariable`, and a form's parts (`passwordInput`, `tokenError`).
    static let wordsAboutASecret: Set<String> = [
        // (An Amazon Resource Name says where it is kept: `KMSMasterKeyArn`, `SECRET_ARN`; round 165.)
        "url", "uri", "path", "file", "name", "id", "arn", "type", "field", "variable", "var", "env", "endpoint", "header", "length", "size",
        "count", "prefix", "hint", "label", "policy", "format", "mode", "reset", "expiry", "expires", "ttl", "timeout", "hash",
        "strength", "confirm", "confirmation", "input", "element", "button", "toggle", "icon", "error", "pattern", "regex", "placeholder",
        // Measures and limits: `PASSWORD_RESET_TIMEOUT=3600`, `TOKEN_MAX_AGE`, `SECRET_ROTATION_DAYS`.
        "min", "max", "minimum", "maximum", "age", "seconds", "minutes", "hours", "days", "lifetime", "interval", "limit", "attempts",
        "retries", "rounds", "iterations", "rotation", "history",
        // Where a program looks the secret up: Postfix's `smtp_sasl_password_maps = hash:/etc/…`.
        "maps",
        // When it was set or changed: Active Directory's `PasswordLastSet` (`pwdLastSet`), a users
        // table's `password_changed_at`, `token_created_at`, `PasswordExpired` (round 151).
        "set", "at", "date", "time", "timestamp", "changed", "updated", "created", "modified", "rotated", "expired"]
    static let passwordWords: Set<String> = ["password", "passwd", "pass", "pwd", "passphrase", "passwort", "pword", "psk"]
    /// Words ending in `pass` that name no password (`--bypass`, `multipass`).
    static let wordsEndingInPass: Set<String> = ["bypass", "compass", "encompass", "surpass", "overpass", "underpass", "trespass", "multipass",
                                                 "firstpass", "subpass", "renderpass", "onepass"]
    /// The words before `key` that make it a secret's name (`api key`, `client_key`, `authkey`).
    static let kindsOfKey: Set<String> = ["api", "secret", "access", "private", "client", "auth", "signing", "encryption", "master",
                                          "license", "licence", "app", "service", "admin", "account", "subscription", "webhook", "setup", "hmac",
                                          // WireGuard's and IPsec's `PresharedKey`, Azure's `SharedKey`, a Zigbee
                                          // `network_key`, Z-Wave's `s2_access_control_key`.
                                          "preshared", "shared", "network", "control",
                                          // Airflow's and Python cryptography's `fernet_key`; ASP.NET's `machineKey`
                                          // `validationKey`/`decryptionKey`; Mattermost's `AtRestEncryptKey`.
                                          "fernet", "validation", "decryption", "encrypt",
                                          // A streaming service's stream key (OBS's `Stream Key`, Twitch's `live_…`):
                                          // whoever holds it broadcasts on the channel.
                                          "stream",
                                          // Vault's unseal and recovery keys (`vault operator init`), shares of its root key.
                                          "unseal", "recovery",
                                          // An alerting service's key: PagerDuty's `routing_key` and `integration_key`
                                          // (anyone holding it raises incidents), an ingest key (Honeycomb's; an
                                          // ingestion key, SigNoz's, round 158). An
                                          // AMQP routing key is a name (`orders.created`): no random value follows.
                                          "routing", "integration", "ingest", "ingestion",
                                          // A feature-flag service's server-side key: Flagsmith's `environment_key`
                                          // (`ser.…`), an `SDK_KEY` (LaunchDarkly's, Split's, ConfigCat's); round 159.
                                          "environment", "sdk",
                                          // A JSON Web Token's signing key (Airsonic's `JWTKey`, `JWT_KEY`); round 165.
                                          "jwt"]

    /// Whether a word before `key` names a kind of key (``kindsOfKey``), or a long one (6+) as OCR
    /// misread it by one letter: `encryptionkKey`, a capital read as two glyphs, splits as
    /// `encryptionk` and `key`.
    /// (OCR reads a capital `J` as `I`, `l` or `1` in many fonts: `IWTKey`; round 165.)
    static func isKindOfKey(_ word: String) -> Bool {
        kindsOfKey.contains(word) || isMisreadByOneLetter(word, from: longKindsOfKey)
            || word.count >= 3 && "il1".contains(word.first!) && kindsOfKey.contains("j" + word.dropFirst())
    }

    /// Whether `word` is one of `words` as OCR misread it by one letter (added, dropped or
    /// changed); only long words (6+) on both sides, where one letter off is still that word.
    static func isMisreadByOneLetter(_ word: String, from words: [(word: String, count: Int)]) -> Bool {
        let count = word.count
        return count >= 6 && words.contains {
            abs($0.count - count) <= 1 && EditDistance.levenshtein($0.word, word, limit: 1) != nil
        }
    }

    /// The words of 6+ letters of a set, with their lengths (``isMisreadByOneLetter(_:from:)``
    /// reads them for each name: counting a string's characters again each time cost more than the rest).
    static func longWords(of words: Set<String>) -> [(word: String, count: Int)] {
        words.map { ($0, $0.count) }.filter { $0.count >= 6 }
    }
    static let longKindsOfKey = longWords(of: kindsOfKey)
    static let longWordsAboutASecret = longWords(of: wordsAboutASecret)

    /// Whether an identifier's last word says it is about a secret rather than one
    /// (``wordsAboutASecret``): `PASSWORD_RESET_TIMEOUT`, `passwordMinLength`. One word alone is no such name.
    /// (A long word as OCR misread it by one letter counts too: `PASSWORD _RESET_TIMEOQUT`.)
    static func namesSomethingAboutASecret(_ identifier: some StringProtocol) -> Bool {
        let words = nameWords(identifier)
        guard words.count > 1, let last = words.last else { return false }
        return isWordAboutASecret(last)
    }

    static func isWordAboutASecret(_ word: String) -> Bool {
        wordsAboutASecret.contains(word) || isMisreadByOneLetter(word, from: longWordsAboutASecret)
    }

    /// Whether a name's words say its value is made to be published: a `public` or `publishable`
    /// key, or a CAPTCHA's site key (`data-sitekey`, `RECAPTCHA_SITE_KEY`; its pair is the secret key).
    static func namesAPublicValue(_ words: [String]) -> Bool {
        words.contains("public") || words.contains("publishable") || words.contains("sitekey")
            || zip(words, words.dropFirst()).contains { $0 == "site" && $1 == "key" }
            // A GPG key named by its id or fingerprint (Docker images' `GPG_KEY`, `PGP_KEYS`); its
            // secret part is named so (`GPG_PRIVATE_KEY`, `GPG_PASSPHRASE`).
            || words.contains(where: { $0 == "gpg" || $0 == "pgp" }) && ["key", "keys", "keyid", "fingerprint"].contains(words.last ?? "")
                && !words.contains("private") && !words.contains("secret")
    }

    /// An identifier's words, in small letters: split at `_ - .`, where a small letter meets a
    /// capital (`clientSecret`) and where an acronym meets a word (`JWTKey`).
    static func nameWords(_ bare: some StringProtocol) -> [String] {
        var words: [String] = [], current = ""
        var previous: Character?
        for character in bare {
            // (A space is OCR's, beside a `_` it kept or for one: `password_ maps`.)
            if "_.- ".contains(character) {
                if !current.isEmpty { words.append(current.lowercased()) }
                current = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase, !current.isEmpty {
                    // (OCR may read a capital as its small letter and itself, `apikKey` for `apiKey`:
                    // the doubled letter is one; round 153.)
                    if current.count >= 3, String(previous) == character.lowercased() { current.removeLast() }
                    words.append(current.lowercased())
                    current = ""
                }
                // (An acronym before a capitalized word, `JWTKey`, `HTTPServer`: the word starts at
                // the capital before its small letters, seen at the second of them; `URLs` stays one.
                // Round 165.)
                if character.isLowercase, let previous, previous.isLowercase, current.count >= 4,
                   case let capitals = current.dropLast(2), capitals.allSatisfy({ $0.isUppercase }),
                   current[current.index(current.endIndex, offsetBy: -2)].isUppercase {
                    words.append(String(capitals).lowercased())
                    current = String(current.suffix(2))
                }
                current.append(character)
            }
            previous = character
        }
        if !current.isEmpty { words.append(current.lowercased()) }
        // (OCR may read a word's capital twice, `encryptionKkey`: the doubled letter is one.)
        return words.map { word in
            guard word.count >= 4, case let letters = Array(word), letters[0] == letters[1], letters[0].isLetter,
                  bare.contains(String(letters[0]).uppercased() + String(letters[0])) else { return word }
            return String(word.dropFirst())
        }
    }

    /// What an identifier names: a password, a token or key, or nothing.
    static func secretName(_ identifier: String) -> SecretKind? {
        let bare = identifier.drop { $0 == "-" }
        guard bare.count >= 3 else { return nil }
        let words = nameWords(bare)
        // What names a secret's place or kind (``wordsAboutASecret``), or a public key, names no secret.
        // (Consul's and Vault's `SecretID` / `secret_id` is the token itself, not the id of one.)
        if words == ["secret", "id"], !identifier.contains(" ") { return .apiKey }
        // Duo's secret key is `skey` (`pam_duo.conf`, `authproxy.cfg`; its pair `ikey` is an id).
        if words == ["skey"] { return .apiKey }
        // npm's `_auth` (`.npmrc`) holds the user's name and password in base64.
        if identifier == "_auth" { return .password }
        if let last = words.last, Self.isWordAboutASecret(last) { return nil }
        if namesAPublicValue(words) { return nil }
        // Nor does a name that says its value is hashed (Tor's `HashedControlPassword 16:…`), or
        // encrypted in its last two words (Junos's `encrypted-password "$6$…"`, Devise's
        // `encrypted_password`: a crypt hash, whose `$` OCR may read as `S`, `S6SbNTRg…`; Kibana's
        // `encryptedSavedObjects.encryptionKey` is a key).
        if words.contains(where: { $0.hasPrefix("hashed") }) || words.dropLast().last == "encrypted" { return nil }
        let passwords = Self.passwordWords
        // Also glued to what comes before it (`ROOTPASSWORD`, `dbpassword`, and `user=ciSpassword=`
        // where OCR read the `&` before it as `S`).
        if words.contains(where: { passwords.contains($0) || $0.hasSuffix("password") || $0.hasSuffix("passwd") }) { return .password }
        // A numbered one (Tasmota's `Password1`, `PASSWORD2`).
        if let last = words.last, last.last?.isNumber == true, passwords.contains(String(last.reversed().drop(while: \.isNumber).reversed())) {
            return .password
        }
        // A name's last word `pw` after others (OpenLDAP's `olcRootPW`, `bindPw`, `admin_pw`); `pw`
        // alone is a note's label (``looseLabel``).
        if words.count > 1, words.last == "pw" { return .password }
        // An application's salt (Nextcloud's `passwordsalt`, `HASH_SALT`, `password_salt`) is a
        // secret as its key is; the caller takes a random value only.
        if let last = words.last, last == "salt" || last.hasSuffix("salt") && passwords.contains(where: last.hasPrefix) { return .apiKey }
        // A setting's `credentials` (`ldap.bind.credentials=…`) holds a password; the caller takes
        // only a value that looks like one on its own (no path).
        if let last = words.last, last == "credentials" || last == "credential" { return .password }
        // PAM's and SSSD's word for it: `ldap_default_authtok = …` (an `authtok_type` is about one).
        if words.contains("authtok") { return .password }
        // A tool's option or a setting whose name ends with `pass` (`-storepass`, `-keypass`:
        // keytool's; offlineimap's `remotepass`, `smtppass`).
        if let last = words.last, last.hasSuffix("pass"), !Self.wordsEndingInPass.contains(last) { return .password }
        // An all-capital variable holds its name glued: PGPASSWORD, MYSQLPWD, APPSECRET.
        let upper = bare.uppercased()
        if bare == upper, ["PASSWORD", "PASSWD", "PASSPHRASE"].contains(where: upper.contains) { return .password }
        // (Or its short form last, a tool's name before it: CrateDB's `CRATEPW`, `MYSQLPWD`; round 164.)
        if bare == upper, words.count == 1, bare.count >= 5, bare.allSatisfy(\.isLetter), bare.hasSuffix("PW") || bare.hasSuffix("PWD") { return .password }
        // A variable of capitals named for a tool's credentials (`REDISCLI_AUTH`, `NEO4J_AUTH`); the
        // caller takes a value that looks like a secret only (not `ENABLE_AUTH=true`).
        if bare == upper, words.count > 1, words.last == "auth" { return .password }
        if words.contains("secret") || words.contains("token") || words.contains("apikey") { return .apiKey }
        // A personal access token named by its initials after what it is for (`GITHUB_PAT`,
        // `AZURE_DEVOPS_EXT_PAT`); `pat` alone is a name.
        if words.count > 1, words.last == "pat" { return .apiKey }
        // Glued in small letters: `authkey` (`tailscale up --authkey=…`), `accesskey`, `authtoken`;
        // a secret glued to what it is or what is done with it (`clientsecret`, BigBlueButton's
        // `--setsecret`; round 157).
        let keyKinds = Self.kindsOfKey
        // (Or an API's key glued after what it is, Porkbun's `secretapikey`; round 162.)
        if words.contains(where: { $0.hasSuffix("key") && keyKinds.contains(String($0.dropLast(3))) || $0.count > 5 && $0.hasSuffix("token")
            || $0.count > 6 && $0.hasSuffix("secret") || $0.count > 6 && $0.hasSuffix("apikey") && !$0.hasPrefix("public") }) {
            return .apiKey
        }
        // A macaroon is a bearer credential (LND's `Grpc-Metadata-macaroon`, snapd's); round 162.
        if words.contains("macaroon") || words.contains("macaroons") { return .apiKey }
        if bare == upper, ["SECRET", "TOKEN", "APIKEY"].contains(where: upper.contains) { return .apiKey }
        // A tool's session in a variable of capitals (`BW_SESSION`, `OP_SESSION_my`): the token that
        // unlocks it. Not a desktop's (`XDG_SESSION_TYPE`, `DESKTOP_SESSION=ubuntu`: no random value)
        // nor `SESSION_MANAGER`; the caller takes a random token only.
        if let index = words.lastIndex(of: "session"), index > 0, index >= words.count - 2,
           case let name = bare.split(separator: "_").prefix(index + 1).joined(separator: "_"), name == name.uppercased() {
            return .apiKey
        }
        // An HTTP header of an API's own, `X-…-Key` (`X-RapidAPI-Key`, `X-Goog-Api-Key`), names its key.
        if words.count >= 3, words.first == "x", words.last == "key" { return .apiKey }
        // `key` alone names too much (`Primary key`, `Key: Enter`): only as a kind of key.
        // (Or several, Strapi's `APP_KEYS=…,…`, Laravel's `APP_PREVIOUS_KEYS`; round 153.)
        if let index = words.firstIndex(where: { $0 == "key" || $0 == "keys" }), index > 0,
           isKindOfKey(words[index - 1]) {
            return .apiKey
        }
        return nil
    }

    /// The word in capitals (and digits) that `export` gives before `index`, one space apart
    /// (`export OP SESSION`: OCR read the `_` between as a space). Nil otherwise.
    func exportedWordBefore(_ index: Int) -> String? {
        guard index >= 2, utf8[index - 1] == 0x20 else { return nil }
        var start = index - 1
        while start > 0, index - start <= 33, (0x41...0x5A).contains(utf8[start - 1]) || (0x30...0x39).contains(utf8[start - 1]) { start -= 1 }
        guard start < index - 1, start >= 7, slice(start - 7, start) == "export " else { return nil }
        return slice(start, index - 1)
    }

    /// A `;` (a space before it or none) and the next setting's name and `=`, in settings quoted
    /// together. (``nextSetting`` is a connection string's, read inside one piece: its names may
    /// hold spaces, `Initial Catalog=`, and no space comes before its `;`.)
    static let nextQuotedSetting = TextMatcher(#"[ \t]?;[ \t]?[A-Za-z_][A-Za-z0-9_.\-]{0,63}="#)

    /// Values after labels, whatever their separator and quoting: `export PGPASSWORD='…'`,
    /// `SMTP_PASS=…`, `--password=…`, `Wi-Fi password …`, `OPENAI_API_KEY="…”`, and values OCR
    /// split with spaces. A value after spaces only must look machine-made and be 6+ characters.
    func labelledValues() -> [Secret] {
        var found = gluedPasswords()
        let lines = lines(mentioning: ["pass", "pw", "secret", "token", "key", "psk", "credential", "authtok", "session", "_auth", "_pat", "salt"])
        guard !lines.isEmpty else { return found }
        // A label inside the value of a label before it is that value's text, once the value was
        // taken or is long (`token:"token:"token:"…`, `password=password=…`): each byte of a long
        // value is read for one label, so a line of many labels costs its length, not its square.
        var readUntil = 0
        for match in Self.secretIdentifier.matches(in: searchable, within: lines) where match.start >= readUntil {
            let foundBefore = found.count
            var read: (start: Int, end: Int)?
            defer {
                if let read, found.count > foundBefore || read.end - read.start >= Self.longValue { readUntil = read.end }
            }
            guard var identifier = match[1] else { continue }
            var separator = match[2] ?? match[3], valueStart = match.end
            // A name in capitals OCR glued to its value, the `=` read as a `-` (Open WebUI's
            // `-e WEBUI_SECRET_KEY-ULCkGEg9…`; round 163): the name before the `-` names a secret, the
            // rest is a random token (16+, letters and digits), no word of a name.
            if separator == nil, match[4] == nil, let range = match.range(1), let dash = identifier.lastIndex(of: "-"),
               case let name = String(identifier[..<dash]), case let rest = String(identifier[identifier.index(after: dash)...]),
               Self.nameCase(name) == 2, name.contains("_"), Self.isRandomToken(rest), Self.nameCase(rest) != 2, Self.secretName(name) != nil {
                identifier = name
                separator = "="
                valueStart = range.lowerBound + name.utf8.count + 1
            }
            // OCR may drop the `=` of a Ruby-style `=>` (Logstash's `password => "…"` read
            // `password > "…"`): a lone `>` before a quoted value is that separator where the lines
            // around use `=>`; elsewhere it is a shell's redirection (`echo password > "notes.txt"`).
            // (Round 155.)
            if separator == ">" {
                guard linesAround(match.start, hold: Array("=>".utf8)) else { continue }
                separator = "=>"
            }
            if let word = match[4], let separatorAfterWord = match[5] {
                // OCR reads a `_` as a space (`aws_secret_access key = …`): after a snake_case name,
                // one more word of its case and `=` or `:` end the name. Otherwise the word may
                // be the value (`password Tr0ub4dor: …`).
                // Two words in capitals that name a secret joined (`SECRET KEY = …`) are one name too.
                let capitalsNamingASecret = Self.nameCase(identifier) == 2 && Self.nameCase(word) == 2 && Self.secretName(identifier + "_" + word) != nil
                if identifier.contains("_") || capitalsNamingASecret, Self.nameCase(identifier) != 0, Self.nameCase(identifier) == Self.nameCase(word) {
                    // (Unless the word is the name's last letter or two OCR split off, glued to its
                    // `=`: `CHROMA_SERVER_AUTHN_ CREDENTIAL S="…"`; round 162.)
                    let splitEnd = (1...2).contains(word.count) && match.text.hasSuffix(word + separatorAfterWord)
                        && Self.secretName(identifier + "_" + word) == nil && Self.secretName(identifier + word) != nil
                    identifier += splitEnd ? word : "_" + word
                    separator = separatorAfterWord
                } else if Self.secretName(identifier) == nil, (1...2).contains(word.count), word.allSatisfy(\.isLetter),
                          match.text.hasSuffix(word + separatorAfterWord), Self.secretName(identifier + word) != nil {
                    // A name OCR split before its last letter or two, glued to its `=` (`DBPasswor d=`).
                    identifier += word
                    separator = separatorAfterWord
                } else if Self.nameCase(identifier) == 2, Self.nameCase(word) == 1, separatorAfterWord == "=", match.text.hasSuffix(word + separatorAfterWord),
                          case let exported = identifier.contains("_") ? nil : match.range(1).flatMap({ exportedWordBefore($0.lowerBound) }),
                          identifier.contains("_") || exported != nil {
                    // A capitals name's suffix in small letters, glued to its `=` (1Password's
                    // `OP_SESSION_acme=`, `DB_PASSWORD_prod=`), its `_` read as a space. (Both `_`
                    // of an exported one too: `export OP SESSION acme=`.)
                    if let exported { identifier = exported + "_" + identifier }
                    identifier += "_" + word
                    separator = separatorAfterWord
                } else if identifier.lowercased() == "secret", word.lowercased() == "id", separatorAfterWord != ":=",
                          let first = piece(from: match.end, maximumSpaces: 16), uuidEnd(from: first.start) != nil || isSplitUUIDToLineEnd(from: first.start) {
                    // Nomad's `Secret ID    = …` (Consul's `SecretID:`) is the token itself, a UUID, its
                    // name split by a space (`Secret ID` before anything else may be the id of one).
                    identifier = "SecretID"
                    separator = separatorAfterWord
                } else if word.lowercased() == "value" {
                    // A prompt's `secret value:`, `token value:` names what it asks for.
                    separator = separatorAfterWord
                } else if word.count == 1, word.allSatisfy(\.isNumber),
                          Self.secretName(identifier) != nil || match.range(1).flatMap({ nameJoined(identifier, at: $0.lowerBound) }) != nil {
                    // A glyph of junk OCR put between the name and its `=`, read as a digit (`$CFG->dbpass
                    // 9 = '…'`; a letter there is a word's, `Pass s = 0 to …`); or a numbered key's
                    // number, its kind the word before (Vault's `Unseal Key 1: …`).
                    separator = separatorAfterWord
                } else if separatorAfterWord == "=" || separatorAfterWord == ":", Self.namesSomethingAboutASecret(identifier + "_" + word) {
                    // (A name about the secret, its `_` read as a space: `PASSWORD FILE=/run/secrets/…`
                    // for `GF_SECURITY_ADMIN_PASSWORD__FILE=` says where it is kept.)
                    continue
                } else if let range = match.text.range(of: identifier) {
                    separator = nil
                    valueStart = match.start + match.text.utf8.distance(from: match.text.startIndex, to: range.upperBound)
                }
            }
            // A name given as an option's value, spaces after it, is that value, no label: `vault kv get
            // -field=password kv/app/db`, `<input type=password name=pw>` (round 156).
            if separator == nil, let range = match.range(1), range.lowerBound > 0, utf8[range.lowerBound - 1] == 0x3D { continue }
            // (A name that names nothing alone after a word of capitals that `export` gives is that
            // word's rest, the `_` between read as a space: `export OP SESSION _acme=`.)
            if match[4] == nil, Self.secretName(identifier) == nil, let range = match.range(1), let exported = exportedWordBefore(range.lowerBound) {
                identifier = exported + "_" + identifier
            }
            // (Only before `=` or `:`: after spaces alone, the word before is a word of prose, as in
            // `Add new upstream signing key 19882D92…`.)
            // (A tool's bare `--key=` is its key when the value is a random token: kopia's, restic's
            // B2 `--key=K005…`; a path or a name is not, as the token test below has it. So is `--key`
            // before a UUID, Cypress' `run --record --key 1f0c…`; round 156.)
            // (A bare `key` beside a user's name is that user's API key: Kaggle's `kaggle.json`,
            // `{"username":"ana","key":"…"}`; the token test below still decides. So is one that starts
            // its line under a user's or an e-mail's setting: `.zuliprc`'s `email=…` / `key=…`; round 156.)
            guard let kind = Self.secretName(identifier) ?? (identifier == "--key" && (separator == "=" || separator == nil) ? .apiKey : nil)
                    ?? (identifier.lowercased() == "key" && (separator == ":" || separator == "=")
                        && (userFieldBefore(match.start) || startsLine(match.start) && Self.accountSettingLine.firstMatch(in: linesAbove(match.start, 3)) != nil) ? .apiKey : nil)
                    ?? (separator == nil || separator == "is" ? nil : match.range(1).flatMap({ nameJoined(identifier, at: $0.lowerBound) })) else { continue }
            // A setting whose name only ends in `pass` (`remotepass = …`) is one with `=`: after a
            // colon it is as likely a name of something else (a kernel changelog's `lpass: Fix …`).
            if kind == .password, !identifier.hasPrefix("-"), separator != "=", separator != ":=",
               let last = Self.nameWords(identifier).last, last.hasSuffix("pass"), !Self.passwordWords.contains(last) { continue }
            // (Base64 that holds a label's letters, then its `=` padding, is no name: `…GrnPw==$ZhAP…`,
            // a SCRAM verifier's salt before its keys.)
            if Self.isBase64RatherThanAName(identifier) { continue }
            // (A terminal may have wrapped the line right after the name and its `:` or `=`: the value
            // starts the next line, `…Super user authentication token:` / `6642…`.)
            guard var (start, end, quoted) = value(after: valueStart) ?? (separator == ":" || separator == "=" ? valueStartingTheNextLine(after: valueStart) : nil),
                  end > start else { continue }
            // (`to` after the name is a sentence's, the value after it: `set the password to …`,
            // `Setting the authentication token to "…"`, whose quotes then hold it all, as OCR split
            // it; round 159. Before, the word was masked with a value's first piece.)
            if separator == nil, !quoted, end - start > 3, slice(start, start + 3) == "to ", let after = value(after: start + 3) {
                guard after.end > after.start else { continue }
                (start, end, quoted) = after
            }
            // (A shell's command substitution where the value goes says where it comes from, whatever
            // follows on the line: `MEILI_MASTER_KEY=$(cat /run/secrets/meili) # rotate 2026-11-24`,
            // ``isPlaceholder(_:)``; `$(echo '…')` prints one. Older than round 157, found then.)
            if !quoted, end - start >= 2, utf8[start] == 0x24, utf8[start + 1] == 0x28, Self.isPlaceholder(slice(start, end)) { continue }
            // (A word in brackets where the value goes says it is not shown, `Secret: (hidden) checksum
            // 8fbc…`, `token: <redacted>`: what follows is the line's, no value; round 157.)
            // (Or words, `SECRET_KEY=(rotated monthly) see vault …`; round 164.)
            if !quoted, end - start >= 4, "(<[".utf8.contains(utf8[start]),
               let close = utf8[(start + 1)..<min(utf8.count, start + 48)].firstIndex(where: { !Self.isLetter($0) && !Self.isSpace($0) }),
               close > start + 2, ")>]".utf8.contains(utf8[close]), Self.isLetter(utf8[start + 1]), Self.isLetter(utf8[close - 1]) { continue }
            // After spaces alone, a `;` ends the name's setting (a connection string OCR spaced:
            // `SharedAccessKeyName=RootManageSharedAccessKey ; SharedAccessKey=…`): no value, and
            // the setting after it is read for its own name.
            if separator == nil, !quoted, utf8[start] == 0x3B { continue }
            // In a connection string, a value OCR split ends at its `;`: the settings after it stay
            // (`…;Uid=app; Pwd=Qm -Xk7R2pLw ; Encrypt=yes`, round 144).
            if !quoted, let label = match.range(1)?.lowerBound, let semicolon = connectionStringValueEnd(label: label, value: start), semicolon < end {
                end = semicolon
            }
            // `wpa_passphrase SSID [passphrase]`: the tool's first argument is the network's name,
            // which stays; its passphrase is the second, or what is piped to it (round 143).
            if separator == nil, identifier.lowercased() == "wpa_passphrase" {
                let ssidEnd = quoted && end < utf8.count ? end + quoteLength(at: end) : piece(from: start, maximumSpaces: 0)?.end ?? end
                guard let passphrase = value(after: ssidEnd), passphrase.end > passphrase.start else { continue }
                (start, end, quoted) = passphrase
            }
            // A name quoted with its value (`-H 'x-functions-key: …' -X POST`, `-e "API_KEY=…"`): the
            // value ends at the quote that closes them, on its line (512 bytes on at most), and
            // takes no piece after it. (A quote inside the value, with more of it after, closes nothing.)
            // (OCR may read the closing quote as `*`, `…WJA27*`, where it ends the line or a space
            // follows: round 141.)
            var closedByQuote = false
            if !quoted, match.start > 0, case let quote = utf8[match.start - 1], quote == 0x27 || quote == 0x22,
               let close = utf8[start..<min(utf8.count, start + 512)].indices.first(where: { utf8[$0] == quote || Self.isLineBreak(utf8[$0])
                   || utf8[$0] == 0x2A && $0 > start && ($0 + 1 == utf8.count || Self.isSpace(utf8[$0 + 1]) || Self.isLineBreak(utf8[$0 + 1])) }),
               utf8[close] == quote || utf8[close] == 0x2A,
               close + 1 == utf8.count || Self.isSpace(utf8[close + 1]) || Self.isLineBreak(utf8[close + 1]) || ",;)]}".utf8.contains(utf8[close + 1]) {
                end = min(end, close)
                closedByQuote = true
                // (Settings quoted together, `;` between them: the value ends at the `;` before the
                // next setting's name and `=`, also after a space OCR put in the value, `--security
                // "token=RNjw…ZEL fnEM9OF ;whitelist=10.0.0.0/8"`; round 158.)
                if let next = Self.nextQuotedSetting.firstMatch(in: slice(start, end)) {
                    end = start + next.start
                    while end > start, Self.isSpace(utf8[end - 1]) { end -= 1 }
                }
                guard end > start else { continue }
            }
            // Laravel's `APP_KEY=base64:…` (OCR: `base64 : DOf 3VO@…`): the key is what follows the scheme.
            if !quoted, slice(start, min(end, start + 6)) == "base64", let colon = utf8[(start + 6)..<min(utf8.count, start + 9)].firstIndex(of: 0x3A),
               let after = value(after: colon + 1), after.end > after.start {
                (start, end, quoted) = after
            }
            // `reg query`'s row: the name, its type, then the value (`DefaultPassword    REG_SZ    …`).
            if !quoted, let typeEnd = registryTypeEnd(from: start) {
                guard let after = value(after: typeEnd), after.end > after.start else { continue }
                (start, end, quoted) = after
            }
            if !quoted, let uuid = uuidEnd(from: start), uuid > end { end = uuid }
            // (Or after a command's short option, `choco apikey -k f0bb44a6-…-605ead57b1 2c`: the
            // UUID is the value, split or not.)
            if !quoted, end - start >= 2, utf8[start] == 0x2D, Self.isLetter(utf8[start + 1]), start + 2 < utf8.count, Self.isSpace(utf8[start + 2]),
               let key = piece(from: start + 2, maximumSpaces: 1), let uuid = uuidEnd(from: key.start) {
                (start, end) = (key.start, uuid)
            }
            // A parameter's value in an address ends at the next parameter's `&`
            // (`?page_token=nextPageToken&limit=20`: `limit=20` makes no token of it).
            let afterAQueryMark = match.range(1).map { $0.lowerBound > 0 && [0x3F, 0x26].contains(utf8[$0.lowerBound - 1]) } == true
            let inQuery = !quoted && afterAQueryMark
            if inQuery, let ampersand = utf8[start..<end].firstIndex(of: 0x26), ampersand > start { end = ampersand }
            // (An address holds no space: pieces after the value, to the line's end or the next `&`,
            // are the value's as OCR split it, `?pwd=XE7YdJKx0g j mWSQOKKKNAWwS - VOJNHJIn`, when each
            // is of a query's characters; eight at most. Round 151.)
            else if inQuery {
                // (No word of a sentence after it, `?password=… then click Sign in`, nor a command's
                // option: ARK's `…?ServerPassword=… -server -log`.)
                var next = end
                for _ in 0..<8 {
                    guard let piece = piece(from: next, maximumSpaces: 1), piece.start > next, !isSentenceWord(piece), !isOptionOrAddress(piece),
                          utf8[piece.start..<piece.end].allSatisfy({ Self.isAlphanumeric($0) || "-_.~%+=&".utf8.contains($0) }) else { break }
                    let stop = utf8[piece.start..<piece.end].firstIndex(of: 0x26) ?? piece.end
                    if stop > piece.start { next = stop }
                    if stop < piece.end { break }
                }
                if next > end, piece(from: next, maximumSpaces: .max) == nil || utf8[next] == 0x26 { end = next }
            }
            // (An address after a name and spaces is where the value is kept or sent, not the
            // value: `-u elastic:$ELASTIC PASSWORD https://localhost:9200/…`, OCR's space for a `_`.)
            // (Nor an option before such an address, `passwd -x https://proxy`: curl's manual, once
            // the value ends before the address; round 158.)
            if separator == nil, !quoted, Self.holds(utf8[start..<end], Self.schemeMark) { continue }
            // A key given as its bytes (Zigbee2MQTT's `network_key: [51, 0, 126, …]`): the list.
            if !quoted, let list = byteListEnd(from: start) {
                read = (start, list)
                found.append(secret(kind, nil, start, list))
                continue
            }
            // (An option's key OCR split: its pieces to the shell's `\` that ends the line, `--token
            // pQQ…Nbt LEUOBPj gsrNX0…fH \`, each of a key's bytes, none an option, a word or words
            // joined by `-` (an argument's), together random; round 159.)
            if !quoted, kind == .apiKey, identifier.hasPrefix("-"), let pieces = piecesToLineEnd(from: end, atMost: 7, maximumSpaces: 1), pieces.count >= 2,
               let continuation = pieces.last, continuation.end - continuation.start == 1, utf8[continuation.start] == 0x5C,
               case let inner = pieces.dropLast(), let last = inner.last,
               inner.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isKeyByteOrJunk) && !isOptionOrAddress($0) && !isSentenceWord($0)
                   && Self.dashedName.firstMatch(in: slice($0.start, $0.end)) == nil }),
               case let joined = squeezed(start, last.end), joined.count >= 32, Self.isRandomToken(Self.withoutOCRJunk(joined)) {
                end = last.end
            }
            // (A terminal may have wrapped the command inside the value: its rest is the next line's.)
            var wrappedOver = false
            if !quoted, kind == .password, let rest = wrappedRest(after: end, of: squeezed(start, end)) { (end, wrappedOver) = (rest, true) }
            // A setting that starts its line (a config file's `signing.password=9ikBf -uxp0911`) is
            // no command: no flag can follow its value, so the line's last pieces, when the first
            // starts with `-` and goes on machine-made, are the value's rest, which OCR split before
            // its `-` (and maybe again: iwd's `Passphrase=ByWVS* -nxHt - i0X4`), or when they are
            // what OCR split from a machine-made value (``splitSettingRest(after:)``).
            if !quoted, separator == "=" || separator == ":", startsLine(match.start),
               let last = flagShapedRest(after: end) ?? (isMachineMade(start, end) ? splitSettingRest(after: end) : nil) { end = last }
            read = (start, end)
            // A field's mask OCR read as letters is no value, nor the pieces after it
            // (`access_key KKKKKKKKEKKKKKKKG7OP sShared-credentials-file`: `aws configure list`).
            // (Its first piece within the value: a piece runs on past a connection string's `;Name=`.)
            if !quoted, let first = piece(from: start, maximumSpaces: 0), case let firstEnd = min(first.end, max(end, start + 8)),
               firstEnd - first.start >= 8, Self.isPlaceholder(slice(first.start, firstEnd)) { continue }
            let value = squeezed(start, end)
            // After spaces alone, a pipe is no value but a filter's or command's (`{{ db_password | password_hash(…) }}`).
            if separator == nil, !quoted, value.hasPrefix("|") { continue }
            // (Nor a `#` before a word in small letters: a comment's or a preprocessor's, `SHADOWPWD
            // #define …` in a changelog; round 164.)
            if separator == nil, !quoted, let first = piece(from: start, maximumSpaces: 0), utf8[first.start] == 0x23, first.end - first.start >= 3,
               utf8[(first.start + 1)..<first.end].allSatisfy({ (0x61...0x7A).contains($0) }), Self.holdsAVowel(utf8[(first.start + 1)..<first.end]) { continue }
            // An absolute path is a file's name, not its text: `openvpn --askpass /etc/openvpn/client/key-pass.txt`.
            if !quoted, Self.absolutePath.firstMatch(in: value) != nil { continue }
            // Nor is a command's rest: its options and a redirection after a name that ends the
            // command's own (`openssl passwd -6 -stdin < /run/secrets/new_password`).
            // (The value ends before a redirection, so the line's rest is read for it: round 143.)
            if separator == nil, !quoted, utf8[start] == 0x2D, Self.redirection.firstMatch(in: slice(start, lineEnd(of: end, atMost: 256))) != nil { continue }
            // After spaces alone, a row of a listing that dates the secret holds no value of it
            // when a version's number comes first (`chamber list`'s `db_password  3  2026-11-10  lena`,
            // OCR's single spaces between, maybe its `3` read `i)`: three characters at most);
            // `chamber read`'s row holds the value before its version.
            // (Or a time of day, the date without its year: chamber's `db_password  3  11-20 09:14:02  ops`;
            // OCR may read a glyph of the column's space as `=`, `db_password = 3 11-20 …`.)
            if separator == nil || separator == "=", !quoted, let first = piece(from: start, maximumSpaces: 0), first.end - first.start <= 3,
               case let row = slice(start, end), Self.isoDate.firstMatch(in: row) != nil || Self.timeOfDay.firstMatch(in: row) != nil { continue }
            // A call in code gives the name what the call returns: `password = getpass.getpass()`,
            // `const passwordInput = document.getElementById("password")`.
            if !quoted, Self.isCall(value) { continue }
            // A name's id OCR split after the name (IBM's `ApiKey-6f5eea7d-…` read `Apikey -6f5eea7d-…`,
            // `Apikey - f374edee- 1d0e-…`, `Apikey -728b8968 -50a7 - 19a6 - 9f 6d - 1¢36…`): one space,
            // then `-` and the UUID, in a row rather than after a form's label.
            if separator == nil, !quoted, utf8[start] == 0x2D, start >= 2, Self.isSpace(utf8[start - 1]), !Self.isSpace(utf8[start - 2]),
               !identifier.hasPrefix("-"), !wordsOnlyBefore(match.start), uuidEnd(from: start + 1) != nil || isSplitUUIDToLineEnd(from: start + 1) { continue }
            // After spaces alone, a piece of the name's case that starts with `_` is the name's rest,
            // split by OCR before its `_` (`read -sr OS PASSWORD _INPUT`), no value.
            if separator == nil, !quoted, utf8[start] == 0x5F, let first = piece(from: start, maximumSpaces: 0),
               case let rest = slice(first.start + 1, first.end), rest.first?.isLetter == true,
               rest.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
               Self.nameCase(rest) != 0, Self.nameCase(rest) == Self.nameCase(identifier) {
                continue
            }
            if separator == nil || separator == "is" {
                // Without `=` or `:`, only a value that is clearly no word (`password is too
                // short`, `token using ssh-keygen(1)`): its first piece is machine-made, or a
                // scrap of one or two characters OCR cut from the next.
                // After a form's label that starts its line (`Hotspot password  -NZF58-qtw-Pql`), no
                // flag can come: a leading `-` is the password's.
                let dashed = !quoted && separator == nil && utf8[start] == 0x2D && wordsOnlyBefore(match.start)
                // After a tool's option (`-storepass Xue! g6C%up-OmT`: OCR split it after a symbol),
                // a value that looks like a secret on its own will do.
                // (Or an app-specific password's four groups of small letters: `notarytool --password abcd-efgh-ijkl-mnop`.)
                let afterOption = separator == nil && identifier.hasPrefix("-")
                    && (Self.looksLikeSecretOnItsOwn(value) || kind == .password && Self.appPasswordGroups.firstMatch(in: value) != nil)
                // (Or a scrap the terminal wrapped after, judged with its rest: `authentication-password PQx` / `UES JHeE%OMLOdE`.)
                let scrapAndRest = wrappedOver && Self.looksLikeSecretOnItsOwn(value.filter { !$0.isNewline })
                guard value.count >= 6, quoted || startsMachineMade(start, end) || dashed && startsMachineMade(start + 1, end) || afterOption || scrapAndRest else { continue }
                // And after spaces alone, only a full word for a password: a `Boarding pass 8F3K2Q`
                // or a `pass` of any kind is followed by its own number.
                let lower = identifier.lowercased()
                // A tool that sets passwords is named so (`htpasswd -c …`, `chpasswd`, `smbpasswd`);
                // an option is not (`x11vnc -passwd …`).
                if separator == nil, lower.hasSuffix("passwd"), lower.drop(while: { $0 == "-" }) != "passwd" { continue }
                // (A tool's option is no pass of that kind: `-storepass …`.)
                // (But a mail client's `Pass` setting is, under or after its `User`: `.mbsyncrc`'s
                // `User ana` / `Pass "…"`, `.fetchmailrc`'s `user "ana" pass "…"`.)
                // (Nor is a pre-shared key's `psk` before a quoted value: `wpa_cli`'s `set_network 1 psk "…"`;
                // `airodump-ng`'s column `PSK  HomeNet` names the network.)
                if separator == nil, kind == .password, !["passw", "pwd", "passphrase"].contains(where: lower.contains),
                   !(quoted && lower.hasSuffix("psk")),
                   !(lower.hasPrefix("-") && lower.hasSuffix("pass")), !(lower == "pass" && userNamed(before: match.start)) { continue }
                // And the name ends with what it holds: `ldap_parse_password_expiring_control to
                // libldap-2.4` names a function about passwords, not one.
                // (A numbered one too: `Password1 …`; and a quoted value's name may end with
                // `value` after it, Junos' `plain-text-password-value "…"`; round 153.)
                var unnumbered = String(lower.reversed().drop(while: \.isNumber).reversed())
                if quoted, unnumbered.hasSuffix("value"), case let name = unnumbered.dropLast(5), name.hasSuffix("-") || name.hasSuffix("_") {
                    unnumbered = String(name.dropLast())
                }
                guard ["password", "passwd", "pass", "pwd", "passphrase", "passwort", "pword", "psk", "secret", "token", "key"]
                    .contains(where: unnumbered.hasSuffix) else { continue }
            }
            switch kind {
            case .password:
                guard Self.isPasswordValue(value, quoted: quoted) else { continue }
                if identifier.hasSuffix("AUTH") {
                    guard Self.looksLikeSecretOnItsOwn(value) || Self.mixesCapitalsSmallAndDigits(value) else { continue }
                }
                if identifier.lowercased().hasSuffix("credentials") || identifier.lowercased().hasSuffix("credential") {
                    guard separator != nil, separator != "is", Self.looksLikeSecretOnItsOwn(value), !value.contains("/") else { continue }
                    // (A signed address's `X-Goog-Credential=` / `X-Amz-Credential=` is its signer's
                    // name and scope, `%`-escaped, `exports%40acme-shop.iam…%2F…`: no secret; round 153.)
                    if afterAQueryMark, value.contains("%") { continue }
                }
                found.append(secret(.password, nil, start, end))
            default:
                // An assignment's value OCR split where a piece of it reads as a short word
                // (`BINANCE_API_KEY=y434UD cbt e3j 1kSHEnDn0j VM8MX…`): the line's pieces to its end
                // (eight at most), when together they are a token.
                var value = value
                if !quoted, !inQuery, !closedByQuote, separator == "=" || separator == ":", !Self.isRandomToken(Self.withoutOCRJunk(value)),
                   let pieces = piecesToLineEnd(from: start, atMost: 8, maximumSpaces: 1), let last = pieces.last, last.end > end,
                   case let whole = squeezed(start, last.end), Self.isRandomToken(Self.withoutOCRJunk(whole)) {
                    end = last.end
                    value = whole
                } else if !quoted, !inQuery, !closedByQuote, separator == "=" || separator == ":",
                          let pieces = piecesToLineEnd(from: end, atMost: 4, maximumSpaces: 1), let last = pieces.last,
                          pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy { Self.isAlphanumeric($0) || "+/-_=".utf8.contains($0) } }),
                          !pieces.contains(where: { isSentenceWord($0) && $0.end - $0.start > 4 || isSettingWithValue($0)
                              || utf8[$0.start] == 0x2D && $0.end - $0.start > 1 && (utf8[$0.start + 1] == 0x2D || Self.isLetter(utf8[$0.start + 1])) }),
                          pieces.contains(where: { !isSentenceWord($0) }),
                          case let whole = value + squeezed(end, last.end), Self.isRandomToken(whole),
                          wrappedRest(after: last.end, of: whole, isKey: true) != nil {
                    // (A token OCR split where pieces of it read as no machine's, `…VCwWUj 7FFZ…MN3
                    // IDQUULIXNg fu` (a scrap may read as a short word), at the end of a line the
                    // terminal wrapped inside it, `wPywPQZgMuk --interactive=false`: its pieces to the
                    // line's end, none an option (`--cookie-secret=…` is the next), which ``wrapped(_:)``
                    // then masks with its rest; round 156.)
                    end = last.end
                    value = whole
                }
                // A key OCR split before a `-` of its own, base64url's (`--cookie-secret=MyG_pWcEtfGj3ABY
                // -DY4Lpp2_fQg29f207sT2MQG204=`): the next piece, one space on, when it has no option's
                // shape (one `-`, no `=` but padding at its end: not `--cookie-secret=…`), is 12+ bytes of
                // base64url and the two together are one random token.
                if !quoted, !inQuery, !closedByQuote, separator == "=" || separator == ":",
                   let next = piece(from: end, maximumSpaces: 1), next.start > end, next.end - next.start >= 12,
                   utf8[next.start] == 0x2D, utf8[next.start + 1] != 0x2D, !isOptionOrAddress(next),
                   case let body = utf8[next.start..<next.end].reversed().drop(while: { $0 == 0x3D }),
                   body.allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F }),
                   case let whole = squeezed(start, next.end), Self.isRandomToken(whole) {
                    end = next.end
                    value = whole
                }
                // A padded base64 key OCR split again and again (`--cookie-secret=7w31XoRJhWyj5TS7WE5j
                // sXwmSAumR fut luFSuCe - xwU=`): the pieces on to the one that ends in its `=` padding.
                if !quoted, !inQuery, !closedByQuote, separator == "=" || separator == ":",
                   let rest = splitPaddedBase64Rest(from: start, after: end) {
                    end = rest
                    value = squeezed(start, end)
                }
                // A long quoted literal with symbols given to the name (`SECRET_KEY = ‘django-insecure-…#p%…'`:
                // OCR read the opening quote curly) is its value, as the token rule has it for clean quotes.
                // Not a command's output in backquotes (`SUMO_ACCESS_KEY=`etcdctl get …``); a key has a digit.
                // (Or random letters, no word: Invidious' `hmac_key: "zgbqycCBfkpAwkytSthx"`, case changing
                // three times or more and five consonants in a row, as no name in camel case has; round 164.)
                let literal = quoted && separator != nil && separator != "is" && value.count >= 16 && Self.entropy(value) >= 3.5
                    && utf8[start - 1] != 0x60
                    && (value.contains(where: \.isNumber) || value.allSatisfy({ $0.isASCII && $0.isLetter }) && Self.caseChanges(value.utf8) >= 3 && Self.isNoWord(value))
                    && Self.isSecretLiteral(value) && !Self.namesAboutASecret.contains(where: { identifier.lowercased().hasSuffix($0) })
                // Unquoted, a long value of a key's whole alphabet (``isSymbolicKey(_:kindsOfSymbols:)``); OCR may
                // split it: its pieces to the line's end, none a word, are its.
                var symbolic = false
                // (`NAME==…` in an environment file: the value starts with `=`.)
                let envAssignment = separator == "==" && identifier == identifier.uppercased() && startsLine(match.start)
                if !quoted, !inQuery, !closedByQuote, separator == "=" || separator == ":" || envAssignment {
                    // (A scrap of the key may read as a short word, `… 7WGWO1 Yai 2Z+bOK…`: four letters
                    // at most, fewer than a third of the pieces; round 160, an older set's Taiga key.)
                    if let pieces = piecesToLineEnd(from: start, atMost: 8, maximumSpaces: 1), let last = pieces.last, last.end > end,
                       case let words = pieces.filter(isSentenceWord), words.allSatisfy({ $0.end - $0.start <= 4 }), words.count * 3 < pieces.count,
                       case let whole = squeezed(start, last.end), Self.isSymbolicKey(whole) {
                        end = last.end
                        value = whole
                        symbolic = true
                    } else {
                        symbolic = Self.isSymbolicKey(value)
                    }
                }
                // A token of digits alone after a name that ends in `token`, with `=` or `:` (TeamCity's
                // `Super user authentication token: 0653045304287952172`): 16 to 64 digits, as no count
                // or id a screen shows beside that name is; not a page's or a cursor's.
                // (A terminal may have wrapped the line inside it: its rest, digits, starts the next.)
                if !quoted, separator == "=" || separator == ":", identifier.lowercased().hasSuffix("token"), !value.isEmpty, value.allSatisfy(\.isASCIIDigit),
                   !Self.nameWords(identifier).contains(where: ["page", "next", "continuation", "cursor", "sync"].contains) {
                    var digitsEnd = end, digits = value.count
                    if digits < 16, endsAWideLine(end), end < utf8.count, utf8[end] == 0x0A, let next = piece(from: end + 1, maximumSpaces: 0),
                       next.start == end + 1, utf8[next.start..<next.end].allSatisfy({ (0x30...0x39).contains($0) }) {
                        digitsEnd = next.end
                        digits += next.end - next.start
                    }
                    if (16...64).contains(digits) {
                        found.append(secret(.apiKey, nil, start, digitsEnd))
                        continue
                    }
                }
                // (A bare `--key` before a UUID is that key: Cypress' `--record --key …`; round 156.)
                if identifier == "--key", !quoted, let uuid = uuidEnd(from: start), uuid >= end {
                    found.append(secret(.apiKey, nil, start, uuid))
                    continue
                }
                // A list of keys, each a random token (Strapi's `APP_KEYS=…==,…==,…`; round 153); OCR
                // may split it, `APP_KEYS=GI j9/S5HF Oggg JY jkI rGgpA==, MA22Ri …`: the line's
                // pieces, sixteen at most.
                // (A terminal may wrap it inside its last key: `…, y6xjBB/unlzIG4p` / `8p4qS/g==`.)
                if !quoted, !inQuery, separator == "=" || separator == ":",
                   let pieces = piecesToLineEnd(from: start, atMost: 16, maximumSpaces: 1), let last = pieces.last, last.end >= end,
                   case let list = squeezed(start, last.end), list.contains(",") {
                    var listEnd = last.end
                    let isList = Self.isListOfRandomTokens(list)
                    if !isList, let wrap = wrapStart(after: listEnd), let rest = piece(from: wrap, maximumSpaces: 0),
                       Self.isListOfRandomTokens(list + squeezed(rest.start, rest.end)) {
                        listEnd = rest.end
                    }
                    if listEnd > last.end || last.end > end && isList {
                        read = (start, listEnd)
                        found.append(secret(kind, nil, start, listEnd))
                        continue
                    }
                }
                if !utf8[start..<end].contains(where: Self.isLineBreak), Self.isListOfRandomTokens(value) {
                    found.append(secret(kind, nil, start, end))
                    continue
                }
                // (A long value the screen's edge cut may end in a glyph of junk: `…57ed4?`.)
                // (Or 16+ random letters with no digit after `=` or `:`, capitals side by side and no
                // word's run of small letters: Plex's `X-Plex-Token=IfZMyNhTOKc_OwAzNRZc`; round 159, an
                // older pool's clean text. One random key of 20 in 30 has no digit.)
                // (A small letter before a capital three times or more, as in no name of capitals, `${env:SIGNOZ_INGESTION_KEY}`,
                // nor a placeholder's `XXXX`.)
                let randomLetters = (separator == "=" || separator == ":") && Self.isShortRandomLetters(value, minimumLetters: 16)
                    && Self.caseChanges(value.utf8) >= 3 && !Self.isPlaceholder(value)
                // (Or capitals with lone small letters among them, a key OCR read mostly as capitals,
                // `-streamkey STUNZQiAAyWVbAKGAOVFZQVL`; round 165.)
                if !(literal || symbolic || Self.isRandomToken(Self.withoutOCRJunk(Self.withoutTrailingJunk(value))) || Self.isRandomLetters(value) || randomLetters
                     || Self.isCapitalsWithStraySmallLetters(value)) {
                    // A short value given to a command's option that names a token or a key
                    // (`--registration-token GR1348941xdHZ`: the screen's edge or OCR cut it) is
                    // its token when it is letters and digits alone, mixes capitals, small letters
                    // and digits, and is no hexadecimal id (`--signing-key 4A2f1B3c…`).
                    if identifier.hasPrefix("-"), separator == nil || separator == "=", Self.mixesCapitalsSmallAndDigits(value),
                       value.utf8.allSatisfy(Self.isAlphanumeric), !value.allSatisfy(\.isHexDigit) {
                        found.append(secret(.apiKey, nil, start, end))
                        continue
                    }
                    // A shorter value given to a bare `secret` with `=` or `:` that looks like a
                    // password (Asterisk's `secret=9Rfj-EV+8vL4nK`, a form's `Secret: …`) is one;
                    // given to a command's option so named (`aria2c --rpc-secret=…`), any password's value;
                    // after `=`, one of 8+ characters that mixes capitals, small letters and digits
                    // (FreeRADIUS' `secret = Cw9MI-lTBU`).
                    // A shared key is such a secret too, one its users chose and type at both ends, with
                    // `=`, `:` or a config file's space (Fluentd's `shared_key Cn7K4nNrNVRZ+`; round 160).
                    // (One piece: `pre_shared_key: limit 0-RTT to resumption` is a sentence.)
                    let sharedKey = Self.namesASharedKey(identifier) && !utf8[start..<end].contains(where: Self.isSpace)
                    guard identifier.lowercased().hasSuffix("secret") && separator != nil || sharedKey, separator != "is",
                          Self.isPasswordValue(value, quoted: quoted),
                          Self.looksLikeSecretOnItsOwn(value) || separator == "=" && Self.mixesCapitalsSmallAndDigits(value)
                            // (A shared key of 6 or 7 too: `shared_key EH1FPwx`.)
                            || sharedKey && Self.mixesCapitalsSmallAndDigits(value, minimumLength: 6)
                            || identifier.hasPrefix("-") && value.count >= 6 && Self.shellWord.firstMatch(in: value) == nil else { continue }
                    found.append(secret(.password, nil, start, end))
                    continue
                }
                found.append(secret(.apiKey, nil, start, end))
            }
        }
        return found
    }

    /// Whether a name's last words are a shared key's (`shared_key`, `sharedKey`, `pre_shared_key`).
    static func namesASharedKey(_ identifier: String) -> Bool {
        let words = nameWords(identifier.drop { $0 == "-" })
        return words.count >= 2 && words.last == "key" && ["shared", "preshared"].contains(words[words.count - 2])
    }

    /// Where a list of a key's bytes that opens at `index` closes (Zigbee2MQTT's `[51, 0, 126, …]`,
    /// C's `{0x2b, 0x7e, …}`): 8 to 64 numbers of one byte each (decimal or `0x` hexadecimal) between
    /// commas (OCR may read one as a stop, a `0` as `@` or `O`), within 512 bytes; nil for anything else.
    /// (No library reads a list this loose; a few lines of scanning do.)
    func byteListEnd(from index: Int) -> Int? {
        guard index < utf8.count, utf8[index] == 0x5B || utf8[index] == 0x7B else { return nil }
        let closing: UInt8 = utf8[index] == 0x5B ? 0x5D : 0x7D, limit = min(utf8.count, index + 512)
        var i = index + 1, count = 0
        func skipSpaces() { while i < limit, Self.isSpace(utf8[i]) || Self.isLineBreak(utf8[i]) { i += 1 } }
        while true {
            skipSpaces()
            guard i < limit else { return nil }
            if utf8[i] == closing { return count >= 8 ? i + 1 : nil }
            var number = 0, digits = 0
            if utf8[i] == 0x30, i + 1 < limit, utf8[i + 1] | 0x20 == 0x78 {
                i += 2
                while i < limit, digits < 2, let digit = Character(Unicode.Scalar(utf8[i])).hexDigitValue { number = number * 16 + digit; digits += 1; i += 1 }
            } else {
                // (OCR may read a `0` as `@` or `O`: `[51, @, 126, …]`.)
                while i < limit, digits < 3, case let byte = utf8[i], (0x30...0x39).contains(byte) || byte == 0x40 || byte == 0x4F || byte == 0x6F {
                    number = number * 10 + ((0x30...0x39).contains(byte) ? Int(byte - 0x30) : 0)
                    digits += 1
                    i += 1
                }
            }
            guard digits > 0, number <= 255 else { return nil }
            count += 1
            guard count <= 64 else { return nil }
            skipSpaces()
            guard i < limit else { return nil }
            if utf8[i] == 0x2C || utf8[i] == 0x2E { i += 1 } else if utf8[i] != closing { return nil }
        }
    }

    /// A long value of a key's whole alphabet (Django's and Paperless's `SECRET_KEY=c1Bw_5^b3yntoU!K#DMX_(G1…`):
    /// 32+ characters, letters, digits and two kinds of symbols or more (no variable's `${…}`), as no
    /// name, path or sentence is; not settings in a row (`…;EndpointSuffix=…`), nor text an address
    /// encoded (`Root%20CA%20…`).
    /// (`kindsOfSymbols`: how many kinds beyond `-_./+=` it must hold; one will do for a long value
    /// under a key's name, whose other symbol OCR may have read as a letter or digit, `^` as `4`.)
    static func isSymbolicKey(_ value: String, kindsOfSymbols: Int = 2) -> Bool {
        // (One `"` inside between two other glyphs, OCR's for a `^`, and one `%` before two digits,
        // `…_7%25z4…`, are a key's still; an address's escapes come two or more; round 163.)
        // (A `%` may start one, `%hsoi^*1yd…`, but not a format's or Windows' variable: `%{…}`, `%NAME%`; round 163.)
        value.count >= 32 && entropy(value) >= 4.2 && !"${<".contains(value.first ?? " ") && !isPercentVariable(value)
            && !value.contains(";") && isSymbolicKeysQuote(value) && percentEncoding.matches(in: value).count < 2
            && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
            && Set(value.filter { !$0.isLetter && !$0.isNumber && !"-_./+=".contains($0) }).count >= kindsOfSymbols && isSecretLiteral(value)
    }

    /// Whether a value starts as a format's or Windows' variable: `%{NAME}`, `%NAME%`, `%(name)s`.
    static func isPercentVariable(_ value: String) -> Bool {
        guard value.first == "%" else { return false }
        let rest = value.dropFirst()
        if rest.first == "{" || rest.first == "(" { return true }
        let name = rest.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        return !name.isEmpty && rest.dropFirst(name.count).first == "%"
    }

    /// Whether the `"` in a symbolic key's value (``isSymbolicKey(_:kindsOfSymbols:)``) are none, or one between two
    /// glyphs that are no `=`, `:` or `,` (a name's value, `…cq"*!…`, not `a", "b`).
    static func isSymbolicKeysQuote(_ value: String) -> Bool {
        let quotes = value.indices.filter { value[$0] == "\"" }
        guard let quote = quotes.first else { return true }
        guard quotes.count == 1, quote > value.startIndex, value.index(after: quote) < value.endIndex else { return false }
        return !"=:,".contains(value[value.index(before: quote)]) && !"=:,".contains(value[value.index(after: quote)])
    }

    /// A byte an address encoded (`%20`, `%3A`).
    static let percentEncoding = TextMatcher(#"%[0-9A-F]{2}"#)

    /// A file's absolute path (`/etc/…/key-pass.txt`, `~/.config/…`): two or more parts.
    static let absolutePath = TextMatcher(#"^(?:~|/[A-Za-z0-9_.\-]{1,64})/[A-Za-z0-9_.\-]{1,64}(?:/[A-Za-z0-9_.\-]{1,64}){0,16}$"#)
    /// A date as ISO 8601 writes it.
    static let isoDate = TextMatcher(#"(?<![0-9])(?:19|20)\d\d-[01]\d-[0-3]\d(?![0-9])"#)
    /// A time of day with its seconds (`09:14:02`).
    static let timeOfDay = TextMatcher(#"(?<![0-9:])[0-2]?\d:[0-5]\d:[0-5]\d(?![0-9:])"#)

    /// A value's type in the Windows registry, as `reg query` prints it between a name and its value
    /// (OCR may read its `_` as a space: `REG SZ`).
    static let registryType = TextMatcher(#"^REG_+(?:SZ|EXPAND_+SZ|MULTI_+SZ|DWORD|QWORD|BINARY)$"#)

    /// Where a registry type that starts at `index` ends, in one piece or in the two or three OCR split it into.
    func registryTypeEnd(from index: Int) -> Int? {
        guard let first = piece(from: index, maximumSpaces: 0), slice(first.start, min(first.end, first.start + 3)) == "REG" else { return nil }
        var end = first.end
        for _ in 0..<3 {
            if Self.registryType.firstMatch(in: slice(first.start, end).replacingOccurrences(of: " ", with: "_")) != nil { return end }
            guard let next = piece(from: end, maximumSpaces: 1) else { return nil }
            end = next.end
        }
        return nil
    }

    // MARK: - Query parameters whose names OCR misread

    /// A query parameter's `?` or `&`, its name, maybe split once by OCR, its `=` and the value's
    /// start (group 1 the name). (The mark is matched, not looked behind for: a lookbehind is tried
    /// at every position of every text.)
    static let queryParameterName = TextMatcher(#"[?&]([A-Za-z][A-Za-z_]{1,24}(?: [A-Za-z_]{1,24})?)[ \t]?=[ \t]?(?=[^\s&"'])"#)
    /// The names of query parameters that carry a secret, six letters or more: what
    /// ``isMisreadByOneLetter(_:from:)`` compares a misread name with.
    static let secretQueryNames = longWords(of: ["apikey", "api_key", "access_token", "accesstoken", "auth_token", "authtoken", "private_token",
                                                 "client_secret", "password", "passwd", "secret", "signature", "session_token", "access_key"])

    /// A query parameter's value whose name OCR misread by one letter and maybe split (Prowlarr's
    /// `?apikey=…` read `?ap tkey=36af 1de8…`): the value, its pieces to the next `&` or the
    /// address's closing quote, when it is a random token and no example's. (A name read right is the label rules';
    /// one letter off, `?passed=true`, names nothing unless its value is random.) Round 163.
    func misreadQueryKeys() -> [Secret] {
        guard mentions("?"), mentions("=") else { return [] }
        return Self.queryParameterName.matches(in: searchable).compactMap { match in
            guard let raw = match[1], case let name = raw.lowercased().filter({ $0 != " " }), name.count >= 6,
                  !Self.secretQueryNames.contains(where: { $0.word == name }), Self.isMisreadByOneLetter(name, from: Self.secretQueryNames),
                  let end = parameterEnd(from: match.end) ?? piece(from: match.end, maximumSpaces: 0)?.end, end > match.end,
                  case let value = Self.withoutOCRJunk(squeezed(match.end, end)), Self.isRandomToken(value), !value.lowercased().contains("example") else { return nil }
            return secret(.apiKey, nil, match.end, end)
        }
    }

    /// A value this long (bytes) is read once, whatever labels are inside it: see ``labelledValues()``.
    static let longValue = 64

    /// What a name OCR split with a space names, joined with the letters before that space
    /// (`?subscript ion-key=…`: `subscription-key`), when the part after the space names nothing.
    func nameJoined(_ identifier: String, at start: Int) -> SecretKind? {
        guard start >= 2, Self.isSpace(utf8[start - 1]), Self.isLetter(utf8[start - 2]) else { return nil }
        var from = start - 2
        while from > 0, start - from < 24, Self.isLetter(utf8[from - 1]) { from -= 1 }
        return Self.secretName(slice(from, start - 1) + identifier)
    }

    /// A user's name given as a setting: a line of its own among the three above `index` (`User
    /// ana@example.net`, `login ana`), or quoted right before it on its line (`user "ana" pass …`).
    /// (Prose says `user certificates` too.)
    /// (OCR may split an address after its dot: `User ana@example. net`.)
    static let userSettingLine = TextMatcher(#"(?im)^[ \t]*(?:user|username|login)[ \t]+["']?[A-Za-z0-9_.@\-]{1,64}(?:(?<=[.@])[ \t][A-Za-z0-9_.\-]{1,16})?["']?[ \t]*$"#)
    /// A setting of a user's name or e-mail address that starts its line (`email=bot@acme.io`, `user: ana`).
    static let accountSettingLine = TextMatcher(#"(?im)^[ \t]*(?:user|username|login|email)[ \t]*[=:][ \t]*[^\s=]"#)
    static let quotedUserBefore = TextMatcher(#"(?i)(?:^|[ \t])(?:user|username|login)[ \t]+["'][^"'\n]{1,64}["'][ \t]+$"#)

    /// A user's field before `index` on its line, in an object or a list of settings
    /// (`{"username":"ana",`, `user: ana,`, `login=ana;`): 300 bytes back at most. (OCR may read
    /// the colon as a semicolon, a quote as a curly one: `{"username"; "root",`, `"username”:`.)
    static let userField = TextMatcher(#"(?i)(?:^|[\s{,;])["'“”‘’]?(?:user(?:name)?|login)["'“”‘’]?[ \t]*[:=;][ \t]*["'“”‘’]?[^\s"'“”‘’,;]{1,64}["'“”‘’]?[ \t]*[,;][ \t]*["'“”‘’]?$"#)

    func userFieldBefore(_ index: Int) -> Bool {
        var end = index
        while end > 0, utf8[end - 1] == 0x22 || utf8[end - 1] == 0x27 { end -= 1 }
        return Self.userField.firstMatch(in: slice(lineStart(of: index, atMost: 300), end)) != nil
    }

    func userNamed(before index: Int) -> Bool {
        Self.quotedUserBefore.firstMatch(in: slice(lineStart(of: index, atMost: 300), index)) != nil
            || Self.userSettingLine.firstMatch(in: linesAbove(index, 3)) != nil
    }

    /// The line's end when the pieces after `index` (one space apart, three at most) start with one
    /// that reads as a flag, `-` then 2+ machine-made bytes (`-uxp0911`), and the rest are
    /// machine-made or a joiner (`-nxHt - i0X4`); nil otherwise.
    func flagShapedRest(after index: Int) -> Int? {
        guard let pieces = piecesToLineEnd(from: index, atMost: 3, maximumSpaces: 1), let next = pieces.first, let last = pieces.last,
              next.start > index, utf8[next.start] == 0x2D, next.end - next.start >= 3, isMachineMade(next.start + 1, next.end),
              pieces.dropFirst().allSatisfy({ isJoiner($0) || isMachineMade($0.start, $0.end) }) else { return nil }
        return last.end
    }

    /// The line's end when the pieces after `index` (one space apart, three at most) are what OCR
    /// split from a setting's value: each machine-made, a joiner, or 3+ letters with no vowel
    /// (`Ltdwt`, no word), the last machine-made and 8+ bytes long (Remmina's
    /// `password=A2yxU9hQtD4 Ltdwt IFeQTPAL9+gukhzT`); nil otherwise (`…= Abc123 # old one`).
    func splitSettingRest(after index: Int) -> Int? {
        guard let pieces = piecesToLineEnd(from: index, atMost: 3, maximumSpaces: 1), let first = pieces.first, let last = pieces.last,
              first.start > index, last.end - last.start >= 8, isMachineMade(last.start, last.end),
              pieces.allSatisfy({ piece in
                  let bytes = utf8[piece.start..<piece.end]
                  return isJoiner(piece) || isMachineMade(piece.start, piece.end)
                      || bytes.count >= 3 && Self.isLettersWithoutVowel(bytes)
              }) else { return nil }
        return last.end
    }

    /// Whether only up to three words (letters) are between the line's start and `index`: a
    /// form's label (`PPPoE Password`), not a command (`$ mysqldump --password`).
    func wordsOnlyBefore(_ index: Int) -> Bool {
        var i = index, words = 0, inWord = false
        while i > 0, !Self.isLineBreak(utf8[i - 1]) {
            i -= 1
            let byte = utf8[i]
            if Self.isLetter(byte) {
                if !inWord { words += 1 }
                inWord = true
            } else if Self.isSpace(byte) {
                inWord = false
            } else {
                return false
            }
            if words > 3 { return false }
        }
        return true
    }

    /// A UUID (a key some services give: Heroku's, npm's legacy ones) from `start`, as OCR split it
    /// before its dashes and read `0` as `O`, `9` as `Q` or `1` as `l` or `I` (`08fbOcec-eQaf -e070-…`,
    /// `4cle0700-…`): where it ends, or nil.
    func uuidEnd(from start: Int) -> Int? {
        // Its first group: eight hexadecimal characters, then a dash or a space.
        func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte) || Self.misreadHexDigits.utf8.contains(byte) }
        guard start + 8 < utf8.count, utf8[start..<start + 8].allSatisfy(isHex), utf8[start + 8] == 0x2D || Self.isSpace(utf8[start + 8]) else {
            return nil
        }
        var end = start, pieces = 0
        while pieces < 5, let next = piece(from: end, maximumSpaces: pieces == 0 ? 0 : 1) {
            // (A URL's next parameter, a quote or a comma ends it: `…-62457892bfd9&ip=`.)
            let stop = (next.start..<next.end).first { [0x26, 0x22, 0x27, 0x2C, 0x3B].contains(utf8[$0]) }
            end = stop ?? next.end
            pieces += 1
            let text = squeezed(start, end)
            if text.count > 36 { return nil }
            if !Self.noisyUUID.matches(in: text).isEmpty { return end }
            if stop != nil { return nil }
        }
        return nil
    }

    /// Whether the rest of the line from `index` (96 bytes at most) is a UUID split anywhere by
    /// OCR: its 32 hexadecimal digits (as ``noisyUUID`` reads them, or a `¢` or `€` for a `c`; round 153; one
    /// other glyph at most) with only
    /// spaces and its four or more dashes between them.
    func isSplitUUIDToLineEnd(from index: Int) -> Bool {
        var end = index
        while end < utf8.count, !Self.isLineBreak(utf8[end]) {
            guard end - index < 96 else { return false }
            end += 1
        }
        let line = slice(index, end)
        let digits = line.filter { $0 != " " && $0 != "-" }
        // (One other glyph among them is one more digit OCR confused: `£5f28f22-…`, `…-075f332aTb4d`; round 154.)
        return digits.count == 32 && line.filter({ $0 == "-" }).count >= 4
            && digits.filter({ !($0.isHexDigit || (Self.misreadHexDigits + "¢€").contains($0)) }).count <= 1
    }

    /// OCR's readings of hexadecimal digits: of `0`, `O`, `Q`, `o`, `@`; of `1`, `l`, `I`; of `7`, `/`; of `5`, `S`.
    static let misreadHexDigits = "OQlIo@/S"
    static let noisyUUID: TextMatcher = {
        let digit = "[0-9a-fA-F" + misreadHexDigits + "]"
        return TextMatcher("^\(digit){8}(?:-\(digit){4}){3}-\(digit){12}$")
    }()

    /// A function or method called with its arguments and nothing after them but punctuation:
    /// `is_valid(form)`, `check.strength(pw);`; or a subscript of a name, as code reads a setting
    /// (`os.environ["DB_PASSWORD"]`, `ENV['API_KEY']`, `config[:secret]`), or a PowerShell cmdlet
    /// whose output the name is given (`$pw = ConvertTo-SecureString …`, `Read-Host -AsSecureString`).
    static func isCall(_ value: String) -> Bool {
        !callShape.matches(in: value).isEmpty || cmdletShape.firstMatch(in: value) != nil
    }

    static let cmdletShape = TextMatcher(#"^(?:Get|Set|New|Remove|ConvertTo|ConvertFrom|Read|Invoke|Import|Export|Add|Start|Stop|Test|Select|Out|Write|Join|Split)-[A-Z][A-Za-z]+$"#)

    /// (A member path's `[` OCR read as `|` is a subscript still, `st.secrets|"postgres']["password’]`,
    /// also when the value stops at the quote after it.)
    /// (Or a call whose quoted argument, a name, OCR split at its `_`, `getenv('DB PASSWORD')`: the
    /// value stops inside it, `getenv('DB`; round 160. Or after a space OCR put after its `(`,
    /// `getenv( 'MANTIS_DB_PASSWORD' ) ;`; round 163.)
    static let callShape = TextMatcher(#"^(?:[A-Za-z_][A-Za-z0-9_.]*(?:\([^()]{0,64}\)|\[[^\[\]]{1,64}\]|[\[(])[:;,.]?|[a-z_][A-Za-z0-9_.]{2,63}\([ \t]?["'‘’“”][A-Za-z_][A-Za-z0-9_]{0,63}["'‘’“”]?|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+(?:[\[(]|\|["'‘’“”]).{0,64}|[a-z_]\w*(?:\.[A-Za-z_]\w*)+\|)$"#)

    /// `mysql -pS3cret!`: a password glued to `-p` (a port after `-p` is digits, `-pvz` are flags).
    func gluedPasswords() -> [Secret] {
        guard mentions(" -p") else { return [] }
        var found: [Secret] = []
        for match in Self.gluedPasswordFlag.matches(in: searchable) {
            let start = match.start + 2 + (match.text.first == "-" ? 0 : 1)
            // A quoted password ends at its closing quote: no piece after it is its rest
            // (`-p'…' -h db@localhost`; round 143).
            let end = isInItsQuotes(start, match.end) ? match.end : valueEnd(from: match.end)
            let value = squeezed(start, end)
            if Self.optionsStartingWithP.contains(match.text.lowercased()) { continue }
            // After `-p-`, the rest decides: `-p-kInjX79TB6` is a password, `-p-verbose` no flag's value.
            let made = startsMachineMade(start, end) || (utf8[start] == 0x2D && startsMachineMade(start + 1, end))
            guard value.count >= 4, !value.allSatisfy({ $0.isASCIIDigit || $0 == ":" }), Self.isPasswordValue(value, quoted: false),
                  made, !value.contains("/") else { continue }
            found.append(secret(.password, nil, start, end))
        }
        return found
    }

    /// Whether the value at `[start, end)` starts with a machine-made piece (or a scrap of one
    /// or two characters and then one), not a word that pieces after it happen to follow.
    func startsMachineMade(_ start: Int, _ end: Int) -> Bool {
        guard let first = piece(from: start, maximumSpaces: 0) else { return false }
        // Symbols alone are an operator (`passwd <= 1:4.0.12-6`); a scrap is letters, digits or
        // the symbols a password may start with (`-_ wYQdKeg1opn`), not a comparison or an arrow.
        let scrap = utf8[first.start..<first.end]
        if scrap.contains(where: Self.isAlphanumeric), isMachineMade(first.start, min(first.end, end)) {
            return true
        }
        // (Or letters whose case no word has, a symbol after them that OCR split after, then a
        // machine-made piece: `WMLi! 3Zt?t`. `Done! 2FA` and `DONE! 2FA` start with words.
        // After a `_`, which joins a name's words, the piece is 6 or more: `jci_ 8Twgiw+F`, not `use_ 2FA`.)
        if scrap.count >= 4, let symbol = scrap.last, symbol == 0x21 || symbol == 0x3F || symbol == 0x5F || Self.passwordSymbols.contains(symbol),
           case let letters = scrap.dropLast(), letters.allSatisfy(Self.isLetter), letters.contains(where: { (0x61...0x7A).contains($0) }),
           !isSentenceWord(first), let next = piece(from: first.end, maximumSpaces: 1), next.end <= end,
           symbol != 0x5F || next.end - next.start >= 6, isMachineMade(next.start, next.end) {
            return true
        }
        guard isScrap(first), !scrap.contains(where: { $0 == 0x3C || $0 == 0x3D || $0 == 0x3E }),
              let next = piece(from: first.end), next.end <= end else { return false }
        return isMachineMade(next.start, next.end)
    }

    /// `password=` in a query or a connection string as OCR split the word (`&pas sword=`,
    /// `;pas swor d=`); the clean word is the password rule's.
    /// Also a token's or secret's parameter (`Lab?t oken=…`: Jupyter's address). Group 1: a password's.
    static let splitPasswordParameter = TextMatcher(
        #"(?i)(?<=[?&;])[ \t]?(?:(p ?a ?s ?s ?w ?o ?r ?d)|t ?o ?k ?e ?n|s ?e ?c ?r ?e ?t)[ \t]?=[ \t]?"#)

    func splitPasswordParameters() -> [Secret] {
        guard mentions("p as", "pa ss", "pas s", "pass w", "passw o", "passwo r", "passwor d", "t ok", "to ken", "tok en", "toke n",
                       "s ec", "se cr", "sec re", "secr et", "secre t") else { return [] }
        return Self.splitPasswordParameter.matches(in: searchable).compactMap { match in
            guard match.text.trimmingCharacters(in: .whitespaces).dropLast().contains(" "), let first = piece(from: match.end, maximumSpaces: 0) else {
                return nil
            }
            // The value runs to the next parameter (`&name=`, `;`), across the spaces OCR put in it;
            // a password may hold an `&` of its own (`e&W#-u!`).
            func cut(_ end: Int) -> Int {
                (first.start..<end).first { utf8[$0] == 0x3B || utf8[$0] == 0x26 && startsQueryParameter($0 + 1, end) } ?? end
            }
            let inFirst = cut(first.end)
            let end = inFirst < first.end ? inFirst : cut(valueEnd(from: first.end))
            let value = squeezed(first.start, end)
            guard match[1] != nil else {
                // (A value that ends a wide line goes on under it, to the next parameter: round 154.)
                if end == first.end, let restEnd = parameterRestEnd(after: end),
                   Self.isRandomToken(Self.withoutOCRJunk(value + slice(end, restEnd).filter { !$0.isWhitespace })) {
                    return secret(.apiKey, nil, first.start, restEnd)
                }
                guard Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
                return secret(.apiKey, nil, first.start, end)
            }
            guard value.count >= 4, Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, nil, first.start, end)
        }
    }

    /// `-p` and a password glued to it, which may start with `-` (`-p-+Ifsnm4Ms`, `-p-kInjX79TB6`).
    static let gluedPasswordFlag = TextMatcher(#"(?:(?<=\s)|^)-p(?:[^\s\-]|-(?=[^\s\-]))\S*"#)
    /// Tools' options of one dash that start with `p` and look machine-made, which the glued rule
    /// would read as `-p` and a password: OpenSSL's `-pbkdf2` (`openssl enc`), `-pk7out` (`smime`).
    static let optionsStartingWithP: Set<String> = ["-pbkdf2", "-pk7out"]

    // MARK: - Provider keys read with noise

    /// Provider prefixes as OCR reads them (an underscore may come out as a space, `g` as `q`),
    /// and how many characters of key follow.
    /// `digits`: the fewest digits a key of that shape holds (random keys of 20+ characters over
    /// 62 symbols lack one 3 % of the time or less; Slack's are mostly digits; Hugging Face's none).
    /// The letters of a prefix read as their look-alikes are spelled with ``tolerant(_:)``.
    typealias NoisyPrefix = (label: String, pattern: String, minimum: Int, maximum: Int, digits: Int)

    static let noisyPrefixes: [NoisyPrefix] = [
        ("GitHub", #"[gq9]h[pou0Osr](?: ?_ ?| )"#, 34, 38, 1),
        ("GitHub", tolerant("github") + #"(?: ?_ ?| )pat(?: ?_ ?| )"#, 78, 86, 1),
        ("GitLab", "g" + tolerant("l") + #"(?:pat|dt|rt|soat|ffct|ft|ptt|cbt|imt|agent|oas)(?: ?[\-_] ?| )"#, 19, 66, 1),
        // OCR may read one glyph of `xox` as two (`xX0xb-…`).
        ("Slack", #"[xX]{1,2}[oO0]{1,2}[xX]{1,2}[abposreABPOSRE](?: ?[\-_] ?| )"#, 46, 120, 8),
        ("Stripe", #"[sr]k(?: ?_ ?| )(?:"# + tolerant("live") + #"|test)(?: ?_ ?| )"#, 12, 100, 1),
        ("AWS", "A[KS5]" + tolerant("I") + "A", 15, 17, 1),
        ("Google", "A" + tolerant("I") + " ?za", 33, 37, 1),
        ("SendGrid", #"[S$]G ?\. ?"#, 64, 70, 1),
        ("OpenAI", #"sk ?- ?(?:"# + ["proj", "svcacct", "admin"].map(tolerant).joined(separator: "|") + ") ?- ?", 20, 200, 1),
        ("Anthropic", #"sk-ant-(?:"# + ["api", "admin", "sid"].map(tolerant).joined(separator: "|") + #")\d\d-"#, 20, 200, 1),
        ("npm", #"npm(?: ?_ ?| )"#, 34, 38, 1),
        ("Hugging Face", #"hf(?: ?_ ?| )"#, 32, 36, 0),
        // A JWT's `J` as OCR reads it: `|`, `}`, `]` or `)`, maybe split off (`ey JhIjogI…`).
        ("JWT", #"ey ?[J|}\])]"#, 30, 2000, 1),
        ("Shopify", #"shp(?:at|ca|pa|ss)(?: ?_ ?| )"#, 30, 34, 1),
        ("DigitalOcean", #"do[opr](?: ?_ ?| )v"# + tolerant("1") + #"(?: ?_ ?| )"#, 62, 66, 1),
        // age's (bech32, capitals): OCR puts spaces around its dashes.
        // (A dash may come out as `~-` or `—`.)
        // (OCR may drop the `1` after the last dash: `KEY - WJFVE…`.)
        ("age", #"AGE ?[\-~—–]{1,2} ?SECRET ?[\-~—–]{1,2} ?KEY ?[\-~—–]{1,2} ?(?:"# + tolerant("1") + ")?", 56, 60, 1),
        ("Mailgun", #"key ?- ?"#, 31, 33, 1),
        // Stripe's webhook signing secret.
        ("Stripe", #"whsec(?: ?_ ?| )"#, 24, 40, 1),
        // PyPI's (a macaroon in base64url, 150+ characters in use): OCR splits it before its `-`s.
        ("PyPI", #"pypi ?- ?AgE"#, 80, 250, 1),
        // X's bearer token: its run of `A`s survives OCR; the rest is split and misread.
        ("X", #"A{18,24}"#, 40, 120, 1),
        // An Azure storage account's key in its connection string (base64: `/` and `+` inside).
        ("Azure", #"Account ?K ?e ?y ?= ?"#, 84, 90, 1),
    ]

    /// A literal as OCR may read it, as a pattern: each thin glyph (`l`, `i`, `I`, `1`) as any
    /// other or as two (`live` read as `lLive`, `gl` as `gL`), `o` as `0` or `O`, and the other
    /// single-character confusions search expects (``OCRConfusions``: `s`/`5`, `g`/`9`, `z`/`2`,
    /// `b`/`6`). Other characters stand for themselves.
    static func tolerant(_ literal: String) -> String {
        let thin = "[lLiI1|!]{1,2}"
        return literal.map { character -> String in
            switch character {
            case "l", "i", "I", "1": return thin
            case "o", "O", "0": return "[oO0]"
            default:
                let partners = OCRConfusions.singleGlyphPartners(of: character)
                guard !partners.isEmpty else { return NSRegularExpression.escapedPattern(for: String(character)) }
                return "[" + NSRegularExpression.escapedPattern(for: String(character) + partners) + "]"
            }
        }.joined()
    }

    /// Prefixes of providers whose names are rare in text, each tried only when the text holds its
    /// cue (a pattern per provider searched in every text cost 0.06 ms of a screenshot's 0.66).
    static let cuedNoisyPrefixes: [(cues: [String], prefix: NoisyPrefix)] = [
        (["pmak"], ("Postman", #"PMAK ?- ?"#, 57, 61, 1)),
        // LaunchDarkly's SDK and mobile keys, a UUID after `sdk-` or `mob-`, which OCR may split or
        // read a `0` of as `@` (the clean rule's runs stop at an `@`; round 156).
        // An Ably key: the app's id, `.`, the key's id, `:` and its secret, 43 characters of
        // base64url, which OCR may split, and may give an id a glyph more or less; only where the
        // text names Ably (round 156).
        (["ably"], ("Ably", #"[A-Za-z0-9_\-]{5,7} ?\. ?[A-Za-z0-9_\-]{5,7} ?: ?(?=[A-Za-z0-9_\-]{3})"#, 43, 45, 1)),
        (["sdk-", "sdk -", "mob-"], ("LaunchDarkly", #"(?:sdk|mob) ?- ?(?=[0-9a-f@O]{8} ?- ?[0-9a-f@O]{4})"#, 36, 38, 1)),
        // Brevo's (Sendinblue's) API key: 64 hexadecimal digits, `-`, 16 letters and digits.
        (["xkeysib"], ("Brevo", #"xkeysib ?- ?"#, 78, 84, 1)),
        // A Nostr private key (bech32): OCR may read its `1` as `i`, `l` or `I`.
        (["nsec"], ("Nostr", #"nsec ?[1lIi|] ?"#, 56, 62, 1)),
        // (Vault's and LangSmith's start with `h` and `l`, letters of every text: cued, each of
        // them in the big alternation cost 3 % of a screenshot's detection time.)
        (["hvs", "hvb", "hvr"], ("Vault", #"hv[sbr] ?\. ?"#, 24, 100, 1)),
        (["sv2"], ("LangSmith", #"[lI1|]sv2 ?_ ?(?:pt|sk) ?_ ?"#, 40, 46, 1)),
        (["glc", "glsa"], ("Grafana", #"gl(?:c|sa)(?: ?_ ?| )"#, 32, 120, 1)),
        (["fm2", "fm1", "flyv"], ("Fly.io", #"fm[12][ar]? ?_ ?"#, 60, 800, 1)),
        // (Capitals and digits: OCR reads a `0` as `O` or `@`, so a body without digits is still one.)
        (["nrak"], ("New Relic", #"NRAK ?- ?"#, 26, 28, 0)),
        (["akid"], ("Tencent Cloud", "AK" + tolerant("I") + "D", 31, 34, 1)),
        // (Small letters and digits: OCR reads a `0` as `@` or `O`, an `l` as `1` or `i`.)
        (["oy2"], ("NuGet", #"oy2"#, 42, 46, 1)),
        (["tskey"], ("Tailscale", #"tskey ?- ?[a-z]{3,7} ?- ?"#, 40, 80, 1)),
        (["figd"], ("Figma", #"figd(?: ?_ ?| )"#, 38, 46, 1)),
        (["dapi"], ("Databricks", #"dapi"#, 31, 35, 1)),
        (["sntry"], ("Sentry", #"sntry[su](?: ?_ ?| )"#, 60, 200, 1)),
        // (OCR may read its `l` as a capital or another thin glyph: `Lin_api_…`; round 134.)
        (["lin_api", "lin api", "lin _", "lin_ "], ("Linear", #"[lLI1|]in(?: ?_ ?| )api(?: ?_ ?| )"#, 38, 42, 1)),
        (["ntn"], ("Notion", #"ntn(?: ?_ ?| )"#, 44, 48, 1)),
        (["gocspx"], ("Google", #"GOCSPX ?- ?"#, 27, 30, 1)),
        // (OCR may split it after its `ATATT`; round 161.)
        (["atatt3", "atatt 3"], ("Atlassian", #"ATATT ?3"#, 150, 200, 1)),
        // A Discord bot's token: its user id in base64 (`M`, `N` or `O` first), `.`, six
        // characters, `.`, the rest; OCR puts spaces around the dots and inside the id (right
        // after its first glyphs too, `Mj I2NTE2…`, before a piece of 16+; round 133), and may
        // read a `J` of the six as `)`, a `0` as `@` (`. @D@7jX.`; round 144).
        (["discord", "token", "bot"], ("Discord", #"[MNO](?:[A-Za-z0-9@]{4,26}|[A-Za-z0-9@]{0,3} [A-Za-z0-9@]{16,26})(?: [A-Za-z0-9@]{1,20}){0,2} ?\. ?(?:[A-Za-z0-9_\-~)|\]}@] ?){5,7}\. ?"#, 25, 42, 1)),
        // An Azure AD application's client secret: three characters, a digit, `Q~` (OCR may read
        // the `~` as `v`, `e` or a dash, a glyph more before it, or put a space around the `Q`).
        // (OCR may read a `0` of its first characters as `@`: `4u@3Q~G-…`; round 134.)
        // (With its `~` misread, the prefix is any piece's `…3Qv`: then only the secret's own length,
        // 34 after it, give or take what OCR dropped or added; a PKCE challenge's 43, `ocg3QvO1…`,
        // is none: round 144.)
        (["secret", "azure", "client"], ("Azure", #"[A-Za-z0-9_~.@]{3,4}[0-9] ?Q ?~ ?"#, 31, 36, 1)),
        (["secret", "azure", "client"], ("Azure", #"[A-Za-z0-9_~.@]{3,4}[0-9] ?Q ?[ve\-—] ?"#, 33, 33, 1)),
        (["pul-", "pul -"], ("Pulumi", #"pul ?- ?"#, 39, 42, 1)),
        // (HubSpot's: OCR reads the data centre's `1` as `l`, puts spaces around the dashes.)
        (["pat-", "pat -"], ("HubSpot", #"pat ?- ?(?:na|eu|ap)[12lI] ?- ?"#, 34, 38, 1)),
        // 1Password's service account token: `ops_` and a JWT-like body (hundreds of characters).
        (["ops_", "ops "], ("1Password", #"ops(?: ?_ ?| )ey[J|}\])]"#, 60, 1200, 1)),
        // Google's OAuth access tokens (`gcloud auth print-access-token`): OCR may read the dot as a comma.
        (["ya29"], ("Google", #"ya29 ?[.,] ?"#, 30, 2048, 1)),
        // Its refresh tokens: OCR may read the `0` after `1//` as `O`, `@` or `®`.
        (["1//", "1 //", "1/ /"], ("Google", #"1 ?/ ?/ ?[0O@®Q]"#, 40, 400, 1)),
        // A Telegram bot's token: the bot's id, `:AA`, 33 characters (OCR puts spaces around the colon).
        (["telegram", ":aa", ": aa"], ("Telegram", #"(?:(?<=/)bot)?[0-9]{8,10} ?: ?AA"#, 30, 40, 1)),
        // (OCR may read its `9` as `Q`, split it, or read a glyph of the instance id as a symbol.)
        (["apa9", "apaq"], ("Firebase", #"AAAA[^\s:]{6,8} ?: ?APA[9Q] ?[1lI] ?b ?"#, 120, 200, 1)),
        // (OCR may read its `l` as `1` or `I`, its `s` as `S`: `S1.eUD_…`; round 144.)
        (["sl.", "sl .", "s1.", "s1 .", "si.", "si ."], ("Dropbox", #"[sS][lLI1] ?\. ?(?:u ?\. ?)?"#, 128, 1400, 1)),
        // Square's (OCR reads its `0` as `O`), Dynatrace's, Airtable's and Asana's, split or misread.
        (["xapp"], ("Slack", #"xapp ?- ?[1lI] ?- ?"#, 80, 120, 1)),
        (["sq0", "sqo", "sq@"], ("Square", #"sq[0Oo@](?:csp|atp) ?- ?"#, 22, 45, 1)),
        (["c01", "c@1", "co1", "c0l", "c@l"], ("Dynatrace", #"dt[0Oo@]c[0Oo@][1lI] ?\. ?"#, 85, 92, 1)),
        (["pat"], ("Airtable", #"pat[A-Za-z0-9]{14} ?\. ?"#, 60, 66, 1)),
        ([":"], ("Asana", #"[12] ?/ ?\d{16} ?: ?"#, 30, 34, 1)),
        (["eaa"], ("Square", #"EAAA"#, 58, 62, 1)),
        (["eaa"], ("Meta", #"EAA[B-Z]"#, 96, 400, 1)),
        (["sk.ey", "sk. ey", "sk .ey"], ("Mapbox", #"sk ?\. ?ey[J|}\])]"#, 60, 400, 1)),
        (["pscale"], ("PlanetScale", #"pscale(?: ?_ ?| )(?:pw|tkn|oauth)(?: ?_ ?| )"#, 32, 64, 1)),
        (["prv"], ("BIP32", #"[xtyzuvYZ]prv"#, 40, 110, 1)),
        // Contentful's personal access tokens: `CFPAT-` and 43 characters of base64url, which OCR
        // splits before a `-` inside (`CFPAT-8p5r…scr -FeoQg lb LrPm…`): the body's length says
        // where the key ends, not the piece that starts as an option does.
        (["cfpat"], ("Contentful", #"CFPAT ?- ?"#, 43, 45, 1)),
        // Rancher's API tokens: `token-`, a name of five, `:`, and 54 small letters and digits.
        (["token-", "token -"], ("Rancher", #"token ?- ?[a-z0-9]{5} ?: ?"#, 54, 56, 1)),
        (["dp.", "dp ."], ("Doppler", #"dp ?\. ?(?:st|sa|ct|pt|scim|audit) ?\. ?(?:[a-z0-9_\-]{2,35} ?\. ?)?"#, 40, 46, 1)),
    ]
    /// The shape new providers' keys follow (the clean ``providers``' `token`: `nfp_…`, `rnd_…`,
    /// `pplx-…`), as OCR splits or misreads it: a short prefix in small letters, `_` or `-`, a first
    /// piece of 6+ letters and digits, then machine-made pieces, 30 to 80 characters in all.
    /// After a `_`, a random part and `_` may come between, as the clean rule has it (Pinecone's
    /// `pcsk_X7Yt8_…`, round 144; not after a `-`: Keycloak's key id `os-FoK6y_leoZ…` is public):
    /// the prefix's then, the body after it.
    static let noisyGenericToken: NoisyPrefix = ("token", #"(?<![A-Za-z0-9_\-])[a-z][a-z0-9]{1,6}+(?:_[A-Za-z0-9]{4,24}+_|[_\-])(?=[A-Za-z0-9]{6})"#, 30, 80, 1)
    static let noisyGenericTokenMatcher = TextMatcher(noisyGenericToken.pattern)
    static let hashNames = ["sha", "md5", "blake", "crc", "xxh", "murmur"]
    /// Prefixes of a record's id, shown wherever the record is (a dashboard, a log, a comment), not
    /// a key's: Clerk's `user_…`, `org_…`, `sess_…`; Stripe's `cus_…`, `sub_…`, `prod_…`, `price_…`,
    /// `evt_…`, `acct_…`, `txn_…`; an order's, an invoice's, a request's (round 156: `// user_2p…`).
    static let objectIdPrefixes: Set<String> = ["user", "usr", "org", "sess", "cus", "sub", "prod", "price", "evt", "acct", "txn", "inv",
                                                "ord", "order", "req", "msg", "item", "team", "proj"]
    static let publicKeyAlgorithms: Set<String> = ["ssh", "ecdsa", "rsa", "dsa", "pgp", "gpg", "x509"]

    /// The lines (UTF-16 windows for ``TextMatcher/matches(in:within:)``) that hold a run of 16+
    /// token characters (``longRuns``).
    func linesWithLongRuns() -> [NSRange] {
        guard !longRuns.isEmpty else { return [] }
        var windows: [NSRange] = []
        var run = 0
        for line in lineRanges() {
            while run < longRuns.count, longRuns[run].upperBound <= line.bytes.lowerBound { run += 1 }
            guard run < longRuns.count else { break }
            if longRuns[run].lowerBound < line.bytes.upperBound { windows.append(line.utf16) }
        }
        return windows
    }

    /// Providers whose keys' bodies are hexadecimal digits.
    static let hexBodiedProviders: Set<String> = ["Mailgun", "Databricks", "Pulumi"]
    static let cuedNoisyPrefixMatchers = cuedNoisyPrefixes.map { TextMatcher(#"(?<![A-Za-z0-9\-])"# + $0.prefix.pattern) }

    static let noisyPrefixMatcher = TextMatcher(
        #"(?<![A-Za-z0-9\-])(?:"# + noisyPrefixes.map { "(\($0.pattern))" }.joined(separator: "|") + ")")

    /// A Telegram bot's: its number, maybe split, and `:AA`. Apart, and only read when the text
    /// holds `:AA` (a pattern that starts at any digit costs every text with numbers). In the Bot
    /// API's addresses it follows `/bot`: `…/bot62439891 23 : AAyx…`.
    static let telegramPrefix: NoisyPrefix = (label: "Telegram", pattern: #"(?:(?<=/bot)|(?<![A-Za-z0-9\-]))[0-9](?: ?[0-9]){7,9} ?: ?A ?[A4]"#, minimum: 31, maximum: 35, digits: 0)
    static let telegramPrefixMatcher = TextMatcher(telegramPrefix.pattern)

    /// Provider keys whose prefix survived OCR but whose body was split or misread: the prefix,
    /// then the body's pieces (machine-made, or any piece while the body is shorter than the
    /// provider's keys), counted without spaces; a JWT needs `.eyJ` or a second dot inside.
    func noisyProviderKeys() -> [Secret] {
        var found: [Secret] = []
        var candidates = Self.noisyPrefixMatcher.matches(in: searchable).compactMap { match in
            (1...Self.noisyPrefixes.count).first { match[$0] != nil }.map { (match: match, provider: Self.noisyPrefixes[$0 - 1]) }
        }
        if mentions(":aa", ": aa", ":a4", ": a4", ":a a", ": a a") {
            candidates += Self.telegramPrefixMatcher.matches(in: searchable).map { (match: $0, provider: Self.telegramPrefix) }
        }
        for (entry, matcher) in zip(Self.cuedNoisyPrefixes, Self.cuedNoisyPrefixMatchers) where entry.cues.contains(where: { mentions($0) }) {
            candidates += matcher.matches(in: searchable).map { (match: $0, provider: entry.prefix) }
        }
        // (Only on a line that holds a run of 16+ token characters: a key's body OCR split keeps one.)
        if !longRuns.isEmpty, mentions("_", "-") {
            candidates += Self.noisyGenericTokenMatcher.matches(in: searchable, within: linesWithLongRuns()).compactMap { match in
                // (A hash's or a public key's algorithm is no provider's: `sha512-…` is an
                // integrity hash, `ssh-ed25519 AAAAC3Nza…` a public key.)
                let name = match.text.prefix(while: { $0 != "_" && $0 != "-" }).lowercased()
                guard !Self.hashNames.contains(where: name.hasPrefix), !Self.publicKeyAlgorithms.contains(name), !Self.objectIdPrefixes.contains(name) else { return nil }
                // (Nor one a line names public: `Publishable key pk live_9BUM…`.)
                guard !saysPublic(before: match.start, atMost: 40) else { return nil }
                // (Nor the rest of an address's query value OCR split: `&code_challenge=D-XEij j8h_SKkt…&…`.)
                guard !continuesASplitQueryValue(match.start) else { return nil }
                // (Nor the start of one whose name says no secret: `&code_challenge=sh5nk26_Nv…`.)
                guard !beginsAQueryValueNamedNoSecret(match.start) else { return nil }
                return (match: match, provider: Self.noisyGenericToken)
            }
        }
        for (match, provider) in candidates {
            // Only a prefix that names its mode (`rk_live_`) may follow a `_`: OCR reads the space
            // before a key as one (`orders-sync_rk_live_…`); `load_hf_…` is a name.
            if match.start > 0, utf8[match.start - 1] == 0x5F, provider.label != "Stripe" { continue }
            // A key a dashboard shows cut (`sk_live_...4242`, `sk_live_…4242`) is none: only its last
            // characters are there, after an ellipsis.
            if startsWithEllipsis(match.end) { continue }
            var end = match.end, length = 0
            // The body's first piece starts right after the prefix. (Read no further than a key
            // and a parameter's name could go: a piece longer is no key, and a line of prefixes
            // glued together would be read to its end once per prefix.)
            var first = end
            let readable = min(utf8.count, end + provider.maximum + 64)
            while first < readable, !Self.isSpace(utf8[first]), !Self.isLineBreak(utf8[first]) { first += 1 }
            // (Nor one cut short after a few characters, `npm_Ab…` in `npm token list`'s table.)
            if first - end < provider.minimum, (end..<first).contains(where: startsWithEllipsis) { continue }
            // (A Telegram bot's token has no `/`: in the Bot API's address the method follows it,
            // `…/bot<token>/sendMessage`.)
            let pieceEnd = { (start: Int, stop: Int) -> Int in
                let stop = self.keyPieceEnd(start, stop)
                guard provider.label == "Telegram" else { return stop }
                return self.utf8[start..<stop].firstIndex(of: 0x2F) ?? stop
            }
            first = pieceEnd(end, first)
            // A key in a URL whose next parameter's `&` OCR read as a letter (`…gpgwipoScallback=`):
            // a piece past the key's length with an `=` after it ends where the key does.
            if first - end > provider.maximum + 2, let equals = utf8[(end + provider.minimum)..<first].firstIndex(of: 0x3D),
               equals > end + provider.maximum {
                first = end + provider.maximum
            }
            // A key in a table whose gap to the next column's UUID OCR read as `_` (`…Ryjp4_afa9f3b2-9877-…`):
            // a piece past the key's length, a `_` within it and a UUID after, ends at the `_` (round 144).
            if first - end > provider.maximum + 2, case let within: ClosedRange<Int> = (end + provider.minimum)...(end + provider.maximum + 2),
               let underscore = within.first(where: { (index: Int) -> Bool in utf8[index] == 0x5F && uuidEnd(from: index + 1) != nil }) {
                first = underscore
            }
            // A prefix read with a space for its `_` or `-` must be followed by something no
            // word is (`sf/hf multilibs on upcoming…` is prose). A space beside a `_` or `-` that
            // was read (`glpat -Cii…`) leaves the prefix whole.
            // (A Telegram bot's number split before its `:AA` is no word either.)
            // (So is a Discord token's id before its dot.)
            let prefixSplit = match.text.contains(" ") && !match.text.contains(where: { $0 == "_" || $0 == "-" })
                && provider.label != "Telegram" && provider.label != "Discord"
            if prefixSplit, !isMachineMade(end, first) { continue }
            // Any provider's shape (no known prefix vouches for it): every piece machine-made,
            // none taken for its place alone (`non-deprecated chown syntax (Closes: #1007139)`).
            // Each piece letters and digits (or a glyph OCR misread): a token's body, not words
            // joined by `_` or a reference in parentheses (`bpf_trampoline_link (CVE-2026-23319)`).
            let strict = provider.label == "token"
            let isTokenPiece = { (start: Int, stop: Int) in self.utf8[start..<stop].allSatisfy(Self.isTokenLetterOrJunk) }
            if strict, !isMachineMade(end, first) || !isTokenPiece(end, first) { continue }
            length = first - end
            end = first
            while length < provider.maximum, let next = piece(from: end), end < utf8.count, keyPieceEnd(end, end + 1) > end {
                let stop = pieceEnd(next.start, next.end)
                // A scrap of one or two characters OCR cut off (`…IkpX V CJ9.eyJ…`) belongs to the
                // key when a machine-made piece follows it.
                let scrap = stop - next.start <= 2 && stop == next.end && utf8[next.start..<stop].allSatisfy(Self.isAlphanumeric)
                    && machineMadeAfterScraps(next).map { isMachineMade($0.start, keyPieceEnd($0.start, $0.end)) } == true
                // So are one or two pieces of three or four letters that read as words (`…SCqs for
                // ir5aHwW0…`, `LZH LDGr HoDgFyRiou…`), when a machine-made piece of 8+ follows and
                // the key has room for them (`…Myhe TcJ031uj Y Hgmm…`).
                let wordInside = !scrap && stop == next.end && lettersBeforeLongPiece(next, room: provider.maximum - length)
                guard stop > next.start, !strict && (length < provider.minimum || scrap || wordInside) || isMachineMade(next.start, stop) && (!strict || isTokenPiece(next.start, stop)),
                      length + (stop - next.start) <= provider.maximum + 2 else { break }
                length += stop - next.start
                end = stop
                if stop < next.end { break }
            }
            // The rest of a long key (32+ read) that OCR cut into scraps and short pieces to its
            // line's end (`…sbR jcxom3Uq j XONUSOy YMAB1 i iUaMm7 vugQUF 35`): letters and digits
            // only, no word among them (`… is your key`), one piece machine-made at least, and
            // within the key's length.
            if !strict, length >= max(provider.minimum, 32), length < provider.maximum,
               let rest = piecesToLineEnd(from: end, atMost: 10, maximumSpaces: 1), let last = rest.last,
               rest.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isAlphanumeric) && !isSentenceWord($0) }),
               rest.contains(where: { isMachineMade($0.start, $0.end) }),
               case let more = rest.reduce(0, { $0 + $1.end - $1.start }), length + more <= provider.maximum + 2 {
                length += more
                end = last.end
            }
            // A base64 JSON object with a shell's `\` glued to it goes on over the next lines
            // (cloudflared's `service install eyJhIjog…NDAz\` / `    NS03…fQ==`, indented).
            if provider.label == "JWT", let rest = continuedLines(after: end, upTo: provider.maximum - length) {
                length += rest.length
                end = rest.end
            }
            // A long key the screen's edge cut off ends its line (maybe with a glyph or two of
            // the edge's junk: `…hNVhcY;j`): a third of it (20+) is still a key.
            // (Random, not words: `xoxp-1-SlackAppConfigurationAccessTokenHere` is a placeholder.)
            let cutOff = provider.minimum >= 30 && length >= max(20, provider.minimum / 3)
                && piecesToLineEnd(from: end, atMost: 1, maximumSpaces: .max).map { $0.allSatisfy { $0.end - $0.start <= 3 } } == true
                && Self.isRandomToken(Self.withoutOCRJunk(squeezed(match.end, end)))
            guard (provider.minimum...(provider.maximum + 2)).contains(length) || cutOff else { continue }
            let body = squeezed(match.end, end)
            guard Set(body.suffix(16)).count > 3 else { continue } // a placeholder shows the shape only
            // Random, not words joined (`hf_requiredCharacteristicTypes…`, `xoxp-1-SlackAppConfig…`).
            // A key without a digit passes when its prefix was read whole and its case changes as
            // often as a random key's (`kkjYCkvxXjtF`), not a few times as in words joined
            // (`my-tokens_are-correctAB`); a random key of 20 lacks a digit some 3 % of the time.
            guard body.filter(\.isASCIIDigit).count >= provider.digits || (!prefixSplit && Self.caseChanges(body.utf8) >= 3),
                  Self.entropy(body) >= 3.0,
                  provider.label == "Azure" || provider.label == "JWT" && body.count >= 60
                    || body.filter({ $0 == "/" }).count <= (body.count >= 40 ? 1 : 0) else { continue }
            // A JWT has `.eyJ` or a second dot inside; a base64 JSON object without them is a
            // credential of its own when long (60+ after `eyJ`: cloudflared's tunnel token, a Docker
            // registry's `auth`; a JWT's header alone is 36), its `.` a glyph OCR misread.
            // (Named no JWT then: it is none.)
            let isJWT = provider.label == "JWT" && (body.contains(".eyJ") || body.filter({ $0 == "." }).count >= 2)
            if provider.label == "JWT", !isJWT, body.count < 60 { continue }
            // Any provider's shape: random as the clean rule has it, capitals, small letters and digits.
            if provider.label == "token" {
                let random = Self.withoutOCRJunk(body)
                guard random.contains(where: \.isUppercase), random.contains(where: \.isLowercase), random.contains(where: \.isNumber),
                      Self.entropy(random) >= 4 else { continue }
            }
            if provider.label == "AWS", body.contains(where: \.isLowercase) { continue }
            // Mailgun's and Databricks' bodies are hexadecimal: `key-value pairs, 2 per line…` is prose
            // after a common word, `dapiDataGetTopLongShortPositionRatio` a method's name.
            if Self.hexBodiedProviders.contains(provider.label), body.filter(\.isHexDigit).count * 10 < body.count * 9 { continue }
            found.append(secret(.apiKey, provider.label == "JWT" && !isJWT ? nil : provider.label, match.start, end))
        }
        return found
    }

    /// The rest of a token on the lines after `end`, where the token's piece ends with a shell's
    /// `\` glued to it (maybe with one glyph of junk OCR read after it) and nothing else on its
    /// line: each next line's pieces (indented, one or two spaces apart, OCR's) to its end, all of
    /// a token's characters (base64's, and the glyphs OCR reads for them), a machine-made one among
    /// them, four lines at most and `room` characters (spaces left out). A `\` after a space
    /// ends an argument, not a token (`--token … \` / `  --url …`). Nil when there is none.
    func continuedLines(after end: Int, upTo room: Int) -> (end: Int, length: Int)? {
        var stop = end, length = 0
        for _ in 0..<4 {
            // (The glyph of junk may be past the piece's end, where a `,` ended it.)
            var slash = stop - 1, after = stop
            if after < utf8.count, !Self.isSpace(utf8[after]), !Self.isLineBreak(utf8[after]) { after += 1 }
            if after == stop, slash > 0, utf8[slash] != 0x5C, !Self.isAlphanumeric(utf8[slash]) { slash -= 1 }
            guard slash > 0, utf8[slash] == 0x5C, !Self.isSpace(utf8[slash - 1]),
                  piece(from: after, maximumSpaces: .max) == nil else { break }
            var next = after
            while next < utf8.count, Self.isSpace(utf8[next]) { next += 1 }
            guard next < utf8.count, Self.isLineBreak(utf8[next]) else { break }
            next += 1
            while next < utf8.count, Self.isSpace(utf8[next]), next - stop < 40 { next += 1 }
            guard let pieces = piecesToLineEnd(from: next, atMost: 12, maximumSpaces: 2),
                  let last = pieces.last,
                  pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy { Self.isTokenLetterOrJunk($0) || "+/=".utf8.contains($0) } }),
                  pieces.contains(where: { isMachineMade($0.start, $0.end) }),
                  case let more = pieces.reduce(0, { $0 + $1.end - $1.start }), length + more <= room else { break }
            length += more
            stop = last.end
        }
        return length > 0 ? (stop, length) : nil
    }

    /// Whether the three lines before the one holding `index` or the three after it hold `needle`
    /// (small letters), within 512 bytes on either side.
    func linesAround(_ index: Int, hold needle: [UInt8]) -> Bool {
        var start = lineStart(of: index, atMost: 512), end = lineEnd(of: index, atMost: 512)
        let (lineFrom, lineTo) = (start, end)
        for _ in 0..<3 {
            if start > 0, index - start < 512 { start = lineStart(of: start - 1, atMost: 512 - (index - start)) }
            if end < utf8.count, end - index < 512 { end = lineEnd(of: end + 1, atMost: 512 - (end - index)) }
        }
        return Self.holds(lowered[start..<lineFrom], needle) || end > lineTo && Self.holds(lowered[(lineTo + 1)..<end], needle)
    }

    /// Where the line holding `index` starts, looking back `atMost` bytes.
    func lineStart(of index: Int, atMost limit: Int) -> Int {
        var start = index
        while start > 0, index - start < limit, !Self.isLineBreak(utf8[start - 1]) { start -= 1 }
        return start
    }

    /// Where the line holding `index` ends (its line break, or the text's end), looking on `atMost` bytes.
    func lineEnd(of index: Int, atMost limit: Int) -> Int {
        var end = index
        while end < utf8.count, end - index < limit, !Self.isLineBreak(utf8[end]) { end += 1 }
        return end
    }

    /// Whether the line holding `index` says `public` or `publishable` in the `atMost` bytes before it
    /// (the pattern only where the bytes hold `publi`: compiling or running one per candidate costs).
    func saysPublic(before index: Int, atMost limit: Int) -> Bool {
        let from = lineStart(of: index, atMost: limit)
        guard Self.holds(lowered[from..<index], Array("publi".utf8)) else { return false }
        return Self.publicWord.firstMatch(in: slice(from, index)) != nil
    }
    static let publicWord = TextMatcher(#"(?i)\bpubli(?:c|shable)\b"#)

    /// `hash`, `hashed` or `hashes` as a word or a part of a name (`password_hash`,
    /// `HashedControlPassword`, `PASSWORD_HASH`), not inside another word (`hashicorp`).
    static let hashWord = TextMatcher(#"(?<![A-Za-z])[Hh]ash(?:ed|es)?(?![a-z])|(?<=[a-z])Hash(?:ed|es)?(?![a-z])|(?<![A-Za-z])HASH(?:ED|ES)?(?![A-Z])"#)

    /// Whether a name or a command says its value is a hash (``hashWord``).
    static func saysHash(_ text: String) -> Bool { hashWord.firstMatch(in: text) != nil }

    /// Whether an ellipsis (`..`, `...`, `…`) starts at `index`.
    func startsWithEllipsis(_ index: Int) -> Bool {
        guard index + 1 < utf8.count else { return false }
        if utf8[index] == 0x2E, utf8[index + 1] == 0x2E { return true }
        return index + 2 < utf8.count && utf8[index] == 0xE2 && utf8[index + 1] == 0x80 && utf8[index + 2] == 0xA6
    }

    /// Whether `first` and at most one more piece are three or four letters each, and a
    /// machine-made piece of 8+ follows them, all within `room` characters.
    func lettersBeforeLongPiece(_ first: (start: Int, end: Int), room: Int) -> Bool {
        guard let (_, _, used) = longPieceAfterShortWords(first) else { return false }
        return used <= room
    }

    /// The machine-made piece of 8+ (or random letters, ``isShortRandomLetters(_:minimumLetters:)``) that follows `first` and at most two more pieces of three or
    /// four letters (or up to `longest`; letters and a digit too), and how many characters they hold
    /// together (spaces aside); nil when there is none.
    func longPieceAfterShortWords(_ first: (start: Int, end: Int), longest: Int = 4) -> (start: Int, end: Int, used: Int)? {
        var current = first, used = 0
        // (Or a scrap of one or two letters and digits among them: `…[key] JHAGI a8 jP65iBeG…`.)
        for _ in 0..<3 {
            let count = current.end - current.start
            // (Or a short piece of letters and a digit, no word: `…[key] JSMX fo4Wj FGbbo6UEHe…`; round 154.)
            guard (3...longest).contains(count) && utf8[current.start..<current.end].allSatisfy(Self.isLetter)
                    || count <= 2 && utf8[current.start..<current.end].allSatisfy(Self.isAlphanumeric)
                    || (3...longest).contains(count) && utf8[current.start..<current.end].allSatisfy(Self.isAlphanumeric)
                        && utf8[current.start..<current.end].contains(where: { (0x30...0x39).contains($0) }) else { return nil }
            used += count
            guard let next = piece(from: current.end, maximumSpaces: 1) else { return nil }
            let stop = keyPieceEnd(next.start, next.end)
            // (Or random letters, a key's tail whose digits OCR read as letters: `…T j FOKKOILUWAKtcf`; round 164.)
            if stop - next.start >= 8, isMachineMade(next.start, stop) || Self.isShortRandomLetters(slice(next.start, stop)) {
                return (next.start, stop, used + (stop - next.start))
            }
            current = next
        }
        return nil
    }

    /// What ends a key inside a piece: the `@` of `user:TOKEN@host` (see ``isHostAt(_:)``), quotes, `<>`, `,;`.
    static let keyStops: Set<UInt8> = [0x40, 0x22, 0x27, 0x60, 0x3C, 0x3E, 0x2C, 0x3B]

    /// Whether the `@` at `index` starts a host (`@github.com`, `@10.0.3.12`, `@git lab.com`): else
    /// OCR read a `0` or an `a` of the key as `@`.
    /// Looks at most 253 bytes on (the longest host name), so a piece of many `@` costs little.
    func isHostAt(_ index: Int) -> Bool {
        var i = index + 1, name = false, spaces = 0, afterSpace = index + 1
        let limit = min(utf8.count, index + 254)
        // One space may be inside the host: OCR splits `gitlab.com` as `git lab.com`.
        while i < limit, !Self.isLineBreak(utf8[i]), utf8[i] != 0x2F, utf8[i] != 0x3A {
            // No host name holds a quote (`…27@ada928…" https:` is a key OCR read an `@` into).
            if quoteLength(at: i) > 0 { return false }
            if Self.isSpace(utf8[i]) {
                spaces += 1
                guard spaces == 1, name else { break }
                afterSpace = i + 1
            }
            // A name whose case changes inside again and again is base64 (a JWT's part before its
            // `.`, after an `@` OCR read into it), not a host (`GitLab.com` changes once).
            // (A host's name goes on after its dot, maybe after a space OCR put there: a dot that
            // ends the piece ends a sentence or a table's cell, `…NS@NiAAWx. |`, after a key.)
            if utf8[i] == 0x2E, name {
                let next = i + 1 < limit && Self.isSpace(utf8[i + 1]) ? i + 2 : i + 1
                guard next < limit, Self.isAlphanumeric(utf8[next]) else { return false }
                return Self.caseChanges(utf8[(index + 1)..<i]) < 2
            }
            if Self.isAlphanumeric(utf8[i]) { name = true }
            i += 1
        }
        // (Nor is the next argument's scheme a port's `:`: `…x3x@jRt8CM8PHjjyYfqDP https: //api…`,
        // a key OCR read a `0` of as `@`; round 162.)
        if spaces == 1, i < utf8.count, utf8[i] == 0x3A, ["http", "https", "ftp", "ws", "wss"].contains(slice(afterSpace, i).lowercased()) { return false }
        return name && i < utf8.count && utf8[i] == 0x3A
    }

    /// Where a key's piece ends: its end, or a stop (an `@` only before a host; a quote only
    /// where it can end a value, not between a key's character and four more: `s!'YKFahc…` is an
    /// `l` OCR read as `!'`).
    func keyPieceEnd(_ start: Int, _ end: Int) -> Int {
        var i = start
        // (Found once, when a `)` or a curly quote asks: a piece of many costs its length, not its square.)
        lazy var lastAlphanumeric = utf8[start..<end].lastIndex(where: Self.isAlphanumeric) ?? -1
        while i < end {
            let byte = utf8[i]
            if Self.keyStops.contains(byte), byte != 0x40 || isHostAt(i), !(byte == 0x27 && isGlyphQuote(i, start, end)) { return i }
            if byte == 0x26, startsQueryParameter(i + 1, end) { return i }
            // A curly quote or a `)` with nothing of the key after it closes a literal or a call
            // (`Client(auth="ntn_…”)`); inside, it is a glyph OCR misread.
            let curly = byte == 0xE2 && i + 2 < end && utf8[i + 1] == 0x80 && [0x98, 0x99, 0x9C, 0x9D].contains(utf8[i + 2])
            if curly || byte == 0x29, lastAlphanumeric < i { return i }
            i += 1
        }
        return end
    }

    /// Whether a URL's next query parameter (`callback=`) starts at `index`: then the `&` before it
    /// ends a key (`?key=AIza…&callback=initMap`); an `&` inside a key is a digit OCR misread (`8`).
    /// OCR may split the parameter's name (`&cal lback=`): letters to the piece's end, then the
    /// rest of the name and its `=` after one space.
    func startsQueryParameter(_ index: Int, _ end: Int) -> Bool {
        var i = index
        while i < end, Self.isAlphanumeric(utf8[i]) || utf8[i] == 0x5F { i += 1 }
        if i > index, i < end { return utf8[i] == 0x3D }
        guard i - index >= 2, let next = piece(from: end, maximumSpaces: 1) else { return false }
        var j = next.start
        while j < next.end, Self.isAlphanumeric(utf8[j]) || utf8[j] == 0x5F { j += 1 }
        return j > next.start && j < next.end && utf8[j] == 0x3D
    }

    /// Whether the `'` at `index`, inside the piece `[start, end)`, sits between a key's character
    /// (a letter, digit, `!` or `|`) and four letters or digits. (Or a `?` after a letter or digit:
    /// OCR may read one glyph as `?'`, `whsec_atYkEaq?'sxUbw…`; round 145.)
    func isGlyphQuote(_ index: Int, _ start: Int, _ end: Int) -> Bool {
        guard index > start, end - index > 4 else { return false }
        let before = utf8[index - 1]
        let readAsTwo = before == 0x3F && index - 1 > start && Self.isAlphanumeric(utf8[index - 2])
        guard Self.isAlphanumeric(before) || before == 0x21 || before == 0x7C || readAsTwo else { return false }
        return utf8[(index + 1)...(index + 4)].allSatisfy(Self.isAlphanumeric)
    }

    // MARK: - Private keys, setup keys, credentials in addresses

    /// A PEM header as OCR reads it: dashes of any kind (or none), spaces anywhere, and `KEY`
    /// with its letters misread or one more (`KEVY`): after `BEGIN … PRIVATE`, a `K` and up to
    /// three letters can only be it.
    /// Not only `PRIVATE`: a static or secret key's block too (OpenVPN's `Static key V1`), and NATS'
    /// `USER NKEY SEED`.
    static let noisyPEMHeader = TextMatcher(
        #"(?i)[\-—–_~=]*\s?BEGIN\s+(?:[A-Z0-9]+\s+){0,3}(?:(?:PRIVATE|STATIC|SECRET)\s*K\s?[A-Z]{1,3}|N\s?KEY\s+SEED)(?:\s+BLOCK|\s+V\s?[0-9Il])?\s?[\-—–_~=]*"#)
    static let noisyPEMFooter = TextMatcher(#"(?i)[\-—–_~=]*\s?END\s+(?:[A-Z0-9]+\s+){0,3}(?:(?:PRIVATE|STATIC|SECRET)\s*K\s?[A-Z]{1,3}|N\s?KEY\s+SEED)(?:\s+BLOCK|\s+V\s?[0-9Il])?\s?[\-—–_~=]*"#)

    /// A private-key block from its header to its footer, or to the end of what is visible,
    /// whatever OCR did to the lines between; it needs 20 base64 characters after the header.
    func noisyPrivateKeyBlocks() -> [Secret] {
        guard mentions("private", "static", "secret", "seed") else { return [] }
        var found: [Secret] = []
        let footers = Self.noisyPEMFooter.matches(in: searchable)
        // (A header inside the block before it is that block's: a block without its footer runs to
        // the text's end, and a text of headers alone would be read once per header.)
        var next = 0 // the first footer after the header (headers come in order: read once)
        for header in Self.noisyPEMHeader.matches(in: searchable) where header.start >= (found.last?.end ?? 0) {
            while next < footers.count, footers[next].end <= header.end { next += 1 }
            let footer = next < footers.count ? footers[next] : nil
            // The key's lines: up to the footer's `END` (its dashes may have gone to the header).
            let bodyEnd = footer.map { f in f.start + (Array(f.text.utf8).firstIndex(of: UInt8(ascii: "E")) ?? 0) } ?? utf8.count
            let after = slice(header.end, max(header.end, min(bodyEnd, header.end + 120)))
            guard after.filter({ $0.isLetter || $0.isNumber || "+/=".contains($0) }).count >= 20 else { continue }
            found.append(secret(.apiKey, "private key", header.start, footer?.end ?? utf8.count))
        }
        return found
    }

    /// A 2FA setup key shown in groups of four (`JBSW Y3DP EHPK 3PXP …`, also in small letters)
    /// after words that introduce one; OCR may read a base32 letter as a digit it is not.
    static let setupKeyCue = TextMatcher(
        #"(?i)(setup\s+key|secret\s+key|authenticator|two[\s\-]factor|2fa|can.t\s+scan|manual(?:ly)?\s+entr|enter\s+(?:this|the)\s+(?:key|code)|time[\s\-]based|totp)"#)
    /// Runs of four or more groups of two to five letters, digits or glyphs OCR reads for a letter
    /// (a bracket, bar or `!`: `AJR]` for `AJRJ`), in either case; ``setupKeys()`` keeps the runs
    /// of one case.
    static let groupedKey = TextMatcher(#"(?<![A-Za-z0-9])(?:[A-Za-z0-9\]\[|}{)(!]{3,5}[ \-]){3,}[A-Za-z0-9\]\[|}{)(!]{2,5}(?![A-Za-z0-9])"#)
    static let keyGlyphs: Set<UInt8> = Set("][|}{)(!".utf8)

    func setupKeys() -> [Secret] {
        guard mentions("key", "authenticator", "factor", "2fa", "scan", "manual", "code", "based", "totp") else { return [] }
        let cues = Self.setupKeyCue.matches(in: searchable).map(\.end)
        guard !cues.isEmpty else { return [] }
        var found: [Secret] = []
        for match in Self.groupedKey.matches(in: searchable) where cues.contains(where: { $0 <= match.start && match.start - $0 < 200 }) {
            // The groups as UTF-8 ranges (the run is ASCII).
            var groups: [Range<Int>] = [], start = match.start
            for i in match.start...match.end where i == match.end || utf8[i] == UInt8(ascii: " ") || utf8[i] == UInt8(ascii: "-") {
                if i > start { groups.append(start..<i) }
                start = i + 1
            }
            // A key is shown in one case; OCR may read a letter of a group in the other (`4SjL`),
            // so each group may hold one such letter. Runs of groups that fit a case are keys to check.
            for upper in [true, false] {
                let otherCase: ClosedRange<UInt8> = upper ? 0x61...0x7A : 0x41...0x5A
                let others = groups.map { group in group.filter { otherCase.contains(utf8[$0]) }.count }
                var first = 0
                for index in groups.indices {
                    let fits = others[index] <= 1 && others[index] * 2 < groups[index].count
                    guard !fits || index == groups.count - 1 else { continue }
                    let end = fits ? index + 1 : index
                    if let key = setupKey(in: Array(groups[first..<end]), otherCaseLetters: others[first..<end].reduce(0, +)) { found.append(key) }
                    first = index + 1
                }
            }
        }
        return found
    }

    /// The digits a base32 key never holds (its alphabet is `A`–`Z` and `2`–`7`).
    static let digitsBase32Lacks: Set<UInt8> = Set("0189".utf8)

    /// The setup key these groups are, if they are one.
    func setupKey(in groups: [Range<Int>], otherCaseLetters: Int) -> Secret? {
        guard groups.count >= 4, otherCaseLetters <= max(1, groups.count / 4) else { return nil }
        // Groups of three to five: OCR may read one character as two (`D5MZ` as `DS5MZ`), drop
        // one or read a glyph between two (`XJ)VU`); most groups must still be four long, with
        // or without such glyphs, or once one glyph read as both a letter and the digit it looks
        // like (`S5`, `O0`, `B6`: the letter–digit pairs of ``OCRConfusions``), which no word holds,
        // or once a digit base32 has no glyph for (`0 1 8 9`: `OX83V`, `T4582`), which OCR put in.
        let fours = groups.filter { group in
            if group.count == 4 || group.filter({ !Self.keyGlyphs.contains(utf8[$0]) }).count == 4 { return true }
            guard group.count == 5 else { return false }
            if group.filter({ Self.digitsBase32Lacks.contains(utf8[$0]) }).count == 1 { return true }
            return group.dropLast().contains { i in
                let a = Character(UnicodeScalar(utf8[i])), b = Character(UnicodeScalar(utf8[i + 1]))
                return OCRConfusions.singleGlyphPartners(of: a).contains(Character(b.lowercased()))
            }
        }
        guard fours.count * 4 >= groups.count * 3 else { return nil }
        // A glyph OCR read for a letter (`UM2]`) counts as the letter it stands for.
        let compact = groups.flatMap { $0.map { utf8[$0] } }.filter { Self.isAlphanumeric($0) || Self.keyGlyphs.contains($0) }
        // Letters mostly: a base32 key, not a phone number or a date in groups;
        // and a digit (`this code with your` is four words; a random base32 key of 16+
        // characters lacks one of its six digits 4 % of the time or less, of 32 one time in 700).
        // Without one, six groups or more, one of them without a vowel (`DGXH`): each word of a
        // run of words has one, while a random group of four lacks one a third of the time.
        let digits = compact.filter { (0x30...0x39).contains($0) }.count
        guard compact.count >= 16, (compact.count - digits) * 2 >= compact.count else { return nil }
        if digits == 0 {
            // Or four or five groups, each of exactly four letters (16 or 20 characters: a key of
            // 16 lacks a digit 3.6 % of the time), one of them without a vowel, or with three
            // consonants in a row, as no word of four letters in capitals has (`WANR LFDA EHNI YPTO`:
            // a random group of four has a vowel two times in three; round 160, an older pool's).
            let vowels = Set("AEIOUYaeiouy".utf8)
            guard groups.count >= 6 || groups.allSatisfy({ $0.count == 4 }),
                  groups.contains(where: { !$0.contains { vowels.contains(utf8[$0]) } || Self.longestConsonantRun(slice($0.lowerBound, $0.upperBound)) >= 3 }) else { return nil }
        }
        return secret(.apiKey, "2FA secret", groups[0].lowerBound, groups[groups.count - 1].upperBound)
    }

    /// `scheme://user:password@host` as OCR reads it: spaces around `:` and `//`, inside the user
    /// name (`dep Loy`) and inside the password, an `@` in the password (the last `@` before the host ends it).
    /// The user may be empty (Redis has passwords without users: `redis://:…@cache:6379`). OCR
    /// may read the user's first `0` as `@` and the colon after it as `;` (`cloudinary : //@9244…
    /// : YuNc…`, `//304479652756172; afrSf…`). The user may hold an `@` of its own, its `%40`
    /// misread (`imaps://deploy%4@acme. io: 7ZuK…@imap…`), or a dot OCR set apart with spaces on
    /// both sides (`imaps://tomas%40acme . io: j 960DW…@imap…`; round 133), or split twice (`imaps://dep
    /// lLoy%40acme. i0:MOnv…@imap…`; round 137). One `/` may be read as a thin letter
    /// (`vne:l/:p14t…@10.9.1.14:5900` for `vnc://:…@`; round 144).
    static let noisyCredentialURL = TextMatcher(#"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}+[\])|}]? ?: ?(?://|[lI1|]/|/[lI1|]) ?(?:@?[^\s:;/@"'`\[\]]{1,64}(?:@[^\s:;/@"'`\[\]]{1,64})?(?: \.)?(?: [^\s:;/@"'`\[\]]{1,32}){0,2})? ?[:;] ?"#)

    func noisyConnectionPasswords() -> [Secret] {
        guard mentions("//", ":l/", ":i/", ":1/", ":|/", ":/l", ":/i", ":/1", ":/|", ": l/", ": i/", ": 1/", ": /l", ": /i") else { return [] }
        return Self.noisyCredentialURL.matches(in: searchable).compactMap { match in
            let start = match.end
            // The password runs to the last `@` of the address (a password may hold one).
            // A password and a host fit in 512 bytes; a line of many addresses stays linear.
            var end = start, lastAt: Int?, pieceStart = start
            let limit = min(utf8.count, start + 512)
            while end < limit, !Self.isLineBreak(utf8[end]) {
                if Self.isSpace(utf8[end]) {
                    guard let next = piece(from: end, maximumSpaces: 1) else { break }
                    if !isMachineMade(next.start, next.end) {
                        // (A key OCR split into scraps, `key_c8ffe…5d9fe eaf 578836 7ad60d…@dotenv.org`:
                        // after 12+ characters of it, the last piece machine-made or letters and
                        // digits, up to two scraps of six letters or digits or fewer are the key's
                        // when a machine-made piece follows. Not after an `@` and a host: only after
                        // one OCR read for a `0` of the key, a scrap with a digit after it, `25b1@ba1 9c8…`.)
                        let piece = utf8[pieceStart..<end]
                        let lettersAndDigits = piece.count >= 6 && piece.allSatisfy(Self.isAlphanumeric)
                            && piece.contains(where: { (0x30...0x39).contains($0) }) && piece.contains(where: Self.isLetter)
                        let atForADigit = lastAt.map { at in
                            let name = utf8[(at + 1)..<end].prefix(while: { !Self.isSpace($0) })
                            return (1...8).contains(name.count) && name.allSatisfy(Self.isAlphanumeric) && name.contains(where: { (0x30...0x39).contains($0) })
                        } ?? true
                        // (Or fewer before the scraps, letters and digits, when the piece after them runs to
                        // the address's `@` and a host: `…:WBHyx j JRShHsn9V2…-KP@acme-media`, round 150.)
                        // (Or, after 12+ characters, any pieces of a token's characters that run to the
                        // address's `@` and a host: `…:AA7mwcII0-RqiSSnsF lilaiij 7IMMm- -QuP@teLegram`; round 165.)
                        guard atForADigit, let resume = machineMadePiece(afterScrapsFrom: end, before: limit)
                                ?? (lastAt == nil && squeezed(start, end).count >= 12 && reachesAHost(from: next.start, before: limit) ? next.start : nil) else { break }
                        let runsToTheHost = { () -> Bool in
                            guard lastAt == nil, piece.allSatisfy(Self.isAlphanumeric) else { return false }
                            let at = resume + self.utf8[resume..<limit].prefix { !Self.isSpace($0) && !Self.isLineBreak($0) && $0 != 0x40 }.count
                            return at + 1 < limit && self.utf8[at] == 0x40 && self.squeezed(start, at).count >= 12 && self.isHostStart(at + 1)
                        }
                        guard squeezed(start, end).count >= 12 && (isMachineMade(pieceStart, end) || lettersAndDigits) || runsToTheHost() else { break }
                        end = resume
                        pieceStart = resume
                        continue
                    }
                    pieceStart = next.start
                }
                if utf8[end] == 0x40 { lastAt = end }
                if utf8[end] == 0x2F { break } // the path after the host
                end += 1
            }
            // (A terminal may have wrapped the address inside the password: its rest starts the next
            // line and runs to the `@` before the host, `…//deploy: j9H3…wzG` / `t3y2xIg319@hub.
            // lambdatest.com/wd/hub`; round 156.)
            if lastAt == nil, end > start, let rest = wrapStart(after: end), let restPiece = piece(from: rest, maximumSpaces: 0),
               let at = utf8[rest..<restPiece.end].firstIndex(of: 0x40), at > rest, at - rest <= 64,
               !utf8[rest..<at].contains(0x2F), at + 1 < utf8.count, isHostStart(at + 1) {
                lastAt = at
                end = at
            }
            // (A user with an `@` of its own and no `@` after the value: a host and a path, not a
            // password, when a `/` follows: `ssh://git@host:Acme2/shop.git`.)
            let userHoldsAnAt = match.text.range(of: "//").map { match.text[$0.upperBound...].drop { $0 == " " || $0 == "@" }.contains("@") } ?? false
            if userHoldsAnAt, lastAt == nil, end < limit, utf8[end] == 0x2F { return nil }
            // No `@` left (OCR read it as `a` or `Q`): the rest of the address goes, host and all.
            // So too when what follows the last `@` is no host name but more of the password
            // (`@P6EOPdBBTYPa9Tagitlab.com`: an `@` misread inside it, the real one read as `a`).
            if let at = lastAt, let label = piece(from: at + 1, maximumSpaces: 0) {
                let name = utf8[label.start..<label.end].prefix { $0 != 0x2E && $0 != 0x3A && $0 != 0x2F }
                // (Or 24+ hexadecimal digits and letters: `key_3eb0be@fb14511df1d1d52af71a…`, a key's `0` read as `@`.)
                let hexDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
                let isMixedHex = name.allSatisfy(hexDigit) && name.contains(where: { (0x30...0x39).contains($0) }) && name.contains(where: { (0x61...0x66).contains($0) })
                let isHex = name.count >= 24 && isMixedHex
                // (Or 8+ of them that OCR split from more, `@bc2e8dbf 25ef0340e3ca…`: no host's name is
                // hexadecimal digits alone before a space and 8 more.)
                let isSplitHex = name.count >= 8 && name.count == label.end - label.start && isMixedHex
                    && piece(from: label.end, maximumSpaces: 1).map({ $0.end - $0.start >= 8 && utf8[$0.start..<($0.start + 8)].allSatisfy(hexDigit) }) == true
                // (Or a name longer than a host name's part may be, 63: `@c4216d…44bedotenv. org`, the
                // key's `0c` read as `@c` and the real `@` as `e`.)
                if isSplitHex || name.count > 63 || name.count >= 12 && isMachineMade(label.start, label.start + name.count)
                    && (name.contains(where: { (0x41...0x5A).contains($0) }) || isHex) { lastAt = nil }
            }
            let stop = lastAt ?? end
            guard stop > start else { return nil }
            let value = squeezed(start, stop)
            // Without a user, a value with a `:` before the `@` is a method and a user (CVS's
            // `cvs://:pserver:anoncvs@…`); without an `@` (OCR read it as `0`), the host's port has one.
            if lastAt != nil, match.text.replacingOccurrences(of: " ", with: "").hasSuffix("//:"), value.contains(":") { return nil }
            // A backslash may be a symbol OCR misread (`^` as `\`); `\(` is a string's interpolation.
            guard value.count >= 3, !value.allSatisfy(\.isASCIIDigit), !Self.isPlaceholder(value),
                  !value.contains(where: { "\"'`<>;[]{}".contains($0) }), !value.contains("\\(") else { return nil }
            // (A `-` that starts it is the password's, not a flag's: inside an address, no option
            // comes after the user's `:`; `imaps://svc%40acme. io: -t0c-7-gy9JFBsGimap…`, round 141.)
            let from = utf8[start..<stop].firstIndex { $0 != 0x2D } ?? stop
            if lastAt == nil, !(value.count >= 6 && isMachineMade(from, stop) && value.contains(where: \.isLetter)) { return nil }
            // (Nor, without an `@`, a host's port and the query after it: `https://vpn.acme.io:8443?sni=…`.)
            if lastAt == nil, case let port = value.prefix(while: \.isASCIIDigit), (1...5).contains(port.count),
               value.dropFirst(port.count).first.map({ "?#".contains($0) }) ?? true { return nil }
            // After a `;` (a `:` misread, or prose after an address: `https://acme.io; contact me@…`)
            // only a machine-made password.
            if match.text.hasSuffix(";") || match.text.hasSuffix("; "), !(value.count >= 8 && isMachineMade(start, stop)) { return nil }
            return Secret(kind: .apiKey, label: Self.connectionStringLabel, start: start, end: stop, marker: "[password]")
        }
    }

    /// Where a machine-made piece starts after one or two scraps of one to six letters or digits
    /// from `index` (single spaces between them), before `limit`; nil when there is none.
    func machineMadePiece(afterScrapsFrom index: Int, before limit: Int) -> Int? {
        var index = index
        for scraps in 0...2 {
            guard let next = piece(from: index, maximumSpaces: 1), next.end <= limit else { return nil }
            if scraps > 0, isMachineMade(next.start, next.end) { return next.start }
            guard next.end - next.start <= 6, utf8[next.start..<next.end].allSatisfy(Self.isAlphanumeric) else { return nil }
            index = next.end
        }
        return nil
    }

    /// Whether the pieces from `index` (single spaces between, four at most, before `limit`) are a
    /// token's characters up to an `@` and a host's start: the rest of an address's password.
    func reachesAHost(from index: Int, before limit: Int) -> Bool {
        let isTokenByte = { (byte: UInt8) in Self.isTokenLetterOrJunk(byte) || byte == 0x2D || byte == 0x5F }
        var index = index
        for _ in 0..<4 {
            guard let next = piece(from: index, maximumSpaces: 1), next.end <= limit else { return false }
            let at = utf8[next.start..<next.end].firstIndex(of: 0x40) ?? next.end
            guard at > next.start, utf8[next.start..<at].allSatisfy(isTokenByte) else { return false }
            if at < next.end { return at + 1 < utf8.count && Self.isLetter(utf8[at + 1]) && isHostStart(at + 1) }
            index = next.end
        }
        return false
    }

    /// `Use 482913 to sign in`: a code before what it is for.
    static let codeForSigningIn = TextMatcher(
        #"(?i)(?<![\p{L}\p{N}$€£¥#.,:/_\-])(\d{3}[\- ]\d{3}|\d{4,8})\s+(?:to|for)\s+(?:sign[\s\-]?in|log[\s\-]?in|verify|confirm|continue|reset|activate|complete)\b"#)

    func signInCodes() -> [Secret] {
        guard mentions(" to ", " for ") else { return [] }
        return Self.codeForSigningIn.matches(in: searchable).compactMap { match in
            guard let value = match[1] else { return nil }
            return secret(.otp, nil, match.start, match.start + value.utf8.count)
        }
    }

    /// An IBAN whose digits OCR read as letters (`FRS7 9573…`, `DE89 37O4…`): the letters OCR
    /// confuses with digits (``OCRConfusions``' `s`/`5`, `o`/`0`, `l`/`1`, `b`/`6`, `g`/`9`, `z`/`2`,
    /// and `B`/`8`, `I`/`1`) read as those digits where the IBAN has digits, then the mod-97 check;
    /// after an `IBAN` label, the number is masked even when no reading passes it.
    /// (A `]` or `|` may stand for a `J` or `I` in a bank code of letters, or for a `1`: round 141,
    /// `GB47 PIL] 5325…`.)
    static let noisyIBANCandidates = TextMatcher(#"(?<![A-Za-z0-9])([A-Z]{2})([0-9OSIlBZG@]{2})((?:[ \-]?[A-Za-z0-9@\]|]){10,32})"#)
    static let digitLookalikes: [UInt8: UInt8] = [
        UInt8(ascii: "O"): UInt8(ascii: "0"), UInt8(ascii: "o"): UInt8(ascii: "0"), UInt8(ascii: "S"): UInt8(ascii: "5"),
        UInt8(ascii: "s"): UInt8(ascii: "5"), UInt8(ascii: "I"): UInt8(ascii: "1"), UInt8(ascii: "l"): UInt8(ascii: "1"),
        UInt8(ascii: "B"): UInt8(ascii: "8"), UInt8(ascii: "Z"): UInt8(ascii: "2"), UInt8(ascii: "G"): UInt8(ascii: "6"),
        UInt8(ascii: "g"): UInt8(ascii: "9"), UInt8(ascii: "b"): UInt8(ascii: "6"), UInt8(ascii: "@"): UInt8(ascii: "0"),
        UInt8(ascii: "]"): UInt8(ascii: "1"), UInt8(ascii: "|"): UInt8(ascii: "1"),
    ]
    /// The glyphs OCR reads for a capital in a group of letters (a bank code's `J` as `]`).
    static let letterLookalikes: [UInt8: UInt8] = [UInt8(ascii: "]"): UInt8(ascii: "J"), UInt8(ascii: "|"): UInt8(ascii: "I")]

    /// After an `IBAN` label, its number whatever OCR did to its groups (`NLO09 GUPJ 0776…`).
    /// OCR reads a `0` as `@`, `®` or `©`, a `1` as `|` or `]`, a `5` as `§` or `$`, a `J` as `)`
    /// or `}` (`JMU)`).
    static let labelledIBAN = TextMatcher(#"(?i)\bIBAN\b\s*[:#.]?\s*((?:[A-Z0-9@®©§$|\])}]{2,6}[ \-]?){3,9})"#)

    func noisyIBANs() -> [Secret] {
        var found: [Secret] = []
        if mentions("iban") {
            for match in Self.labelledIBAN.matches(in: searchable) {
                guard let value = match[1] else { continue }
                let compact = value.filter { !$0.isWhitespace && $0 != "-" }
                let digits = compact.filter { $0.isASCIIDigit || "@®©§$|]".contains($0) }.count
                guard (12...34).contains(compact.count), digits >= 6, compact.contains(where: \.isLetter) else { continue }
                var end = match.end
                while end > match.start, Self.isSpace(utf8[end - 1]) || utf8[end - 1] == 0x2D { end -= 1 }
                let start = end - value.trimmingCharacters(in: CharacterSet(charactersIn: " -")).utf8.count
                found.append(secret(.iban, String(compact.prefix(2)).uppercased(), start, end))
            }
        }
        return found + Self.noisyIBANCandidates.matches(in: searchable).compactMap { match in
            guard let country = match[1], let length = Self.ibanLengths[country] else { return nil }
            var compact: [UInt8] = [], end = match.start
            while end < match.end, compact.count < length {
                let byte = utf8[end]
                if byte != 0x20, byte != 0x2D { compact.append(byte) }
                end += 1
            }
            guard compact.count == length, end >= utf8.count || !Self.isAlphanumeric(utf8[end]) else { return nil }
            // Check digits are digits; in the rest, a look-alike in a group of digits is a digit.
            var read = compact
            for index in 2..<4 { read[index] = Self.digitLookalikes[read[index]] ?? read[index] }
            // By the groups of four an IBAN is shown in: a group of 3+ digits has no letters (a
            // bank code of letters, `BNBG`, stays as it is).
            for group in stride(from: 4, to: read.count, by: 4) {
                let range = group..<min(group + 4, read.count)
                guard read[range].filter({ (0x30...0x39).contains($0) }).count >= min(3, range.count - 1) else { continue }
                for index in range { read[index] = Self.digitLookalikes[read[index]] ?? read[index] }
            }
            for index in 4..<read.count { read[index] = Self.letterLookalikes[read[index]] ?? read[index] }
            let labelled = slice(max(0, match.start - 12), match.start).lowercased().contains("iban")
            guard Self.isIBANChecksumValid(read) || labelled else { return nil }
            return secret(.iban, country, match.start, end)
        }
    }

    /// After a card label, a number in groups of four where OCR read a digit as a glyph that looks
    /// like it (`495@`: `@ ® ©` `O` `o` for `0`, `| ] ! I l` for `1`, `§ $ S s` for `5`, `B` for
    /// `8`, `Z` for `2`, `G` `b` for `6`, `g` for `9`, `A` for `4`: `AG66 8557 …`, round 151), at least ten of its characters digits. The
    /// label is ``cardLabelWords``, with what stands between it and the number taken lazily; the
    /// number may start the next line (`Virtual card` / `272@ 8259 …`).
    static let noisyLabelledCard = TextMatcher(
        cardLabelWords + #"?(?:\n[ \t]*)?((?:[0-9@®©O|\]!§$SBZGIlA][ \-]?){12,18}[0-9@®©O|\]!§$SBZGIlA])(?![\p{L}\p{N}])"#)

    func noisyLabelledCards() -> [Secret] {
        // `cc` as a label only: inside words (`access`, `success`) it is everywhere.
        guard mentions("card", "credit", "debit", "visa", "amex", "cc ", "cc:", "cc#") else { return [] }
        return Self.noisyLabelledCard.matches(in: searchable).compactMap { match in
            guard let value = match[1] else { return nil }
            let compact = value.filter { $0 != " " && $0 != "-" }
            let digits = compact.filter(\.isASCIIDigit).count
            // Groups of four as cards are shown; a glyph among them (else the clean rule decides).
            let groups = value.split(whereSeparator: { $0 == " " || $0 == "-" })
            guard (13...19).contains(compact.count), digits >= 10, digits < compact.count,
                  groups.count == 1 || groups.dropLast().allSatisfy({ $0.count == 4 }) else { return nil }
            let end = match.end, start = end - value.utf8.count
            return secret(.card, nil, start, end)
        }
    }

    /// Whether a piece is base64 or base64url: letters, digits, `+` `/` `-` `_`, and `=` only as
    /// padding at its end (a key's rest, not a setting's `NAME=value`).
    func isBase64(_ piece: (start: Int, end: Int)) -> Bool {
        utf8[piece.start..<piece.end].reversed().drop(while: { $0 == 0x3D }).allSatisfy { Self.isAlphanumeric($0) || "+/-_".utf8.contains($0) }
    }

    /// Whether a piece is a scrap of standard base64 only (letters, digits, `+`, `/`; not base64url's
    /// `-` or `_`, which an option holds), then at most two `=` of padding: stricter than ``isBase64(_:)``.
    func isBase64Scrap(_ piece: (start: Int, end: Int)) -> Bool {
        let body = utf8[piece.start..<piece.end].reversed().drop(while: { $0 == 0x3D })
        return piece.end - piece.start - body.count <= 2 && !body.isEmpty
            && body.allSatisfy { Self.isAlphanumeric($0) || $0 == 0x2B || $0 == 0x2F }
    }

    /// The lengths of a 16-, 32- or 64-byte key in base64 or base64url, with its padding or without.
    static let encodedKeyLengths: Set<Int> = [22, 24, 43, 44, 86, 88]

    /// Whether a piece is base64url (letters, digits, `-`, `_`): after a JWT's dot, its signature,
    /// even where OCR read its digits as letters (`SNNKQUOXOUt`) or it starts with `-`.
    func isBase64URL(_ piece: (start: Int, end: Int)) -> Bool {
        // (Its padding may end it: `-nxafr8jDM=`.)
        utf8[piece.start..<piece.end].reversed().drop(while: { $0 == 0x3D }).allSatisfy { Self.isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F }
    }

    /// Whether a piece is a Windows command's option (`/crypto`, `/out:`): `/` and 2–24 letters, on a
    /// line that holds another such option before `index` (a password's rest OCR split at its `/` is
    /// on no such line).
    func isWindowsOption(_ piece: (start: Int, end: Int), before index: Int) -> Bool {
        guard Self.windowsOption.firstMatch(in: slice(piece.start, piece.end)) != nil else { return false }
        let lineStart = lineStart(of: index, atMost: 400)
        return Self.slashOption.firstMatch(in: slice(lineStart, index)) != nil
    }
    static let windowsOption = TextMatcher(#"^/[A-Za-z]{2,24}:?$"#)

    /// A key or password a rule found, taken on across the spaces OCR put in it (`ghp_Zq8R kW2m…`,
    /// a JWT split at a dot).
    func extendedAcrossSpaces(_ secret: Secret) -> Secret {
        // (A private key's block, a DSN's password and a proxy link's end where their rule says: a
        // DSN's at its `@`, or at the letter OCR read for it, inside the piece `…atcp(host:port)/db`.)
        guard secret.kind == .apiKey || secret.kind == .password, secret.label != "private key", secret.label != Self.dataSourceNameLabel,
              secret.label != Self.proxyLinkLabel else { return secret }
        // A value in its quotes ends at the closing one (`-p'…' -h db@localhost`), and a key an
        // address's next part is glued to ends before it (`…/bot<token>/getUpdates`): nothing
        // after either is its rest (round 143).
        if isInItsQuotes(secret.start, secret.end) || startsAddressPart(at: secret.end) { return secret }
        // (So does one a quote opens right before it and closes right after it, its rule having
        // found the literal inside: `KlaviyoAPI("pk_…", max_delay=60)`; round 160.)
        if secret.start > 0, secret.end < utf8.count, quoteLength(endingAt: secret.start) > 0, quoteLength(at: secret.end) > 0 { return secret }
        // (Or one a quote closes right after it that its line opened before it, OCR's curly one too:
        // `-H 'X-JFrog-Art-Api: AKCp…Bql’ \`; round 160.)
        if secret.end < utf8.count, quoteLength(at: secret.end) > 0, lineOpensAQuote(before: secret.start) { return secret }
        // (Nor after a quote, or a connection string's `;` and a quote, that ends a value its rule
        // found wrapped: `…Password=86N7Yg4` / `4-fnkOA-k;" providerName=…`; round 154.)
        if secret.end + 1 < utf8.count, utf8[secret.start..<secret.end].contains(where: Self.isLineBreak),
           quoteLength(at: secret.end) > 0 || utf8[secret.end] == 0x3B && quoteLength(at: secret.end + 1) > 0 { return secret }
        // An address's password ends at the `@` its rule found, whether or not a dotted host's name
        // follows (`cloudinary://…:<password>@acme-media`; round 150).
        if secret.label == Self.connectionStringLabel, secret.end < utf8.count, utf8[secret.end] == 0x40 { return secret }
        // (So does an address's user that is a token, `discord://TOKEN@WEBHOOK_ID`: what follows its `@`
        // is the host, maybe digits alone; round 164.)
        if secret.start >= 2, secret.end < utf8.count, utf8[secret.end] == 0x40, utf8[secret.start - 1] == 0x2F, utf8[secret.start - 2] == 0x2F { return secret }
        // (Nor past a colon an address follows, `curl -u KEY: https://…`: the key was the user, the
        // address the command's; round 157.)
        if secret.end < utf8.count, utf8[secret.end] == 0x3A, let next = piece(from: secret.end + 1, maximumSpaces: 2), isOptionOrAddress(next) { return secret }
        var end = valueEnd(from: secret.end, stoppingAt: Self.keyStops)
        // A long key OCR split around a short piece that reads as a word (`…nfM4L/ opel TZWSSNPXEFYXY=`):
        // the word and the machine-made piece after it belong to it. (After 20+ characters of key,
        // a piece of five letters too: `…4AB2j Omdel 2wA+wufVvNKc…`.)
        while secret.kind == .apiKey, case let count = squeezed(secret.start, end).count, count >= 16, let next = piece(from: end, maximumSpaces: 1),
              let long = longPieceAfterShortWords(next, longest: count >= 20 ? 5 : 4), long.end - secret.start <= 400 {
            end = valueEnd(from: long.end, stoppingAt: Self.keyStops)
        }
        // A key inside a quote its line opened before it (`Environment="GITHUB_TOKEN=xQx… LQLKYj
        // tp9q…"`; round 132): the pieces OCR split from it up to the closing quote on its line
        // (four at most), when none is a sentence's word, an option or an address, and with them
        // it is as random as a key: the quote says where the value ends.
        if secret.kind == .apiKey, squeezed(secret.start, end).count >= 16, let pieces = piecesToClosingQuote(from: end, atMost: 4),
           let last = pieces.last, lineOpensAQuote(before: secret.start),
           pieces.allSatisfy({ keyPieceEnd($0.start, $0.end) == $0.end && !isSentenceWord($0) && !isOptionOrAddress($0)
               && utf8[$0.start..<$0.end].allSatisfy({ Self.isAlphanumeric($0) || "+/=_-.".utf8.contains($0) }) }),
           Self.isRandomToken(squeezed(secret.start, last.end)) {
            end = last.end
        }
        // A JWT without its signature yet (fewer than two dots): OCR may have put a scrap of junk
        // (`Ind.`) between the payload and the signature; the signature is 8+ characters after it.
        if secret.label == "JWT", squeezed(secret.start, end).filter({ $0 == "." }).count < 2 || utf8[end - 1] == 0x2E,
           let junk = piece(from: end), junk.end - junk.start <= 4, let signature = piece(from: junk.end),
           signature.end - signature.start >= 8, isMachineMade(signature.start, signature.end) || isBase64URL(signature) {
            end = valueEnd(from: signature.end, stoppingAt: Self.keyStops)
        } else if secret.label == "JWT", utf8[end - 1] == 0x2E, let signature = piece(from: end),
                  signature.end - signature.start >= 8, isBase64URL(signature) {
            // A JWT that ends at its second dot: what follows a space is its signature, base64url
            // even when it starts with a `-` a flag would (`In0. -Ht2cik…`).
            end = valueEnd(from: signature.end, stoppingAt: Self.keyStops)
        }
        // A JWT without its signature that ends a wide line: a terminal wrapped it, and its rest
        // starts the next line as OCR split and misread it (`…ICJ1c2` / `VyInO , 9JdnJMOByAN -
        // RH7Bt…- j 6Vd8K23Ufw`, its dot read as `,`): the line's pieces, base64url or a glyph alone,
        // 16+ characters of them, none a word (round 159).
        if secret.label == "JWT", squeezed(secret.start, end).filter({ $0 == "." }).count < 2, let wrap = wrapStart(afterSpacesFrom: end),
           let pieces = piecesToLineEnd(from: wrap, atMost: 12, maximumSpaces: 1), let last = pieces.last,
           pieces.allSatisfy({ isBase64URL($0) && !isSentenceWord($0) || $0.end - $0.start == 1 && ",.".utf8.contains(utf8[$0.start]) }),
           squeezed(wrap, last.end).count >= 16 {
            end = last.end
        }
        // A JWT's signature OCR split before a `-` or `_` of its own (`…gbL -COY68EBASPoh88dQ`):
        // a base64url piece that starts with one and is machine-made after it goes on with it
        // (a flag after a token, `--data-binary`, has no digit or inner capital).
        // Any key of 24+ characters so far too (an ACME EAB key, base64url: `… -uHzXxyZRNz-irNF`),
        // when the piece's case changes four times or more or it holds a digit (a Java property
        // after a key, `-DskipTests`, changes three times).
        while secret.label == "JWT" || secret.kind == .apiKey && squeezed(secret.start, end).count >= 24,
              let next = piece(from: end, maximumSpaces: 1), next.end - next.start >= 8,
              utf8[next.start] == 0x2D || utf8[next.start] == 0x5F, isBase64URL(next), isMachineMade(next.start + 1, next.end),
              secret.label == "JWT" || Self.caseChanges(utf8[(next.start + 1)..<next.end]) >= 4
                || utf8[(next.start + 1)..<next.end].contains(where: { (0x30...0x39).contains($0) }) {
            end = valueEnd(from: next.end, stoppingAt: Self.keyStops)
        }
        // A 2FA URI's base32 secret OCR split (`…?secret=KZ Y NCFOIKSG VNSFWKN770237…&issuer=`): the
        // pieces of base32's letters and digits (and the digits OCR reads for its letters) to the `&`.
        if secret.label == "2FA secret" {
            while let next = piece(from: end, maximumSpaces: 1), next.end - secret.start <= 400 {
                let stop = utf8[next.start..<next.end].firstIndex(of: 0x26) ?? next.end
                guard stop > next.start, utf8[next.start..<stop].allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }) else { break }
                end = stop
                if stop < next.end { break }
            }
        }
        // A key of two parts whose `.` OCR read as a comma and a space (Codefresh's `HEX.HEX`:
        // `--api-key d1347dec…eaa9, e2b3bf9b…c6d1F`): 16+ letters and digits before it, a piece of
        // 16+ after it, machine-made, last on its line or before an option; together random
        // (a list's next item is a word, a name or shorter). Round 160.
        if secret.kind == .apiKey, end + 2 < utf8.count, utf8[end] == 0x2C, Self.isSpace(utf8[end + 1]),
           case let head = utf8[secret.start..<end], head.count >= 16, head.allSatisfy(Self.isAlphanumeric),
           let next = piece(from: end + 1, maximumSpaces: 1), next.end - next.start >= 16,
           utf8[next.start..<next.end].allSatisfy(Self.isAlphanumeric), isMachineMade(next.start, next.end),
           piece(from: next.end, maximumSpaces: .max).map({ isOptionPiece($0) }) ?? true,
           Self.isRandomToken(squeezed(secret.start, end) + squeezed(next.start, next.end)) {
            end = next.end
        }
        // A long key (40+; 32+ of a provider's shape, whose keys are long: `sk_test_…kGper`) whose line
        // goes on with a few pieces, at most one a short word (`Fmrz`),
        // one machine-made of 8+, to its end (`…[key] j IAVORY 1UeCLg4j 7i_PNx LleRZR4ss…`): OCR split the rest of it.
        // (Not a command's next option and its value, `--token … --name runner-01`: a piece that reads
        // as an option stops it, unless its case changes twice or more, as base64url's does: `-wNCCbL`.)
        // (A comma glued to the key before a space, `…Lwmy, j 7pUOWUaf 9d7bP9qC`, is a glyph OCR read for one of its
        // letters when such pieces follow it: a list's next item is no scrap of a key.)
        if secret.kind == .apiKey, squeezed(secret.start, end).count >= (Self.providerLabels.contains(secret.label ?? "") ? 32 : 40),
           case let afterGluedComma = end + 1 < utf8.count && utf8[end] == 0x2C && Self.isSpace(utf8[end + 1]) ? end + 1 : end,
           let pieces = piecesToLineEnd(from: afterGluedComma, atMost: 8, maximumSpaces: 2), let last = pieces.last,
           pieces.allSatisfy({ keyPieceEnd($0.start, $0.end) == $0.end && (!isOptionOrAddress($0) || Self.caseChanges(utf8[$0.start..<$0.end]) >= 2) }),
           case let words = pieces.filter({ isSentenceWord($0) }), words.count <= 1, words.allSatisfy({ $0.end - $0.start <= 4 }),
           pieces.contains(where: { $0.end - $0.start >= 8 && isMachineMade($0.start, $0.end) }) {
            end = last.end
        }
        // Or ends with scraps of it, up to three short pieces of a key's letters, digits, `-` and `_`
        // (`…[key] ANP - FKRxt`, `…KA8nf J -wNCCbL`), none a word of a sentence or an option (a `-`
        // and letters where a capital follows a small letter twice is base64url's, as no option's
        // name is: `-DskipTests` once, `-wNCCbL` twice).
        if secret.kind == .apiKey, squeezed(secret.start, end).count >= 40,
           let pieces = piecesToLineEnd(from: end, atMost: 3, maximumSpaces: 1), let last = pieces.last,
           pieces.allSatisfy({ $0.end - $0.start <= 8 && utf8[$0.start..<$0.end].allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F })
               && !isSentenceWord($0) && (!isOptionOrAddress($0) || Self.caseChanges(utf8[$0.start..<$0.end]) >= 2) }),
           pieces.contains(where: { utf8[$0.start..<$0.end].contains(where: Self.isAlphanumeric) }) {
            end = last.end
        }
        // Or a base64url key cut short whose line ends with up to three pieces that give it, with
        // them, the length of a key's encoding, which it did not have alone (22 or 24 characters for
        // 16 bytes, 43 or 44 for 32, 86 or 88 for 64): OCR split it before a `-` of its own and
        // dropped its padding (`--cookie-secret=…NuUgD -Nj F7LMkmazE`; round 146). The length says
        // they are its rest, so a piece may read as an option; one holds a digit or changes case twice.
        if secret.kind == .apiKey, case let key = squeezed(secret.start, end), key.utf8.count >= 16,
           !Self.encodedKeyLengths.contains(key.utf8.count), key.utf8.allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F }),
           let pieces = piecesToLineEnd(from: end, atMost: 3, maximumSpaces: 1), let last = pieces.last,
           Self.encodedKeyLengths.contains(key.utf8.count + pieces.reduce(0) { $0 + $1.end - $1.start }),
           pieces.allSatisfy({ isBase64URL($0) && !isSentenceWord($0) }),
           pieces.contains(where: { utf8[$0.start..<$0.end].contains(where: { (0x30...0x39).contains($0) })
               || Self.caseChanges(utf8[$0.start..<$0.end]) >= 2 }) {
            end = last.end
        }
        // A key of small letters and digits (Mattermost's, 26 of them; OCR may read a digit as a
        // capital, `…creQw6…`, twice at most, or a `7` as `/` once: `a6/nkvp…`) whose line ends with one or two scraps of its alphabet
        // that no word is, without a vowel or with one in six or more (`…cm98j gtj jdzgq`, `… rnhzolmk`):
        // OCR split its end.
        let smallOrDigit = { (byte: UInt8) in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
        if secret.kind == .apiKey, case let key = utf8[secret.start..<end].filter({ !Self.isSpace($0) }), key.count >= 16,
           key.allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x2F }), key.count(where: { $0 == 0x2F }) <= 1,
           key.count(where: { (0x41...0x5A).contains($0) }) <= 2,
           let pieces = piecesToLineEnd(from: end, atMost: 2, maximumSpaces: 1), let last = pieces.last,
           pieces.allSatisfy({ (3...8).contains($0.end - $0.start) && utf8[$0.start..<$0.end].allSatisfy(smallOrDigit)
               && Self.hasTooFewVowelsForAWord(utf8[$0.start..<$0.end]) }) {
            end = last.end
        }
        // A base64 key whose line ends with up to three pieces of base64 OCR split off, the last
        // with its padding (`secret: …KEABXms /X6w1 /w=`): the `=` says they are the key's end.
        // (Pieces of base64's letters, digits, `+` and `/` only, none a word of a sentence.)
        if secret.kind == .apiKey, utf8[end - 1] != 0x3D, squeezed(secret.start, end).count >= 16,
           let pieces = piecesToLineEnd(from: end, atMost: 3, maximumSpaces: 1), let last = pieces.last,
           utf8[last.end - 1] == 0x3D, pieces.allSatisfy({ isBase64Scrap($0) && !isSentenceWord($0) }) {
            end = last.end
        }
        // A password whose line ends with a few pieces OCR split from it, none a word and one
        // machine-made (`signing.password=3mkHgl NY ! F_XIqT`): to the line's end. Not over a
        // command's next option or an address (`curl -u ana:… -X GET https://…`), nor a Windows
        // command's next option (`ktpass … /pass … /crypto AES256-SHA1`).
        if secret.kind == .password, secret.end - secret.start >= 4, secret.start > 0, [0x3D, 0x3A, 0x20].contains(utf8[secret.start - 1]),
           let pieces = piecesToLineEnd(from: end, atMost: 4, maximumSpaces: 1), let last = pieces.last,
           !pieces.contains(where: { isSentenceWord($0) || keyPieceEnd($0.start, $0.end) < $0.end || isOptionOrAddress($0) || isWindowsOption($0, before: secret.start) }),
           pieces.contains(where: { $0.end - $0.start >= 4 && isMachineMade($0.start, $0.end) })
            || pieces.count <= 2 && isSettingsLineValue(secret.start) && Self.looksLikeSecretOnItsOwn(squeezed(secret.start, last.end)) {
            end = last.end
        }
        let start = startBeforeSpaces(of: secret)
        guard end > secret.end || start < secret.start else { return secret }
        var extended = secret
        extended.start = start
        extended.end = end
        return extended
    }

    /// Whether the value at `start` is a settings file's, its name and `=` or `:` all that is
    /// before it on its line: there no command's option follows it, and one or two pieces OCR split
    /// from its end are its rest when with them it looks like a secret (`PWD=mZis -uAq1 -SGWE-` in
    /// an ODBC file, though none of the pieces is machine-made on its own; round 132).
    func isSettingsLineValue(_ start: Int) -> Bool {
        let lineStart = lineStart(of: start, atMost: 80)
        return (lineStart == 0 || Self.isLineBreak(utf8[lineStart - 1])) && Self.settingName.firstMatch(in: slice(lineStart, start)) != nil
    }
    static let settingName = TextMatcher(#"^[ \t]*[A-Za-z_][A-Za-z0-9_.\-]{0,63}[ \t]*[=:][ \t]*$"#)

    /// Where a key of 16+ characters starts when OCR split its start off: up to two pieces right
    /// before it (one space apart), each 6+ characters of a token's alphabet mixing capitals, small
    /// letters and digits, as no label, word or hexadecimal id does (`gnfPKYBy1c [key]`).
    func startBeforeSpaces(of secret: Secret) -> Int {
        guard secret.kind == .apiKey, secret.label != "private key", squeezed(secret.start, secret.end).count >= 16 else { return secret.start }
        var start = secret.start
        for _ in 0..<2 {
            guard start >= 2, Self.isSpace(utf8[start - 1]), !Self.isSpace(utf8[start - 2]) else { break }
            var pieceStart = start - 1
            while pieceStart > 0, !Self.isSpace(utf8[pieceStart - 1]), !Self.isLineBreak(utf8[pieceStart - 1]), start - pieceStart < 256 { pieceStart -= 1 }
            let piece = slice(pieceStart, start - 1)
            guard piece.count >= 6, Self.mixesCapitalsSmallAndDigits(piece),
                  piece.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=-_".contains($0)) }) else { break }
            start = pieceStart
        }
        return start
    }

    /// The pieces from `index` to the end of its line, when there are at most `limit` of them
    /// (each at most `maximumSpaces` from the one before); nil when the line goes on further.
    func piecesToLineEnd(from index: Int, atMost limit: Int, maximumSpaces: Int) -> [(start: Int, end: Int)]? {
        var pieces: [(start: Int, end: Int)] = []
        var index = index
        while let next = piece(from: index, maximumSpaces: maximumSpaces) {
            guard pieces.count < limit else { return nil }
            pieces.append(next)
            index = next.end
        }
        return piece(from: index, maximumSpaces: .max) == nil ? pieces : nil
    }

    /// The pieces after `index` (one space apart, `limit` at most) to the first quote on the line,
    /// the last without the quote glued to its end (`… LQLKYj tp9qP4fx…aG"`, maybe before a `,`, `;`
    /// or a bracket); nil when there is no such quote, or one starts a piece or sits inside one.
    func piecesToClosingQuote(from index: Int, atMost limit: Int) -> [(start: Int, end: Int)]? {
        var pieces: [(start: Int, end: Int)] = [], index = index
        while pieces.count < limit, let next = piece(from: index, maximumSpaces: 1) {
            if let quote = (next.start..<next.end).first(where: { quoteLength(at: $0) > 0 }) {
                guard quote > next.start, utf8[(quote + quoteLength(at: quote))..<next.end].allSatisfy({ ",;)]}".utf8.contains($0) }) else { return nil }
                pieces.append((next.start, quote))
                return pieces
            }
            pieces.append(next)
            index = next.end
        }
        return nil
    }

    /// Where a padded base64 key that starts at `start` and that OCR split with spaces after `end`
    /// ends: the pieces after it, one space apart, to the first that ends in `=` (six pieces at
    /// most), when each is base64's or base64url's (`=` only as that last piece's padding; an `@`
    /// OCR's reading of a `0`: `…6DD1@D6Jk…`), none is
    /// an option or an address, fewer than a third read as words (scraps of four letters at most,
    /// `fut`), and with the value they make one random token whose length is a multiple of four,
    /// as padded base64's is. Nil when the value is no such key, or its rest none.
    func splitPaddedBase64Rest(from start: Int, after end: Int) -> Int? {
        // (A value that ends in its padding is whole.)
        guard end > start, utf8[end - 1] != 0x3D else { return nil }
        var pieces: [(start: Int, end: Int)] = []
        var index = end
        while pieces.count < 6, let next = piece(from: index, maximumSpaces: 1), next.start > index {
            let bytes = utf8[next.start..<next.end]
            let body = bytes.reversed().drop(while: { $0 == 0x3D })
            guard body.count >= 1, bytes.count - body.count <= 2,
                  body.allSatisfy({ Self.isAlphanumeric($0) || "+/-_@".utf8.contains($0) }), !isOptionOrAddress(next) else { return nil }
            pieces.append(next)
            if body.count < bytes.count { break }
            index = next.end
        }
        guard let last = pieces.last, utf8[last.end - 1] == 0x3D else { return nil }
        let words = pieces.filter(isSentenceWord)
        guard words.count * 3 < pieces.count, !words.contains(where: { $0.end - $0.start > 4 }),
              case let whole = squeezed(start, last.end), whole.count % 4 == 0, Self.isRandomToken(Self.withoutOCRJunk(whole)) else { return nil }
        return last.end
    }

    /// A command's option (`-X`, `--data`, `--dir=/srv`) or an address (`https://…`).
    /// (Not a piece whose case changes four times or more: base64url split before a `-` of its own,
    /// `-E-irXErXjW-yVvvsTcsBpAFI`, which no option's name is.)
    func isOptionOrAddress(_ piece: (start: Int, end: Int)) -> Bool {
        Self.optionOrAddress.firstMatch(in: slice(piece.start, piece.end)) != nil
            && !(utf8[piece.start] == 0x2D && Self.caseChanges(utf8[piece.start..<piece.end]) >= 4)
    }

    /// (And a host's IPv4 address, maybe with its port: `ncat … --proxy-auth root:… 10.0.8.21 22`.)
    /// (An option's name ends with a letter: `-SGWE-` is a password's scrap, `PWD=mZis -uAq1 -SGWE-`
    /// in an ODBC file; round 132.)
    static let optionOrAddress = TextMatcher(#"^--?[A-Za-z](?:[A-Za-z\-]{0,29}[A-Za-z])?(?:=|$)|^[A-Za-z][A-Za-z0-9+.\-]{1,15}://|"# + ipv4 + "$")
    static let ipv4 = #"^(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?"#
    static let ipv4Address = TextMatcher(ipv4 + "$")

    /// Whether a piece reads as a word of a sentence (``sentenceWord``) with a vowel in it: `Lcqbt`,
    /// OCR's scrap of a key, is none (round 129: an AWS session token's wrapped line).
    func isSentenceWord(_ piece: (start: Int, end: Int)) -> Bool {
        Self.sentenceWord.firstMatch(in: slice(piece.start, piece.end)) != nil
            && Self.holdsAVowel(utf8[piece.start..<piece.end])
    }

    /// A setting at its line's start whose name is `key` or `secret` alone (OPNsense's `apikey.txt`:
    /// `key=…`, `secret=…`) or names a key (`AUTHENTIK_SECRET_KEY=…`, `ADMIN_TOKEN=…`), whose value OCR split with
    /// spaces or read a `0` of as `@`: `key=NUo4dHyHtZTYt O@LbwK1z+Ik…`. Group 1 the name.
    /// (Clean, gitleaks' generic rule and the labels' rules find it.)
    /// The symbols of Django's generated keys (`get_random_secret_key`'s `!@#$%^&*(-_=+)`).
    static let symbolicKeyBytes = Set("!@#$%^&*()-_=+".utf8)

    static let keySetting = TextMatcher(#"(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.\-]{0,63})[ \t]*[=:][ \t]*(?=\S)"#)

    /// The value of a ``keySetting``: its pieces to the line's end (twelve at most, each of
    /// base64's characters or OCR's junk), when together, junk read back, they are a random token
    /// of 40+ characters: a bare `key` names too much for less. A scrap of a few small letters may
    /// read as a word (`vul J7r 8MCq68kHY …`): fewer than a third of the pieces, none longer than four.
    func splitKeySettings() -> [Secret] {
        guard mentions("key", "secret", "token", "session") else { return [] }
        return Self.keySetting.matches(in: searchable).compactMap { match in
            guard let name = match[1], ["key", "secret"].contains(name.lowercased()) || Self.secretName(name) == .apiKey,
                  let pieces = piecesToLineEnd(from: match.end, atMost: 12, maximumSpaces: 1), let last = pieces.last,
                  case let words = pieces.filter(isSentenceWord), words.count * 3 < pieces.count && !words.contains(where: { $0.end - $0.start > 4 })
                    // (Or of eight, as many as they are, when machine-made pieces fill the value, three times
                    // the words' bytes: base64 holds runs of letters, `…jE6ktWe207 Jwaghyfz lt lrvgx2bY…`,
                    // `key=Rby LULQVdUv…`; rounds 136 and 137.)
                    || !words.contains(where: { $0.end - $0.start > 8 }) && pieces.filter({ isMachineMade($0.start, $0.end) }).reduce(0, { $0 + $1.end - $1.start })
                        >= 3 * words.reduce(0, { $0 + $1.end - $1.start }) else { return nil }
            // (Or a key of symbols too, Django's and Nautobot's, `%hsoi‘*1ydakwr Lsarp7drxo6&3! ivvuyk
            // Locc-q)a5nvle(%e` as OCR split it, each piece of the key's alphabet or OCR's glyphs beyond
            // ASCII: ``isSymbolicKey(_:kindsOfSymbols:)``; round 164; one kind of symbol will do for 40+
            // characters, `_Gy9v5 IWdmV4RK… -BDUOr hyQTVAXL*7r …`, its `^` read `4`, round 165. One piece of letters alone at most, no bracket
            // around it: two are words, `(rotate monday)`, `(hidden) checksum 8fbc…`.)
            if pieces.allSatisfy({ piece in utf8[piece.start..<piece.end].allSatisfy { Self.isAlphanumeric($0) || $0 >= 0x80 || Self.symbolicKeyBytes.contains($0) } }),
               case let lettersAlone = pieces.filter({ piece in utf8[piece.start..<piece.end].allSatisfy { Self.isLetter($0) || $0 == 0x28 || $0 == 0x29 } }),
               lettersAlone.count <= 1, lettersAlone.allSatisfy({ piece in utf8[piece.start..<piece.end].allSatisfy(Self.isLetter) }),
               case let whole = squeezed(match.end, last.end), Self.isSymbolicKey(whole, kindsOfSymbols: whole.count >= 40 ? 1 : 2) {
                return secret(.apiKey, nil, match.end, last.end)
            }
            guard
                  // (A `#` OCR read inside a piece, `…ogrrlfur312#nzIm3…`, not a comment's at its start.)
                  // (And a `$` OCR read for the value's first `S`, `key=$1oo5mtx+kiU5…`: a variable's
                  // name would make no random token of 40+ below; round 141.)
                  pieces.allSatisfy({ piece in utf8[piece.start..<piece.end].indices.allSatisfy { index in
                      Self.isAlphanumeric(utf8[index]) || "+/=@.|]".utf8.contains(utf8[index]) || utf8[index] >= 0x80 || utf8[index] == 0x23 && index > piece.start
                          || utf8[index] == 0x24 && index == match.end && index + 1 < piece.end && Self.isAlphanumeric(utf8[index + 1])
                          // (A speck at the line's end read as `&` or `*`, `…vtgJo8&`: round 142.)
                          || (utf8[index] == 0x26 || utf8[index] == 0x2A) && index == last.end - 1 && index > piece.start
                          // (A `}` or `)` OCR read for a `j` or `l` inside a piece, a key's character after it,
                          // `…kuZUA+j}xvf7…`: round 146.)
                          || (utf8[index] == 0x7D || utf8[index] == 0x29) && index > piece.start && index + 1 < piece.end
                              && Self.isAlphanumeric(utf8[index + 1])
                  } }),
                  case let joined = Self.withoutOCRJunk(squeezed(match.end, last.end)).filter({ $0 != "." }), joined.count >= 40,
                  Self.isRandomToken(joined) else { return nil }
            return secret(.apiKey, nil, match.end, last.end)
        }
    }
}
