import Foundation

/// What kind of secret a piece of text is.
public enum SecretKind: String, Sendable, CaseIterable, Codable, Comparable {
    /// A payment card number (Luhn-valid, in a known issuer range), or its security code or expiry.
    case card
    /// An IBAN (right length for its country, mod-97 check), or an account number after a clear label.
    case iban
    /// A provider key of a fixed shape, a JWT, a private-key block, a 2FA secret, the password of a
    /// connection string, or a long random token after a label such as `token` or `secret`.
    case apiKey = "api_key"
    /// The value after a password, passphrase or PIN label.
    case password
    /// A one-time code in a message (`Your code is 482913`).
    case otp
    /// Twelve or more words of the BIP-39 word list in a row: a wallet's recovery phrase.
    case seedPhrase = "seed_phrase"

    public static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One secret found in a text: where it is and the marker that replaces it.
public struct Secret: Sendable, Equatable, Hashable {
    public var kind: SecretKind
    /// What it is, when known: the card network, the provider of a key (`GitHub`), the IBAN's country.
    public var label: String?
    /// UTF-8 byte offsets of the secret value in the text.
    public var start: Int, end: Int
    /// The text that replaces the value: it says what was there without revealing it,
    /// e.g. `[card ••••4242]`, `[api key: GitHub]`, `[password]`.
    public var marker: String

    public init(kind: SecretKind, label: String? = nil, start: Int, end: Int, marker: String) {
        self.kind = kind
        self.label = label
        self.start = start
        self.end = end
        self.marker = marker
    }
}

/// A text with its secrets replaced by markers.
public struct MaskedText: Sendable, Equatable {
    /// The text as stored: every secret replaced by its marker.
    public var text: String
    /// The secrets, with offsets in the *original* text.
    public var secrets: [Secret]
    /// The UTF-8 offsets of each marker in ``text``, in the order of ``secrets``.
    public var markerRanges: [Range<Int>]

    /// The offset in the original text of an offset in ``text`` (inside a marker: the secret's start).
    public func originalOffset(_ offset: Int) -> Int {
        var shift = 0
        for (secret, marker) in zip(secrets, markerRanges) {
            if offset < marker.lowerBound { break }
            if offset < marker.upperBound { return secret.start }
            shift = secret.end - marker.upperBound
        }
        return offset + shift
    }
}

/// Finds secrets in OCR text and in QR payloads, so that they are masked before anything is stored.
///
/// Pure and table-tested. Hand-written because no library in the stack does this: the rules are
/// general mechanisms (checksums, fixed provider shapes, labels followed by values), not lists of
/// examples, and precision matters as much as recall — a git hash, a SHA-256, a UUID, an order,
/// tracking or phone number, an ISBN or a version string is not a secret.
public struct SecretDetector: Sendable {
    /// The kinds looked for (all by default).
    public var kinds: Set<SecretKind>

    public init(kinds: Set<SecretKind> = Set(SecretKind.allCases)) {
        self.kinds = kinds
    }

    /// The secrets of `text`, in reading order, none overlapping (the earlier, then the longer wins).
    public func secrets(in text: String) -> [Secret] {
        guard !kinds.isEmpty, !text.isEmpty else { return [] }
        let scan = SecretScan(text: text)
        var found: [Secret] = []
        // Most specific first: fixed shapes and checksums, then labels, then prose cues. The rules
        // that expect OCR's noise (SecretScan+OCRNoise) come with the clean ones they widen.
        if kinds.contains(.apiKey) {
            found += scan.noisyPrivateKeyBlocks() + scan.providerKeys() + scan.noisyProviderKeys() + scan.noisyDataCentreKeys() + scan.privateKeyBlocks()
                + scan.connectionPasswords() + scan.noisyConnectionPasswords() + scan.setupKeys()
        }
        if kinds.contains(.iban) { found += scan.ibans() + scan.noisyIBANs() }
        if kinds.contains(.card) { found += scan.cards() + scan.noisyLabelledCards() }
        if kinds.contains(.seedPhrase) { found += scan.seedPhrases() }
        // A code in a message before a password label: "your one-time password: 04352398" is a code.
        if kinds.contains(.otp) { found += scan.oneTimeCodes() + scan.signInCodes() + scan.letterCodes() + scan.recoveryCodes() + scan.authenticatorCodes() + scan.codesUnderTheirCue() + scan.letterCodesUnderTheirCue()
            + scan.codesInWarnedMessages() + scan.taggedCodes() }
        if kinds.contains(.password) { found += scan.passwords() + scan.networkKeys() + scan.pinsAfterTheirNames() + scan.directivePasswords() + scan.authInfoPasswords() + scan.digitPassphrases() + scan.queryUserPasswords() }
        if kinds.contains(.password) || kinds.contains(.apiKey) {
            found += (scan.spacedFlagPasswords() + scan.passwordsAfterWords() + scan.passwordsBeforeArrows() + scan.credentialPairs() + scan.splitPasswordParameters()
                + scan.labelledValues() + scan.valuesUnderLabels() + scan.valuesUnderNamingLines() + scan.valuesUnderNamingSentences() + scan.statementPasswords()
                + scan.toolPasswords() + scan.xmlValues() + scan.passwordColumns() + scan.namedRows() + scan.barredRows() + scan.commandOutputs() + scan.printedCredentials() + scan.userListPasswords()
                + scan.expectedPasswords() + scan.namedValues() + scan.pipedSecrets() + scan.passwordsAfterLooseLabels()
                + scan.schemeTaggedPasswords() + scan.insertedSecrets() + scan.hashedLiterals() + scan.chpasswdListPasswords() + scan.routerAndRedisPasswords() + scan.configFilePasswords()
                + scan.sessionLogins() + scan.hereStringSecrets() + scan.passwordFieldValues() + scan.passwordsTypedIntoFields() + scan.valuesAfterOptionItems() + scan.gitConfigSecrets() + scan.columnNetworkKeys() + scan.passwordsGivenToHashing()
                + scan.passwordsTypedAsCommands() + scan.encodedLinkCredentials() + scan.listedCredentials() + scan.accountsFilePasswords() + scan.auditedPasswords() + scan.deviceKeys() + scan.proxyLinkSecrets() + scan.tokenUserSecrets() + scan.shortTokenSettings() + scan.keyVariablesAndConstants()
                + scan.codePasswords() + scan.valuesAfterWrappedNames() + scan.replyValues() + scan.passwordsInMessages() + scan.hostUserPasswordArguments()
                + scan.secretListItems() + scan.secretMappingValues())
                .filter { kinds.contains($0.kind) }
        }
        if kinds.contains(.apiKey) { found += scan.labelledTokens() + scan.gitleaksKeys() + scan.webhookPaths() + scan.signatures() + scan.licenceKeys()
            + scan.sessionCookies() + scan.puttyPrivateKeys() + scan.signifySecretKeys() + scan.oathtoolKeys() + scan.keysInSentences() + scan.quotedKeys()
            + scan.keysInGroups() + scan.byteListKeys() + scan.streamKeys() + scan.keysInPaths() + scan.onePasswordSecretKeys()
            + scan.keyLogSecrets() + scan.fragmentKeys() + scan.giftCodes() + scan.salesforceSessions() + scan.proxmoxTokens() + scan.headerCredentials()
            + scan.secretIDsBesideAccessors() + scan.keyElementAttributes() + scan.tokensInCredentialMaps() + scan.loginTokens() + scan.splitKeySettings()
            + scan.privateKeyMembers() + scan.tunnelTokens() + scan.sshTokenUsers() + scan.keysGivenAsUsers() + scan.scheduledPingTokens() + scan.secretSetterArguments() + scan.idAndSecretArgumentKeys() + scan.clientKeyArguments() + scan.apiSettingTokens() + scan.announcedKeys() + scan.bundlerCredentials() + scan.longRandomArguments() + scan.gluedKeyParameters() + scan.misreadQueryKeys() }
        found += (scan.modhexSecrets() + scan.keysOfTheirOwnFormats()).filter { kinds.contains($0.kind) }
        if kinds.contains(.iban) { found += scan.labelledAccounts() }
        // Last, and only where no rule found anything: a value shaped like a chosen password
        // (what a rule with a label found keeps its kind and its extent).
        if kinds.contains(.password) {
            let taken = found.map { $0.start..<$0.end }
            found += scan.passwordShapedValues().filter { shaped in !taken.contains { $0.overlaps(shaped.start..<shaped.end) } }
        }
        if kinds.contains(.card) { found += scan.cardDetails(near: found.filter { $0.kind == .card }) }
        // A key its provider made to be published in web pages is none (``publishableKeyPrefixes``).
        // (A JWT's rule finds Mapbox's token from its `eyJ`, after the `pk.`.)
        found.removeAll { secret in
            guard secret.kind == .apiKey else { return false }
            // (As OCR reads it: spaces inside, a `,` for the `.`, `]` or `)` for the `J`.)
            let head = String(scan.slice(secret.start, min(secret.end, secret.start + 10)).filter { !$0.isWhitespace }.map { $0 == "," ? "." : $0 })
            let before = scan.slice(max(0, secret.start - 4), secret.start).filter { !$0.isWhitespace }
            // (Nor one given to a name that says it is public, whatever its shape: `KNOCK_PUBLIC_API_KEY=pk_…`;
            // round 157.)
            return Self.publishableKeyPrefixes.contains(where: head.hasPrefix) || before.hasSuffix("pk.") && head.hasPrefix("ey")
                || scan.assignedName(before: secret.start).map { SecretScan.namesAPublicValue(SecretScan.nameWords($0)) } == true
        }
        // Markers of an earlier masking stay as they are (`[card ••••4242]` is no card, no code).
        // (Each starts with `[`: a text without one is not searched.)
        let markers = scan.mentions("[") ? Self.markerPattern.matches(in: scan.searchable).map { $0.start..<$0.end } : []
        var kept: [Secret] = []
        // A test suite's log (two or more result lines, `PASS: …`, `FAIL: …`): what any rule found
        // as a password on a result line is a test's name (`PASS: --gc-sections -r without -e`).
        let isTestLog = scan.mentions("pass:", "pass :") && SecretScan.testResultLine.matches(in: scan.searchable).count >= 2
        // A public key set's quoted members are public (``SecretScan/showsOnlyPublicKeys()``).
        let showsOnlyPublicKeys = scan.showsOnlyPublicKeys()
        for secret in found.map({ scan.wrapped(scan.extendedAcrossSpaces($0)) }) where !scan.describesASize(secret) && !scan.isStoredHash(secret) && !scan.isCiphertext(secret)
            && !scan.isKeyIdentifier(secret) && !scan.isPromptsFirstWord(secret) && !scan.isJSONNumber(secret) {
            if isTestLog, secret.kind == .password, scan.isOnATestResultLine(secret) { continue }
            if showsOnlyPublicKeys, secret.kind == .apiKey, scan.lineOpensAQuote(before: secret.start) { continue }
            let range = secret.start..<secret.end
            guard !markers.contains(where: { $0.overlaps(range) }) else { continue }
            // Two rules that found parts of one key or password (a clean rule the part before an
            // OCR space, a noisy one the whole): one secret, their union.
            let isValue = secret.kind == .apiKey || secret.kind == .password
            if let index = kept.firstIndex(where: { ($0.start..<$0.end).overlaps(range) }) {
                if isValue, kept[index].kind == .apiKey || kept[index].kind == .password {
                    kept[index].start = min(kept[index].start, secret.start)
                    kept[index].end = max(kept[index].end, secret.end)
                } else if isValue, kept[index].kind == .otp, secret.start <= kept[index].start, secret.end > kept[index].end {
                    // A code's rule found the digits a password starts with, a label's rule the whole
                    // value OCR split (`OS_PASSWORD=7758 ! zWEYhUrL.`, for `7?58!z…`): the value, whole.
                    kept[index] = secret
                }
                continue
            }
            kept.append(secret)
        }
        // A key or password a rule's length limit cut inside a run of key characters (a 2,000-character
        // `"privateKey": "LS0tLS1…"`) goes on to the run's end: no part of one run stays readable.
        // (Each byte is walked once: a secret that starts inside a run walked before takes its end.)
        kept.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        func isKeyByte(_ byte: UInt8) -> Bool { SecretScan.isAlphanumeric(byte) || byte == 0x2B || byte == 0x2F || byte == 0x3D }
        var walked = 0
        for index in kept.indices where kept[index].kind == .apiKey || kept[index].kind == .password {
            var end = kept[index].end
            guard end > 0, end < scan.utf8.count, isKeyByte(scan.utf8[end - 1]), isKeyByte(scan.utf8[end]) else { continue }
            // (Not over an address's next part: `…/bot<token>/getUpdates`.)
            if scan.startsAddressPart(at: end) { continue }
            if end < walked {
                end = walked
            } else {
                while end < scan.utf8.count, isKeyByte(scan.utf8[end]) || scan.utf8[end] == 0x2D || scan.utf8[end] == 0x5F { end += 1 }
                walked = end
            }
            kept[index].end = end
        }
        kept += Self.repeats(of: kept, in: scan)
        kept += Self.nearRepeats(of: kept, in: scan)
        kept.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        // A union may have reached a neighbour: merge until none overlap.
        var merged: [Secret] = []
        for secret in kept {
            if let last = merged.last, last.end > secret.start {
                merged[merged.count - 1].end = max(last.end, secret.end)
            } else {
                merged.append(secret)
            }
        }
        return merged
    }

    /// Where else the text shows a value found as a code, password or key, standing alone: a
    /// message names its code twice (`Acme: 836610` … `@acme.io #836610`), a terminal echoes a
    /// password, and the value is as secret the second time whether or not a rule sees its cue
    /// there. Values of 6+ bytes (shorter ones, `2024`, repeat by chance); at most 32 of them,
    /// each looked for once: the cost is 32 walks of the text at most.
    static func repeats(of secrets: [Secret], in scan: SecretScan) -> [Secret] {
        let utf8 = scan.utf8
        var values: [[UInt8]: Secret] = [:]
        for secret in secrets where [.otp, .password, .apiKey].contains(secret.kind) && secret.end - secret.start >= 6 && values.count < 32 {
            guard let (start, end) = repeatableValue(of: secret, in: scan) else { continue }
            let value = Array(utf8[start..<end])
            // (One piece: a value OCR split with spaces repeats split otherwise.)
            guard !value.contains(where: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }) else { continue }
            if values[value] == nil { values[value] = secret }
        }
        guard !values.isEmpty else { return [] }
        // The bytes already masked, marked once: a repeat is checked against them in its own
        // length (against each secret in turn, a page of codes would cost its square).
        let taken = maskedBytes(of: secrets, count: utf8.count)
        var found: [Secret] = []
        for (value, secret) in values {
            var index = 0
            let first = value[0], last = utf8.count - value.count
            while index <= last {
                defer { index += 1 }
                guard utf8[index] == first, utf8[index..<(index + value.count)].elementsEqual(value) else { continue }
                let range = index..<(index + value.count)
                let alone = (index == 0 || !SecretScan.isAlphanumeric(utf8[index - 1]))
                    && (range.upperBound == utf8.count || !SecretScan.isAlphanumeric(utf8[range.upperBound]))
                guard alone, !taken[range].contains(true) else { continue }
                var copy = secret
                copy.start = range.lowerBound
                copy.end = range.upperBound
                found.append(copy)
                index = range.upperBound - 1
            }
        }
        return found
    }

    /// Which of a text's `count` bytes the secrets cover.
    static func maskedBytes(of secrets: [Secret], count: Int) -> [Bool] {
        var taken = [Bool](repeating: false, count: count)
        for secret in secrets { for index in secret.start..<secret.end { taken[index] = true } }
        return taken
    }

    /// The bytes of a found value that may repeat: a rule that took the option with its value,
    /// `-p 'value'`, gives the value alone, as a repeat shows it (`-c 'value'`), its quotes
    /// straight or as OCR read them, curly. Nil when that leaves fewer than 6 bytes.
    static func repeatableValue(of secret: Secret, in scan: SecretScan) -> (start: Int, end: Int)? {
        let utf8 = scan.utf8
        var start = secret.start, end = secret.end
        if utf8[start] == 0x2D, let space = utf8[start..<end].firstIndex(of: 0x20), utf8[(start + 1)..<space].allSatisfy(SecretScan.isLetter) {
            start = space + 1
            start += scan.quoteLength(at: start)
            end -= scan.quoteLength(endingAt: end)
        }
        return end - start >= 6 ? (start, end) : nil
    }

    /// Where else near a password or key the text shows it as OCR read it otherwise: a command
    /// gives a password twice (`-p '5Dzdd-Fy@wnqcV' -c '5Dzdd-FyOwngcV'`), a form asks for it
    /// again, and OCR misreads one copy and not the other. A piece within 512 bytes of a value of
    /// 8 to 64 characters, with a fifth of its characters or fewer edited (``EditDistance``): two
    /// random values differ in most of theirs, a near copy is no chance. Both must look like a
    /// secret on their own (``SecretScan/looksLikeSecretOnItsOwn(_:)``): a name a rule took for a
    /// password (`check_pointer_uses`) has near copies that are names. A value OCR split is
    /// compared without its spaces (three at most) when it and the copy are random tokens, a tenth
    /// of its characters edited at most. The first 8 values only,
    /// each against the pieces of its window, each piece 128 bytes at most: bounded work.
    static func nearRepeats(of secrets: [Secret], in scan: SecretScan) -> [Secret] {
        let utf8 = scan.utf8
        let candidates = secrets.filter { ($0.kind == .password || $0.kind == .apiKey) && $0.end - $0.start >= 8 }.prefix(8)
        guard !candidates.isEmpty else { return [] }
        var taken = maskedBytes(of: secrets, count: utf8.count)
        func isBoundary(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3B, 0x28, 0x29].contains(byte) }
        var found: [Secret] = []
        for secret in candidates {
            guard let (start, end) = repeatableValue(of: secret, in: scan) else { continue }
            // (A value OCR split with a space or three is compared without them: `OAp8NZAGHj pI
            // 1EKV80…` printed by `vmq-admin api-key create`, whole in `api-key show`'s table; round 165.)
            // (Then both must be random tokens, 16+ characters: what a rule took over words, `the
            // type of finding.</p>`, has near copies that are words.)
            var text = scan.slice(start, end), squeezed = false
            if text.contains(" "), !text.contains("\n"), text.count(where: { $0 == " " }) <= 3 {
                text = text.replacingOccurrences(of: " ", with: "")
                squeezed = true
                guard text.count >= 16, SecretScan.isRandomToken(text) else { continue }
            }
            let value = Array(text.unicodeScalars)
            guard (8...64).contains(value.count), !value.contains(where: { $0 == " " || $0 == "\n" }),
                  SecretScan.looksLikeSecretOnItsOwn(text) else { continue }
            // (A value OCR split, a tenth: `sz_xGLXSetClientInfo2ARBReq 24`, an identifier a rule took, is
            // five edits from the struct's name `xGLXSetClientInfo2ARBReq;`.)
            let limit = max(1, value.count / (squeezed ? 10 : 5))
            var index = max(0, secret.start - 512)
            let stop = min(utf8.count, secret.end + 512)
            while index < stop {
                guard !isBoundary(utf8[index]) else { index += 1; continue }
                var pieceEnd = index
                while pieceEnd < utf8.count, pieceEnd - index <= 128, !isBoundary(utf8[pieceEnd]) { pieceEnd += 1 }
                defer { index = pieceEnd }
                var from = index, to = pieceEnd
                while from < to, case let length = scan.quoteLength(at: from), length > 0 { from += length }
                to = scan.endBeforeClosingQuotes(to, notBefore: from)
                guard to - from >= 8, !taken[from..<to].contains(true) else { continue }
                let pieceText = scan.slice(from, to), piece = Array(pieceText.unicodeScalars)
                guard abs(piece.count - value.count) <= limit, EditDistance.levenshtein(value, piece, limit: limit) != nil,
                      SecretScan.looksLikeSecretOnItsOwn(pieceText), !squeezed || SecretScan.isRandomToken(SecretScan.withoutOCRJunk(pieceText)) else { continue }
                var copy = secret
                copy.start = from
                copy.end = to
                found.append(copy)
                for byte in from..<to { taken[byte] = true }
            }
        }
        return found
    }

    /// Keys made to be public, as their providers document them: Stripe's publishable keys
    /// (`pk_live_`, `pk_test_`), Mapbox's public access tokens (`pk.eyJ…`; its secret ones are
    /// `sk.`), PostHog's project key (`phc_`; its personal keys are `phx_`), PubNub's publish and
    /// subscribe keys (`pub-c-`, `sub-c-`, shipped in every client; its secret key is `sec-c-`;
    /// round 156).
    static let publishableKeyPrefixes = ["pk_live_", "pk_test_", "pk.ey", "phc_", "pub-c-", "sub-c-"]

    static let markerPattern = TextMatcher(#"\[(?:card|iban|account|api key|password|PIN|one-time code|seed phrase|[a-z_]+: text not kept)(?:[ :][^\]\n]{0,60})?\]"#)

    /// `text` with every secret replaced by its marker.
    public func masking(_ text: String) -> MaskedText {
        let secrets = secrets(in: text)
        guard !secrets.isEmpty else { return MaskedText(text: text, secrets: [], markerRanges: []) }
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var ranges: [Range<Int>] = []
        var position = 0
        for secret in secrets {
            out += utf8[position..<secret.start]
            let start = out.count
            out += Array(secret.marker.utf8)
            ranges.append(start..<out.count)
            position = secret.end
        }
        out += utf8[position...]
        return MaskedText(text: String(decoding: out, as: UTF8.self), secrets: secrets, markerRanges: ranges)
    }

    /// The marker for a secret of `kind` whose value is `value`.
    static func marker(_ kind: SecretKind, label: String?, value: String) -> String {
        switch kind {
        case .card:
            return label == "security code" || label == "expiry" ? "[card \(label!)]" : "[card ••••\(value.filter(\.isASCIIDigit).suffix(4))]"
        case .iban:
            let tail = value.filter { $0.isLetter || $0.isNumber }.suffix(4)
            return label == "account" ? "[account ••••\(tail)]" : "[iban ••••\(tail)]"
        case .apiKey: return label.map { "[api key: \($0)]" } ?? "[api key]"
        case .password: return label == "PIN" ? "[PIN]" : "[password]"
        case .otp: return "[one-time code]"
        case .seedPhrase: return "[seed phrase]"
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}
