import Foundation

/// Rules that recognise a secret by what it is made of where no label names it, each with the
/// guard that keeps ordinary text out: a value shaped like a chosen password, a key shown in
/// groups under its name, a key's bytes as a list of numbers, a password behind its scheme tag,
/// a password column's value in an SQL `INSERT`, the literal given to a password-hashing call,
/// the key at the end of an RTMP address, and the `user:password` lines of a `chpasswd` list.
extension SecretScan {
    // MARK: - Values shaped like a chosen password

    /// Symbols that sites' password rules ask for and that identifiers, numbers, paths, base64
    /// and addresses do not hold inside a word. (`+`, `-`, `_`, `.`, `@` are left out: base64,
    /// names, versions and `user@host` hold them.)
    static let passwordSymbols8: Set<UInt8> = Set("!#%&*?^~".utf8)
    static let passwordSymbolTable: [Bool] = (0..<256).map { passwordSymbols8.contains(UInt8($0)) }
    /// What ends a candidate inside a whitespace-delimited word: assignment and quoting marks,
    /// brackets, path separators, so that `root:…`, `'…'`, `b'…'`, `{PLAIN}…`, `USER=…` hold
    /// their value as one piece.
    static let shapeBreakers: Set<UInt8> = Set("/\\=$:<>()[]{}\"'`,;|".utf8)
    /// An address's query parameter after its `&`: `&build=1042`, `&t=42s`.
    static let queryParameter = TextMatcher(#"&[A-Za-z_][A-Za-z0-9_]{0,31}=[A-Za-z0-9_.\-]"#)
    /// An address without its scheme: `//`, a host with a dot, then its path or its end.
    static let schemelessAddress = TextMatcher(#"^//[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63})*\.[A-Za-z]{2,24}(?:[/:?]|$)"#)
    /// A path (or its rest) and its query: `com/watch?v=PSCT_YVLEy0`, `Gp7OT3y?si=3c21…`.
    static let pathAndQuery = TextMatcher(#"^[A-Za-z0-9_\-./%]+\?[A-Za-z_][A-Za-z0-9_]{0,31}=[A-Za-z0-9_.\-%]"#)
    /// A printf conversion (`%-10s`, `%5d`): what a format string holds, not a password.
    static let printfConversion = TextMatcher(#"%[\-+ 0#]*\d*(?:\.\d+)?[sdifuxXeEgGcpqv]"#)
    /// Code's force-unwrapped or optional member (`user!.Name2`); an address's escapes (`%2F…%3D`).
    /// (Compiled once: ``isPasswordShaped(_:_:)`` runs on every candidate word.)
    static let unwrappedMember = TextMatcher(#"[!?]\.[A-Za-z]"#)
    static let twoAddressEscapes = TextMatcher(#"%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}"#)
    /// An escaped `/`, `:`, `?`, `=`, `&`, `@`, `#`, `+` or space, as an address holds them.
    static let delimiterEscape = TextMatcher(#"%(?:2[FfB6b3]|3[AaFfDd]|40|20)"#)

    /// A value that looks like a password someone chose under a site's rules, wherever it stands:
    /// 8 to 40 characters with a capital, a small letter, a digit and, inside it (not first, not
    /// last), one of ``passwordSymbols8``. A label says where a password is; this says what one
    /// looks like when no label does (`use l1Sd+J^rzz+xNQ!W for the admin panel`, `AUTH default
    /// …`, `steamcmd +login lena …`, a `chpasswd` list). A word of an address, an e-mail, a hashtag
    /// or mention (its symbol first), Markdown's `**Note2**` (symbols at its ends), a format
    /// string, code's `value!.Name2` are none.
    /// An SSH key's type, maybe its size and a hash's name, right before a value (its key or fingerprint).
    static let keyTypeBefore = TextMatcher(#"(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d{3}|sk-ssh-ed25519@openssh\.com)[ \t]+(?:\d{3,5}[ \t]+)?(?:SHA256:|MD5:)?$"#)

    /// A block's header that says it holds nothing secret: `BEGIN CERTIFICATE`, `BEGIN NEBULA
    /// CERTIFICATE`, `BEGIN PUBLIC KEY` (OCR may read its dashes as `—`).
    static let publicBlockHeader = TextMatcher(#"(?i)BEGIN[ \t]+(?:[A-Z0-9]+[ \t]+){0,3}(?:CERTIFICATE(?:[ \t]+REQUEST)?|PUBLIC[ \t]+KEY)"#)
    static let blockFooter = TextMatcher(#"(?i)\bEND[ \t]+(?:[A-Z0-9]+[ \t]+){0,3}(?:CERTIFICATE|KEY|REQUEST)"#)

    /// The text from each public block's header to the first footer after it (8 KB at most; to
    /// that limit without one). Headers and footers are each found in one pass over the text, then
    /// paired in order: a text of thousands of headers costs its length, not 8 KB a header.
    func publicBlocks() -> [Range<Int>] {
        guard mentions("begin"), mentions("certificate", "public") else { return [] }
        let footers = Self.blockFooter.matches(in: searchable).map(\.start)
        var next = 0
        return Self.publicBlockHeader.matches(in: searchable).map { header in
            while next < footers.count, footers[next] < header.end { next += 1 }
            let limit = min(utf8.count, header.end + 8_192)
            return header.end..<(next < footers.count ? min(footers[next], limit) : limit)
        }
    }

    /// Whether the text shows a JSON Web Key or key set (RFC 7517: a `"kty"` member) that holds
    /// no private member (`"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`, `"oth"`, or a symmetric
    /// key's `"k"`): then its members (the modulus `"n"`, `"x"`, `"kid"`) are public, as
    /// `/.well-known/jwks.json` is served to anyone, and a piece OCR split off one that reads as a
    /// token's (`… JuSAMQCLcXcT j8_…`) is none (round 135).
    func showsOnlyPublicKeys() -> Bool {
        showsAJSONWebKey() && Self.privateKeyMember.firstMatch(in: searchable) == nil
    }

    /// Whether the text shows a JSON Web Key's `"kty"` member.
    func showsAJSONWebKey() -> Bool {
        mentions("kty") && Self.keyTypeMember.firstMatch(in: searchable) != nil
    }
    static let keyTypeMember = TextMatcher(#"["“”]kty["“”][ \t]?:"#)
    static let privateKeyMember = TextMatcher(#"["“”'](?:d|p|q|dp|dq|qi|oth|k)["“”'][ \t]?:"#)
    /// A private member's quoted value (16+ characters on its line, OCR's spaces and all): group 1.
    static let privateKeyMemberValue = TextMatcher(#"["“”'](?:d|p|q|dp|dq|qi|k)["“”'][ \t]?:[ \t]?["“”']([^"“”'\n]{16,4096})["“”']"#)

    /// The private members of a JSON Web Key (``showsOnlyPublicKeys()``): the private exponent
    /// `"d"`, the primes and their exponents, a symmetric key's `"k"`. Whoever has them has the key.
    func privateKeyMembers() -> [Secret] {
        guard showsAJSONWebKey() else { return [] }
        return Self.privateKeyMemberValue.matches(in: searchable).compactMap { match in
            guard let range = match.range(1) else { return nil }
            return secret(.apiKey, "private key", range.lowerBound, range.upperBound)
        }
    }

    static let bech32Payment = TextMatcher(#"^(?:[lI1|]n(?:bc|tb|bcrt|sb)\d{0,12}[munp]?|bc|tb)1[a-z0-9!|]{30}"#)

    func passwordShapedValues() -> [Secret] {
        var found: [Secret] = []
        var index = 0, scanned = 0
        let count = utf8.count
        let isSymbol = Self.passwordSymbolTable
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let blocks = publicBlocks()
        let mayHoldHashes = mentions("$", "{")
        while index < count {
            // Only the words that hold such a symbol: found in one pass over the bytes. A word
            // longer than a kilobyte is read a kilobyte at a time, each byte once (a run of
            // `x#x#…` past a kilobyte once kept this loop at the same place for ever).
            guard isSymbol[Int(utf8[index])] else { index += 1; continue }
            let symbol = index
            var wordStart = index
            while wordStart > scanned, !isBlank(utf8[wordStart - 1]), index - wordStart < 1_024 { wordStart -= 1 }
            while index < count, !isBlank(utf8[index]), index - wordStart < 1_024 { index += 1 }
            let wordEnd = index
            index = max(wordEnd, symbol + 1)
            scanned = wordEnd
            guard wordEnd - wordStart >= 8 else { continue }
            let word = utf8[wordStart..<wordEnd]
            // An address's parts are its own rules' (a query's `pwd=`, a user's `:password@`).
            if Self.holds(word, Self.schemeMark) || Self.holds(lowered[wordStart..<wordEnd], Array("www.".utf8)) { continue }
            // A Lightning invoice or a Bitcoin address (bech32: `lnbc…1…`, `bc1…`) is made to be
            // shared, whatever glyphs OCR put in it (`Inbc362u1pkt…xs!7hutfg|9qdy…`; round 153).
            if wordEnd - wordStart >= 40, Self.bech32Payment.firstMatch(in: slice(wordStart, min(wordEnd, wordStart + 64))) != nil { continue }
            // (So is one whose scheme OCR split off, `https: //open.spotify.com/playlist/…?si=…`; a path
            // and its query whose host OCR split off, `youtube. com/watch?v=PSCT_YVLEy0`; and a path's
            // rest and its query OCR split off the address before it: `…/playlist/n6P6K6v3 Gp7OT3y?si=3c21…`.)
            if Self.schemelessAddress.firstMatch(in: slice(wordStart, wordEnd)) != nil { continue }
            // (So is a parameter's value that encodes an address's `:` or `/`, a magnet link's
            // tracker split by OCR from its name, `t r=udp%3A%2F%2Ftracker…`; round 164.)
            if case let loweredWord = lowered[wordStart..<wordEnd], Self.holds(loweredWord, Array("%3a".utf8)) || Self.holds(loweredWord, Array("%2f".utf8)) { continue }
            if Self.holds(word, [0x3F]), let query = Self.pathAndQuery.firstMatch(in: slice(wordStart, wordEnd)),
               query.text.prefix(while: { $0 != "?" }).contains("/") || followsAnAddress(wordStart) { continue }
            // (Or whose query's first name OCR split before its `=`: `…/RbrDtTYeFal pMPvTXd26HW?s i=9a6c…`.)
            if Self.holds(word, [0x3F]), followsAnAddress(wordStart), splitsAQueryName(wordStart, wordEnd) { continue }
            // (So is an address's query a terminal wrapped onto the next line: `…e198` / `d6a7750afe0a977&Sbranch=main&build=1042`.)
            if Self.holds(word, [0x26]), Self.queryParameter.firstMatch(in: slice(wordStart, wordEnd)) != nil || endsWithASplitQueryParameter(wordEnd) { continue }
            // A public key's or its fingerprint's base64 after the key's type (and size), as WinSCP's
            // `-hostkey="ssh-ed25519 255 WWU6yx5+0Gc7/…"` gives it: OCR may read a glyph of it as a symbol.
            if wordStart >= 12, Self.holds(lowered[max(0, wordStart - 48)..<wordStart], Array("ssh-".utf8)) || Self.holds(lowered[max(0, wordStart - 48)..<wordStart], Array("ecdsa-".utf8)),
               Self.keyTypeBefore.firstMatch(in: slice(lineStart(of: wordStart, atMost: 200), wordStart)) != nil { continue }
            // A certificate's or a public key's base64 (OCR may read a glyph of it as `~`).
            if blocks.contains(where: { $0.contains(wordStart) }) { continue }
            // A piece of a password's hash that OCR split, three spaces at most after the hash's
            // start on its line (`{SHA512-CRYPT }$6$…rrMYN. Z.R8&qWB…`).
            if mayHoldHashes, isInsideASplitHash(wordStart) { continue }
            var start = wordStart
            while start < wordEnd {
                while start < wordEnd, Self.shapeBreakers.contains(utf8[start]) { start += 1 }
                var end = start
                while end < wordEnd, !Self.shapeBreakers.contains(utf8[end]) { end += 1 }
                // (Punctuation that ends a sentence is no part of it.)
                var valueEnd = end
                while valueEnd > start, utf8[valueEnd - 1] == 0x2E || utf8[valueEnd - 1] == 0x2C { valueEnd -= 1 }
                if isPasswordShaped(start, valueEnd) { found.append(secret(.password, nil, start, valueEnd)) }
                start = end
            }
        }
        return found
    }

    /// Whether the word that ends at `wordEnd` ends with an address's `&` and the start of the next
    /// query parameter's name, whose rest and `=` OCR split from it one space on (`…4dbafa4
    /// fcOba8aa9&br anch=main&build=1042`): the address's query, no password. (Round 136.)
    func endsWithASplitQueryParameter(_ wordEnd: Int) -> Bool {
        guard wordEnd + 1 < utf8.count, utf8[wordEnd] == 0x20, let next = piece(from: wordEnd + 1, maximumSpaces: 0), next.start == wordEnd + 1 else { return false }
        var ampersand = wordEnd
        while ampersand > 0, wordEnd - ampersand < 32, utf8[ampersand - 1] != 0x26, Self.isAlphanumeric(utf8[ampersand - 1]) || utf8[ampersand - 1] == 0x5F { ampersand -= 1 }
        guard ampersand > 0, utf8[ampersand - 1] == 0x26 else { return false }
        return Self.splitQueryParameter.firstMatch(in: slice(ampersand - 1, wordEnd) + slice(next.start, min(next.end, next.start + 64))) != nil
    }
    static let splitQueryParameter = TextMatcher(#"^&[A-Za-z_][A-Za-z0-9_]{0,31}=[A-Za-z0-9_.\-]"#)

    /// Whether the piece at `start` is the rest of an address's query value that OCR split one
    /// space on: the word before it ends with a parameter (`&code_challenge=D-XEij`) whose value
    /// has begun and whose name says no secret (``secretName(_:)``), and the piece itself goes on
    /// to the next parameter (`j8h_SKkt…CNDlJ&code_challenge_method=S256`). A PKCE challenge, a
    /// `state`, a tracking id: no shape-only rule's token. (Round 148. A token after a name that
    /// says one, `&access_token=gho_…`, is not let go; nor a piece that does not go on to a `&`.)
    func continuesASplitQueryValue(_ start: Int) -> Bool {
        guard start >= 2, utf8[start - 1] == 0x20, !Self.isSpace(utf8[start - 2]), !Self.isLineBreak(utf8[start - 2]),
              let piece = piece(from: start, maximumSpaces: 0) else { return false }
        var parameter = piece.start
        while parameter < piece.end, utf8[parameter] != 0x26 { parameter += 1 }
        guard parameter < piece.end, Self.splitQueryParameter.firstMatch(in: slice(parameter, min(piece.end, parameter + 34))) != nil else { return false }
        // The word before: back to its `&` or `?`, 128 bytes at most.
        var mark = start - 1
        while mark > 0, start - mark < 128, utf8[mark - 1] != 0x26, utf8[mark - 1] != 0x3F,
              !Self.isSpace(utf8[mark - 1]), !Self.isLineBreak(utf8[mark - 1]) { mark -= 1 }
        guard mark > 0, utf8[mark - 1] == 0x26 || utf8[mark - 1] == 0x3F,
              let equals = utf8[mark..<(start - 1)].firstIndex(of: 0x3D), equals > mark, equals < start - 2,
              utf8[mark..<equals].allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E }) else { return false }
        return Self.secretName(slice(mark, equals)) == nil
    }

    /// Whether `start` begins an address's query value (`&code_challenge=sh5nk26_Nv…`) whose name
    /// is two words or more, none of them naming a secret (``secretName(_:)``): a PKCE challenge, a
    /// tracking id, no shape-only rule's token. (Round 152. A name of one word, `?key=`, `?auth=`,
    /// may hold a key; `&client_secret=` and `&access_token=` name one.)
    func beginsAQueryValueNamedNoSecret(_ start: Int) -> Bool {
        guard start >= 3, utf8[start - 1] == 0x3D else { return false }
        var mark = start - 1
        while mark > 0, start - mark < 64, case let byte = utf8[mark - 1], Self.isAlphanumeric(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E { mark -= 1 }
        guard mark > 0, mark < start - 1, utf8[mark - 1] == 0x26 || utf8[mark - 1] == 0x3F, case let name = slice(mark, start - 1) else { return false }
        return Self.nameWords(name).count >= 2 && Self.secretName(name) == nil
    }

    /// Whether the word at `wordStart` comes one space after a word of its line that holds `://`
    /// (looked for a kilobyte back at most), or after one to three pieces of a path's letters, digits,
    /// `_`, `-` and `/` between, each one space on: OCR split the path more than once
    /// (`…/track/5X ZOLbhCL1B8BMkyY f145Tg?si=…`, round 144; `…/play Li st/2eeJTkuGj en2z…?si=…`, round 151).
    func followsAnAddress(_ wordStart: Int) -> Bool {
        var end = wordStart
        for between in 0...3 {
            guard end >= 2, utf8[end - 1] == 0x20, !Self.isSpace(utf8[end - 2]), !Self.isLineBreak(utf8[end - 2]) else { return false }
            var before = end - 1
            while before > 0, !Self.isSpace(utf8[before - 1]), !Self.isLineBreak(utf8[before - 1]), end - before < 1_024 { before -= 1 }
            if Self.holds(utf8[before..<(end - 1)], Self.schemeMark) { return true }
            guard between < 3, end - 1 - before <= 64,
                  utf8[before..<(end - 1)].allSatisfy({ Self.isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2F }) else { return false }
            end = before
        }
        return false
    }

    /// Whether the word `wordStart..<wordEnd` ends with a query's `?` and the first letters of its
    /// parameter's name, whose rest and `=` OCR split one space on (`…HW?s i=9a6c…`).
    func splitsAQueryName(_ wordStart: Int, _ wordEnd: Int) -> Bool {
        guard let mark = utf8[wordStart..<wordEnd].lastIndex(of: 0x3F), wordEnd - mark - 1 <= 16,
              utf8[(mark + 1)..<wordEnd].allSatisfy({ Self.isLetter($0) || $0 == 0x5F }),
              wordEnd + 1 < utf8.count, utf8[wordEnd] == 0x20, let next = piece(from: wordEnd + 1, maximumSpaces: 0), next.start == wordEnd + 1 else { return false }
        return Self.splitQueryName.firstMatch(in: slice(next.start, min(next.end, next.start + 34))) != nil
    }
    static let splitQueryName = TextMatcher(#"^[A-Za-z_]{0,16}=[A-Za-z0-9_.\-]"#)

    /// Whether the word at `wordStart` follows a password hash's start (``passwordHash``) on its
    /// line, 300 bytes back at most, with at most three spaces between. (Matched per word, on
    /// the words with a symbol only: matching the whole text once cost more on the corpus,
    /// 518.7 M instructions a round against 511.2 M.)
    func isInsideASplitHash(_ wordStart: Int) -> Bool {
        let start = lineStart(of: wordStart, atMost: 300)
        guard utf8[start..<wordStart].contains(where: { $0 == 0x24 || $0 == 0x7B }),
              let hash = Self.passwordHash.matches(in: slice(start, wordStart)).last else { return false }
        return utf8[(start + hash.start)..<wordStart].count(where: Self.isSpace) <= 3
    }

    /// How often a value goes from one kind of character to another (capital, small letter, digit,
    /// other): a chosen password's characters are mixed (`Tq7#mZr2pLx`: 9), a name with a number is
    /// not (`Bug#1020213`: 3, `PKCS#11-hosted`: 4).
    static func classSwitches(_ bytes: ArraySlice<UInt8>) -> Int {
        func kind(_ byte: UInt8) -> Int { (0x41...0x5A).contains(byte) ? 1 : (0x61...0x7A).contains(byte) ? 2 : (0x30...0x39).contains(byte) ? 3 : 0 }
        return zip(bytes, bytes.dropFirst()).filter { kind($0) != kind($1) }.count
    }

    static func longestDigitRun(_ bytes: ArraySlice<UInt8>) -> Int {
        var run = 0, longest = 0
        for byte in bytes {
            run = (0x30...0x39).contains(byte) ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// Whether a value holds a word: four or more letters, small or with one capital first, with a
    /// vowel and no three consonants in a row (`Clause`, `Google`, `Open` of `OpenSSL`, `hosted`).
    static func holdsAWord(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var end = index
            if (0x41...0x5A).contains(bytes[end]) { end += 1 }
            let lowerStart = end
            while end < bytes.endIndex, (0x61...0x7A).contains(bytes[end]) { end += 1 }
            if end > lowerStart {
                let run = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
                if run.count >= 4, run.contains(where: { "aeiouy".contains($0) }), longestConsonantRun(run) <= 2 { return true }
                index = end
            } else {
                index += 1
            }
        }
        return false
    }

    func isPasswordShaped(_ start: Int, _ end: Int) -> Bool {
        guard (8...40).contains(end - start) else { return false }
        // The symbol must stand between letters or digits: the value's core without the symbols at
        // its ends (Markdown's `**Step2**`, a hashtag's `#`).
        var coreStart = start, coreEnd = end
        while coreStart < end, !Self.isAlphanumeric(utf8[coreStart]) { coreStart += 1 }
        while coreEnd > coreStart, !Self.isAlphanumeric(utf8[coreEnd - 1]) { coreEnd -= 1 }
        var upper = false, lower = false, digit = false, innerSymbol = false
        for index in start..<end {
            let byte = utf8[index]
            switch byte {
            case 0x41...0x5A: upper = true
            case 0x61...0x7A: lower = true
            case 0x30...0x39: digit = true
            default:
                if Self.passwordSymbols8.contains(byte), index > coreStart, index < coreEnd - 1,
                   Self.isAlphanumeric(utf8[index - 1]) || Self.isAlphanumeric(utf8[index + 1]) { innerSymbol = true }
                // Only printable ASCII, or a glyph OCR misread (a byte of a multi-byte character).
                if byte < 0x21 || byte == 0x7F { return false }
            }
        }
        // (A number of five digits or more is a reference's, `Bug#677013#68`, as random characters seldom are.)
        guard upper, lower, digit, innerSymbol, Self.classSwitches(utf8[start..<end]) >= 5, !Self.holdsAWord(utf8[start..<end]),
              Self.longestDigitRun(utf8[start..<end]) <= 4 else { return false }
        let value = slice(start, end)
        // Code: a force-unwrapped or optional member (`user!.Name2`, `item?.Size3`), `!=`-less negation.
        if Self.unwrappedMember.firstMatch(in: value) != nil { return false }
        // A format string: two or more `%`, each a conversion (`%-10sName%5d`), and no other symbol.
        let symbols = value.utf8.filter(Self.passwordSymbols8.contains)
        if symbols.count >= 2, symbols.allSatisfy({ $0 == 0x25 }), Self.printfConversion.matches(in: value).count >= symbols.count { return false }
        // An address's escapes (`%2F…%3D`) are no symbols; nor is one escape of an address's
        // delimiter when it is the value's only symbol (`…app. acme. i0%2Fcallback`: a redirect
        // address OCR split; round 133).
        if Self.twoAddressEscapes.firstMatch(in: value) != nil { return false }
        if symbols.count == 1, symbols[0] == 0x25, Self.delimiterEscape.firstMatch(in: value) != nil { return false }
        return Self.isPasswordValue(value, quoted: false)
    }
}

extension SecretScan {
    /// The text of up to `count` lines before the line holding `index` (bounded: 600 bytes).
    func linesAbove(_ index: Int, _ count: Int) -> String {
        var lineStart = index
        while lineStart > 0, utf8[lineStart - 1] != 0x0A { lineStart -= 1 }
        return slice(startOfLines(above: index, count), lineStart)
    }

    /// Where the `count` lines before the line holding `index` start (at most 600 bytes before it).
    func startOfLines(above index: Int, _ count: Int) -> Int {
        var lineStart = index
        while lineStart > 0, utf8[lineStart - 1] != 0x0A { lineStart -= 1 }
        var start = lineStart, seen = 0
        while start > 0, seen < count, lineStart - start < 600 {
            start -= 1
            while start > 0, utf8[start - 1] != 0x0A { start -= 1 }
            seen += 1
        }
        return max(start, lineStart - 600)
    }

    // MARK: - A key in groups under its name

    /// Eight or more groups of three to five letters and digits, alone on their line (four each as
    /// shown; OCR may merge or drop a glyph, or read one as a symbol: `34F)`, `1Y¥1Q`, which
    /// ``keysInGroups()`` allows in two groups at most).
    static let groupedKeyLine = TextMatcher(#"(?m)^[ \t]*((?:\S{3,6}[ \t]){7,23}\S{3,6})[ \t]*$"#)
    static let keyNameCue = TextMatcher(#"(?i)(?:security|recovery|backup|secret|private|restore|emergency)[ \t]+key"#)

    /// A key shown in groups under a line that names it (Element's Security Key, a recovery key):
    /// capitals, small letters and digits mixed, as random base58 or base64 is (a fingerprint's
    /// groups are hex in one case; a safety number is digits).
    func keysInGroups() -> [Secret] {
        guard mentions(" key") else { return [] }
        return Self.groupedKeyLine.matches(in: searchable).compactMap { match in
            guard let range = match.range(1), let value = match[1] else { return nil }
            // (Each group three to five letters and digits, but for one glyph OCR misread in two of them.)
            let isLetterOrDigit = { (character: Character) in character.isASCII && (character.isLetter || character.isNumber) }
            let groups = value.split(whereSeparator: \.isWhitespace)
            let misread = groups.map { group in group.count(where: { !isLetterOrDigit($0) }) }
            guard zip(groups, misread).allSatisfy({ (3...5).contains($0.count - $1) && $1 <= 1 }), misread.count(where: { $0 > 0 }) <= 2 else { return nil }
            let joined = value.filter { !$0.isWhitespace }
            guard joined.contains(where: \.isUppercase), joined.contains(where: \.isLowercase), joined.contains(where: \.isNumber),
                  Self.keyNameCue.firstMatch(in: linesAbove(range.lowerBound, 3)) != nil else { return nil }
            return secret(.apiKey, nil, range.lowerBound, range.upperBound)
        }
    }

    // MARK: - A key's bytes as numbers

    /// 32 or more numbers between commas, in brackets or not, over lines (OCR puts spaces after
    /// the commas).
    /// (OCR may drop the comma at a line's end: the break then separates two numbers.)
    /// (Or read a glyph beyond ASCII at a line's end, where the screen's edge cut a number: `166, 1¢`.)
    static let byteList = TextMatcher(#"(?:\d{1,3}(?:[ \t]*,[ \t]*(?:\r?\n[ \t]*)?|[^\x00-\x7F]?[ \t]*\r?\n[ \t]*)){31,600}\d{1,3}"#)
    static let byteKeyCue = TextMatcher(#"(?i)(?<![A-Za-z])(?:key(?:pair)?|secret|private|wallet|solana|seed)(?![A-Za-z])|id\.json|keypair"#)

    /// A key stored as its bytes, a JSON list of numbers 0–255 (Solana's `id.json`, a
    /// `[u8; 64]`), when the list or the lines above name a key, secret or wallet and no word
    /// says it is public.
    func byteListKeys() -> [Secret] {
        // (First 24 digits before a comma, counted in one pass: most texts have fewer. OCR may
        // have dropped a few of the list's commas.)
        var digitCommas = 0
        for index in utf8.indices.dropFirst() where utf8[index] == 0x2C && (0x30...0x39).contains(utf8[index - 1]) { digitCommas += 1 }
        guard digitCommas >= 24, Self.byteKeyCue.firstMatch(in: searchable) != nil else { return [] }
        return Self.byteList.matches(in: searchable).compactMap { match in
            let numbers = match.text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count >= 32, numbers.allSatisfy({ $0 <= 255 }), Set(numbers).count >= 16 else { return nil }
            let context = linesAbove(match.start, 3) + slice(max(0, match.start - 80), match.start)
            guard Self.byteKeyCue.firstMatch(in: context) != nil,
                  !context.lowercased().contains("public"), !context.lowercased().contains("pubkey") else { return nil }
            return secret(.apiKey, nil, match.start, match.end)
        }
    }

    // MARK: - A password behind its scheme tag

    /// Dovecot's and LDAP's password schemes that store the password as it is (`{PLAIN}`,
    /// `{CLEARTEXT}`, `{CLEAR}`); hashed schemes (`{SHA512-CRYPT}`, `{SSHA}`) are left alone.
    /// (OCR may split the password once: `{PLAIN}! INSWhuRk%Ch`.)
    static let plainScheme = TextMatcher(#"\{[ \t]?(?:PLAIN|CLEARTEXT|CLEAR|PLAINTEXT)[ \t]?\}[ \t]?([^\s:]{1,128}(?: [^\s:]{1,64})?)"#)

    func schemeTaggedPasswords() -> [Secret] {
        guard mentions("{plain", "{clear", "{ plain", "{ clear") else { return [] }
        return Self.plainScheme.matches(in: searchable).compactMap { match in
            guard let value = match[1], let range = match.range(1), Self.isPasswordValue(value, quoted: true), !Self.isCall(value) else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    // MARK: - A password column in an SQL INSERT

    /// `INSERT INTO users (email, password, role) VALUES ('…', '…', '…')`: the columns, then the
    /// values (OCR may lose the closing bracket).
    static let insertRow = TextMatcher(#"(?i)insert[ \t]+into[ \t]+[^\s(]{1,64}[ \t]*\(([^()\n]{1,400})\)[ \t]*values[ \t]*\(([^\n]{1,800})"#)
    static let quoteGlyphs: Set<Character> = ["'", "\"", "‘", "’", "“", "”", "`"]

    /// The value in the place of a column that names a password or secret, if it is a literal and
    /// not a hash (`$2y$…`, `md5…`, `SCRAM-…`), a bind parameter (`?`, `$1`, `:pw`) or a call.
    func insertedSecrets() -> [Secret] {
        guard mentions("insert"), mentions("values") else { return [] }
        var found: [Secret] = []
        for match in Self.insertRow.matches(in: searchable) {
            guard let columns = match[1], let valuesRange = match.range(2) else { continue }
            let names = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`\"[]")) }
            // The values' pieces at their commas, as byte ranges.
            var pieces: [Range<Int>] = []
            var pieceStart = valuesRange.lowerBound
            for index in valuesRange where utf8[index] == 0x2C {
                pieces.append(pieceStart..<index)
                pieceStart = index + 1
            }
            pieces.append(pieceStart..<valuesRange.upperBound)
            guard pieces.count == names.count else { continue }
            for (name, piece) in zip(names, pieces) {
                guard let kind = Self.secretName(name) else { continue }
                var value = slice(piece.lowerBound, piece.upperBound)
                let leading = value.prefix(while: { $0 == " " || $0 == "\t" || Self.quoteGlyphs.contains($0) })
                value.removeFirst(leading.count)
                while let last = value.last, last == " " || last == ")" || last == ";" || Self.quoteGlyphs.contains(last) { value.removeLast() }
                guard !leading.filter({ Self.quoteGlyphs.contains($0) }).isEmpty, value.count >= 4,
                      !value.hasPrefix("$"), !value.hasPrefix("{"), !value.hasPrefix("SCRAM-"), !value.lowercased().hasPrefix("md5"),
                      !Self.isCall(value), Self.isPasswordValue(value, quoted: false) else { continue }
                let start = piece.lowerBound + leading.utf8.count
                found.append(secret(kind, nil, start, start + value.utf8.count))
            }
        }
        return found
    }

    // MARK: - The literal given to a password-hashing call

    /// A call and its first argument, a string literal (Python's `b'…'` too).
    /// (OCR may put spaces inside `::`, `Hash: :make`, and read a quote curly: `make_password('…’)`,
    /// or one as two: `make_password('‘…')`.)
    static let callWithLiteral = TextMatcher(#"(?<![A-Za-z0-9_])([A-Za-z_][A-Za-z0-9_]*(?:(?:[ \t]?:[ \t]?:[ \t]?|\.|->)[A-Za-z_][A-Za-z0-9_]*){0,4})[ \t]*\([ \t]*b?(?:['‘’]{1,2}([^'‘’\n]{1,128})['‘’]|["“”]{1,2}([^"“”\n]{1,128})["“”])"#)
    static let hashingCalls: Set<String> = ["hashpw", "bcrypt", "scrypt", "crypt", "argon2"]
    /// The name of a hashing scheme, which a call that hashes takes after the password or alone
    /// (Ansible's `password_hash('sha512')`), and which is no password.
    static let hashScheme = TextMatcher(#"(?i)^(?:sha-?\d{1,3}|md5|blowfish|bcrypt|scrypt|yescrypt|argon2(?:id|i|d)?|pbkdf2[A-Za-z0-9_\-]*|des)(?:_crypt)?$"#)
    /// A literal piped to Jinja's (Ansible's) `password_hash` filter: `'…' | password_hash('sha512')`
    /// (OCR may put a space beside the `_`).
    static let hashFilterLiteral = TextMatcher(#"["'‘’“”]([^"'‘’“”\s]{1,128})["'‘’“”][ \t]*\|[ \t]*password[ \t]?_[ \t]?hash(?![A-Za-z0-9_])"#)

    /// `password_hash('…', PASSWORD_DEFAULT)`, `make_password('…')`, `bcrypt.hashpw(b'…', …)`,
    /// `set_password("…")`: a call whose name names a password, or a password-hashing function,
    /// given a literal that looks like one (a prompt, `'Password: '`, does not); a literal piped to
    /// Ansible's `password_hash` filter.
    func hashedLiterals() -> [Secret] {
        var filtered: [Secret] = []
        if mentions("password_hash", "password _hash", "password_ hash") {
            for match in Self.hashFilterLiteral.matches(in: searchable) {
                guard let value = match[1], let range = match.range(1), Self.isPasswordValue(value, quoted: true) else { continue }
                filtered.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        guard mentions("('", "(\"", "(b'", "( '", "( \"", "(‘", "( ‘", "(“", "( “"), mentions("pass", "pw", "crypt", "argon", "hash::", "hash: :", "hash : :") else { return filtered }
        return filtered + Self.callWithLiteral.matches(in: searchable).compactMap { match in
            guard let callee = match[1], let value = match[2] ?? match[3], let range = match.range(2) ?? match.range(3) else { return nil }
            let words = callee.split(whereSeparator: { $0 == ":" || $0 == "." || $0 == ">" || $0 == "-" || $0 == " " || $0 == "\t" }).flatMap { Self.nameWords($0) }
            // (Laravel's `Hash::make('…')` hashes a password too.)
            guard words.contains(where: { Self.passwordWords.contains($0) || Self.hashingCalls.contains($0) }) || words.suffix(2) == ["hash", "make"],
                  !words.contains(where: { $0.hasPrefix("get") || $0 == "input" || $0 == "prompt" }),
                  !value.contains(where: \.isWhitespace), Self.hashScheme.firstMatch(in: value) == nil,
                  Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    // MARK: - The key at the end of an RTMP address

    /// An RTMP ingest address: the application's path, then the stream key as its last part
    /// (`rtmp://a.rtmp.youtube.com/live2/<key>`; OCR may put spaces around `//`).
    /// (And after a dot of the host: `a.rtmp. youtube. com`.)
    static let rtmpKey = TextMatcher(#"(?i)rtmps?[ \t]?:[ \t]?/[ \t]?/[^\s/]+(?:(?<=\.)[ \t][^\s/]+){0,4}(?:/[^\s/]+)*?/([^\s/]{12,200})(?=\s|$)"#)

    /// A key in groups of four letters or digits between dashes (YouTube's stream keys).
    static let groupsOfFour = TextMatcher(#"^[A-Za-z0-9]{4}(?:-[A-Za-z0-9]{4}){3,5}$"#)

    func streamKeys() -> [Secret] {
        guard mentions("rtmp") else { return [] }
        return Self.rtmpKey.matches(in: searchable).compactMap { match in
            // (A key of letters and digits, or groups of four of them, as YouTube's are, whose
            // letters may hold no digit: `poya-kjdd-jhgy-vqtn-vidx`; a name of letters, `live/mychannel`, is none.)
            guard let value = match[1], let range = match.range(1), value.contains(where: \.isLetter),
                  value.contains(where: \.isNumber) || Self.groupsOfFour.firstMatch(in: value) != nil else { return nil }
            return secret(.apiKey, "stream key", range.lowerBound, range.upperBound)
        }
    }

    // MARK: - A chpasswd list

    /// cloud-init's `chpasswd:` block (`list: |`, then `user:password` lines), as OCR may read it
    /// (indentation lost, a space around the colon, the password split: `admin: U9&g66 johFQI8`,
    /// four pieces at most).
    static let chpasswdList = TextMatcher(#"(?im)^[ \t]*chpasswd[ \t]*:[ \t]*\r?\n(?:[ \t]*(?:list|users)[ \t]*:[ \t]*\|?[ \t]*\r?\n)?((?:[ \t]*[A-Za-z_][A-Za-z0-9_.\-]{0,31}[ \t]?:[ \t]?\S{1,128}(?:[ \t]\S{1,64}){0,3}[ \t]*(?:\r?\n|$)){1,20})"#)
    static let listedLogin = TextMatcher(#"(?m)^[ \t]*[A-Za-z_][A-Za-z0-9_.\-]{0,31}[ \t]?:[ \t]?(\S{1,128}(?:[ \t]\S{1,64}){0,3})[ \t]*$"#)

    /// Each `user:password` line of a `chpasswd` list: a password unless it is `RANDOM`, a hash
    /// (`$6$…`) or a word (the next setting, `expire: false`).
    func chpasswdListPasswords() -> [Secret] {
        guard mentions("chpasswd") else { return [] }
        var found: [Secret] = []
        for block in Self.chpasswdList.matches(in: searchable) {
            guard let lines = block[1], let blockRange = block.range(1) else { continue }
            for line in Self.listedLogin.matches(in: lines) {
                guard let value = line[1]?.filter({ $0 != " " && $0 != "\t" }), let range = line.range(1), !value.hasPrefix("$"), value.uppercased() != "RANDOM",
                      Self.isPasswordValue(value, quoted: false) else { continue }
                found.append(secret(.password, nil, blockRange.lowerBound + range.lowerBound, blockRange.lowerBound + range.upperBound))
            }
        }
        return found
    }
}

extension SecretScan {
    // MARK: - A key wrapped over lines

    /// `secret` and the lines it goes on over, when it is a key that fills its line (32+
    /// characters from the line's start to its end) and each next line is one random run of key
    /// characters (OCR may split it with a space or two): a terminal wraps a long token
    /// (`firebase login:ci` prints its token so). At most 16 lines.
    func wrapped(_ secret: Secret) -> Secret {
        // (A quoted value's rest on the next line, before its closing quote, whatever its kind.)
        let quotedRest = withWrappedQuotedRest(secret)
        if quotedRest.end > secret.end { return quotedRest }
        let quotedLines = withWrappedQuotedLines(secret)
        if quotedLines.end > secret.end { return quotedLines }
        let parameterRest = withWrappedParameterRest(secret)
        if parameterRest.end > secret.end { return parameterRest }
        if secret.kind == .password { return withWrappedRest(secret) }
        guard secret.kind == .apiKey else { return secret }
        // (A key that ends in base64's padding, after a letter or a digit, is whole: the next line
        // is no rest of it, `APP_KEYS=…,…rnQ=` / `API_TOKEN_SALT=…`; round 153.)
        if secret.end - secret.start >= 16, utf8[secret.end - 1] == 0x3D, Self.isAlphanumeric(utf8[secret.end - 2]) || utf8[secret.end - 2] == 0x3D,
           piece(from: secret.end, maximumSpaces: .max) == nil { return secret }
        // (A table's domain and path columns after it, `app.acme.io /`, are no scraps of it: round 146.)
        if startsDomainAndPathColumns(at: secret.end) { return secret }
        let secret = withPaddedRest(secret)
        let padded = withPaddedLine(secret)
        if padded.end > secret.end { return padded }
        // (Or, when no line under it is the key's alone, its rest at the next line's start, as a
        // password's: `… --token RfUFFrmKiU0YT1WTg6wY5` / `tbhkUa9xjc --name runner-01`.)
        // (Scraps OCR cut from the key's end on its line, `[key] F329 jm9WDr di 1 ChOD… edi`, do not
        // keep its rest on the next line from being its: `OU3FIKxLY`.)
        let lines = wrappedLines(secret)
        if utf8[secret.end..<lines.end].contains(where: Self.isLineBreak) { return withChecksumLine(lines) }
        // (A rest that fills its line may go on over the lines under it: a macaroon's 198 digits
        // over three, `…0ee024c14ee56F782595d26bbe6 fF 66b6` / `f0cca51e1a…61" \`; round 162.)
        let rest = withWrappedRest(lines)
        return withChecksumLine(rest.end > lines.end && utf8[lines.end..<rest.end].contains(where: Self.isLineBreak) ? wrappedLines(rest) : rest)
    }

    /// `secret` and the next line, when it is an Atlassian API token (`ATATT3…`) whose line ends
    /// without the `=` and eight hexadecimal capitals of its checksum (`…RaPcG=057D372F`) and the
    /// next line is one piece of a token's characters that ends in them: a terminal wrapped the
    /// token, and its rest reads as a setting (`WLDJ8N-wy=E2F7FF65`), which the other rules leave
    /// (round 161). 210 characters in all at most (a token is 192; OCR adds spaces and glyphs).
    func withChecksumLine(_ secret: Secret) -> Secret {
        guard secret.end - secret.start >= 32, utf8[secret.start..<(secret.start + 5)].elementsEqual("ATATT".utf8) else { return secret }
        let isChecksum = { (end: Int) in end >= 9 && self.utf8[end - 9] == 0x3D && self.utf8[(end - 8)..<end].allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || $0 == 0x4F } }
        guard !isChecksum(secret.end) else { return secret }
        var index = secret.end
        while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
        if index < utf8.count, utf8[index] == 0x0D { index += 1 }
        // (OCR may read a glyph of junk after it: `…vvyVhApvN=3395A4A4,`.)
        guard index < utf8.count, utf8[index] == 0x0A, var rest = piece(from: index + 1, maximumSpaces: 8),
              piece(from: rest.end, maximumSpaces: .max) == nil, rest.end - rest.start <= 128 else { return secret }
        if !isChecksum(rest.end), ",.;:'\"".utf8.contains(utf8[rest.end - 1]) { rest.end -= 1 }
        guard isChecksum(rest.end), utf8[rest.start..<rest.end].allSatisfy({ Self.isAlphanumeric($0) || "_-=".utf8.contains($0) }),
              squeezed(secret.start, rest.end).utf8.count <= 210 else { return secret }
        var result = secret
        result.end = rest.end
        return result
    }

    /// `secret` and its rest on the next line, when a quote opened it (its first glyph, or the one
    /// before it) and none closes it on its line: a terminal wrapped the quoted value, and the
    /// next line's first piece ends in the quote that closes it, of the opening one's kind (`-p
    /// '68TOQ~eHrhtv Lupt9wSck6 LX` / `i5yiIrvkldGsA3A5' --tenant …`; round 145). A scrap or two
    /// OCR cut from the value (four characters each at most) may stand between it and its line's
    /// end; the rest is one to three pieces of a key's characters, 4 to 160 in all, maybe a comma
    /// or a bracket after its quote.
    func withWrappedQuotedRest(_ secret: Secret) -> Secret {
        guard secret.end > secret.start else { return secret }
        var open = quoteLength(at: secret.start) > 0 ? secret.start : secret.start - quoteLength(endingAt: secret.start)
        if open == secret.start, quoteLength(at: open) == 0 {
            // (Or a quote inside it, which nothing closes on its line: `-u "AQzZ…:EIY-…` / `…Cz15d" \`,
            // a command's output rule took the option with its value; round 152.)
            var index = secret.start
            while index < secret.end, quoteLength(at: index) == 0 { index += 1 }
            if index < secret.end { open = index }
        }
        guard open < secret.start || quoteLength(at: open) > 0, case let family = quoteFamily(at: open), family != 0,
              let scraps = piecesToLineEnd(from: secret.end, atMost: 2, maximumSpaces: 1),
              scraps.allSatisfy({ $0.end - $0.start <= 4 && utf8[$0.start..<$0.end].allSatisfy(Self.isTokenLetterOrJunk) }) else { return secret }
        // (No quote of its kind after the opening one on the line: the value is still open.)
        let lineEnd = scraps.last?.end ?? secret.end
        var index = open + quoteLength(at: open)
        while index < lineEnd {
            if quoteFamily(at: index) == family { return secret }
            index += 1
        }
        while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
        if index < utf8.count, utf8[index] == 0x0D { index += 1 }
        guard index < utf8.count, utf8[index] == 0x0A, var rest = piece(from: index + 1, maximumSpaces: 8) else { return secret }
        let restStart = rest.start
        var close = rest.start
        // (OCR may have split the rest once or twice, each piece a key's characters:
        // `sSqATh@-r jKomaaRZtoIDxciF 3SVY8s…MBw"”`; round 152.)
        let isKeyPiece = { (start: Int, end: Int) in
            self.utf8[start..<end].allSatisfy(Self.isKeyByteOrJunk)
        }
        // (None of them an option, an address or a word of a sentence: `-p'Kq8R…` / `--host db.local' -e …`
        // is the command's next option, the quote closing the host.)
        let isPlainPiece = { (piece: (start: Int, end: Int)) in
            isKeyPiece(piece.start, piece.end) && !self.isOptionOrAddress(piece) && !self.isSentenceWord(piece)
        }
        // (The loop ends at a piece that holds a quote, `close`, or gives up after three.)
        var split = false
        for pieces in 1...3 {
            while close < rest.end, quoteLength(at: close) == 0 { close += 1 }
            if close < rest.end { break }
            guard pieces < 3, isPlainPiece(rest), let next = piece(from: rest.end, maximumSpaces: 1) else { return secret }
            (rest, close, split) = (next, next.start, true)
        }
        // (A stop, a comma or a bracket may follow the quote, or a glyph of junk: `GgSuRdX+=',`, `…z15d"_`;
        // or the quote read twice, `…MBw"”`.)
        var after = close + quoteLength(at: close)
        if after < rest.end, quoteLength(at: after) > 0 { after += quoteLength(at: after) }
        guard rest.end - after <= 2, isKeyPiece(rest.start, close), !split || close == rest.start || isPlainPiece((rest.start, close)),
              utf8[after..<rest.end].allSatisfy({ ",;.)]}_".utf8.contains($0) }), quoteFamily(at: close) == family,
              (4...160).contains(close - restStart) else { return secret }
        var result = secret
        result.end = close
        return result
    }

    /// `secret` and the lines a quoted key goes on over when a terminal wrapped it over two lines or
    /// more (a JWT of 300 characters in code: `apiKey: 'eyJ0…` / `S6Uj GbC3…` / `…jAnX5' });`).
    /// A quote opened it and none closes it on its line, which is wide (60+ characters, a scrap or
    /// two OCR cut from the key may end it); each line under it but the last is wide too and holds
    /// a key's pieces only (OCR may split them, `P2jxHVxZLy . QWwng…`: none an option, an address or
    /// a word); the last runs to the quote that closes the opening one, or, when OCR dropped that
    /// quote, to the brackets that close the call and end the line (`…ns8pt });`). At most 16 lines
    /// and 4,096 bytes. (One line under it that ends in the closing quote is ``withWrappedQuotedRest(_:)``'s.)
    /// Round 157.
    /// (Or a quote that opened a header with its name before the key, on the key's line: `-H
    /// 'X-Appwrite-Key: standard_…` / `…` / `…6006 '`; round 163.)
    func withWrappedQuotedLines(_ secret: Secret) -> Secret {
        guard secret.kind == .apiKey, secret.end > secret.start else { return secret }
        var open = quoteLength(at: secret.start) > 0 ? secret.start : secret.start - quoteLength(endingAt: secret.start)
        if open == secret.start, quoteLength(at: open) == 0, let header = headerQuote(before: secret.start) { open = header }
        guard open < secret.start || quoteLength(at: open) > 0, case let family = quoteFamily(at: open), family != 0,
              let scraps = piecesToLineEnd(from: secret.end, atMost: 2, maximumSpaces: 1),
              scraps.allSatisfy({ $0.end - $0.start <= 4 && utf8[$0.start..<$0.end].allSatisfy(Self.isTokenLetterOrJunk) }),
              case let firstLineEnd = scraps.last?.end ?? secret.end, endsAWideLine(firstLineEnd),
              !(open + quoteLength(at: open)..<firstLineEnd).contains(where: { quoteFamily(at: $0) == family }) else { return secret }
        let isPlainPiece = { (piece: (start: Int, end: Int)) in
            self.utf8[piece.start..<piece.end].allSatisfy(Self.isKeyByteOrJunk)
                && !self.isOptionOrAddress(piece) && !self.isSentenceWord(piece)
        }
        // (The next line's start: after the line's own spaces and its break.)
        let nextLine = { (end: Int) -> Int? in
            var index = end
            while index < self.utf8.count, Self.isSpace(self.utf8[index]) { index += 1 }
            if index < self.utf8.count, self.utf8[index] == 0x0D { index += 1 }
            guard index < self.utf8.count, self.utf8[index] == 0x0A else { return nil }
            return index + 1
        }
        let extended = { (end: Int) -> Secret in
            var result = secret
            result.end = end
            return result
        }
        // (`linesEnd`: where the last wide line of the key's pieces ends, once one was read.)
        var lineStart = nextLine(firstLineEnd), wideLines = 0, linesEnd: Int?
        while let start = lineStart, wideLines < 16, start - secret.end <= 4_096 {
            var pieces: [(start: Int, end: Int)] = [], index = start
            while pieces.count <= 24, let next = piece(from: index, maximumSpaces: pieces.isEmpty ? 0 : .max) {
                pieces.append(next)
                index = next.end
            }
            guard let first = pieces.first, first.start == start, pieces.count <= 24 else { return secret }
            if let closing = pieces.firstIndex(where: { piece in (piece.start..<piece.end).contains { quoteFamily(at: $0) == family } }) {
                let piece = pieces[closing]
                // (On the first line under the key, what comes before the quote must be random as a
                // key is, `1_k8Imswe…84d.2imE-dS83R6dnDsGWOSK OIkBC80g… c9b0T VnVF 1Ji_…9' });`: more
                // pieces than ``withWrappedQuotedRest(_:)`` takes.)
                guard let close = (piece.start..<piece.end).first(where: { quoteFamily(at: $0) == family }),
                      pieces[..<closing].allSatisfy(isPlainPiece), close == piece.start || isPlainPiece((piece.start, close)),
                      wideLines >= 1 || close > start && Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, close)))
                else { return secret }
                var result = secret
                result.end = close > piece.start ? close : closing > 0 ? pieces[closing - 1].end : secret.end
                return result.end > secret.end ? result : secret
            }
            guard let last = pieces.last else { return secret }
            if pieces.allSatisfy(isPlainPiece), endsAWideLine(last.end) {
                wideLines += 1
                linesEnd = last.end
                lineStart = nextLine(last.end)
                continue
            }
            // (OCR dropped the closing quote: the call's brackets end the line. On the first line
            // under the key, what comes before them must be random as a key is: `…G-Ov });`.)
            guard pieces.count >= 2, utf8[last.start..<last.end].allSatisfy({ ")]};,".utf8.contains($0) }),
                  pieces.dropLast().allSatisfy(isPlainPiece),
                  wideLines >= 1 || Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, pieces[pieces.count - 2].end))) else {
                // (After wide lines of the key's pieces, the quote lost: those lines are the key's,
                // and a short last line of its pieces that ends the text, `…e36` / `7`; round 163.)
                guard let linesEnd else { return secret }
                let endsTheText = pieces.allSatisfy(isPlainPiece) && piece(from: last.end, maximumSpaces: .max) == nil && nextLine(last.end) == nil
                return extended(endsTheText ? last.end : linesEnd)
            }
            return extended(pieces[pieces.count - 2].end)
        }
        // (The text ended after wide lines of the key's pieces.)
        if let linesEnd, lineStart == nil { return extended(linesEnd) }
        return secret
    }

    /// The quote that opens a header on the line before `index` (`-H 'X-Api-Key: `): the line's last
    /// quote before it, no other of its kind after it, then a name and `:` (256 bytes back at most).
    func headerQuote(before index: Int) -> Int? {
        let start = lineStart(of: index, atMost: 256)
        guard start == 0 || Self.isLineBreak(utf8[start - 1]) else { return nil }
        var last: Int?
        var i = start
        while i < index {
            let length = quoteLength(at: i)
            if length > 0 {
                if let open = last, quoteFamily(at: open) == quoteFamily(at: i) { last = nil } else if last == nil { last = i }
                i += length
            } else {
                i += 1
            }
        }
        guard let open = last, Self.headerNameAndColon.firstMatch(in: slice(open + quoteLength(at: open), index)) != nil else { return nil }
        return open
    }

    /// A header's name and its `:`, then spaces to the value: what ``headerQuote(before:)`` opens.
    static let headerNameAndColon = TextMatcher(#"^[A-Za-z][A-Za-z0-9\-]{1,63}[ \t]?:[ \t]*$"#)

    /// `secret` and its rest on the next line, when it is the value of an address's query parameter
    /// (`?name=` or `&name=`, the name maybe spaced by OCR: `&t oken=`) that ends a wide line: the
    /// terminal wrapped the address inside it (`…&token=3702209a1` / `826d8614…ef7 F5128beac&fields=name"`).
    /// A scrap or two OCR cut from the value (four characters each at most) may stand between it and
    /// its line's end. The rest runs to the next parameter's `&`, the quote that closes the address or
    /// a piece that is a parameter (`ields=name"`, its `&f` misread), seven pieces at most of a query's
    /// characters, 4 to 160 bytes.
    /// (A rest that runs to its line's end may go on under it, a long token the terminal wrapped
    /// twice or more: four lines at most; round 163.)
    func withWrappedParameterRest(_ secret: Secret) -> Secret {
        guard secret.end > secret.start, isQueryParameterValue(at: secret.start), var end = parameterRestEnd(after: secret.end) else { return secret }
        for _ in 0..<3 {
            guard let more = parameterRestEnd(after: end, scraps: false) else { break }
            end = more
        }
        var result = secret
        result.end = end
        return result
    }

    /// The end of a query parameter's rest on the next line (``withWrappedParameterRest(_:)``), its
    /// value on this line ending at `valueEnd` (a scrap or two OCR cut from it may follow there,
    /// unless `scraps` is false).
    /// (The rest may also be the address's last: it runs to its line's end, a token's characters
    /// in ten pieces at most (scraps of four characters at most among them), as a JWT OCR split at its dots; or it ends in the next parameter's
    /// name whose `&` OCR read as a letter, `…8c0Sfields=id`: it ends before that name's letters;
    /// round 163.)
    func parameterRestEnd(after valueEnd: Int, scraps allowScraps: Bool = true) -> Int? {
        guard let scraps = allowScraps ? piecesToLineEnd(from: valueEnd, atMost: 8, maximumSpaces: 1) : [],
              scraps.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isTokenLetterOrJunk) }),
              scraps.count <= 2 && scraps.allSatisfy({ $0.end - $0.start <= 4 }) || areSplitTokensPieces(scraps) else { return nil }
        guard let restStart = wrapStart(afterSpacesFrom: scraps.last?.end ?? valueEnd) else { return nil }
        // (The address must go on after the rest: it ends at an `&`, a quote or a parameter.)
        var end = restStart, next = restStart, addressGoesOn = false
        for count in 0..<10 {
            guard let piece = piece(from: next, maximumSpaces: count == 0 ? 0 : 1) else {
                // (The line's end after whole pieces: the address ended with the token.)
                var index = next
                while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
                addressGoesOn = count > 0 && (index == utf8.count || Self.isLineBreak(utf8[index]))
                break
            }
            // (A scrap of four characters at most inside may read as a word: `ogIkpXVCJ9. ey JzdWIi…`, `… Ind. gU8I…`.)
            guard count > 0 || piece.start == restStart, !isOptionOrAddress(piece),
                  !isSentenceWord(piece) || count > 0 && piece.end - piece.start <= 4 else { break }
            // (A parameter after OCR's split, `ields=name"`: the value ended before it.)
            if count > 0, Self.settingPiece.firstMatch(in: slice(piece.start, piece.end)) != nil {
                addressGoesOn = true
                break
            }
            // (OCR may read a glyph of it as junk: `¢9096e816…`.)
            var stop = piece.start
            while stop < piece.end, Self.isTokenLetterOrJunk(utf8[stop]) || "-_.~%".utf8.contains(utf8[stop]), quoteLength(at: stop) == 0 { stop += 1 }
            if stop > piece.start { end = stop }
            guard stop == piece.end else {
                addressGoesOn = stop > piece.start && (utf8[stop] == 0x26 || quoteLength(at: stop) > 0)
                if stop > piece.start, utf8[stop] == 0x3D, stop + 1 < piece.end, utf8[stop + 1] != 0x3D, quoteLength(at: stop + 1) == 0 {
                    var name = stop
                    while name > piece.start, Self.isLetter(utf8[name - 1]) { name -= 1 }
                    if stop - name >= 4, name > piece.start {
                        end = name
                        addressGoesOn = true
                    } else if name == piece.start, count > 0 {
                        // (The next parameter's name OCR split, `… ie lds=id`: the rest ended before it.)
                        addressGoesOn = true
                    }
                }
                break
            }
            next = piece.end
        }
        guard addressGoesOn, (4...160).contains(end - restStart), case let rest = squeezed(restStart, end),
              rest.contains(where: \.isNumber) || Self.caseChanges(rest.utf8) >= 2 else { return nil }
        return end
    }

    /// Whether three to eight pieces are what OCR split from a token's end (Joplin's `?token=…` before
    /// the terminal's wrap, `… fel 9057 2d8860d 1 58a53f 2F7`): together 12+ characters and random,
    /// each a scrap of four at most, machine-made, or no word (round 164).
    func areSplitTokensPieces(_ pieces: [(start: Int, end: Int)]) -> Bool {
        guard pieces.count >= 3, let first = pieces.first, let last = pieces.last,
              pieces.allSatisfy({ $0.end - $0.start <= 4 || isMachineMade($0.start, $0.end) || Self.isNoWord(slice($0.start, $0.end)) }),
              case let joined = Self.withoutOCRJunk(squeezed(first.start, last.end)), joined.count >= 12 else { return false }
        return Self.isRandomToken(joined)
    }

    /// Whether `start` follows a query parameter's `=`, its name (24 bytes at most, one space OCR put
    /// in it) after `?` or `&`.
    func isQueryParameterValue(at start: Int) -> Bool {
        guard start >= 3, utf8[start - 1] == 0x3D else { return false }
        var index = start - 2, spaces = 0
        while index > 0, start - index <= 26 {
            let byte = utf8[index]
            if byte == 0x3F || byte == 0x26 { return index < start - 2 }
            if byte == 0x20 { spaces += 1; guard spaces <= 1 else { return false } }
            else if !(Self.isAlphanumeric(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E) { return false }
            index -= 1
        }
        return false
    }

    /// `secret` and the pieces OCR split from its end on its line (four at most), when the key is
    /// standard base64 cut short, its length no multiple of four (no base64's is), and with them it
    /// is one that ends in padding: `secret: +Zj43i…CosWgu Laf gEfeoj YNWEU=`.
    func withPaddedRest(_ secret: Secret) -> Secret {
        let length = secret.end - secret.start
        guard (16...4_096).contains(length), length % 4 != 0, isBase64Scrap((secret.start, secret.end)), utf8[secret.end - 1] != 0x3D,
              let pieces = piecesToLineEnd(from: secret.end, atMost: 4, maximumSpaces: 1), let last = pieces.last, utf8[last.end - 1] == 0x3D,
              pieces.allSatisfy(isBase64Scrap), !pieces.dropLast().contains(where: { utf8[$0.end - 1] == 0x3D }),
              (length + pieces.reduce(0) { $0 + $1.end - $1.start }) % 4 == 0 else { return secret }
        var result = secret
        result.end = last.end
        return result
    }

    /// `secret` and the next line, when the key ends its line cut short of its padding (its length
    /// no multiple of four, no `=` at its end) and the next line is one piece of base64 that ends
    /// in padding, alone on its line (in three pieces at most, OCR's split): the terminal wrapped
    /// the key (`--cookie-secret=o7nah…v6W` / `sEmab1F6dpprY=`; round 143). One glyph beyond ASCII
    /// inside may be OCR's (`…F6édpp…`).
    func withPaddedLine(_ secret: Secret) -> Secret {
        let length = secret.end - secret.start
        let keyByte = { (byte: UInt8) in Self.isAlphanumeric(byte) || byte == 0x2B || byte == 0x2F || byte == 0x2D || byte == 0x5F }
        guard (16...4_096).contains(length), length % 4 != 0, utf8[secret.start..<secret.end].allSatisfy(keyByte) else { return secret }
        var index = secret.end
        while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
        if index < utf8.count, utf8[index] == 0x0D { index += 1 }
        guard index < utf8.count, utf8[index] == 0x0A else { return secret }
        index += 1
        // (OCR may split that line once or twice, `wr TBf-4Jo=`: its pieces a space apart, the
        // padding only at the last one's end; round 144.)
        while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
        guard let pieces = piecesToLineEnd(from: index, atMost: 3, maximumSpaces: 1), let rest = pieces.last,
              !pieces.dropLast().contains(where: { utf8[$0.end - 1] == 0x3D }),
              case let bytes = pieces.flatMap({ utf8[$0.start..<$0.end] }), (4...64).contains(bytes.count) else { return secret }
        let body = bytes.reversed().drop(while: { $0 == 0x3D })
        guard (1...2).contains(bytes.count - body.count), body.count >= 3,
              body.allSatisfy({ keyByte($0) || $0 >= 0x80 }), body.count(where: { $0 >= 0xC0 }) <= 1,
              body.contains(where: { (0x30...0x39).contains($0) }) || Self.caseChanges(body.reversed()) >= 2 else { return secret }
        var result = secret
        result.end = rest.end
        return result
    }

    /// Whether a line's pieces (`words`, two or more) start as the line at `lineStart` does (its
    /// first piece, before a value that does not start it): both a number of a few digits
    /// (`1 SHA1 …`, `2 MD5 …`), or the same short word. (A row's start is within 256 bytes of
    /// its value: a longer line is no row of a list, and is not walked.)
    func isNextRow(of lineStart: Int, _ words: [(Int, Int)]) -> Bool {
        var start = lineStart
        while start > 0, lineStart - start < 256, !Self.isLineBreak(utf8[start - 1]) { start -= 1 }
        guard start == 0 || Self.isLineBreak(utf8[start - 1]) else { return false }
        while start < lineStart, Self.isSpace(utf8[start]) { start += 1 }
        guard words.count >= 2, let first = piece(from: start, maximumSpaces: 0), first.end < lineStart, let next = words.first,
              case let own = utf8[first.start..<first.end], case let other = utf8[next.0..<next.1], own.count <= 8, other.count <= 8 else { return false }
        let isNumber = { (bytes: ArraySlice<UInt8>) in bytes.count <= 5 && bytes.allSatisfy { (0x30...0x39).contains($0) } }
        return isNumber(own) && isNumber(other) || own.elementsEqual(other)
    }

    /// A line that starts with a name and `=` or `:`, then a value that is not padding alone; or a
    /// shell's `export NAME=…` (round 128: `export GITHUB_TOKEN=ghp_…` under a key was its rest).
    static let settingAssignment = TextMatcher(#"^(?:export[ \t]+)?[A-Za-z][A-Za-z0-9_.\-]{0,63}[ \t]*[=:][ \t]*[^\s=]"#)
    /// A line that starts as a setting does: a name with a `_`, `-` or `.` in it, or a name and a
    /// space, then `=` or `:`.
    static let settingLineStart = TextMatcher(#"^(?:[A-Za-z][A-Za-z0-9]*[_.\-][A-Za-z0-9_.\-]*[ \t]*|[A-Za-z][A-Za-z0-9_]{1,63}[ \t]+)[=:]"#)

    func wrappedLines(_ secret: Secret) -> Secret {
        guard secret.end - secret.start >= 32 else { return secret }
        var lineStart = secret.start
        while lineStart > 0, Self.isSpace(utf8[lineStart - 1]) { lineStart -= 1 }
        // A key after its label (`Access Token     00D…`) that ends its line goes on under it when
        // it is long (40+): the screen wrapped it in its column. (Not onto a line of hexadecimal
        // digits: a hash under a key is a hash.)
        let startsItsLine = lineStart == 0 || Self.isLineBreak(utf8[lineStart - 1])
        guard startsItsLine || secret.end - secret.start >= 40 else { return secret }
        var result = secret
        var previousLength = secret.end - lineStart
        for round in 0..<16 {
            var index = result.end
            while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
            // (On the key's own line, a scrap or two OCR cut from its end may follow it: `[key] KSNFJQXYZ`.)
            // (So may one after a long key that did not start its line: `--api-key [key] Lvn`.)
            // (After a shorter key, 40+, only a rest split often: `--api-key [key] lwbeal zs j E9BOQ…`; not `for prod`.)
            let longKey = startsItsLine || secret.end - secret.start >= 60
            if round == 0, secret.end - secret.start >= 40 || longKey, index < utf8.count, !Self.isLineBreak(utf8[index]) {
                var scrapEnd = index, scraps = 0
                // (Or its rest, split up to four times, when joined it is random on its own: `[key] AWB jx
                // imhf 7 FVLjhuqroHdpMIKdHfBhpb…`.)
                while scrapEnd < utf8.count, !Self.isLineBreak(utf8[scrapEnd]), scrapEnd - index < 64,
                      Self.isTokenLetterOrJunk(utf8[scrapEnd]) || "+/=_-. \t".utf8.contains(utf8[scrapEnd]) {
                    if Self.isSpace(utf8[scrapEnd]), scrapEnd > index, !Self.isSpace(utf8[scrapEnd - 1]) { scraps += 1 }
                    scrapEnd += 1
                }
                // (Split more often, a space per six characters, when fewer than a third of the pieces
                // read as words: `[key] lwbeal zs j E9BOQKieyIvJ p80hMacktQxqbnP j tXKRKLKFo1zD7ILu`.)
                // (Single spaces, no option: not a table's next column, `[key]   1f0c…`, nor `--pool Default`.)
                let splitOften = scraps > 4 && scraps <= (scrapEnd - index) / 6 && !utf8[index..<scrapEnd].contains(0x2D)
                    && !zip(utf8[index..<scrapEnd], utf8[(index + 1)..<scrapEnd]).contains { Self.isSpace($0) && Self.isSpace($1) }
                    && utf8[index..<scrapEnd].split(whereSeparator: Self.isSpace).map { ($0.startIndex, $0.endIndex) }
                        .filter(isSentenceWord).count * 3 < scraps + 1
                // (Nor is a command's option after it a scrap: `…oth4zar== --active`.)
                guard scrapEnd == utf8.count || Self.isLineBreak(utf8[scrapEnd]), piece(from: index, maximumSpaces: 0).map({ !isOptionPiece($0) }) ?? true,
                      longKey && (scrapEnd - index <= 48 && scraps <= 1 || scraps <= 4 && Self.isRandomToken(squeezed(index, scrapEnd)))
                        || splitOften && Self.isRandomToken(squeezed(index, scrapEnd)) else { break }
                // (They are the key's whether or not a wrapped line follows; a quote or another glyph
                // beyond ASCII after them is not.)
                var scrapsEnd = scrapEnd
                while scrapsEnd > index, Self.isSpace(utf8[scrapsEnd - 1]) || utf8[scrapsEnd - 1] >= 0x80 || utf8[scrapsEnd - 1] == 0x22 || utf8[scrapsEnd - 1] == 0x27 {
                    scrapsEnd -= 1
                }
                if utf8[index..<scrapsEnd].contains(where: Self.isAlphanumeric) { result.end = scrapsEnd }
                index = scrapEnd
            }
            guard index < utf8.count, utf8[index] == 0x0A || utf8[index] == 0x0D else { break }
            while index < utf8.count, Self.isLineBreak(utf8[index]) || Self.isSpace(utf8[index]) { index += 1 }
            let start = index
            // (OCR may split it with spaces, or read a glyph as `@`, `[` or `|`; a Salesforce
            // session holds dots.)
            // (A glyph OCR added after the line's last one, `…VKCIPs8&`, ends the piece.)
            // (Inside it, OCR may read a glyph as `#` or `&` between two letters or digits, `f#T9JAZ…`:
            // twice in a line at most.)
            // (Or a `#` that starts a piece after a space, before a letter or digit: `Mr #1i0Gp4i/+Z2v…`
            // for the key's `…UOMrf1ioGp4i/+Z2v…`; round 136. A comment's `#` is a space's neighbour.)
            // (Or the line's first glyph, before a letter or digit, when the line is one piece of 20+:
            // `#F58DdB/ikZ1uPRXQf…` for `…wfF58DdB/…`, an AWS session token's wrapped line; round 145.)
            // (Or a `{`, `(`, `[` or `|` so read, before 12+ glyphs: `{ALMDFHYWRIMmUtMmN iNy…` for a
            // JWT's `IiwgInVz…`; round 161.)
            let opener = start < utf8.count ? utf8[start] : 0
            let openerRun = opener == 0x23 ? 20 : 12
            let hashStarts = start + openerRun <= utf8.count && "#{([|".utf8.contains(opener) && Self.isAlphanumeric(utf8[start + 1])
                && (start..<(start + openerRun)).allSatisfy { !Self.isSpace(utf8[$0]) && !Self.isLineBreak(utf8[$0]) }
            var spaces = 0, junkAtEnd = false, innerJunk = 0, closedByQuote = false
            while index < utf8.count, !Self.isLineBreak(utf8[index]), index - start < 4_096 {
                let byte = utf8[index]
                if Self.isSpace(byte) {
                    spaces += 1
                } else if index == start, hashStarts {
                    innerJunk += 1
                } else if byte == 0x23 || byte == 0x26, innerJunk < 2, index > start, index + 1 < utf8.count,
                          Self.isAlphanumeric(utf8[index - 1]) || byte == 0x23 && Self.isSpace(utf8[index - 1]), Self.isAlphanumeric(utf8[index + 1]) {
                    innerJunk += 1
                } else if !(Self.isTokenLetterOrJunk(byte) || "+/=_-.".utf8.contains(byte)) {
                    // (Or the quote that closes the key's argument, then the shell's `\` or a `,`:
                    // `…e802e3233d99e81d" \`, a header's wrapped last line; round 162.)
                    let quote = quoteLength(at: index)
                    guard index > start, Self.isAlphanumeric(utf8[index - 1]),
                          index + 1 == utf8.count || Self.isLineBreak(utf8[index + 1]) || quote > 0 && closesTheLine(from: index + quote) else { return result }
                    closedByQuote = quote > 0
                    junkAtEnd = true
                    break
                }
                index += 1
            }
            var end = index
            while end > start, Self.isSpace(utf8[end - 1]) { end -= 1 }
            // OCR splits a line of base64 often (`ZYTIXZTQyZj FKN2TOODdhYTcwNGM5Y zZRhMzY40WJ Mj …`): a
            // space per six characters, when the pieces are no sentence's words. The wrap's last
            // line may be short (`wosZsDFPCs=`): shorter than the one before, 8+ characters that
            // look like a secret on their own; nothing goes on after it.
            let length = end - start
            guard length >= 8, spaces <= max(6, length / 6), case let piece = Self.withoutOCRJunk(squeezed(start, end)) else { break }
            // (Nor is a line that starts as a setting, a name and `=` or `:` before more of a value:
            // the file's next setting, `secret=vgjU…` under `key=oqiz…` in OPNsense's `apikey.txt`;
            // base64's `=` pads its end only.)
            guard Self.settingAssignment.firstMatch(in: slice(start, min(end, start + 80))) == nil else { break }
            let isLastLine = length < 16 || length * 4 < previousLength * 3
            // (A short last line is one piece, its `=` base64's padding at its end: `DNS = 8.8.8.8` is a setting.)
            // (OCR may split it too, `jQhORs j sFUWE7Lk`: twice at most, into no sentence's words.)
            let shortEnd = isLastLine && piece.count >= 8 && !piece.drop(while: { $0 != "=" }).contains(where: { $0 != "=" })
                && Self.looksLikeSecretOnItsOwn(piece)
                && (spaces == 0 || spaces <= 2 && !utf8[start..<end].split(whereSeparator: Self.isSpace).contains { isSentenceWord(($0.startIndex, $0.endIndex)) })
            // (Or a short last line that the argument's closing quote ends, letters and digits with a
            // digit among them: `bf1a88b419efaf" \`, a macaroon's; round 162.)
            guard Self.isRandomToken(piece) || shortEnd
                    || closedByQuote && isLastLine && piece.count >= 8 && piece.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) && piece.contains(where: \.isNumber) else { break }
            if spaces > 6 {
                let words = utf8[start..<end].split(whereSeparator: Self.isSpace)
                guard words.filter({ isSentenceWord(($0.startIndex, $0.endIndex)) }).count * 3 < words.count else { break }
            }
            // Under a key that came after its label, the next line must be the key's alone: it
            // starts with a key's character, holds no word (`$ aws configure set …` is the next
            // command) and is no hash. (A scrap of four letters OCR split between two
            // machine-made pieces is the key's, `HEkDUqgA8HUeMu Llyj Gepz4xJvnxGs6Igo`.)
            // (Nor is it the next row of the key's list, that starts as the key's line does: a
            // number, `1 SHA1 …` / `2 MD5 …`, or the same word.)
            // (Nor a setting, the next line of a file: `aws_session_token = IQoJ…` under `aws_secret_access_key = …`.)
            // (A line's first scrap of four letters before machine-made pieces is the key's too, `Xwme
            // 1VLACTRAY 1TbRhOC3 …`, three pieces or more, or before one of 20+ bytes: `Hgj 1qP4bb/SSgUdK3P…=`.)
            // (Or past one or two scraps of one or two characters beside it: `…9t2TeGFE6P j fj RZ2DHHVK/x9…`,
            // `…aQj Apt f/ j yDBw…`; a scrap of two letters may end the line after a machine-made piece,
            // `…HByyLWyJcLXs. to` for `…LXs.io`.)
            if !startsItsLine {
                let words = utf8[start..<end].split(whereSeparator: Self.isSpace).map { ($0.startIndex, $0.endIndex) }
                let isMachineMadeWord = { (index: Int) in self.isMachineMade(words[index].0, words[index].1) }
                let isScrapWord = { (index: Int) in words[index].1 - words[index].0 <= 2 }
                // (The first machine-made word within three steps of `index`, towards `step`, past scraps only.)
                let machineMadeNear = { (index: Int, step: Int) -> Bool in
                    var other = index + step
                    while words.indices.contains(other), abs(other - index) <= 3 {
                        if isMachineMadeWord(other) { return true }
                        guard isScrapWord(other) else { return false }
                        other += step
                    }
                    return false
                }
                let machineMadeBefore = { (index: Int) in index == 0 || machineMadeNear(index, -1) }
                let machineMadeAfter = { (index: Int) in machineMadeNear(index, 1) }
                // (Inside a long line that machine-made pieces fill, three times the bytes of its words,
                // a word of up to eight letters between two of them is the key's too: base64 holds runs
                // of letters, `…QWk1WAWwWr Kzlar CDAFNH6/ANB+=`; round 132.)
                // (Weighed once a line, and only when such a word asks: most lines under a key hold none.)
                lazy var filledByMachineMadePieces: Bool = {
                    let wordBytes = words.filter(self.isSentenceWord).reduce(0) { $0 + $1.1 - $1.0 }
                    let machineMadeBytes = words.indices.filter(isMachineMadeWord).reduce(0) { $0 + words[$1].1 - words[$1].0 }
                    return end - start >= 48 && machineMadeBytes >= 3 * wordBytes
                }()
                // (Base64 may start with `+` or `/`, or OCR read its first glyph as one beyond ASCII: `£z1TpcL7…`;
                // one such glyph, not a binary file's bytes. Or a `0` as `@`: `@t150Nw4Zor+SKDY …`.)
                // (A `#` then no space, as a comment has; another bracket or bar may start a line OCR split.
                // A `#` line OCR split too, when each of its two or three pieces is machine-made:
                // `#141-131LzcS1YROMOQEmD 1X5TqsAhie…` for a JWT's `…i-i3iLzcS1YR9M0QEmD1X5TqsAhie…`; round 162.)
                guard Self.isAlphanumeric(utf8[start]) || "+/@".utf8.contains(utf8[start])
                        || hashStarts && (spaces == 0 || utf8[start] != 0x23 || words.count <= 3 && words.indices.allSatisfy(isMachineMadeWord))
                        || utf8[start] >= 0x80 && utf8[start..<end].count(where: { $0 >= 0x80 }) <= 3,
                      // (A hash is no key's rest, unless the argument's closing quote ends it: the
                      // last line of a hexadecimal macaroon, `…e802e3233d99e81d" \`.)
                      !piece.allSatisfy(\.isHexDigit) || closedByQuote,
                      !(round == 0 && isNextRow(of: lineStart, words)),
                      Self.settingLineStart.firstMatch(in: slice(start, min(end, start + 80))) == nil,
                      !words.indices.contains(where: { index in
                          isSentenceWord(words[index])
                              && !(index < words.count - 1 && words[index].1 - words[index].0 <= 4
                                   && (index > 0 || words.count >= 3 || words[1].1 - words[1].0 >= 20)
                                   && machineMadeBefore(index) && machineMadeAfter(index))
                              && !(index > 0 && index == words.count - 1 && words[index].1 - words[index].0 <= 2 && machineMadeBefore(index))
                          && !(index > 0 && index < words.count - 1 && words[index].1 - words[index].0 <= 8
                               && machineMadeBefore(index) && machineMadeAfter(index) && filledByMachineMadePieces)
                          // (So is the line's first piece, up to eight small letters with too few vowels
                          // for a word, before a machine-made one: `jdhgvogf tUKORjZK1A4QjG0j …`; round 144.)
                          && !(index == 0 && words.count >= 3 && words[0].1 - words[0].0 <= 8
                               && Self.hasTooFewVowelsForAWord(utf8[words[0].0..<words[0].1]) && machineMadeAfter(0) && filledByMachineMadePieces)
                      }) else { break }
            }
            result.end = end
            if isLastLine || junkAtEnd { break }
            previousLength = length
        }
        return result
    }
}

extension SecretScan {
    /// `secret` and the next line's piece, when it is a password or a key that ends a long line
    /// and the next line starts with the rest of it (``wrappedRest(after:of:isKey:)``).
    func withWrappedRest(_ secret: Secret) -> Secret {
        guard let end = wrappedRest(after: secret.end, of: squeezed(secret.start, secret.end), isKey: secret.kind == .apiKey) else { return secret }
        var result = secret
        result.end = end
        return result
    }

    /// A setting's name and its `=`: small letters (4+), or a name with a `_` (`ansible_host=`).
    static let settingPiece = TextMatcher(#"^(?:[a-z][a-z0-9]{3,}|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*)="#)

    /// The end of a password's rest on the next line, when the value ends a long line (60+
    /// characters from the line's start) and the next line holds one piece alone, a password's
    /// rest (a digit, a symbol or a capital after a small letter in it; no quote), not a word or a prompt:
    /// a terminal wrapped the command inside its value (`… authentication-password *Ag9S` /
    /// `dmZMt_K`). The command's options may follow the piece (`tbhkUa9xjc --name runner-01`).
    /// A key's rest may be letters alone, both cases (`yyemWANYcm`). Nil otherwise.
    func wrappedRest(after valueEnd: Int, of value: String, isKey: Bool = false) -> Int? {
        var lineBreak = valueEnd
        while lineBreak < utf8.count, Self.isSpace(utf8[lineBreak]) { lineBreak += 1 }
        guard lineBreak < utf8.count, utf8[lineBreak] == 0x0A || utf8[lineBreak] == 0x0D, endsAWideLine(valueEnd) else { return nil }
        var start = lineBreak + 1
        if utf8[lineBreak] == 0x0D, start < utf8.count, utf8[start] == 0x0A { start += 1 }
        // (A key's rest may be as long as a long key's, 128 bytes: InfluxDB's tokens are 88.)
        // (No key holds an `&`: a line that holds one is an address's next parameters, `&X-Amz-Date=…`;
        // nor starts as a setting, `VAPID_PUBLIC_KEY=…` under a key that filled its line.)
        guard var rest = piece(from: start, maximumSpaces: 0), rest.start == start else { return nil }
        // (A key's own `-` that OCR split from the rest after it, `…NcaoX` / `- fFmVQCfe…`; round 161.)
        if isKey, rest.end - rest.start == 1, utf8[rest.start] == 0x2D || utf8[rest.start] == 0x5F, let next = piece(from: rest.end, maximumSpaces: 1),
           isMachineMade(next.start, next.end) {
            rest.end = next.end
        }
        guard (2...(isKey ? 128 : 64)).contains(rest.end - rest.start),
              !isKey || !utf8[rest.start..<rest.end].contains(0x26) && !isSettingWithValue(rest) else { return nil }
        // (A key's rest OCR split once or twice, `Tat VQbM6URAT17Z71FVNSqZz6`: its pieces to the
        // line's end, when together they are as random as a key, 16+ characters with a digit, and
        // none is an option (`tbhkUa9xjc --name runner-01` is the rest and the command's option) or
        // a setting (`export GITHUB_TOKEN=ghp_…` is the next command): a key's characters, `=` only
        // as base64's padding at its end.)
        // (OCR may have read its digits as letters, `ORZf f cCRSCdNHT`: 12+ letters of both cases
        // with capitals side by side, as no line of words has them, will do.)
        // (The command's options may follow the pieces, `3fh2Y6V LwuxcW6JdCJx7vbx --name runner-01`:
        // the pieces stop at the first that starts with `-`, and the check below wants an option there.)
        // (Or letters alone, as one piece's may be, when no piece is a sentence's word and the case
        // changes twice: `NvqxZUhopaj uwMY`, 12+ letters.)
        // (A long key's rest may hold more pieces, up to eight, and a piece OCR split before a `-` of the
        // key: `J4pZ1-jbg4…F -uloQUY4Rmna7kK1NLLJ-Sy…== --active`. An option is a `-` and a letter,
        // then small letters, digits and `-` only; a piece of a key has capitals or starts with a digit.)
        if isKey {
            var pieces: [(start: Int, end: Int)] = [], index = start
            // (A shell's `\\` after them continues the command: `…JFO=-i1IuDR…y" \\`.)
            while pieces.count < 8, let next = piece(from: index, maximumSpaces: 1), !isOptionPiece(next),
                  next.end - next.start > 1 || utf8[next.start] != 0x5C {
                pieces.append(next)
                index = next.end
            }
            // (The last may end in the quote that closes what the line opened: the key ends before it.)
            if let last = pieces.last, case let quote = quoteLength(endingAt: last.end), quote > 0, last.end - quote > last.start,
               lineOpensAQuote(before: valueEnd) {
                pieces[pieces.count - 1].end -= quote
            }
            // (Or 12+ characters with a digit and a small letter before a capital, as one piece's may be,
            // `F5tCAY 1Wwqw1lo=`; round 138.)
            // (`=` only as padding at the key's end: `aws_session_token = IQoJ…` is the next setting;
            // inside a piece it is the key's own, Adyen's `…JFO=-i1IuDR…`.)
            if pieces.count >= 2, let last = pieces.last, last.end - start <= 130,
               // (OCR may read a `0` as `@`: `487839f @bd7c2c061726`; round 160.)
               pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy { Self.isAlphanumeric($0) || "+/-_=@".utf8.contains($0) } }),
               !pieces.contains(where: { utf8[$0.start] == 0x3D }), !pieces.dropLast().contains(where: { utf8[$0.end - 1] == 0x3D }),
               // (Nor is any a setting: `export` / `GITHUB_TOKEN=ghp_…` is the next command.)
               !pieces.contains(where: isSettingWithValue),
               case let joined = Self.atsReadAsZeros(squeezed(start, last.end)),
               Self.isRandomToken(joined) || Self.isShortRandomLetters(joined)
                || joined.count >= 12 && Self.caseChanges(joined.utf8) >= (joined.contains(where: \.isNumber) ? 1 : 2) && !pieces.contains(where: isSentenceWord) {
                rest = (start, last.end)
            }
        }
        // (A password's rest OCR split, `PQx` / `UES JHeE%OMLOdE`: its pieces to the line's end, none
        // an option (`-o`, Windows' `/out`), a word, a prompt or a setting (an inventory's next host,
        // `web02 ansible_host=10.0.8.22`; round 152), that together look like a secret on their own.)
        let isNoPasswordPiece = { (piece: (start: Int, end: Int)) in
            self.utf8[piece.start] == 0x2F || self.isSentenceWord(piece) || self.isPrompt(piece, after: valueEnd)
                || Self.settingPiece.firstMatch(in: self.slice(piece.start, piece.end)) != nil
        }
        if !isKey, let pieces = piecesToLineEnd(from: start, atMost: 3, maximumSpaces: 1), pieces.count > 1, let last = pieces.last,
           last.end - start <= 66, !pieces.contains(where: { utf8[$0.start] == 0x2D || isNoPasswordPiece($0) }),
           Self.looksLikeSecretOnItsOwn(squeezed(start, last.end)) {
            rest = (start, last.end)
        } else if !isKey {
            // (Or its pieces, two or three, up to the command's next option: `--password 3k7` /
            // `rip859…8kj jedyv7 --store-password-in-clear-text`; round 156.)
            var pieces: [(start: Int, end: Int)] = [], index = start
            while pieces.count < 4, let next = piece(from: index, maximumSpaces: 1), !isOptionPiece(next) {
                pieces.append(next)
                index = next.end
            }
            if (2...3).contains(pieces.count), let last = pieces.last, last.end - start <= 66, let option = piece(from: last.end, maximumSpaces: 1), isOptionPiece(option),
               !pieces.contains(where: isNoPasswordPiece), Self.looksLikeSecretOnItsOwn(squeezed(start, last.end)) {
                rest = (start, last.end)
            }
        }
        // (Or its rest inside a quote its line opened, that OCR split before the closing quote, `-p
        // '5DV6Q~…h1` / `ZW. i8SLYTGvVK41V9' --tenant …`: its pieces to that quote, two or three, none
        // an option, a word or a prompt, that together look like a secret on their own; round 136.)
        if !isKey, rest.end == utf8.count || Self.isSpace(utf8[rest.end]), let pieces = piecesToClosingQuote(from: start, atMost: 3), pieces.count > 1,
           let last = pieces.last, last.end > last.start, last.end - start <= 66, lineOpensAQuote(before: valueEnd),
           !pieces.contains(where: { utf8[$0.start] == 0x2D || utf8[$0.start] == 0x2F || isSentenceWord($0) || isPrompt($0, after: valueEnd) }),
           Self.looksLikeSecretOnItsOwn(squeezed(start, last.end)) {
            rest = (start, last.end)
        }
        // (A quote that ends the piece closes what the line opened before the value, `…&sig=kPyX…` /
        // `saRid90UuepyspH95x4IFHqaQ%3D"`, `-p 'Jh32Q~…` / `EnOB~AZoZQ'`: the rest is what comes before
        // it, when that is 8+ characters. Not after base64's padding: a quoted hash's end, `…/Ks` /
        // `T2nfQ+7hyWq="` in PgBouncer's list.)
        // (OCR may read the quote curly, `…KtymP” \\`.) What follows a quote that closes the line's
        // is the line's own (`4-fnkOA-k;" providerName=…`: a connection string's password wrapped,
        // its setting's `;` no part of it).
        var closesQuote = false
        if case let quote = quoteLength(endingAt: rest.end), quote > 0, rest.end - rest.start >= 8 + quote, utf8[rest.end - quote - 1] != 0x3D,
           utf8[rest.start..<(rest.end - quote)].allSatisfy({ $0 != 0x22 && $0 != 0x27 }), lineOpensAQuote(before: valueEnd) {
            rest.end -= quote
            closesQuote = true
            if utf8[rest.end - 1] == 0x3B { rest.end -= 1 }
        } else if isKey, rest.end - rest.start >= 8, rest.end + 1 < utf8.count, utf8[rest.end] == 0x20, case let quote = quoteLength(at: rest.end + 1), quote > 0,
                  closesTheLine(from: rest.end + 1 + quote), lineOpensAQuote(before: valueEnd) {
            // (Or that quote after a space OCR put before it: `…ef44` / `#85d1b…4e85b '`, a header's key
            // wrapped, its first glyph read as `#`; round 165.)
            closesQuote = true
        }
        var end = rest.end
        if end < utf8.count { end += quoteLength(at: end) }
        while end < utf8.count, Self.isSpace(utf8[end]) { end += 1 }
        // (The options after it: what follows is pieces to the line's end, the first an option.)
        let optionsFollow = end < utf8.count && !Self.isLineBreak(utf8[end]) && end > rest.end
            && piecesToLineEnd(from: end, atMost: 16, maximumSpaces: .max).map { pieces in
                pieces.first.map { $0.end - $0.start >= 2 && utf8[$0.start] == 0x2D && (Self.isLetter(utf8[$0.start + 1]) || utf8[$0.start + 1] == 0x2D) } ?? false
            } ?? false
        // (Or a shell's `\\` that continues the command on the next line: `…QxJ9gL" \\`, a header's quoted key.)
        let continued = end < utf8.count && utf8[end] == 0x5C && {
            var after = end + 1
            while after < utf8.count, Self.isSpace(utf8[after]) { after += 1 }
            return after == utf8.count || Self.isLineBreak(utf8[after])
        }()
        // (Or, after a key's rest, the command's last argument, a file's name, which OCR may split at
        // its dot: `--key=fDFvoF…wicke` / `bUK5an5bgjDi rules. yaml`, mimirtool's; round 159. The
        // rest must then be a key's on its own: a digit and a capital after a small letter, or two
        // such capitals, `mzcEvSdX`.)
        let fileFollows = isKey && !optionsFollow && end < utf8.count && !Self.isLineBreak(utf8[end]) && end > rest.end
            && rest.end - rest.start >= 8 && utf8[rest.start..<rest.end].allSatisfy(Self.isAlphanumeric)
            && Self.caseChanges(utf8[rest.start..<rest.end]) >= (utf8[rest.start..<rest.end].contains(where: { (0x30...0x39).contains($0) }) ? 1 : 2)
            && piecesToLineEnd(from: end, atMost: 3, maximumSpaces: 1).map({ pieces in
                pieces.first.map { Self.fileName.firstMatch(in: squeezed($0.start, pieces[pieces.count - 1].end)) != nil } ?? false
            }) == true
        // (A quote or a brace in it closes what the line opened, `d"}}`: a hash's end, no rest of a value.)
        // (Letters with no vowel among them, eight or more, are no word, whatever their case: `Zkmzgkbd'`,
        // an Azure secret's rest.)
        let unpronounceable = rest.end - rest.start >= 8 && Self.isLettersWithoutVowel(utf8[rest.start..<rest.end])
        // (Nor is a long option or an address, the command's next: `--email-domain=acme.io --upstream=…`.)
        guard end == utf8.count || Self.isLineBreak(utf8[end]) || optionsFollow || continued || closesQuote || fileFollows, !isSentenceWord(rest) || unpronounceable,
              !isPrompt(rest, after: valueEnd),
              !(isOptionOrAddress(rest) && (utf8[rest.start] != 0x2D || rest.end - rest.start > 2 && utf8[rest.start + 1] == 0x2D)),
              case let bytes = utf8[rest.start..<rest.end].filter({ !Self.isSpace($0) }), !bytes.contains(where: { "\"'{}".utf8.contains($0) }),
              // (No glyph beyond ASCII but one OCR read in a long key's padding at its end: `…M24Kk—=`.)
              // (Nor one at its start but a glyph of junk OCR read at the line's edge before a key's
              // rest, `squ_9bdf72622c7` / `£670079c93b…`; round 156.)
              // (Nor inside it, but one OCR read for a key's glyph in a long rest: `OWNMr®@PwwR48nzdW7Pn
              // --name runner-1`; round 161.)
              !bytes.dropFirst(isKey ? Self.leadingJunkLength(bytes) : 0).dropLast(isKey && bytes.count > 16 && bytes.last == 0x3D ? 4 : 0).contains(where: { $0 >= 0x80 })
                || isKey && bytes.count >= 16 && bytes.count(where: { $0 >= 0xC0 }) == 1,
              bytes.contains(where: { !Self.isAlphanumeric($0) || (0x30...0x39).contains($0) }) || Self.caseChanges(bytes) >= (isKey ? 1 : 2) || unpronounceable,
              Self.isPasswordValue(value + squeezed(rest.start, rest.end), quoted: false) else { return nil }
        return rest.end
    }

    /// The length in bytes of one character outside ASCII that starts `bytes` before a letter or
    /// a digit (a glyph of junk OCR read at a line's edge, `£670…`); 0 otherwise.
    static func leadingJunkLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.first, first >= 0xC2 else { return 0 }
        let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
        guard bytes.count > length, bytes[1..<length].allSatisfy({ (0x80...0xBF).contains($0) }), isAlphanumeric(bytes[length]) else { return 0 }
        return length
    }

    /// Whether nothing but what closes a command's argument follows `index` on its line: spaces,
    /// and at most one of the shell's `\` (its line goes on), `,`, `;` or `)`.
    func closesTheLine(from index: Int) -> Bool {
        var index = index, closers = 0
        while index < utf8.count, !Self.isLineBreak(utf8[index]) {
            if "\\,;)".utf8.contains(utf8[index]) {
                closers += 1
                guard closers <= 1 else { return false }
            } else if !Self.isSpace(utf8[index]) {
                return false
            }
            index += 1
        }
        return true
    }

    /// Whether the line holding `index` opens a quote before it that it does not close: an odd
    /// count of `'` or of `"` (a look back of 1,024 bytes at most). The line may go on from a wide
    /// one above it, which the terminal wrapped (`curl '…&st=2026-11-20T0` / `9:14:02Z&…&sig=…`):
    /// then that line's quotes count too.
    func lineOpensAQuote(before index: Int) -> Bool {
        var start = index, singles = 0, doubles = 0
        while start > 0, index - start < 1_024 {
            if Self.isLineBreak(utf8[start - 1]) {
                guard start - 1 > 0, endsAWideLine(start - 1) else { break }
            }
            start -= 1
            // (OCR reads a straight quote as a curly one, `-p ‘WUd1Q~…` / `EmfWbPSZXdYG' --tenant`:
            // ``quoteFamily(at:)`` counts a quote that ends here as single or double, whatever its glyph.)
            let length = quoteLength(endingAt: start + 1)
            switch length == 0 ? 0 : quoteFamily(at: start + 1 - length) {
            case 1: singles += 1
            case 2: doubles += 1
            default: break
            }
        }
        return singles % 2 == 1 || doubles % 2 == 1
    }

    /// Whether a piece is a setting (``settingPiece``) with a value after its `=`: `NAME=value`,
    /// not a key's scrap that ends in its padding (`Ql_U=`).
    func isSettingWithValue(_ piece: (start: Int, end: Int)) -> Bool {
        guard Self.settingPiece.firstMatch(in: slice(piece.start, piece.end)) != nil,
              let equals = utf8[piece.start..<piece.end].firstIndex(of: 0x3D) else { return false }
        return equals + 1 < piece.end && utf8[equals + 1] != 0x3D
    }

    /// Whether a piece is a command's option: a `-` or two and a letter, then small letters, digits
    /// and `-` (`--active`, `-u`, `--config-name`). A piece of a key OCR split before its `-` has
    /// capitals (`-uloQUY4Rm…`) or a digit first (`-07Xs`).
    func isOptionPiece(_ piece: (start: Int, end: Int)) -> Bool {
        guard utf8[piece.start] == 0x2D else { return false }
        var index = piece.start
        while index < piece.end, utf8[index] == 0x2D { index += 1 }
        // (A `-` alone is OCR's split around a key's own `-`; `--` alone ends a command's options.)
        guard index < piece.end, Self.isLetter(utf8[index]) else { return index - piece.start == 2 && index == piece.end }
        return piece.end - index == 1 || utf8[index..<piece.end].allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x3D }
    }

    /// Whether the line holding `index` has 60+ bytes before it, as a line a terminal wrapped has
    /// (a look back of 60 bytes at most).
    func endsAWideLine(_ index: Int) -> Bool {
        index >= 60 && !utf8[(index - 60)..<index].contains(where: Self.isLineBreak)
    }

    /// Whether a piece is a shell's or a router's prompt: a mark (`>` `$` `#` `%` `:`) after a
    /// host's, a user's or a path's characters (`ana@srx#`, `~/src$`), or a word in brackets
    /// (Junos' `[edit]` line above its prompt). A piece with another symbol before its mark is
    /// none: a password's rest that ends in one (`#2WkIM3k#`).
    func isPromptPiece(_ piece: (start: Int, end: Int)) -> Bool {
        let (start, end) = piece
        guard end > start else { return false }
        if end - start >= 3, utf8[start] == 0x5B, utf8[end - 1] == 0x5D, utf8[(start + 1)..<(end - 1)].allSatisfy({ Self.isLetter($0) || $0 == 0x2D || $0 == 0x20 }) { return true }
        guard ">$#%:".utf8.contains(utf8[end - 1]) else { return false }
        return utf8[start..<(end - 1)].allSatisfy { Self.isAlphanumeric($0) || "@._-~/:[]()".utf8.contains($0) }
    }

    /// Whether a piece on the line after `index`'s is a prompt (``isPromptPiece(_:)``) there. When
    /// `index`'s line starts with a prompt that names a user or a host (`ana@srx# set …`,
    /// `R1(config)# username …`), the next prompt names them too (`ana@srx#`, `R1#`); a piece that
    /// ends in a prompt's mark and does not is a password's rest the terminal wrapped
    /// (`authentication-password 30W-T` / `1VivKfKJ#`). A line without such a prompt tells nothing:
    /// the piece's shape decides. (A look back of 512 bytes at most.)
    func isPrompt(_ piece: (start: Int, end: Int), after index: Int) -> Bool {
        guard isPromptPiece(piece) else { return false }
        guard ">$#%:".utf8.contains(utf8[piece.end - 1]), case let lineStart = lineStart(of: index, atMost: 512),
              let first = self.piece(from: lineStart, maximumSpaces: 8), first.end <= index, isPromptPiece(first),
              case let name = utf8[first.start..<first.end].prefix(while: Self.isAlphanumeric), name.count >= 2 else { return true }
        return Self.holds(lowered[piece.start..<piece.end], Array(lowered[first.start..<(first.start + name.count)]))
    }

    // MARK: - Routers' keys and Redis' AUTH and ACL passwords

    /// A routing protocol's key in a router's config: OSPF's `ip ospf message-digest-key 1 md5 …`,
    /// `ip ospf authentication-key …`, IS-IS's and RIP's `key-string …`.
    static let routingKey = TextMatcher(#"(?im)(?<![A-Za-z\-])(?:message-digest-key[ \t]+\d{1,3}[ \t]+md5|authentication-key|key-string)(?:[ \t]+[07])?[ \t]+(\S{1,80})[ \t]*$"#)
    /// Redis' `AUTH [user] password` typed at `redis-cli`'s prompt (`host:6379> AUTH …`).
    static let redisAuth = TextMatcher(#"(?im)>[ \t]*AUTH[ \t]+(?:[^\s>]{1,64}[ \t]+)?([^\s>]{1,128})[ \t]*$"#)

    /// A Redis ACL rule that adds a password: `>…` after the user's name and the rules before it
    /// (`ACL SETUSER ana on >… ~cache:* +get`, a `users.acl` line `user ana on >… ~* +@all`).
    /// (`#…` adds a password's SHA-256 instead: no secret.)
    static let redisACLPassword = TextMatcher(
        #"(?im)(?:ACL[ \t]+SETUSER[ \t]+|^[ \t]*user[ \t]+)[^\s>]{1,64}(?:[ \t]+(?:on|off|reset|resetpass|resetkeys|nopass|allkeys|allchannels|allcommands|[~%&+\-][^\s>]{0,64}))*[ \t]+>[ \t]?([^\s]{1,128})"#)

    func routerAndRedisPasswords() -> [Secret] {
        let aclCue = mentions("setuser", "on >", "on  >")
        guard mentions("-key", "key-string", ">auth", "> auth") || aclCue else { return [] }
        var found: [Secret] = []
        let acl = aclCue ? Self.redisACLPassword.matches(in: searchable) : []
        for match in (mentions("-key", "key-string") ? Self.routingKey.matches(in: searchable) : []) + (mentions(">auth", "> auth") ? Self.redisAuth.matches(in: searchable) : []) + acl {
            guard let value = match[1], let range = match.range(1), !Self.isPlaceholder(value), value.count >= 4 else { continue }
            found.append(secret(.password, nil, range.lowerBound, range.upperBound))
        }
        return found
    }
}

extension SecretScan {
    // MARK: - Keys in an address's path; Nagios' and PgBouncer's files

    /// A path part that names a key, then the key as the next part
    /// (`https://maker.ifttt.com/trigger/door/with/key/<key>`, `…/token/<token>`), or a link made
    /// to be used once, whose token lets whoever holds it in (Teleport's `/web/invite/<token>`,
    /// a password reset's, an e-mail check's, a magic sign-in link's), or a blockchain node
    /// provider's endpoint whose last part is the project's key (Infura's `/v3/<key>`, Alchemy's
    /// `/v2/<key>`; round 153; Loggly's `/inputs/<token>/` and `/bulk/<token>/`, round 164), or a scheduler's or a webhook's trigger whose last part is the token
    /// that lets whoever holds it run the job (Firefly III's `/api/v1/cron/<token>`; round 157). (OCR may read a glyph of it as `@` for a `0`, or as `£`, `€`, `¢`, `§`;
    /// and put a space beside the host's dot, `infura. i0/v3/…`, `infura. 10/v3/…`, `alchemy .com/v2/…`; read a glyph
    /// inside it as `]` or `|`, `…WzvqH]3hNz…`, or its closing quote curly, `…SnhFs”)`, maybe after a
    /// `!` it read there, `…XUMGL!")`; round 162.)
    static let keyInAPath = TextMatcher(
        #"(?i)(?:/(?:key|token|secret|apikey|api_key|access_token|cron|webhooks?|hooks?|triggers?|invites?|invitations?|reset|reset[_\-]password|password[_\-]reset|verify|verification|confirm|confirmation|activate|activation|magic|magic[_\-]link)|infura\.[ \t]?[i1l][o0]/v3|alchemy(?:api)?[ \t]?\.[ \t]?(?:com|io)/v2|loggly[ \t]?\.[ \t]?com/(?:inputs|bulk))/((?:[A-Za-z0-9_\-@£€¢§]|[\]|](?=[A-Za-z0-9])){1,128})(?=[/?#\s"'`”’)]|!["'”’)]|$)"#)
    /// The path parts ``keyInAPath`` starts with, as the cheap test before it runs.
    static let keyInAPathCues = ["/key/", "/token/", "/secret/", "/apikey/", "/api_key/", "/access_token/", "/cron/", "/hook", "/webhook", "/trigger", "/invit", "/reset", "/password",
                                 "/verif", "/confirm", "/activat", "/magic", "infura", "alchemy", "loggly"]

    /// Where a UUID that starts at `start` ends, as OCR split it with single spaces around its
    /// dashes, before the path's next `/` (or `?`, `#`, a quote, the line's end, or the next's when the
    /// terminal wrapped a wide line inside it): 60 bytes at most,
    /// and only a UUID's glyphs (``noisyUUID``) and spaces between. Nil otherwise.
    func splitUUIDEnd(from start: Int) -> Int? {
        var end = start, wrapped = false
        while end < min(utf8.count, start + 60), case let byte = utf8[end], !"/?#\"'".utf8.contains(byte) {
            // (The terminal may have wrapped the line inside it: `…/inputs/10ff4f23 -26ff-28` / `d0-988f -dc23…/tag/`.)
            if Self.isLineBreak(byte) {
                guard !wrapped, end > start, endsAWideLine(end) else { break }
                wrapped = true
            } else {
                guard Self.isAlphanumeric(byte) || byte == 0x2D || Self.isSpace(byte) && end > start && !Self.isSpace(utf8[end - 1]) else { return nil }
            }
            end += 1
        }
        while end > start, Self.isSpace(utf8[end - 1]) || Self.isLineBreak(utf8[end - 1]) { end -= 1 }
        let text = squeezed(start, end).filter { $0 != "\n" && $0 != "\r" }
        guard text.count == 36, let match = Self.noisyUUID.firstMatch(in: text), match.start == 0, match.end == text.utf8.count else { return nil }
        return end
    }

    /// (A key of 16+ characters; or one OCR split once, `…/with/key/EFH8jhDyk908 loklqk_Sjq`,
    /// `…/invite/28963f fc9f7e…`: its first piece, 4+, and the next, which ends its line or goes on
    /// with the address's `/`, `?` or `#`, together a random token of 16+.)
    func keysInPaths() -> [Secret] {
        guard mentions(anyOf: Self.keyInAPathCues) else { return [] }
        // (OCR may read a `0` as `@`; a key of random letters may hold no digit, `mRcPiVJHiDpxlZQu-EvnhB`.)
        let isKey = { (value: String) in
            Self.isRandomToken(Self.withoutOCRJunk(value)) || Self.isRandomLetters(value)
                || Self.looksLikeSecretOnItsOwn(value) && Self.withoutOCRJunk(value).contains(where: \.isNumber)
        }
        return Self.keyInAPath.matches(in: searchable).compactMap { match in
            guard let value = match[1], let range = match.range(1) else { return nil }
            if value.count >= 16, isKey(value) { return secret(.apiKey, nil, range.lowerBound, range.upperBound) }
            // (A UUID OCR split before its dashes, `…/inputs/ea353a88 - a84f -99ea-9703-…/tag/`: to its end; round 164.)
            if let uuid = splitUUIDEnd(from: range.lowerBound), uuid > range.upperBound { return secret(.apiKey, nil, range.lowerBound, uuid) }
            guard range.upperBound < utf8.count, Self.isSpace(utf8[range.upperBound]) else { return nil }
            // (Or split more, three times at most, `…/v2/Y 19OEvakQF2eq YpH3Uf0BNSK fvzsWNuy");`, its
            // first piece of any length: the pieces to the one the string's end closes, together a
            // random token of 16+, none a word; round 162.)
            var end = range.upperBound, pieces = 0
            while pieces < (value.count >= 4 ? 1 : 3), let next = piece(from: end, maximumSpaces: 1) {
                let rest = utf8[next.start..<next.end].prefix(while: { Self.isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D })
                // (Or the closing quote or bracket of the string it is in: `…/v3/58ba4b7281 b3d343…6a’);`; round 153.)
                guard rest.count >= 2, rest.count == next.end - next.start || "/?#\"'`);,".utf8.contains(utf8[next.start + rest.count]) || utf8[next.start + rest.count] >= 0xC0,
                      !isSentenceWord((next.start, next.start + rest.count)) || Self.isNoWord(slice(next.start, next.start + rest.count))
                        // (A scrap of two letters between a key's pieces reads as a word: `4_ my YnaR1…`.)
                        || value.count < 4 && pieces == 0 && rest.count <= 2 else { return nil }
                end = next.start + rest.count
                pieces += 1
                if rest.count < next.end - next.start { break }
            }
            guard pieces > 0, value.count >= 4 || end < utf8.count && !Self.isSpace(utf8[end]) && !Self.isLineBreak(utf8[end]),
                  case let whole = squeezed(range.lowerBound, end), whole.count >= 16, Self.isRandomToken(whole) || (pieces > 1 || value.count < 4) && isKey(whole) else { return nil }
            return secret(.apiKey, nil, range.lowerBound, end)
        }
    }

    /// A crontab's entry (five times or an `@daily`; OCR may read a `0` as `@`), group 1 the command.
    /// (OCR may misread its fields, `@4%* * *`, `© 4 * * *`: up to four short fields, the last `*`.)
    static let cronEntry = TextMatcher(#"(?m)^[ \t]*(?:@(?:reboot|yearly|annually|monthly|weekly|daily|hourly)|\S{1,20}(?:[ \t]+\S{1,20}){0,3}?[ \t]+\*(?:/\d{1,2})?)[ \t]+(\S[^\n]{0,2000})$"#)
    /// An address in a crontab's command; group 1 its path and query.
    /// (OCR may put a space after a dot of the host's name, `uptime. betterstack.com`.)
    static let cronAddress = TextMatcher(#"https?:[ \t]?//[A-Za-z0-9\-]{1,63}(?:\.[ \t]?[A-Za-z0-9\-]{1,63}){0,10}(?::\d{1,5})?(/[^\s"'`|;&]{1,1024})"#)

    /// A token in the address a scheduled job calls: a monitor's ping (Healthchecks'
    /// `hc-ping.com/<key>/backup`, Better Stack's `/heartbeat/<token>`) or a job's trigger
    /// (Firefly III's `/cron/<token>`), whoever holds it can ping or run. A part of the path 16+
    /// characters long and random; not hexadecimal alone (a build's hash) nor a UUID. Round 157.
    /// Base64url's random characters whose `-` and `_` split them into short parts (Healthchecks'
    /// ping keys, 16 bytes in 22 characters: `JY6z6-lYzM-gyY_H_GKgF_`): without those, random
    /// letters and digits whose case changes three times or more, two capitals side by side, as no
    /// name's parts (`backup-nightly`, `MyApp-Backup-2024`) are; letters alone in a key's length in
    /// base64url (``encodedKeyLengths``), capitals side by side twice. Round 160, an older pool's
    /// clean texts.
    static func isRandomSlug(_ part: String) -> Bool {
        guard part.count >= 16, part.contains(where: { $0 == "-" || $0 == "_" }),
              part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return false }
        let joined = part.filter { $0 != "-" && $0 != "_" }
        let pairs = capitalPairs(in: joined)
        guard joined.count >= 16, caseChanges(joined.utf8) >= 3, pairs >= 1 else { return false }
        return isRandomToken(joined) || encodedKeyLengths.contains(part.count) && pairs >= 2
    }

    func scheduledPingTokens() -> [Secret] {
        guard mentions("http"), mentions("* *", "*  *", "@daily", "@hourly", "@weekly", "@monthly", "@reboot") else { return [] }
        var found: [Secret] = []
        for entry in Self.cronEntry.matches(in: searchable) {
            guard entry[1] != nil, entry.groupRanges.count > 1 else { continue }
            for address in Self.cronAddress.matches(in: searchable, within: [entry.groupRanges[1]]) {
                guard let path = address.range(1) else { continue }
                var start = path.lowerBound + 1
                while start <= path.upperBound {
                    var end = start
                    while end < path.upperBound, !"/?&=#".utf8.contains(utf8[end]) { end += 1 }
                    // (The address's last part OCR may have split, `…/heartbeat/QbvYTn4J 1nxj3…`, or the
                    // terminal wrapped, `…/heartbeat/Edo3lXhn` / `rbwI0058…`: its pieces of letters and
                    // digits after it, one on the line or the next line's first.)
                    var first = start
                    if end == path.upperBound, end - start < 64, let rest = restOfAddressPart(after: end) {
                        end = rest
                        while first < end, Self.isSpace(utf8[first]) || Self.isLineBreak(utf8[first]) { first += 1 }
                    }
                    let part = squeezed(first, end).filter { !$0.isNewline }
                    if part.count >= 16, !part.allSatisfy(\.isHexDigit), uuidEnd(from: first) == nil,
                       Self.isRandomToken(Self.withoutOCRJunk(part)) || Self.isRandomLetters(part) || Self.isRandomMixedCaseLetters(part)
                        || Self.isRandomSlug(part) {
                        found.append(secret(.apiKey, nil, first, end))
                    }
                    start = end + 1
                }
            }
        }
        return found
    }

    /// The end of an address's last part OCR split (one piece of letters and digits after a space)
    /// or a terminal wrapped (the next line's first piece, when the line is wide and that piece
    /// ends its line); nil otherwise.
    func restOfAddressPart(after end: Int) -> Int? {
        let isPlainByte = { (byte: UInt8) in Self.isAlphanumeric(byte) || byte == 0x5F || byte == 0x2D }
        // (On its line: the next piece's run of letters and digits, up to the path's next `/`:
        // `…/Ov4Lj913x6SEwf rei51sMY/backup-nightly`.)
        // (Not a command's option after the address, `-o /dev/null`; a piece the token's own `-`
        // starts is its rest, `…/UpQmy- -E13m0ENZfgqlQrT/backup`.)
        if let next = piece(from: end, maximumSpaces: 1), !isOptionOrAddress(next), case let run = utf8[next.start..<next.end].prefix(while: isPlainByte), run.count >= 2,
           run.count == next.end - next.start || "/?#&".utf8.contains(utf8[next.start + run.count]) {
            return next.start + run.count
        }
        // (Wrapped: the next line's pieces, three at most, letters and digits, to its end.)
        guard piece(from: end, maximumSpaces: .max) == nil, endsAWideLine(end), let start = wrapStart(afterSpacesFrom: end),
              let pieces = piecesToLineEnd(from: start, atMost: 3, maximumSpaces: 1), let first = pieces.first, first.start == start, let last = pieces.last,
              pieces.allSatisfy({ !isOptionOrAddress($0) && utf8[$0.start..<$0.end].allSatisfy(isPlainByte) }) else { return nil }
        return last.end
    }

    /// The name a value is given to right before `index` (`NAME=…`, `"name": "…"`), or nil: the
    /// identifier before the `=` or `:` (spaces and a quote around them aside).
    func assignedName(before index: Int) -> String? {
        var i = index
        let skip = { while i > 0, Self.isSpace(self.utf8[i - 1]) || self.utf8[i - 1] == 0x22 || self.utf8[i - 1] == 0x27 { i -= 1 } }
        skip()
        guard i > 0, utf8[i - 1] == 0x3D || utf8[i - 1] == 0x3A else { return nil }
        i -= 1
        skip()
        let end = i
        while i > 0, end - i < 64, Self.isAlphanumeric(utf8[i - 1]) || utf8[i - 1] == 0x5F || utf8[i - 1] == 0x2D || utf8[i - 1] == 0x2E { i -= 1 }
        return i < end ? slice(i, end) : nil
    }

    /// A query that gives a user's name, then their password under a short name: the Subsonic
    /// API's `?u=ana&p=…` (or `p=enc:` and its hexadecimal, the same password), a form's
    /// `?user=ana&pw=…`. The short name is a password's only after the user's (`?p=2` is a page).
    /// (OCR may read the `&` between them as `S`, `6` or `§`: `u=deplLoySp=…`; and split the value,
    /// ``parameterEnd(from:)``; round 157.)
    /// (Or as a glyph beyond ASCII, `u=ciép=…`; and put spaces around the `:` after `enc`, reading the
    /// `&` after its hexadecimal as a digit: `p=enc : 2a70…59656v=…`, the hexadecimal run; round 164.)
    static let passwordAfterQueryUser = TextMatcher(#"(?i)[?&](?:u|usr|user|username|login)=[A-Za-z0-9_.@\-]{1,64}?(?:[&S6§]|[^\x00-\x7F])(?:p|pw|pwd|pass)=([^&\s#'"“”‘’]{1,128})"#)

    func queryUserPasswords() -> [Secret] {
        guard mentions("u=", "user=", "username=", "login=", "usr=") else { return [] }
        return Self.passwordAfterQueryUser.matches(in: searchable).compactMap { match in
            guard let first = match[1], let range = match.range(1), Self.templateVariable.firstMatch(in: first) == nil else { return nil }
            if first.lowercased() == "enc" {
                var hex = range.upperBound
                while hex < utf8.count, Self.isSpace(utf8[hex]) || utf8[hex] == 0x3A, hex - range.upperBound < 3 { hex += 1 }
                let digits = hex
                // (A digit OCR misread stays in the run: `334¢36…`.)
                while hex < utf8.count, hex - digits < 256, case let byte = utf8[hex], (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
                        || (0x41...0x46).contains(byte) || byte >= 0x80 || Self.misreadHexDigits.utf8.contains(byte) { hex += 1 }
                if hex - digits >= 8 { return secret(.password, nil, range.lowerBound, hex) }
            }
            // (OCR may split it: its pieces to the next parameter's `&`, `p=z+! 09V2Vzsd+VVoS&v=…`.)
            var end = range.upperBound
            if end < utf8.count, Self.isSpace(utf8[end]), let split = parameterEnd(from: end) { end = split }
            let value = squeezed(range.lowerBound, end)
            guard value.count >= 4, value.lowercased().hasPrefix("enc:") || Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, nil, range.lowerBound, end)
        }
    }

    /// Nagios' (and Icinga 1's) user macros in `resource.cfg`, where the manual says to keep
    /// user names and passwords: `$USER3$=…`, any value but a path. The value is the line's rest
    /// (OCR may split it: `$USER3$=xeoSd ! 07m3*iw`).
    /// (OCR may read the `$` as `$S`: `$SUSER3$=…`; round 152.)
    static let userMacro = TextMatcher(#"(?m)^[ \t]*\$S?USER\d{1,3}\$[ \t]*=[ \t]*(\S(?:[^\n]{2,126}\S)?)[ \t]*$"#)
    /// PgBouncer's `auth_file` (`userlist.txt`): `"user" "password"` lines.
    /// (OCR may read a quote curly, or one as two: `“ops" "“ojdrVn9LTOark3z"`; round 152.)
    static let quotedLoginLine = TextMatcher(#"(?m)^[ \t]*["“”]{1,2}[^"“”\s]{1,64}["“”]{1,2}[ \t]+["“”]{1,2}([^"“”\n]{1,128})["“”]{1,2}[ \t]*$"#)

    func configFilePasswords() -> [Secret] {
        var found: [Secret] = []
        if mentions("$user", "$suser") {
            for match in Self.userMacro.matches(in: searchable) {
                guard let range = match.range(1), case let value = squeezed(range.lowerBound, range.upperBound), value.count >= 4,
                      !value.hasPrefix("/"), !value.hasPrefix("$"), Self.isPasswordValue(value, quoted: false) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        if mentions("userlist", "auth_file") {
            for match in Self.quotedLoginLine.matches(in: searchable) {
                // (A hash: `md5` and 32 hexadecimal digits, either of which OCR may misread; SCRAM's.)
                guard let value = match[1], let range = match.range(1), Self.passwordHash.firstMatch(in: value) == nil,
                      !value.lowercased().hasPrefix("md5"), !value.hasPrefix("SCRAM"),
                      !(value.count >= 32 && value.suffix(32).filter(\.isHexDigit).count >= 28),
                      Self.isPasswordValue(value, quoted: true) else { continue }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }
}

extension SecretScan {
    // MARK: - 1Password's Secret Key

    /// 1Password's Secret Key (its Emergency Kit): `A3-`, then six groups of capitals and digits
    /// (6, 6, 5, 5, 5, 5), as OCR reads it (spaces around a dash or inside a group, a dash read as
    /// `—` or `~`, a glyph more or less).
    static let onePasswordSecretKey = TextMatcher(#"A3[ \t]?[\-—–~][ \t]?(?:[A-Z0-9](?:[ \t]?[A-Z0-9]){3,7}[ \t]?[\-—–~][ \t]?){5}[A-Z0-9](?:[ \t]?[A-Z0-9]){3,7}"#)

    func onePasswordSecretKeys() -> [Secret] {
        guard mentions("a3-", "a3 -", "a3—", "a3 —", "a3–", "a3 –", "a3~", "a3 ~") else { return [] }
        return Self.onePasswordSecretKey.matches(in: searchable).map { secret(.apiKey, "1Password", $0.start, $0.end) }
    }
}
