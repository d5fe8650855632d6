import Foundation

/// The rules of ``SecretDetector``, one method per rule, over one text.
struct SecretScan {
    let text: String
    /// The text as ICU searches it, made once for the scan's searches of the whole text.
    let searchable: UTF16Text
    let utf8: [UInt8]
    /// The text's bytes lower-cased (ASCII only, so offsets stay the same) for cheap cue checks.
    let lowered: [UInt8]

    /// Runs of 16 or more token characters (`A-Z a-z 0-9 _ - . = + / : ~`): every key, token and
    /// password rule needs one, so most texts skip those rules after this one cheap scan.
    let longRuns: [Range<Int>]

    /// Which pairs of adjacent bytes the lower-cased text holds, a bit per pair (8 KB): a cue with
    /// a pair the text lacks is not in it, which ``mentions(_:)`` then knows without a search.
    let pairs: [UInt64]

    /// Whether the text holds one of ``lookalikeAnchors`` (what OCR makes of `пароль` and
    /// `κωδικός`, about a hundred strings): checked once here for the three rules that ask
    /// (round 148; each had checked them again).
    let mentionsLookalikes: Bool

    init(text: String) {
        self.text = text
        searchable = UTF16Text(text)
        utf8 = Array(text.utf8)
        lowered = utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        var pairs = [UInt64](repeating: 0, count: 1024)
        lowered.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 2 else { return }
            for i in 1..<bytes.count {
                let pair = Int(bytes[i - 1]) << 8 | Int(bytes[i])
                pairs[pair >> 6] |= 1 << UInt64(pair & 63)
            }
        }
        self.pairs = pairs
        let lowered = lowered
        mentionsLookalikes = Self.lookalikeAnchorBytes.contains { anchor in anchor.withUnsafeBufferPointer { Self.holds(lowered, pairs: pairs, $0) } }
        var runs: [Range<Int>] = []
        var start = 0
        for (i, byte) in utf8.enumerated() where !Self.isTokenByte(byte) {
            if i - start >= 16 { runs.append(start..<i) }
            start = i + 1
        }
        if utf8.count - start >= 16 { runs.append(start..<utf8.count) }
        longRuns = runs
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E || byte == 0x3D || byte == 0x2B
            || byte == 0x2F || byte == 0x3A || byte == 0x7E
    }

    /// Whether the text, lower-cased, holds any of `cues` (written in small letters): the guard
    /// that lets most texts skip a rule. A byte search: `String.contains` goes through
    /// Foundation's locale-aware search, which took half the detector's time.
    /// (Each cue's pairs of bytes are looked up first: most cues are in no text, and a pair the
    /// text lacks rules one out for two bit tests, where the search reads the whole text.)
    /// (A cue's bytes are read where the string keeps them, not copied to an array: in round 148
    /// that took detection time down by 1.5 %.)
    func mentions(_ cues: String...) -> Bool {
        mentions(anyOf: cues)
    }

    /// ``mentions(_:)`` for a list kept in a constant (``toolPasswordCues``).
    func mentions(anyOf cues: [String]) -> Bool {
        cues.contains { cue in
            cue.utf8.withContiguousStorageIfAvailable { Self.holds(lowered, pairs: pairs, $0) }
                ?? Array(cue.utf8).withUnsafeBufferPointer { Self.holds(lowered, pairs: pairs, $0) }
        }
    }

    /// Whether `lowered`, whose pairs of adjacent bytes are `pairs`, holds `cue`.
    static func holds(_ lowered: [UInt8], pairs: [UInt64], _ cue: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8?
        for byte in cue {
            if let previous, case let pair = Int(previous) << 8 | Int(byte), pairs[pair >> 6] & (1 << UInt64(pair & 63)) == 0 { return false }
            previous = byte
        }
        return lowered.withUnsafeBufferPointer { holds($0, cue) }
    }

    /// Whether `bytes` hold `needle` somewhere: `memchr` finds each candidate first byte and
    /// `memcmp` checks the rest (the C library's loops; the guards run dozens of these per text).
    static func holds(_ bytes: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { holds(haystack, $0) } }
    }

    static func holds(_ haystack: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = pattern.first, pattern.count <= haystack.count,
              let base = haystack.baseAddress, let wanted = pattern.baseAddress else { return false }
        var position = base
        let last = base + (haystack.count - pattern.count)
        while position <= last {
            guard let hit = memchr(position, Int32(first), last - position + 1) else { return false }
            let candidate = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
            if memcmp(candidate, wanted, pattern.count) == 0 { return true }
            position = candidate + 1
        }
        return false
    }

    /// The lines that hold any of `cues` (small letters), as UTF-16 ranges for
    /// ``TextMatcher/matches(in:within:)``: a pattern that needs a cue on its line then reads only
    /// those lines.
    func lines(mentioning cues: [String]) -> [NSRange] {
        let needles = cues.map { Array($0.utf8) }
        var windows: [NSRange] = []
        var lineStart = 0, lineStart16 = 0, offset16 = 0
        func close(_ end: Int) {
            if needles.contains(where: { Self.holds(lowered[lineStart..<end], $0) }) {
                windows.append(NSRange(location: lineStart16, length: offset16 - lineStart16))
            }
        }
        for (i, byte) in lowered.enumerated() {
            if byte == 0x0A {
                close(i)
                lineStart = i + 1
                lineStart16 = offset16 + 1
            }
            // UTF-16 units: one for each character's first byte, two for a 4-byte one.
            if byte & 0xC0 != 0x80 { offset16 += byte >= 0xF0 ? 2 : 1 }
        }
        close(lowered.count)
        return windows
    }

    func slice(_ start: Int, _ end: Int) -> String { String(decoding: utf8[start..<end], as: UTF8.self) }

    func secret(_ kind: SecretKind, _ label: String?, _ start: Int, _ end: Int) -> Secret {
        // (Only a card's and an account's markers show some of the value: a key's may be long.)
        Secret(kind: kind, label: label, start: start, end: end,
               marker: SecretDetector.marker(kind, label: label, value: kind == .card || kind == .iban ? slice(start, end) : ""))
    }

    // MARK: - Provider keys

    /// Keys whose shape names their provider: a fixed prefix and a fixed alphabet and length.
    /// Sources: the providers' documented formats, as gitleaks and detect-secrets encode them.
    static let providers: [(label: String, pattern: String)] = [
        ("AWS", #"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"#),
        // Tencent Cloud's SecretId (its SecretKey, 32 characters, has no prefix).
        ("Tencent Cloud", #"AKID[A-Za-z0-9]{32}"#),
        ("GitHub", #"(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82}"#),
        ("GitLab", #"gl(?:pat|dt|rt|soat|ffct|ft)-[A-Za-z0-9_\-]{20}|glptt-[0-9a-f]{40}|glcbt-(?:[0-9a-fA-F]{1,5}_)?[A-Za-z0-9_\-]{20}|glimt-[A-Za-z0-9_\-]{25}|glagent-[A-Za-z0-9_\-]{50}|gloas-[A-Za-z0-9_\-]{64}|GR1348941[A-Za-z0-9_\-]{20,}"#),
        ("Slack", #"xox[abposre]-\d{8,}-[A-Za-z0-9\-]{8,}|xoxe\.xox[bp]-\d-[A-Z0-9]{100,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/]{20,}"#),
        ("Stripe", #"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,99}|whsec_[A-Za-z0-9]{24,}"#),
        // (And its OAuth refresh tokens, `1//0…`, as `firebase login:ci` and `gcloud` print them.)
        ("Google", #"AIza[0-9A-Za-z_\-]{35}|GOCSPX-[A-Za-z0-9_\-]{28}|ya29\.[0-9A-Za-z_\-]{20,}|1//0[0-9A-Za-z_\-]{40,}"#),
        ("Anthropic", #"sk-ant-(?:api|admin|sid)\d{2}-[A-Za-z0-9_\-]{20,}"#),
        ("OpenAI", #"sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{48}"#),
        ("Twilio", #"SK[0-9a-fA-F]{32}"#),
        ("SendGrid", #"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}"#),
        ("npm", #"npm_[A-Za-z0-9]{36}"#),
        ("PyPI", #"pypi-AgE[A-Za-z0-9_\-]{50,}"#),
        ("Mailchimp", #"[0-9a-f]{32}-us[0-9]{1,2}"#),
        ("Mailgun", #"key-[0-9a-f]{32}"#),
        ("Vault", #"hv[sbr]\.[A-Za-z0-9_\-]{24,}"#),
        // X's (Twitter's) app-only bearer tokens: 20+ `A`s, then the token (`%` inside).
        ("X", #"A{20,24}[A-Za-z0-9%]{40,}"#),
        ("Hugging Face", #"hf_[A-Za-z]{34}"#),
        ("Shopify", #"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"#),
        ("DigitalOcean", #"do[opr]_v1_[a-f0-9]{64}"#),
        // (In the Bot API's addresses it follows `/bot`: `https://api.telegram.org/bot<token>/sendMessage`.)
        ("Telegram", #"(?:(?<=/)bot)?[0-9]{8,10}:AA[0-9A-Za-z_\-]{32,40}"#),
        ("Discord", #"[A-Z][A-Za-z0-9_\-]{23,25}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,38}"#),
        ("Square", #"sq0(?:csp|atp)-[0-9A-Za-z_\-]{22,43}|EAAA[A-Za-z0-9_\-]{60}"#),
        ("Azure", #"AccountKey=[A-Za-z0-9+/]{86}=="#),
        ("Postman", #"PMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}"#),
        ("New Relic", #"NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9\-]{32}|NRJS-[a-f0-9]{19}"#),
        ("Tailscale", #"tskey-[a-z]+-[A-Za-z0-9\-]{30,}"#),
        ("Figma", #"figd_[A-Za-z0-9_\-]{38,45}"#),
        ("Databricks", #"dapi[a-f0-9]{32}(?:-\d)?"#),
        ("Sentry", #"sntry[su]_[A-Za-z0-9+/=_\-]{60,}"#),
        ("Atlassian", #"ATATT3[A-Za-z0-9_\-=]{150,}"#),
        ("Grafana", #"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}"#),
        // (A service token names its environment: `dp.st.prd.…`.)
        ("Doppler", #"dp\.(?:st|sa|ct|pt|scim|audit)\.(?:[a-z0-9_\-]{2,35}\.)?[A-Za-z0-9_\-]{40,}"#),
        ("Replicate", #"r8_[A-Za-z0-9]{37}"#),
        ("Perplexity", #"pplx-[A-Za-z0-9]{48}"#),
        ("Pulumi", #"pul-[a-f0-9]{40}"#),
        // LaunchDarkly's SDK and mobile keys: `sdk-` or `mob-` and a UUID (its API tokens, `api-…`,
        // name their use the same way; round 156).
        ("LaunchDarkly", #"(?<![A-Za-z0-9_\-])(?:sdk|mob|api)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9_\-])"#),
        // HubSpot's private app tokens: `pat-`, the data centre (`na1`, `eu1`), a UUID (round 143).
        ("HubSpot", #"pat-(?:na|eu|ap)[12]-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#),
        ("Dropbox", #"sl\.(?:u\.)?[A-Za-z0-9_\-]{130,}"#),
        // Firebase Cloud Messaging's legacy server key: an instance id, `:APA91b`, the key.
        ("Firebase", #"AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{120,}"#),
        // A Meta (Facebook, Instagram) access token: `EAA`, the app's letter, 100+ characters.
        ("Meta", #"EAA[A-Za-z0-9]{100,}"#),
        // Mapbox's secret tokens (`pk.` ones are public): `sk.`, a JWT-like body.
        ("Mapbox", #"sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,}"#),
        ("Asana", #"[12]/\d{16}:[0-9a-f]{32}"#),
        ("Airtable", #"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"#),
        ("LangSmith", #"lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}"#),
        ("Supabase", #"sbp_[0-9a-f]{40}"#),
        ("Docker Hub", #"dckr_pat_[A-Za-z0-9_\-]{27}"#),
        ("NuGet", #"oy2[a-z0-9]{43}"#),
        // Fly.io's macaroon tokens (`fly tokens create`: `FlyV1 fm2_…`, base64 with `+` and `/`).
        ("Fly.io", #"fm[12][ar]?_[A-Za-z0-9+/=]{60,}"#),
        // BIP32's extended private keys (`xprv…`, testnet `tprv…`, SegWit's `yprv`/`zprv`): base58,
        // 111 characters, shown whole or wrapped (``wrapped(_:)`` takes the rest).
        ("BIP32", #"[xtyzuvYZ]prv[1-9A-HJ-NP-Za-km-z]{40,108}"#),
        ("PlanetScale", #"pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_\-.]{32,64}"#),
        ("JWT", #"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}(?:\.[A-Za-z0-9_\-]{8,})?|eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"#),
        ("2FA secret", #"otpauth://[A-Za-z]+/[^\s]*"#),
        // Google Authenticator's export (`otpauth-migration://offline?data=…`): every account's secret, encoded.
        ("2FA export", #"otpauth-migration://offline\?data=[^\s]+"#),
        // NATS' nkey seeds: `S`, the key's kind (user, account, operator, server, cluster, curve), base32.
        ("NATS seed", #"S[UAONCX][A-Z2-7]{56}"#),
        // Any provider's: a short lower-case prefix, `_`, and 30+ random characters (`sgp_…`,
        // `ntn_…`): the shape new providers follow, checked for randomness below.
        // Some carry a random part before the key (`sgp_AaD80dc6E02eCAE1_d3cb…`, Pinecone's five: `pcsk_7iKeg_…`).
        ("token", #"[a-z]{2,8}_(?:[a-z]{2,8}_|[A-Za-z0-9]{4,24}_)?[A-Za-z0-9]{30,}"#),
    ]

    /// Every provider's key, in one pattern without capture groups: ICU copies each group's slots
    /// whenever it tries an alternative, which with a group per provider was half the pattern's
    /// time. ``providerLabel(of:in:_:)`` names the provider of a match.
    static let providerMatcher = TextMatcher(
        #"(?<![A-Za-z0-9_\-])(?:"# + providers.map { "(?:\($0.pattern))" }.joined(separator: "|") + #")(?![A-Za-z0-9_\-])"#)
    /// The providers' labels (`Stripe`, `GitHub`, …).
    static let providerLabels = Set(providers.map(\.label))
    /// Each provider's pattern alone, as the combined one ends it.
    static let providerPatterns = providers.map { TextMatcher(#"(?:"# + $0.pattern + #")(?![A-Za-z0-9_\-])"#) }

    /// The provider whose pattern `match` of ``providerMatcher`` in `text` is: the first whose
    /// pattern matches there, to the same end (the alternative the combined pattern took). Each
    /// is tried on the match and the context its look-arounds see (``ICURegex/results(in:range:options:first:)``),
    /// not the whole text: a run of thousands of keys costs its length, not its square.
    static func providerLabel(of match: TextMatcher.Match, in text: UTF16Text) -> String? {
        guard let whole = match.groupRanges.first else { return nil }
        let index = providerPatterns.firstIndex { pattern in
            pattern.regex.results(in: text, range: whole, options: [.anchored, .transparentBounds], first: true)
                .first.map { NSMaxRange($0.range) == NSMaxRange(whole) } ?? false
        }
        return index.map { providers[$0].label }
    }

    func providerKeys() -> [Secret] {
        // Each key lies within one long run; a 2FA URI (`?secret=…&issuer=`) is matched in the whole text.
        var matches: [(match: TextMatcher.Match, label: String)] = []
        func collect(in searched: UTF16Text, at offset: Int) {
            for var match in Self.providerMatcher.matches(in: searched) {
                guard let label = Self.providerLabel(of: match, in: searched) else { continue }
                match.start += offset
                match.end += offset
                matches.append((match, label))
            }
        }
        if mentions("otpauth") {
            collect(in: searchable, at: 0)
        } else {
            for run in longRuns { collect(in: UTF16Text(slice(run.lowerBound, run.upperBound)), at: run.lowerBound) }
        }
        return matches.compactMap { match, label in
            // Placeholders (`ghp_xxxx…`, `AKIAZZZZ…`, `GR1348941XXXX…`) show the shape, not a key.
            guard Set(match.text.suffix(16)).count > 3 else { return nil }
            // (OCR may read a character into `secret=`: `secret-=`.)
            if label == "2FA secret", Self.secretParameter.firstMatch(in: match.text) == nil { return nil }
            if label == "JWT", !Self.isJSONObjectBase64(match.text.prefix { $0 != "." }) { return nil }
            if label == "Vault", !Self.isRandomToken(match.text) && !Self.isRandomLetters(match.text) { return nil }
            if label == "token" {
                // (A record's id is no key: Clerk's `user_…`, Stripe's `cus_…`; ``objectIdPrefixes``.)
                if Self.objectIdPrefixes.contains(String(match.text.prefix { $0 != "_" })) { return nil }
                let body = match.text.split(separator: "_").last.map(String.init) ?? ""
                guard body.contains(where: \.isUppercase), body.contains(where: \.isLowercase), body.contains(where: \.isNumber),
                      Self.entropy(body) >= 4 else { return nil }
            }
            return secret(.apiKey, label, match.start, match.end)
        }
    }

    static let secretParameter = TextMatcher(#"(?i)secret[^=&\s]{0,2}="#)

    /// Whether base64url text decodes to a JSON object (a JWT's header does).
    static func isJSONObjectBase64(_ part: Substring) -> Bool {
        guard let data = base64URLDecoded(part) else { return false }
        return (try? JSONSerialization.jsonObject(with: data)) is [String: Any]
    }

    /// The bytes of base64 or base64url text, with or without its padding.
    static func base64URLDecoded(_ text: some StringProtocol) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "=", with: "")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    /// Words that stand in for a value in examples (`user:pass@host`, `--password="password"`).
    static let placeholderWords: Set<String> = ["pass", "password", "passwd", "secret", "token", "user", "username", "changeme",
                                                "example", "test", "dummy", "fake", "mypassword", "yourpassword", "foo", "bar", "pwd", "pw"]

    /// Text that only shows where a value goes: one or two distinct characters (`xxxx`, `****`,
    /// `••••`), template variables (`${PASSWORD}`, `{{token}}`, `<password>`, `%s`).
    static func isPlaceholder(_ value: String) -> Bool {
        let body = value.filter { !"-_.:/ ".contains($0) }
        if Set(body.lowercased()).count <= 2 || placeholderWords.contains(value.lowercased()) { return true }
        // (`example` and digits alone: AWS's manuals' `--client-request-token 123Example`; round 159,
        // masked once the shell's `\` after it was no longer read as part of it.)
        if case let lower = body.lowercased(), lower.contains("example"), lower.replacingOccurrences(of: "example", with: "").allSatisfy(\.isNumber) { return true }
        // A field's mask as OCR reads its stars (`KKKKKKKKEKKKKKKKG7OP` for `****************070P`).
        if body.count >= 8, isMostlyOneCharacter(body) { return true }
        // (Or its dots, read as a few small letters and signs, one of them four times in a row: `st++sreeee`.)
        if body.count >= 8, Set(body).count <= 5, longestRunOfOneCharacter(body) >= 4, body.allSatisfy({ $0.isLowercase || "+*•·°".contains($0) }) {
            return true
        }
        // (Or the stars a field shows first, whatever OCR read after them: `***k#`; or one or two,
        // and the letters OCR reads for the rest of them: `**kxkkKK`, `*xkkkkeK` (round 132: an
        // `ovftool` prompt's echo).)
        if value.hasPrefix("***") || value.hasPrefix("*") && value.count >= 6 && value.allSatisfy({ "*xXkKe".contains($0) }) { return true }
        // A template's expression, maybe cut at its first space (`${{ secrets.DOCKERHUB_TOKEN }}`
        // in a GitHub workflow, `{{ .Values.password }}`, `{% raw %}`, `<%= ENV['KEY'] %>`).
        // (`{%` and `<%` open a tag only before a space, a tag's name or mark, `{%-`, `<%=`, and
        // maybe with the spaces squeezed out, `{%raw%}`: a random salt may start with them, `{%*BX#(UnD4…`.)
        if ["${{", "{{"].contains(where: value.hasPrefix) { return true }
        if ["{%", "<%"].contains(where: value.hasPrefix), value.dropFirst(2).first.map({ $0.isLetter || " -+=#".contains($0) }) ?? true { return true }
        // A shell's command substitution says where the value comes from (`"$(pass show acme/db)"`,
        // `$(op read op://…)`), unless it only prints a literal (`$(echo '…')`).
        if value.hasPrefix("$("), !value.hasPrefix("$(echo"), !value.hasPrefix("$(printf") { return true }
        // Where a tool reads the value from, not the value: OpenSSL's and virt-customize's
        // `file:/run/secrets/key`, `env:KEY_PASS`, `fd:3`, Vault's and curl's `@/run/secrets/ops`.
        if valueSource.firstMatch(in: value) != nil { return true }
        // A value that says where yours goes (`sk_test_your_key_here`, `your-api-key`).
        if value.lowercased().split(whereSeparator: { "_-. ".contains($0) }).contains("your") { return true }
        // (OCR may read a quote glyph after a variable: `${DEPLOY_PASSWORD}'`.)
        let trimmed = value.hasPrefix("$") ? String(value.reversed().drop(while: { "'\"‘’“”".contains($0) }).reversed()) : value
        return !templateVariable.matches(in: trimmed).isEmpty
    }

    /// A member of an object in code, three names or more joined by dots, the first in small
    /// letters (`process.env.SMTP_PASS`, `config.smtp.pass`, `this.settings.apiKey`), maybe before
    /// the list's `,` or the object's `}`: as no chosen password is. (A host's name has the shape
    /// too, `db01.acme.io` under `az keyvault secret show --name db-host`: no password either.)
    static let memberPath = TextMatcher(#"^[a-z_$][A-Za-z0-9_$]{0,63}(?:\.[A-Za-z_$][A-Za-z0-9_$]{0,63}){2,8}[,;}]?$"#)

    /// A source a tool reads a secret from (``isPlaceholder(_:)``): `file:` and a file's name,
    /// `env:` and a variable's, `fd:` and a descriptor's number, `@` and a path.
    static let valueSource = TextMatcher(#"^(?:(?i:file):[~/.A-Za-z0-9_\-][^\s]{0,255}|(?i:env):[A-Za-z_][A-Za-z0-9_]{0,63}|(?i:fd):\d{1,3}|@[~/][^\s]{0,255})$"#)

    /// Whether one character fills most of a value, seven times at least or five in a row, as no
    /// chosen value does: a field's mask as OCR reads its dots or stars (`eeeeeesee2`,
    /// `KKKKKKKKEKKKKKKKG7OP`), a value redacted (`AP6xxxxxx`). (A random password of ten may hold
    /// one character six times, four in a row: `vvvv8vQ+v!`.)
    static func isMostlyOneCharacter(_ value: some StringProtocol) -> Bool {
        let counts = Dictionary(value.map { ($0, 1) }, uniquingKeysWith: +)
        guard let (_, most) = counts.max(by: { $0.value < $1.value }), most * 5 >= value.count * 3 else { return false }
        return most >= 7 || longestRunOfOneCharacter(value) >= 5
    }

    /// The most times one character comes in a row.
    static func longestRunOfOneCharacter(_ value: some StringProtocol) -> Int {
        var run = 0, longest = 0, previous: Character?
        for each in value {
            run = each == previous ? run + 1 : 1
            previous = each
            longest = max(longest, run)
        }
        return longest
    }

    /// A size where a value would be: `password:  16 bytes` (`kubectl describe secret` shows how
    /// long each value is, not the value), `12 characters`.
    static let sizeDescription = TextMatcher(#"^\d{1,4}[ \t]+(?:bytes?|chars?|characters?|digits?|letters?|symbols?)(?=[\s,.;)]|$)"#)

    /// Whether a found password or key is a ``sizeDescription``.
    func describesASize(_ secret: Secret) -> Bool {
        guard secret.kind == .password || secret.kind == .apiKey, secret.start < utf8.count, (0x30...0x39).contains(utf8[secret.start]) else { return false }
        var end = secret.start
        while end < utf8.count, end - secret.start < 24, !Self.isLineBreak(utf8[end]) { end += 1 }
        return Self.sizeDescription.firstMatch(in: slice(secret.start, end)) != nil
    }

    /// A whole value that is a template variable: `${NAME}`, `$NAME`, `{{ name }}`, `<password>` (also
    /// HTML-escaped, `&lt;password&gt;`), `%s`, `{0}`, Swift's `\(password)`, Grafana's expansions
    /// (`$__file{/run/secrets/…}`, `$__env{…}`, `$__vault{…}`; OCR may drop one `_`), FreeSWITCH's
    /// preprocessor variables (`$${default_password}`, set in `vars.xml`). (OCR may read
    /// a `_` in braces as a space, `${DEPLOY PASSWORD}`, and put a space beside a brace: `$ { DEPLOY_PASSWORD}`.)
    /// (And the `O` of an uppercase name as `0`: `$0S_PASSWORD_INPUT` for `$OS_PASSWORD_INPUT`;
    /// and the `$` before a name of capitals in braces as `§`, `S` or `5`: `§{LOGSTASH_PASSWORD}`,
    /// round 155.)
    static let templateVariable = TextMatcher(#"^(?:\$\{?[A-Za-z_][\w.]*\}?|[§S5]\{[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\}|\$0[A-Z_][A-Z0-9_]*|\$\$\{[A-Za-z_][\w.\-]*\}|\$ ?\{ ?[A-Za-z_][\w.]*(?: [\w.]+){0,2} ?\}|\$_{1,2}(?:file|env|vault)\{[^{}]{1,256}\}|\\\([\w.]+\)|\{\{[^}]*\}\}|<[^<>]+>|&lt;(?:(?!&gt;).)+&gt;|%[sd]|\{\w*\}|\[[^\]]+\])$"#)

    // MARK: - Private-key blocks and connection strings

    /// An armoured key block whose header names a key that is not public: `PRIVATE KEY` of any
    /// kind, OpenVPN's `Static key V1`, a `SECRET KEY` (a public key or a certificate is none).
    /// NATS' credentials file keeps its seed so (`-----BEGIN USER NKEY SEED-----`).
    static let pemMatcher = TextMatcher(
        #"-----BEGIN (?![A-Za-z0-9 ]*PUBLIC)(?:[A-Za-z0-9]+ ){0,3}(?i:key|seed)(?: BLOCK| V\d)?-----(?=[\s\S]{0,8}[A-Za-z0-9+/=]{12})(?:[\s\S]*?-----END (?:[A-Za-z0-9]+ ){0,3}(?i:key|seed)(?: BLOCK| V\d)?-----|[\s\S]*)"#)

    func privateKeyBlocks() -> [Secret] {
        guard mentions("key-----", "key block-----", "key v", "seed-----") else { return [] }
        return Self.pemMatcher.matches(in: searchable).map { secret(.apiKey, "private key", $0.start, $0.end) }
    }

    /// `scheme://user:password@host`: only the password is a secret (the host stays findable).
    /// OCR often reads `postgres://` as `postgres: //`: a space after the colon or the slashes is allowed.
    /// The user may be empty: `redis://:password@cache:6379/0`.
    /// (OCR may put a space after the user's colon too: `postgres: //deploy: cDP_s*2…@host`.)
    /// (The user may hold one `@` of its own, not encoded: `imaps://ana@acme.io:…@imap.acme.io`,
    /// or `%40` OCR read as `%4@`; the last `@` ends the password, as browsers read it.)
    /// The label of an address's password (``connectionPasswords()``, ``noisyConnectionPasswords()``).
    static let connectionStringLabel = "connection string"
    static let credentialURL = TextMatcher(#"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}+: ?// ?([^\s:/@"'`]{0,64}(?:@[^\s:/@"'`]{1,64})?): ?([^\s@/"'`]{1,128})@[A-Za-z0-9\[]"#)

    func connectionPasswords() -> [Secret] {
        guard mentions("//") else { return [] }
        return Self.credentialURL.matches(in: searchable).compactMap { match in
            guard let password = match[2], !Self.isPlaceholder(password), password.count >= 3,
                  !password.allSatisfy(\.isASCIIDigit) else { return nil } // `host:8000@` is a port
            // Without a user, a value with a `:` is a method and a user (CVS's `cvs://:pserver:anoncvs@…`).
            if match[1]?.isEmpty != false, password.contains(":") { return nil }
            let end = match.end - 2 // before `@` and the host's first character
            let start = end - password.utf8.count
            return Secret(kind: .apiKey, label: Self.connectionStringLabel, start: start, end: end, marker: "[password]")
        }
    }

    /// An address whose user is a token and no password follows (`discord://TOKEN@WEBHOOK_ID`, the
    /// notification addresses Watchtower and Apprise take; `https://TOKEN@git.acme.io/…`): 20+
    /// characters, random (``isRandomToken(_:)``), group 1. Round 164.
    static let tokenUserURL = TextMatcher(#"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}+: ?// ?([^\s:/@"'`]{20,256}+)@(?=[A-Za-z0-9\[])"#)

    func tokenUserSecrets() -> [Secret] {
        guard mentions("//") else { return [] }
        // (Each address's `//` is found by a walk over the bytes and its scheme read back from it:
        // a pattern that starts with a letter's class is tried at every position of every text,
        // which cost 4 % of the detection time.)
        let mayBeQuoted = mentions("\"", "'", "“", "‘"), hasAt = mentions("@")
        var found: [Secret] = []
        var index = 1
        while index < utf8.count {
            defer { index += 1 }
            guard utf8[index] == 0x2F, utf8[index - 1] == 0x2F, let schemeStart = schemeStart(beforeSlashesAt: index - 1) else { continue }
            var start = index + 1
            if start < utf8.count, utf8[start] == 0x20 { start += 1 }
            guard start < utf8.count, Self.isAlphanumeric(utf8[start]) || utf8[start] == 0x5F || utf8[start] == 0x2D else { continue }
            // (A quoted one as OCR read it first: its walk finds the last `@`, where OCR may have read
            // one for a `0` of the token, `…WiY7t1y@kAUf…`; the look back for the quote only when
            // the walk found a user.)
            if mayBeQuoted, let user = quotedTokenUser(from: start), lineOpensAQuote(before: schemeStart) {
                found.append(user)
                continue
            }
            // (Else the user as ``tokenUserURL`` has it: 20 to 256 bytes, then `@` and a host's first
            // character; no space before the scheme's colon.)
            guard hasAt, utf8[schemeStart..<index].allSatisfy({ $0 != 0x20 }) || utf8[index - 2] == 0x20 && !utf8[schemeStart..<(index - 2)].contains(0x20) else { continue }
            var end = start
            while end < min(utf8.count, start + 257), case let byte = utf8[end], !Self.isSpace(byte), !Self.isLineBreak(byte), !":/@\"'`".utf8.contains(byte) { end += 1 }
            guard (20...256).contains(end - start), end + 1 < utf8.count, utf8[end] == 0x40,
                  Self.isAlphanumeric(utf8[end + 1]) || utf8[end + 1] == 0x5B, case let user = slice(start, end),
                  Self.isRandomToken(user), !Self.isPlaceholder(user), !isSentryDSNKey(user, at: start..<end) else { continue }
            found.append(secret(.apiKey, nil, start, end))
        }
        return found
    }

    /// Where an address's scheme starts when `index` is its `//`: a letter, then letters, digits,
    /// `+`, `.` or `-` (2 to 21 in all), then `:`, OCR's space before or after it allowed
    /// (`discord: //`); nil otherwise.
    func schemeStart(beforeSlashesAt index: Int) -> Int? {
        var i = index
        if i > 0, utf8[i - 1] == 0x20 { i -= 1 }
        guard i > 0, utf8[i - 1] == 0x3A else { return nil }
        i -= 1
        if i > 0, utf8[i - 1] == 0x20 { i -= 1 }
        let end = i
        while i > 0, end - i < 21, Self.isAlphanumeric(utf8[i - 1]) || "+.-".utf8.contains(utf8[i - 1]) { i -= 1 }
        while i < end, !Self.isLetter(utf8[i]) { i += 1 }
        guard end - i >= 2, i == 0 || !(Self.isAlphanumeric(utf8[i - 1]) || utf8[i - 1] == 0x5F) else { return nil }
        return i
    }

    /// A quoted address's user that is a token, as OCR read it (Watchtower's `"discord: //ba3g
    /// jACSgTy-Qx… IVpGux3eq68170183676` / `2490412"`): from `start` to the quote that closes the
    /// address (the terminal may have wrapped it twice, 512 bytes at most), only a token's bytes, `@`,
    /// `)` and OCR's glyphs (`j{u-…`), ten pieces at most; the user runs to the last `@` when a host follows it
    /// (digits or a name), else to the quote (OCR read the `@` as a letter: the host's digits go with
    /// it; 40+ characters then, no dot: a host's name is none). Its 24+ characters must be random.
    /// (No path, port or parameter: `/ : ? # =` end the walk.) Round 164.
    func quotedTokenUser(from start: Int) -> Secret? {
        var index = start, pieces = 1, breaks = 0, lastAt: Int?
        while index < min(utf8.count, start + 512) {
            let byte = utf8[index]
            if quoteLength(at: index) > 0 { break }
            if Self.isLineBreak(byte) {
                breaks += 1
                guard breaks <= 2, endsAWideLine(index) else { return nil }
                pieces += 1
            } else if Self.isSpace(byte) {
                if index > start, !Self.isSpace(utf8[index - 1]) { pieces += 1 }
            } else if byte == 0x40 {
                lastAt = index
            } else if !(Self.isKeyByteOrJunk(byte) && byte != 0x2F && byte != 0x3D || byte == 0x29) {
                return nil
            }
            guard pieces <= 10 else { return nil }
            index += 1
        }
        guard index < utf8.count, quoteLength(at: index) > 0 else { return nil }
        var end = index
        if let at = lastAt, at > start, case let host = squeezed(at + 1, index).filter({ !$0.isNewline }), (1...64).contains(host.count),
           host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) {
            end = at
        }
        // (Without an `@`, no dot: a host's name, `"https://in03-89b0ac35….cloud.zilliz.com"`, is no user.)
        let foundAt = end < index
        while end > start, Self.isSpace(utf8[end - 1]) || Self.isLineBreak(utf8[end - 1]) { end -= 1 }
        let user = Self.withoutOCRJunk(squeezed(start, end).filter { $0 != "\n" && $0 != "\r" })
        guard foundAt ? user.count >= 24 : user.count >= 40 && !utf8[start..<end].contains(0x2E), Self.isRandomToken(user) else { return nil }
        return secret(.apiKey, nil, start, end)
    }

    /// Whether an address's user is a Sentry DSN's key, which Sentry says is public (it only lets
    /// events in): 32 hexadecimal digits, and the address's path a project's number alone
    /// (`https://6e73…@o404482.ingest.sentry.io/1114052`).
    func isSentryDSNKey(_ user: String, at range: Range<Int>) -> Bool {
        guard user.count == 32, user.allSatisfy(\.isHexDigit), let rest = piece(from: range.upperBound, maximumSpaces: 0) else { return false }
        return Self.sentryDSNHostAndProject.firstMatch(in: slice(rest.start, rest.end)) != nil
    }
    /// What follows a Sentry DSN's key: `@`, the host, `/` and the project's number, maybe quoted.
    static let sentryDSNHostAndProject = TextMatcher(#"^@[A-Za-z0-9.\-]{1,253}(?::\d{1,5})?/\d{1,12}["'`,]*$"#)

    /// A proxy's share link whose user part is its credential: Trojan's, Hysteria's and AnyTLS'
    /// password, VLESS' user id (`trojan://PASSWORD@host:443?…#name`, `vless://UUID@host…`; OCR
    /// may misspell the scheme, `hystertia2://`);
    /// the credential follows. (OCR may put a space around the `//`, as in ``credentialURL``, split
    /// the credential, and read its `@` as a letter: `…Bza2avpn.acme.io`.)
    static let proxyLink = TextMatcher(#"(?i)(?<![A-Za-z0-9+.\-])(trojan|hy[a-z]{5,8}2?|hy2|vless|anytls) ?: ?// ?(?=\S)"#)

    func proxyLinkSecrets() -> [Secret] {
        guard mentions("trojan", "hyst", "hy2", "vless", "anytls") else { return [] }
        return Self.proxyLink.matches(in: searchable).compactMap { match in
            let start = match.end
            let isVLESS = match[1]?.lowercased() == "vless"
            // To its last `@` (OCR may read a `0` of it as one), within 256 bytes of the line and
            // before the address's query (`?`, `#`).
            var index = start, at: Int?
            while index < min(utf8.count, start + 256), !Self.isLineBreak(utf8[index]), utf8[index] != 0x3F, utf8[index] != 0x23 {
                if utf8[index] == 0x40 { at = index }
                index += 1
            }
            // A host has no `*`, `_` or `!`: an `@` with one such after it, before the host's first
            // dot, is OCR's reading of the password's `0`, and the real one was read as a letter
            // (`jeQ@R_MQyTgrk*javpn.acme.io`). Nor is one right at the credential's start
            // (`vless: //@cc23…`: its first `0`).
            if let found = at, !isHostStart(found + 1) || found == start { at = nil }
            var end: Int
            if let at, !isVLESS || squeezed(start, at).count >= 32 {
                end = at
            } else if isVLESS {
                // A UUID's 36 characters (OCR's spaces not counted): an `@` before 32 of them is
                // OCR's reading of a `0`, the real one read as a letter (`0cc2@798-…ad0Qvpn`).
                end = start
                var count = 0
                while end < utf8.count, count < 36, !Self.isLineBreak(utf8[end]) { if !Self.isSpace(utf8[end]) { count += 1 }; end += 1 }
            } else {
                // Up to the host's first dot: the credential and the host's first word, glued.
                // (OCR may have split the credential too: `JZAUKHVAQ! SdQ8avpn.acme.io`; the dot is
                // in the third piece at most, each one space after the last.)
                var dot: Int?, next = piece(from: start, maximumSpaces: 0)
                for _ in 0..<3 {
                    guard let current = next else { break }
                    if let found = utf8[current.start..<current.end].firstIndex(of: 0x2E) {
                        dot = found
                        break
                    }
                    next = piece(from: current.end, maximumSpaces: 1)
                }
                guard let dot, dot - start >= 8 else { return nil }
                end = dot
            }
            while end > start, Self.isSpace(utf8[end - 1]) { end -= 1 }
            let value = squeezed(start, end)
            // (A VLESS id is a UUID: OCR may space its four dashes on both sides and split a group
            // besides, `7d201f98 - £847 - c085 - 9ce2 - Oe F609605609`.)
            let spaces = isVLESS ? 12 : 8
            guard value.count >= 3, slice(start, end).filter({ $0 == " " }).count <= spaces, !Self.isPlaceholder(value) else { return nil }
            return secret(.password, Self.proxyLinkLabel, start, end)
        }
    }

    /// `value` with each `@` read as the `0` OCR took it for, unless it has a dot: then it may be
    /// an address, whose `@` is its own.
    static func atsReadAsZeros(_ value: String) -> String {
        value.contains(".") ? value : value.replacingOccurrences(of: "@", with: "0")
    }

    /// Whether a host's name may start at `index`: letters, digits and `-` up to its first dot,
    /// port or path (or an IPv6 address's `[`). Only a label's 63 characters are looked at.
    func isHostStart(_ index: Int) -> Bool {
        var index = index
        if index < utf8.count, utf8[index] == 0x5B { return true }
        let end = min(utf8.count, index + 64)
        while index < end, !Self.isSpace(utf8[index]), !Self.isLineBreak(utf8[index]), !"./:?#".utf8.contains(utf8[index]) {
            guard Self.isAlphanumeric(utf8[index]) || utf8[index] == 0x2D else { return false }
            index += 1
        }
        return true
    }

    // MARK: - Cards

    /// Runs of digit groups joined by single spaces or dashes (`4242 4242 4242 4242`, `4012-8888-…`).
    /// (Not after an `@`: an address's host or id, `discord://TOKEN@4876…0479`, a webhook's 19 digits
    /// that may pass Luhn in a Visa's range; round 165.)
    static let digitRuns = TextMatcher(#"(?<![\p{L}\p{N}.,/:+\-@])\d+(?:[ \-]\d+)*(?![\p{L}\p{N}]|[.,]\d)"#)
    /// The words that label a card number (and what may stand between them and it).
    static let cardLabelWords = #"(?i)\b(?:card(?:\s*(?:number|no\.?|num|#))?|credit|debit|visa|mastercard|amex|cc)\b[^\n\d]{0,12}"#
    static let cardLabel = TextMatcher(cardLabelWords + "$")

    func cards() -> [Secret] {
        var found: [Secret] = []
        for run in Self.digitRuns.matches(in: searchable) where run.end - run.start >= 13 {
            // The groups of the run and where each starts.
            var groups: [(start: Int, end: Int)] = []
            var i = run.start
            while i < run.end {
                var j = i
                while j < run.end, utf8[j] >= 0x30, utf8[j] <= 0x39 { j += 1 }
                groups.append((i, j))
                i = j + 1
            }
            // Left to right, the longest window of whole groups that is a card number. A window
            // holds at most 19 digits, so at most 19 groups: a long run of numbers (a spreadsheet,
            // a hex dump) costs its length, not its square.
            var first = 0
            while first < groups.count {
                var taken = false
                var digitCount = 0, lastWithin = first - 1
                while lastWithin + 1 < groups.count, case let more = groups[lastWithin + 1].end - groups[lastWithin + 1].start,
                      digitCount + more <= 19 {
                    digitCount += more
                    lastWithin += 1
                }
                for last in stride(from: lastWithin, through: first, by: -1) {
                    let digits = groups[first...last].map { slice($0.start, $0.end) }.joined()
                    guard (13...19).contains(digits.count) else { continue }
                    let start = groups[first].start, end = groups[last].end
                    if isAfterIBANPrefix(start) { break }
                    // Cards are written whole or in groups of four (Amex and Diners 4-6-5, 4-6-4);
                    // an order number's 3-7-7 groups are not a card whatever its digits.
                    let sizes = groups[first...last].map { $0.end - $0.start }
                    var isCardGrouping = sizes.count == 1 || sizes.dropLast().allSatisfy { $0 == 4 } || sizes == [4, 6, 5] || sizes == [4, 6, 4]
                    // Nor is a stretch of a longer number in groups of four (a USPS tracking
                    // number's `9400 1000 … 00`): a card's groups are all of it.
                    let size = { (index: Int) in groups[index].end - groups[index].start }
                    if sizes.count > 1, (first > 0 && size(first - 1) == 4) || (last < groups.count - 1 && size(last + 1) == 4 && sizes.last == 4) {
                        isCardGrouping = false
                    }
                    // A number in one piece right after what names it an identifier (`Message ID:
                    // 6641868339028859773`, `Transaction ID 4539…`) is that id, unless a card's label says otherwise.
                    if sizes.count == 1, isAfterIdentifierOrPhoneLabel(start), !isLabelledCard(before: start) { break }
                    if isCardGrouping, let network = Self.cardNetwork(digits), Self.isLuhnValid(digits) {
                        found.append(secret(.card, network, start, end))
                    } else if isLabelledCard(before: start), Set(digits).count > 2 {
                        // After a clear label, a number OCR misread by a digit is still a card.
                        found.append(secret(.card, nil, start, end))
                    } else { continue }
                    first = last + 1
                    taken = true
                    break
                }
                if !taken { first += 1 }
            }
        }
        return found
    }

    /// Whether the digits follow `XX00 `, the start of an IBAN (whose checksum failed): an account, not a card.
    func isAfterIBANPrefix(_ start: Int) -> Bool {
        guard start >= 5 else { return false }
        let p = Array(utf8[(start - 5)..<start])
        return (0x41...0x5A).contains(p[0]) && (0x41...0x5A).contains(p[1]) && (0x30...0x39).contains(p[2])
            && (0x30...0x39).contains(p[3]) && p[4] == 0x20 && (start == 5 || !Self.isAlphanumeric(utf8[start - 6]))
    }

    /// What names a number an identifier: an `ID`, or the order, transaction, invoice, tracking,
    /// reference, message, ticket or serial it numbers, maybe with `#`, `No.` or `number` and a colon;
    /// also as a camelCase name's last word, quoted as a JSON key (Adyen's `"pspReference": "…"`;
    /// a card's `cardId` may hold its number).
    static let identifierLabel = TextMatcher(
        #"(?:(?<![A-Za-z])(?i:"# + (identifierWords + ["snowflake"]).joined(separator: "|") + #")|(?<=[a-z])(?<![Cc]ard)(?:"#
            + (identifierWords.map { $0.prefix(1).uppercased() + $0.dropFirst() } + ["ID"]).joined(separator: "|") + #"))(?i:[ \t]*(?:#|no\.?|number|num))?["'”]?[ \t]*[:#=]?[ \t]*["'“]?$"#)
    /// The words of ``identifierLabel``, in small letters (a camelCase name's last word is capitalized).
    static let identifierWords = ["id", "ids", "identifier", "order", "transaction", "invoice", "tracking", "reference", "ref", "message", "ticket", "serial"]

    /// What names a number a phone's: `phone`, `mobile`, `msisdn`, `fax` (maybe with `number`),
    /// also as a camelCase name's last word; a message's `to` or `from` as a quoted key or an
    /// address's parameter (`"to":"4915112345678"`, `&to=…`: an SMS API's recipient, which a
    /// 13-digit Visa's range holds too; its quotes as OCR curls them, `"to’:"…`; round 161).
    static let phoneLabel = TextMatcher(
        #"(?:(?<![A-Za-z])(?i:phone|telephone|tel|mobile|cell|msisdn|fax|whatsapp|sms)|(?<=[a-z])(?:Phone|Mobile|Msisdn))(?i:[ \t_\-]*(?:number|no\.?|num|#))?["'”]?[ \t]*[:#=]?[ \t]*["'“]?\+?$|(?<![A-Za-z])(?i:to|from|recipients?|sender|originator)(?:["'‘’“”][ \t]*[:=][ \t]*\[?[ \t]*["'‘’“”]?|=)$"#)

    /// Whether the number at `start` comes right after an ``identifierLabel`` or a ``phoneLabel`` on its line.
    func isAfterIdentifierOrPhoneLabel(_ start: Int) -> Bool {
        var from = start
        while from > 0, start - from < 32, !Self.isLineBreak(utf8[from - 1]) { from -= 1 }
        let before = slice(from, start)
        return Self.identifierLabel.firstMatch(in: before) != nil || Self.phoneLabel.firstMatch(in: before) != nil
    }

    func isLabelledCard(before start: Int) -> Bool {
        let from = max(0, start - 40)
        return !Self.cardLabel.matches(in: slice(from, start)).isEmpty
    }

    /// The card network of a number by its issuer range and length, or `nil`.
    static func cardNetwork(_ digits: String) -> String? {
        let d = Array(digits.utf8).map { Int($0) - 48 }
        func prefix(_ n: Int) -> Int { d.prefix(n).reduce(0) { $0 * 10 + $1 } }
        let length = d.count
        switch true {
        case d[0] == 4 && [13, 16, 19].contains(length): return "Visa"
        case (51...55).contains(prefix(2)) && length == 16, (2221...2720).contains(prefix(4)) && length == 16: return "Mastercard"
        case [34, 37].contains(prefix(2)) && length == 15: return "American Express"
        case (prefix(4) == 6011 || (644...649).contains(prefix(3)) || prefix(2) == 65) && (16...19).contains(length): return "Discover"
        case (3528...3589).contains(prefix(4)) && (16...19).contains(length): return "JCB"
        case ((300...305).contains(prefix(3)) || [36, 38, 39].contains(prefix(2))) && (14...19).contains(length): return "Diners Club"
        case prefix(2) == 62 && (16...19).contains(length): return "UnionPay"
        case ([50, 56, 57, 58].contains(prefix(2)) || prefix(1) == 6) && (12...19).contains(length): return "Maestro"
        case prefix(1) == 1 && length == 15: return "UATP"
        default: return nil
        }
    }

    static func isLuhnValid(_ digits: String) -> Bool {
        var sum = 0
        for (index, byte) in digits.utf8.reversed().enumerated() {
            var value = Int(byte) - 48
            if index % 2 == 1 {
                value *= 2
                if value > 9 { value -= 9 }
            }
            sum += value
        }
        return sum % 10 == 0
    }

    /// The security code and the expiry written near a card number.
    static let cardDetail = TextMatcher(
        #"(?i)\b(?:(cvv2?|cvc2?|cid|csc|security\s+code)\s*[:#]?\s*(\d{3,4})|(exp(?:iry|ires|iration)?(?:\s+date)?|valid\s+(?:thru|through|until))\s*[:.]?\s*((?:0[1-9]|1[0-2])\s*/\s*(?:\d{2}|20\d{2})))\b"#)

    func cardDetails(near cards: [Secret]) -> [Secret] {
        guard !cards.isEmpty else { return [] }
        return Self.cardDetail.matches(in: searchable).compactMap { match in
            guard cards.contains(where: { abs($0.start - match.start) < 240 }) else { return nil }
            let value = match[2] ?? match[4] ?? ""
            let label = match[2] != nil ? "security code" : "expiry"
            let end = match.end, start = end - value.utf8.count
            return secret(.card, label, start, end)
        }
    }

    // MARK: - IBANs and account numbers

    /// IBAN lengths by country (SWIFT's IBAN registry).
    static let ibanLengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27, "BR": 29,
        "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28, "EE": 20, "EG": 29,
        "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28,
        "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28,
        "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20,
        "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18, "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25,
        "QA": 29, "RO": 24, "RS": 22, "RU": 33, "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27,
        "SO": 23, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
    ]

    static let ibanCandidates = TextMatcher(#"(?<![A-Za-z0-9])([A-Z]{2})(\d{2})((?:[ \-]?[A-Z0-9]){10,30})"#)

    func ibans() -> [Secret] {
        Self.ibanCandidates.matches(in: searchable).compactMap { match in
            guard let country = match[1], let length = Self.ibanLengths[country] else { return nil }
            // Take the first `length` letters and digits, across the single spaces of the groups.
            var count = 0, end = match.start
            var compact: [UInt8] = []
            while end < match.end, count < length {
                let byte = utf8[end]
                if byte != 0x20, byte != 0x2D {
                    compact.append(byte)
                    count += 1
                }
                end += 1
            }
            guard count == length else { return nil }
            // It must end where a group ends, not in the middle of a word.
            if end < utf8.count, Self.isAlphanumeric(utf8[end]) { return nil }
            guard Self.isIBANChecksumValid(compact) else { return nil }
            return secret(.iban, country, match.start, end)
        }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// ISO 13616: move the first four characters to the end, letters become 10…35, the number mod 97 is 1.
    static func isIBANChecksumValid(_ iban: [UInt8]) -> Bool {
        guard iban.count > 4 else { return false }
        var remainder = 0
        for byte in iban[4...] + iban[..<4] {
            let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
            switch upper {
            case 0x30...0x39: remainder = (remainder * 10 + Int(upper - 0x30)) % 97
            case 0x41...0x5A: remainder = (remainder * 100 + Int(upper - 0x41 + 10)) % 97
            default: return false
            }
        }
        return remainder == 1
    }

    /// An account number after a clear label (`Account number: 12345678`, `Acct #`, `A/C No.`), or
    /// after `Account:` alone (group 1) where the text speaks of a bank (`BSB: 062-000`).
    static let accountLabel = TextMatcher(
        #"(?i)\b(?:(?:bank\s+)?account\s*(?:number|no\.?|num\.?|#)|(account(?=[ \t]*:))|acct\.?\s*(?:number|no\.?|#)?|a/c\s*(?:no\.?)?|routing\s*(?:number|no\.?)|sort\s*code|BSB)\s*[:#]?\s*(\d[\d \-]{4,22}\d)\b"#)

    func labelledAccounts() -> [Secret] {
        guard mentions("acc", "a/c", "routing", "sort", "bsb") else { return [] }
        let bank = mentions("bank", "bsb", "sort code", "routing", "iban")
        return Self.accountLabel.matches(in: searchable).compactMap { match in
            guard let value = match[2], value.filter(\.isASCIIDigit).count >= 6, match[1] == nil || bank else { return nil }
            let end = match.end, start = end - value.utf8.count
            return secret(.iban, "account", start, end)
        }
    }

    // MARK: - Passwords, PINs and labelled tokens

    /// A password label: the word alone or inside an identifier (`db_pass`, `my_password_secure`:
    /// the look-behind lets `_` or `.` precede it, so no pattern for the identifier's start is needed),
    /// then `:` `=` `:=` `==` `!=` `===` or `is` (a JSON or YAML key's closing quote may come
    /// first), then the value (quoted, or up to the next space). A Wi-Fi or IPsec pre-shared key
    /// (`psk="…"`) is a password; JSON kept inside a JSON string escapes its quotes (`\"password\":\"…\"`).
    /// A curly quote with the value going on right after it is inside it: OCR read a symbol of the
    /// password as one (`"password": "HVs8Q~“F7vp…"`).
    /// The word in the languages a screen may be in (the European Union's, the Nordic and Baltic
    /// ones, Turkish, Russian, Indonesian, Vietnamese, Chinese, Japanese, Korean; Greek, Hebrew,
    /// Thai and Hindi in ``cuedPasswordMatcher``, as is Windows' `Key Content` of `netsh wlan show
    /// profile … key=clear`), as OCR's English model spells them (`Parolă` as `Parola`, `Jelszó` as
    /// `Jelszo` or, as ``OCRConfusions`` has `ó`, `Jelszé`: round 149). OCR may split `password`
    /// inside (`pas sword=…`, Remmina's file in round 129).
    /// (What OCR makes of `Пароль` and Greek's `κωδικός`, `Naponb`, `Kw61K6¢`, is in ``lookalikeLabels``.)
    static let passwordMatcher = passwordMatcher(labels: #"pas ?s ?wor[dt]|passwd|pass(?:(?: ?_ ?| )?phrase|code)?|pwd|pw|pin(?:\s*code)?|mot de passe|kennwort|contrase\p{L}{1,3}a|senha|wachtwoord|l\p{L}senord|has[łlt]o|heslo|salasana|parola|şifre|sifre|пароль|mật khẩu|密码|密碼|パスワード|비밀번호|(?:wi-?fi|network|wireless|wlan|wpa[23]?)\s+(?:key|passphrase)|psk"#)
    /// The rarer languages' labels are searched apart, only in a text that holds one
    /// (``cuedPasswordLabelCues``, or ``mentionsLookalikes``): each label in one alternation is tried at every letter it may
    /// start with in every text (Danish's `adgangskode` alone, at every `a`, cost 25 % of the
    /// pattern's time).
    static let cuedPasswordMatcher = passwordMatcher(labels: #"parol(?:ă|e)|parool|passord|adgangskode|lozinka|geslo|jelsz[oóö06é]|slapta[zž]odis|kata sandi|m[aậâ]t\s+kh[aẩâ]u|κωδικός(?:[ \t]+πρόσβασης)?|סיסמ[הא]|รหัสผ่าน|पासवर्ड|(?:wpa2?-)?pre-?shared[ \-]key|network\s+security\s+key|key\s+content|"# + lookalikeLabels)
    static let cuedPasswordLabelCues = ["parol", "parool", "passord", "adgang", "lozinka", "geslo", "jelsz", "slapta", "sandi", "khau", "khâu", "khẩu", "ωδικ", "סיסמ", "รหัส", "पासवर्ड", "pre-shared", "preshared",
                                         "security key", "key content"]

    static func passwordMatcher(labels: String) -> TextMatcher {
        TextMatcher(#"(?i)(?<![A-Za-z])("# + labels + ")" + #"(?:[_\-.][A-Za-z0-9]+)*(?![A-Za-z])\\?["'”’]{0,2}\s*(?:\]|\)|\((?:WPA|WEP)[^)\n]{0,12}\))?\s*(?::=|===|!==|==|!=|=>|[:=：]|\bis\b|\bis(?=[_@#$%&*!?+~^]))\s*(?:["“]([^"“”\n]{0,128}(?:[“”](?=[^\s"“”,;)\]}])[^"“”\n]{1,128}){0,2}(?<=[^"“”\n]))["”]|['‘]([^'‘’\n]{1,128})['’]|`([^`\n]{1,128})`|@"([^"\n]{1,128})"|\\"([^"\\\n]{1,128})\\"|([^\s"'`,;]{1,128}))"#)
    }

    /// Where a value at `value` ends in a connection string, when the label at `label` follows a
    /// `;` (OCR may put a space or two after it: `…;Uid=root ; Pwd=Xk2 NOt yg;Encrypt=yes`) and the
    /// value's first piece ends at a space: at the next `;` within 64 bytes, when no `=`, quote or
    /// line break comes first. Nil otherwise. (The first piece is looked for 128 bytes on at most,
    /// a password's longest: a label's value may start a run of any length.)
    func connectionStringValueEnd(label: Int, value: Int) -> Int? {
        var beforeLabel = label
        while beforeLabel > 0, label - beforeLabel < 2, Self.isSpace(utf8[beforeLabel - 1]) { beforeLabel -= 1 }
        guard beforeLabel > 0, utf8[beforeLabel - 1] == 0x3B else { return nil }
        let limit = min(utf8.count, value + 128)
        var firstEnd = value
        while firstEnd < limit, !Self.isSpace(utf8[firstEnd]), !Self.isLineBreak(utf8[firstEnd]), utf8[firstEnd] != 0x3B { firstEnd += 1 }
        guard firstEnd > value, firstEnd < limit, Self.isSpace(utf8[firstEnd]),
              let semicolon = utf8[firstEnd..<min(utf8.count, firstEnd + 64)].firstIndex(where: { [0x3B, 0x0A, 0x0D, 0x3D, 0x22, 0x27].contains($0) }),
              utf8[semicolon] == 0x3B else { return nil }
        return semicolon
    }

    func passwords() -> [Secret] {
        guard mentions("pass", "pas s", "pw", "pin", "mot de", "kennwort", "contrase", "senha", "wifi", "wi-fi", "wachtwoord", "--user", "-u ", "proxy-user", "login=", "-login", "-a ", "-a=", "creds", "auth",
                       "has", "heslo", "salasana", "parol", "parool", "adgang", "lozinka", "geslo", "jelsz", "slapta", "sandi", "enord", "ifre", "ароль", "khẩu", "khau", "密", "パスワード", "비밀번호", "network k", "wireless k", "wlan k", "wpa",
                       "psk", "ωδικ", "סיסמ", "รหัส", "पासवर्ड", "pre-shared", "preshared", "security key", "key content", "proxy-auth", "transmission", "-admin")
                || mentionsLookalikes else { return [] }
        var found: [Secret] = []
        let cued = mentionsLookalikes || Self.cuedPasswordLabelCues.contains(where: { mentions($0) }) ? Self.cuedPasswordMatcher.matches(in: searchable) : []
        for match in Self.passwordMatcher.matches(in: searchable) + cued {
            guard let label = match[1]?.lowercased() else { continue }
            // A shell variable's expansion before a colon (`-v $PWD:/src`) assigns nothing.
            if match.start > 0, utf8[match.start - 1] == 0x24, match.text.dropFirst(label.count).first == ":" { continue }
            // (JSON inside a JSON string escapes its quotes: `"{\"password\":\"…\"}"`.)
            let escaped = match[6]
            let quoted = match[2] ?? match[3] ?? match[4] ?? match[5] ?? escaped
            guard let value = quoted ?? match[7] else { continue }
            // After `!=`, `===` or `!==` (code), only a literal is a value: `password !== confirm` compares two names.
            if quoted == nil, match.text.contains("!=") || match.text.contains("===") { continue }
            if quoteAfterName(at: match.start) == false { continue }
            // The label is the first word of a longer name about a password, not one:
            // `PASSWORD_RESET_TIMEOUT=3600`, `password_min_length: 12`.
            var nameEnd = match.start
            while nameEnd < utf8.count, Self.isNameByte(utf8[nameEnd]) { nameEnd += 1 }
            if Self.namesSomethingAboutASecret(slice(match.start, nameEnd)) { continue }
            // OCR may drop the space after `is` (`pass is_no@@aYp8-|`): glued to it, only a value
            // with a digit and a symbol other than `_` counts (`password is_valid` is code).
            if quoted == nil, match.text.hasSuffix("is" + value),
               !(value.count >= 6 && value.contains(where: \.isNumber) && value.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "_" })) {
                continue
            }
            // (Not the next command, under a prompt that showed nothing typed: `EncFS Password:` / `$ ls ~/crypt`.)
            if quoted == nil, case let at = match.end - value.utf8.count, at < utf8.count, isPrompt(at: at),
               utf8[match.start..<at].contains(where: Self.isLineBreak) { continue }
            // (Nor the next line's setting under a label whose value is empty: `…_PASSWORD=` / `…_SALT=`.)
            if quoted == nil, isNextLinesSetting(at: match.end - value.utf8.count, forLabelAt: match.start) { continue }
            let isPIN = label.hasPrefix("pin")
            // In a connection string (`…;User Id=sa;Password=bsZ! Heh Vx29M!q36;`), a value runs to
            // its `;`: a space before it is one OCR put inside (no `=`, quote or line break on the
            // way), whatever the piece before the space (`Pwd=IEy -Up7W6Aj ;`, round 144).
            if quoted == nil, !isPIN, case let start = match.end - value.utf8.count, let end = connectionStringValueEnd(label: match.start, value: start),
               Self.isPasswordValue(squeezed(start, end), quoted: false) {
                found.append(secret(.password, nil, start, end))
                continue
            }
            // A piece of one to three characters the terminal wrapped after (`wpa2-pre-shared-key=I*U` /
            // `B4ELGUQ6ohD`; round 154): its rest on the next line with it, 8+ in all.
            if quoted == nil, !isPIN, value.utf8.count <= 3, let restEnd = wrappedRest(after: match.end, of: value),
               case let whole = value + slice(match.end, restEnd).filter({ !$0.isWhitespace }), whole.count >= 8,
               Self.isPasswordValue(whole, quoted: false), Self.looksLikeSecretOnItsOwn(whole) {
                found.append(secret(.password, nil, match.end - value.utf8.count, restEnd))
                continue
            }
            // A piece of one to three characters OCR cut from the password (`Mot de passe : D E@T2%hJeOyT`,
            // its `_` read as a space): the pieces after it belong to it (``value(after:)``).
            if quoted == nil, !isPIN, value.utf8.count <= 3, case let at = match.end - value.utf8.count,
               let (start, valueEnd, _) = self.value(after: at), start == at, valueEnd > match.end {
                var end = valueEnd
                // (OCR may split it more, at each `!` on both sides: `Ft ! -Gf! aoL%RJO`. Then the
                // line's pieces, five at most and none a word, are its.)
                if squeezed(start, end).count < 6, let pieces = piecesToLineEnd(from: start, atMost: 5, maximumSpaces: 1),
                   let last = pieces.last, last.end > end, !pieces.dropFirst().contains(where: isSentenceWord) {
                    end = last.end
                }
                let whole = squeezed(start, end)
                if whole.count >= 6, Self.isPasswordValue(whole, quoted: false), Self.looksLikeSecretOnItsOwn(whole) {
                    found.append(secret(.password, nil, start, end))
                }
                continue
            }
            // (Split so often that the piece after the scrap is a scrap of letters too, `p%f ewt
            // 8W+vv+! X`: the line's pieces, five at most, are its when none is a word of four or
            // more letters and a later one holds a digit or a symbol. Not a list or more settings:
            // `@passwd = @pw, @defdb = 'shop';`.)
            if quoted == nil, !isPIN, value.utf8.count <= 3, !value.allSatisfy(\.isLetter), case let at = match.end - value.utf8.count,
               let pieces = piecesToLineEnd(from: at, atMost: 5, maximumSpaces: 1), pieces.count >= 3, pieces[0].start == at,
               ![0x2C, 0x3B].contains(utf8[pieces[0].end - 1]), !pieces.contains(where: { utf8[$0.start..<$0.end].contains(0x3D) }),
               case let later = pieces.dropFirst(), !later.contains(where: { isSentenceWord($0) && $0.end - $0.start >= 4 }),
               later.contains(where: { utf8[$0.start..<$0.end].contains(where: { !Self.isLetter($0) }) }),
               case let whole = squeezed(at, pieces[pieces.count - 1].end), Self.isPasswordValue(whole, quoted: false), Self.looksLikeSecretOnItsOwn(whole) {
                found.append(secret(.password, nil, at, pieces[pieces.count - 1].end))
                continue
            }
            // A piece of four or five characters that is no password on its own, a word and a symbol
            // (`APL!`: OCR dropped the `_` before it and put a space inside `_APL!pf7_f`; not a word
            // alone, a changelog's `(FLAGS_TO_PASS): Pass "AR=$(AR)".`), when one more
            // piece ends the line and is no word (a digit or a symbol among two or more letters, not a
            // version's `v2.1`): the two are the value.
            if quoted == nil, !isPIN, (4...5).contains(value.count), !value.allSatisfy(\.isLetter), !Self.isPasswordValue(value, quoted: false),
               let next = piece(from: match.end, maximumSpaces: 1), next.start > match.end, (3...64).contains(next.end - next.start),
               next.end == utf8.count || Self.isLineBreak(utf8[next.end]),
               case let rest = slice(next.start, next.end), rest.filter(\.isLetter).count >= 2,
               rest.reversed().drop(while: { ".,;:!?)".contains($0) }).contains(where: { !$0.isLetter }), !isSentenceWord(next),
               case let whole = value + rest, Self.isPasswordValue(whole, quoted: false), Self.looksLikeSecretOnItsOwn(whole) {
                found.append(secret(.password, nil, match.end - value.utf8.count, next.end))
                continue
            }
            if isPIN {
                guard value.count >= 4, value.allSatisfy(\.isASCIIDigit) else { continue }
            } else {
                guard Self.isPasswordValue(value, quoted: quoted != nil) else { continue }
                // An absolute path is a file's name, or the shell's directory (`PWD=/srv/shop`,
                // `OLDPWD=/home/ops`), not a password.
                if quoted == nil, Self.absolutePath.firstMatch(in: value) != nil { continue }
            }
            // (A closing quote OCR read curly, `”`, takes three bytes.)
            let closing = escaped != nil ? 2 : quoted != nil ? (match.text.last.map { String($0).utf8.count } ?? 1) : 0
            var end = match.end - closing
            let start = end - value.utf8.count
            // A long random value OCR split to its line's end (Rancher's `Bootstrap Password:
            // jccaezqx1dsq…ul2er jhqkxpxuof 1giyxy7huld`): its pieces after it are no words
            // (``isNoWord(_:)``), letters and digits only, three at most (round 151).
            if quoted == nil, !isPIN, value.count >= 20, Self.isRandomToken(value),
               let pieces = piecesToLineEnd(from: end, atMost: 3, maximumSpaces: 1), let last = pieces.last,
               pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isAlphanumeric) && Self.isNoWord(slice($0.start, $0.end)) }) {
                end = last.end
            }
            found.append(secret(.password, isPIN ? "PIN" : nil, start, end))
        }
        // Basic authentication on a command line: `curl -u user:password`, `--user 'name:pass'`:
        // any value but a placeholder, and not a uid and gid (`docker run -u 1000:1000`).
        for match in Self.commandLineUser.matches(in: searchable) + (mentions("transmission") ? Self.transmissionAuth.matches(in: searchable) : []) {
            guard let value = match[1], !Self.isPlaceholder(value), !value.allSatisfy(\.isASCIIDigit),
                  value.lowercased() != "password" else { continue }
            // (Nor a user and a directory, `--user ana:/home/ana`, `-u 1000:/srv`: a path of two or more parts; round 156.)
            if Self.absolutePath.firstMatch(in: value) != nil { continue }
            // (Nor an address after a key given as the user, a space after its colon: `curl -u KEY:
            // https://api.keycdn.com/…`; round 157.)
            if ["http://", "https://", "ftp://"].contains(where: value.lowercased().hasPrefix) { continue }
            // (A scrap of one or two characters, a space, then letters and digits: OCR read a `_`
            // as the space, `tomas:g m6w2zP2K`; not a short password before a host or a path,
            // `pw 10.0.8.21`, `pw acme.io/x`: no `.` or `/` after the space.)
            if let space = value.firstIndex(of: " "), value[space...].contains(where: { $0 == "." || $0 == "/" }) { continue }
            // After a bare `auth` (a config's, not a flag), the value is no word (`auth header:
            // Bearer …` names a header).
            if match.text.hasPrefix("auth"), !Self.isPasswordValue(value, quoted: false) { continue }
            // (Nor is the name of a field, a space after its colon, a user: `auth user: postmaster@…`
            // and `auth _ user: …` are Ghost's `mail__options__auth__user` as OCR read its `__`; round 153.)
            if match.text.hasPrefix("auth"), case let pair = match.text.dropFirst(4).drop(while: { $0 == " " || $0 == "\t" || $0 == "_" }),
               ["user: ", "username: ", "name: ", "login: "].contains(where: pair.lowercased().hasPrefix) { continue }
            let closing = String(match.text.reversed().prefix(while: { "'\"}‘’“”".contains($0) })).utf8.count
            var end = match.end - closing
            let start = end - value.utf8.count
            // (A short first piece OCR split from a key, `":ukl_ XyUvtg…W7"`: the next piece, one space
            // on, to its closing quote, when together they are a random token; round 163.)
            // (Not an option, an address or a host, a word or a port after it: `-u app:… https://…`,
            // `member list`, `lena:… git.acme.io 22`.)
            if closing == 0, value.count < 16, let next = piece(from: end, maximumSpaces: 1), next.start > end,
               case let nextEnd = endBeforeClosingQuotes(next.end, notBefore: next.start), nextEnd - next.start >= 8,
               utf8[next.start..<nextEnd].allSatisfy(Self.isKeyByteOrJunk), !utf8[next.start..<nextEnd].contains(0x2E),
               !isOptionOrAddress(next), !isSentenceWord(next),
               Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, nextEnd))) {
                end = nextEnd
            }
            found.append(secret(.password, nil, start, end))
        }
        // A `user:password` pair after a tool's `-a`, `-auth` or `--auth` (HTTPie's, `jenkins-cli.jar -auth`):
        // the password must look like one (`rsync -a host:dst` and `-a 100` hold none).
        if mentions(" -a ", "-a=", "-auth") {
            for match in Self.authFlagPair.matches(in: searchable) {
                guard let value = match[1], let range = match.range(1), !Self.isPlaceholder(value),
                      Self.looksLikeSecretOnItsOwn(value) || value.count >= 8 && value.contains(where: \.isNumber) && value.contains(where: \.isLetter),
                      Self.isPasswordValue(value, quoted: false) else { continue }
                // (A `/` inside it after `-a` is a path's, `rsync -a host:backups/2026`; after `-auth`
                // a password's own, or OCR's for its `7`: splunk's `-auth admin:LbM75Pig/lvg`;
                // round 156. Then it must look like a secret on its own.)
                if value.contains("/") {
                    guard match.text.hasPrefix("-auth") || match.text.hasPrefix("--auth"), value.last != "/",
                          Self.looksLikeSecretOnItsOwn(value), Self.absolutePath.firstMatch(in: value) == nil else { continue }
                }
                found.append(secret(.password, nil, range.lowerBound, range.upperBound))
            }
        }
        // Wi-Fi QR codes: `WIFI:T:WPA;S:name;P:password;;`, decoded or shown as text on a line.
        if mentions("wifi:", ";p:", "; p:") {
            for p in Self.wifiPassword.matches(in: searchable) {
                guard let value = p[1], !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                let end = p.end, start = end - value.utf8.count
                found.append(secret(.password, "Wi-Fi", start, end))
            }
        }
        return found
    }

    /// A tool's `-a`, `-auth` or `--auth` and a `user:password` pair (HTTPie's `http -a ana:…`,
    /// `jenkins-cli.jar -auth ana:TOKEN`); group 1 the password, no `:` in it, nor a `/` first (a path is none).
    /// (OCR may read the value's last glyphs at the screen's edge as a colon: `-auth root:1161c…b37:`; round 154.)
    static let authFlagPair = TextMatcher(#"(?<![\w\-])(?:--auth|-auth|-a)(?:[ \t]+|=)["']?[A-Za-z0-9._@\-]{1,64}:[ \t]?["']?([^\s"'/:][^\s"':]{3,127}?)["']?(?=:?(?:[\s,;]|$))"#)

    /// (OCR may put a space after the colon, `-u deploy: qMhn5?M%t`, or before it, `login=tomas :…`.)
    /// (And a registry tool's `--creds`, `--src-creds`, `--dest-creds`: skopeo's, buildah's, any
    /// word before `-creds` but `no` (`--no-creds` takes no pair), which OCR may misread
    /// (`--srce-creds`, round 146); the
    /// password may be quoted on its own, `deploy:'…'`; and a config's `auth user:password`,
    /// HAProxy's `stats auth admin:…`.)
    /// (The pair is on the flag's line: `vs. -u` ending a line of a changelog names no user on the next.)
    /// (And curl's proxy's pair, `--proxy-user` / `-U user:password`, and Squid's `login=user:password`
    /// (OCR may put a stray glyph before its capital, `lLogin=`);
    /// ZooKeeper's `addauth digest user:password`, where OCR may put a space before the colon;
    /// Nmap's `ncat --proxy-auth user:password`, and `.curlrc`'s `proxy-user = "user:password"`;
    /// a password whose first one or two characters OCR split off, `tomas:g m6w2zP2K`;
    /// OCR may read the `--` as a dash, `—proxy-auth`; and a quote as a curly one, or as two,
    /// `--user ‘'admin@acme.io:…'` (or the closing one, `…'’`); and split the user's host after a
    /// dot, `ops@acme. io:…`, or its name beside a `_`, `svc _sync@acme.io:…`, or read the `_` as
    /// a space, `‘svc sync@acme.io:…` (a space before a piece that holds the `@`); and read a symbol
    /// inside the password as a quote, curly or straight, `ops:&L“VXB8…`, `ci:6gz4gV"BrRH…`: one
    /// with more of it right after.)
    /// (A config's `auth:` before a quoted pair too: Filebeat's `cloud.auth: "elastic:…"`; and a long
    /// option named for a login, `monero-wallet-rpc --rpc-login monero:…`; round 156.)
    /// (And an option named for credentials, one dash or two: Solr's `bin/solr auth enable
    /// -credentials solr:…`; and an empty user in quotes before a key, Uptime Kuma's `curl -u
    /// ":uk1_…"`; round 163. And a long option named for an admin, WriteFreely's `--create-admin
    /// ana:…`; round 164.)
    static let commandLineUser = TextMatcher(#"(?<![\w\-])(?:addauth[ \t]+digest[ \t]+[^\s:"'{}]{1,64} ?:|(?:(?:--|—)user|-u|(?:--|—)?proxy-user|(?:--|—)proxy-auth|-U|--(?!no-)(?:[a-z]{1,12}-)?creds|(?:--?|—)(?:[a-z]{1,12}-)?credentials|(?:--|—)(?:[a-z]{1,12}-)?admin(?=[ \t=])|auth|(?:[lI|](?=L))?[Ll]ogin(?==)|(?:--|—)(?:[a-z]{1,12}-)?login(?=[ \t=]))(?:[ \t]+|[ \t]?=[ \t]?|(?<=auth):[ \t]*(?=["'‘’“”]))(?:["'‘’“”](?=:)|["'‘’“”]{0,2}\{?[^\s:"'‘’“”{}]{1,64}(?:(?:(?<=[._]) | (?=_)| (?=[^\s:"'‘’“”{}@]{1,64}@))[^\s:"'‘’“”{}]{1,64}){0,2}\}?) ?:) ?["'‘’“”]?\{?((?:[^\s"'‘’“”{}:]{1,2} (?=[^\s"'‘’“”{}]*[0-9])(?=[^\s"'‘’“”{}]*[A-Za-z]))?[^\s"'‘’“”{}](?:[^\s"'‘’“”{}]|["‘’“”](?=[^\s"'‘’“”{}])){2,127}?)\}?["'‘’“”]{0,2}(?=[\s,;]|$)"#)
    /// A line of a test suite's results (DejaGnu's `PASS: gdb.mi/mi-cli.exp: …`, automake's
    /// `PASS: tests/a.sh`, TAP harnesses'): it names a test, not a password
    /// (``SecretDetector/secrets(in:)`` drops what a rule found as one there).
    static let testResultLine = TextMatcher(#"(?m)^[ \t]*(?:PASS|FAIL|XFAIL|XPASS|SKIP|ERROR|UNSUPPORTED|UNRESOLVED|UNTESTED|KFAIL|KPASS)[ \t]?:[ \t]"#)

    /// Whether `secret` is on a line that starts with a test's result (``testResultLine``).
    func isOnATestResultLine(_ secret: Secret) -> Bool {
        let start = lineStart(of: secret.start, atMost: 300)
        return Self.testResultLine.firstMatch(in: slice(start, min(utf8.count, start + 24))) != nil
    }

    /// `transmission-remote`'s `-n user:password` / `--auth user:password`, as ``commandLineUser``.
    static let transmissionAuth = TextMatcher(#"(?i)(?<![\w\-])transmission-remote(?![\w\-])[^\n]{0,300}?(?<=[ \t])(?:-n|--auth)(?:\s+|=)["']?[^\s:"']{1,64}: ?["']?([^\s"']{3,128}?)["']?(?=[\s,;]|$)"#)
    /// A Wi-Fi QR code's payload: its fields (`S:` name, `T:` security, `H:` hidden) in any order,
    /// then `P:` and the password to its `;` (OCR may put spaces after the separators, and read
    /// `WIFI` as `WIFL` or `WIEFI`: the fields' shape says what it is).
    static let wifiPassword = TextMatcher(#"(?i)(?<![A-Za-z])(?:WIFI|W[A-Z1|]{2,4}(?=[^\n]{0,80}?T ?: ?(?:WPA|WEP|SAE))) ?:(?: ?[A-OQ-Z] ?:(?:[^;\\\n]|\\.)*;)* ?P ?: ?((?:[^;\\\n]|\\.)+)"#)

    /// Whether the text after a password label is a password rather than a word of the interface
    /// (`Password: Forgot?`, `password is too short`): a quoted value of any kind, or one with a
    /// digit, a symbol or a capital inside; never a placeholder.
    /// The names of HTML's tags that mark text inside a line (a code listing's highlighting).
    static let htmlInlineTags: Set<String> = ["span", "a", "code", "em", "strong", "b", "i", "kbd", "var", "samp", "mark", "sub", "sup", "small", "div", "pre", "p", "td", "li"]

    /// Whether a value names a file rather than holding a secret: an absolute path of two parts or
    /// more in small letters, maybe after the `@` that says the value is read from it (PostgREST's
    /// `jwt-secret = "@/etc/postgrest/jwt.secret"`, curl's `-d @/…`), which OCR may read as a
    /// letter: `"d/etc/postgrest/jwt.secret"`. (A password with `/` in it has capitals.) Round 164.
    static func isFileReference(_ value: String) -> Bool {
        guard value.count >= 6, !value.contains(where: \.isUppercase) else { return false }
        let path = value.first == "/" ? Substring(value) : value.dropFirst().first == "/" ? value.dropFirst() : nil
        guard let path else { return false }
        return absolutePath.firstMatch(in: String(path)) != nil
    }

    static func isPasswordValue(_ value: String, quoted: Bool) -> Bool {
        guard !value.isEmpty, !isPlaceholder(value), value.contains(where: { $0.isLetter || $0.isNumber }) else { return false }
        if isFileReference(value) { return false }
        let lower = value.lowercased()
        if ["fake", "example", "dummy", "changeme", "required", "optional", "hidden"].contains(where: lower.contains) { return false }
        // (`null` and `none` are no value; a random password may hold one by chance,
        // `nullPVKpZ1w776-U`: the rest of it, 10+ characters, then looks like a secret on its own.)
        // (OCR may read an `l` of `null` as `1` or `I`, the `o` of `none` as `0`: `nul1`, `n0ne`;
        // and a stroke of an `l` as one more: `nul11`.)
        let read = String(lower.map { "1|i".contains($0) ? "l" : $0 == "0" ? "o" : $0 })
        if read == "none" || read.hasPrefix("nul") && (4...5).contains(read.count) && read.dropFirst(3).allSatisfy({ $0 == "l" }) { return false }
        // (Nor is a template's variable whose closing quote OCR read as another: `${DEPLOY_PASSWORD}' roles=`.)
        if value.hasPrefix("${"), let close = value.firstIndex(of: "}"), let after = value[value.index(after: close)...].first,
           "'\"‘’“”".contains(after) { return false }
        // (Nor a workflow's or a template's expression OCR put a glyph before: `S${{ secrets.ENV0_API_SECRET }}`; round 160.)
        if value.count >= 5, case let rest = value.dropFirst(), rest.hasPrefix("${{") || rest.hasPrefix("{{ ") || rest.hasPrefix("${ ") { return false }
        // (Nor a shell's or Compose's variable, whole, maybe after a glyph OCR put before its `$`:
        // `"S${ADMIN_PASSWORD}"`; round 165.)
        if value.count >= 4, value.last == "}", case let rest = value.hasPrefix("$") ? Substring(value) : value.dropFirst(),
           rest.hasPrefix("${"), case let name = rest.dropFirst(2).dropLast(), !name.isEmpty, name.count <= 64,
           name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) { return false }
        // (Nor Ruby's and Fluentd's interpolation, `"#{ENV['DB_PASSWORD']}"`, nor a format's or
        // Logstash's `%{DB_PASS}`, whole or cut at its inner quote: a name, then `[`, `(`, `.` or `}`; round 160.)
        if value.hasPrefix("#{") || value.hasPrefix("%{"), case let name = value.dropFirst(2).prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }),
           name.count >= 2, name.first?.isLetter == true, value.count == name.count + 2 || "[(.}:".contains(value[value.index(value.startIndex, offsetBy: name.count + 2)]) { return false }
        if let word = ["none", "null"].first(where: lower.contains) {
            let rest = value.replacingOccurrences(of: word, with: "", options: .caseInsensitive)
            guard rest.count >= 10, looksLikeSecretOnItsOwn(rest) else { return false }
        }
        if quoted { return true }
        guard value.count >= 4 else { return false }
        // (Nor code in a page's markup, a value that runs into a tag's start: `alice.<span` of
        // highlighted JavaScript, `const aliceSecret = alice.<span class=…>`; round 162.)
        if let open = value.lastIndex(of: "<"), case let tag = value[value.index(after: open)...].drop(while: { $0 == "/" }),
           htmlInlineTags.contains(String(tag)) { return false }
        // (Nor a bracket that opens a list of settings: PAM's `password [success=1 default=ignore]`.)
        if let first = value.first, "[({".contains(first), settingStart.firstMatch(in: String(value.dropFirst())) != nil { return false }
        // (Nor one that opens a JSON object, `password={"type": "environment", "variable": "…"}`:
        // Druid's and others' way of saying where the password comes from; round 165.)
        if value.first == "{", jsonObjectStart.firstMatch(in: value) != nil { return false }
        // A YAML tag (`db_password: !vault |`, `!secret wifi_password`) says where the value is.
        if isYAMLTag(value) { return false }
        // So does a relative path (`docker secret create db_password ./secrets/db.txt`, a Compose
        // file's `db_password: ./db_password.txt`): a file that holds it. Round 158.
        if value.hasPrefix("./") || value.hasPrefix("../") || value.hasPrefix("~/"),
           value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-/".contains($0)) }), value.contains(where: \.isLetter) { return false }
        // A call gives what it returns: `password = getpass.getpass()`; a member of an object in
        // code holds the value elsewhere (``memberPath``: `pass: process.env.SMTP_PASS`).
        if isCall(value) || memberPath.firstMatch(in: value) != nil { return false }
        // A field's dots as OCR reads them (`**eseeeee*`, `s*+ss***»`, `s+erseeees`): two letters at
        // most, or three small ones and no digit, again and again.
        // Or one character most of the time (`eeeeeesee2`), as no chosen password is.
        let alphanumericCharacters = value.filter { $0.isLetter || $0.isNumber }
        let alphanumerics = Set(alphanumericCharacters)
        // (Or the glyphs a bullet becomes, `e` `s` `o` `a`, and a digit once: `e**eeesee9*`.)
        if value.count >= 6, alphanumerics.count <= 2 || alphanumerics.count <= 3 && alphanumerics.allSatisfy(\.isLowercase)
            || alphanumerics.count <= 3 && alphanumerics.allSatisfy({ "eosa".contains($0) || $0.isNumber }) && value.filter(\.isNumber).count <= 1
            || isMostlyOneCharacter(value) { return false }
        // (Or 12+ small letters, a third of them distinct at most, as a row of dots in a font whose
        // dot OCR reads as several glyphs: `eielstolstslolelstolote`; a chosen password of that
        // length repeats its letters less, a random one far less. With digits among them, eight
        // distinct at most, `ieisielsiole[elsl+]s1s19)`: a key in hexadecimal, 64 characters of 16
        // kinds, is no row of dots.)
        if alphanumericCharacters.count >= 12, alphanumerics.allSatisfy({ $0.isLowercase || $0.isNumber }), alphanumerics.contains(where: \.isLowercase),
           alphanumerics.count * 3 <= alphanumericCharacters.count, !alphanumerics.contains(where: \.isNumber) || alphanumerics.count <= 8 { return false }
        // (Or 8+ small letters with one of them five times in a row, the dots OCR read alike:
        // `werccccccses`; a chosen password has no such run, a random one hardly ever.)
        if alphanumericCharacters.count >= 8, alphanumericCharacters.count == value.count, alphanumerics.allSatisfy(\.isLowercase),
           Self.longestRunOfOneCharacter(value) >= 5 { return false }
        // (Or 10+ glyphs all of the round shapes a bullet becomes in one font or another, its dots
        // read as different letters: `SouogobGo00dGD`, `DBDS00GOOGOG` (a bowl or two). A random
        // password of ten characters draws from those 19 of 62 alone about once in 135,000; no word
        // of ten is made of them.)
        if alphanumericCharacters.count >= 10, value.allSatisfy({ "oO0QDGBbdgpqaecsSu8@*•·+»".contains($0) }) { return false }
        let innerCapital = value.dropFirst().contains(where: \.isUppercase) && value.contains(where: \.isLowercase)
        // A word, maybe with punctuation around it (`short.` `Forgot?` `valid\&.` `(sensitive`), is prose.
        let core = value.reversed().drop(while: { !$0.isLetter && !$0.isNumber }).reversed().drop(while: { "([{<".contains($0) })
        if !core.isEmpty, core.allSatisfy(\.isLetter), !innerCapital, !isUnpronounceable(String(core)) { return false }
        return true
    }

    /// Whether 8+ small letters hold five consonants in a row (`mdqjfsfqhush`), as random letters
    /// mostly do and words of an interface do not (`strengths` is as far as English goes).
    static func isUnpronounceable(_ letters: String) -> Bool {
        letters.count >= 8 && longestConsonantRun(letters) >= 5
    }

    /// The most consonants in a row (`Y` counts as a vowel; a digit or a symbol ends a run).
    static func longestConsonantRun(_ text: some StringProtocol) -> Int {
        var run = 0, longest = 0
        for character in text {
            run = character.isLetter && !"aeiouyAEIOUY".contains(character) ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// Whether a piece of letters and digits is no word of English: it holds a digit, five
    /// consonants in a row (``isUnpronounceable(_:)``, 8+ letters), or a pair of letters English
    /// words do without: `q` before anything but `u`, `j` before a consonant, `z` before a
    /// consonant but `z` (`lyzwac`, `jhqkxpxuof`; `jazz`, `quiz`, `fjord` are words).
    static func isNoWord(_ piece: String) -> Bool {
        if piece.contains(where: \.isNumber) || isUnpronounceable(piece.lowercased()) { return true }
        let letters = Array(piece.lowercased())
        return zip(letters, letters.dropFirst()).contains { a, b in
            let consonant = b.isLetter && !"aeiouy".contains(b)
            return a == "q" && b != "u" || a == "j" && consonant || a == "z" && consonant && b != "z"
        }
    }

    /// HTTP's schemes whose credential is a token: OAuth's `Bearer`, Okta's `SSWS`.
    static let authorizationSchemes: Set<String> = ["bearer", "ssws"]
    /// HTTP's authorization schemes that name how a credential is sent, not the credential.
    static let httpSchemes: Set<String> = ["basic", "bearer", "ssws", "digest", "negotiate", "ntlm"]

    /// A token label (`api_key`, `secret`, `access token`, `Authorization: Bearer`, Okta's `SSWS`,
    /// an address's `appid=`, or its `key=` and `signature=`: Steam's Web API key, YOURLS' signature
    /// token; round 162) and a long random value after it. A prompt may show its default between them (`aws configure`'s
    /// `AWS Secret Access Key [None]: …`). In an address a value ends at its `&` (`?token=…&email=…`).
    /// A quote the screen's edge left open (`"SessionToken": "IQoJb3…`, OCR may double it: `"“IQoJ…`)
    /// opens an unquoted value (as far as a quoted value may run, 256 characters: the look-ahead
    /// for its closing quote stays bounded on a long line of labels).
    /// (OCR may read a `_` inside the label with a space after it: `aws_secret_access_ key = /aJd…`,
    /// a value that starts with `/` which the OCR-tolerant rules leave to this one; round 145.)
    static let tokenMatcher = TextMatcher(
        #"(?i)(?<![A-Za-z])((?<=[?&])(?:key|signature)|api(?:_ ?|[\-\s])?key|apikey|app[_\-]?key|appid|access(?:_ ?|[\-\s])?key(?:(?:_ ?|[\-\s])?id)?|secret(?:e|(?:_ ?|[\-\s])?(?:access(?:_ ?|[\-\s])?)?key)?|client(?:_ ?|[\-\s])?secret|(?:auth|access|refresh|api|bearer|session)(?:_ ?|[\-\s])?token|token|private(?:_ ?|[\-\s])?key|bearer|ssws|authorization)(?:[_\-.][A-Za-z0-9]+)*(?![A-Za-z])["']?\s*(?:\[[^\]\n]{0,24}\](?=[ \t]*[:=])[ \t]*)?(:=|===|!==|==|!=|=>|[:=]|\bis\b)?\s*(?:Bearer\s+|Basic\s+|token\s+|SSWS\s+)?(?:[“‘](?=[^\s"'“”‘’])|"[“‘]?(?=[^\s"'“”‘’])(?![^"\n]{0,257}")|'[“‘]?(?=[^\s"'“”‘’])(?![^'\n]{0,257}'))?(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|`([^`\n]{1,256})`|([^\s"'`,;&]{1,256}))"#)

    /// A setting `token` alone on its line with a short value, 12 to 16 of a token's characters (group 1),
    /// maybe split once by OCR: Gotify's app token in Diun's `token: AummpkPHAhBUaOa`, `token:
    /// AurdjNIQudop. tc`, too short for the runs ``labelledTokens()`` looks at.
    static let shortTokenSetting = TextMatcher(#"(?im)^[ \t]*token[ \t]*[:=][ \t]*([A-Za-z0-9._~\-@]{3,16}(?: [A-Za-z0-9._~\-@]{1,13})?)[ \t]*$"#)

    /// A word in camel case or small letters, or a number: a part of a name (`ReplaceMeLater`,
    /// `my-bot-token-01`, a version's `v1.2.3-beta.4`).
    static let namePart = TextMatcher(#"^(?:(?:[A-Z]?[a-z]+)+|[vV]?[0-9]+)$"#)

    /// A ``shortTokenSetting``'s value when it mixes capitals and small letters, or letters and
    /// digits, and is no name of words (each part between `.`, `_`, `-` or `~` a word in camel
    /// case or a number, and no part ``isNoWord(_:)``: `token: ReplaceMeLater`, `token:
    /// my-bot-token-01` stay, `Aqri-IeukXcguxs` does not; OCR may read a `0` as `@`; round 164).
    func shortTokenSettings() -> [Secret] {
        guard mentions("token") else { return [] }
        return Self.shortTokenSetting.matches(in: searchable).compactMap { match in
            guard let range = match.range(1), let raw = match[1], case let value = raw.filter({ $0 != " " }), (12...16).contains(value.count),
                  !raw.split(separator: " ").dropFirst().contains(where: { $0.count > 4 && Self.sentenceWord.firstMatch(in: String($0)) != nil }),
                  value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase) || value.contains(where: \.isNumber) && value.contains(where: \.isLetter),
                  Self.entropy(value) >= 3.0, !Self.isPlaceholder(value),
                  !value.split(whereSeparator: { "._~-".contains($0) }).allSatisfy({ Self.namePart.firstMatch(in: String($0)) != nil && ($0.contains(where: \.isNumber) || !Self.isNoWord(String($0))) })
            else { return nil }
            return secret(.apiKey, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A value that opens a JSON object: `{`, a quoted name and its colon (OCR's curly quotes too).
    static let jsonObjectStart = TextMatcher(#"^\{[ \t]?["“”'][A-Za-z_][A-Za-z0-9_\-]{0,63}["“”'][ \t]?:"#)

    /// A value that starts as a setting does: a name, then `=` and more than padding.
    static let settingStart = TextMatcher(#"^[A-Za-z_][A-Za-z0-9_.\-]{1,63}=(?=[^=\s])"#)

    func labelledTokens() -> [Secret] {
        let hasLiteral = mentions("\"", "'", "`")
        let compared = hasLiteral ? literalsComparedWithSecrets() : []
        guard mentions("key", "secret", "token", "bearer", "authorization", "appid", "ssws", "signature"), !longRuns.isEmpty || hasLiteral || mentions("basic ") else {
            return compared
        }
        let found: [Secret] = Self.tokenMatcher.matches(in: searchable).compactMap { match in
            let quoted = match[3] ?? match[4] ?? match[5]
            guard let value = quoted ?? match[6], quoteAfterName(at: match.start) != false else { return nil }
            // (A name that says the value is public, the token's words at its end:
            // `KNOCK_PUBLIC_API_KEY=pk_…`; round 157.)
            var nameStart = match.start
            while nameStart > 0, match.start - nameStart < 64, Self.isAlphanumeric(utf8[nameStart - 1]) || utf8[nameStart - 1] == 0x5F { nameStart -= 1 }
            if nameStart < match.start, Self.namesAPublicValue(Self.nameWords(slice(nameStart, match.start))) { return nil }
            // (Nor a key's id, which names the key and holds none of it: a service account's
            // `private_key_id`, as round 157 kept it when OCR spaced its name; AWS's access key id
            // is half of a credential and stays a secret's; round 161.)
            if case let words = Self.nameWords(slice(nameStart, match.start) + name(at: match.start)),
               words.suffix(2) == ["key", "id"], !words.contains("access") { return nil }
            // A setting after a name with no `:` or `=` of its own is the setting's, not the name's
            // (`key_file=~/.oci/oci_api_key.pem` above `tenancy=ocid1.tenancy.oc1..aaaa…`).
            if match[2] == nil, quoted == nil, Self.settingStart.firstMatch(in: value) != nil { return nil }
            // A token OCR split at its `:` or `.` after HTTP's `Bearer` (YouTrack's `perm:` /
            // `bGVuYQ==.NDQtMQ==.dfAU…`, `perm:bGVuYQ==.NDQtMQ==.` / `spOp…`): the pieces after it
            // are its body (round 161).
            if quoted == nil, value.count >= 2, value.hasSuffix(":") || value.hasSuffix("."), match.text.range(of: "bearer ", options: .caseInsensitive) != nil,
               case let start = match.end - value.utf8.count, case let pieces = valueEnd(from: match.end), pieces > match.end,
               // (Not the quote that closes the header the line opened: `…51zHIC"`.)
               case let end = pieces - (lineOpensAQuote(before: start) ? quoteLength(endingAt: pieces) : 0),
               Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, end))) {
                return secret(.apiKey, nil, start, end)
            }
            // (Nor is a name and its `:` a value: YAML's next mapping, `APPVEYOR_API_TOKEN:` / `  secure:
            // …` under it, the ciphertext of an encrypted variable; round 160.)
            if quoted == nil, value.count >= 2, value.hasSuffix(":"), value.dropLast().allSatisfy({ $0.isLetter || $0 == "_" || $0 == "-" }) { return nil }
            if quoted == nil, match.text.range(of: "basic ", options: .caseInsensitive) != nil {
                // `Authorization: Basic …`: a name and a password in base64 (``isBasicCredentials(_:)``),
                // taken across the spaces OCR put in it (`YX BwOj9obHJt…`), or the piece alone.
                let start = match.end - value.utf8.count, end = valueEnd(from: match.end)
                if Self.isBasicCredentials(squeezed(start, end)) { return secret(.apiKey, nil, start, end) }
                if Self.isBasicCredentials(value) { return secret(.apiKey, nil, start, match.end) }
            }
            // A quoted value that starts with HTTP's `Basic` (nginx's `proxy_set_header Authorization
            // "Basic …"`): the name and password in base64 after it, as OCR spaced it or not.
            if quoted != nil, let range = match.range(3) ?? match.range(4) ?? match.range(5), range.upperBound - range.lowerBound > 14,
               slice(range.lowerBound, range.lowerBound + 6).lowercased() == "basic ", case let start = range.lowerBound + 6,
               Self.isBasicCredentials(squeezed(start, range.upperBound)) {
                return secret(.apiKey, nil, start, range.upperBound)
            }
            // A first piece too short to judge, split by OCR (`xUHR+PK8WnQB/M8 jSL8QZf0sX…`): the
            // machine-made pieces after it, together with it.
            // (After HTTP's `Bearer` no separator comes: `auth header: Bearer feX38cSeal 7WuMX…`.)
            // (After `Bearer`, a first piece of any length that is no token alone: Asana's
            // `2/4257…/2529… : 68e0…`, OCR's space before its `:`; not the quote that closes the
            // header the line opened. Round 162.)
            // (Not a shell's variable, `xc-token: $NOCODB_TOKEN" “https://…`: the address after it is no token's.)
            if quoted == nil, match[2] != nil || Self.authorizationSchemes.contains(match[1]?.lowercased() ?? ""), !value.hasPrefix("$"),
               value.count < 16 || match.text.range(of: "bearer ", options: .caseInsensitive) != nil && !Self.isRandomToken(value),
               case let start = match.end - value.utf8.count, case let pieces = valueEnd(from: match.end, stoppingAt: [0x26]), pieces > match.end,
               case let end = pieces - (lineOpensAQuote(before: start) ? quoteLength(endingAt: pieces) : 0),
               Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, end))) {
                return secret(.apiKey, nil, start, end)
            }
            // After a command's option (`--access-token omttfcdt Luxqrroixrs6rhidog`), the pieces to the
            // line's end, letters and digits only, when together they are a token of 20+.
            if quoted == nil, match[2] == nil, value.count < 16, match.start > 0, utf8[match.start - 1] == 0x2D,
               case let start = match.end - value.utf8.count, let pieces = piecesToLineEnd(from: start, atMost: 3, maximumSpaces: 1),
               pieces.count > 1, let last = pieces.last, pieces.allSatisfy({ utf8[$0.start..<$0.end].allSatisfy(Self.isAlphanumeric) }),
               case let joined = squeezed(start, last.end), joined.count >= 20, Self.isRandomToken(joined) {
                return secret(.apiKey, nil, start, last.end)
            }
            // (Or a long key's pieces, eight at most, to the command's next option: `--token` /
            // `aTU_puDA4U4Mwb - uk1HcPa LHVdzgR6Z…== --active`, a terminal's wrap right after the
            // option and OCR's splits around the key's `-`; 40+ characters of a key's alphabet.)
            if quoted == nil, match[2] == nil, value.count < 16, match.start > 0, utf8[match.start - 1] == 0x2D,
               case let start = match.end - value.utf8.count, let end = keyPiecesBeforeOption(from: start),
               case let joined = squeezed(start, end), joined.count >= 40, Self.isRandomToken(joined) {
                return secret(.apiKey, nil, start, end)
            }
            // In an address, the pieces OCR split a parameter's token into run to its `&` (none a word).
            if quoted == nil, match[2] == "=", value.count < 16, case let start = match.end - value.utf8.count,
               let end = parameterEnd(from: match.end), case let token = Self.withoutOCRJunk(squeezed(start, end)),
               Self.isRandomToken(token) || Self.isRandomLetters(token) {
                return secret(.apiKey, nil, start, end)
            }
            // A request's signature in an address stands for a secret whatever its length: YOURLS'
            // `?signature=7bac806081` (10 hexadecimal digits) signs with the user's password. Any
            // 8+ letters and digits, both, as OCR may have split them to the next `&` (`…=307 fea9582&`); round 162.
            if quoted == nil, match[2] == "=", match[1]?.lowercased() == "signature", case let start = match.end - value.utf8.count,
               case let end = value.count < 8 ? parameterEnd(from: match.end) ?? match.end : match.end, case let whole = squeezed(start, end),
               (8...128).contains(whole.count), whole.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
               whole.contains(where: \.isNumber), whole.contains(where: \.isLetter), !Self.isPlaceholder(whole), !whole.lowercased().contains("example") {
                return secret(.apiKey, nil, start, end)
            }
            // (An address's `key=` that holds a `/` names an object, a path: `?key=cloudformation/7870…`.)
            if match[1]?.lowercased() == "key", value.contains("/") { return nil }
            // A parameter's short token in an address (Gotify's `?token=AAReidVBArHDaEB`, 15
            // characters): 12+ of a token's alphabet that switch between capitals, small letters
            // and digits again and again (``looksLikeSecretOnItsOwn(_:)``), as a name does not.
            if quoted == nil, match[2] == "=", value.count >= 12, match.start > 0, [0x3F, 0x26].contains(utf8[match.start - 1]),
               value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }),
               Self.looksLikeSecretOnItsOwn(value) || Self.isShortRandomLetters(value), Self.entropy(value) >= 3.0 {
                return secret(.apiKey, nil, match.end - value.utf8.count, match.end)
            }
            // (OCR may read a key's `0` as `@`: `tclwdTTf2q@nsyP3…`; random letters are a token too,
            // its digits read as letters: `dKMOgkKOTXFfJTqHgRFJ…`.)
            // (A quoted value OCR split is the same value, `"d44d6b419dc715090f 58e8b…"`, unless a
            // piece of it is an HTTP scheme: `` `Bearer glsa_…` `` is a scheme and a token.)
            let bearer = Self.authorizationSchemes.contains(match[1]?.lowercased() ?? "")
            let afterBearer = bearer || match.text.range(of: "bearer ", options: .caseInsensitive) != nil
            let random = { (value: String) in
                let split = quoted != nil && value.contains(" ")
                    && !value.split(separator: " ").contains { Self.httpSchemes.contains($0.lowercased()) || $0.lowercased() == "token" }
                let value = split ? value.filter { $0 != " " } : value
                // (Or, after a name and its `:` or `=`, 16+ letters that switch case as random ones do,
                // a key whose digits OCR read as letters: `accesskey: stVmRcwglOuQorolQycZ`.)
                return Self.isRandomToken(value) || Self.isRandomLetters(value) || afterBearer && Self.isBearersLetters(value)
                    || match[2] != nil && Self.isRandomMixedCaseLetters(value)
                    // (Or, after a name and its `:` or `=`, 20+ characters with symbols among capitals, small
                    // letters and digits as a generated secret key has them, `9QJpLus^N7sWZ…yYB65^45`
                    // (Django's and Taiga's); not a path, an address, `%` escapes or a placeholder,
                    // `bP88Q~xxxx…`; round 157.)
                    || match[2] != nil && value.count >= 20 && value.contains(where: { "!#^*()+?@[]{}|~$&".contains($0) }) && Self.looksLikeSecretOnItsOwn(value)
                        && value.contains(where: \.isNumber) && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase)
                        && !["/", "~", "."].contains(where: value.hasPrefix) && !value.contains("://") && !Self.isPlaceholder(value)
            }
            // (After an option, capitals alone may be a token as OCR read it: ``isRandomCapitals(_:)``.)
            let capitals = { (value: String) in match[2] == nil && !bearer && Self.isRandomCapitals(value) }
            // A value that ends a long line the terminal wrapped inside it (`--token LpYjvoLgcYXOloAnsnC` /
            // `qMLhmH8EhKuZRX5UiLCXH --name runner-01`) is judged with its rest (``wrappedRest(after:of:isKey:)``),
            // which ``wrapped(_:)`` then masks with it.
            var whole = value, lineEnd: Int?
            if quoted == nil, match[2] == "=", isQueryParameterValue(at: match.end - value.utf8.count), let restEnd = parameterRestEnd(after: match.end) {
                // (A query parameter's value the terminal wrapped: its rest runs to the next `&`.)
                whole = value + slice(match.end, restEnd).filter { !$0.isWhitespace }
            } else if quoted == nil, let restEnd = wrappedRest(after: match.end, of: value, isKey: true) {
                whole = value + slice(match.end, restEnd).filter { !$0.isWhitespace }
            } else if quoted == nil, let pieces = piecesToLineEnd(from: match.end, atMost: 2, maximumSpaces: 1), let last = pieces.last,
                      !pieces.contains(where: { utf8[$0.start] == 0x2D }), pieces.allSatisfy(isBase64),
                      case let line = value + squeezed(match.end, last.end),
                      let restEnd = wrappedRest(after: last.end, of: line, isKey: true) {
                // (OCR may have split it before the wrap too, `--token tQXVddRFqYDj cNxMN` /
                // `61gG6YMKRhm…5K --name runner-01`: its pieces to the line's end, then the rest.)
                whole = line + slice(last.end, restEnd).filter { !$0.isWhitespace }
                lineEnd = last.end
            }
            // (After an option, OCR's `@` for a key's `0` is read back when the value has no dot, as
            // an address would: `--token gLsh…86` / `xy@AkGq… --name runner-@1`.)
            let optionValueRead = match[2] == nil && !bearer && random(Self.atsReadAsZeros(whole))
            if !random(whole), !optionValueRead, !capitals(whole), quoted != nil || match[2] == nil && !bearer || !random(Self.withoutOCRJunk(whole)) {
                // A literal assigned to or compared with a secret's name is its value, random or
                // not (`api_key: 'correct horse'`, `if (token == "…")`), as detect-secrets'
                // keyword rule has it; not a command's output in backquotes, nor the value of a
                // setting about the secret (`SECRET_NAME`, `api_key_file`).
                guard match[3] ?? match[4] != nil, match[2] != nil, Self.isSecretLiteral(value),
                      !Self.namesAboutASecret.contains(where: { name(at: match.start).hasSuffix($0) }) else { return nil }
            } else if match[2] == nil, !Self.isClearlyRandom(whole), !capitals(whole), !bearer {
                // Without `:` `=` or `is` between them, only a value that is clearly random counts
                // (after HTTP's `Bearer`, what follows is its token).
                return nil
            }
            let end = match.end - (quoted != nil ? 1 : 0), start = end - value.utf8.count
            // (A query parameter's long token OCR split goes on to its `&` or the address's closing
            // quote, when all of it is random: `?api_secret=oZhlt5VhQ… jbmarf j8Ei-Na2w…&from=…`; round 161.)
            if quoted == nil, lineEnd == nil, match[2] == "=", isQueryParameterValue(at: start), let parameter = parameterEnd(from: end), parameter > end,
               Self.isRandomToken(Self.withoutOCRJunk(squeezed(start, parameter))) {
                return secret(.apiKey, nil, start, parameter)
            }
            return secret(.apiKey, nil, start, lineEnd ?? end)
        }
        return found + compared
    }

    /// Where a query parameter's value that OCR split ends: the `&` of the next parameter
    /// (`&token_type=`) within eight pieces of `index` on its line, none of them a word (``isNoWord(_:)``); nil without one.
    /// (Or the quote that closes the address the line opened, `&apikey=Amj Twg L7UeB…cm"`; round 161.)
    func parameterEnd(from index: Int) -> Int? {
        var end = index
        for _ in 0..<8 {
            guard let next = piece(from: end) else { return nil }
            if let ampersand = utf8[next.start..<next.end].firstIndex(of: 0x26) {
                return ampersand > next.start || end > index ? ampersand : nil
            }
            // (A quote at a piece's start closed the value before it: `?token=…" -F "title=…"`. A
            // piece with a pair of letters no word has is no word: `jbmarf`; round 161.)
            guard !isSentenceWord(next) || Self.isNoWord(slice(next.start, next.end)), quoteLength(at: next.start) == 0 else { return nil }
            if end > index, case let quote = quoteLength(endingAt: next.end), quote > 0, next.end - quote > next.start, lineOpensAQuote(before: index) {
                return next.end - quote
            }
            end = next.end
        }
        return nil
    }

    /// A query parameter that names a key, its `&` read by OCR as a letter and glued to the value
    /// before it (`?adjusted=truesapikey=Gj jNCEE…`); OCR may split `apikey` once more too
    /// (`?ApiUser=acmeSAp iKey=e2d8…`; round 162).
    static let gluedKeyParameter = TextMatcher(
        #"(?i)[?&][A-Za-z0-9_\-]{1,32}=[A-Za-z0-9_.\-~%]{0,64}?[s8](?:a ?p ?i(?:[_\-]| )?k ?e ?y|(?:access|auth)[_\-]?token|token|secret|client[_\-]?secret)=(?=[A-Za-z0-9])"#)

    /// The value of a ``gluedKeyParameter`` (its pieces as ``valueEnd(from:maximumLength:stoppingAt:)``
    /// reads them, to the next `&`), when it is random (round 161).
    func gluedKeyParameters() -> [Secret] {
        guard mentions("?"), mentions("key=", "token=", "secret=", "k ey=", "ke y=") else { return [] }
        return Self.gluedKeyParameter.matches(in: searchable).compactMap { match in
            let end = valueEnd(from: match.end, stoppingAt: [0x26])
            guard end > match.end, Self.isRandomToken(Self.withoutOCRJunk(squeezed(match.end, end))) else { return nil }
            return secret(.apiKey, nil, match.end, end)
        }
    }

    /// The end of the pieces from `start` (one space apart, eight at most, each of a key's
    /// characters) when the line ends after them or a command's option follows them.
    func keyPiecesBeforeOption(from start: Int) -> Int? {
        var end = start, count = 0
        while let next = piece(from: end, maximumSpaces: 1), !isOptionPiece(next) {
            count += 1
            // (A key's own `.` and `:` too, Bitwarden's `0.<uuid>.<secret>:<key>` as OCR split it
            // (`0.e5a181lac- f5af-…-7feb7216f fda. 6L7Th…`; round 157); no piece an address, nor a
            // label's word and its colon, `--token` / `Personal Access Token: …`.)
            guard count <= 8, utf8[next.start..<next.end].allSatisfy({ Self.isAlphanumeric($0) || "+/-_=.:".utf8.contains($0) }),
                  !isOptionOrAddress(next), utf8[next.end - 1] != 0x3A || !isSentenceWord(next) else { return nil }
            end = next.end
        }
        return count > 1 ? end : nil
    }

    /// Whether 16+ letters switch case as random letters do, every two or three letters, and as no
    /// name does (`stVmRcwglOuQorolQycZ`: a key whose digits OCR read as letters). A name's words
    /// run four letters and more, each capital starting one (`getHTTPResponseForURLRequestNow`).
    static func isRandomMixedCaseLetters(_ value: String) -> Bool {
        guard value.utf8.count >= 16, value.utf8.allSatisfy(isLetter) else { return false }
        // (Segments: a run of capitals, then its small letters.)
        var segments = 0, previousSmall = false, first = true
        for byte in value.utf8 {
            let small = byte >= 0x61
            if first || (!small && previousSmall) { segments += 1 }
            previousSmall = small
            first = false
        }
        return segments >= 6 && value.utf8.count * 10 <= segments * 35
    }

    /// Whether 16+ letters are capitals with small letters alone among them, three or more, each
    /// between two capitals (`STUNZQiAAyWVbAKGAOVFZQVL`: a key OCR read mostly as capitals, its
    /// digits as letters); a name in capitals holds none inside (`URLs`, `IDs` end with theirs).
    /// Round 165.
    static func isCapitalsWithStraySmallLetters(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count >= 16, bytes.allSatisfy(isLetter) else { return false }
        var stray = 0
        for index in 1..<(bytes.count - 1) where bytes[index] >= 0x61 {
            guard bytes[index - 1] < 0x61, bytes[index + 1] < 0x61 else { return false }
            stray += 1
        }
        return stray >= 3 && bytes[0] < 0x61 && bytes[bytes.count - 1] < 0x61
    }

    /// Whether a value after `Basic` is a user and password in base64 (RFC 7617): 8+ characters of
    /// its alphabet that decode to `name:password`, or, when OCR split or misread it, 8+ machine-made ones.
    static func isBasicCredentials(_ value: String) -> Bool {
        // (A glyph OCR read for a letter, `|` for `l`, counts as one.)
        guard value.count >= 8, withoutOCRJunk(value).allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }) else {
            return false
        }
        var padded = value
        while padded.count % 4 != 0 { padded += "=" }
        if let data = Data(base64Encoded: padded), let decoded = String(data: data, encoding: .utf8), decoded.contains(":"),
           decoded.allSatisfy({ $0.isASCII && !$0.isNewline }) {
            return true
        }
        return value.contains(where: \.isNumber) || caseChanges(value.utf8) >= 2
    }

    /// The comparison written the other way round: `if ("…" == password)`.
    func literalsComparedWithSecrets() -> [Secret] {
        guard mentions("==", "!="), mentions("pass", "pwd", "secret", "key", "token", "credential") else { return [] }
        return Self.literalComparedWithSecret.matches(in: searchable).compactMap { match in
            guard let value = match[1] ?? match[2], Self.isSecretLiteral(value) else { return nil }
            let start = match.start + 1
            return secret(.apiKey, nil, start, start + value.utf8.count)
        }
    }

    /// Settings about a secret rather than holding it, by the last word of their name.
    static let namesAboutASecret = ["name", "file", "path", "ref", "id", "env", "var", "arn", "field", "header", "param", "length",
                                    "type", "url", "uri", "endpoint", "location", "label", "prefix"]

    /// The name (identifier) that starts at `start`, lower-cased: `LLM_SECRET_NAME` → `llm_secret_name`.
    func name(at start: Int) -> String {
        var end = start
        while end < utf8.count, Self.isNameByte(utf8[end]) { end += 1 }
        return slice(start, end).lowercased()
    }

    static func isNameByte(_ byte: UInt8) -> Bool { isAlphanumeric(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E }

    /// For a label whose name a quote follows (`"password": …`): whether that quote closes a key
    /// quoted as a whole (`"db_password"`), rather than ending a path or a slug that merely ends in
    /// the word (`'/forgot-password' => …`, `"…/creating-a-strong-password":`). Nil when no quote follows.
    func quoteAfterName(at start: Int) -> Bool? {
        var end = start
        while end < utf8.count, Self.isNameByte(utf8[end]) { end += 1 }
        guard end < utf8.count, utf8[end] == 0x22 || utf8[end] == 0x27 else { return nil }
        var first = start
        while first > 0, Self.isNameByte(utf8[first - 1]) { first -= 1 }
        // (OCR may read the opening quote curly: `‘api_key': '…'`.)
        let curly = first >= 3 && utf8[first - 3] == 0xE2 && utf8[first - 2] == 0x80 && (0x98...0x9D).contains(utf8[first - 1])
        return first > 0 && (utf8[first - 1] == utf8[end] || curly)
    }

    /// A quoted literal, a comparison, and a name holding a secret's word.
    static let literalComparedWithSecret = TextMatcher(
        #"(?i)(?:"([^"\n]{1,128})"|'([^'\n]{1,128})')\s*(?:===|!==|==|!=)\s*[\w.$]{0,64}?(?:passw(?:or)?d|passwd|pwd|secret|api_?key|token|private_?key|credential)"#)

    /// Whether a literal given to a secret's name holds a value rather than standing in for one:
    /// 8 to 128 characters with a letter or digit, not a placeholder or template, no stand-in word
    /// (`your-api-key-here`, `<token>`, `REDACTED`), not a name in capitals or an identifier
    /// naming another setting (`API_KEY`, `secretKeyRef`), not a link or a path.
    static func isSecretLiteral(_ value: String) -> Bool {
        guard (8...128).contains(value.count), !isPlaceholder(value), value.contains(where: { $0.isLetter || $0.isNumber }) else {
            return false
        }
        // Low entropy (`glc_1111…`, `aaaaaaaa1`) is filler, not a chosen value.
        guard entropy(value) >= 2.0 else { return false }
        let lower = value.lowercased()
        let standIns = ["your", "example", "sample", "dummy", "fake", "placeholder", "redacted", "changeme", "change_me", "replace",
                        "insert", "todo", "xxx", "***", "...", "…", "env", "secret_key", "api_key", "apikey", "token", "password"]
        if standIns.contains(where: { lower.contains($0) }) { return false }
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || value.hasPrefix("/") || value.hasPrefix("~/") || value.hasPrefix("./") || isFileReference(value) {
            return false
        }
        // One identifier-like word (`SECRET_KEY_BASE`, `x-auth-header`, `secretKeyRef`) names a setting.
        let isIdentifier = value.allSatisfy { $0.isLetter || $0 == "_" || $0 == "-" || $0 == "." }
        if isIdentifier && (value == value.uppercased() || !value.contains(where: \.isUppercase) || value.contains("_") || value.contains(".")) {
            return false
        }
        return true
    }

    /// Whether a value after a token label looks machine-made: 16+ characters of one token
    /// alphabet, letters and digits mixed, enough entropy, and not words joined into an
    /// identifier (`NEXUS-GPT4-API-KEY`, `X25519.secret_length`, `fuzz/x509_parser.c`): one of its
    /// `-` `_` `.` parts must be 8+ characters mixing letters and digits. After a label, a
    /// hexadecimal string or a UUID is a token too (npm's legacy tokens are UUIDs).
    static func isRandomToken(_ value: String) -> Bool {
        guard value.count >= 16, !isPlaceholder(value) else { return false }
        let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./+=~:".contains($0)) }
        guard allowed, value.contains(where: \.isNumber), value.contains(where: \.isLetter) else { return false }
        let parts = value.split(whereSeparator: { "-_.".contains($0) })
        guard parts.contains(where: { $0.count >= 8 && $0.contains(where: \.isNumber) && $0.contains(where: \.isLetter) }) else { return false }
        if value.filter({ $0 == "/" }).count > 1, !value.contains("=") {
            // A path (`man3/l64a.3`, `src/x/y.c`) unless its parts are long and random.
            guard parts.contains(where: { $0.count >= 20 }) else { return false }
        }
        return entropy(value) >= 3.0
    }

    /// 20+ letters whose case changes again and again (`HgNwZyWlqbliZTziULorQTHc`): a random key
    /// without a digit (one of 24 random characters lacks one some 1.5 % of the time), as no
    /// identifier is (`getAccessTokenForUser`: three changes between words).
    /// Random letters also put capitals side by side (`ZT`, `QTH`) and few small ones in a row,
    /// where words joined in camel case (`ReplaceWithYourOwnTokenValue`, `getHTTPResponseForURL`)
    /// put a word's small letters between capitals (a run of seven small letters or more is a word's
    /// unless it has five consonants in a row or a pair no word has). A prefix before `.`, `_` or `-` may come first
    /// (`hvs.fNfyMrKIVKkddhenJJPEgwig`).
    static func isRandomLetters(_ value: String) -> Bool {
        // (Base64url's `-` and `_` are inside the key, not between its words: `qhRIddbZ-VRAYMhTrJQD`;
        // its `=` pads its end: a Fernet key OCR read without a digit, `cbrlwKesMt_UKNZYL…_VPNLCko=`.)
        var letters = Substring(value.filter { $0 != "-" && $0 != "_" })
        while letters.last == "=" { letters = letters.dropLast() }
        let joined = value.contains(".") ? [] : [letters]
        return (value.split(whereSeparator: { "._-".contains($0) }) + joined).contains { part in
            guard part.count >= 20, part.allSatisfy({ $0.isASCII && $0.isLetter }), caseChanges(part.utf8) >= 4,
                  entropy(String(part)) >= 3.5 else { return false }
            let capitalPairs = Self.capitalPairs(in: part)
            // A run of 7+ small letters is a word's (`Response`) unless five consonants come in a
            // row in it, as in no word of English (`xJjBxzSHcdvzsfdCVRq…`: `cdvzsfd`).
            // (Nor one with a pair of letters no English word has, ``isNoWord(_:)``: `kuczwiy`; round 161.)
            let wordLike = part.split(whereSeparator: { !$0.isLowercase }).contains { $0.count > 6 && longestConsonantRun($0) < 5 && !isNoWord(String($0)) }
            return capitalPairs >= 2 && !wordLike
        }
    }

    /// 24 to 64 capitals and digits, as a GitHub runner's registration token is, OCR having maybe
    /// read its digits as letters (`NGFRVIIVHQXURNVDWINJIAOAFYGMS`, `5` read `S`): four consonants or
    /// more in a row, many different characters (3.8+ bits each) and fewer than three vowels in
    /// ten, as no words in capitals (`REPLACEWITHYOURTOKEN`, `INVALIDORMISSINGCREDENTIALS`) have; no
    /// stand-in (``isPlaceholder(_:)``), no hexadecimal (a hash's).
    static func isRandomCapitals(_ value: String) -> Bool {
        (24...64).contains(value.count) && value.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) && value.contains(where: \.isLetter)
            && !value.allSatisfy(\.isHexDigit) && longestConsonantRun(value.lowercased()) >= 4 && entropy(value) >= 3.8 && !isPlaceholder(value)
            && value.filter({ "AEIOU".contains($0) }).count * 10 < value.count * 3
    }

    /// A bearer's token as OCR may read it, which ``isRandomToken(_:)`` and ``isRandomLetters(_:)``
    /// refuse (`fnqGlEEhUGiIOPuvWBYnDRAwPnfailrd` for `…Pnfa1lrd`: its digit read as a letter, then
    /// a run of small letters that looks like a word's): after HTTP's `Bearer`, characters of a
    /// token's alphabet whose kind changes five times or more (``looksLikeSecretOnItsOwn(_:)``),
    /// capitals side by side twice, as no name joined in camel case has them
    /// (`MyApplicationAccessToken`), and no stand-in (`YOUR_ACCESS_TOKEN`).
    static func isBearersLetters(_ token: String) -> Bool {
        token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.=/+~".contains($0)) }) && !isPlaceholder(token)
            && looksLikeSecretOnItsOwn(token) && capitalPairs(in: token) >= 2
    }

    /// 12+ letters (or `minimumLetters`) of both cases in which capitals stand side by side twice or
    /// more and no run of four small letters comes (`AE-NLFPUiLWRgng`), as in no identifier joined in
    /// camel case (`nextPageToken`: each capital starts a word of small letters).
    static func isShortRandomLetters(_ value: String, minimumLetters: Int = 12) -> Bool {
        let letters = value.filter(\.isLetter)
        guard letters.count >= minimumLetters, letters.contains(where: \.isUppercase), letters.contains(where: \.isLowercase) else { return false }
        return capitalPairs(in: value) >= 2 && !value.split(whereSeparator: { !$0.isLowercase }).contains { $0.count >= 4 }
    }

    /// How often two capitals stand side by side (`ZTQ`: twice).
    static func capitalPairs(in value: some StringProtocol) -> Int {
        zip(value, value.dropFirst()).filter { $0.isUppercase && $1.isUppercase }.count
    }

    /// Upper and lower case and digits, 24+ characters: what no word or identifier looks like.
    static func isClearlyRandom(_ value: String) -> Bool {
        value.count >= 24 && value.contains(where: \.isUppercase) && value.contains(where: \.isLowercase)
            && value.contains(where: \.isNumber) && entropy(value) >= 4
    }

    /// Shannon entropy in bits per character.
    static func entropy(_ value: String) -> Double {
        var counts: [Character: Int] = [:]
        for c in value { counts[c, default: 0] += 1 }
        let n = Double(value.count)
        return counts.values.reduce(0) { $0 - Double($1) / n * log2(Double($1) / n) }
    }

    // MARK: - One-time codes

    /// Words that make a number next to them a one-time code. Bare `code` only counts when the word
    /// before it is not one of ``codeModifiers`` (a postal, error or country code is no secret); a
    /// determiner names no other kind (`Enter this code: 482913`, `Use the code (7744)`).
    /// Vietnamese messages say `mã xác nhận` / `mã xác thực` / `mã kích hoạt` / `mã OTP`, often
    /// without their diacritics (`ma kich hoat`); a bare `mã` is any code (`mã số thuế`, a tax id).
    /// OCR's English model reads accented letters as others: `código` as `cédigo` or `cddigo`,
    /// `Bestätigungscode` as `Bestatigungscode`. Italian says `codice`; Polish, Swedish, Turkish,
    /// Czech, Finnish and others `kod`, `kód` (its `ó` read as `d`, `é` or `6`, as in `código`: `kdd je`,
    /// `kddod:`; round 137), `koodi`, in compounds (`verifieringskod`, `kodunuz`,
    /// Finnish with a possessive ending, `vahvistuskoodisi`); Romanian `codul … este`, Greek `κωδικός … είναι`:
    /// cues of their own (``otpCueWithCompounds``), tried only on a text that holds one (looking for
    /// a compound's end at every word costs every text).
    static let otpCue = #"(one[\s\-]?time[\s\-]+(?:pass(?:word|code)?|code|pin)|otp|pass\s?code|(?:verification|verify|security|log-?in|sign[\s\-]?in|authentication|auth|confirmation|access|activation|2fa|sms|text|sms-)\s*code|code|coce|pin|password|(?-i:(?:[mM]|i|SMS-|sms|push|chip|photo)?TAN)|пароль|verificatiecode|sms-code|verifizierungscode|best\p{L}{1,2}tigungscode|sicherheitscode|c\p{L}{1,2}digo|codice|验证码|驗證碼|認証コード|確認コード|인증\s?코드|인증번호|код|m[aã]\s+(?:x[aá]c\s+(?:nh[aậ]n|th[uự]c)|k[ií]ch\s+ho[aạ]t|otp))"#
    static let codeModifiers: Set<String> = [
        "postal", "zip", "post", "area", "country", "calling", "dial", "dialing", "error", "exit", "status", "return", "response",
        "source", "promo", "promotional", "discount", "coupon", "voucher", "gift", "tracking", "product", "bar", "qr", "color", "colour",
        "sort", "swift", "bic", "iata", "airport", "currency", "language", "region", "item", "reference", "order", "booking", "tax", "approval",
        "zone", "morse", "machine", "byte", "op", "unicode", "key", "char", "character", "exception", "http", "hs", "naics", "sic",
        "icd", "cpt", "fare", "class", "seat", "ean", "upc", "isbn", "sku", "article", "part", "model", "style", "dead",
        "common", "clean", "new", "old", "legacy", "sample", "example", "test",
    ]
    /// A code: 4–8 digits, or two groups of three or four (`482-913`, `6766 7126`).
    static let otpValue = #"(?:G-)?(\d{4}[\- ]\d{4}|\d{3}[\- ]\d{3}|\d{4,8})"#
    /// (Romanian's and Greek's cues join the compounds: a cue in the big alternation is tried at
    /// every `c` of every text, so the rarer ones wait for a text that holds them.)
    static let otpCueWithCompounds = otpCue.replacingOccurrences(of: "|codice|", with: #"|codice|codul|κωδικ\p{L}*|\p{L}{0,14}k(?:o|ó|oo|d|é|6)d(?:e|en|u|unuz|i(?:si|nne|mme)?|em|od|ot)?|"#)
    static let otpMatchers = otpMatchers(cue: otpCue)
    static let otpMatchersWithCompounds = otpMatchers(cue: otpCueWithCompounds)
    /// (And what OCR makes of the cues in Greek and Cyrillic, ``lookalikeLabels``, in a text that
    /// may hold one.)
    /// The verb OCR made of `είναι` may be no reading measured (`eivon`, `civat`): a lookalike cue,
    /// a word no other number has before it, takes the first code on its line within 40
    /// characters without one (the sixth pattern).
    static let otpMatchersWithLookalikes = otpMatchers(cue: otpCueWithCompounds.replacingOccurrences(of: "|codice|", with: "|codice|" + lookalikeLabels + "|"),
                                                       verbs: lookalikeVerbs + "|")
        + [TextMatcher(#"(?<![A-Za-z])("# + lookalikeLabels + #")(?![A-Za-z])[^.\n\d]{0,40}?(?<![\p{L}\p{N}])"# + otpValue + #"(?![\d\-,.]\d|[\p{L}%\d!@$^&+=~|]| \d|[\-_][^\s\d])"#)]
    static func otpMatchers(cue otpCue: String, verbs: String = "") -> [TextMatcher] { [
        // "Your verification code is: 524-504", "One-Time Code: 650630", "WhatsApp code 507-240", "验证码：805281";
        // the verb between in other languages: "è" (Italian), "to"/"jest" (Polish), "är" (Swedish,
        // `ar` as OCR reads it), "er" (Danish, Norwegian), "on" (Finnish), "je" (Czech); not
        // English's "code to" (`Text the code to 55555`, a number to send it to); a lone glyph
        // OCR read for an accented verb (`è` as `@` or `6`, `é` as `€`) or a dash or arrow between;
        // a digit inside a word between the cue and the value is a letter OCR misread (`verificaci6n`);
        // a speck OCR glued to a verb, a space after it (`Seu código de acesso é€ 385732`, 3421 in
        // round 148; not `is € 1500`, whose sign a space parts from the verb, nor a currency's
        // sign after the verb itself, `O valor do código é € 2500`, `code is $ 2500`, an amount;
        // round 149);
        // not the start of a longer number in groups (a dial-in "PIN: 131 228 5901#"), nor of a
        // password's digits (`-password '8809!8e1z…'`: a symbol glued after them goes on; a keypad's
        // `#` or `*` ends a code).
        TextMatcher(#"(?i)(?<![A-Za-z])"# + otpCue + #"(?![A-Za-z])(?:(?:[^.\n\d]|(?<=\p{L})\d(?=\p{L})){0,40}?(?:\bis\b|\beste?\b|\bist\b|\bείναι(?!\p{L})|"# + verbs + #"\bl{1,2}autet\b|\b[éè]\b|\bes\b|\bwith\b|\bl[aà](?!\p{L})|(?<!code )\bto\b|\bjest\b|\b[äa]r\b|\ber\b|\bon\b|\bje\b|[:：=]|为|為|は|(?<=\s)(?!(?<=(?:\b[éè]|\bis|\bes|\bist|\best)\s)\p{Sc}\s)(?:[^\p{L}\p{N}\s.]{1,2}|6)(?=\s))(?:(?<=\p{L})[^\p{L}\p{N}\s.,;:'"(（【\[](?=\s))?)?[\s:："'(（【\[]*"# + otpValue + #"(?![\d\-,.]\d|[\p{L}%\d!@$^&+=~|]| \d|[\-_][^\s\d])"#),
        // "482913 is your verification code", "Use 003407 as your password", "G-089350 is your Google verification code"
        TextMatcher(#"(?i)(?<![\p{L}\p{N}$€£¥#.,:/_\-])"# + otpValue + #"["')）】\]]?\s+(?:is|est|ist|é|es|as|is je|is uw|la|là)(?!\p{L})[^.\n]{0,50}?(?<![A-Za-z])"# + otpCue + #"(?![A-Za-z])"#),
        // "512665 (NetEase Verification Code)": only the explicit cues, not a bare `code`.
        // On one line, and not the end of a longer number in groups (`Meeting ID: 858 0689 6348` / `Passcode: …`).
        TextMatcher(#"(?i)(?<![\p{L}\p{N}$€£¥#.,:/_\-])(?<!\d[ \-])"# + otpValue + #"[ \t]*[(（]?[^.\n\d()]{0,30}?(?<![\p{L}\[])(one[\s\-]?time|otp|pass\s?code|verification\s+code|security\s+code|login\s+code|sign[\s\-]?in\s+code|authentication\s+code|验证码|驗證碼|認証コード)(?![\p{L}])"#),
        // A bank's code after the payment it confirms, with its amount and payee between
        // (`OTP for txn of INR 5,061.00 at AMAZON … is 880363`, `Ihre mTAN für … 358,00 EUR lautet
        // 88977715`): only the cues no other number has, and `is`, `lautet` or a colon before it.
        // (OCR may read `mTAN`'s `m` twice, `mMTAN`, or as `rn`: round 146.)
        TextMatcher(#"(?i)(?<![A-Za-z])(otp|(?-i:(?:[mM]{1,2}|rn|i|SMS-|sms|push|chip|photo)?TAN)|one[\s\-]?time[\s\-]+pass(?:word|code)|verification\s+code)(?![A-Za-z])[^\n]{0,100}?(?:\bis\b|\blautet\b|[:：])[ \t]*"# + otpValue + #"(?![\d\-,]\d|[\p{L}%\d!@$^&+=~|]| \d|[\-_][^\s\d])"#),
        // Google's own shape, alone: "G-830829".
        TextMatcher(#"(?<![\p{L}\p{N}\-])G-(\d{6})(?![\p{N}\-])"#),
    ] }

    /// Whether a label ending at `index` is followed by `=` or `:` and then something else than
    /// spaces before `limit`: its own value, before the digits a code's pattern took further on.
    func labelHasItsOwnValue(from index: Int, before limit: Int) -> Bool {
        var i = index
        while i < limit, Self.isSpace(utf8[i]) { i += 1 }
        guard i < limit, utf8[i] == 0x3D || utf8[i] == 0x3A else { return false }
        i += 1
        while i < limit, Self.isSpace(utf8[i]) { i += 1 }
        return i < limit
    }

    /// Whether a quoted key ends at `index` (a quote after it), its value is a string (a quote after
    /// its `:`), and another key's `:` (after a quote) comes before `limit`: the value `limit` starts
    /// is that other key's. (Not a key whose value is an object holding the code: `{"otp":{"code":…`.)
    func isKeyBeforeOtherKeys(from index: Int, before limit: Int) -> Bool {
        let quote = quoteLength(at: index)
        guard quote > 0 else { return false }
        var i = index + quote
        while i < limit, Self.isSpace(utf8[i]) { i += 1 }
        guard i < limit, utf8[i] == 0x3A else { return false }
        i += 1
        while i < limit, Self.isSpace(utf8[i]) { i += 1 }
        guard i < limit, quoteLength(at: i) > 0 else { return false }
        return (i + 1..<limit).contains { utf8[$0] == 0x3A && quoteLength(endingAt: $0) > 0 }
    }

    func oneTimeCodes() -> [Secret] {
        let lookalikes = mentionsLookalikes
        guard lookalikes || mentions("code", "otp", "pass", "coce", "pin", "g-", "tan:", "tan ", "mtan", "código", "digo", "codic", "kod", "kód", "kood", "kdd", "kéd", "k6d", "код", "пароль", "Пароль", "码", "碼", "コード", "인증",
                                     "mã", "ma x", "ma k", "codul", "κωδικ", "Κωδικ", "ΚΩΔΙΚ") else { return [] }
        var found: [Secret] = []
        let matchers = lookalikes ? Self.otpMatchersWithLookalikes
            : mentions("kod", "kód", "kood", "kdd", "kéd", "k6d", "codul", "κωδικ", "Κωδικ", "ΚΩΔΙΚ") ? Self.otpMatchersWithCompounds : Self.otpMatchers
        // (The bank's pattern only where its cues are.)
        let bankCues = mentions("otp", "tan", "one-time", "one time", "verification")
        for (index, matcher) in matchers.enumerated() where index != 3 || bankCues {
            for match in matcher.matches(in: searchable) {
                // The groups: patterns 1 and 4 (and the lookalikes' 6) have the cue first; the others the value first.
                let cueFirst = index == 0 || index == 3 || index == 5
                let value = cueFirst ? match[2] : match[1]
                let cue = cueFirst ? match[1] : match[2]
                guard let value else { continue }
                if let cue, cue.lowercased() == "code" || cue.lowercased() == "coce", isModified(cue: cue, in: match) { continue }
                // `PIN: 4821` and `password: 123456` first on their line are a form's labels (the
                // password rule's `[PIN]`); inside a message they are a code's cue (`Your one-time
                // eBay pin is 3190`, `Use 003407 as your password`).
                if index == 0, let cue, ["pin", "password"].contains(cue.lowercased()), startsLine(match.start) { continue }
                guard let range = match.range(cueFirst ? 2 : 1) else { continue }
                // (An address's port is no code: `… PASSWORD https://localhost:9200/…`; round 156.)
                if isPortOfAnAddress(range.lowerBound) { continue }
                // A year next to a cue is a date more often than a code (`the code 2019 rewrite`),
                // unless a colon or `is` gives it (`Your Uber code: 1957`), or a keypad's `#` ends
                // it (`Gate code 2008#`; round 146).
                if value.count == 4, let year = Int(value), (1900...2099).contains(year),
                   index != 0 || (cue?.lowercased() == "code" && !match.text.contains(":") && !match.text.lowercased().contains(" is ")),
                   range.upperBound >= utf8.count || utf8[range.upperBound] != 0x23 {
                    continue
                }
                // A password label whose own value comes first is no cue for digits further on
                // (`password=WC6d%pDaoYVQg, uid=1000`: the uid is no code).
                if cueFirst, let cue, let cueRange = match.range(1), ["password", "passwort", "pin"].contains(cue.lowercased()),
                   labelHasItsOwnValue(from: cueRange.upperBound, before: range.lowerBound) { continue }
                // A quoted key's value is its own: digits under a later key are that key's
                // (YOURLS' `"code":"","url":{"keyword":"104772"`, OCR's `'code":"/'url":{…`; round 163).
                if cueFirst, let cueRange = match.range(1), isKeyBeforeOtherKeys(from: cueRange.upperBound, before: range.lowerBound) { continue }
                // A code is a piece of its own: digits that a password's symbols go on from
                // (`mqtt_password: 3881*-AIfgshsA`) start that password. (A keypad's `#` or `*`
                // alone after it ends it: `PIN: 4821#`.)
                let after = range.upperBound
                if after + 1 < utf8.count, "*-_#%&+=@^~$".utf8.contains(utf8[after]), !Self.isSpace(utf8[after + 1]), !Self.isLineBreak(utf8[after + 1]),
                   !(utf8[after] == 0x2D && (0x30...0x39).contains(utf8[after + 1])) { continue }
                found.append(secret(.otp, nil, range.lowerBound, range.upperBound))
            }
        }
        return found
    }

    /// Whether digits at `index` follow an address's host and its `:` (`https://localhost:9200`):
    /// a `:` before them, and `://` earlier in the same piece (256 bytes back at most). OCR may
    /// put a space on either side of the `:` (`https://localhost :9200`).
    func isPortOfAnAddress(_ index: Int) -> Bool {
        var colon = index - 1
        if colon > 0, utf8[colon] == 0x20 { colon -= 1 }
        guard colon > 0, utf8[colon] == 0x3A else { return false }
        var hostEnd = colon
        if utf8[hostEnd - 1] == 0x20 { hostEnd -= 1 }
        var start = hostEnd
        while start > 0, hostEnd - start < 256, !Self.isSpace(utf8[start - 1]), !Self.isLineBreak(utf8[start - 1]) { start -= 1 }
        return Self.holds(utf8[start..<hostEnd], Self.schemeMark)
    }

    /// Whether only spaces are between the line's start and `index`.
    func startsLine(_ index: Int) -> Bool {
        var i = index
        while i > 0, Self.isSpace(utf8[i - 1]) { i -= 1 }
        return i == 0 || Self.isLineBreak(utf8[i - 1])
    }

    /// Whether the word before a bare `code` makes it another kind of code (`postal code`).
    func isModified(cue: String, in match: TextMatcher.Match) -> Bool {
        let matchBytes = Array(match.text.utf8), cueBytes = Array(cue.utf8)
        guard let at = (0...max(0, matchBytes.count - cueBytes.count)).first(where: {
            $0 + cueBytes.count <= matchBytes.count && Array(matchBytes[$0..<$0 + cueBytes.count]) == cueBytes
        }) else { return false }
        var end = match.start + at
        while end > 0, utf8[end - 1] == 0x20 || utf8[end - 1] == 0x2D { end -= 1 }
        var start = end
        while start > 0, Self.isAlphanumeric(utf8[start - 1]) { start -= 1 }
        guard start < end else { return false }
        return Self.codeModifiers.contains(slice(start, end).lowercased())
    }

    // MARK: - Seed phrases

    /// The letters that start the next line, when only spaces follow `index` on its wide line: the rest
    /// of a word a terminal wrapped there (one to seven letters: a BIP-39 word has eight at most, and one
    /// letter of it at least stayed on the line).
    func wrappedWordRest(after index: Int) -> (start: Int, end: Int)? {
        guard let start = wrapStart(afterSpacesFrom: index) else { return nil }
        var end = start
        while end < utf8.count, end - start <= 8, Self.isLetter(utf8[end]) { end += 1 }
        return (1...7).contains(end - start) ? (start, end) : nil
    }

    /// Twelve or more BIP-39 words in a row; numbering (`1.` `12)`), commas and line breaks between
    /// them are allowed, as wallets show them in numbered grids.
    func seedPhrases() -> [Secret] {
        var found: [Secret] = []
        var runStart: Int?, runEnd = 0, count = 0
        var i = 0
        func close() {
            if let start = runStart, count >= 12 { found.append(secret(.seedPhrase, nil, start, runEnd)) }
            runStart = nil
            count = 0
        }
        while i < utf8.count {
            let byte = utf8[i]
            let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isLetter {
                var j = i
                while j < utf8.count, (0x41...0x5A).contains(utf8[j]) || (0x61...0x7A).contains(utf8[j]) { j += 1 }
                let word = slice(i, j).lowercased()
                // (Not a curly quote OCR read after the last word: `… traffic property”`.)
                let followedByLetter = j < utf8.count && utf8[j] >= 0x80 && quoteLength(at: j) == 0
                // A digit of the numbering OCR read as a letter (`11l.error`, `A.clay` for `4.`) is
                // numbering: no BIP-39 word is one letter.
                let misreadNumbering = runStart != nil && word.count == 1
                    && (i > 0 && (0x30...0x39).contains(utf8[i - 1]) && "li".contains(word) || j < utf8.count && [0x2E, 0x29].contains(utf8[j]))
                if misreadNumbering {
                    // keeps the run going
                } else if BIP39.words.contains(word), !followedByLetter {
                    if runStart == nil { runStart = i }
                    runEnd = j
                    count += 1
                } else if runStart != nil, let rest = wrappedWordRest(after: j), BIP39.words.contains(word + slice(rest.start, rest.end).lowercased()) {
                    // A word the terminal wrapped at the line's end (`… display prod` / `uce public"`).
                    runEnd = rest.end
                    count += 1
                    i = rest.end
                    continue
                } else {
                    close()
                }
                i = j
            } else if byte >= 0x80, runStart == nil {
                close()
                i += 1
            } else {
                // Digits (numbering), spaces, line breaks and light punctuation keep the run going.
                // (`_` and `|`: what OCR reads beside a word in a grid, `5.mom_`.) Glyphs OCR read
                // for a number before its stop (`§&.time`) are numbering too.
                if !(0x30...0x39).contains(byte), !" \n\t.,;)(#:-_|".utf8.contains(byte) {
                    var k = i
                    while k < utf8.count, k - i < 5, !Self.isLetter(utf8[k]), !Self.isSpace(utf8[k]), !Self.isLineBreak(utf8[k]),
                          utf8[k] != 0x2E, utf8[k] != 0x29 { k += 1 }
                    if runStart != nil, k < utf8.count, k - i < 5, utf8[k] == 0x2E || utf8[k] == 0x29 {
                        i = k
                        continue
                    }
                    close()
                }
                i += 1
            }
        }
        close()
        return found
    }
}
