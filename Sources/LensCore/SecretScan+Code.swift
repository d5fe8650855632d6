import Foundation

// Passwords in source code that no label names: positional arguments of calls that take a
// password (`new PDO($dsn, 'shop', '…')`, `WiFi.begin("HomeNet", "…")`, `smtp.login(user, "…")`),
// Go's MySQL DSN (`user:…@tcp(host)/db`), an `Authorization` value in quotes; Windows tools'
// `/pass X` and `/SourcePassword:X`, a Laravel key (`base64:…`) on a line of its own, SMTP's
// `AUTH LOGIN` password, an option's name the terminal wrapped.
extension SecretScan {
    /// One call of `credential-calls.tsv`: its name and which positional argument (1 = the
    /// first) is the password.
    struct CredentialCall: Sendable {
        let name: String
        let passwordArgument: Int
    }

    static let credentialCalls: [CredentialCall] = EmbeddedAssets.text(of: "credential-calls.tsv").split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#") else { return nil }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 2, let argument = Int(fields[1]), argument >= 1 else { return nil }
        return CredentialCall(name: String(fields[0]), passwordArgument: argument)
    }.sorted { $0.name.count > $1.name.count } // (the longest first: `mysqli_connect` before `mysqli`)

    /// The calls' names as OCR may read them, a group for each, in ``credentialCalls``' order.
    static let credentialCallNames = credentialCalls.map { "(" + tolerantCallName($0.name) + ")" }.joined(separator: "|")

    /// Any of the calls, then `(`. (Not part of a longer name: `relogin(` is not `login(`; OCR may
    /// put a space before the parenthesis.)
    static let credentialCallMatcher = TextMatcher(#"(?<![A-Za-z0-9_])(?:"# + credentialCallNames + #")[ \t]?\("#)

    /// T-SQL's call of a stored procedure, its arguments without parentheses to the line's end or
    /// `;` (`EXEC sp_addlogin 'reporting', '…', 'shop';`): the same calls, after `EXEC` or `EXECUTE`.
    static let executedCallMatcher = TextMatcher(#"(?i)(?<![A-Za-z0-9_])exec(?:ute)?[ \t]+(?:[A-Za-z0-9_]{1,64}\.){0,2}(?:"# + credentialCallNames + #")[ \t]+(?=\S)"#)

    /// A call's name as OCR may read it: a space inside `::` or one of its colons dropped (`Net:SMTP`), a space beside a `.`, a `.` read as `:`, `,` or `s`
    /// (`Net::SMTPsstart`),
    /// a stray `-` after it (`WiFi.-begin`), a space for or beside a `_` (`username pw_set`), Perl's
    /// `->` read as a dash, long or not, maybe without its `>` (`DBI—connect`), or lost (`DBI connect`).
    /// (And a letter as OCR may read it, ``tolerant(_:)`` and a `q` as `g`: `mysgli_connect`; the dot dropped,
    /// `Net::SMTPstart`.)
    static func tolerantCallName(_ name: String) -> String {
        tolerant(name)
            .replacingOccurrences(of: "q", with: "[qg]")
            .replacingOccurrences(of: "::", with: " ?: ?:? ?")
            .replacingOccurrences(of: "->", with: "(?:[-—–]>?|→| ?)")
            .replacingOccurrences(of: "\\.", with: " ?[.:,s]?-? ?")
            .replacingOccurrences(of: "_", with: "(?:_ ?| _?)")
    }

    /// Words the calls' names hold (each name one at least, in small letters; a test checks),
    /// which survive OCR's misread letters elsewhere in the name (`mysgli_connect`): the matcher
    /// of 35 tolerant names is the costly part, and most texts hold no call.
    static let credentialCallCues = ["connect", "pdo", "mysql", "ftp", "ssh2", "ldap", "imap", "pw_set", "pw set", "login", "pass_", "auth",
                                     "credential", "password", "smtp", "sequelize", "wifi", "softap", "addap"]

    /// String literals given as a call's password argument (``credentialCalls``).
    func passwordArguments() -> [Secret] {
        let cues = Self.credentialCallCues
        guard mentions("(\"", "('", "( \"", "( '", ", \"", ", '", ",\"", ",'", "“", "‘", "”", "’"), cues.contains(where: { mentions($0) }) else { return [] }
        var found: [Secret] = []
        let calls = Self.credentialCalls
        // (Only on the lines that hold a cue, where a call opens: the matcher then reads a few
        // lines, not the text.)
        let lines = lines(mentioning: cues)
        let executed = mentions("exec") ? Self.executedCallMatcher.matches(in: searchable, within: lines) : []
        for match in Self.credentialCallMatcher.matches(in: searchable, within: lines) + executed {
            let parenthesized = utf8[match.end - 1] == 0x28
            guard let called = calls.indices.first(where: { match[$0 + 1] != nil }), case let position = calls[called].passwordArgument,
                  // (An empty argument is OCR's doubled comma: `'smtp.acme.io',, 587`.)
                  case let arguments = callArguments(from: match.end, atMost: parenthesized ? 400 : bytesToLineEnd(from: match.end, atMost: 400))
                    .filter({ $0.end > $0.start }), position <= arguments.count,
                  // (OCR may drop a literal's opening quote: then the argument before it must be a literal.)
                  let literal = stringLiteral(in: arguments[position - 1])
                    ?? (position >= 2 && stringLiteral(in: arguments[position - 2]) != nil
                        ? unopenedLiteral(in: arguments[position - 1]) ?? unquotedLiteral(in: arguments[position - 1]) : nil),
                  let password = password(literal.start, literal.end, quoted: true) else { continue }
            let value = slice(literal.start, literal.end)
            // (A "literal" that holds a call's end and the next named argument is code, its opening
            // quote one OCR put before a name: `auth=('ops@ACME.IO'," None), transport="kerberos')`.)
            guard !Self.isPlaceholder(value), Self.templateVariable.firstMatch(in: value) == nil,
                  Self.callsEndAndNamedArgument.firstMatch(in: value) == nil else { continue }
            found.append(password)
        }
        return found
    }

    /// A call's first three arguments a host, a user and a password, all literals (pyunifi's
    /// `Controller("unifi.acme.io", "admin", "…", port=8443)`, MySQLdb's `connect("localhost",
    /// "app", "…", "shop")`): the order says what the third is, whatever the call is named (round
    /// 163). The host an address's name (a dot and a top-level word), an IPv4 address or
    /// `localhost`, maybe with a scheme and a port; the user a name of one piece; group 1 the password.
    static let hostUserPasswordCall = TextMatcher(
        #"\([ \t]*["'‘’“”](?:[a-z][a-z0-9+.\-]{1,15}://)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|(?:[A-Za-z0-9\-]{1,63}\.){1,8}[A-Za-z]{2,24})(?::\d{1,5})?/?["'‘’“”][ \t]*,[ \t]*["'‘’“”][A-Za-z_][A-Za-z0-9_.\-@]{0,63}["'‘’“”][ \t]*,[ \t]*["'‘’“”]([^\s"'‘’“”]{4,64})["'‘’“”][ \t]*[,)]"#)

    /// The password of ``hostUserPasswordCall``: letters and a digit or a symbol other than `.`, `-`
    /// and `_` (a word alone, `"Settings"`, is an argument of another kind), no file's name (a list of
    /// them, `("run.py", "rpc.py", "threading.py"`, ``fileName``), path or address, no template.
    func hostUserPasswordArguments() -> [Secret] {
        guard mentions("(\"", "('", "( \"", "( '", "(“", "(‘", "( “", "( ‘") else { return [] }
        return Self.hostUserPasswordCall.matches(in: searchable).compactMap { match in
            guard let value = match[1], let range = match.range(1), value.contains(where: \.isLetter),
                  value.contains(where: { $0.isNumber || !$0.isLetter && !"._-".contains($0) }), Self.fileName.firstMatch(in: value) == nil,
                  !value.hasPrefix("/"), !value.contains("://"),
                  !Self.isPlaceholder(value), Self.templateVariable.firstMatch(in: value) == nil else { return nil }
            return password(range.lowerBound, range.upperBound, quoted: true)
        }
    }

    /// A setter whose name names a key, secret or token, then `(` (`$mollie->setApiKey(`,
    /// `client.set_access_token(`, `withApiKey(`; OCR may read its capital small, `setApikey (`).
    /// Group 1 the name after `set`/`with`.
    /// (OCR may drop the `->` before it, `$molliesetApikey(`: a letter may come before `set`; the
    /// literal must still be a key by shape. C# names it `SetApiKey(`, OCR may read `.setKey(` so.)
    /// (Or a call that is named for the secret itself, `Auth.api_key("…")`, `ApiKey("…")`: Weaviate's
    /// client; its name starts with no verb that reads one, `get_api_key("…")`; round 157.)
    static let secretSetter = TextMatcher(#"(?:(?<![0-9_])(?:[sS]et|[wW]ith)_?|(?<![A-Za-z0-9_]))(?!(?i:get|load|read|fetch|find|lookup|has|is|remove|delete|del|drop|revoke|check|validate|verify|parse|decode|hash|mask|redact|from)(?![a-z]))([A-Za-z][A-Za-z0-9_]{2,40})[ \t]?\([ \t]?(?=["'“‘])"#)

    /// The cues of ``secretSetter``: a setter's name ends in one of them before its `(`.
    static let secretSetterCues = ["key(", "key (", "token(", "token (", "secret(", "secret ("]

    /// A literal given to a setter of a key, secret or token (``secretSetter``): a payment provider's
    /// `$mollie->setApiKey("live_…")`, `Stripe.setApiKey("…")`, `client.setAccessToken("…")`. The
    /// literal is the key when it is one by shape (no word, no name: ``isSecretLiteral(_:)``), as
    /// OCR may have split it. (Passwords' setters are ``credentialCalls``, `setPassword`.)
    func secretSetterArguments() -> [Secret] {
        // (The cues' pairs of letters first: a text that holds none is not walked line by line.)
        guard mentions(anyOf: Self.secretSetterCues) else { return [] }
        let lines = lines(mentioning: Self.secretSetterCues)
        guard !lines.isEmpty else { return [] }
        return Self.secretSetter.matches(in: searchable, within: lines).compactMap { match in
            // (A setter named for a key alone, `setKey(`, is a key's when its literal is random as a
            // key is, not hexadecimal alone, a hash, nor a UUID: Appwrite's `.setKey('standard_…')`;
            // round 158. `key` alone names no secret elsewhere, ``secretName(_:)``; a cache's key is
            // words and numbers between colons, `setKey('user:1234:profile')`.)
            guard let name = match[1], case let bareKey = name.lowercased() == "key" && ["set", "with"].contains(where: match.text.lowercased().hasPrefix),
                  bareKey || Self.secretName(name) == .apiKey,
                  let argument = callArguments(from: match.end, atMost: bytesToLineEnd(from: match.end, atMost: 400)).first,
                  let literal = stringLiteral(in: argument) ?? literalWrappedAtLineEnd(in: argument), case let value = squeezed(literal.start, literal.end),
                  !bareKey || !value.allSatisfy(\.isHexDigit) && !value.contains(":") && uuidEnd(from: literal.start) == nil,
                  !Self.isPlaceholder(value), Self.templateVariable.firstMatch(in: value) == nil,
                  Self.isRandomToken(value) || Self.isClearlyRandom(value) || !bareKey && Self.isSecretLiteral(value) && !slice(literal.start, literal.end).contains(" ")
                    // (OCR may read a glyph of a long key as another's, `…726421 £5b26…`.)
                    || value.count >= 32 && Self.isRandomToken(Self.withoutOCRJunk(value)) else { return nil }
            return secret(.apiKey, nil, literal.start, literal.end)
        }
    }

    /// A call given two literals, an id and a secret (Stream's `StreamChat.getInstance('key',
    /// 'secret')`, a client's `Client('id', 'secret')`): group 1 the id, group 2 the secret.
    /// (OCR may read a quote curly, split the secret, four spaces at most, or a terminal wrap it
    /// before its closing quote; or read a `0` as `@`, a glyph as a symbol beyond ASCII, `¥`, split
    /// it eight times, split the id once or read a `7` of it as `/`, round 159; or lost the id's
    /// opening quote or read it as `(`, its closing one as `,` or `;`, a glyph of the secret as a
    /// bracket or a brace: Plivo's `RestClient(MA…,, '…4d)k')`, round 160; or its opening quote
    /// as `/` and a glyph of it as `)`, `RestClient(/MA4N…TW8)1WR7F’, '…')`; or put a space before
    /// the secret's closing quote, `'4LQR…yNZy ' )`.) Round 157.
    static let idAndSecretArguments = TextMatcher(
        #"(?m)\([ \t]*(?:["'‘’“”]{1,2}|\(|)([A-Za-z0-9_\-@/+)]{4,64}+(?: [A-Za-z0-9_\-@/+)]{1,64}+)?)(?<!\))(?:["'‘’“”]{1,2}[ \t]*[,;]|[,;]{1,2})[ \t]*["'‘’“”]{1,2}([A-Za-z0-9_\-+/=@\p{L}\p{S}(){}\[\]]{8,256}+(?: [A-Za-z0-9_\-+/=@\p{L}\p{S}(){}\[\]]{1,128}+){0,8})(?:[ \t]?["'‘’“”]{1,2}[ \t]*[,)]|[ \t]*$)"#)

    /// The second of ``idAndSecretArguments``' literals when it is random as a key is: not
    /// hexadecimal alone (a hash compared with another), not a UUID (an id), nor a word or a path.
    func idAndSecretArgumentKeys() -> [Secret] {
        guard mentions("(\"", "('", "( '", "( \"", "(‘", "(“", "( ‘", "( “", ", '", ", \"", ", ‘", ", “", ",'", ",\"") else { return [] }
        return Self.idAndSecretArguments.matches(in: searchable).compactMap { match in
            // (An `@` in an e-mail address is its own, no `0`: the address rule web extraction uses.)
            guard let raw = match[2], WebExtraction.email.firstMatch(in: raw) == nil,
                  case let value = Self.withoutOCRJunk(raw.filter { $0 != " " }), value.count >= 32, let range = match.range(2), !value.allSatisfy(\.isHexDigit),
                  Self.isRandomToken(value), uuidEnd(from: range.lowerBound) == nil else { return nil }
            return secret(.apiKey, nil, range.lowerBound, range.upperBound)
        }
    }

    /// A client's or a factory's constructor, or its `get`, `build`, `init`… (`SplitFactoryBuilder.build(`,
    /// `configcatclient.get(`, `new LDClient(`, `pirsch.NewClient(`), then `(` and a literal: an SDK
    /// takes its key first. (OCR may put spaces beside the dot and the parenthesis.) Round 159.
    /// (Or an API's client named `…API`, Klaviyo's `KlaviyoAPI("pk_…", max_delay=60)`; round 160.)
    /// (OCR may read the opening quote as a closing one, `initClient(’live_…')`; round 160; split
    /// `API` after its `A`, put a space before the `(` or read a glyph there as `|`, `TodoistA PI(`,
    /// `TodoistAPI (`, `TodoistAPI|(`; round 162.)
    static let clientCall = TextMatcher(
        #"(?<![A-Za-z0-9_])(?:[A-Za-z][A-Za-z0-9_]{0,40})?(?:[Cc]lient|CLIENT|[Ff]actory|FactoryBuilder|[Ss]dk|SDK|A ?PI|Api)(?:[ \t]?(?:\.|::|->)[ \t]?(get|build|create|init|initialize|new|start|connect|configure|forKey|getInstance|instance|make|setup|from_key|with_key|for_key)[ \t]?)?[ \t]?\|?\([ \t]?(?=["'“”‘’])"#)

    /// What comes before a factory's method on its line when it makes a client: a name that names
    /// a client, a factory or an SDK, maybe its type's (`SplitFactory factory = `, `client = `,
    /// `ldClient := `). (A client's `get` elsewhere takes a record's id or a path: `doc =
    /// firestoreClient.get("orders/…")`.)
    static let clientAssignment = TextMatcher(#"(?i)(?:client|factory|sdk)[A-Za-z0-9_]*[ \t]*:?=[ \t]*(?:new[ \t]+|await[ \t]+)?$"#)

    /// The cues of ``clientCall``, in small letters as ``mentions(_:)`` reads them.
    static let clientCallCues = ["client", "factory", "sdk", "api(", "api (", "a pi(", "api|(", "a pi ("]

    /// A literal given first to a client's constructor or factory (``clientCall``) that is a key by
    /// shape: 24+ random characters (``isRandomToken(_:)``), not hexadecimal alone (a hash, an
    /// object's id), nor a UUID, nor with a `:` (a cache's key, a host and port) or an address, nor
    /// a host or a file (its last part after a `.` small letters), nor a path: a `/` only
    /// between two parts of 20+ characters, maybe after a product's prefix (ConfigCat's
    /// `configcat-sdk-1/…/…`). Split's SDK key is 36 small letters and digits, random as no name is.
    func clientKeyArguments() -> [Secret] {
        guard mentions(anyOf: Self.clientCallCues) else { return [] }
        let lines = lines(mentioning: Self.clientCallCues)
        guard !lines.isEmpty else { return [] }
        return Self.clientCall.matches(in: searchable, within: lines).compactMap { match in
            if match[1] != nil, case let start = lineStart(of: match.start, atMost: 256),
               Self.clientAssignment.firstMatch(in: slice(start, match.start)) == nil { return nil }
            // (Two literals are an id and its secret, ``idAndSecretArgumentKeys()``'s: the id stays.)
            let arguments = callArguments(from: match.end, atMost: bytesToLineEnd(from: match.end, atMost: 400))
            guard let argument = arguments.first, arguments.count < 2 || stringLiteral(in: arguments[1]) == nil && !opensWithAQuote(arguments[1]),
                  let literal = stringLiteral(in: argument) ?? literalWrappedAtLineEnd(in: argument), case let value = squeezed(literal.start, literal.end),
                  value.count >= 24, value.count <= 256, !value.allSatisfy(\.isHexDigit) || isHexKeyGivenAlone(value, to: match, arguments: arguments),
                  !value.contains(":"), uuidEnd(from: literal.start) == nil,
                  !Self.isPlaceholder(value), Self.templateVariable.firstMatch(in: value) == nil, Self.isClientKeyShape(value),
                  Self.isRandomToken(Self.withoutOCRJunk(value.filter { $0 != "/" })) || Self.isRandomLetters(value) else { return nil }
            return secret(.apiKey, nil, literal.start, literal.end)
        }
    }

    /// Whether hexadecimal digits are a key given to a client's constructor: its only argument
    /// (no factory's `get`, which takes a record's id), 32+ digits with letters and digits among
    /// them (Todoist's `TodoistAPI("3ef8…b352")`, 40; round 162). Not a `0x` address.
    func isHexKeyGivenAlone(_ value: String, to call: TextMatcher.Match, arguments: [(start: Int, end: Int)]) -> Bool {
        call[1] == nil && arguments.count == 1 && value.count >= 32 && !value.hasPrefix("0x")
            && value.contains(where: \.isNumber) && value.contains(where: \.isLetter)
    }

    /// Whether an argument starts with a quote (a literal OCR split or a terminal wrapped).
    func opensWithAQuote(_ argument: (start: Int, end: Int)) -> Bool {
        var index = argument.start
        while index < argument.end, Self.isSpace(utf8[index]) { index += 1 }
        return index < argument.end && quoteLength(at: index) > 0
    }

    /// Whether a literal is shaped as a key may be, not as a host, a file or a path (``clientKeyArguments()``).
    static func isClientKeyShape(_ value: String) -> Bool {
        if let dot = value.lastIndex(of: "."), case let last = value[value.index(after: dot)...],
           (1...12).contains(last.count), last.allSatisfy({ $0.isASCII && $0.isLowercase }) { return false }
        var parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return true }
        if parts.count == 3, parts[0].count <= 24, parts[0].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) { parts.removeFirst() }
        return parts.count == 2 && parts.allSatisfy { $0.count >= 20 }
    }

    /// A tool's setting named `api` whose value is a UUID: Snyk's token (`snyk config set
    /// api=9d713a67-…`), which OCR may split or misread (`9d713a67 -c387-…`, `f359e@6b-…`).
    static let apiSetting = TextMatcher(#"(?i)(?<![A-Za-z0-9_.\-/])api[ \t]?[=:][ \t]?(?=[0-9A-Fa-f@])"#)

    func apiSettingTokens() -> [Secret] {
        guard mentions("api=", "api =", "api:", "api :") else { return [] }
        return Self.apiSetting.matches(in: searchable).compactMap { match in
            guard let end = uuidEnd(from: match.end) ?? (isSplitUUIDToLineEnd(from: match.end) ? lineEnd(of: match.end, atMost: 96) : nil) else { return nil }
            return secret(.apiKey, nil, match.end, end)
        }
    }

    /// A call's `)` (or a list's `]`), a comma and the next argument's name and `=`: `), transport=`.
    static let callsEndAndNamedArgument = TextMatcher(#"[)\]][ \t]*,[ \t]*[A-Za-z_][A-Za-z0-9_]{0,63}[ \t]*="#)

    /// Whether the comma at `index` is a literal's closing quote that OCR read as one: glued to a
    /// letter or digit, then the argument's own comma and a space (`‘smtp.acme.io,, 587`). Or, when
    /// the literal so far is `oneWord` (no space or comma), a space and the next literal's opening
    /// quote before a letter or digit (`‘'acme.io, ‘tomas’`): a literal holds no `, '` of its own
    /// after one word.
    func isQuoteReadAsComma(at index: Int, before stop: Int, oneWord: Bool) -> Bool {
        guard index >= 1, index + 2 < stop, utf8[index] == 0x2C, Self.isAlphanumeric(utf8[index - 1]) else { return false }
        if utf8[index + 1] == 0x2C, Self.isSpace(utf8[index + 2]) { return true }
        guard oneWord, Self.isSpace(utf8[index + 1]), case let quote = quoteLength(at: index + 2), quote > 0, index + 2 + quote < stop else { return false }
        return Self.isAlphanumeric(utf8[index + 2 + quote])
    }

    /// How many bytes from `start` to its line's end, `limit` at most.
    func bytesToLineEnd(from start: Int, atMost limit: Int) -> Int {
        var end = start
        while end < utf8.count, end - start < limit, !Self.isLineBreak(utf8[end]) { end += 1 }
        return end - start
    }

    /// A call's arguments from just after its `(`: split at the commas outside brackets and
    /// quotes, to its `)` or `limit` bytes (then what was read), each trimmed of spaces.
    func callArguments(from start: Int, atMost limit: Int) -> [(start: Int, end: Int)] {
        var arguments: [(start: Int, end: Int)] = []
        var index = start, argumentStart = start, depth = 0
        func close(_ end: Int) {
            var from = argumentStart, to = end
            while from < to, Self.isSpace(utf8[from]) || Self.isLineBreak(utf8[from]) { from += 1 }
            while to > from, Self.isSpace(utf8[to - 1]) || Self.isLineBreak(utf8[to - 1]) { to -= 1 }
            arguments.append((from, to))
        }
        let stop = min(utf8.count, start + limit)
        while index < stop {
            let quote = quoteLength(at: index)
            // (A quote that closes a word, three letters or digits before it and none after, closes a
            // literal whose opening quote OCR dropped (`reporting’, ‘…’`): it opens nothing. A
            // literal's prefix is shorter: `N'…'`, `rb'…'`.)
            if quote > 0, index - start >= 3, (index - 3..<index).allSatisfy({ Self.isAlphanumeric(utf8[$0]) }), isClosingQuote(at: index) {
                index += quote
                continue
            }
            if quote > 0 {
                // To the next quote on the line (OCR may curl one and not the other, or read one
                // opening quote as two: `'‘smtp.acme.io'`).
                var next = index + openingQuoteLength(at: index)
                var oneWord = true, readAsComma = false
                while next < stop, !Self.isLineBreak(utf8[next]), !isClosingQuote(at: next) {
                    // (A comma glued to the literal's last letter, then the argument's comma and a space,
                    // is its closing quote that OCR read as a comma: `‘smtp.acme.io,, 587`. It ends the
                    // literal. Inside one, `'a,,b'`, no space follows.)
                    if isQuoteReadAsComma(at: next, before: stop, oneWord: oneWord) {
                        readAsComma = true
                        break
                    }
                    if Self.isSpace(utf8[next]) || utf8[next] == 0x2C { oneWord = false }
                    next += 1
                }
                if readAsComma {
                    // (Past the comma read for the quote when the argument's own comma follows it.)
                    index = utf8[next + 1] == 0x2C ? next + 1 : next
                    continue
                }
                // (A quote no other closes on its line is a glyph OCR read inside a literal: `'…W'!8')`.)
                guard next < stop, !Self.isLineBreak(utf8[next]) else {
                    index += quote
                    continue
                }
                index = afterClosingQuotes(next)
                continue
            }
            switch utf8[index] {
            case 0x28, 0x5B, 0x7B: depth += 1
            case 0x29, 0x5D, 0x7D:
                if depth == 0 { close(index); return arguments }
                depth -= 1
            case 0x2C where depth == 0:
                close(index)
                argumentStart = index + 1
            case 0x3B where depth == 0 && !commaFollows(index + (index + 1 < stop && utf8[index + 1] == 0x3B ? 2 : 1)):
                // A statement's end: the call was cut.
                // (Not one a comma follows, which no statement's end has: a quote OCR read as `;`, or
                // the quote and a letter before it read as two, `'kzb_WEU4E0Y;;, :login)`.)
                close(index)
                return arguments
            default: break
            }
            index += 1
        }
        close(index)
        return arguments
    }

    /// Whether the `}` or `]` at `index` is a literal's closing quote OCR read as a bracket: the
    /// call's `)` or the argument's comma follows it.
    func isBracketReadForQuote(at index: Int) -> Bool {
        guard index + 1 < utf8.count, utf8[index] == 0x7D || utf8[index] == 0x5D else { return false }
        return utf8[index + 1] == 0x29 || utf8[index + 1] == 0x2C
    }

    /// The text inside a string literal that is the whole argument, maybe behind a prefix
    /// (`@"…"`, `r'…'`, `b"…"`, `Some("…")`, T-SQL's `N'…'`) and before a conversion (`"…".toCharArray()`).
    func stringLiteral(in argument: (start: Int, end: Int)) -> (start: Int, end: Int)? {
        var start = argument.start
        let head = slice(argument.start, min(argument.end, argument.start + 6))
        for prefix in ["Some(", "@", "r", "b", "u", "f", "N"] where head.hasPrefix(prefix) && quoteLength(at: argument.start + prefix.utf8.count) > 0 {
            start += prefix.utf8.count
            break
        }
        let opening = openingQuoteLength(at: start)
        guard opening > 0 else { return nil }
        var end = start + opening
        while end < argument.end, !isClosingQuote(at: end) { end += 1 }
        // A literal of one piece that no quote closes before the comma or the call's `)` after it:
        // OCR read its closing quote as that comma or dropped it (`'svc', '5Jyynuj*7WUhB, :login)`,
        // `'svc_sync', '&lu2pa4iiWBAgQ);`).
        // (Or as a `}` or `]` the call's `)` or a comma follows: `'PFKUBcY-VOh-FjE});`; no bracket
        // opened in the argument, which ends at it.)
        if end == argument.end, end - (start + opening) >= 6, end < utf8.count,
           utf8[end] == 0x2C || utf8[end] == 0x29 || isBracketReadForQuote(at: end),
           !utf8[(start + opening)..<end].contains(where: Self.isSpace) {
            return (start + opening, end)
        }
        guard end < argument.end, end > start + opening else { return nil }
        // (A conversion's `_` OCR may read as a space, which is squeezed out: `.to owned()`; and
        // its dot as two: `".. to_owned()`.)
        func isLiteralsEnd(_ rest: String) -> Bool {
            var bare = Substring(rest.filter { $0 != "_" })
            while bare.hasPrefix("..") { bare = bare.dropFirst() }
            return bare.isEmpty || bare == ")" || [".toCharArray()", ".tostring()", ".toowned()", ".into()"].contains(where: bare.hasPrefix)
        }
        // (OCR may space the call: `"…” . to_owned()`.)
        guard !isLiteralsEnd(squeezed(min(argument.end, afterClosingQuotes(end)), argument.end)) else { return (start + opening, end) }
        // A quote OCR read for a symbol of the value (`'f-2GIDYZnydW'!8'`: its `^`): the literal
        // runs to the argument's last quote when only its end follows that one.
        var last = argument.end
        while last > end, quoteLength(endingAt: last) == 0 { last -= 1 }
        guard last > end, case let closing = last - quoteLength(endingAt: last), closing > end + 1,
              isLiteralsEnd(slice(last, argument.end)) else { return nil }
        return (start + opening, closing)
    }

    /// The text of a literal that a quote opens and none closes on its line, a wide one (60+
    /// bytes): a terminal wrapped it (a key of 137 characters in code, Appwrite's
    /// `.setKey('standard_…`); its rest on the lines under it is ``withWrappedQuotedLines(_:)``'s.
    /// 24+ bytes of a key's characters, OCR's splits among them (four spaces at most). Round 158.
    func literalWrappedAtLineEnd(in argument: (start: Int, end: Int)) -> (start: Int, end: Int)? {
        let opening = openingQuoteLength(at: argument.start)
        guard opening > 0, case let start = argument.start + opening, argument.end - start >= 24, endsAWideLine(argument.end),
              argument.end == utf8.count || Self.isLineBreak(utf8[argument.end]),
              case let body = utf8[start..<argument.end], body.count(where: Self.isSpace) <= 4,
              body.allSatisfy({ Self.isKeyByteOrJunk($0) || Self.isSpace($0) }),
              !(start..<argument.end).contains(where: { quoteLength(at: $0) > 0 }) else { return nil }
        return (start, argument.end)
    }

    /// The text of an argument whose opening quote OCR dropped or read as a glyph (`'lena', IQ1Ib#*VLjuwYmx', :login`,
    /// `'admin', **9YS2Aos6CjeY cg’`): 8 bytes or more, maybe split once by a space, that end in a quote and hold no other
    /// but one OCR read inside a word of it, a letter or digit on each side (a `^` read `“`: `IjVEULI6“xaW’`).
    /// (OCR may double the closing quote: `I4BBw_4VFmWgmiU'’`.)
    func unopenedLiteral(in argument: (start: Int, end: Int)) -> (start: Int, end: Int)? {
        var closing = quoteLength(endingAt: argument.end)
        if closing > 0, case let doubled = quoteLength(endingAt: argument.end - closing), doubled > 0 { closing += doubled }
        guard closing > 0, case let end = argument.end - closing, end - argument.start >= 8,
              !utf8[argument.start..<end].contains(where: Self.isLineBreak), utf8[argument.start..<end].count(where: Self.isSpace) <= 1 else { return nil }
        let quotes = (argument.start..<end).filter { quoteLength(at: $0) > 0 }
        guard quotes.count <= 1 else { return nil }
        if let quote = quotes.first {
            let after = quote + quoteLength(at: quote)
            guard quote > argument.start, Self.isAlphanumeric(utf8[quote - 1]), after < end, Self.isAlphanumeric(utf8[after]) else { return nil }
        }
        return (argument.start, end)
    }

    /// Whether a `,` comes at `index`, after spaces or none.
    func commaFollows(_ index: Int) -> Bool {
        var index = index
        while index < utf8.count, Self.isSpace(utf8[index]) { index += 1 }
        return index < utf8.count && utf8[index] == 0x2C
    }

    /// The text of an argument both of whose quotes OCR lost or misread (`'svc_sync’, TwpYtf-WZJHoO8;, :login`:
    /// the closing one read as `;`): 8–64 bytes, no space, quote or bracket, that look like a secret
    /// on their own (``looksLikeSecretOnItsOwn(_:)``) and are no name of code: a variable
    /// (`$pass`, `@pass`), a symbol (`:pass`), a constant or a member (`ENV_PASS`, `config.smtp_password`),
    /// a number (`0x1F2E3D4C`).
    func unquotedLiteral(in argument: (start: Int, end: Int)) -> (start: Int, end: Int)? {
        var end = argument.end
        if end > argument.start, utf8[end - 1] == 0x3B { end -= 1 }
        guard (8...64).contains(end - argument.start),
              !utf8[argument.start..<end].contains(where: { Self.isSpace($0) || $0 >= 0x80 || "\"'`()[]{}".utf8.contains($0) }),
              !"$@:&*".utf8.contains(utf8[argument.start]), case let value = slice(argument.start, end), !value.hasPrefix("0x"),
              Self.codeName.firstMatch(in: value) == nil, Self.looksLikeSecretOnItsOwn(value) else { return nil }
        return (argument.start, end)
    }
    static let codeName = TextMatcher(#"^[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|->)[A-Za-z_][A-Za-z0-9_]*)*$"#)

    /// Whether a quote at `index` closes a string: not one before a letter or a digit, which OCR
    /// read inside the string (`"gceIU_B9“besFpT"`).
    func isClosingQuote(at index: Int) -> Bool {
        let length = quoteLength(at: index)
        guard length > 0 else { return false }
        return index + length >= utf8.count || !Self.isAlphanumeric(utf8[index + length])
    }

    /// Past the closing quote at `index` and any OCR doubled it with (`"HomeNet'"`, `'…‘'`).
    func afterClosingQuotes(_ index: Int) -> Int {
        var after = index + quoteLength(at: index)
        while after < utf8.count, quoteLength(at: after) > 0, case let next = after + quoteLength(at: after),
              next >= utf8.count || !Self.isAlphanumeric(utf8[next]) && quoteLength(at: next) == 0 {
            after = next
        }
        return after
    }

    /// The length of the opening quote at `index` (0 if none), and of a second that OCR read
    /// beside it (`"“…`, `'‘…`): two quotes alike before a comma, a `)` or a space are an empty
    /// string's, not one doubled; so are two of one kind that OCR curled one of before a comma or
    /// a `)` (Go's `smtp.PlainAuth(”", …`).
    func openingQuoteLength(at index: Int) -> Int {
        let first = quoteLength(at: index)
        guard first > 0, case let second = quoteLength(at: index + first), second > 0 else { return first }
        let alike = first == second && utf8[index] == utf8[index + first]
        let next = index + first + second
        if alike, next >= utf8.count || [0x2C, 0x29, 0x20, 0x09, 0x0A].contains(utf8[next]) { return first }
        if quoteFamily(at: index) == quoteFamily(at: index + first), next < utf8.count, [0x2C, 0x29].contains(utf8[next]) { return first }
        return first + second
    }

    /// The label of a DSN's password: its marker is a password's (``SecretDetector/marker(_:label:value:)``),
    /// and no extension across OCR's spaces goes past its end (``extendedAcrossSpaces(_:)``).
    static let dataSourceNameLabel = "DSN"
    /// The label of a proxy link's credential (``proxyLinkSecrets()``): as a DSN's, its rule says
    /// where it ends (at the `@`, or at the host's first dot when OCR read the `@` as a letter), and
    /// the host after it stays.
    static let proxyLinkLabel = "proxy link"

    /// Go's MySQL DSN: `user:password@tcp(host:port)/db` (or `@unix(…)`); group 1 the password.
    /// (OCR may put a space beside the colon or up to four inside the password, `4Y7cHG91m%- - -
    /// 9AH@tcp(` for `…%---9AH`, read the `@` as a round letter (`q`, `a`, `d`, `e`, `o`, `Q`) or
    /// double it, and a `0` of the password as `@`: `svc: ! YUxdA5…@tcp(`, `ci:4B1dbn! d5batcp(`;
    /// and put a space before the parenthesis, `root: uGQwa?hy&…@x@tcp (db-@3…`, or before the `@`,
    /// `ops:Noge9nMb%sKcKzc! @tcp(`, or a bracket after the `@`, `…WCO8UYWGa@)tcp(`, or a space inside
    /// `tcp`, `…Ae8k@t cp(`.)
    static let goDataSourceName = TextMatcher(#"(?<![A-Za-z0-9_.\-])[A-Za-z0-9_.\-]{1,64} ?: ?([^\s"'`/]{1,128}?(?: [^\s"'`/]{1,64}?){0,4}) ?[@qadeoQ][()|]?(?:t ?c ?p|u ?n ?i ?x) ?\("#)

    /// A Windows tool's option that names a password, `/pass X` (ktpass), `/pass:X` (cmdkey),
    /// `/SourcePassword:X` (SqlPackage), `/rp X` (schtasks): group 1 the value. Only on a line
    /// with another such option (`/princ …`, `/Action:…`): a path is no option. (An option may start
    /// its line, where the terminal wrapped the command before it: `… /SourceUser:svc` / `/SourcePassword:…`.)
    /// (A value may start with a `/` that no letter follows, a glyph OCR read as one: no option
    /// starts so, `/SourcePassword:/)Xa?#1…`; `/pass /persist` has no value.)
    static let slashPasswordOption = TextMatcher(#"(?m)(?:^|(?<=[ \t]))/(?i:[A-Za-z]{0,24}(?:pass(?:word)?|pwd)|rp)(?::[ \t]?|[ \t]+)(?=[^\s/]|/[^\sA-Za-z/])"#)
    static let slashOption = TextMatcher(#"(?m)(?:^|(?<=[ \t]))/[A-Za-z]{2,24}(?=[: \t])"#)

    /// A Windows tool's option that names a password and ends its line with its colon (`…
    /// /SourceUser:lena /SourcePassword:` / `B%S14kaxfM3TU4 /TargetFile:…`): the terminal wrapped
    /// the command right before the value, which starts the next line.
    static let slashPasswordOptionEndingALine = TextMatcher(#"(?m)(?<=[ \t])/(?i:[A-Za-z]{0,24}(?:pass(?:word)?|pwd)):[ \t]*\r?\n[ \t]*(?=[^\s/])"#)

    static let wrappedSlashOption = TextMatcher(#"(?<=[ \t])/([A-Za-z]{1,24})[ \t]*\n[ \t]*([A-Za-z]{1,24})(?::[ \t]?|[ \t]+)(?=[^\s/])"#)

    /// A Windows command's value from `index` that reaches its line's end, with the first piece
    /// of the next line when another option follows that piece (`/SourcePassword:lyafmyw` /
    /// `t2FILE /TargetFile:…`): a terminal wrapped the line inside the value. Nil otherwise.
    /// (OCR may split that piece once more: `vz5` / `W _4jd#Mi /TargetFile:…`.)
    func wrappedValue(after index: Int) -> Secret? {
        guard let first = piece(from: index, maximumSpaces: 0), first.start == index else { return nil }
        var end = first.end
        while end < utf8.count, Self.isSpace(utf8[end]) { end += 1 }
        guard end < utf8.count, Self.isLineBreak(utf8[end]), let next = piece(from: end + 1, maximumSpaces: 0),
              next.start == end + 1, utf8[next.start] != 0x2F else { return nil }
        var last = next
        for _ in 0..<2 {
            guard last.end - next.start <= 64, let after = piece(from: last.end, maximumSpaces: 1) else { return nil }
            if utf8[after.start] == 0x2F { return password(first.start, last.end, quoted: false) }
            last = after
        }
        return nil
    }

    /// A Windows option's value that OCR split, up to the next option on its line: two or three
    /// pieces, then `/Name:…` (`/SourcePassword:EZtl YngGmvABWOMa /TargetFile:…`). Such a value
    /// holds no space unless quoted, so the pieces between the two options are one. Nil otherwise.
    func splitValueBeforeOption(after index: Int) -> Secret? {
        let isOption = { (piece: (start: Int, end: Int)) in Self.slashOptionPiece.firstMatch(in: self.slice(piece.start, piece.end)) != nil }
        guard let value = splitValue(from: index, endingBefore: { $0.map(isOption) ?? false }) else { return nil }
        return password(value.start, value.end, quoted: false)
    }
    static let slashOptionPiece = TextMatcher(#"^/[A-Za-z]{2,24}(?::|$)"#)

    /// A value that starts right at `index` with a piece holding a symbol, that OCR split after
    /// it (``splitValueBeforeDashOption(after:)``), when no piece is an address.
    func passwordSplitAfterASymbol(at index: Int) -> Secret? {
        guard let first = piece(from: index, maximumSpaces: 0), first.start == index,
              utf8[first.start..<first.end].contains(where: { !Self.isAlphanumeric($0) }),
              let password = splitValueBeforeDashOption(after: index), !slice(password.start, password.end).contains("://") else { return nil }
        return password
    }

    /// A dash option's value that OCR split, up to the next option or the line's end: two or
    /// three pieces (`-po Wka! k9AR*k`) that look like a password together. Only for a tool whose
    /// options are all it takes: no argument of another kind follows the value. Nil otherwise.
    func splitValueBeforeDashOption(after index: Int) -> Secret? {
        guard index < utf8.count, utf8[index] != 0x2D,
              let value = splitValue(from: index, endingBefore: { $0.map { self.utf8[$0.start] == 0x2D && self.isOptionOrAddress($0) } ?? true }),
              // (Not a line's end that two spaces or more only seemed to make: what follows is an option.)
              piece(from: value.end, maximumSpaces: .max).map({ utf8[$0.start] == 0x2D }) ?? true,
              Self.looksLikeSecretOnItsOwn(squeezed(value.start, value.end)) else { return nil }
        return password(value.start, value.end, quoted: false)
    }

    /// The two or three pieces of a value that OCR split, from `index` to where `isEnd` says the
    /// next piece of the line (nil past a line's end or two spaces) no longer holds it; 128 bytes
    /// at most. Nil when the value is one piece, or runs on.
    func splitValue(from index: Int, endingBefore isEnd: ((start: Int, end: Int)?) -> Bool) -> (start: Int, end: Int)? {
        guard let first = piece(from: index, maximumSpaces: 0), first.start == index else { return nil }
        var last = first
        for _ in 0..<3 {
            guard last.end - first.start <= 128 else { return nil }
            let after = piece(from: last.end, maximumSpaces: 1)
            if isEnd(after) { return last.end > first.end ? (first.start, last.end) : nil }
            guard let after else { return nil }
            last = after
        }
        return nil
    }

    /// Laravel's application key as `artisan key:generate --show` prints it (or `APP_KEY=`
    /// holds it): `base64:` and 32 random bytes, 44 characters, at a line's start or after `=`.
    /// (OCR may put spaces around the colon and inside the key, and read its first `0` as `@`.)
    static let applicationKey = TextMatcher(#"(?m)(?:^[ \t]*|=[ \t]?)base64 ?: ?(?=[A-Za-z0-9+/@])"#)

    /// In SMTP's `AUTH LOGIN`, the line sent after the server asked for the password in base64
    /// (`334 UGFzc3dvcmQ6`, "Password:"): the password in base64.
    static let loginAuthenticationPassword = TextMatcher(#"(?m)^[ \t]*334[ \t]+UGFzc3dvcmQ6[ \t]*\r?\n[ \t]*(?=[A-Za-z0-9+/])"#)

    /// An HTTP `Authorization` value in quotes in code (PowerShell's `@{Authorization = "Bearer
    /// …"}`, a JavaScript or Python map's `"Authorization": "Bearer …"`): its token, to the closing
    /// quote, which a terminal may have wrapped to the next line.
    static let quotedAuthorization = TextMatcher(#"(?i)authorization["'”’]?[ \t]*[:=][ \t]*["'“”‘’][ \t]*(?:bearer|token)[ \t]+(?=\S)"#)

    /// A command's option whose name the terminal wrapped at the line's end (`--auth-passwo` /
    /// `rd '…'`): group 1 its first part, group 2 its rest; the value follows.
    static let wrappedOption = TextMatcher(#"(?m)(?<=[ \t])(--?[A-Za-z][A-Za-z0-9\-]{0,40})[ \t]*\n[ \t]*([A-Za-z0-9\-]{1,30})(?:[ \t]*=[ \t]*|[ \t]+)(?=\S)"#)
    /// A command's option that ends its line (`… --auth-password`), and the next line's start: the
    /// terminal or window wrapped the command at the space before the option's value.
    static let optionEndingALine = TextMatcher(#"(?m)(?<=[ \t])(--?[A-Za-z][A-Za-z0-9\-]{0,40})[ \t]*\r?\n[ \t]*(?=\S)"#)

    /// The pieces of a value from `start` to its line's end (six at most, one space apart), as
    /// one value without spaces; nil when more follow.
    func spacedValue(from start: Int, atMost limit: Int = 6) -> (start: Int, end: Int, value: String)? {
        guard let pieces = piecesToLineEnd(from: start, atMost: limit, maximumSpaces: 1), let first = pieces.first, let last = pieces.last else { return nil }
        return (first.start, last.end, squeezed(first.start, last.end))
    }

    /// Passwords in code and in Windows tools' options that no label names.
    func codePasswords() -> [Secret] {
        var found = passwordArguments()
        // (The cues are the pattern's ends, `tcp` and `unix` with OCR's spaces, then `(`.)
        if mentions("cp(", "cp (", "c p(", "c p (", "nix(", "nix (", "n ix(", "n ix (", "ni x(", "ni x (", "n i x(", "n i x (") {
            for match in Self.goDataSourceName.matches(in: searchable) {
                guard let range = match.range(1), var password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                password.label = Self.dataSourceNameLabel
                found.append(password)
            }
        }
        if mentions(" /"), mentions("pass", "pwd", "/rp") {
            for line in lines(mentioning: ["pass", "pwd", "/rp"]) {
                let options = Self.slashOption.matches(in: searchable, within: [line])
                guard options.count >= 2 else { continue }
                for match in Self.slashPasswordOption.matches(in: searchable, within: [line]) {
                    if let password = wrappedValue(after: match.end) ?? passwordArgument(after: match.end, dashStartsIt: true) ?? splitValueBeforeOption(after: match.end) {
                        found.append(password)
                    }
                }
            }
            // (On a line as wide as a terminal's, 60+ bytes, with another option: not the next prompt.)
            for match in Self.slashPasswordOptionEndingALine.matches(in: searchable) {
                let colon = utf8[match.start..<match.end].firstIndex(of: 0x3A) ?? match.start
                // (Another option within the 512 bytes before it: a walk that a line of any length bounds.)
                let lineStart = lineStart(of: match.start, atMost: 512)
                guard endsAWideLine(colon + 1), Self.slashOption.firstMatch(in: slice(lineStart, match.start)) != nil, !isPrompt(at: match.end),
                      let password = passwordArgument(after: match.end, dashStartsIt: true) else { continue }
                found.append(password)
            }
        }
        if mentions(" /") {
            // (A terminal may wrap the option's name, `/SourcePassw` / `ord:…`, `/SourcePas` /
            // `sword:…`: no line need hold the whole name.)
            for match in Self.wrappedSlashOption.matches(in: searchable) {
                guard let head = match[1], let tail = match[2], Self.wrappedName(head, tail) == .password,
                      let password = wrappedValue(after: match.end) ?? passwordArgument(after: match.end, dashStartsIt: true) else { continue }
                found.append(password)
            }
        }
        if mentions("base64") {
            for match in Self.applicationKey.matches(in: searchable) {
                // (OCR's junk for a glyph, `é`, and `@` for a `0` are characters of the key, and up to
                // two brackets, bars or specks it read for letters or put between them: `tj]XE3…` for
                // `tjXE3…`, `Adu31.chg…` for `Adu31chg…`. Its 44 characters may lose or gain up to six:
                // OCR reads one glyph as two, `XxXFMr` for `XFMr`, `P1LFS` for `P1FS`. OCR may split
                // it into ten pieces: `Wsmsby+GHF j Zo06Ku@foJNuYr 2Wne j +Ux jJLMnw8LK74=`.)
                guard let key = spacedValue(from: match.end, atMost: 10), (40...50).contains(key.value.count),
                      key.value.allSatisfy({ !$0.isASCII || $0.isLetter || $0.isNumber || "+/=@[]{}()|!.,".contains($0) }),
                      key.value.count(where: { "[]{}()|!.,".contains($0) }) <= 2, Self.entropy(key.value) >= 4 else { continue }
                found.append(secret(.apiKey, nil, key.start, key.end))
            }
        }
        if mentions("ugfzc3dvcmq6") {
            for match in Self.loginAuthenticationPassword.matches(in: searchable) {
                guard let credentials = spacedValue(from: match.end), credentials.value.count >= 8,
                      credentials.value.allSatisfy({ $0.isLetter || $0.isNumber || "+/=@".contains($0) }) else { continue }
                found.append(secret(.password, nil, credentials.start, credentials.end))
            }
        }
        if mentions("authorization") {
            for match in Self.quotedAuthorization.matches(in: searchable) {
                guard let closing = closingQuote(after: match.end, atMost: 320), case let token = Self.withoutOCRJunk(squeezed(match.end, closing).filter { !$0.isNewline }),
                      token.count >= 16, Self.isRandomToken(token) || Self.isRandomLetters(token) || Self.isBearersLetters(token) else { continue }
                found.append(secret(.apiKey, nil, match.end, closing))
            }
        }
        if mentions(" -"), endsALineWithAnOption() {
            for match in Self.wrappedOption.matches(in: searchable) {
                guard let head = match[1], let tail = match[2], Self.wrappedName(String(head.drop { $0 == "-" }), tail) != nil,
                      let password = passwordArgument(after: match.end, dashStartsIt: true) else { continue }
                found.append(password)
            }
            // An option that names a password and ends a line as wide as a terminal's (60+ bytes):
            // its value starts the next line (`… --auth-password` / `'wQA+…'`), quoted or
            // machine-made: not the next command's prompt, nor a word (`Enter password:`, when
            // the option asks for it).
            for match in Self.optionEndingALine.matches(in: searchable) {
                guard let name = match[1], Self.secretName(name) == .password, let range = match.range(1),
                      endsAWideLine(range.upperBound), !isPrompt(at: match.end),
                      let password = passwordArgument(after: match.end, dashStartsIt: true) else { continue }
                found.append(password)
            }
        }
        return found
    }

    /// What an option's name that a terminal wrapped names, `head` on one line and `tail` on the
    /// next (`auth-passwo` + `rd`, `SourcePassw` + `ord`): a secret only joined, never `head` alone
    /// (then the line's own rules read it), unless `head` ends in a piece of the word that `tail`
    /// finishes (`auth-pass` + `word`, `SourcePass` + `word`): then `tail` is no value.
    static func wrappedName(_ head: String, _ tail: String) -> SecretKind? {
        guard let joined = secretName(head + tail) else { return nil }
        guard secretName(head) != nil else { return joined }
        let whole = (head + tail).lowercased(), start = head.lowercased()
        let finished = ["password", "passwd", "passphrase"].contains { whole.hasSuffix($0) && !start.hasSuffix($0) && $0.count - tail.count >= 3 }
        return finished && tail.allSatisfy(\.isLetter) ? joined : nil
    }

    /// Whether a line ends with a piece that starts with `-` after a space (`… --auth-passwo`): a
    /// byte walk back from each line's end, before ``wrappedOption``'s search of the whole text.
    func endsALineWithAnOption() -> Bool {
        var index = 0
        while let lineBreak = utf8[index...].firstIndex(of: 0x0A) {
            var start = lineBreak
            while start > index, Self.isSpace(utf8[start - 1]) { start -= 1 }
            while start > index, Self.isAlphanumeric(utf8[start - 1]) || utf8[start - 1] == 0x2D { start -= 1 }
            if start < lineBreak, utf8[start] == 0x2D, start > index, Self.isSpace(utf8[start - 1]) { return true }
            index = lineBreak + 1
        }
        return false
    }

    /// The next quote after `index`, on its line or the next (a terminal wraps a long line), within
    /// `limit` bytes.
    func closingQuote(after index: Int, atMost limit: Int) -> Int? {
        var end = index, breaks = 0
        while end < min(utf8.count, index + limit) {
            if quoteLength(at: end) > 0 { return end }
            if Self.isLineBreak(utf8[end]) {
                breaks += 1
                if breaks > 1 { return nil }
            }
            end += 1
        }
        return nil
    }
}
