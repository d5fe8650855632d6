import Foundation

/// Secrets typed into a protocol's session, a here-string or a form, and keys that formats keep in
/// places of their own: a TLS key log's secrets, a link's fragment, a gift card's code, a
/// `git config` value named a password.
extension SecretScan {
    // MARK: - Mail and file-transfer sessions typed by hand

    /// IMAP's `LOGIN` after its tag (`a1 LOGIN user password`, RFC 9051; the tag is a client's
    /// short id, the command in any case): the user's name (quoted or not), then the password.
    static let imapLogin = TextMatcher(#"(?m)^[ \t]*(?:[A-Za-z]{1,3}\d{0,4}|\d{1,4}|\.)[ \t]+(?:LOGIN|login|Login)[ \t]+(?:"[^"\n]{1,64}"|[^\s"]{1,64})[ \t]+(?=\S)"#)
    /// POP3's and FTP's `PASS` (RFC 1939, RFC 959) at a line's start, in capitals as clients send it.
    static let passCommand = TextMatcher(#"(?m)^[ \t]*(?:[<>\-]{1,4}[ \t]*)?PASS[ \t]+(?=\S)"#)
    /// The `USER` line that comes before it.
    static let userCommand = TextMatcher(#"(?m)^[ \t]*(?:[<>\-]{1,4}[ \t]*)?USER[ \t]+\S"#)
    /// SMTP's `AUTH PLAIN` and IMAP's `AUTHENTICATE PLAIN` with the credentials on the line
    /// (RFC 4616: base64 of the user's name and the password); OCR may split the base64, read
    /// a `0` as `@`, a `j` as `]`, put a speck (`.`, `,`) between two of its characters
    /// (`…PT 1M4.JTMm…`), read one as a glyph outside ASCII (`…Bek®2Y…`) or as a parenthesis
    /// (`…V284)Ss2…`, its `J`), a dash of junk before its `=`, and a speck after its end (`…bVUNTE4.`).
    static let plainAuthentication = TextMatcher(
        #"(?m)^[ \t]*(?:[A-Za-z]{1,3}\d{0,4}[ \t]+)?(?i:AUTH|AUTHENTICATE)[ \t]+(?i:PLAIN)[ \t]+([A-Za-z0-9+/](?:[A-Za-z0-9+/@\]\[| ]|(?<=[A-Za-z0-9])[.,()](?=[A-Za-z0-9])|(?<=[A-Za-z0-9])[^\x00-\x7F\s—–]){6,400}[—–]?={0,2})[.,]?[ \t]*$"#)

    /// The password a mail or file-transfer session was given by hand (`openssl s_client`,
    /// `telnet`, `nc`): IMAP's `LOGIN`, POP3's and FTP's `PASS` under its `USER` line, and the
    /// base64 credentials of `AUTH PLAIN`.
    func sessionLogins() -> [Secret] {
        guard mentions("login", "pass ", "plain") else { return [] }
        var found: [Secret] = []
        func add(after index: Int) {
            if let password = passwordArgument(after: index, dashStartsIt: true) { found.append(password) }
        }
        if mentions("login") {
            for match in Self.imapLogin.matches(in: searchable) { add(after: match.end) }
        }
        if mentions("pass "), mentions("user ") {
            for match in Self.passCommand.matches(in: searchable) where Self.userCommand.firstMatch(in: linesAbove(match.start, 3)) != nil {
                add(after: match.end)
            }
        }
        if mentions("plain") {
            for match in Self.plainAuthentication.matches(in: searchable) {
                guard let range = match.range(1), let value = match[1], value.filter({ $0 != " " }).count >= 8,
                      !Self.isProse(value) else { continue }
                var end = range.upperBound
                while end > range.lowerBound, Self.isSpace(utf8[end - 1]) { end -= 1 }
                found.append(secret(.password, nil, range.lowerBound, end))
            }
        }
        return found
    }

    /// Whether every piece of `value` is a word, small letters maybe after one capital (`successful
    /// for user`, `réussi pour utilisateur`): a sentence about a mechanism, not base64 (which mixes
    /// its cases and digits, a word's shape in 8 characters once in a thousand).
    static func isProse(_ value: String) -> Bool {
        value.split(separator: " ").allSatisfy { piece in
            piece.enumerated().allSatisfy { offset, character in
                character.isLetter && (character.isLowercase || offset == 0 && character.isUppercase)
            }
        }
    }

    // MARK: - Here-strings

    /// Bash's here-string: what follows `<<<` is the command's standard input.
    static let hereString = TextMatcher(#"<<<[ \t]*(?=\S)"#)

    /// A literal given as a here-string to a command that reads a password on its standard input
    /// (``secretReader``: `sudo -S … <<< '…'`, `cryptsetup open … <<< "…"`), as ``pipedSecrets()``
    /// takes one that `echo` pipes to it.
    func hereStringSecrets() -> [Secret] {
        guard mentions("<<<") else { return [] }
        return Self.hereString.matches(in: searchable).compactMap { match in
            guard Self.secretReader.firstMatch(in: slice(lineStart(of: match.start, atMost: 300), match.start)) != nil,
                  let (start, valueEnd, quoted) = value(after: match.end), valueEnd > start else { return nil }
            let end = quoted ? valueEnd : (piece(from: start, maximumSpaces: 0)?.end ?? valueEnd)
            return password(start, end, quoted: quoted)
        }
    }

    // MARK: - A form's password field

    /// A form field that holds a password: `type="password"`, or a name that says so
    /// (`name="pwd"`, `name="user_password"`); quotes of any kind, as OCR reads them.
    static let passwordField = TextMatcher(
        #"(?i)(?<![A-Za-z\-])(?:type[ \t]*=[ \t]*["'“”‘’]?password(?![A-Za-z])|name[ \t]*=[ \t]*["'“”‘’]?[A-Za-z_\-]{0,24}(?:password|passwd|pwd|pass)(?![A-Za-z]))"#)
    static let valueAttribute = TextMatcher(#"(?i)(?<![A-Za-z\-])value[ \t]*=[ \t]*(?=["'“”‘’])"#)

    /// The `value` of an HTML field that holds a password (a page's source, a saved form).
    func passwordFieldValues() -> [Secret] {
        guard mentions("value"), mentions("pass", "pwd") else { return [] }
        var found: [Secret] = []
        for line in lines(mentioning: ["value"]) where !Self.passwordField.matches(in: searchable, within: [line]).isEmpty {
            for match in Self.valueAttribute.matches(in: searchable, within: [line]) {
                guard let (start, end, quoted) = value(after: match.end), quoted, end > start,
                      case let value = slice(start, end), Self.isPasswordValue(value, quoted: true),
                      !value.hasPrefix("{"), !value.hasPrefix("<?"), !value.contains("{{") else { continue }
                found.append(secret(.password, nil, start, end))
            }
        }
        return found
    }

    // MARK: - A browser test that types a password

    /// A quoted selector or label that names a password field (`"password"`, `'#password'`,
    /// `'input[name=password]'`, `getByLabel('Password')`), then the call that types into it and
    /// its opening quote: Selenium's `find_element(By.ID, "password").send_keys(…`, Cypress'
    /// `cy.get('#password').type(…`, WebdriverIO's `.setValue(…`, Capybara's `fill_in 'Password',
    /// with: …`, Playwright's `.fill(…` (group 1); or a call whose first argument is that selector,
    /// Playwright's `page.fill('#password', …`, Puppeteer's `page.type('#pwd', …` (group 2). (OCR
    /// may put a space after the dot: `page. fill(…`.)
    /// A test's password is a real one more often than not: it signs in to a staging site.
    static let typedIntoPasswordField = TextMatcher(
        #"(?i)(?:["'“”‘’`][^"'“”‘’`\n]{0,48}(?<![A-Za-z])(?:password|passwd|pwd|pass)(?![A-Za-z])[^"'“”‘’`\n]{0,48}["'“”‘’`][)\]]{0,2}[^\n"'“”‘’`]{0,40}?(send_?keys|\.[ \t]?type|\.[ \t]?fill|set_?value|type_?text|press_?sequentially|with:)|(\.[ \t]?fill|\.[ \t]?type)[ \t]*\([ \t]*["'“”‘’`][^"'“”‘’`\n]{0,48}(?<![A-Za-z])(?:password|passwd|pwd|pass)(?![A-Za-z])[^"'“”‘’`\n]{0,48}["'“”‘’`][ \t]*,)[ \t]*\(?[ \t]*(?=["'“”‘’`])"#)

    /// The password a browser test types into a password field (``typedIntoPasswordField``): a
    /// quoted literal, not a variable (`.type(Cypress.env('PASSWORD'))`), nor a key's name
    /// (`.type('{enter}')`).
    func passwordsTypedIntoFields() -> [Secret] {
        guard mentions("pass", "pwd"), mentions("keys(", "type(", "type (", "fill(", "fill (", "value(", "text(", "sequentially(", "with:") else { return [] }
        return Self.typedIntoPasswordField.matches(in: searchable, within: lines(mentioning: ["pass", "pwd"])).compactMap { match in
            guard let (start, end, quoted) = value(after: match.end), quoted, end > start, case let value = slice(start, end),
                  !value.hasPrefix("{"), !value.contains("${"), !value.contains("{{"), Self.isPasswordValue(value, quoted: true) else { return nil }
            return password(start, end, quoted: true)
        }
    }

    // MARK: - A TLS key log

    /// A line of the NSS key log format (`SSLKEYLOGFILE`, which browsers and curl write for
    /// Wireshark): its label, the handshake's client random (not secret), then the secret. OCR may
    /// read an `_` as a space.
    static let keyLogLine = TextMatcher(
        #"(?m)^[ \t]*(?:CLIENT[_ ]RANDOM|(?:CLIENT|SERVER)[_ ](?:EARLY[_ ]|HANDSHAKE[_ ])?TRAFFIC[_ ]SECRET(?:[_ ]?\d)?|(?:EARLY[_ ])?EXPORTER[_ ]SECRET|RSA)[ \t]+(?=[0-9A-Fa-fOo])"#)

    /// A TLS key log's secrets: after the label and the 64 hexadecimal digits of the client
    /// random, the rest of the line. Where OCR split the random, the whole rest is masked.
    func keyLogSecrets() -> [Secret] {
        guard mentions("random", "secret") else { return [] }
        return Self.keyLogLine.matches(in: searchable).compactMap { match in
            guard let pieces = piecesToLineEnd(from: match.end, atMost: 12, maximumSpaces: 2), let first = pieces.first, let last = pieces.last,
                  squeezed(first.start, last.end).count >= 48 else { return nil }
            let start = pieces.count >= 2 && (first.end - first.start == 64 || first.end - first.start == 16) ? pieces[1].start : first.start
            return secret(.apiKey, "TLS secret", start, last.end)
        }
    }

    // MARK: - Keys in a link's fragment

    /// A link whose fragment is a key (MEGA's `/file/ID#KEY`, PrivateBin's `?ID#KEY`, Bitwarden
    /// Send's `#/send/ID/KEY`): the browser never sends the fragment, so services that encrypt in
    /// the browser put the key there. The match ends at the fragment. (OCR may split the address
    /// before it, twice at most: `mega.nz/file/UvKj CWK4#…`, `mega.nz/file/ HEyuuF He#…`,
    /// `paste.acme. io/?bf7f3926d838908f#…`; and after its scheme's colon: `https: //mega.nz/…`.)
    static let fragmentLink = TextMatcher(#"(?i)(?<![A-Za-z0-9])(?:https?:[ \t]?//|www\.)[^\s#"'<>]{1,400}(?:[ \t][^\s#"'<>]{1,40}){0,2}#(?=[A-Za-z0-9_\-!/])"#)

    /// The fragment of a link when a part of it is random (mixed case and digits, 20+ characters,
    /// 3.5+ bits a character, 6+ changes between capitals, small letters and digits): anchors are words (`#installation`), line numbers (`#L10-L20`) or routes.
    func fragmentKeys() -> [Secret] {
        guard mentions("#"), mentions("http", "www.") else { return [] }
        return Self.fragmentLink.matches(in: searchable).compactMap { match in
            // The fragment, and the pieces OCR split from it (`#V ptB Q9NeHJ…`): each all of a
            // key's characters, none a word, 300 characters at most.
            // (A piece that reads as a word, between machine-made ones, is the key's too: `#A1Dw8f cci
            // 7HSZpo1ED6…`; round 165.)
            var end = match.end
            func isKeyPiece(_ piece: (start: Int, end: Int)) -> Bool {
                piece.end - match.end <= 300
                    && utf8[piece.start..<piece.end].reversed().drop(while: { ".,;".utf8.contains($0) }).allSatisfy({ Self.isTokenLetterOrJunk($0) || "_-!/".utf8.contains($0) })
            }
            while let next = piece(from: end, maximumSpaces: end == match.end ? 0 : 2), isKeyPiece(next) {
                if end == match.end || !isSentenceWord(next) {
                    end = next.end
                } else if let after = piece(from: next.end, maximumSpaces: 2), isKeyPiece(after), isMachineMade(after.start, after.end) {
                    end = after.end
                } else {
                    break
                }
            }
            while end > match.end, ".,;".utf8.contains(utf8[end - 1]) { end -= 1 }
            let fragment = squeezed(match.end, end)
            let parts = fragment.split(whereSeparator: { "!/".contains($0) })
            // A single-page app's route to a record, a collection's name and its id (PandaDoc's
            // `#/documents/msFYActMfJHqNTKH8YSvF1`, maybe a view's name after it), is an address;
            // a key comes with the id it opens (Bitwarden Send's `#/send/ID/KEY`) or after a
            // version (CryptPad's `#/2/pad/edit/KEY/`; round 161).
            if fragment.hasPrefix("/") || fragment.hasPrefix("!/"), parts.count >= 2, parts[0].allSatisfy(\.isLetter),
               parts.dropFirst(2).allSatisfy({ $0.allSatisfy(\.isLetter) }) {
                return nil
            }
            guard parts.contains(where: { part in
                part.count >= 20 && part.contains(where: \.isUppercase) && part.contains(where: \.isLowercase) && part.contains(where: \.isNumber)
                    && Self.entropy(String(part)) >= 3.5 && Self.classSwitches(ArraySlice(part.utf8)) >= 6
            }) else { return nil }
            return secret(.apiKey, "link key", match.end, end)
        }
    }

    // MARK: - Gift cards

    /// A gift card's or a wallet's code after its name (`Claim code:`, `Google Play gift code`,
    /// `Steam Wallet Code`): whoever reads it can spend it. Or a voucher's (a hotel's or a
    /// hotspot's guest Wi-Fi, UniFi's `12345-67890`): whoever reads it gets on the network (group 1).
    static let giftCodeLabel = TextMatcher(
        #"(?i)(?<![A-Za-z])(?:gift[ \t]*(?:card[ \t]*)?(?:code|pin|number)|claim[ \t]*code|redeem(?:ption)?[ \t]*code|wallet[ \t]*code|(voucher)(?:[ \t]*(?:code|pin|number))?)(?![A-Za-z])[ \t]*[:#]?"#)
    /// The code: three to six groups of four to six capitals and digits, with dashes or spaces
    /// (a voucher's: two groups will do).
    /// (OCR may read a `J` as `]` or `)`, an `I` as `|`: round 153.)
    static let giftCodeShape = TextMatcher(#"^[A-Z0-9\]|)]{4,6}(?:[ \t]?[\-–—][ \t]?|[ \t])(?:[A-Z0-9\]|)]{4,6}(?:[ \t]?[\-–—][ \t]?|[ \t])){0,4}[A-Z0-9\]|)]{4,6}$"#)

    func giftCodes() -> [Secret] {
        guard mentions("gift", "claim", "redeem", "wallet", "voucher") else { return [] }
        return Self.giftCodeLabel.matches(in: searchable, within: lines(mentioning: ["code", "pin", "number", "voucher"])).compactMap { match in
            // The rest of the label's line, or the next line when that rest is blank.
            let (start, end) = nextFilledLine(after: match.end)
            guard end > start, end - start <= 48, case let code = slice(start, end), Self.giftCodeShape.firstMatch(in: code) != nil else { return nil }
            let groups = code.split(whereSeparator: { " \t-–—".contains($0) }).count
            // (A gift card's code mixes letters and digits, in three groups or more; a voucher's may
            // be all digits or all letters, 8 of them or more.)
            if match[1] != nil {
                guard code.filter({ $0.isLetter || $0.isNumber }).count >= 8 else { return nil }
            } else {
                guard groups >= 3, code.contains(where: \.isNumber), code.filter(\.isLetter).count >= 4 else { return nil }
            }
            return secret(.apiKey, match[1] != nil ? "voucher" : "gift code", start, end)
        }
    }

    // MARK: - `git config`

    /// `git config [scope] NAME VALUE` where the name's last part names a password or token
    /// (`sendemail.smtpPass`, `credential.…token`, `http.extraHeader`'s `Authorization: …`).
    static let gitConfigSetting = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])git[ \t]+config(?:[ \t]+--?[A-Za-z\-]+)*[ \t]+[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-"]+){0,3}\.[A-Za-z0-9_\-]*?(?:pass|password|passwd|pwd|token|secret|apikey)[ \t]+(?=\S)"#)

    func gitConfigSecrets() -> [Secret] {
        guard mentions("git"), mentions("config") else { return [] }
        return Self.gitConfigSetting.matches(in: searchable).compactMap { passwordArgument(after: $0.end, dashStartsIt: false) }
    }

    /// The password given as the argument after `index` (``separateValue(after:dashStartsIt:)``):
    /// 4+ characters, no shell variable, a password's value (``isPasswordValue(_:quoted:)``).
    func passwordArgument(after index: Int, dashStartsIt: Bool) -> Secret? {
        guard let (start, end, quoted) = separateValue(after: index, dashStartsIt: dashStartsIt) else { return nil }
        // (A UUID, as Codecov's token is, OCR split before a dash: `-t acdd7005 -b68e-16c7-…`.)
        if !quoted, let uuid = uuidEnd(from: start), uuid > end { return password(start, uuid, quoted: quoted) }
        return password(start, end, quoted: quoted)
    }

    /// The value from `start` to `end` as a password: 4+ characters, no shell variable, a
    /// password's value (``isPasswordValue(_:quoted:)``).
    func password(_ start: Int, _ end: Int, quoted: Bool) -> Secret? {
        let value = squeezed(start, end)
        guard value.count >= 4, Self.shellWord.firstMatch(in: value) == nil, Self.isPasswordValue(value, quoted: quoted) else { return nil }
        return secret(.password, nil, start, end)
    }

    // MARK: - Wi-Fi keys without a colon

    /// A Wi-Fi key's label then its value in the next column, without a colon (`Network key
    /// p6s4H55YmO2`, Windows' `Network security key`), on a line of its own; and a wireless
    /// interface's `key` in a router's config (OpenWrt's `wireless.default_radio0.key='…'`).
    static let networkKeyColumn = TextMatcher(#"(?im)^[ \t]*(?:network|wi-?fi|wireless|wlan)(?:[ \t]+security)?[ \t]+key[ \t]+(?=[^\s:：=(])(?![^\n]*[:：])"#)
    static let wirelessConfigKey = TextMatcher(#"(?i)(?<![A-Za-z0-9])(?:wireless|wifi|wlan)[A-Za-z0-9_.@\[\]\-]{0,64}\.key[ \t]*=[ \t]*(?=\S)"#)

    func columnNetworkKeys() -> [Secret] {
        guard mentions(" key", ".key") else { return [] }
        var found: [Secret] = []
        for match in Self.networkKeyColumn.matches(in: searchable) {
            // One value to the line's end (OCR may split it once).
            guard let pieces = piecesToLineEnd(from: match.end, atMost: 2, maximumSpaces: 1), let first = pieces.first, let last = pieces.last,
                  case let value = squeezed(first.start, last.end), value.count >= 8, Self.isPasswordValue(value, quoted: false),
                  Self.looksLikeSecretOnItsOwn(value) || value.contains(where: \.isNumber) && value.contains(where: \.isLetter) else { continue }
            found.append(secret(.password, nil, first.start, last.end))
        }
        if mentions(".key") {
            for match in Self.wirelessConfigKey.matches(in: searchable) {
                guard let (start, end, quoted) = value(after: match.end), end > start, case let value = squeezed(start, end),
                      value.count >= 8, Self.isPasswordValue(value, quoted: quoted) else { continue }
                found.append(secret(.password, nil, start, end))
            }
        }
        return found
    }

    // MARK: - Hashes are no secrets

    /// The hashing schemes an LDAP `userPassword` names in braces (`{SSHA}`): a plaintext one (`{PLAIN}`) is none.
    static let ldapSchemes = "SSHA(?:256|384|512)?|SHA(?:256|384|512)?|SMD5|MD5|CRYPT|PBKDF2(?:-SHA\\d{1,3})?|ARGON2|BCRYPT"

    /// A password's hash as crypt(3) writes it (`$6$salt$hash`, `$2y$10$…`), maybe after a Cisco
    /// type's digit (`enable secret 9 $9$…`, scrypt; type 8 is PBKDF2), ending the line.
    /// Or a hash in the PHC string format (`$argon2id$v=19$m=…$salt$hash`, `$scrypt$…`, `$pbkdf2-sha256$…`),
    /// maybe after its algorithm's name and a colon, as Jupyter writes it (`'argon2:$argon2id$…`).
    /// Or an LDAP scheme's hash (`userPassword: {SSHA}…`, `{PBKDF2-SHA512}…`, `{ARGON2}…`), or CouchDB's
    /// (`admin = -pbkdf2-HASH,SALT,10`), or MySQL's native one (`*` and 40 capital hexadecimal
    /// digits, as `mysql.user` and sqlmap's `password hash:` show it).
    static let storedHash = TextMatcher(#"(?:^|[ \t'"=:])\*[0-9A-F]{40}$|(?:^|[ \t])(?:\d[ \t]+)?\$(?:"# + cryptIds + #")\$[^\s$]{1,64}\$[^\s$]{8,}$|(?:^|[ \t'"=:])\$(?:argon2(?:id|i|d)|scrypt|pbkdf2[\w\-]{0,16})(?:\$[^\s$]{1,128}){2,5}$|(?:^|[ \t'"=:])\{(?i:"# + ldapSchemes + #")\}\S{8,}$|(?:^|[ \t=])-pbkdf2-[0-9a-f]{32,128},[0-9a-f]{16,64},\d{1,7}$|(?:^|[ \t'"=:])"# + scramVerifier)

    /// A SCRAM verifier (RFC 5803, as PostgreSQL and PgBouncer keep one): `SCRAM-SHA-256$`, the
    /// iterations, `:`, the salt, `$`, the stored key, `:`, the server key, each base64 (the server
    /// key may end the line where a terminal wrapped it).
    static let scramVerifier = #"SCRAM-SHA-(?:1|256)\$\d{1,7}:[A-Za-z0-9+/=]{8,}\$[A-Za-z0-9+/=]{8,}:[A-Za-z0-9+/=]{8,}$"#

    /// A hash as above once the spaces OCR put in it are taken out (`$2y$10$BcIj…/ fK1 . 9N7Q…`,
    /// `m=10240, t=10 , p=8$…`, `{SSHA}CCdKbV7…/wet 2t IhrE…`): then a label's `:` or `=`, or a quote,
    /// may come right before it. SHA-crypt's `$` after the salt OCR reads as an `S`
    /// (`"$6$soylIM8USFptio…`), or the `$` after its id (`"$6SanukiVRGS$rwr.…`, also where it starts
    /// its line, as `openssl passwd` prints it): 40+ characters of crypt's alphabet after `$1$`, `$5$` or `$6$` are
    /// a hash as well (a password that starts so and runs that long is no password anyone types).
    /// (CouchDB's `-pbkdf2-…` too, whatever glyphs OCR read in its hexadecimal: `@` for a `0`, `l`
    /// for a `1`, `¢`: its `-pbkdf2-` and its two commas before the iterations say what it is.)
    /// (And a `$` before the hash read as `§`: `"$6$5zST7LnW§.l|Acb…`.)
    /// (Or the first `$` read as `S` after a quote, as ``passwordHash`` allows: `"S6$vsFi…`; or
    /// both, `"S6SMQBdFOWfSJbDv…`, with 50+ characters after them; there too OCR may read a letter
    /// as a bar or a glyph, `…ZLJUGS|4ec4…`, as after `$6$`.)
    /// (Or either `$` of `$6$` read as `S` beside it or instead, `"S6S$Lv50jfx3$k.KVPQ…`, when the salt's
    /// `$` stays and 20+ characters of hash follow it. After `$6$`, OCR's glyphs may be in the 40+ characters: `…VLf£8A…`,
    /// and its `@` for a `0`: `$6$6qcu…RAMFMSOWJs…kua@1…`, the salt's `$` read `S`; round 154.)
    /// (An LDAP scheme's hash OCR split may start its line, as `slappasswd` prints it: `{SSHA}EZ1A4c1/Dj LEUr…`;
    /// MySQL's may hold a digit read as a letter: `0` as `O`, `Q` or `@`, `5` as `S`: `*BFFO7F73…`;
    /// or a glyph read as two or lost, or a dot after it: 39 to 42 characters, `*8DFF…6BO0E99…`.)
    /// (And a SCRAM verifier whose salt OCR split: `"SCRAM-SHA-256$4096 : OStwKqpfVFSJj 1hgvT1RtPw=$ewrF…`.)
    /// (A whole hash may start its line, as `openssl passwd` prints it, however OCR split it:
    /// `$6$hInQ…$hqEU…a@L 8Lone…hd1Q. CuJKI .01428Qv…`.)
    static let squeezedStoredHash = TextMatcher(#"(?:^|[:='"‘’“”])\$(?:"# + cryptIds + #")\$[^\s$§]{1,64}[$§][^\s$]{8,}$|[:='"‘’“”](?:S?\$S?|S)[156](?:S?\$S?|S)[^\s$§]{1,16}[$§][^\s$]{20,}$|(?:^\$|[:='"‘’“”][$S])[156]\$[./A-Za-z0-9@\x{80}-\x{FFFF}]{40,}$|(?:^|[:='"‘’“”])\$[156]S[./A-Za-z0-9|@\x{80}-\x{FFFF}]{60,}$|[:='"‘’“”]S[156]S[./A-Za-z0-9|@\x{80}-\x{FFFF}]{50,}$|(?:^|[:='"‘’“”])\$[156]S[^\s$]{1,64}\$[./A-Za-z0-9]{30,}$|[:='"‘’“”]\$(?:argon2(?:id|i|d)|scrypt|pbkdf2[\w\-]{0,16})(?:\$[^\s$]{1,128}){2,5}$|(?:^|[:='"‘’“”])\{(?i:"# + ldapSchemes + #")\}\S{8,}$|(?:^|[:='"‘’“”])\*[0-9A-FOQSIlZG@]{39,42}[.,;]?$|=-pbkdf2-[^,\s$]{24,128},[^,\s$]{12,64},\d{1,7}$|[:='"‘’“”]"# + scramVerifier)

    /// Whether what a rule found is a stored hash: it stays searchable, as an `.htpasswd` line does
    /// (a hash is no password; the README says which hashes Lens leaves).
    func isStoredHash(_ secret: Secret) -> Bool {
        // (A hash is short: two lines of one at most. Bounded: a 30 KB line of labels gives
        // thousands of finds, each looked at here.)
        // (An LDAP scheme's may be shorter, cut where OCR split it: `{SSHA}M+P/oMgzr` / `/+BN…`.)
        // (Or a crypt hash's start OCR split from the rest, `$2a$14$4hj j 8Dcj`: its line says; round 154.)
        guard secret.kind == .apiKey || secret.kind == .password, (20...400).contains(secret.end - secret.start)
                || (12..<20).contains(secret.end - secret.start) && utf8[secret.start] == 0x7B
                || (8..<20).contains(secret.end - secret.start) && utf8[secret.start] == 0x24 else { return false }
        // (Two rules' finds on two lines may have been joined: each line must end with a hash.)
        // A Cisco `secret` of type 4, 5, 8 or 9 is a hash however OCR read it (`secret 9 S9SMu/K…`).
        let lineStart = self.lineStart(of: secret.start, atMost: 200)
        // (CouchDB keeps its admins' passwords as `-pbkdf2-HASH,SALT,ITERATIONS`.)
        guard utf8[lineStart..<secret.end].contains(0x24) || utf8[lineStart..<secret.end].contains(0x7B) || utf8[secret.start] == 0x2A
                || Self.holds(lowered[lineStart..<secret.end], Array("secret".utf8)) || Self.holds(lowered[lineStart..<secret.end], Array("-pbkdf2-".utf8)) else { return false }
        // (What the rule found may be the hash alone after a label and spaces, with OCR's spaces
        // inside it: HAProxy's `user ops password $6$…$HFI/Z1 QUUVT/…`.)
        if !utf8[secret.start..<secret.end].contains(where: Self.isLineBreak),
           Self.squeezedStoredHash.firstMatch(in: slice(secret.start, secret.end).filter { $0 != " " && $0 != "\t" }) != nil { return true }
        // (Or a piece of a hash that starts its line, which OCR split: caddy's `$2a$14$4hj j 8Dcj
        // /qtpBx4…`, a rule finding its first pieces; the line, to its end, is the hash; round 154.)
        if !utf8[lineStart..<secret.end].contains(where: Self.isLineBreak),
           case let line = slice(lineStart, lineEnd(of: secret.end, atMost: 400)).drop(while: { $0 == " " || $0 == "\t" }),
           line.hasPrefix("$"), Self.squeezedStoredHash.firstMatch(in: line.filter { $0 != " " && $0 != "\t" }) != nil { return true }
        // (Or a crypt hash the terminal wrapped, which the rule joined: its length says it is one
        // hash, and not a hash with a password from the next line.)
        if Self.isCryptHashOfItsLength(slice(secret.start, secret.end).filter { !$0.isWhitespace }) { return true }
        return slice(lineStart, secret.end).split(whereSeparator: \.isNewline).allSatisfy { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return Self.storedHash.firstMatch(in: trimmed) != nil || Self.ciscoHashedSecret.firstMatch(in: trimmed) != nil
                || Self.squeezedStoredHash.firstMatch(in: trimmed.filter { $0 != " " && $0 != "\t" }) != nil
        }
    }

    /// Whether a value is one crypt(3) hash whose hash has its scheme's length (MD5-crypt's and
    /// Apache's 22 characters, SHA-256-crypt's 43, SHA-512-crypt's 86, bcrypt's 53 with its salt),
    /// give or take the two characters OCR may drop or add (its salt of 16 at most, 20 with OCR's).
    static func isCryptHashOfItsLength(_ value: String) -> Bool {
        let parts = value.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].isEmpty, (1...20).contains(parts[2].count),
              parts[3].allSatisfy({ $0 == "." || $0 == "/" || $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        let length: Int
        switch parts[1] {
        case "1", "apr1": length = 22
        case "5": length = 43
        case "6": length = 86
        case "2a", "2b", "2y": guard parts[2].count == 2, parts[2].allSatisfy(\.isNumber) else { return false }; length = 53
        default: return false
        }
        return abs(parts[3].count - length) <= 2
    }

    // MARK: - Prompts are no secrets

    /// The rest of a prompt's line after its first word: small words, then the noun it asks for
    /// and a colon that ends the line (`Re-enter` / ` new password:`).
    static let promptRest = TextMatcher(#"^[ \t]+(?:[a-z]+[ \t]+){0,3}(?:password|passphrase|passcode|pin|pwd)[ \t]*:[ \t]*$"#)

    /// Whether what a rule found is a prompt's first word (`Re-enter new password:`, `Retype-new
    /// password:` under `New password:`): letters and dashes, then the prompt's rest (``promptRest``).
    func isPromptsFirstWord(_ secret: Secret) -> Bool {
        guard secret.kind == .password, secret.end - secret.start <= 16,
              utf8[secret.start..<secret.end].allSatisfy({ Self.isLetter($0) || $0 == 0x2D }) else { return false }
        var lineEnd = secret.end
        while lineEnd < utf8.count, lineEnd - secret.end < 80, !Self.isLineBreak(utf8[lineEnd]) { lineEnd += 1 }
        return Self.promptRest.firstMatch(in: slice(secret.end, lineEnd)) != nil
    }

    // MARK: - Key ids are no secrets

    /// A key's id or fingerprint in hexadecimal after `0x`: 8 or 16 digits (OpenPGP's short and long
    /// ids, `--encrypt-key 0x4C7D28D756D8D73B`) or 40 (a fingerprint, or an Ethereum address). Each
    /// names a public key; a private key in hexadecimal is 64 digits.
    /// (OCR may read a `0` as `O`, `Q` or `@`, or as `®` or `©`: `OxBCBOCFO8…`, `@xA49C3221C2@E93EE`,
    /// `©x10D1BO5E…`, `@x6B@CC@44EQQFDAF®`.)
    /// (OCR may lose the `0` of a long id's or a fingerprint's `0x`: `x90F97C89B2123084`.)
    static let keyIdentifier = TextMatcher(#"^(?:[0O@®©]x"# + keyIdentifierDigit + #"{8}|[0O@®©]?x(?:"# + keyIdentifierDigit + "{16}|" + keyIdentifierDigit + "{40}))$")
    /// A hexadecimal digit of a key's id, or a glyph OCR reads for its `0`.
    static let keyIdentifierDigit = "[0-9A-Fa-fOQ@®©]"

    /// Whether what a rule found is a key's id (``keyIdentifier``, or ``isSigningKeyIdentifier(_:)``): it stays searchable.
    /// Whether a key was found in a JSON number: digits alone (maybe the `}` or `]` after them),
    /// after a quoted name and its `:` (Viber's `"message_token":5443…}`; OCR may put a space
    /// among the digits or beside the `:`). JSON gives a token as a string; a number under a
    /// token's name is a message's or a record's id. Round 162.
    func isJSONNumber(_ secret: Secret) -> Bool {
        guard secret.kind == .apiKey else { return false }
        var end = secret.end
        while end > secret.start, utf8[end - 1] == 0x7D || utf8[end - 1] == 0x5D { end -= 1 }
        guard end > secret.start, (0x30...0x39).contains(utf8[secret.start]),
              utf8[secret.start..<end].allSatisfy({ (0x30...0x39).contains($0) || Self.isSpace($0) }) else { return false }
        var index = secret.start
        while index > 0, secret.start - index < 4, Self.isSpace(utf8[index - 1]) { index -= 1 }
        guard index >= 2, utf8[index - 1] == 0x3A else { return false }
        index -= 1
        while index > 0, secret.start - index < 8, Self.isSpace(utf8[index - 1]) { index -= 1 }
        // (The name's closing quote as OCR read it, maybe curly: `"message_token” : …`.)
        return index >= 1 && quoteLength(endingAt: index) > 0
    }

    func isKeyIdentifier(_ secret: Secret) -> Bool {
        guard secret.kind == .apiKey else { return false }
        // (The length first: it is free, the cue's search walks the text.)
        if secret.end - secret.start >= 16, isSigningKeyIdentifier(secret) { return true }
        // (In bytes: a `®` or `©` is two.)
        guard (10...60).contains(secret.end - secret.start) else { return false }
        return Self.keyIdentifier.firstMatch(in: slice(secret.start, secret.end)) != nil
    }

    /// `docker trust inspect`'s administrative keys (Notary's): `Root Key:` and `Repository Key:`,
    /// then the key's id, 64 hexadecimal digits (the hash of its public key), under its table of
    /// signers: an id, as each signer's keys are.
    /// (OCR may read a digit as a capital, `…f8Fc12…`, or as a glyph it reads for one, `…abbale19…`,
    /// `…cOc99…`: eight such at most, and split the id four times at most; round 137. Or as a
    /// capital or glyph no hexadecimal digit is, `T` for `7`, `Z` for `2`, and drop or double one,
    /// `…01 fd 98…` for `…01fd198…`: 63 to 65 of them; round 142.)
    static let signingKeyLabel = TextMatcher(#"^[ \t]*(?:Root|Repository)[ \t]+Key[ \t]*:[ \t]*"#)

    /// Whether `secret` lies in the id after a ``signingKeyLabel``, under a table of signers.
    func isSigningKeyIdentifier(_ secret: Secret) -> Bool {
        guard mentions("signer", "administrative keys"), case let start = lineStart(of: secret.start, atMost: 96),
              let label = Self.signingKeyLabel.firstMatch(in: slice(start, secret.start)) else { return false }
        var end = secret.end
        while end < utf8.count, end - secret.end < 96, !Self.isLineBreak(utf8[end]) { end += 1 }
        while end > secret.end, Self.isSpace(utf8[end - 1]) { end -= 1 }
        var digits = 0, misread = 0, spaces = 0
        for byte in utf8[(start + label.end)..<end] {
            if Self.isSpace(byte) {
                spaces += 1
            } else if (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) {
                digits += 1
            } else if (0x41...0x46).contains(byte) || Self.misreadHexDigits.utf8.contains(byte) || "TZGgs|]!".utf8.contains(byte) {
                digits += 1
                misread += 1
            } else {
                return false
            }
        }
        return (63...65).contains(digits) && misread <= 8 && spaces <= 4
    }

    // MARK: - Encrypted values are no secrets

    /// A line that opens a map of encrypted values (a Sealed Secret's `encryptedData:`,
    /// `encrypted_data:`), and a line of a map: `name: value`.
    static let encryptedMapLine = TextMatcher(#"(?i)^[ \t]*encrypted[ \t]?_?[A-Za-z]{0,12}[ \t]*:[ \t]*$"#)
    static let mapEntryLine = TextMatcher(#"^[ \t]*["']?[A-Za-z0-9_.\-]{1,64}["']?[ \t]*:[ \t]*\S"#)

    /// Whether what a rule found is a value encrypted for a tool to decrypt, which only the key's
    /// holder can: SOPS's `ENC[AES256_GCM,data:…]`, Vault's transit `vault:v1:…`, EJSON's `EJ[1:…]`,
    /// Jenkins' `{AQAAAB…}`, a value under a
    /// Sealed Secret's `encryptedData:` (OCR drops the indentation: the lines between must all be
    /// `name: value`). It stays searchable, as the README says.
    static let bracedCiphertext = TextMatcher(#"^\{[^\s{}<>"']{40,}\}$"#)

    func isCiphertext(_ secret: Secret) -> Bool {
        guard secret.kind == .apiKey || secret.kind == .password else { return false }
        let head = slice(max(0, secret.start - 5), min(utf8.count, secret.start + 8))
        if head.contains("ENC[") || head.contains("ENC [") || head.contains("vault:v") || head.contains("EJ[1:") { return true }
        // Jenkins writes a secret it stores encrypted in braces (`<password>{AQAAABAAAAAQ…}</password>`):
        // base64 of 40+ characters inside, all the value (OCR may split it and read a glyph as junk).
        if utf8[secret.start] == 0x7B, Self.bracedCiphertext.firstMatch(in: squeezed(secret.start, secret.end)) != nil { return true }
        guard mentions("encrypted") else { return false }
        var lineStart = self.lineStart(of: secret.start, atMost: 200)
        var lines = 0
        while lineStart > 0, lines < 20 {
            let above = self.lineStart(of: lineStart - 1, atMost: 300)
            let line = slice(above, lineStart - 1)
            if Self.encryptedMapLine.firstMatch(in: line) != nil { return true }
            guard Self.mapEntryLine.firstMatch(in: line) != nil else { return false }
            lineStart = above
            lines += 1
        }
        return false
    }

    /// Cisco's `enable secret 9 …`, `username … secret 8 …`: the digit says the value is a hash
    /// (4 SHA-256, 5 MD5, 8 PBKDF2, 9 scrypt); OCR may split it.
    static let ciscoHashedSecret = TextMatcher(#"(?i)(?<![A-Za-z])secret[ \t]+[4589][ \t]+\S{1,4}(?:[ \t]?\S){10,120}$"#)

    // MARK: - Salesforce sessions

    /// A Salesforce session id (`sf org display`'s access token): the org's id (`00D`, 15
    /// characters), `!`, the session; OCR may read the `!` as `l`, `I`, `1` or `|`, with a space.
    static let salesforceSession = TextMatcher(#"(?<![A-Za-z0-9])00D[A-Za-z0-9]{12,15} ?[!lI1|] ?[A-Za-z0-9._]{16,}"#)

    /// The session and the machine-made pieces OCR split from it (``wrapped(_:)`` takes the next
    /// line when the screen wrapped it).
    func salesforceSessions() -> [Secret] {
        guard mentions("00d") else { return [] }
        return Self.salesforceSession.matches(in: searchable).map { match in
            secret(.apiKey, "Salesforce", match.start, valueEnd(from: match.end))
        }
    }

    // MARK: - Passwords given to a hashing command

    /// `mkpasswd` and `openssl passwd` print the hash of the password given to them (`mkpasswd -m
    /// sha-512 '…'`, `openssl passwd -6 -salt x '…'`): the hash is no secret, the argument is.
    /// OpenLDAP's `slappasswd` takes it after `-s` (`slappasswd -h {SSHA} -s '…'`): the match ends there.
    static let passwordHashingCommand = TextMatcher(#"(?i)(?<![A-Za-z0-9_\-])(?:mkpasswd|openssl[ \t]+passwd|slappasswd[^\n]{0,200}?[ \t]-s(?=[ \t]))(?![A-Za-z0-9_\-])"#)

    func passwordsGivenToHashing() -> [Secret] {
        guard mentions("mkpasswd", "passwd") else { return [] }
        return Self.passwordHashingCommand.matches(in: searchable).compactMap { match in
            // (After `-s`, the next piece is the password.)
            let afterFlag = match.text.hasSuffix("-s")
            // The quoted argument, or else the last piece before the command ends (`)`, `|`, `;`).
            guard let pieces = piecesToLineEnd(from: match.end, atMost: 8, maximumSpaces: 2) else { return nil }
            var candidate: (start: Int, end: Int)?
            for piece in pieces {
                let first = utf8[piece.start]
                // (A redirection gives the command a file to read, `-stdin < /run/secrets/…`: no argument.)
                if first == 0x29 || first == 0x7C || first == 0x3B || first == 0x3C { break }
                if quoteLength(at: piece.start) > 0 {
                    guard let (start, end, _) = value(after: piece.start), end > start else { return nil }
                    candidate = (start, end)
                    break
                }
                if first != 0x2D { candidate = piece }
                if afterFlag { break }
            }
            guard let (start, end) = candidate else { return nil }
            var stop = end
            while stop > start, [0x29, 0x22, 0x27, 0x3B].contains(utf8[stop - 1]) { stop -= 1 }
            let value = squeezed(start, stop)
            guard value.count >= 4, Self.shellWord.firstMatch(in: value) == nil, Self.isPasswordValue(value, quoted: true),
                  !(value.allSatisfy { $0.isLetter || $0 == "-" } && value.lowercased() == value) else { return nil }
            return secret(.password, nil, start, stop)
        }
    }

    // MARK: - Proxmox API tokens

    /// Proxmox VE's API token header: `PVEAPIToken=USER@REALM!TOKENID=SECRET`, the secret a UUID
    /// (OCR may put spaces around the `!` and inside the UUID).
    static let proxmoxToken = TextMatcher(#"(?i)PVEAPIToken[ \t]?=[^\s=]{1,64}(?:[ \t][^\s=]{1,32}){0,2}[ \t]?=[ \t]?(?=[0-9A-Fa-fOQ])"#)

    func proxmoxTokens() -> [Secret] {
        guard mentions("pveapitoken") else { return [] }
        return Self.proxmoxToken.matches(in: searchable).compactMap { match in
            // The UUID's pieces, to a quote or the line's end (at most six: OCR splits it).
            var end = match.end
            while let next = piece(from: end, maximumSpaces: end == match.end ? 0 : 1), next.end - match.end <= 48 {
                let stop = utf8[next.start..<next.end].firstIndex(where: { !(Self.isAlphanumeric($0) || $0 == 0x2D) }) ?? next.end
                guard stop > next.start else { break }
                end = stop
                if stop < next.end { break }
            }
            guard squeezed(match.end, end).count >= 30 else { return nil }
            return secret(.apiKey, "Proxmox", match.end, end)
        }
    }
}

// MARK: - Tokens a command takes as its argument

extension SecretScan {
    /// cloudflared's commands whose argument is a tunnel's token: `cloudflared service install
    /// TOKEN`, `cloudflared tunnel run --token TOKEN` (maybe a `--` option with its value between).
    static let tunnelTokenCommand = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])cloudflared[ \t]+(?:service[ \t]+install|tunnel(?:[ \t]+--[a-z\-]{1,32}(?:[ \t]+[^\s\-]\S{0,127})?){0,4}[ \t]+run[ \t]+(?:--[a-z\-]{1,32}(?:[ \t]+[^\s\-]\S{0,127})?[ \t]+){0,4}--token)(?:[ \t]*=[ \t]*|[ \t]+)"#)

    static let dashedName = TextMatcher(#"^[a-z0-9]+(?:-[a-z0-9]+)+$"#)

    /// An ssh destination whose user is a token: the tunnel services' (Pinggy's `ssh -p 443 -R0:…
    /// TOKEN+tcp@pro.pinggy.io`, a tmate session's `ssh TOKEN@nyc1.tmate.io`) let whoever holds
    /// it in. Group 1 the user, before a `+` and the service's word for a mode; a name does not
    /// switch between capitals, small letters and digits again and again as a token does
    /// (``looksLikeSecretOnItsOwn(_:)``: `deploy@`, `svc_sync@`, `Ana2@` stay), with capitals and small
    /// letters both (an algorithm's name in prose about ssh is none: `ssh: document
    /// sntrup761x25519-sha512@openssh.com`); round 157. Before a
    /// mode (`+tcp`), capitals side by side and small letters will do (`GBQDrzrQETOM+tcp@`: no
    /// user's name has them), as OCR may read the `@` after it as a letter (`+tcpapro.…`, `+tcpdpro.…`);
    /// and a `0` it starts with as `@`. (Twelve arguments at most before it, each walked whole.)
    static let sshTokenUser = TextMatcher(
        #"(?i)(?<![A-Za-z0-9_\-])ssh[ \t]+(?:\S{1,256}[ \t]+){0,12}?(@?[A-Za-z0-9_\-]{10,64}+)(?:(\+[a-z]{1,12}?)[@a-z]|@)(?=[A-Za-z0-9][A-Za-z0-9\-]*(?:\.[ \t]?[A-Za-z0-9\-]+)+)"#)

    /// A key given as the user with no password, `curl -u KEY: https://…` (KeyCDN's and Stripe's
    /// APIs take theirs so): group 1 the key, 20+ characters; it must be random. Round 157.
    /// (OCR may split it, four spaces at most, and read a `0` of it as `@`; eight, a hexadecimal
    /// key of 64 split into six pieces, Dropbox Sign's `-u '…a2937 2ae7 4f f6eal Of 84d8…:'`; round 162.)
    /// (Also last on its line: `(?m)`'s `$`, round 159: before, at a text's end only.)
    /// (Or with a password of one letter that its API ignores: Freshdesk's `-u KEY:X`; round 160.)
    /// (Or with its secret after the colon, when OCR split the user, which the user's rule then takes
    /// for no user, group 3 (group 2 the one letter): WooCommerce's key and secret, `-u ck_…f f888…:cs_…`; Sinch's plan id
    /// and token, `-u 1€394391-e497 -e048-… : O4UNpZB5…`; round 160. The secret is random when
    /// the user is not, and a UUID before it is an id, kept.)
    /// (A key of 20+ letters without a digit is one too: `bFsndKsZswMQbOSStydB:X`, its `0` read as `O`.)
    /// (OCR may read a glyph of the user as a symbol, `€`, `¢`, and split the secret once or twice:
    /// `: VGmIV9tPqkmCj 3KhEfTtk3ax8p \`; no piece of it starts with `-`, an option's.)
    /// (The option may close a bundle of curl's flags, `-su`, `-sSLu`, and OCR may double its
    /// letter, `-uU`; round 161.)
    static let keyAsUser = TextMatcher(#"(?m)(?<![\w\-])(?:-[sSLk]{0,3}u[uU]?|--user)[ \t]+["'‘’“”]?([\w\-@\p{S}]{4,128}+(?: [\w\-@\p{S}]{1,128}+){0,8})[ \t]?:[ \t]?(?:([A-Za-z])|([A-Za-z0-9_\-]{2,128}+(?: [A-Za-z0-9_][A-Za-z0-9_\-]{0,127}+){0,2}))?["'‘’“”]?(?=[ \t]|$)"#)

    /// A UUID's layout whatever glyphs OCR read in it (`1€394391-e497-e048-336a-f5f03393493`).
    static let uuidLayout = TextMatcher(#"^[^\s\-]{8}-[^\s\-]{4}-[^\s\-]{4}-[^\s\-]{4}-[^\s\-]{11,12}$"#)

    func keysGivenAsUsers() -> [Secret] {
        guard mentions("-u ", "-uu ", "su ", "lu ", "ku ", "--user ") else { return [] }
        return Self.keyAsUser.matches(in: searchable).flatMap { match -> [Secret] in
            guard let raw = match[1], let range = match.range(1) else { return [] }
            let key = Self.withoutOCRJunk(Self.atsReadAsZeros(raw.filter { $0 != " " }))
            let isKey = key.count >= 20 && (Self.isRandomToken(key) || Self.isRandomLetters(key)) && Self.uuidLayout.firstMatch(in: raw.filter { $0 != " " }) == nil
            var found = isKey ? [secret(.apiKey, nil, range.lowerBound, range.upperBound)] : []
            // (A piece OCR split from the secret holds a digit or both cases: `member list`, the
            // command's words after it, are none.)
            if let secretRange = match.range(3), case var end = secretRange.lowerBound, let first = piece(from: end, maximumSpaces: 0) {
                end = first.end
                while end < secretRange.upperBound, let next = piece(from: end, maximumSpaces: 1), next.end <= secretRange.upperBound,
                      case let bytes = utf8[next.start..<next.end], bytes.contains(where: { (0x30...0x39).contains($0) })
                        || bytes.contains(where: { (0x41...0x5A).contains($0) }) && bytes.contains(where: { (0x61...0x7A).contains($0) }) {
                    end = next.end
                }
                let value = squeezed(secretRange.lowerBound, end)
                if value.count >= 4, Self.isPasswordValue(value, quoted: false), isKey || Self.isRandomToken(Self.withoutOCRJunk(value)) {
                    found.append(secret(.apiKey, nil, secretRange.lowerBound, end))
                }
            }
            // (A secret the terminal wrapped after its first letter, `-u ck_…:c` / `s_5938…`: the
            // letter and the next line's first piece, random together.)
            if isKey, let letter = match.range(2), letter.upperBound == match.end, let wrap = wrapStart(after: match.end),
               let rest = piece(from: wrap, maximumSpaces: 0), case let value = slice(letter.lowerBound, letter.upperBound) + slice(rest.start, rest.end),
               value.count >= 16, Self.isRandomToken(value) {
                found.append(secret(.apiKey, nil, letter.lowerBound, rest.end))
            }
            return found
        }
    }

    func sshTokenUsers() -> [Secret] {
        guard mentions("ssh") else { return [] }
        return Self.sshTokenUser.matches(in: searchable).compactMap { match in
            guard let user = match[1].map(Self.atsReadAsZeros), let range = match.range(1),
                  user.contains(where: \.isUppercase), user.contains(where: \.isLowercase), Self.isRandomToken(user) || Self.looksLikeSecretOnItsOwn(user) || match[2] != nil && Self.capitalPairs(in: user) >= 1
            else { return nil }
            return secret(.apiKey, nil, range.lowerBound, range.upperBound)
        }
    }


    /// A tunnel's token given to cloudflared (``tunnelTokenCommand``): base64 of a JSON object
    /// (`eyJhIjoi…`) that OCR splits and misreads so that no shape of it survives (`ey IhIj ogl j
    /// U3MW…`). The command says what it is: its pieces to the command's end (over lines a shell's
    /// `\` continues, six at most), letters, digits and base64's symbols only, 60+ of them together
    /// and random (``isRandomToken(_:)``).
    func tunnelTokens() -> [Secret] {
        guard mentions("cloudflared") else { return [] }
        return Self.tunnelTokenCommand.matches(in: searchable).compactMap { match in
            var lineStart = match.end, start: Int?, end = match.end
            lines: for _ in 0..<7 {
                var index = lineStart, goesOn = false
                while let next = piece(from: index, maximumSpaces: .max) {
                    index = next.end
                    // The line's last piece may be the shell's `\`: glued to the token, the token goes
                    // on; alone, it ends the token (an option may follow, `\` / `    --url …`), or
                    // comes before it (`service install \` / `    eyJ…`).
                    let last = piece(from: next.end, maximumSpaces: .max) == nil
                    var stop = next.end
                    if last, utf8[stop - 1] == 0x5C {
                        if stop - 1 == next.start, start != nil { break lines }
                        (stop, goesOn) = (stop - 1, true)
                    }
                    guard stop > next.start else { break }
                    // (Nor an option, nor a tunnel's name after the token: `--token eyJ… shop-tunnel`,
                    // small words joined by `-`.)
                    guard utf8[next.start] != 0x2D || start != nil && !isOptionOrAddress(next),
                          utf8[next.start..<stop].allSatisfy({ Self.isAlphanumeric($0) || "+/=_-".utf8.contains($0) }),
                          Self.dashedName.firstMatch(in: slice(next.start, stop)) == nil else { break lines }
                    if start == nil { start = next.start }
                    end = stop
                }
                while index < utf8.count, !Self.isLineBreak(utf8[index]) { index += 1 }
                guard goesOn, index < utf8.count else { break }
                lineStart = index + 1
            }
            guard let start, case let token = squeezed(start, end).filter({ !$0.isNewline && $0 != "\\" }), token.count >= 60, token.count <= 4_096,
                  Self.isRandomToken(Self.withoutOCRJunk(token)) else { return nil }
            return secret(.apiKey, nil, start, end)
        }
    }
}

// MARK: - HTTP headers that carry a credential

extension SecretScan {
    /// A header that carries a credential: `Authorization:` with any scheme (PagerDuty's `Token
    /// token=…`, Opsgenie's `GenieKey …`, Splunk HEC's `Splunk …`), or a header named for a token,
    /// key or secret (`X-Postmark-Server-Token`, `X-Emby-Token`, `X-Api-Key`, `Private-Token`) or
    /// ending in `-Api` (Artifactory's `X-JFrog-Art-Api`; round 157), or
    /// Honeycomb's `X-Honeycomb-Team` (its API key); also as a list of headers gives one, `name=value`
    /// (`OTEL_EXPORTER_OTLP_HEADERS="x-honeycomb-team=…"`, OCR may space its dashes). OCR
    /// may read the opening quote curly or put a space beside the colon. Group 1 is the scheme.
    /// (`Authorization:` may carry a key with no scheme: Unleash's `*:production.…`; round 159.)
    /// (Or a macaroon, a bearer credential: LND's `Grpc-Metadata-macaroon`; round 162.)
    static let credentialHeader = TextMatcher(
        #"(?i)(?<![A-Za-z0-9\-])(?:authorization[ \t]?:[ \t]*(?:([A-Za-z][A-Za-z0-9.\-]{1,24})[ \t]+(?:(?:token|key|apikey|api_key)[ \t]?=[ \t]?)?)?|(?:(?:x-[a-z0-9\-]{0,40}?|private-|api-)(?:token|key|secret|auth)|x-[a-z0-9\-]{1,40}?-api|x ?- ?honeycomb ?- ?team|(?:[a-z0-9]{1,24}-){0,3}macaroon)[ \t]?[:=][ \t]*)["'“”‘’]?"#)

    /// The credential after such a header, as far as OCR split it (``valueEnd(from:maximumLength:stoppingAt:)``):
    /// 12+ characters of a token's alphabet with a digit or both cases (a UUID will do:
    /// Postmark's and Opsgenie's tokens are UUIDs); not a placeholder, a variable (`$TOKEN`) or a
    /// template. `Basic` is the basic-credentials rule's; `Bearer` and Okta's `SSWS` the token rule's.
    func headerCredentials() -> [Secret] {
        guard mentions("authorization", "token", "key", "secret", "auth", "honeycomb", "api", "macaroon") else { return [] }
        return Self.credentialHeader.matches(in: searchable, within: lines(mentioning: ["authorization", "token:", "key:", "secret:", "auth:", "token :", "key :", "honeycomb", "api:", "api :", "macaroon"]))
            .compactMap { match in
                if let scheme = match[1]?.lowercased(), Self.httpSchemes.contains(scheme) { return nil }
                guard let first = piece(from: match.end, maximumSpaces: 0) else { return nil }
                // The value ends at a quote or a `,` or `;`, as a header's does (or an `&`, as a query's).
                let stop = (first.start..<first.end).first { quoteLength(at: $0) > 0 || [0x2C, 0x3B, 0x26].contains(utf8[$0]) } ?? first.end
                var end = stop < first.end ? stop : valueEnd(from: first.end, maximumLength: 256, stoppingAt: [0x22, 0x27])
                // (In a header a quote opened, `-H 'X-JFrog-Art-Api: AKCp…mb Lr j vt VPR70 …Ow'`: the
                // scraps OCR cut the key into run to that quote, each of a key's characters, none a
                // word or an option; eight at most. Round 157.)
                // (Or over the line's end, when the terminal wrapped it: `…Key os_v2_app_… rxlqqej
                // g5vx…74g` / `phomuweaivjbz6rpzhak' \`.)
                if end < utf8.count, quoteLength(at: end) == 0, lineOpensAQuote(before: first.start) {
                    var index = end, pieces = 0, wrapped = false
                    while pieces < 8 {
                        if piece(from: index, maximumSpaces: .max) == nil, !wrapped, endsAWideLine(index), let start = wrapStart(afterSpacesFrom: index) {
                            (index, wrapped) = (start, true)
                        }
                        // (A piece of small letters may read as a word, `ineiwrleqf`: the quote that closes
                        // the header decides, with the whole as random as a key.)
                        // (OCR may split a key before its `-`, `AK-RjU013l0wSCp3b1T -VExFuWy fHOU…EvnU="`: a
                        // piece of 6+ a single dash starts, with no `=` and both cases or a digit, is no
                        // option inside the quotes, which must still close on the key; round 158.)
                        guard let next = piece(from: index, maximumSpaces: 1), !isOptionOrAddress(next) || isKeyPieceAfterADash(next) else { break }
                        let close = (next.start..<next.end).first { quoteLength(at: $0) > 0 } ?? next.end
                        guard close > next.start, utf8[next.start..<close].allSatisfy(Self.isKeyByteOrJunk) else { break }
                        if close < next.end {
                            if Self.isRandomToken(Self.withoutOCRJunk(squeezed(first.start, close).filter { !$0.isNewline })) { end = close }
                            break
                        }
                        index = next.end
                        pieces += 1
                    }
                }
                var value = Self.withoutTrailingJunk(squeezed(first.start, end).filter { !"'\"‘’“”".contains($0) && !$0.isNewline })
                // (A key given with no scheme must be one by shape, 24+ random characters; a project's
                // `*` may start it, Unleash's `*:production.…`. Round 159.)
                // (`Api-Key:` starts with an `a` too: its key needs no more than before.)
                if match[1] == nil, match.text.lowercased().hasPrefix("authorization") {
                    if value.hasPrefix("*") { value.removeFirst() }
                    guard value.count >= 24, Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
                }
                // (Read with the glyphs OCR put for letters and digits put back: `…Kmoe@gC`, `1¢17gn…`.)
                let read = Self.withoutOCRJunk(value)
                guard value.count >= 12, value.count <= 256, !Self.isPlaceholder(value), !value.hasPrefix("$"), !value.hasPrefix("<"), !value.hasPrefix("{"),
                      // (A key's id and its secret with a colon between, `Uploadcare.Simple PUB:SECRET`; round 157.)
                      read.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+/=~:".contains($0)) }),
                      read.contains(where: \.isNumber) || read.contains(where: \.isUppercase) && read.contains(where: \.isLowercase) else { return nil }
                return secret(.apiKey, nil, first.start, end)
            }
    }
}

extension SecretScan {
    /// Whether a piece that reads as an option is a key's piece OCR split off at its `-`: 6+ bytes,
    /// one `-` and then a key's characters, no `=`, both cases or a digit (`-VExFuWy`; `-X`, `--data`
    /// and `-sSfL` are options).
    func isKeyPieceAfterADash(_ piece: (start: Int, end: Int)) -> Bool {
        guard piece.end - piece.start >= 6, utf8[piece.start] == 0x2D, Self.isAlphanumeric(utf8[piece.start + 1]) else { return false }
        let body = utf8[(piece.start + 1)..<piece.end]
        return body.allSatisfy({ Self.isAlphanumeric($0) || "_-+/".utf8.contains($0) })
            && (body.contains(where: { (0x30...0x39).contains($0) }) || body.contains(where: { (0x41...0x5A).contains($0) }) && body.contains(where: { (0x61...0x7A).contains($0) }))
    }
}

// MARK: - Tokens that are UUIDs, printed beside their accessors

extension SecretScan {
    /// A `Secret ID` label at a line's start (`SecretID:`, `Secret ID    =`, Vault's `secret_id    `).
    static let secretIDLabel = TextMatcher(#"(?im)^[ \t]*secret[ \t_]?id[ \t]*(?:[:=][ \t]*|[ \t]+)(?=[0-9A-Za-z])"#)

    /// A token that is a UUID, printed beside its accessor: the `Secret ID` of Nomad's and Consul's
    /// ACL tokens (`nomad acl bootstrap`, `consul acl token create`: `SecretID:`), Vault's AppRole
    /// `secret_id` beside its `secret_id_accessor`. The accessor names the token in logs; the secret
    /// ID is the token. Without an accessor a secret's ID is public (Azure's portal lists a client
    /// secret's `Secret ID` beside its `Value`), and a UUID stays searchable. OCR may split the UUID
    /// (``uuidEnd(from:)``).
    func secretIDsBesideAccessors() -> [Secret] {
        guard mentions("accessor"), mentions("secret") else { return [] }
        return Self.secretIDLabel.matches(in: searchable).compactMap { match in
            guard let end = uuidEnd(from: match.end) else { return nil }
            return secret(.apiKey, nil, match.end, end)
        }
    }
}

// MARK: - Maps of hosts to tokens

extension SecretScan {
    /// A JSON key that names a kind of credential and opens a map (group 1 the name):
    /// Composer's `auth.json` (`"github-oauth": {`, `"bearer": {`, `"gitlab-token": {`).
    static let credentialMapOpening = TextMatcher(#"(?i)["'“”]([A-Za-z_\-]{0,24}(?:oauth|bearer|token)[A-Za-z_\-]{0,24})["'“”][ \t]*:[ \t]*\{[ \t]*$"#)
    /// A line of such a map: a quoted name (a host), then a quoted value (group 1).
    /// (OCR may read a quote as two: `"“github.com": …`.)
    static let mapStringEntry = TextMatcher(#"^[ \t]*["'“”]{1,2}[^"'“”\n]{1,128}["'“”]{1,2}[ \t]*:[ \t]*["'“”]{1,2}([^"'“”\n]{16,256})["'“”]"#)

    /// The tokens in a map of hosts to tokens under a key that names a kind of credential, to the
    /// map's `}` (eight lines at most): each value that is a random token, hexadecimal included
    /// (GitHub's older OAuth tokens are 40 hexadecimal digits, which elsewhere may be a hash).
    func tokensInCredentialMaps() -> [Secret] {
        guard mentions("oauth", "bearer", "token"), mentions("{") else { return [] }
        var found: [Secret] = []
        for match in Self.credentialMapOpening.matches(in: searchable, within: lines(mentioning: ["oauth", "bearer", "token"])) {
            var lineEnd = match.end
            for _ in 0..<8 {
                let lineStart: Int
                (lineStart, lineEnd) = nextFilledLine(after: lineEnd)
                guard lineStart < utf8.count else { break }
                let line = slice(lineStart, lineEnd)
                if let entry = Self.mapStringEntry.firstMatch(in: line), let value = entry[1], let range = entry.range(1),
                   Self.isRandomToken(Self.withoutOCRJunk(value.filter { $0 != " " })), !Self.isPlaceholder(value) {
                    found.append(secret(.apiKey, nil, lineStart + range.lowerBound, lineStart + range.upperBound))
                }
                if line.contains("}") { break }
            }
        }
        return found
    }
}

// MARK: - Logins that are tokens

extension SecretScan {
    /// A `login` setting or option and its value: `-Dsonar.login=…`, `login = …`.
    /// (OCR may read its `l` as two letters: `lLogin=`.)
    static let loginSetting = TextMatcher(#"(?i)(?<![A-Za-z0-9])l?login[ \t]*[:=][ \t]*(?=[A-Za-z0-9])"#)

    /// A login given as a token: 32+ random characters (hexadecimal will do) in up to four pieces
    /// to the line's end, as no user's name is. SonarQube's `sonar.login` takes its token so, and
    /// OCR splits the name at its dot (`-Dsonar. login=…`, `-Dsonar .. login=…`), which a rule that
    /// wants `sonar.login` whole misses.
    func loginTokens() -> [Secret] {
        guard mentions("login") else { return [] }
        return Self.loginSetting.matches(in: searchable, within: lines(mentioning: ["login"])).compactMap { match in
            guard let pieces = piecesToLineEnd(from: match.end, atMost: 4, maximumSpaces: 1), let last = pieces.last,
                  case let value = squeezed(match.end, last.end), value.count >= 32, value.count <= 256,
                  Self.isRandomToken(Self.withoutOCRJunk(value)), !Self.isPlaceholder(value) else { return nil }
            return secret(.apiKey, nil, match.end, last.end)
        }
    }
}
