import Foundation

/// Values set apart from what names them, as screens lay them out: after a command's password
/// flag and a space (`docker login -u ci -p …`, `sshpass -p '…'`, `redis-cli -a …`), on the line
/// under a label that stands alone (a password manager's entry: `Password` / `…`), after a label,
/// a few words and an arrow or a colon (`new password for the NAS → …`), and at the end of a
/// webhook's address (`hooks.slack.com/services/…`). No `=` ties such a value to its label, so each
/// must be machine-made and no word; after a flag, whose meaning varies by command, it must also
/// look like a secret on its own (``looksLikeSecretOnItsOwn(_:)``) unless it is quoted.
extension SecretScan {
    /// A line that names a network (`Network:`, `SSID:`, `WLAN:`, `Wi-Fi name:`), as a Wi-Fi card,
    /// a router's sticker or a hotel's welcome sheet shows it.
    static let networkNameLine = TextMatcher(#"(?im)^[ \t]*(?:(?:wi-?fi|wireless|wlan)[ \t]+)?(?:network(?:[ \t]+name)?|ssid|wlan|wi-?fi(?:[ \t]+name)?)[ \t]*[:：]"#)
    /// A `Key:` line: its value runs to the line's end.
    static let keyLine = TextMatcher(#"(?im)^[ \t]*(?:network[ \t]+|wi-?fi[ \t]+|wlan[ \t]+)?key[ \t]*[:：][ \t]*(\S[^\n]{0,127}?)[ \t]*$"#)

    /// The key of a network named on the line before it (`Network: CafeNord` /
    /// `Key: 8nf*YtoyPGB`): a bare `Key:` names too much, but a network's key is its password.
    func networkKeys() -> [Secret] {
        guard mentions("key"), mentions("network", "ssid", "wlan", "wifi", "wi-fi", "wireless") else { return [] }
        let names = Self.networkNameLine.matches(in: searchable)
        guard !names.isEmpty else { return [] }
        return Self.keyLine.matches(in: searchable).compactMap { match in
            guard let range = match.range(1), let value = match[1],
                  names.contains(where: { $0.start < match.start && match.start - $0.start <= 256
                      && utf8[$0.start..<match.start].filter { $0 == 0x0A }.count == 1 }),
                  Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, "Wi-Fi", range.lowerBound, range.upperBound)
        }
    }

    /// A list's item of one random token (`- WJKY40uv…`), maybe quoted; OCR may read its dash as
    /// `~`, `—`, `–`, `*`, `•` or `=` (round 163's 3617), split the token up to three times and read a glyph of it as junk
    /// (`- suV@H12yOfbaMIU7w4pRt JMpWPLZ13xA`, `…Ji2né6`). Group 2 the token.
    static let tokenListItem = TextMatcher(#"(?m)^[ \t]*"# + listDash + #"[ \t]+(["']?)([A-Za-z0-9+/=_\-.~@$!|\x{80}-\x{FFFF}]{1,256}(?: [A-Za-z0-9+/=_\-.~@$!|\x{80}-\x{FFFF}]{1,256}){0,3})\1[ \t]*$"#)
    /// A list's dash as OCR may read it (``tokenListItem``, ``anyListItem``).
    static let listDash = #"(?:-|~|—|–|\*|•|=)"#
    /// A list's item of any kind, and a mapping's key alone on its line (`secrets:`, `cookie:`,
    /// `"api_keys":`; group 1 the key).
    static let anyListItem = TextMatcher(#"^[ \t]*"# + listDash + #"[ \t]+\S"#)
    static let bareMappingKey = TextMatcher(#"^[ \t]*["']?([A-Za-z_][A-Za-z0-9_.\-]{0,63})["']?[ \t]*:[ \t]*$"#)

    /// Random tokens listed under a key that names secrets (Ory Kratos' `secrets:` / `cookie:` /
    /// `- …`, an `api_keys:` list): above the item, only other items and keys alone on their lines
    /// up to that key, six lines at most (OCR drops the indentation that would say which key holds
    /// the list; a key that names a secret in the plural, `secrets`, `api_keys`, names one). A
    /// list of names (Compose's `secrets:` / `- db_password`) holds no random token. Round 163.
    func secretListItems() -> [Secret] {
        guard mentions("secret", "key", "token", "pass", "credential"), mentions("- ", "~ ", "— ", "– ", "* ", "• ") else { return [] }
        var found: [Secret] = []
        for match in Self.tokenListItem.matches(in: searchable) {
            // (An item that is a setting, `- password=…` of Kustomize's `literals:`, is its name's.)
            guard let value = match[2], let range = match.range(2), Self.settingStart.firstMatch(in: value) == nil,
                  // (OCR may read every digit of it as a letter: `AkoFfIOamEDyzRfvYIWQ…`.)
                  case let squeezedValue = Self.withoutOCRJunk(value.filter { $0 != " " }),
                  Self.isRandomToken(squeezedValue) || Self.isRandomLetters(squeezedValue),
                  // (A scrap of four letters at most may read as a word, not the first piece: `…HIN7 lwe`.)
                  !value.contains(" ") || !utf8[range.lowerBound..<range.upperBound].split(whereSeparator: Self.isSpace)
                    .contains(where: { isSentenceWord(($0.startIndex, $0.endIndex)) && ($0.startIndex == range.lowerBound || $0.count > 4) }) else { continue }
            if isUnderAKeyNamingSecrets(match.start, lines: 6, overOtherKeys: true, passing: { line, _ in Self.anyListItem.firstMatch(in: line) != nil }) {
                found.append(secret(.apiKey, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    /// Whether a key alone on its line that names secrets (a plural names one: `secrets`,
    /// `api_keys`) stands above the line that starts at `start`, `lines` lines up at most, each line
    /// between `passing` (given the line and where it starts); a key alone that names nothing is
    /// passed over only when `overOtherKeys` (a list's `cookie:` under `secrets:`).
    func isUnderAKeyNamingSecrets(_ start: Int, lines: Int, overOtherKeys: Bool, passing: (String, Int) -> Bool) -> Bool {
        var start = start
        for _ in 0..<lines {
            guard start > 0 else { return false }
            let above = lineStart(of: start - 1, atMost: 256)
            guard above == 0 || Self.isLineBreak(utf8[above - 1]) else { return false }
            let line = slice(above, start - 1)
            if let key = Self.bareMappingKey.firstMatch(in: line)?[1] {
                let plural = key.count > 4 && key.hasSuffix("s")
                if Self.secretName(key) != nil || plural && Self.secretName(String(key.dropLast())) != nil { return true }
                guard overOtherKeys else { return false }
            } else if !passing(line, above) {
                return false
            }
            start = above
        }
        return false
    }

    /// A mapping's entry whose value is one token, maybe quoted (group 1 the key, 2 the value):
    /// PeerTube's `  peertube: '…'`. (OCR may curl or double a quote, lose the closing one or put
    /// a space before it, split the token four times and read a `0` of it as `@`: `'‘be5c…'`,
    /// `'…bdab6 261 ed4f…'`, `'…e6 '`, `‘ef f2fe…`, `…5da@bd12…`.)
    static let tokenMappingEntry = TextMatcher(#"(?m)^[ \t]*["'‘’“”]?([A-Za-z_][A-Za-z0-9_.\-]{0,63})["'‘’“”]?[ \t]*:[ \t]+["'‘’“”]{0,2}([A-Za-z0-9+/=_\-.~@]{1,256}+(?: [A-Za-z0-9+/=_\-.~@]{1,256}+){0,4})[ \t]?["'‘’“”!]{0,2}[ \t]*$"#)

    /// Whether a ``tokenMappingEntry``'s value (from `start` to `end`, as OCR split it) is one random
    /// token of 16+: no piece but the first a word of more than four letters (`…HIN7 lwe`).
    func isTokenMappingValue(_ start: Int, _ end: Int) -> Bool {
        let pieces = utf8[start..<end].split(whereSeparator: Self.isSpace)
        guard !pieces.dropFirst().contains(where: { isSentenceWord(($0.startIndex, $0.endIndex)) && $0.count > 4 }),
              case let value = Self.withoutOCRJunk(squeezed(start, end)), value.count >= 16 else { return false }
        return Self.isRandomToken(value)
    }

    /// Random tokens as the values of a mapping under a key that names secrets (PeerTube's `secrets:`
    /// / `  peertube: '…'`): right under it, or under entries of random tokens too, four lines at
    /// most (OCR drops the indentation that says which key holds them, so an entry of another kind
    /// between says the key's mapping may have ended). Round 164.
    func secretMappingValues() -> [Secret] {
        guard mentions("secret", "key", "token", "credential"), mentions(":") else { return [] }
        var found: [Secret] = []
        for match in Self.tokenMappingEntry.matches(in: searchable) {
            // (Not a value its key says is public or encrypted: Travis' and AppVeyor's `secure: …`
            // under a variable's name is its ciphertext.)
            guard let range = match.range(2), let key = match[1], isTokenMappingValue(range.lowerBound, range.upperBound),
                  !Self.nameWords(key).contains(where: { Self.wordsAboutAPublicValue.contains($0) || ["secure", "encrypted", "ciphertext"].contains($0) }) else { continue }
            let underSecrets = isUnderAKeyNamingSecrets(match.start, lines: 4, overOtherKeys: false) { line, above in
                guard let sibling = Self.tokenMappingEntry.firstMatch(in: line)?.range(2) else { return false }
                return isTokenMappingValue(above + sibling.lowerBound, above + sibling.upperBound)
            }
            if underSecrets { found.append(secret(.apiKey, nil, range.lowerBound, range.upperBound)) }
        }
        return found
    }

    /// `-p`, `-P` (zip's), `-a` (redis-cli's), `--pass` and the like, then spaces: what follows may
    /// be a password; also the one after a user name given with Windows' `/user:` (`net use Z:
    /// \\server\share /user:ACME\ana …`), and Windows' `/P` or `/RP` right after a `/U` or `/RU`
    /// user (`schtasks … /RU ACME\svc /RP …`). (OCR may read a flag's `-` as a dash, or as a
    /// `-` and a dash: `-—p '…'`; round 134.)
    static let spacedPasswordFlag = TextMatcher(#"(?:(?<=\s)|^)(?:(?:-|-?[—–])(?:p|P|a|pw|pass|-pass|-passwd)|/(?i:user|u): ?[^\s/]+|/(?i:r?p))[ \t]+"#)

    /// Passwords after a flag and a space, 8+ characters. A port (`-p 8080:80`), a path (`mkdir
    /// -p src/app`), a file (`git add -p Package.swift`, `cp -a Photos2024`), an architecture (`-a
    /// x86_64`), a revision (`git log -p HEAD~3`), a shell's variable or assignment (`test $a -a
    /// $b`, `declare -a foo=(1 2)`) or another flag is none.
    func spacedFlagPasswords() -> [Secret] {
        guard mentions(" -p ", " -a ", " -pw ", " -pass ", " --pass ", " --passwd ", "/user:", "/u:", " /p ", " /rp ", "—p ", "–p ") else { return [] }
        return Self.spacedPasswordFlag.matches(in: searchable).compactMap { match in
            // A value may start with `-` when it is no flag (`-1VemYh#1DDfGLP`: ``isMachineMade(_:_:)``);
            // after Windows' `/user:NAME`, whose options start with `/`, it is never one (`-Nq9IsM9pwi9`).
            let windows = match.text.hasPrefix("/")
            // Windows' `/P` and `/RP` are a password's only after a user's `/U` or `/RU` (`xcopy /P` prompts).
            let windowsPassword = windows && !match.text.contains(":")
            // So after `-u NAME -p` (`dotnet nuget add source … -u admin -p kqJFWmee6PASSHK`): a user, then their password.
            let userBefore = (match.text.drop(while: { "-—–".contains($0) }).hasPrefix("p") || windowsPassword)
                && Self.userFlagBefore.firstMatch(in: slice(lineStart(of: match.start, atMost: 120), match.start)) != nil
            if windowsPassword, !userBefore { return nil }
            // (After `-u NAME -p`, a piece of one `-` and 8+ machine-made characters with letters and
            // digits is the password, which a flag's parser takes as the option's value, not a
            // flag no tool has: `podman login -u ci -p -fifpuje2dHYJ9`; `-p -e "…"`, `-p -h db-03` stay.)
            if userBefore, !windows, match.end + 1 < utf8.count, utf8[match.end] == 0x2D, utf8[match.end + 1] != 0x2D,
               let dashed = piece(from: match.end, maximumSpaces: 0), dashed.end - dashed.start >= 9, isMachineMade(dashed.start + 1, dashed.end),
               case let rest = utf8[(dashed.start + 1)..<dashed.end], rest.contains(where: { (0x30...0x39).contains($0) }), rest.contains(where: Self.isLetter),
               !rest.contains(0x3D), Self.isPasswordValue(slice(dashed.start, dashed.end), quoted: false) {
                return secret(.password, nil, dashed.start, dashed.end)
            }
            guard let (valueStart, valueStop, quoted) = separateValue(after: match.end, dashStartsIt: windows) else { return nil }
            var start = valueStart, end = valueStop
            // (OCR may put a space after the opening quote, or read a `_` that starts the value as
            // one: `-p ' 4cSjpD@05D1Yt'`; a space before the quote that closes it is the line's.)
            if quoted {
                while start < end, Self.isSpace(utf8[start]) { start += 1 }
                while end > start, Self.isSpace(utf8[end - 1]) { end -= 1 }
            }
            // (A UUID OCR split before a `-` of its own is the value whole: `saucectl configure -u ana -a
            // ff621974-8d06-058f -de5a-…`; round 156.)
            if !quoted, let uuid = uuidEnd(from: start), uuid > end { end = uuid }
            guard let first = piece(from: start, maximumSpaces: 0) else { return nil }
            // A port mapping OCR misread (`-p 4559:8@ nginx:1.25.3`) starts with digits: a
            // password's first piece holds letters. (Unless OCR split the password after a symbol
            // near its start, `-p 6! JWuLSwQh%g`: a scrap of three characters at most that starts
            // with a letter or digit, then holds a symbol and no `:`, then the letters; not a flag,
            // `-e`, nor an operator, `&&`, `+`.)
            let scrap = utf8[first.start..<first.end], value = squeezed(start, end)
            let splitAfterSymbol = scrap.count <= 3 && Self.isAlphanumeric(scrap[scrap.startIndex]) && !scrap.contains(0x3A)
                && scrap.contains(where: { !Self.isAlphanumeric($0) })
            // (Quoted, a first piece of digits is the password's when OCR split it, `'24 ptvMySJ&'` with its
            // `_` read as a space: no `:` of a port mapping.)
            let quotedSplit = quoted && !value.contains(":") && utf8[start..<end].contains(where: Self.isSpace)
            guard scrap.filter(Self.isLetter).count >= 2 || (splitAfterSymbol || quotedSplit) && value.filter(\.isLetter).count >= 4 else { return nil }
            // A `/` makes a path, unless symbols no path holds are around it (`KK-m1#cw/7OD…`: OCR read one).
            // (`rsync -a ana@nas:/backup/` is a path.)
            // (Nor is one `/` inside a literal quoted after a user's flag, when without it the literal
            // looks like a secret on its own: `-u root -p 'iW/qwefw7Ek'`, a `7` OCR read as `/`; nor,
            // unquoted, after Windows' `/user:NAME`, where a path is written with `\`:
            // `/user:ACME\ana Bp/ie98w8ef`, a `^` OCR read as `/`; round 149.)
            let slashInsideLiteral = (quoted && userBefore || windows) && value.filter({ $0 == "/" }).count == 1 && !value.hasPrefix("/")
                && !value.hasSuffix("/") && Self.looksLikeSecretOnItsOwn(value.replacingOccurrences(of: "/", with: ""))
            let path = value.contains("/") && !slashInsideLiteral && (value.filter { $0 == "/" }.count > 1 || !value.contains(where: { "!#$%^&*?+".contains($0) }))
            // (After a user's flag a quoted literal is the password even when short, `-u svc -p 'QwU4k_8'`:
            // six characters or more, letters and digits mixed, no `:` of a port mapping.)
            let shortAfterUser = quoted && userBefore && value.count >= 6 && !value.contains(":")
                && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
            guard value.count >= 8 || shortAfterUser, !path, !value.hasPrefix("HEAD"), Self.fileName.matches(in: value).isEmpty,
                  Self.shellWord.matches(in: value).isEmpty, Self.isPasswordValue(value, quoted: false) else { return nil }
            // Quoted in one piece, a literal the command is given (`sshpass -p 'wajGTa-9tfix'`);
            // else it must look like a secret on its own.
            // After Windows' `/user:NAME` the next word is the password (`PREM-9kH_6o`): letters and
            // digits mixed will do; so after a user's flag (``userBefore``).
            let afterUser = (windows || userBefore) && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
            guard quoted && !value.contains(" ") || afterUser || Self.looksLikeSecretOnItsOwn(value) else { return nil }
            return secret(.password, nil, start, end)
        }
    }

    static let fileName = TextMatcher(#"^[\w\-]+\.[A-Za-z0-9]{1,5}$"#)
    /// A user's name given with `-u` or `--user`, right before a `-p` (or Windows' `/U`, `/RU` before `/P`, `/RP`).
    static let userFlagBefore = TextMatcher(#"(?:^|[ \t])(?:-u|-U|--user(?:name)?|/(?i:r?u))[ \t=]+[^\s\-/][^\s]{0,63}[ \t]+$"#)
    /// What a shell expands or assigns, not a literal: `$condition`, `${X}`, `$(cmd)`, `foo=(1 2)`.
    static let shellWord = TextMatcher(#"\$[A-Za-z_{(]|^[A-Za-z_]\w*="#)

    /// The value after `index` on its line, and whether it was quoted: to its closing quote, else a
    /// piece and the machine-made pieces OCR split from it. An opening quote without a closing one
    /// on the line (`-p “OV1WV…`: a symbol OCR read as a quote) starts a piece like any other character.
    func separateValue(after index: Int) -> (start: Int, end: Int, quoted: Bool)? {
        guard let (start, end, quoted) = value(after: index), end > start else { return nil }
        guard quoted else {
            // A shell's operator ends a command's value (`-p MyProject2 && cp -a …`).
            var stop = start
            while let next = piece(from: stop), next.end <= end, stop == start || !isShellOperator(next) { stop = next.end }
            return startsMachineMade(start, stop) ? (start, stop, false) : nil
        }
        if end < utf8.count, quoteLength(at: end) > 0 { return (start, end, true) }
        // The opening glyph belongs to the value: it was one of its characters.
        var first = start
        while first > index, !Self.isSpace(utf8[first - 1]) { first -= 1 }
        guard let piece = piece(from: first, maximumSpaces: 0) else { return nil }
        let stop = valueEnd(from: piece.end)
        return startsMachineMade(first, stop) ? (first, stop, false) : nil
    }

    /// ``separateValue(after:)`` where no flag can come: when `dashStartsIt`, a `-` at `index`
    /// is the value's first character, not a flag's; so are the two or three a value may start
    /// with (`/SourcePassword:--Yp2lIBE`).
    func separateValue(after index: Int, dashStartsIt: Bool) -> (start: Int, end: Int, quoted: Bool)? {
        guard dashStartsIt, index < utf8.count, utf8[index] == 0x2D else { return separateValue(after: index) }
        var rest = index + 1
        while rest < utf8.count, rest - index < 3, utf8[rest] == 0x2D { rest += 1 }
        return separateValue(after: rest).map { (index, $0.end, $0.quoted) }
    }

    /// A piece made only of `&`, `|`, `;`, `<` and `>` (`&&`, `||`, `|`, `;`, `>`).
    func isShellOperator(_ piece: (start: Int, end: Int)) -> Bool {
        utf8[piece.start..<piece.end].allSatisfy { [0x26, 0x7C, 0x3B, 0x3C, 0x3E].contains($0) }
    }

    /// Whether a value of 8+ characters (or `minimumLength`) holds capitals, small letters and digits (`Cw9MI-lTBU`).
    static func mixesCapitalsSmallAndDigits(_ value: String, minimumLength: Int = 8) -> Bool {
        value.count >= minimumLength && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase) && value.contains(where: \.isNumber)
    }

    /// Whether a value with no `=` or `:` before it is a secret by its look alone: 6+ characters
    /// with a letter, and a symbol other than `_ - . :` (which names and versions hold), or
    /// capitals, small letters and digits switching again and again (`9h2ZyXT9nfis1a`: 9 times)
    /// as no name does (`Report2024v2`, `MyProject2`: 4); never a number, a date or a time.
    static func looksLikeSecretOnItsOwn(_ value: String) -> Bool {
        guard value.count >= 6, value.contains(where: \.isLetter) else { return false }
        if value.contains(where: { !$0.isLetter && !$0.isNumber && !"_-.:".contains($0) }) { return true }
        func kind(_ c: Character) -> Int { c.isUppercase ? 1 : c.isLowercase ? 2 : c.isNumber ? 3 : 0 }
        let switches = zip(value, value.dropFirst()).filter { kind($0) != 0 && kind($1) != 0 && kind($0) != kind($1) }.count
        return switches >= 5
    }

    /// A tool's `New value:` line (Elasticsearch's `elasticsearch-reset-password`: `Password for the
    /// [elastic] user successfully reset.` / `New value: …`): a value whose label is generic.
    static let genericValueLabel = TextMatcher(#"(?im)^[ \t]*(?:new[ \t]+)?value[ \t]*:[ \t]*(?=\S)"#)

    /// The value after a generic `New value:` label when one of the two lines above names a password
    /// (or a secret or token: then a key): machine-made, 6+ characters, alone on its line.
    func valuesUnderNamingSentences() -> [Secret] {
        guard mentions("value:", "value :"), mentions("pass", "secret", "token") else { return [] }
        return Self.genericValueLabel.matches(in: searchable).compactMap { match in
            let above = linesAbove(match.start, 2).lowercased()
            let kind: SecretKind
            if ["password", "passphrase", "passwort"].contains(where: above.contains) {
                kind = .password
            } else if ["secret", "token"].contains(where: above.contains) {
                kind = .apiKey
            } else { return nil }
            // The value is alone on its line: a `-` starts it (`New value: -eF=fMveV3…`), and the
            // pieces OCR split it into (`4wViy8g7Q4S -w76VNK3L`, four at most) run to the line's end.
            guard let (start, first, quoted) = separateValue(after: match.end, dashStartsIt: true) else { return nil }
            let end: Int
            if quoted {
                var rest = first
                while rest < utf8.count, Self.isSpace(utf8[rest]) { rest += 1 }
                guard rest == utf8.count || Self.isLineBreak(utf8[rest]) else { return nil }
                end = first
            } else {
                guard let pieces = piecesToLineEnd(from: start, atMost: 4, maximumSpaces: 2), let last = pieces.last else { return nil }
                end = last.end
            }
            let value = squeezed(start, end)
            guard value.count >= 6, value.count <= 128, Self.isPasswordValue(value, quoted: false),
                  Self.looksLikeSecretOnItsOwn(value) || Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
            return secret(kind, nil, start, end)
        }
    }

    /// A label alone on its line, as a password manager or a key's dialog shows one above its value.
    static let labelAloneOnItsLine = TextMatcher(
        #"(?im)^[ \t]*(password|passwort|passcode|passphrase|wi-?fi password|mot de passe|contraseña|kennwort|senha|wachtwoord|пароль|secret key|api key|access token|token|stream key)[ \t]*(?:\([^()\n]{1,40}\))?[ \t]*[:.]?[ \t]*$"#)

    /// A stream key in five groups of four small letters and digits (YouTube's).
    static let groupedStreamKey = TextMatcher(#"^[a-z0-9]{4}(?:-[a-z0-9]{4}){4}$"#)

    /// The value on the line under a label that stands alone; the line holds nothing else.
    func valuesUnderLabels() -> [Secret] {
        guard mentions("pass", "secret", "api key", "token", "kennwort", "contrase", "senha", "wachtwoord", "ароль", "stream key") else { return [] }
        return Self.labelAloneOnItsLine.matches(in: searchable).compactMap { match in
            guard let label = match[1]?.lowercased() else { return nil }
            var next = match.end
            while next < utf8.count, Self.isLineBreak(utf8[next]) { next += 1 }
            while next < utf8.count, Self.isSpace(utf8[next]) { next += 1 }
            // A password may start with `-` or `_`, which alone on a line starts no flag.
            var lead = next
            while lead < utf8.count, utf8[lead] == 0x2D || utf8[lead] == 0x5F { lead += 1 }
            guard next > match.end, lead - next <= 2 else { return nil }
            // (Or the line's pieces, when the first alone is not the line: `Vhe J6quj -d2ub`.)
            let endsTheLine = { (end: Int) in
                var rest = end
                while rest < self.utf8.count, Self.isSpace(self.utf8[rest]) { rest += 1 }
                return rest == self.utf8.count || Self.isLineBreak(self.utf8[rest])
            }
            var located = separateValue(after: lead)
            if next == lead, located.map({ $0.start != lead || !endsTheLine($0.end) }) ?? true, let split = splitLineValue(from: lead) { located = split }
            guard let (found, end, _) = located, endsTheLine(end) else { return nil }
            let start = found == lead ? next : found
            let value = squeezed(start, end)
            let isKey = ["secret key", "api key", "access token", "token", "stream key"].contains(label)
            if isKey {
                // (A stream key may be groups of small letters and digits: `1mu4-vvxo-rq2i-…`; YouTube's
                // five groups of four are one whatever OCR read, `htxo-zv80-f001-p3cz-nynh`.)
                guard Self.isRandomToken(Self.withoutOCRJunk(value))
                        || label == "stream key" && value.count >= 16 && (Self.looksLikeSecretOnItsOwn(value) || Self.groupedStreamKey.firstMatch(in: value) != nil && value.contains(where: \.isNumber)) else { return nil }
                return secret(.apiKey, nil, start, end)
            }
            // The label says what it is: one machine-made piece (``separateValue(after:)``) that is
            // no word will do (`UHGOJPlqDOgcpDP-`, whose digits OCR read as letters).
            guard value.count >= 6, Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, nil, start, end)
        }
    }

    /// The line from `start` as one value OCR split (`Vhe J6quj -d2ub` under a password manager's
    /// `Password`; round 153): two to four pieces a space apart to the line's end, none of 4+
    /// characters a word of a sentence (`Vhe` may read as one), 8 to 64 characters together that look like a secret on their own or mix
    /// capitals, small letters and digits. Nil otherwise.
    func splitLineValue(from start: Int) -> (start: Int, end: Int, quoted: Bool)? {
        guard let pieces = piecesToLineEnd(from: start, atMost: 4, maximumSpaces: 1), pieces.count >= 2, let first = pieces.first, let last = pieces.last,
              first.start == start, !pieces.contains(where: { $0.end - $0.start >= 4 && isSentenceWord($0) }), case let value = squeezed(first.start, last.end), (8...64).contains(value.count),
              Self.looksLikeSecretOnItsOwn(value) || Self.mixesCapitalsSmallAndDigits(value) else { return nil }
        return (first.start, last.end, false)
    }

    /// A password label, up to five words, then a colon, or an arrow or a dash standing alone
    /// between spaces, which OCR may read as any one or two symbols: `new password for the NAS →
    /// …` (`—`, `=`, `+`, `~`, `>`), `password for guests: …`, `passwd for the kiosk is (now) …`. A
    /// symbol against a word is part of it (`password reset for ana.souza@…`, `password is not
    /// taken from ~/.cvspass`); a word may be an address (MySQL's log: `A temporary password is
    /// generated for root@localhost: …`; qBittorrent's `A temporary password is provided for this
    /// session: …`). `pass` counts only as `pass for … is …`.
    static let labelWordsThenArrow = TextMatcher(
        #"(?i)(?<![A-Za-z])(password|passwort|passwd|passcode|pw|pwd|pass(?=[ \t]+for[ \t]))((?:[ \t]+[A-Za-z][A-Za-z'’\-]*(?:[@.][A-Za-z0-9\-]+)*){1,5}?)(?:[ \t]*:|[ \t]+(->|=>|is(?:[ \t]+now)?|[^\sA-Za-z0-9]{1,2})(?=[ \t]))[ \t]*"#)

    func passwordsAfterWords() -> [Secret] {
        guard mentions("pass", "pw") else { return [] }
        return Self.labelWordsThenArrow.matches(in: searchable).compactMap { match in
            // A bare `pass` names many things (`Boarding pass for LH 123: 8F3K2Q`): only `pass for
            // the NAS is …` says it is the password.
            if match[1]?.lowercased() == "pass", match[3]?.lowercased().hasPrefix("is") != true { return nil }
            // (Or one piece that ends the line and looks like a secret on its own, whatever symbol
            // it starts with: MySQL's generated `:+;Gw=cguQz9`; round 151.)
            guard let (start, end, _) = separateValue(after: match.end) ?? loneSecretEndingLine(after: match.end) else { return nil }
            let value = squeezed(start, end)
            // The label vouches for a machine-made value with a letter (`ndlpt30Y_r`), as under a label alone.
            // (After `is`, an address or a path is where it is kept: `password for root is in /etc/…`.)
            guard value.count >= 6, value.contains(where: \.isLetter), !Self.isPathLike(value), Self.isPasswordValue(value, quoted: false) else { return nil }
            return secret(.password, nil, start, end)
        }
    }

    /// The one piece after `index` when it ends its line, is 8 to 64 characters and looks like a
    /// secret on its own (``looksLikeSecretOnItsOwn(_:)``).
    func loneSecretEndingLine(after index: Int) -> (start: Int, end: Int, quoted: Bool)? {
        guard let piece = piece(from: index, maximumSpaces: 1), (8...64).contains(piece.end - piece.start),
              self.piece(from: piece.end, maximumSpaces: .max) == nil,
              Self.looksLikeSecretOnItsOwn(slice(piece.start, piece.end)) else { return nil }
        return (piece.start, piece.end, false)
    }

    /// Whether a value with a `/` is a path or a link rather than a password that holds one
    /// (MySQL's generated `szEQ0J/c3h3M`): it starts at a root, a home or a dot, holds two or more
    /// `/` or a `://`, or one of its parts is a word or a file's name (`bin/tool`, `docs/notes.md`).
    static func isPathLike(_ value: String) -> Bool {
        guard value.contains("/") else { return false }
        if value.hasPrefix("/") || value.hasPrefix("~") || value.hasPrefix(".") || value.contains("://")
            || value.filter({ $0 == "/" }).count > 1 { return true }
        // (A symbol no file's name holds makes its one `/` a password's: MySQL's `ocq/MN6M%)ip`; round 151.)
        if value.contains(where: { "%()!*#^;=?&$<>|\"'`,".contains($0) }) { return false }
        return value.split(separator: "/").contains { part in
            part.allSatisfy(\.isLetter) || fileName.firstMatch(in: String(part)) != nil
        }
    }

    /// A value that starts its line, then an arrow or a dash standing alone that points back at it
    /// (OCR may read `←` as `—`, `+` or `<`), then up to five words that end the line with a word
    /// for a password: a chat's `… ← that's the new root pw`, a note's `… <- wifi password`.
    static let valueThenArrowToPassword = TextMatcher(
        #"(?im)^[ \t]*(\S{6,64})[ \t]+(?:←|⟵|<-{1,2}|[—–+<=~-]{1,2})[ \t]+(?:[A-Za-z'’]+[ \t]+){0,5}(?:password|passwd|passcode|pwd|pw)[ \t]*[.!)]?[ \t]*$"#)

    /// The value of a ``valueThenArrowToPassword`` line: nothing ties it to its label but the
    /// arrow, so it must look like a secret on its own (``looksLikeSecretOnItsOwn(_:)``).
    func passwordsBeforeArrows() -> [Secret] {
        guard mentions("pass", "pw") else { return [] }
        return Self.valueThenArrowToPassword.matches(in: searchable).compactMap { match in
            guard let range = match.range(1), let value = match[1], Self.isPasswordValue(value, quoted: false),
                  Self.looksLikeSecretOnItsOwn(value), !value.contains("/") else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    /// Labels a note or a router's sticker puts before a password, often without a colon: `pw`,
    /// a Wi-Fi key in other languages (`WLAN-Schlüssel`, `Clé WPA`, `Clave WiFi`, `Chiave di rete`,
    /// `Contraseña de la red`, `Senha do Wi-Fi`), and `wifi` with a colon (`wifi (upstairs): …`,
    /// where without one it names the network). `pw` is a word of its own: in base64 (`…K8p/Pw]pvO…`)
    /// it is none.
    static let looseLabel = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:(?<![/+.])pw(?=[ \t:=：])|(?:wlan|wifi|wi-fi|netzwerk)-?schl(?:ü|u|ii|i)ssel|cl[ée] (?:de s[ée]curit[ée](?: r[ée]seau)?|wpa2?|wi-?fi)|clave (?:wpa2?|wi-?fi|de (?:la )?red)|chiave (?:di rete|wpa2?|wi-?fi)|contrase\p{L}{1,3}a de (?:la )?red|senha (?:do|da) (?:wi-?fi|rede)|wi-?f[il1t](?:[ \t]*\([^)\n]{1,24}\))?(?=[ \t]*:))(?![A-Za-z])[ \t]*[:=：]?[ \t]*"#)

    /// The value after a ``looseLabel``: no `=` ties it to the label, so it must look like a
    /// secret on its own (``looksLikeSecretOnItsOwn(_:)``) or be quoted; after a label that names
    /// a Wi-Fi key, letters and digits mixed will do (`Pf_1HbdgJD`).
    func passwordsAfterLooseLabels() -> [Secret] {
        guard mentions("pw", "schl", "clé", "cle ", "clave", "chiave", "contrase", "senha", "wif", "wi-f") else { return [] }
        return Self.looseLabel.matches(in: searchable).compactMap { match in
            guard let (start, end, quoted) = separateValue(after: match.end, dashStartsIt: true) else { return nil }
            let value = squeezed(start, end), label = match.text.lowercased()
            // (`pw = …` and `pw: …` are the password rule's: it knows code's calls, `$pw = ConvertTo-SecureString …`.)
            if label.hasPrefix("pw"), label.contains(where: { $0 == "=" || $0 == ":" }) { return nil }
            // `wifi:` alone starts many a line (`wifi: mt76: add support for …`, a changelog's): a
            // note's value is the last thing on its line.
            if label.hasPrefix("wi"), !label.contains("("), !label.contains("schl"), piece(from: end, maximumSpaces: .max) != nil || value.contains(":") { return nil }
            let namesAKey = !label.hasPrefix("pw") && !(label.hasPrefix("wi") && !label.contains("schl"))
            let mixed = value.count >= 8 && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
            // (After `pw`, capitals, small letters and digits mixed will do too, the last thing on
            // its line as a note's value is, `# pw hDMTYOC93BTm`: no word, name or size has all
            // three; `doveadm pw -s SHA512-CRYPT -p …` is a command's.)
            let mixedCases = mixed && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase)
                && piece(from: end, maximumSpaces: .max) == nil
            guard value.count >= 6, !value.contains("/"), Self.isPasswordValue(value, quoted: quoted),
                  quoted || Self.looksLikeSecretOnItsOwn(value) || namesAKey && mixed || label.hasPrefix("pw") && mixedCases else { return nil }
            return secret(.password, nil, start, end)
        }
    }

    /// A key or token in a sentence (a chat's `token for the bot → …`, `use this key for staging …`,
    /// `staging api key is …`): a word for one, up to four words, an arrow, a colon, `is` or a
    /// space, then the value. (OCR may read the arrow as a `-`, and a glyph inside the value as
    /// junk, `…XUIOl]VOk…`: round 149.) The words are loose cues, so the value must be clearly random
    /// (``isClearlyRandom(_:)``: 24+ characters mixing cases and digits) and of a token's alphabet
    /// (a fingerprint's `SHA256:…+/…` is none), and no public or host key is meant. (Its first piece
    /// may be short where OCR split it, 6+ characters with a digit, as no word has: `civo apikey save
    /// acme scicIPAJH1s LaNa…`; round 157.)
    static let keyInASentence = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:api[ _\-]?key|key|token|secret)(?![A-Za-z])((?:[ \t]+[A-Za-z][A-Za-z'’\-]*){0,4}?)[ \t]*(→|->|=>|:|=|\bis\b|["#
        + sentenceArrows + #"]{1,2}(?=[ \t])|(?=[ \t]))[ \t]*(?=[A-Za-z0-9_\-@}{\]\[)(|!]{12}|(?=[A-Za-z_\-@]{0,10}[0-9])[A-Za-z0-9_\-@]{6,11}[ \t][A-Za-z0-9_\-@]{6})"#)
    /// What OCR makes of an arrow standing alone in ``keyInASentence``, one or two of them (`—`,
    /// `~`, `-`): one list for the pattern's character class (`-` last, so it is no range there)
    /// and for the check of what matched.
    static let sentenceArrows = "~—–»>+-"
    static let junkGlyphs: Set<UInt8> = Set("@}{][)(|!$€\\".utf8)
    static let wordsAboutAPublicValue: Set<String> = ["fingerprint", "fingerprints", "id", "hash", "digest", "checksum", "public", "publishable", "host", "pair", "type", "name", "size"]

    /// A quoted value after `key`, `secret` or `token` in a config file (ESPHome's `encryption:` /
    /// `key: "…"`), which OCR split with a space or two, read with a doubled or curly quote, or
    /// in which it read a glyph or three as junk (`…MOxtGf]jO1Ey…`, `…Ri@Kd6nu…`, a `J` as `)`:
    /// `…cOWOn)3j7R…`, round 146).
    static let quotedKey = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])(?:key|secret|token)["'“”‘’]?[ \t]*[:=][ \t]*["'“”‘’]{1,2}([A-Za-z0-9+/=_\-][A-Za-z0-9+/=_\- @}{\]\[|!)(]{18,200}?)["'“”‘’]"#)

    /// The value of a ``quotedKey``: spaces OCR put in it aside, 24+ characters of a key's
    /// alphabet mixing capitals, small letters and digits (`"My Document Title"` is words).
    func quotedKeys() -> [Secret] {
        guard mentions("key", "secret", "token"), mentions("\"", "'", "“", "”", "‘", "’") else { return [] }
        return Self.quotedKey.matches(in: searchable).compactMap { match in
            guard let value = match[1], let range = match.range(1) else { return nil }
            let squeezed = Self.withoutOCRJunk(value.filter { $0 != " " })
            guard value.count - squeezed.count <= 4, squeezed.count >= 24, !value.hasSuffix(" "),
                  value.filter({ Self.junkGlyphs.contains($0.asciiValue ?? 0) }).count <= 3,
                  squeezed.contains(where: \.isUppercase), squeezed.contains(where: \.isLowercase), squeezed.contains(where: \.isNumber),
                  Self.entropy(squeezed) >= 4 else { return nil }
            return secret(.apiKey, nil, range.lowerBound, range.upperBound)
        }
    }

    func keysInSentences() -> [Secret] {
        // (Only on a line that holds a run of 16+ token characters: a clearly random value does.)
        guard !longRuns.isEmpty, mentions("key", "token", "secret") else { return [] }
        return Self.keyInASentence.matches(in: searchable, within: linesWithLongRuns()).compactMap { match in
            let words = (match[1] ?? "").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            // Words between, or an arrow or `is`: a label and a value side by side have rules of their own.
            guard !words.isEmpty || ["→", "->", "=>", "is"].contains(match[2]?.lowercased() ?? "") || match[2].map({ !$0.isEmpty && $0.allSatisfy(Self.sentenceArrows.contains) }) == true,
                  !words.contains(where: Self.wordsAboutAPublicValue.contains) else { return nil }
            // (Nor a public or host key: `public key …`, `ssh host key …`.)
            var before = match.start
            while before > 0, Self.isSpace(utf8[before - 1]) { before -= 1 }
            var wordStart = before
            while wordStart > 0, Self.isLetter(utf8[wordStart - 1]) { wordStart -= 1 }
            guard !Self.wordsAboutAPublicValue.contains(slice(wordStart, before).lowercased()) else { return nil }
            guard let first = piece(from: match.end, maximumSpaces: 0) else { return nil }
            let end = valueEnd(from: first.end, maximumLength: 256)
            let value = squeezed(first.start, end)
            // Letters and digits only (`kfree_sensitive (CVE-2024-50215)` is words and a reference);
            // a glyph OCR misread is no symbol of the value: `…ZhNGyCéwp8…`, `…pmJ` read `…pm)`.
            guard value.utf8.allSatisfy(Self.isTokenLetterOrJunk),
                  Self.isClearlyRandom(Self.withoutOCRJunk(value)) || Self.isRandomLetters(value) else { return nil }
            return secret(.apiKey, nil, first.start, end)
        }
    }

    // MARK: - A password a message gives without naming it

    /// What says a message gives a password it does not name: one was reset, changed or made
    /// (`I reset it, it's now …`, `new one for the shared account: …`), a key for a place (`the key
    /// for Nordlys is …`), a value to use for a login (`use … for the admin panel`).
    static let givenSecretCue = TextMatcher(#"(?i)(?<![A-Za-z])(?:reset|changed|rotated|new one|key for|use)(?![A-Za-z])"#)
    static let givenSecretCueWords = ["reset", "changed", "rotated", "new one", "key for", "use "]
    /// The words after which such a message's value comes: `now`, `is`, `to` (and `use`, the cue).
    static let wordsBeforeAGivenValue: Set<String> = ["now", "is", "to", "use"]
    static let keyCombination = TextMatcher(#"(?i)(?:^|\+)(?:ctrl|control|alt|shift|cmd|command|option|opt|meta|super|win|fn)\+"#)

    /// A chat's message header: a sender's name (one to four words, each with a capital) and the
    /// time, on a line of their own (Slack's `Omar Haddad  10:42 AM`, Teams', Discord's `Omar —
    /// Today at 18:02`); or a line that starts with the time and a name (IRC's and WhatsApp's
    /// exports, `[18:02] <omar>`, `[18:02, 20/11/2026] Omar:`) or ends with the time (a bubble's).
    static let chatHeader = TextMatcher(
        #"(?m)^[ \t]*[A-Z][\p{L}'’.\-]{0,20}(?:[ \t]+[A-Z][\p{L}'’.\-]{0,20}){0,3}[ \t]+(?:[—–\-][ \t]+)?(?:(?:Today|Yesterday)[ \t]+at[ \t]+)?\d{1,2}[:.]\d{2}(?:[ \t]?[AaPp]\.?[Mm]\.?)?[ \t]*$|^[ \t]*\[\d{1,2}:\d{2}(?::\d{2})?(?:,[^\]\n]{1,24})?\][ \t]+<?[\p{L}][\p{L}0-9_.\-]{0,20}(?:[ \t][\p{L}][\p{L}0-9_.\-]{0,20})?>?:?[ \t]|[ \t]\d{1,2}:\d{2}(?:[ \t]?[AaPp][Mm])?[ \t]*$"#)

    /// The value such a message gives (``givenSecretCue``): on a message's line (160 bytes at
    /// most) in a chat (``chatHeader`` on the line or one of the three above it), a piece after
    /// the cue that follows `now`, `is`, `to`, `use` or a colon, shaped as a chosen password
    /// (``isChosenPasswordShape(_:)``). The cue words are loose, so the shape decides: a
    /// booking's or an order's reference (capitals and digits), a version, an address, a path or
    /// an e-mail address is none; and outside a chat they are a changelog's and a manual's words
    /// (`Use cleartext=0 to ensure`, `Closes: Bug#88015`: 454 of 227,588 real texts when any line
    /// would do). (Round 153: the thirteenth pool's chat messages, the last of its leaks.)
    func passwordsInMessages() -> [Secret] {
        guard mentions(anyOf: Self.givenSecretCueWords), holdsATimeOfDay() else { return [] }
        var found: [Secret] = []
        for match in Self.givenSecretCue.matches(in: searchable, within: lines(mentioning: Self.givenSecretCueWords)) {
            let end = lineEnd(of: match.end, atMost: 161)
            let start = lineStart(of: match.start, atMost: 161)
            guard end - start <= 160, isInAChat(lineStart: start, lineEnd: end),
                  let pieces = piecesToLineEnd(from: match.end, atMost: 16, maximumSpaces: .max) else { continue }
            var before = match.text.lowercased()
            for piece in pieces {
                defer { before = slice(piece.start, piece.end).lowercased() }
                guard Self.wordsBeforeAGivenValue.contains(before) || before.hasSuffix(":") else { continue }
                // (A sentence's `.` or `,` after it is no part of it.)
                var valueEnd = piece.end
                while valueEnd > piece.start, ".,".utf8.contains(utf8[valueEnd - 1]) { valueEnd -= 1 }
                let value = slice(piece.start, valueEnd)
                guard Self.isChosenPasswordShape(value), Self.isPasswordValue(value, quoted: false) else { continue }
                found.append(secret(.password, nil, piece.start, valueEnd))
                break
            }
        }
        return found
    }

    /// Whether the text holds a time of day's `d:dd` (or `d.dd`) anywhere: a chat's header does (one pass over
    /// the bytes, before any pattern runs).
    func holdsATimeOfDay() -> Bool {
        guard utf8.count >= 4 else { return false }
        for index in 1..<(utf8.count - 2) where utf8[index] == 0x3A || utf8[index] == 0x2E {
            if (0x30...0x39).contains(utf8[index - 1]), (0x30...0x39).contains(utf8[index + 1]), (0x30...0x39).contains(utf8[index + 2]) { return true }
        }
        return false
    }

    /// Whether the line from `lineStart` to `lineEnd`, or one of the three lines above it, is a
    /// chat's message header (``chatHeader``).
    func isInAChat(lineStart: Int, lineEnd: Int) -> Bool {
        var start = lineStart
        for _ in 0..<3 where start > 0 {
            start = self.lineStart(of: start - 1, atMost: 160)
        }
        return Self.chatHeader.firstMatch(in: slice(start, lineEnd)) != nil
    }

    /// Whether a value has a chosen password's shape: 8 to 64 characters, capitals, small letters
    /// and digits together (or a symbol of a password's and two of those), that looks like a
    /// secret on its own (``looksLikeSecretOnItsOwn(_:)``); no `/`, `.`, `:` or `=` (an address, a
    /// path, a version, a time, a setting), no e-mail address; no handle or tag (`@ana_l92`, `#release2026`),
    /// no keys pressed together (`Ctrl+Shift+P`).
    static func isChosenPasswordShape(_ value: String) -> Bool {
        guard (8...64).contains(value.count), !value.contains(where: { "/.:=".contains($0) }), !value.hasPrefix("@"), !value.hasPrefix("#"),
              keyCombination.firstMatch(in: value) == nil, looksLikeSecretOnItsOwn(value) else { return false }
        let classes = [value.contains(where: \.isUppercase), value.contains(where: \.isLowercase), value.contains(where: \.isNumber)].filter { $0 }.count
        let symbol = value.contains(where: { "!#%&*+-?@^_$~".contains($0) })
        return classes == 3 || classes == 2 && symbol && value.contains(where: \.isLowercase)
    }

    /// A code alone on its line (`482 913`, `48291356`) in an authenticator app's list of accounts.
    static let codeAloneOnItsLine = TextMatcher(#"(?m)^[ \t]*(\d{3}[ \t]?\d{3}|\d{4}[ \t]?\d{4})[ \t]*$"#)

    /// The current codes an authenticator app shows (Google Authenticator, Authy, Microsoft
    /// Authenticator, 2FAS): each a code alone on its line under an account's name.
    func authenticatorCodes() -> [Secret] {
        guard mentions("authenticator", "authy", "2fas") else { return [] }
        return Self.codeAloneOnItsLine.matches(in: searchable).compactMap { match in
            guard let range = match.range(1) else { return nil }
            return secret(.otp, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A webhook's address: whoever has it can post. Slack's, Discord's and Microsoft Teams'
    /// (`….webhook.office.com/webhookb2/…/IncomingWebhook/…`), as OCR may read them (spaces around
    /// the dots and slashes, inside `office`; Discord's `api` as `ap|`).
    static let webhookAddress = TextMatcher(
        #"(?i)(?:hooks ?\. ?slack ?\. ?com ?/ ?services|discord(?:app)? ?\. ?com ?/ ?ap[iIl1|!] ?/ ?webhooks|webhook ?\. ?of ?fice ?\. ?com ?/ ?webhook[bh]2) ?/ ?"#)
    /// The words of a Teams webhook's path, which OCR may split (`Incoming Webhook`).
    static let webhookPathWords: Set<String> = ["incoming", "webhook", "incomingwebhook"]

    /// The path after a webhook's address, taken across the spaces OCR put in it: every piece
    /// to the end of the line or of a quote, or to a word (`TBK Q8UV2P/BY WV XBTY POM/X{Rgr…`:
    /// its identifiers are capitals and digits, as no sentence is).
    func webhookPaths() -> [Secret] {
        guard mentions("hooks", "webhook") else { return [] }
        return Self.webhookAddress.matches(in: searchable).compactMap { match in
            var end = match.end
            while let next = piece(from: end, maximumSpaces: end == match.end ? 0 : 1), next.end - match.end <= 260 {
                let stop = keyPieceEnd(next.start, next.end)
                let word = slice(next.start, stop)
                guard stop > next.start, Self.sentenceWord.matches(in: word).isEmpty
                        || Self.webhookPathWords.contains(word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "/"))) else { break }
                end = stop
                if stop < next.end { break }
            }
            guard squeezed(match.end, end).count >= 20 else { return nil }
            return secret(.apiKey, "webhook", match.end, end)
        }
    }

    /// A word of a sentence: small letters, maybe capitalized, maybe with punctuation after it.
    static let sentenceWord = TextMatcher(#"^[A-Z]?[a-z]{2,}[.,;:!?)]*$"#)

    /// A user name and its password given as a pair after a cue: `staging login is admin / …`,
    /// `creds: ana / …`, `user/pass: ci | …` (OCR reads a `/` as `|`), a space beside the `/`. No
    /// label names the second piece, so it must look like a secret on its own
    /// (``looksLikeSecretOnItsOwn(_:)``) or mix 8+ letters and digits: `login with Google / Apple` is none.
    /// Right after `login is`, `creds:` or `creds` a pair needs no spaces around its `/` (`login is
    /// ops/…`, `staging creds ci/…`). A chat may join the pair with a spaced `+` (`the admin login is
    /// ci + …`), and give a network's name and its key so (`new wifi: Home-5G / …`), or a VPN's
    /// login (`vpn: ops / …`): ``networkPair``.
    static let credentialPair = TextMatcher(
        #"(?i)(?<![A-Za-z_/.\-])(?:(?:log-?in|sign-?in|credentials?|creds|account|admin|user(?:name)?[ \t]*(?:/|and|&)[ \t]*pass(?:word)?)"#
            + pairAfterItsCue + #"|(?:log-?in|credentials?|creds)(?:[ \t]*(?:is|are|:|=)[ \t]*|[ \t]+)[A-Za-z0-9._@\-]{1,32}/(?=[^\s/]))"#)
    /// What follows a pair's cue: a few characters, the user's name (group 1), then the `/` (or `|`,
    /// or a spaced `+`) that sets the pair apart.
    static let pairAfterItsCue = #"(?![A-Za-z_])[^\n/|]{0,24}?[ \t:=]([A-Za-z0-9._@\\\-]{1,64})(?:[ \t]+[/|][ \t]*|[/|][ \t]+|[ \t]+\+[ \t]+)"#
    /// The same pair after a network's cue (``credentialPair``'s first shape): `new wifi: Home-5G / …`,
    /// `vpn: ops / …`; searched only where the text names one (an alternative more in the pattern
    /// above is tried at every position of every text).
    static let networkPair = TextMatcher(#"(?i)(?<![A-Za-z_/.\-])(?:wi-?fi|wlan|vpn)"# + pairAfterItsCue)

    /// A user's name and then a password's word, in a chat's shorthand without colons: `login ops
    /// pass …`, `user admin, pw …`; or a network's name and then its key's word (`guest wifi is
    /// Home-5G, key …`).
    static let userThenPassWord = TextMatcher(
        #"(?i)(?<![A-Za-z_/.\-])(?:(?:log-?in|user(?:name)?)[ \t]*[:=]?[ \t]+[A-Za-z0-9._@\-]{1,32}[ \t]*[,;]?[ \t]+(?:pass(?:word)?|pwd?)|(?:wi-?fi|wlan)(?:[ \t]+is|[ \t]*[:=])?[ \t]+[A-Za-z0-9._@\-]{1,32}[ \t]*[,;]?[ \t]+(?:pass(?:word)?|pwd?|key|psk))[ \t]*[:=]?[ \t]+"#)

    func credentialPairs() -> [Secret] {
        // (A pair is set apart by spaces around its `/`: a path or a link has none.)
        let slashed = mentions("/", "|", " + "), wifi = mentions("wifi", "wi-fi", "wlan"), network = wifi || mentions("vpn")
        let shorthand = mentions("pass", "pw") || wifi && mentions("key", "psk")
        guard slashed || shorthand, network || mentions("log", "sign", "cred", "account", "user", "admin") else { return [] }
        let pairs = slashed ? Self.credentialPair.matches(in: searchable) + (network ? Self.networkPair.matches(in: searchable) : []) : []
        let cues = pairs + (shorthand ? Self.userThenPassWord.matches(in: searchable) : [])
        return cues.enumerated().compactMap { index, match in
            // No flag follows a pair's `/`: a leading `-` is the password's (`ops / -EBuurtsYRx39JU`).
            guard let (start, end, quoted) = separateValue(after: match.end, dashStartsIt: true) else { return nil }
            let value = squeezed(start, end)
            // A path is none (`account for /usr/bin/`, `login.cc chrome/browser/…`).
            // After the pair's cue, 8+ letters and digits mixed will do too (`vrshw1N89D`).
            let mixed = value.count >= 8 && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
            // (After `user X pass`, no `/` sets a pair apart: one inside a random value is the value's,
            // `Hj/nCvoY293Ujt…`, rclone's obscured password; a path starts with one or `~/`, `./`.)
            let slashInside = index >= pairs.count && mixed && !value.hasPrefix("/") && !value.hasPrefix("~/") && !value.hasPrefix("./")
                && Self.looksLikeSecretOnItsOwn(value.replacingOccurrences(of: "/", with: ""))
            guard value.count >= 6, !value.contains("/") || slashInside, Self.fileName.matches(in: value).isEmpty,
                  quoted || mixed || Self.looksLikeSecretOnItsOwn(value), Self.isPasswordValue(value, quoted: quoted) else { return nil }
            // A network's security is no key of it (`Wi-Fi network Home-5G / WPA2-Personal`).
            if case let cue = match.text.prefix(2).lowercased(), cue == "wi" || cue == "wl",
               ["wpa", "wep", "sae", "owe", "802."].contains(where: value.lowercased().hasPrefix) { return nil }
            // (Nor one base64 value OCR split at its `/`, a digest's: ZooKeeper's `getAcl` prints
            // `'digest,'admin:d3nw…USt/CHD6MUpY=`, read `admin: d3nw…USt / CHD6MUpY=`. Its first
            // piece is 16+ characters, and joined, with the `=` padding at the end, it is base64 of
            // a whole number of 4-character groups; or OCR put a letter in it, `7Mwrqg…YL/ ju4q…M=`,
            // and its first piece is random, as no user's name is.)
            if !quoted, let user = match[1], user.count >= 16, value.hasSuffix("="), case let joined = user + "/" + value,
               joined.count % 4 == 0 || Self.isRandomToken(user),
               joined.utf8.allSatisfy({ Self.isAlphanumeric($0) || "+/=".utf8.contains($0) }) { return nil }
            return secret(.password, nil, start, end)
        }
    }

    /// A heading of single-use codes a service gives to get back into an account.
    static let recoveryCodesCue = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:recovery|backup|scratch|emergency|single[\- ]use)[ \t]+(?:codes?|keys?)(?![A-Za-z])"#)
    /// A code of such a list as OCR reads it: letters and digits, maybe in dashed groups
    /// (`079aa-6891d`, `4829 1734`, `XK2P-9QDM`), maybe with a dash or a stop OCR cut from its neighbour,
    /// or a stop it read for the space between two groups (`6944.8311`; round 137).
    static let listedCode = TextMatcher(#"^[\-–—]?[A-Za-z0-9]+(?:[\-–—.][A-Za-z0-9]+)*[\-–—.,;]?$"#)

    /// Recovery (backup) codes: the lines of codes under such a heading (after at most two lines
    /// of prose), or after it on its line, each a one-time code. A line of codes holds nothing but
    /// codes and numbering (`1.`), and a digit; a word ends the list (`Recovery codes: 5 left` /
    /// `Last used 2 days ago` holds none).
    func recoveryCodes() -> [Secret] {
        guard mentions("code", "key") else { return [] }
        var found: [Secret] = []
        // Each line's codes are worked out once and its end found by a binary search: cues close
        // together (`backup codes` said on line after line, or many times in one long line) read
        // the same lines, which would otherwise cost a line's length times the cues.
        let cues = Self.recoveryCodesCue.matches(in: searchable)
        guard !cues.isEmpty else { return [] }
        let breaks = utf8.indices.filter { Self.isLineBreak(utf8[$0]) }
        var codesOnLine: [Int: (start: Int, end: Int)?] = [:]
        func lineEnd(from start: Int) -> Int {
            var low = 0, high = breaks.count // the first line break at or after `start`
            while low < high {
                let middle = (low + high) / 2
                if breaks[middle] < start { low = middle + 1 } else { high = middle }
            }
            return low < breaks.count ? breaks[low] : utf8.count
        }
        for cue in cues {
            var lineStart = cue.end, prose = 0, listed = 0
            while lineStart < utf8.count, listed < 40 {
                let end = lineEnd(from: lineStart)
                let codes: (start: Int, end: Int)?
                if let known = codesOnLine[lineStart] {
                    codes = known
                } else {
                    codes = listedCodes(lineStart, end)
                    codesOnLine[lineStart] = codes
                }
                if let codes {
                    found.append(secret(.otp, nil, codes.start, codes.end))
                    listed += 1
                } else if listed > 0 {
                    break // a line without codes ends the list
                } else if lineStart != cue.end {
                    // Up to two lines of prose before the list (the rest of the cue's line is not one).
                    prose += 1
                    if prose > 2 { break }
                }
                lineStart = end + 1
            }
        }
        return found
    }

    /// The span from a line's first code to its last when the line is a line of codes
    /// (``recoveryCodes()``), else nil.
    func listedCodes(_ start: Int, _ end: Int) -> (start: Int, end: Int)? {
        var first: Int?, last = 0, digits = false, index = start
        while var next = piece(from: index, maximumSpaces: .max), next.start < end {
            index = next.end
            // Numbering OCR glued to the code after it (`1.1514 7399` for `1. 1514 7399`) is none of it.
            // (Its stop may read as a comma: `3,6944.8311`; round 137.)
            if next.end - next.start > 3, let mark = utf8[next.start..<min(next.start + 3, next.end)].firstIndex(where: { $0 == 0x2E || $0 == 0x29 || $0 == 0x2C }),
               mark > next.start, utf8[next.start..<mark].allSatisfy({ (0x30...0x39).contains($0) }), mark + 1 < next.end,
               Self.isAlphanumeric(utf8[mark + 1]) {
                next.start = mark + 1
            }
            let bytes = utf8[next.start..<next.end]
            let alphanumerics = bytes.filter(Self.isAlphanumeric)
            // Numbering (`1.`, `12)`), a colon, a bullet, a column's bar, or a scrap OCR made of a
            // glyph or cut from a code (`9`, `=`, the `76` of `76ff9`, the `9ba` of `ef 9ba`) join nothing.
            if alphanumerics.count <= 3 { continue }
            // Glyphs OCR put around a code (`~b1la3c-3c91a`, `94c98-c2a95_`) are none of it; one or
            // two it read for a letter, a digit or a space inside (`@235b-9c62c`, `¢9942-ffcb2`,
            // `2d5eb-ac323_cc7£7-fba44`) stand for one.
            var junk = 0
            let trimmed = slice(next.start, next.end).trimmingCharacters(in: CharacterSet.alphanumerics.inverted)
            let piece = String(trimmed.map { character -> Character in
                guard !character.isASCII || "@#$%&£¢©§|!_*".contains(character) else { return character }
                junk += 1
                return "x"
            })
            guard junk <= 2, !Self.listedCode.matches(in: piece).isEmpty else { return nil }
            let hasDigit = alphanumerics.contains { (0x30...0x39).contains($0) }
            // Letters alone: hexadecimal (`fbfaa`) or capitals (`XKPQ`), never a word.
            // (A piece that starts with a dash is the rest of a code OCR split: `68bae -Odagf`.)
            guard hasDigit || bytes.first == 0x2D || alphanumerics.allSatisfy({ (0x61...0x66).contains($0) })
                    || alphanumerics.allSatisfy({ (0x41...0x5A).contains($0) }) else { return nil }
            digits = digits || hasDigit
            if first == nil { first = next.start }
            last = next.end
        }
        guard let first, digits else { return nil }
        return (first, last)
    }
}

extension SecretScan {
    // MARK: - A passphrase of digits in groups

    /// A line of two to twelve groups of four to six digits and nothing else (OCR may read a `0` as
    /// `O` or `o`, a `1` as `l` or `I`).
    static let digitGroupLine = TextMatcher(#"(?m)^[ \t]*((?:[0-9OolI]{4,6}[ \t]+){1,11}[0-9OolI]{4,6})[ \t]*$"#)
    /// What says such digits are a passphrase or a key to restore with (Signal's backup
    /// passphrase: 30 digits in six groups of five).
    static let digitPassphraseCue = TextMatcher(#"(?i)(?<![A-Za-z])(?:pass[ \t]?phrase|recovery|restore|backup)(?![A-Za-z])"#)
    /// What says they are to be compared, not kept: a safety number, a security code to verify, a fingerprint.
    static let comparedDigitsCue = TextMatcher(#"(?i)safety[ \t]+number|security[ \t]+code|fingerprint|verif"#)

    /// A passphrase or recovery key of 24+ digits in five or more groups, on up to three lines of
    /// their own, under (within three lines) or over a line that says what it is.
    func digitPassphrases() -> [Secret] {
        guard mentions("phrase", "recover", "restore", "backup") else { return [] }
        var found: [Secret] = []
        var block: (start: Int, end: Int, groups: Int, digits: Int, lines: Int)?
        func close() {
            guard let b = block, b.groups >= 5, b.digits >= 24 else { return }
            let context = linesAbove(b.start, 3) + slice(b.end, min(utf8.count, b.end + 160))
            guard Self.digitPassphraseCue.firstMatch(in: context) != nil, Self.comparedDigitsCue.firstMatch(in: context) == nil else { return }
            found.append(secret(.password, nil, b.start, b.end))
        }
        for match in Self.digitGroupLine.matches(in: searchable) {
            guard let range = match.range(1), let groups = match[1]?.split(whereSeparator: { $0 == " " || $0 == "\t" }) else { continue }
            let digits = groups.reduce(0) { $0 + $1.count }
            // (Mostly digits: a group of letters OCR could read as digits is a word.)
            guard groups.allSatisfy({ $0.filter(\.isASCIIDigit).count * 4 >= $0.count * 3 }) else { close(); block = nil; continue }
            if let b = block, b.lines < 3, range.lowerBound > b.end, utf8[b.end..<range.lowerBound].allSatisfy({ Self.isSpace($0) || Self.isLineBreak($0) }),
               utf8[b.end..<range.lowerBound].filter(Self.isLineBreak).count == 1 {
                block = (b.start, range.upperBound, b.groups + groups.count, b.digits + digits, b.lines + 1)
            } else {
                close()
                block = (range.lowerBound, range.upperBound, groups.count, digits, 1)
            }
        }
        close()
        return found
    }
}

extension SecretScan {
    // MARK: - Names a terminal wrapped

    /// A line that starts with the rest of a name the terminal wrapped at the screen's edge: one
    /// to six small letters glued to `:` or `=` (`…Super user authentication toke` / `n: 6229…`,
    /// Matomo's `…&format=JSON&t` / `oken_auth=…`, round 158;
    /// OCR may read its first letter twice, the first as a capital: `Nn: 2664…`), maybe with more
    /// words of the name after a `-`, `_` or `.` (RouterOS' `…wpa2-pr` / `e-shared-key=…`).
    /// Or, group 2, the rest of a name in capitals after a head in capitals (`… -e ES_PA` /
    /// `SSWORD=…`; round 165).
    static let wrappedNameRest = TextMatcher(#"(?m)^(?:([A-Z]?[a-z]{1,6}(?:[\-_.][a-z0-9]{1,12}){0,3})|([A-Z]{1,12}(?:_[A-Z0-9]{1,12}){0,3}))[:=][ \t]*(?=\S)"#)

    /// Values after a name the terminal wrapped: the last word of a wide line (``endsAWideLine(_:)``)
    /// and the letters that start the next name a secret together, and neither does alone. A
    /// wrapped name says less than a whole one: the value must look like a secret on its own, or
    /// be a token of 16 to 64 digits after a name that ends in `token` (TeamCity's).
    func valuesAfterWrappedNames() -> [Secret] {
        guard mentions("\n") else { return [] }
        var found: [Secret] = []
        for match in Self.wrappedNameRest.matches(in: searchable) {
            let lineBreak = match.start - 1
            let capitals = match[1] == nil
            guard lineBreak > 0, var rest = match[1] ?? match[2], endsAWideLine(lineBreak), Self.isLetter(utf8[lineBreak - 1]),
                  !capitals || (0x41...0x5A).contains(utf8[lineBreak - 1]) else { continue }
            if !capitals, let first = rest.first, first.isUppercase {
                guard rest.dropFirst().first == Character(first.lowercased()) else { continue }
                rest.removeFirst()
            }
            // (The name's head: its letters, digits, `_`, `.` and `-` before the line's end, 64 bytes at most.)
            var headStart = lineBreak
            while headStart > 0, lineBreak - headStart < 64, Self.isAlphanumeric(utf8[headStart - 1]) || "_.-".utf8.contains(utf8[headStart - 1]) { headStart -= 1 }
            let head = slice(headStart, lineBreak), name = head + rest
            // (A rest of more words may name a secret alone, `e-shared-key`, when its first is a
            // scrap of the head's word; a Wi-Fi or IPsec pre-shared key is a password.)
            let scrapFirst = rest.split(whereSeparator: { "-_.".contains($0) }).first.map { $0.count <= 3 && rest.count > $0.count } ?? false
            let preShared = scrapFirst && name.lowercased().replacingOccurrences(of: "-", with: "").contains("preshared")
            // (A head in capitals may name a secret already when the wrap cut its last word, `ES_PASS` /
            // `WORD=…`: the whole name's last word is another; round 165.)
            let cutWord = capitals && Self.nameWords(name).last != Self.nameWords(head).last
            guard Self.secretName(head) == nil || cutWord, Self.secretName(rest) == nil || scrapFirst, let kind = preShared ? .password : Self.secretName(name),
                  let (start, end, quoted) = value(after: match.end), end > start else { continue }
            let value = squeezed(start, end)
            let digitToken = kind == .apiKey && name.lowercased().hasSuffix("token") && (16...64).contains(value.count) && value.allSatisfy(\.isASCIIDigit)
            guard digitToken || Self.isPasswordValue(value, quoted: quoted) && Self.looksLikeSecretOnItsOwn(value) else { continue }
            found.append(secret(kind, nil, start, end))
        }
        return found
    }
}

extension SecretScan {
    // MARK: - A key under the line that announces it

    /// A line that announces the key, token or secret a tool prints next, and ends with `:`
    /// (`cscli bouncers add`'s `API key for 'firewall':`, `Your new token:`); group 1 what it names.
    static let keyAnnouncement = TextMatcher(#"(?im)^[^\n:]{0,80}?(?<![A-Za-z])(api[ _\-]?key|key|token|secret)(?![A-Za-z])[^\n:]{0,60}:["'’”]?[ \t]*$"#)
    /// Words of such a line that say what follows is public or names a key rather than being one:
    /// a fingerprint, an id, a hash, a public key, its art (`The key's randomart image is:`).
    static let publicThingsAnnounced = ["public", "fingerprint", " id", "hash", "checksum", "digest", "sha", "md5", "randomart", "signature",
                                        ".pub", "name", "type", "file", "path", "url"]

    /// The key a tool prints on the line under its announcement (``keyAnnouncement``), one blank
    /// line between at most: that line's pieces alone (three at most, as OCR split them), together a
    /// random token of 16+ characters. (`cscli bouncers add firewall` prints `API key for
    /// 'firewall':`, a blank line, the key, and asks to keep it: it is shown this once; round 156.)
    /// A line that asks to copy or keep a key, token or secret now, as it is shown once: `Copy the
    /// token now!`, `Make sure to copy your personal access token now.`; the key follows on the
    /// next line, as under ``keyAnnouncement``. Round 159 (a clean text of an older pool).
    static let keyCopyRequest = TextMatcher(#"(?im)^[^\n]{0,160}?(?<![A-Za-z])(?:copy|save|store)(?![A-Za-z])[^\n]{0,40}?(?<![A-Za-z])(?:api[ _\-]?key|key|token|secret)s?(?![A-Za-z])[^\n]{0,80}?(?<![A-Za-z])now(?![A-Za-z])[^\n]{0,80}$"#)

    func announcedKeys() -> [Secret] {
        guard mentions("key", "token", "secret") else { return [] }
        let copyRequests = mentions("copy", "save", "store") && mentions("now") ? Self.keyCopyRequest.matches(in: searchable) : []
        return (Self.keyAnnouncement.matches(in: searchable) + copyRequests).compactMap { match in
            let line = match.text.lowercased()
            guard !Self.publicThingsAnnounced.contains(where: line.contains), !isPrompt(at: match.start) else { return nil }
            let next = nextFilledLine(after: match.end)
            guard next.end > next.start, utf8[match.end..<next.start].filter({ $0 == 0x0A }).count <= 2,
                  let pieces = piecesToLineEnd(from: next.start, atMost: 3, maximumSpaces: 1), let first = pieces.first, let last = pieces.last,
                  !pieces.contains(where: { isSentenceWord($0) && $0.end - $0.start > 4 }),
                  // (A key's characters only: an address is no key, `…that token returns error:` /
                  // `https://github.com/…`, a commit message's.)
                  pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy { Self.isTokenLetterOrJunk($0) || "+/=-_".utf8.contains($0) } }),
                  case let value = squeezed(first.start, last.end), value.count >= 16,
                  Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
            return secret(.apiKey, nil, first.start, last.end)
        }
    }
}
