import Foundation

/// Secrets shown by accident or in an encoding of their own: a password typed at the shell's
/// prompt instead of its password prompt (the shell then says it found no such command), a
/// YubiKey's one-time password a touch typed into a chat, a recovery key in ModHex groups
/// (`systemd-cryptenroll --recovery-key`), credentials that a link keeps in base64 (`ss://`), and a
/// credentials file listed whole (`user:password:level`).
extension SecretScan {
    // MARK: - A password typed as a command

    /// What a shell says of a command it does not know, the command being a password typed at the
    /// prompt after a failed `su` or `ssh`: bash's `bash: …: command not found`, zsh's `zsh: command
    /// not found: …`, fish's `Unknown command: …`, dash's `sh: 1: …: not found`, PowerShell's `The
    /// term '…' is not recognized`. Group 1, 2 or 3 is the word.
    static let unknownCommand = TextMatcher(
        #"(?im)(?:^|[ \t])(?:-?(?:ba|z|k|da|fi)?sh)(?:[ \t]?:[ \t]?\d{1,5})?[ \t]?:[ \t]?(?:command not found:|unknown command:)[ \t]*([^\s]{6,64})[ \t]*$|(?:^|[ \t])(?:-?(?:ba|z|k|da)?sh)(?:[ \t]?:[ \t]?(?:line[ \t])?\d{1,5})?[ \t]?:[ \t]?([^\s]{6,64})[ \t]?:[ \t]?(?:command[ \t])?not found[ \t]*$|The term ['‘’]([^\s'‘’]{6,64})['‘’] is not recognized"#)

    /// The word a shell did not know as a command, when it looks like a password rather than a
    /// misspelt name (`pyhton`, `docker-compsoe`, `python3.11`): three kinds of character of four
    /// (capitals, small letters, digits, symbols) switching three times or more, no path, variable
    /// or assignment. The same word on the prompt's line is masked as its repeat.
    func passwordsTypedAsCommands() -> [Secret] {
        guard mentions("not found", "unknown command", "not recognized") else { return [] }
        return Self.unknownCommand.matches(in: searchable).flatMap { match -> [Secret] in
            guard let group = [1, 2, 3].first(where: { match[$0] != nil }), let value = match[group], let range = match.range(group) else { return [] }
            guard !value.contains(where: { "/$=\\".contains($0) }), value.contains(where: \.isLetter) else { return [] }
            let kinds = [value.contains(where: \.isUppercase), value.contains(where: \.isLowercase), value.contains(where: \.isNumber),
                         value.contains(where: { !$0.isLetter && !$0.isNumber && !"-_.".contains($0) })].filter { $0 }.count
            guard kinds >= 3, Self.classSwitches(utf8[range.lowerBound..<range.upperBound]) >= 3, Self.isPasswordValue(value, quoted: false) else { return [] }
            // The prompt's line above, as OCR read it there (split, or a letter misread: `% PMEkKL-92gsUa`).
            var found = [secret(.password, nil, range.lowerBound, range.upperBound)]
            if let typed = typedAtThePrompt(above: match.start, like: value) { found.append(typed) }
            return found
        }
    }

    /// A shell's prompt (`$`, `%`, `#`, `>`, `❯`, or `user@host:path$`) and the command after it.
    static let promptLine = TextMatcher(#"(?m)^[ \t]*(?:[$%#>❯]|[^\s@]{1,32}@[^\s:]{1,64}:[^\n$#%]{0,128}[$#%])[ \t]+(\S[^\n]{0,80}?)[ \t]*$"#)

    /// The command on a prompt's line among the three above `index` that is `value` as OCR read it
    /// again: the same characters without spaces, two edits at most or one in five characters (case aside).
    func typedAtThePrompt(above index: Int, like value: String) -> Secret? {
        let from = lineStart(of: index, atMost: .max), start = startOfLines(above: index, 3)
        for match in Self.promptLine.matches(in: slice(start, from)) {
            guard let typed = match[1], let range = match.range(1) else { continue }
            let squeezedTyped = typed.filter { !$0.isWhitespace }
            // (Two edits, or one in five characters of a long one: `B-Gwp2XQip®oe0jK`.)
            let limit = max(2, value.count / 5)
            guard abs(squeezedTyped.count - value.count) <= limit,
                  EditDistance.levenshtein(squeezedTyped.lowercased(), value.lowercased(), limit: limit) != nil else { continue }
            return secret(.password, nil, start + range.lowerBound, start + range.upperBound)
        }
        return nil
    }

    // MARK: - ModHex: YubiKey OTPs and recovery keys

    /// ModHex, Yubico's hex digits as keyboard letters that every layout types alike
    /// (`cbdefghijklnrtuv` for 0–f), which systemd's recovery keys use too.
    static let modhexTable: [Bool] = (0..<256).map { "cbdefghijklnrtuv".utf8.contains(UInt8($0)) }

    /// A YubiKey's OTP (a run of 32–64 ModHex letters: the key's public id and 32 letters of
    /// ciphertext, what a touch types wherever the cursor is) and a recovery key of 8 groups of 8
    /// (`systemd-cryptenroll --recovery-key`; 4+ groups, as OCR may cut the line). No word is made of
    /// so few letters at that length. OCR may read an `l` as `1` or `I`: up to two letters of a run
    /// may be others.
    func modhexSecrets() -> [Secret] {
        var found: [Secret] = []
        let count = utf8.count, table = Self.modhexTable
        // Each byte is read once: a run, then (for 8) the groups that follow it.
        // (In a group, a capital OCR made of a small letter counts as another letter.)
        func runEnd(from start: Int, capitals: Bool = false) -> (end: Int, others: Int) {
            var end = start, others = 0
            // (A capital first counts as another letter.)
            if !capitals, start < count, (0x41...0x5A).contains(utf8[start]), table[Int(utf8[start] | 0x20)] {
                end += 1
                others += 1
            }
            while end < count, case let byte = utf8[end],
                  (0x61...0x7A).contains(byte) || byte == 0x31 || byte == 0x49 || capitals && (0x41...0x5A).contains(byte) {
                if !table[Int(byte)] { others += 1 }
                end += 1
            }
            return (end, others)
        }
        // A group of a recovery key from `start`: its letters, with one space OCR put inside (`vfgvgf jc`).
        func group(from start: Int) -> (end: Int, letters: Int, others: Int) {
            var (end, others) = runEnd(from: start, capitals: true)
            var letters = end - start
            if letters < 8, end + 1 < count, utf8[end] == 0x20 {
                let (restEnd, restOthers) = runEnd(from: end + 1, capitals: true)
                if restEnd > end + 1, letters + restEnd - end - 1 <= 9 { (end, letters, others) = (restEnd, letters + restEnd - end - 1, others + restOthers) }
            }
            return (end, letters, others)
        }
        func isBounded(_ end: Int) -> Bool { end == count || !Self.isAlphanumeric(utf8[end]) }
        var index = 0
        while index < count {
            let byte = utf8[index]
            // (A run may start with a capital OCR made of a small letter: `Lgtgjhiv-…`.)
            guard table[Int(byte | 0x20)], index == 0 || !Self.isAlphanumeric(utf8[index - 1]) else { index += 1; continue }
            var (end, others) = runEnd(from: index)
            var letters = end - index
            let bounded = isBounded(end)
            // An OTP OCR split with a space (`…vjdt lruedrtk…`): its runs joined, up to three.
            var joined = 0
            while bounded, letters >= 12, letters < 32, joined < 2, end + 1 < count, utf8[end] == 0x20, table[Int(utf8[end + 1] | 0x20)] {
                let (nextEnd, nextOthers) = runEnd(from: end + 1)
                guard isBounded(nextEnd), letters + nextEnd - end - 1 <= 64 else { break }
                letters += nextEnd - end - 1
                others += nextOthers
                end = nextEnd
                joined += 1
            }
            // (Random letters: a run of one letter, `jjjj…`, is a test's input.)
            // (Nor an identifier after its label, `ID: nngceckbapebfimnlniiiahkandclblb`: a browser's
            // extension's, 32 letters `a` to `p`, most of them ModHex's; round 158, found in an
            // earlier pool's clean texts.)
            if bounded, (32...64).contains(letters), others <= 2, Set(utf8[index..<end]).count >= 8, !followsAnIDLabel(index) {
                found.append(secret(.otp, "YubiKey OTP", index, end))
                index = end
                continue
            }
            // A recovery key's first group (8 letters, maybe split), then groups after `-` (OCR: a
            // dash of another width, spaces beside it) of 7 to 9 letters (OCR dropped or added one).
            let first = group(from: index)
            if first.letters == 8, first.others <= 1, isBounded(first.end) {
                var groups = 1, last = first.end, next = first.end
                while next < count {
                    var cursor = next
                    while cursor < count, Self.isSpace(utf8[cursor]) { cursor += 1 }
                    guard cursor < count, utf8[cursor] == 0x2D || utf8[cursor] == 0xE2 else { break }
                    cursor += utf8[cursor] == 0xE2 ? 3 : 1
                    while cursor < count, Self.isSpace(utf8[cursor]) { cursor += 1 }
                    let (groupEnd, groupLetters, groupOthers) = group(from: cursor)
                    guard (7...9).contains(groupLetters), groupOthers <= 1, isBounded(groupEnd) else { break }
                    groups += 1
                    last = groupEnd
                    next = groupEnd
                }
                if groups >= 4, Set(utf8[index..<last]).count >= 9 {
                    found.append(secret(.apiKey, "recovery key", index, last))
                    index = last
                    continue
                }
            }
            index = max(end, index + 1)
        }
        return found
    }

    /// Whether `index` follows an `ID` label and its colon, spaces around it (`ID: …`, `id:…`).
    func followsAnIDLabel(_ index: Int) -> Bool {
        var cursor = index
        while cursor > 0, Self.isSpace(utf8[cursor - 1]) { cursor -= 1 }
        guard cursor >= 3, utf8[cursor - 1] == 0x3A else { return false }
        cursor -= 1
        while cursor > 0, Self.isSpace(utf8[cursor - 1]) { cursor -= 1 }
        guard cursor >= 2, utf8[cursor - 1] | 0x20 == 0x64, utf8[cursor - 2] | 0x20 == 0x69 else { return false }
        return cursor == 2 || !Self.isLetter(utf8[cursor - 3])
    }

    // MARK: - Credentials a link keeps in base64

    /// Shadowsocks' links (SIP002 `ss://BASE64@host:port`, the legacy `ss://BASE64#tag`): the
    /// base64 is `method:password` (the legacy one with `@host:port` after it).
    /// (OCR may split the base64 with spaces, even after its first glyph, `ss://Y 2hhY 2hhMjAt…@`:
    /// group 1, before the `@`, then it need not decode.)
    /// (Or with no `@` left: from `//` to the `:port`, the host with it.)
    static let encodedUserInfo = TextMatcher(
        #"(?i)(?<![A-Za-z0-9])ssr?[ \t]?:[ \t]?/[ \t]?/[ \t]?(?:([A-Za-z0-9+/_\-]{1,256}(?:[ \t][A-Za-z0-9+/_\-=]{1,256}){1,8})[ \t]?@|([^\s@#:][^@#:\n]{7,400}?)(?=[ \t]?:[ \t]?\d{2,5}(?:[ \t]?#|\s|$))|([A-Za-z0-9+/_\-]{8,512}={0,2})(?=[@#/?\s]|$))"#)

    /// The base64 of such a link, when it decodes to a method and a password, or is all before a host's `@`.
    func encodedLinkCredentials() -> [Secret] {
        guard mentions("ss://", "ss: //", "ss:/ /", "ss :/", "ssr:") else { return [] }
        return Self.encodedUserInfo.matches(in: searchable).compactMap { match in
            if let range = match.range(1) { return secret(.password, nil, range.lowerBound, range.upperBound) }
            // (Up to a port, the first piece must be base64's: both cases and a digit, as no word has.)
            if let range = match.range(2) {
                guard let first = piece(from: range.lowerBound, maximumSpaces: 0),
                      Self.mixesCapitalsSmallAndDigits(slice(first.start, min(first.end, range.upperBound))) else { return nil }
                return secret(.password, nil, range.lowerBound, range.upperBound)
            }
            guard let value = match[3], let range = match.range(3) else { return nil }
            // (SIP002's form, before `@host`, is credentials whatever OCR made of them.)
            if range.upperBound < utf8.count, utf8[range.upperBound] == 0x40 { return secret(.password, nil, range.lowerBound, range.upperBound) }
            // (Decoded: `chacha20-ietf-poly1305:…`.)
            guard let data = Self.base64URLDecoded(value), let decoded = String(data: data, encoding: .utf8),
                  let colon = decoded.firstIndex(of: ":"), decoded.index(after: colon) < decoded.endIndex else { return nil }
            return secret(.password, nil, range.lowerBound, range.upperBound)
        }
    }

    // MARK: - A credentials file listed whole

    /// A command that lists a file whose name says it holds credentials (`cat ~/.config/deluge/auth`,
    /// `cat /etc/ppp/chap-secrets`, `cat users.passwd`), then its lines of `user:password` with
    /// more fields after or none (Deluge's `user:password:level`). A hash (`$6$…`), a lone `x` or `*`
    /// (``passwordHash``, a shadowed entry) is none. A password of random letters counts, as OCR
    /// leaves one whose every `0` it read as `O` (`ops: ifQRBSRXbOXULO` in `rsyncd.secrets`), from
    /// 8 letters on in such a file (`wTQXDHOhmRi`). (OCR may put a space after the path's last
    /// `/` or `.`: `cat /etc/rsyncd. secrets`.)
    static let credentialsFileListing = TextMatcher(
        #"(?im)^[ \t]*(?:[$#%>❯][ \t]+)?(?:sudo[ \t]+)?(?:cat|less|more|head|tail|bat)[ \t]+(?:-[A-Za-z]+[ \t]+)*[^\s]{0,256}?(?:/|^|\.)[ \t]?(?:auth|[a-z\-]*secrets?|[a-z\-]*passwd|[a-z\-]*passwords?|credentials)(?:\.[a-z]{1,6})?[ \t]*\n"#)
    /// (OCR may put spaces around a colon and inside the name and the value: `localc lient : 4bb6…0f 1d43ac f2dd…: 10`,
    /// `root: ! vfGJ…`.)
    static let credentialLine = TextMatcher(#"^[ \t]*[A-Za-z0-9_.@\-]{1,64}(?: [A-Za-z0-9_.@\-]{1,32})?[ \t]?:[ \t]?([^\s:]{4,128}(?:[ \t][^\s:]{1,64}){0,3}|[^\s:]{1,3}(?:[ \t][^\s:]{1,64}){1,3})(?:[ \t]?:[^\n]{0,64})?[ \t]*$"#)

    func listedCredentials() -> [Secret] {
        guard mentions("auth", "secret", "passw", "credentials"), mentions("cat ", "less ", "more ", "head ", "tail ", "bat ") else { return [] }
        var found: [Secret] = []
        for match in Self.credentialsFileListing.matches(in: searchable) {
            // The file's lines up to the next prompt or blank line; at most 20.
            var lineStart = match.end
            for _ in 0..<20 {
                guard lineStart < utf8.count else { break }
                var lineEnd = lineStart
                while lineEnd < utf8.count, !Self.isLineBreak(utf8[lineEnd]), lineEnd - lineStart < 256 { lineEnd += 1 }
                let line = slice(lineStart, lineEnd)
                guard let first = line.first(where: { !$0.isWhitespace }), !"$#%>❯".contains(first) else { break }
                if let entry = Self.credentialLine.firstMatch(in: line), let range = entry.range(1),
                   case let value = squeezed(lineStart + range.lowerBound, lineStart + range.upperBound),
                   Self.passwordHash.firstMatch(in: line) == nil, !["x", "*", "!", "!!"].contains(value),
                   Self.isPasswordValue(value, quoted: false),
                   Self.looksLikeSecretOnItsOwn(value) || Self.mixesCapitalsSmallAndDigits(value) || Self.isRandomToken(value)
                    || Self.isShortRandomLetters(value, minimumLetters: 8) {
                    found.append(secret(.password, nil, lineStart + range.lowerBound, lineStart + range.upperBound))
                }
                lineStart = lineEnd
                while lineStart < utf8.count, Self.isLineBreak(utf8[lineStart]) { lineStart += 1 }
            }
        }
        return found
    }

    // MARK: - Keyrings, authenticator exports and TSIG keys given to a tool

    /// A Ceph keyring's `key = AQ…` (its keys are base64 of a type byte and more: `AQ` first), to
    /// the line's end as OCR may split it (and read the `Q` as `O` or `0`).
    static let cephKey = TextMatcher(#"(?im)^[ \t]*key[ \t]*=[ \t]*(A[QO0][^\s]{2,80}(?:[ \t][^\s]{1,80}){0,8})[ \t]*$"#)
    /// Google Authenticator's export link (`otpauth-migration://offline?data=…`: every account's
    /// secret, encoded), as OCR may read it (spaces around `:`, inside `offline` and the data).
    static let authenticatorExport = TextMatcher(#"(?im)otpauth-migration[ \t]?:[ \t]?/[ \t]?/[^\n]{0,40}?data[ \t]?=[ \t]?(\S[^\n]{7,800}?)[ \t]*$"#)
    /// A TSIG key given to `nsupdate`, `dig`, Knot's tools: `-y [hmac-…:]name:secret`, the secret's
    /// pieces up to a server (`@ns1`) or an option.
    static let tsigOption = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])k?(?:nsupdate|dig)(?![A-Za-z0-9_\-])[^\n]{0,300}?(?<=[ \t])-y[ \t]+(?:hmac-[a-z0-9]{2,12}[ \t]?:[ \t]?)?[^\s:]{1,64}[ \t]?:[ \t]?([^\s@\-][^\s]{0,256}(?:[ \t](?![@\-])[^\s]{1,256}){0,8})"#)

    /// A k3s cluster's token: `K10` and the cluster CA's hash (64 hexadecimal digits), `::`, a
    /// user and `:` before the password, 32 hexadecimal digits (`K10…::server:…`, what
    /// `/var/lib/rancher/k3s/server/node-token` holds and `K3S_TOKEN=` gives). OCR may space the
    /// colons or drop one, read a `0` as `O` and a `1` as `l`, split the hash with spaces, and a terminal may wrap the line inside the user's
    /// name (`K10…bc84 :s` / `erver : e07b…`) or the password (`£9770e…ac3d` / `acd6df5599`).
    static let k3sToken = TextMatcher(#"(?<![A-Za-z0-9])K1[0O](?:[0-9a-fA-FOlI] ?){60,68}(?:[ \t]?:){1,2}[ \t]?\n?[ \t]?[a-z](?:\n?[a-z]){1,15}[ \t]?:[ \t]?(?=\S)"#)

    /// A Kubernetes bootstrap token, as `kubeadm` makes and prints it: six small letters or digits,
    /// a dot, sixteen more (`abcdef.0123456789abcdef`; its first part is the token's public id,
    /// the whole joins a node to the cluster). Round 158, found in an earlier pool's clean texts.
    static let bootstrapToken = TextMatcher(#"(?<![A-Za-z0-9.\-])[a-z0-9]{6}\.[a-z0-9]{16}(?![A-Za-z0-9.\-])"#)

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    func keysOfTheirOwnFormats() -> [Secret] {
        var found: [Secret] = []
        if mentions("k10", "k1o") {
            // The password's pieces after it: 32 hexadecimal digits, which OCR may split and misread
            // a glyph of (`£9770e…`), three pieces at most.
            for match in Self.k3sToken.matches(in: searchable) {
                var end = match.end, digits = 0
                var wrapped = false
                while digits < 32 {
                    var next = piece(from: end, maximumSpaces: end == match.end ? 0 : 1)
                    // (The line's end inside it: its rest starts the next line.)
                    if next == nil, !wrapped, end < utf8.count, Self.isLineBreak(utf8[end]) {
                        wrapped = true
                        next = piece(from: end + 1, maximumSpaces: 0)
                    }
                    guard let next, next.end - next.start <= 36 - digits,
                          utf8[next.start..<next.end].allSatisfy({ Self.isHexDigit($0) || $0 >= 0x80 || Self.junkGlyphs.contains($0) }) else { break }
                    digits += utf8[next.start..<next.end].filter({ $0 < 0x80 || $0 >= 0xC0 }).count
                    end = next.end
                }
                guard (28...36).contains(digits) else { continue }
                found.append(secret(.apiKey, "k3s token", match.start, end))
            }
        }
        if mentions("kubeadm", "bootstrap-token", "--token") {
            // (A token holds a digit: one of 22 random characters lacks one once in 1,300; a host's
            // name seldom has one.)
            for match in Self.bootstrapToken.matches(in: searchable) where match.text.contains(where: \.isNumber) {
                found.append(secret(.apiKey, "Kubernetes bootstrap token", match.start, match.end))
            }
        }
        if mentions("key = a", "key =a", "key= a", "key=a") {
            // (A key is 40 characters: OCR may cut its first piece short, `AQ3ql Wf rN+…`, but not the whole.)
            for match in Self.cephKey.matches(in: searchable) {
                guard let range = match.range(1), squeezed(range.lowerBound, range.upperBound).count >= 32 else { continue }
                found.append(secret(.apiKey, "Ceph key", range.lowerBound, range.upperBound))
            }
        }
        if mentions("otpauth-migration") {
            for match in Self.authenticatorExport.matches(in: searchable) { if let range = match.range(1) { found.append(secret(.apiKey, "2FA export", range.lowerBound, range.upperBound)) } }
        }
        if mentions("-y"), mentions("nsupdate", "dig") {
            for match in Self.tsigOption.matches(in: searchable) {
                guard let range = match.range(1), squeezed(range.lowerBound, range.upperBound).count >= 16 else { continue }
                found.append(secret(.apiKey, "TSIG key", range.lowerBound, range.upperBound))
            }
        }
        return found
    }
}
