import Foundation

/// Secrets given in statements and dialogs rather than after a `name=` label: a value alone on the
/// line under what names it (`Bearer Token` / …, `Copy this token to access the API.` / …, an app
/// password in groups of four), SQL that sets a password (`IDENTIFIED BY '…'`), a literal given
/// with a secret's quoted name (`define('DB_PASSWORD', '…')`) or as the second half of an `auth`
/// pair (`auth=("ana", "…")`), Docker's base64 `auth` field, a `.pgpass` line, Mailchimp's keys as OCR
/// reads them, and sign-in codes of letters and digits.
extension SecretScan {
    // MARK: - A value under the line that names it

    /// A line that names a secret: a short label (`Generated password`, `Bearer Token`, `Signing
    /// secret`, `App-Specific Password`) or a sentence about the value below (`Copy this token to
    /// access the Cloudflare API.`, `Your app password for your device`). Group 1 is the noun.
    static let secretNounLine = TextMatcher(
        #"(?i)(?<![A-Za-z])(password|passwort|passcode|passphrase|token|secret|key)s?(?![A-Za-z])"#)
    static let secretNouns: Set<String> = ["password", "passwort", "passcode", "passphrase", "token", "secret", "key"]
    static let namingCues: [[UInt8]] = ["pass", "token", "secret", "key"].map { Array($0.utf8) }
    /// A label that stands alone: up to three words, then the noun, maybe a colon.
    static let shortLabelLine = TextMatcher(#"^[ \t]*(?:[A-Za-z][A-Za-z'’\-]*[ \t]+){0,3}[A-Za-z]+[ \t]*:?[ \t]*$"#)
    /// A sentence that points at the value: `this`, `your`, `the`, `new` or `generated` before the noun.
    static let pointingSentence = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:this|your|the|new|generated)[ \t]+(?:[A-Za-z\-]+[ \t]+){0,2}(?:password|passcode|passphrase|token|secret|key)s?(?![A-Za-z])"#)
    /// A heading that starts with the noun (after an icon OCR may read as a glyph or a letter),
    /// says whose it is, and ends with a colon: `ℹ️ Password for the elastic user (reset with …):`
    /// (asides in brackets taken out first). Group 1 is the noun.
    static let headingLine = TextMatcher(
        #"(?i)^[ \t]*(?:\S{1,2}[ \t]+)?(password|passphrase|passcode|token|secret|key)[ \t]+for[ \t]+[^:\n]{1,60}?[ \t]*:[ \t]*$"#)
    /// An app password as Apple and Google show one: four groups of four small letters (OCR may
    /// read an `l` as `I` or `|`, or one letter as two).
    static let appPasswordGroups = TextMatcher(#"^[a-zI|]{4,5}(?:[ \-][a-zI|]{4,5}){3}[.,]?$"#)
    /// WordPress's application passwords: six groups of four letters and digits in both cases;
    /// Nextcloud's, five groups of five joined by `-` (OCR may read one glyph as two, or as junk:
    /// `31¢44-…`, and put spaces beside a `-`: `mAhYr -hsGEQ-Z9m2S - 1wOHJ -Xe7Qj`).
    static let mixedPasswordGroups = TextMatcher(#"^"# + groupGlyph + #"{4,5}(?:(?:[ \t]?-[ \t]?|[ \t])"# + groupGlyph + #"{4,5}){4,7}$"#)
    /// A glyph of such a group: a letter or digit, or the junk or non-ASCII glyph OCR read for one.
    static let groupGlyph = #"(?:[A-Za-z0-9@|!}{\]\[]|[^\x00-\x7F])"#
    func value(of shown: String) -> String { shown.filter { $0 != " " && $0 != "-" } }
    /// What makes a line about something that is not the secret: a public key, a fingerprint, an id.
    static let notASecretsName = TextMatcher(#"(?i)(?<![A-Za-z])(?:public|publishable|fingerprint|id|ids|forgot|reset|change|expired?|requirements?)(?![A-Za-z])"#)

    /// The value alone on the line under a line that names it. Under a short label a password
    /// need only be no word (``isPasswordValue(_:quoted:)``); under a sentence it must look like a
    /// secret on its own. A token or key must be random (``isRandomToken(_:)``), its pieces taken
    /// across the spaces OCR put in it while each is machine-made.
    func valuesUnderNamingLines() -> [Secret] {
        guard mentions("pass", "token", "secret", "key") else { return [] }
        var found: [Secret] = []
        var lineStart = 0
        while lineStart < utf8.count {
            var lineEnd = lineStart
            while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            // A naming line is short (a label or one sentence); most lines name nothing (a byte search says so).
            guard lineEnd - lineStart <= 120, Self.namingCues.contains(where: { Self.holds(lowered[lineStart..<lineEnd], $0) }),
                  case let line = slice(lineStart, lineEnd),
                  var noun = Self.secretNounLine.firstMatch(in: line)?[1]?.lowercased(),
                  // (What an aside in brackets says is about something else: `(reset with …)`.)
                  case let plain = line.contains("(") ? line.replacingOccurrences(of: #"\([^()\n]*\)"#, with: "", options: .regularExpression) : line,
                  Self.notASecretsName.firstMatch(in: plain) == nil else { continue }
            // A label ends with its noun (`Signing secret`, `Bearer Token:`, `Token secret`).
            var lastWord = line.split(whereSeparator: { !$0.isLetter }).last?.lowercased() ?? ""
            if lastWord.hasSuffix("s") { lastWord.removeLast() }
            var isLabel = Self.shortLabelLine.firstMatch(in: line) != nil && Self.secretNouns.contains(lastWord)
            if isLabel {
                noun = lastWord
            } else if let heading = Self.headingLine.firstMatch(in: plain)?[1]?.lowercased() {
                // A heading that starts with its noun and says whose it is (`Password for the elastic user:`) labels the value too.
                noun = heading
                isLabel = true
            }
            guard isLabel || Self.pointingSentence.firstMatch(in: line) != nil else { continue }
            var (valueStart, valueEnd) = nextFilledLine(after: lineEnd)
            // A short line of the dialog's details may come between (`Format: WIF`, `Type: RSA`).
            if valueEnd - valueStart <= 24, Self.detailLine.firstMatch(in: slice(valueStart, valueEnd)) != nil {
                (valueStart, valueEnd) = nextFilledLine(after: valueEnd)
            }
            // (Not the next command, under a prompt that showed nothing typed: `EncFS Password:` / `$ 1s ~/crypt`.)
            guard valueEnd > valueStart, valueEnd - valueStart <= 200, !isPrompt(at: valueStart) else { continue }
            let shown = slice(valueStart, valueEnd)
            let isPassword = noun.hasPrefix("pass")
            if isPassword, Self.appPasswordGroups.firstMatch(in: shown) != nil
                || Self.mixedPasswordGroups.firstMatch(in: shown) != nil && Self.looksLikeSecretOnItsOwn(value(of: shown)) {
                found.append(secret(.password, nil, valueStart, valueEnd))
                continue
            }
            let value = squeezed(valueStart, valueEnd)
            let pieces = shown.split(whereSeparator: { $0 == " " || $0 == "\t" })
            // Under a sentence, a line that ends as a sentence does goes on with it (`…with the name` /
            // `my-domain.com.`): no password.
            if !isLabel, isPassword, let last = value.last, ".,;)".contains(last) { continue }
            if isPassword {
                // One value to the line's end: a piece, and what OCR split from it (``separateValue(after:)``),
                // maybe a scrap it cut off last (`rfN68GBew9**WF fq`).
                // Under a short label the line is the value, in up to three pieces none a word
                // (`LAV1Lh9-cjKSu4 -fulfvx`: OCR split it before a `-`, where no flag can come).
                let wholeLine = isLabel && pieces.count <= 3 && !pieces.contains { Self.sentenceWord.firstMatch(in: String($0)) != nil }
                let separated = separateValue(after: valueStart).map { separate in
                    separate.end == valueEnd || piece(from: separate.end).map({ $0.end == valueEnd && isScrap($0) }) == true
                } ?? false
                guard separated || wholeLine, value.count >= 6, Self.isPasswordValue(value, quoted: false),
                      isLabel || Self.looksLikeSecretOnItsOwn(value) else { continue }
                found.append(secret(.password, nil, valueStart, valueEnd))
            } else {
                // (Without a stop or comma OCR read after it.)
                var tokenEnd = valueEnd
                while tokenEnd > valueStart, ".,;".utf8.contains(utf8[tokenEnd - 1]) { tokenEnd -= 1 }
                let token = squeezed(valueStart, tokenEnd)
                // The pieces OCR split a token into (a long one into many), a word of a sentence
                // at most once and short (`Jef sSi yHpW58S7…`: OCR read its first letters as one).
                // A wallet's or an ed25519 private key in hexadecimal, under a line that says it is
                // one (a hash of that length elsewhere is none).
                if Self.isHexPrivateKey(token), line.range(of: "private key", options: .caseInsensitive) != nil {
                    found.append(secret(.apiKey, "private key", valueStart, tokenEnd))
                    continue
                }
                let words = pieces.filter { Self.sentenceWord.firstMatch(in: String($0)) != nil }
                guard pieces.count <= max(8, token.count / 6), words.count <= 1, words.allSatisfy({ $0.count <= 4 }),
                      token.count >= 20, Self.isRandomToken(Self.withoutOCRJunk(token)) || Self.isRandomLetters(token),
                      isLabel || Self.isClearlyRandom(Self.withoutOCRJunk(token)) || Self.isRandomBase32(Self.withoutOCRJunk(token)) else { continue }
                found.append(secret(.apiKey, nil, valueStart, tokenEnd))
            }
        }
        return found
    }

    /// 32+ small letters and digits with more entropy than hexadecimal digits can have (Azure
    /// DevOps' 52-character tokens are base32) and five consonants in a row somewhere, as no
    /// English is, or 40+ characters with four digits: a token in one case, not a hash or words
    /// run together.
    static func isRandomBase32(_ value: String) -> Bool {
        value.count >= 32 && value.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) } && value.contains(where: \.isNumber)
            && (longestConsonantRun(value) >= 5 || value.count >= 40 && value.filter(\.isNumber).count >= 4) && entropy(value) >= 4.2
    }

    /// The filled lines below the line that holds `index` (each as ``nextFilledLine(after:)`` gives
    /// it), at most `limit`: the walk ends before a line whose first byte `endsBefore` accepts, and
    /// at a blank line when `blankLineEnds`.
    func filledLines(below index: Int, atMost limit: Int, blankLineEnds: Bool, endsBefore: (UInt8) -> Bool) -> [(start: Int, end: Int)] {
        var lineStart = index
        while lineStart < utf8.count, !Self.isLineBreak(utf8[lineStart]) { lineStart += 1 }
        var lines: [(start: Int, end: Int)] = []
        while lines.count < limit, lineStart < utf8.count {
            let line = nextFilledLine(after: lineStart)
            guard line.start < line.end, !endsBefore(utf8[line.start]), !blankLineEnds || line.start - lineStart <= 2 else { break }
            lines.append(line)
            lineStart = line.end
        }
        return lines
    }

    /// The next line after `index` that holds anything, without the spaces around it.
    func nextFilledLine(after index: Int) -> (start: Int, end: Int) {
        var start = index
        while start < utf8.count, Self.isLineBreak(utf8[start]) || Self.isSpace(utf8[start]) { start += 1 }
        var end = start
        while end < utf8.count, !Self.isLineBreak(utf8[end]) { end += 1 }
        while end > start, Self.isSpace(utf8[end - 1]) { end -= 1 }
        return (start, end)
    }

    /// A dialog's detail on its own line: a word or two, a colon, a word (`Format: WIF`).
    static let detailLine = TextMatcher(#"^[A-Z][a-z]+(?: [a-z]+)?: ?[A-Za-z0-9\-]{2,12}$"#)

    /// 64 hexadecimal digits, maybe after `0x`, as OCR reads them: the `0` of `0x` as `O` or `©`,
    /// four digits misread (`i` for `1`, `g` for `9`, `s` for `8`).
    static func isHexPrivateKey(_ token: String) -> Bool {
        let digits = token.count > 2 && "0Oo©@".contains(token.first!) && token.dropFirst().first == "x" ? token.dropFirst(2) : Substring(token)
        return (62...66).contains(digits.count) && digits.filter(\.isHexDigit).count >= digits.count - 4
    }

    // MARK: - Statements that set a password

    /// SQL's `IDENTIFIED BY '…'` (MySQL, Oracle; `IDENTIFIED WITH plugin BY '…'`), the literal
    /// after it; OCR may read the quotes curly.
    /// MySQL's `SET PASSWORD [FOR 'user'@'host'] = '…'` sets one the same way.
    static let identifiedBy = TextMatcher(
        #"(?im)(?<![A-Za-z])(?:IDENTIFIED[ \t]+(?:WITH[ \t]+[A-Za-z_0-9]+[ \t]+)?BY[ \t]+(?:PASSWORD[ \t]+)?|SET[ \t]+PASSWORD(?:[ \t]+FOR[ \t]+[^=\n]{1,128}?)?[ \t]*=[ \t]*)(["'‘’“”`]{1,2})?(?:([^\n]{1,128}?)["'‘’“”`](?=[ \t]*;?[ \t]*$)|([^"'‘’“”`\s]{1,128}?)(?:["'‘’“”`]|(?=;?[ \t]*$)))"#)
    /// A literal given with a secret's quoted name: `define('DB_PASSWORD', '…')`,
    /// `config.set("api_key", "…")`, `ENV.fetch("SECRET_TOKEN", "…")`. Group 1 the name, 2 the value.
    /// OCR may read a name's `_` as a space, one quote as two or as a comma, drop a closing quote
    /// before `)` (the line's last: a `)` inside the value, as WordPress's salts have, does not
    /// end it), or the value's opening one (group 3).
    static let namedLiteral = TextMatcher(
        #"["'‘’“”]([A-Za-z][A-Za-z0-9_.\- ]{2,63})["'‘’“”,]{0,2}[ \t]*,[ \t]*(?:["'‘’“”]{1,2}([^"'‘’“”\n]{1,128}?)|([^\s"'‘’“”,()]{6,128}))(?:["'‘’“”]|(?=[ \t]*\)[^"'‘’“”\n]*(?:\n|$)))"#)
    /// A user and a password given as an `auth` pair: `auth=("ana", "…")`, `HTTPBasicAuth('ana', '…')`,
    /// `.basic_auth("ana", "…")`, and given to a call that signs in (`server.login("ana", "…")`,
    /// `sign_in("ana", "…")`) or makes credentials (`new NetworkCredential("ana", "…")`,
    /// `UsernamePasswordCredentials("ana", "…")`). Group 1 is the password. Two arguments only: a
    /// third after them makes the first two something else (sbt's `Credentials(realm, host, user, password)`).
    /// OCR may drop the user's opening quote right after the `(`: then the user is one word
    /// (`auth=(ci', '…')`; round 141).
    static let authPair = TextMatcher(
        #"(?i)(?:auth[A-Za-z_]{0,40}+|(?<![A-Za-z0-9_])(?:log_?in|sign_?in|[A-Za-z]{0,24}Credentials?)(?=[ \t]*\())[ \t]*[=(:][ \t]*[(\[]?[ \t]*(?:["'‘’“”][^"'‘’“”\n]{1,64}|(?<=[(\[])[^"'‘’“”\s,()\[\]]{1,64})["'‘’“”][ \t]*,[ \t]*["'‘’“”]{1,2}([^"'‘’“”\n]{1,128}?)(?:["'‘’“”]|(?=[ \t]*\)))(?![ \t]*,)"#)
    /// Docker's `config.json` (and other files) keep a user and password as base64 in an `auth` field.
    static let authField = TextMatcher(
        #"(?i)(?<![A-Za-z_])["'“”]?auth["'“”‘’]?[ \t]*[:=][ \t]*["'“”‘’]{1,2}([^"'“”‘’\s](?:[^"'“”‘’\n]{10,254})[^"'“”‘’\s])["'“”‘’]"#)
    /// A `.pgpass` line: `host:port:database:user:password` (a port or `*` second).
    /// OCR may put spaces around the colons and inside the host or the password (to the line's end).
    static let pgpassLine = TextMatcher(
        #"(?m)^[ \t]*[A-Za-z0-9_.,\-*]+(?: [A-Za-z0-9_.,\-]+){0,3} ?: ?(?:[0-9]{2,5}|\*) ?: ?[^:\s]+(?: [^:\s]+)? ?: ?[^:\s]+(?: [^:\s]+)? ?: ?(\S[^\n]{3,127}?)[ \t]*$"#)

    func statementPasswords() -> [Secret] {
        var found: [Secret] = []
        func add(_ kind: SecretKind, _ match: TextMatcher.Match, group: Int, check: (String) -> Bool) {
            guard let value = match[group], check(value), let range = match.range(group) else { return }
            found.append(secret(kind, nil, range.lowerBound, range.upperBound))
        }
        if mentions("identified", "set password") {
            // The value to the line's last quote (OCR may read a `^` inside as a quote: `'P5“t@!er%oY“5ga’;`),
            // or up to a quote; a value whose opening quote OCR lost must look like one.
            for match in Self.identifiedBy.matches(in: searchable) {
                let quoted = match[1] != nil
                add(.password, match, group: match[2] != nil ? 2 : 3) { Self.isPasswordValue($0, quoted: quoted) }
            }
        }
        if mentions("pass", "pwd", "secret", "token", "key"), mentions(",") {
            for match in Self.namedLiteral.matches(in: searchable) {
                guard let name = match[1]?.replacingOccurrences(of: " ", with: "_"), let kind = Self.secretName(name) else { continue }
                // A JSON object's next key is no value: `"Name": "db_pass", "Labels": {}` (`docker secret inspect`).
                var after = match.end
                while after < utf8.count, Self.isSpace(utf8[after]) { after += 1 }
                if after < utf8.count, utf8[after] == 0x3A { continue }
                // (Group 3: the opening quote lost, `'DB_PASSWORD', Jh&pT%xZ1tprt’`: then it must look like one.)
                let quoted = match[2] != nil
                add(kind, match, group: quoted ? 2 : 3) { value in
                    kind == .password ? Self.isPasswordValue(value, quoted: quoted) && (quoted || Self.looksLikeSecretOnItsOwn(value))
                        : Self.isSecretLiteral(value) || Self.isRandomToken(value)
                }
            }
        }
        if mentions("auth", "login", "signin", "sign_in", "credential") {
            for match in Self.authPair.matches(in: searchable) {
                add(.password, match, group: 1) { value in
                    // The second half of a pair, not a word of the call (`auth=("user", "password")` is a placeholder).
                    value.count >= 4 && Self.isPasswordValue(value, quoted: true)
                }
            }
        }
        if mentions("auth") {
            for match in Self.authField.matches(in: searchable) {
                // Across the spaces OCR put in it (`c3ZjX3J LcG9ydDprx0 …`), which no sentence word is.
                add(.password, match, group: 1) { value in
                    let pieces = value.split(separator: " ")
                    return pieces.count <= 6 && !pieces.contains { Self.sentenceWord.firstMatch(in: String($0)) != nil }
                        && Self.isBasicCredentials(Self.withoutOCRJunk(pieces.joined()))
                }
            }
        }
        // Cued by the file's name or PostgreSQL's port: the pattern is not tried on every text with a `:`.
        if mentions("pgpass", "5432") {
            for match in Self.pgpassLine.matches(in: searchable) {
                add(.password, match, group: 1) { value in
                    let squeezed = value.filter { $0 != " " && $0 != "\t" }
                    // (A `:` inside is escaped in the file, `\:`: more fields are another format, a fingerprint's bytes.)
                    return !value.contains("/") && !value.contains(":") && value.filter({ $0 == " " }).count <= 2 && value.contains(where: \.isLetter)
                        && Self.isPasswordValue(squeezed, quoted: false)
                }
            }
        }
        return found
    }

    // MARK: - Hexadecimal keys read with noise

    /// Mailchimp's key (32 hexadecimal digits and its data centre, `-us21`) as OCR reads it: any
    /// character may be a misread one (`O`, `S`, `@` for digits, `F` for `f`, `€839d…`, `06ch4b…`,
    /// `fbéd`; `-uss` for `-us8`, `-usi1` for `-us11`: round 140), OCR may split it once or drop or add a character; 26 of its
    /// characters must read as small hexadecimal digits.
    static let noisyDataCentreKey = TextMatcher(
        #"(?<![A-Za-z0-9])([^\s\-"'<>](?: ?[^\s\-"'<>]){29,32}) ?- ?us ?[0-9@&|SsBIlOoi]{1,3}(?![A-Za-z0-9])"#)

    func noisyDataCentreKeys() -> [Secret] {
        guard mentions("-us", "- us", "-u s") else { return [] }
        return Self.noisyDataCentreKey.matches(in: searchable).compactMap { match in
            // Mostly small hexadecimal digits, both digits and letters among them; OCR reads an `f`
            // as `F`, hardly an `a` to `e` as a capital (`…c33ED38357DB-us2` is another shape).
            guard let key = match[1], key.filter({ $0 == " " }).count <= 1,
                  key.filter({ $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) }).count >= 26, key.contains(where: \.isNumber),
                  key.contains(where: { ("a"..."f").contains($0) }), key.filter({ ("A"..."E").contains($0) }).count <= 1 else { return nil }
            return secret(.apiKey, "Mailchimp", match.start, match.end)
        }
    }

    // MARK: - Codes of letters and digits

    /// A sign-in code of capitals and digits after the words that name one (Steam Guard's `F4K9B`,
    /// `Your login code: X7KQ2P`, a meeting's `Passcode: HFFSTW`); digits-only codes are ``oneTimeCodes()``'.
    /// A device's sign-in code is given in two groups of four (GitHub's `WDJB-MJHT`) or as nine
    /// characters after `enter the code` (Microsoft's `F7K2MQX9P`; ten when OCR read a glyph as
    /// two), which a promotion's code
    /// (`enter the code SAVE20`, a word and a number) is not. (In two groups, OCR may read a
    /// capital of the second as two glyphs, one of them small: `BSGD-RDNxX`; round 133.)
    static let namedLetterCode = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:(?:guard|log[ \-]?in|sign[ \-]?in|verification|security|authentication|one[ \-]?time|2fa|access|device|user)[ \t]+code|pass[ \t]?code|(enter[ \t]+the[ \t]+code))[ \t]*(?::|is|-)?[ \t]*((?-i:[A-Z0-9]{4}-(?:[A-Z0-9]{4}|(?=[A-Za-z0-9]{5}(?![A-Za-z0-9]))[A-Z0-9]{0,4}[a-z][A-Z0-9]{0,4})|[A-Z0-9]{5,10}))(?![A-Za-z0-9])"#)
    /// A meeting's passcode of letters and digits in both cases (Zoom's `Passcode: Xy7Qp2`):
    /// with a digit, or capitals inside, as no word after the label has (`Passcode: Required`),
    /// or of six letters or more with four consonants in a row (`Passcode: Egstmi`), as random
    /// letters often have and the words a label shows do not (`Disabled`, `Optional`, `Hidden`).
    static let mixedPasscode = TextMatcher(#"(?i)(?<![A-Za-z])pass[ \t]?code[ \t]*:[ \t]*([A-Za-z0-9]{5,10})(?![A-Za-z0-9])"#)

    /// The last line of a message a browser may read its code from (WebOTP's `@acme.com #482913`).
    static let domainBoundCode = TextMatcher(#"(?m)^[ \t]*@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+[ \t]+#([A-Za-z0-9]{4,10})(?![A-Za-z0-9])"#)

    /// A message's warning not to share it (`Don't share it with anyone`, `Do not share this`).
    static let noSharingWarning = TextMatcher(#"(?i)(?<![A-Za-z])(?:don[’']?t|do not|never)\s+share(?![A-Za-z])"#)
    /// A number of 4–8 digits standing alone: after a line's start, a space, `[` or `: `; not a
    /// price, an order number, a time, a date or a part of a longer number.
    static let numberAlone = TextMatcher(#"(?<![\p{L}\p{N}#$€£¥.,:/_\-])(\d{4,8})(?![\p{N}\p{L}%/:_]|[.,\-]\d)"#)

    /// A code in a message that warns not to share it, on the warning's line or one of the two
    /// before it (a push notification's title: `[316295] Acme login`, `Acme: 872436`), when no
    /// code word came with it.
    func codesInWarnedMessages() -> [Secret] {
        guard mentions("share") else { return [] }
        var found: [Secret] = []
        for warning in Self.noSharingWarning.matches(in: searchable) {
            // (At most 512 bytes either way: a text of one long line costs no more.)
            var from = warning.start, breaks = 0
            while from > 0, warning.start - from < 512 {
                if utf8[from - 1] == 0x0A { breaks += 1; if breaks == 3 { break } }
                from -= 1
            }
            var to = warning.end
            while to < utf8.count, to - warning.end < 512, !Self.isLineBreak(utf8[to]) { to += 1 }
            for number in Self.numberAlone.matches(in: slice(from, to)) {
                guard let range = number.range(1) else { continue }
                found.append(secret(.otp, nil, from + range.lowerBound, from + range.upperBound))
            }
        }
        return found
    }

    /// A text message from a sender named in brackets, as services in China send them (`【Alipay】`
    /// or `[Alipay]` first): a line of the tag and 4–8 digits alone is a code (round 144). The tag
    /// is a name (a capital or a letter beyond ASCII first, no digit), not a log's level or thread
    /// in capitals or small letters (`[INFO] 1024`, `[main] 4711`); four digits are no year.
    static let taggedCode = TextMatcher(#"(?m)^[ \t]*(?:\[|【)((?:\p{Lu}|[\p{L}&&[^\x00-\x7F]])[\p{L} .&'\-]{0,30})(?:\]|】)[ \t]*(\d{4,8})[ \t]*$"#)

    func taggedCodes() -> [Secret] {
        guard mentions("]", "】") else { return [] }
        return Self.taggedCode.matches(in: searchable).compactMap { match in
            guard let tag = match[1], let code = match[2], let range = match.range(2),
                  !tag.allSatisfy({ $0.isASCII && !$0.isLowercase }),
                  !(code.count == 4 && (code.hasPrefix("19") || code.hasPrefix("20"))) else { return nil }
            return secret(.otp, nil, range.lowerBound, range.upperBound)
        }
    }

    /// Whether a line holds only digits (spaces around them aside), as many as `count` says.
    func hasLineOfDigitsAlone(_ count: ClosedRange<Int>) -> Bool {
        var digits = 0, other = false
        for byte in utf8 {
            if Self.isLineBreak(byte) {
                if !other, count.contains(digits) { return true }
                digits = 0
                other = false
            } else if (0x30...0x39).contains(byte) {
                digits += 1
            } else if !Self.isSpace(byte) {
                other = true
            }
        }
        return !other && count.contains(digits)
    }

    /// A code alone on the line after a line that names it and ends with `is` or a colon (a PIN
    /// letter's `the PIN for your card ending 5193 is` / `1191`): only the words no other number
    /// has (a bare `code` may be a postal one).
    static let codeUnderItsCue = TextMatcher(
        #"(?im)(?<![A-Za-z])(?:pin|passcode|one[\s\-]?time\s+(?:code|password|pin)|(?:verification|security|sign[\s\-]?in|log[\s\-]?in)\s+code|(?-i:[mM]?TAN))(?![A-Za-z])[^\n]{0,60}?(?:\bis|[:：])[ \t]*\r?\n[ \t]*(\d{4,8})[ \t]*$"#)

    func codesUnderTheirCue() -> [Secret] {
        // (First a line of 4–8 digits alone, found in one pass over the bytes: the cues are words
        // of many texts, such a line is rare.)
        guard hasLineOfDigitsAlone(4...8), mentions("pin", "passcode", "code", "tan") else { return [] }
        return Self.codeUnderItsCue.matches(in: searchable).compactMap { match in
            guard let range = match.range(1) else { return nil }
            return secret(.otp, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A code of capitals (and digits) alone on the line after a line that names a code to sign in
    /// with and ends with a colon: Steam Guard's `Here is the Steam Guard code you need to login to
    /// account noor:` / `TQKCD`. The cue line must say what the code is for (``signInCodeWords``): a
    /// `Promo code:` / `SAVE20` is none.
    /// (Or its digits spaced apart, as an e-mail shows a code: `6 0 9 7 1 2`.)
    static let letterCodeUnderItsCue = TextMatcher(#"(?m)^([^\n]{0,120}?(?<![A-Za-z])(?:[Cc]ode|CODE)(?![A-Za-z])[^\n]{0,100}?[:：])[ \t]*\r?\n[ \t]*([A-Z0-9]{4,8}|\d(?:[ \t]\d){3,7})[ \t]*$"#)
    static let signInCodeWords = ["log in", "login", "log-in", "sign in", "sign-in", "signin", "verif", "security", "guard", "2fa", "two-factor",
                                  "authenticat", "one-time", "confirm your", "access code"]

    func letterCodesUnderTheirCue() -> [Secret] {
        guard mentions("code"), Self.signInCodeWords.contains(where: { mentions($0) }) else { return [] }
        return Self.letterCodeUnderItsCue.matches(in: searchable).compactMap { match in
            // (Digits spaced apart are a code's look: the text's words say what it is for.)
            guard let cue = match[1]?.lowercased(), let code = match[2], let range = match.range(2),
                  Self.signInCodeWords.contains(where: cue.contains) || code.contains(" ") || code.contains("\t") else { return nil }
            // A word of the interface in capitals (`RESEND`, `SUBMIT`) is none: a code holds a digit,
            // or three consonants in a row as random letters do (`TQKCD`; `Y` counts as a vowel).
            guard code.contains(where: \.isNumber) || Self.longestConsonantRun(code) >= 3 else { return nil }
            return secret(.otp, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A config file's directive holding a password, its value after spaces, alone on its line:
    /// Redis' `requirepass …` and `masterauth …`, OpenLDAP's `rootpw …` and `bindpw …`. The name
    /// is one word in small letters that ends with what it holds (never `auth` alone, a PAM line's,
    /// nor a tool that sets passwords, `chpasswd`).
    /// (Kickstart's `rootpw --plaintext …`: the option that says it is not hashed may come between.)
    /// (OCR may split the value once, `bindpw -8ayHapu#x9WAf IG`, `bindpw 1! bMwv1xDKyE`: then its
    /// pieces are no words, each two letters or digits or a scrap of two glyphs not both letters, and,
    /// joined, look like a secret on their own. A word's letters may follow a machine-made piece that
    /// ends with a symbol: OCR split after it, `bindpw 0-bGRc6Ab! uamu`; and a machine-made piece
    /// a word's letters and a symbol, `remote_password kothq! jH77T`. OCR may split it twice, a
    /// symbol off on its own: `bindpw ! IEsLi+n! ooAbY4`.)
    /// (OCR may read the name's `_` as a space, `remote password CJVg_ 6cuM6w8`: after a word of
    /// three letters or more; and its first letter as a capital, `Masterauth exwfY6rCgLNI`, when
    /// five small letters or more follow it, in one word: C's `Xauth *XSecurityAllocXauth(void);`
    /// is a type, a ferry's `Boarding pass 8F3K2Q` a ticket.)
    static let passwordDirective = TextMatcher(#"(?m)^[ \t]*((?:[a-z][a-z0-9_\-]{0,24}?(?:(?<=[a-z]{3}) )?|[A-Z](?=[a-z]{5})[a-z0-9_\-]{0,24}?)(?:pass|passwd|password|pwd|pw|auth))[ \t]+(?:--plaintext[ \t]+)?(\S{1,128}(?: \S{1,128}){0,2})(?=[ \t]*$)"#)

    static let longOptionWord = TextMatcher(#"^--[a-z][a-z\-]{1,30}$"#)

    func directivePasswords() -> [Secret] {
        guard mentions("pass", "pw", "auth") else { return [] }
        return Self.passwordDirective.matches(in: searchable, within: lines(mentioning: ["pass", "pw", "auth"])).compactMap { match in
            guard let name = match[1]?.lowercased(), var value = match[2], let range = match.range(2), name != "auth", !Self.wordsEndingInPass.contains(name) else { return nil }
            let pieces = value.split(separator: " ")
            // (A long option first is the directive's, not its password: Kickstart's `rootpw
            // --iscrypted $6$…` gives a hash, which OCR may split; `rootpw --lock`; round 153.)
            if let first = pieces.first, Self.longOptionWord.firstMatch(in: String(first)) != nil { return nil }
            // (A user and its password, OCR's space after the colon: motionEye's `netcam_userpass
            // admin: Cqbpg5b-X1`, `admin: 9ud8wsYY3y- xo`: the password is what follows, judged as
            // a value alone; round 164.)
            if pieces.count > 1, pieces.count <= 3, let first = pieces.first, first.count >= 2, first.last == ":",
               first.dropLast().allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-@".contains($0)) }),
               !pieces.dropFirst().contains(where: { Self.sentenceWord.firstMatch(in: String($0)) != nil && $0.count > 2 }) {
                value = pieces.dropFirst().joined()
            } else if pieces.count > 1 {
                // (An assignment in code is none: `final_pass = jpeg_input_complete(&cinfo);`.)
                let first = pieces[0], firstEndsWithSymbol = first.last.map { !$0.isLetter && !$0.isNumber } == true
                let splitAfterSymbol = firstEndsWithSymbol && first.count >= 4 && first.contains(where: \.isNumber) && first.contains(where: \.isLetter)
                let last = pieces[pieces.count - 1], machineMadeAfterSymbol = pieces.count == 2 && firstEndsWithSymbol
                    && last.count >= 4 && last.contains(where: \.isNumber) && last.contains(where: \.isLetter) && last.contains(where: \.isUppercase)
                guard !"=:".contains(value.first ?? "="), pieces.enumerated().allSatisfy({ index, piece in
                    (piece.filter { $0.isLetter || $0.isNumber }.count >= 2 || piece.count <= 2 && !piece.allSatisfy(\.isLetter))
                        && (Self.sentenceWord.firstMatch(in: String(piece)) == nil || index == 1 && splitAfterSymbol || index == 0 && machineMadeAfterSymbol)
                }) else { return nil }
                value = pieces.joined()
                guard value.count >= 8, Self.looksLikeSecretOnItsOwn(value) else { return nil }
            }
            guard value.count >= 6,
                  !name.hasSuffix("passwd"), Self.isPasswordValue(value, quoted: false), !value.contains("/"),
                  Self.looksLikeSecretOnItsOwn(value) || value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
                    // (Or letters whose case changes inside, as no word's does: keepalived's `auth_pass aIrwothG`.)
                    || value.dropFirst().contains(where: \.isUppercase) && value.contains(where: \.isLowercase) && Self.classSwitches(Array(value.utf8)[...]) >= 3
                    // (Or two capitals and two small letters or more, not a word's capital first nor
                    // words joined in camel case: `auth_pass QVYYzebz`; round 159, an older pool's.)
                    || value.allSatisfy({ $0.isASCII && $0.isLetter }) && value.filter(\.isUppercase).count >= 2 && value.filter(\.isLowercase).count >= 2
                        && Self.capitalPairs(in: Substring(value)) >= 1
                    // (Or letters with five consonants in a row, as random letters have and words do not: `FXSGPIHUrpwx`,
                    // OCR's reading of `FX5GPIHUrpwx`.)
                    || Self.isUnpronounceable(value) else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    /// An item of `redis-cli`'s numbered reply that names a setting or a field (`CONFIG GET
    /// requirepass`, `HGETALL user:42`): `1) "requirepass"`; the next item is its value. (OCR may
    /// curl the quotes.)
    static let replyName = TextMatcher(#"(?m)^[ \t]*\d{1,4}\)[ \t]*["“”]([A-Za-z0-9_.:\-]{2,64})["“”][ \t]*$"#)
    /// The next item: group 1 its text, inside its quotes (the closing one OCR may have lost).
    static let replyValue = TextMatcher(#"^\d{1,4}\)[ \t]*["“”]([^\n]{1,256}?)["“”]?$"#)

    /// The value of a numbered reply's item whose name names a secret (``secretName(_:)``, or a
    /// Redis directive's, `masterauth`): `1) "requirepass"` / `2) "…"`. A password must be one
    /// (``isPasswordValue(_:quoted:)``), a key or a token a random one.
    func replyValues() -> [Secret] {
        guard mentions(") \"", ")\"", ") “", ")“", ") ”"), mentions("pass", "pw", "auth", "secret", "token", "key") else { return [] }
        return Self.replyName.matches(in: searchable, within: lines(mentioning: ["pass", "pw", "auth", "secret", "token", "key"])).compactMap { match in
            guard let name = match[1] else { return nil }
            let lower = name.lowercased()
            guard let kind = Self.secretName(name) ?? (lower.count > 4 && lower.hasSuffix("auth") ? .password : nil) else { return nil }
            let line = nextFilledLine(after: match.end)
            guard line.start > match.end, let item = Self.replyValue.firstMatch(in: slice(line.start, line.end)), let value = item[1],
                  let range = item.range(1) else { return nil }
            switch kind {
            case .password: guard Self.isPasswordValue(value, quoted: true), !Self.isPlaceholder(value) else { return nil }
            default: guard Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
            }
            return secret(kind, nil, line.start + range.lowerBound, line.start + range.upperBound)
        }
    }

    /// sendmail's `authinfo` entry: `AuthInfo:HOST "U:smmsp" "I:user" "P:password" "M:PLAIN"`;
    /// group 1 the password (`P:` as typed, `P=` in base64; OCR may curl the quotes, put a
    /// space after the colon, or read `AuthInfo` with a small `i`).
    static let authInfoPassword = TextMatcher(#"(?i)(?<![A-Za-z])authinfo[ \t]?:[^\n]{0,300}?["“”]P[ \t]?[:=][ \t]?([^"“”\n]{1,128})["“”]"#)

    func authInfoPasswords() -> [Secret] {
        guard mentions("authinfo") else { return [] }
        return Self.authInfoPassword.matches(in: searchable).compactMap { match in
            guard let value = match[1], let range = match.range(1), Self.isPasswordValue(value, quoted: true), !Self.isPlaceholder(value) else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A PIN or a PUK after its name in capitals with spaces alone, as a SIM card's letter and a
    /// phone's settings print them (`PIN1  9186`, `PUK1  84111510`, `PIN 4821`). A PUK has 8 digits
    /// (3GPP TS 31.101); a SIM's numbered PIN 4 to 8; a `PIN` alone 4 or 5 (India's postal `PIN`
    /// has 6). (`PIN: …` with its colon is ``passwords()``'s.) (OCR may read the `1` as `I`, `l` or
    /// `|`: `PUKI 46411248`; round 145.)
    static let pinAfterItsName = TextMatcher(#"(?<![A-Za-z0-9_\-])(PIN|PUK)([12Il|])?[ \t]+(\d{4,8})(?![0-9A-Za-z.,/\-])"#)

    func pinsAfterTheirNames() -> [Secret] {
        guard mentions("pin", "puk") else { return [] }
        return Self.pinAfterItsName.matches(in: searchable).compactMap { match in
            guard let name = match[1], let digits = match[3], let range = match.range(3) else { return nil }
            let fits = name == "PUK" ? digits.count == 8 : match[2] != nil || digits.count <= 5
            return fits ? secret(.password, "PIN", range.lowerBound, range.upperBound) : nil
        }
    }

    func letterCodes() -> [Secret] {
        var found: [Secret] = []
        if mentions("#") {
            for match in Self.domainBoundCode.matches(in: searchable) {
                guard let range = match.range(1) else { continue }
                found.append(secret(.otp, nil, range.lowerBound, range.upperBound))
            }
        }
        guard mentions("code") else { return found }
        let lines = lines(mentioning: ["code"])
        found += Self.namedLetterCode.matches(in: searchable, within: lines).compactMap { match in
            guard let value = match[2], value.contains(where: \.isLetter), let range = match.range(2) else { return nil }
            // After `enter the code`, a promotion's word and number (`SAVE20`, `WELCOME15`) is none;
            // random letters before digits (`GKQWNYV20`) read as no word: four consonants in a row.
            if match[1] != nil, !value.contains("-") {
                let letters = value.prefix { $0.isLetter }, digits = value.drop { $0.isLetter }
                let wordLike = letters.count >= 3 && !letters.lowercased().split(whereSeparator: { "aeiouy".contains($0) }).contains { $0.count >= 4 }
                guard value.contains(where: \.isNumber) || Self.isUnpronounceable(value.lowercased()),
                      !(wordLike && !digits.isEmpty && digits.allSatisfy(\.isNumber)) else { return nil }
            }
            return secret(.otp, nil, range.lowerBound, range.upperBound)
        }
        if mentions("passcode", "pass code") {
            for match in Self.mixedPasscode.matches(in: searchable, within: lines) {
                guard let value = match[1], value.contains(where: \.isLetter), let range = match.range(1),
                      value.contains(where: \.isNumber) || value.dropFirst().contains(where: \.isUppercase)
                        || value.count >= 6 && Self.longestConsonantRun(value) >= 4 else { continue }
                found.append(secret(.otp, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    // MARK: - Keys in variables and constants

    /// A variable whose name ends in `_KEY` assigned a value (`export CF_Key="…"`, `MEILI_MASTER_KEY=…`,
    /// PowerShell's `$env:X_KEY = …`, an object's `c.project_key = '…'` (Airbrake's; round 157); OCR may put a space beside a `_`, `CF _Key`): group 1 the name. `key` alone names too much for
    /// ``secretName(_:)`` (`SORT_KEY=name`, Docker's `GPG_KEY` is a fingerprint), so only a random
    /// value under it is taken.
    static let keyVariable = TextMatcher(#"(?m)(?:^|(?<=[ \t;]))(?:export[ \t]+|set[ \t]+|\$env:|[A-Za-z_][A-Za-z0-9_]{0,30}\.)?([A-Za-z][A-Za-z0-9]{0,30}(?: ?_ ?[A-Za-z0-9]{1,30}){0,4} ?_ ?(?i:key))[ \t]*=[ \t]*(?=\S)"#)
    /// A variable named for a certificate (`AGORA_APP_CERTIFICATE=…`). A certificate is hundreds
    /// of bytes of base64 or a file's path; a short run of letters and digits under the name is a
    /// key the service calls its certificate (Agora's, which signs its tokens), 32+ hexadecimal
    /// digits or a random token of 16 to 128. Round 157.
    static let certificateVariable = TextMatcher(#"(?m)(?:^|(?<=[ \t;]))(?:export[ \t]+)?[A-Za-z][A-Za-z0-9_]{0,40}_(?i:certificate)[ \t]*[=:][ \t]*(?=\S)"#)
    /// Words of a `_KEY` name that say its value is public or no key's secret.
    static let wordsOfPublicKeys: Set<String> = ["gpg", "pgp", "public", "pub", "ssh", "host", "signing", "primary", "foreign", "sort", "partition",
                                                 "hash", "cache", "map", "hot", "short", "keyboard", "fingerprint", "id", "license", "licence", "site", "publishable"]
    /// PHP's `define( 'NAME', '…' );` (WordPress' `wp-config.php`): group 1 the name, group 2 the
    /// value, to the last quote before `)` on the line. (OCR may read the quotes curly or double,
    /// drop the name's closing one, read it as `!` or `*` or double it (`'NONCE_SALT'’,`), and read its `_` as a space, and the spaces before the value as
    /// a dash, `_` or `=`, its opening quote as `*` or `)`, drop its closing one: `define('NONCE SALT’, —"…' );`,
    /// `define('NONCE_SALT', = '…' );`; and its closing `;` as `5`, `:`, `j` or `i`, or as two glyphs: `' )5`, `' ) 5;`.)
    /// Group 3 is a value whose opening quote OCR dropped (`define( 'NONCE_SALT', /MG9…{{' );`): its closing quote
    /// must then be there, so `getenv('A_KEY'))` is no value.
    static let phpConstant = TextMatcher(#"(?im)(?<![A-Za-z0-9_])define[ \t]*\([ \t]*['"‘’“”]{1,2}([A-Za-z0-9_ ]{2,64}?)['"‘’“”!*]{0,2}[ \t]*,{1,2}[ \t]*(?:[—_\-=]{1,2}[ \t]*)?(?:['"‘’“”*)]([^\n]{4,256}?)['"‘’“”]?|([^\s'"‘’“”*][^\n]{3,255}?)['"‘’“”])[ \t]*\)(?:[ \t]*[;5:ji]){0,2}[ \t]*$"#)

    /// A value that reads a setting (`getenv('WP_AUTH_KEY'`, `$_ENV["SALT"`, `env('APP_KEY'`) rather than holding one.
    static let readsASetting = TextMatcher(#"^\$?[A-Za-z_][\w:>.-]*[(\[][ \t]*['"‘’“”$]"#)

    /// The end of a `_KEY` variable's value that OCR split into pieces (`CONVEX_DEPLOY_KEY=prod:
    /// quiet -heron-955 | eyJ2Mil6…`: a deployment's name, then its key): the pieces to the line's
    /// end, six at most, when the last of them (one or more) are a random token of 32+ and none is a setting (`A=…`),
    /// a comment's `#` or an address; nil otherwise. Round 157.
    func splitKeyValueEnd(from start: Int) -> Int? {
        guard let pieces = piecesToLineEnd(from: start, atMost: 6, maximumSpaces: 2), pieces.count > 1, let last = pieces.last,
              // (The key itself OCR may have split too, `| eyJ2MiI6IPEKQXWA6h95 JwHdpwqXEcj G3You68…`:
              // the last pieces together, from one that is no word.)
              pieces.indices.contains(where: { index in
                  let joined = Self.withoutOCRJunk(squeezed(pieces[index].start, last.end))
                  return joined.count >= 32 && !isSentenceWord(pieces[index]) && Self.isRandomToken(joined)
              }),
              !pieces.contains(where: { utf8[$0.start] == 0x23 || isSettingWithValue($0) || isOptionOrAddress($0) && utf8[$0.start] != 0x2D }) else { return nil }
        return last.end
    }

    /// Random values of `_KEY` variables, and PHP constants naming a secret, a key or a salt
    /// (WordPress' `AUTH_KEY`, `NONCE_SALT`: the secrets its cookies are signed with).
    func keyVariablesAndConstants() -> [Secret] {
        var found: [Secret] = []
        if mentions("_key") {
            for match in Self.keyVariable.matches(in: searchable) {
                guard let name = match[1], !Self.nameWords(name).contains(where: Self.wordsOfPublicKeys.contains), Self.secretName(name) == nil,
                      let (start, end, quoted) = value(after: match.end), end > start, case let value = squeezed(start, end) else { continue }
                if value.count >= 20, Self.isRandomToken(Self.withoutOCRJunk(value, readingPercentAsZero: true)),
                   !(value.allSatisfy(\.isHexDigit) && [8, 16, 40].contains(value.count)) {
                    found.append(secret(.apiKey, nil, start, end))
                } else if !quoted, let end = splitKeyValueEnd(from: start) {
                    found.append(secret(.apiKey, nil, start, end))
                }
            }
        }
        if mentions("_certificate") {
            for match in Self.certificateVariable.matches(in: searchable) {
                guard let (start, end, _) = value(after: match.end), end > start, case let value = squeezed(start, end),
                      (16...128).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                      value.count >= 32 && value.allSatisfy(\.isHexDigit) || Self.isRandomToken(value) else { continue }
                found.append(secret(.apiKey, nil, start, end))
            }
        }
        if mentions("define") {
            for match in Self.phpConstant.matches(in: searchable) {
                guard let name = match[1]?.replacingOccurrences(of: " ", with: "_"), let range = match.range(2) ?? match.range(3),
                      case let value = slice(range.lowerBound, range.upperBound), match.range(2) != nil || Self.readsASetting.firstMatch(in: value) == nil else { continue }
                let last = Self.nameWords(name).last ?? ""
                if let kind = Self.secretName(name) {
                    if kind == .password, let password = password(range.lowerBound, range.upperBound, quoted: true) { found.append(password) }
                    if kind == .apiKey, value.count >= 8, Self.isPasswordValue(value, quoted: true) { found.append(secret(.apiKey, nil, range.lowerBound, range.upperBound)) }
                } else if last == "key" || last == "salt", value.count >= 16, Self.entropy(value) >= 3.5,
                          !value.allSatisfy({ $0.isLetter || $0 == " " }), !Self.isPlaceholder(value) {
                    found.append(secret(.apiKey, nil, range.lowerBound, range.upperBound))
                }
            }
        }
        return found
    }
}
