import Foundation

// What security tools print and take: a password cracker's results, network scanners' found
// logins (CrackMapExec's, Nmap's, kerbrute's, WPScan's), a dump of Windows' stored secrets, and
// Impacket's `DOMAIN/user:password@host` targets.
// On an auditor's or a student's screen, each is a working password.
extension SecretScan {
    /// A cracked hash as `hashcat --show` (and its potfile) prints it: the hash (hexadecimal, or a
    /// `$id$…` form such as `$krb5tgs$23$*…`), maybe after a user's name (`--username`), then `:` and
    /// the password, to the line's end (group 1). (OCR may put spaces inside the hash, around the
    /// colon and inside the password: `eee f521e1… :U3E1…`, and read a hash's `0` as `@`, `O` or `Q`
    /// (a dotted or slashed zero: `bQ095a…`), its `1` as `l`, `I` or `i`, its `5` as `S` or `s`, `9` as
    /// `g` and `2` as `Z` or `z` (``OCRConfusions``' pairs of a digit and a letter), its `6` as `G`, a
    /// shape alike that the table leaves out (`…f 9aaeG3` for `…f9aae63`), its `b` as `h` (the
    /// table's one pair of a hexadecimal letter and another: `…f7eacb` → `…f 7each`), a glyph as one
    /// outside ASCII, `…b2caé6`, `€€7313…`, or as `#`, `75#1d43…`: a hash then needs six digits;
    /// and the `$` that starts a `$id$…` hash as `S`: `Skrb5tgs$23$*…`.)
    static let crackedHashLine = TextMatcher(#"(?m)^[ \t]*(?:[^\s:]{1,64}:)?(?:(?=(?:[^\d:\n]*\d){6})[^\s:$]?(?:["# + hexAsRead + #"]|[^\x00-\x7F])(?:["# + hexAsRead + #"]|[^\x00-\x7F]| (?! )){15,160}|[$S][A-Za-z0-9\-]{1,16}\$[^\n]{4,4096}?)(?::[0-9a-fA-F]{2,64})?[ \t]?:[ \t]?([^\s:](?:[^:\n]{1,126}[^\s:])?)[ \t]*$"#)
    /// A regex class's body: a hexadecimal digit, or a letter OCR reads for one (above).
    static let hexAsRead = "0-9a-fA-F@OoQIliSsgGZzh#"
    /// CrackMapExec's and NetExec's line for a login that worked: `[+] DOMAIN\user:password`
    /// (maybe `(Pwn3d!)` after it); group 1 the password (or the NT hash it was given).
    /// (OCR may put a space after the colon, or split the password after its first one to three
    /// characters, reading a `_` as a space: `ACME\root:Si VgLszBSU9Kr7 (Pwn3d!)`.)
    static let foundLogin = TextMatcher(#"\[\+\][ \t]+[^\s\\]{1,64}\\[^\s:\\]{1,64}: ?([^\s]{1,3} [^\s(]{4,64}(?!\S)|[^\s]{1,128})"#)
    /// Nmap's brute-force scripts' found account (its `brute` library: `http-brute`, `ssh-brute`, …),
    /// `user:password - Valid credentials` under `Accounts:`; group 1 the password. (OCR may read
    /// the dash as a long one or a tilde, put a space on either side of the colon and split the password once.)
    static let nmapValidCredentials = TextMatcher(#"(?<=[\s|])[^\s:|]{1,64} ?: ?(\S{1,128}(?: \S{1,64})?)[ \t]+[\-—–~][ \t]*Valid[ \t]+credentials"#)
    /// kerbrute's `passwordspray` and `bruteuser` found login: `[+] VALID LOGIN: user@domain:password`;
    /// group 1 the password, to the line's end. (OCR may put a space beside the colon, and read the
    /// `@` as a letter, `admindacme.io:…`, or put a space after a dot of the domain: `admin@acme. io:…`.)
    static let kerbruteValidLogin = TextMatcher(#"(?im)VALID[ \t]+LOGIN[ \t]*:[ \t]*[^\s:]{1,300}(?:(?<=\.) [^\s:]{1,64})? ?: ?(\S(?:[^\n]{0,126}\S)?)[ \t]*$"#)
    /// WPScan's found login after its password attack: `[SUCCESS] - user / password`; group 1 the
    /// password, to the line's end (OCR may split it: `G YDega9pA`, or read a bracket as another).
    static let wpscanSuccess = TextMatcher(#"(?m)^[ \t]*[\[({|]SUCCESS[\])}|][ \t]*[\-—–~][ \t]*[^\s/]{1,64}[ \t]*/[ \t]*(\S(?:[^\n]{0,126}\S)?)[ \t]*$"#)
    /// secretsdump's LSA secret that Windows keeps as typed (`[*] DefaultPassword`, a service's
    /// `[*] _SC_…`): the next line is `(Unknown User):password` or `DOMAIN\user:password`. (OCR
    /// may read a bracket as a parenthesis or a brace, or put one before it: `(*] DefaultPassword`, `({*]`;
    /// and the `*` as an `x`: `[x] DefaultPassword`.)
    static let lsaSecretHeading = TextMatcher(#"(?im)^[ \t]*[\[({]{1,2}[*xX×][\])}][ \t]*(?:DefaultPassword|_SC_[^\s]{1,128})[ \t]*$"#)
    static let lsaSecretValue = TextMatcher(#"^(?:\([^)\n]{1,40}\)|[^\s:()]{1,128})[ ]?:[ ]?(\S.{0,127})$"#)
    /// Impacket's target: `[DOMAIN/]user:password@host` (`impacket-psexec 'ACME/ana:…@10.0.8.21'`,
    /// `wmiexec.py ana:…@host`); group 1 the password. (OCR may put a space after the colon or
    /// inside the password, twice when it split a symbol off: `HIoyznSb ! DkW+MA9`.)
    /// (And when OCR dropped the `@` before an IPv4 address: `'ACME/ana:P_HyGvD2JEQQ10.0.8.21'`;
    /// or read the closing quote as a sign: `…@10.0.8.21°`; or a `_` before the `@` as a space,
    /// `…%-Q& @10.0.8.21`: then group 2, one piece.) Group 3: the password before a dropped `@`.
    static let impacketTarget = TextMatcher(#"(?<=[\s'"‘’])(?:[A-Za-z0-9.\-]{1,64}/)?[A-Za-z0-9._$\-]{1,64}[ ]?:[ ]?(?:(?:([^\s'"’]{1,128}(?: [^\s'"’@]{1,64}){0,2})|([^\s'"’@]{1,128}) )@[A-Za-z0-9.\-\[\]]{1,255}(?![A-Za-z0-9.\-\[\]@])|([^\s'"’@]{1,128}?(?: [^\s'"’@]{1,64}?){0,2})(?:\d{1,3}\.){3}\d{1,3}(?=['"’]))"#)
    static let impacketTools = ["impacket", "secretsdump", "psexec", "wmiexec", "smbexec", "atexec", "dcomexec", "getuserspns", "gettgt", "getnpusers", "mssqlclient", "lookupsid"]

    /// A cracked password with the next line when a terminal wrapped the long line inside it: the
    /// line (80+ bytes) ends with the password, and the next is one piece (64 bytes at most), the
    /// text's last or before a prompt.
    func wrappedLastLine(of password: Secret, after line: TextMatcher.Match) -> Secret {
        guard line.end - line.start >= 80, line.end < utf8.count, Self.isLineBreak(utf8[line.end]),
              let next = piece(from: line.end + 1, maximumSpaces: 0), next.start == line.end + 1, next.end - next.start <= 64,
              next.end == utf8.count || Self.isLineBreak(utf8[next.end]), promptOrEnd(after: next.end)
        else { return password }
        return secret(password.kind, password.label, password.start, next.end)
    }

    /// Passwords that security tools print or are given: cracked hashes, found logins, Windows'
    /// stored passwords, Impacket's targets.
    func auditedPasswords() -> [Secret] {
        var found: [Secret] = []
        if mentions("hashcat", "potfile") {
            for match in Self.crackedHashLine.matches(in: searchable) {
                guard let range = match.range(1), let password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                found.append(wrappedLastLine(of: password, after: match))
            }
        }
        // A found login's line, the password its group 1: CrackMapExec's, Nmap's, kerbrute's; WPScan's
        // after it says it attacked passwords (a build's `[SUCCESS] - deploy / done` is no login).
        var foundLoginLines = [("[+]", Self.foundLogin), ("valid credentials", Self.nmapValidCredentials), ("valid login", Self.kerbruteValidLogin)]
        if mentions("password attack", "valid combinations") { foundLoginLines.append(("success", Self.wpscanSuccess)) }
        for (cue, line) in foundLoginLines where mentions(cue) {
            for match in line.matches(in: searchable) {
                guard let range = match.range(1), let password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                found.append(password)
            }
        }
        if mentions("defaultpassword", "_sc_") {
            for heading in Self.lsaSecretHeading.matches(in: searchable) {
                let line = nextFilledLine(after: heading.end)
                guard line.start < line.end, let value = Self.lsaSecretValue.firstMatch(in: slice(line.start, line.end)), let range = value.range(1),
                      let password = password(line.start + range.lowerBound, line.start + range.upperBound, quoted: true) else { continue }
                found.append(password)
            }
        }
        if Self.impacketTools.contains(where: { mentions($0) }) {
            for match in Self.impacketTarget.matches(in: searchable, within: lines(mentioning: Self.impacketTools)) {
                guard let range = match.range(1) ?? match.range(2) ?? match.range(3), let password = password(range.lowerBound, range.upperBound, quoted: true) else { continue }
                // (A piece a space keeps from the `@` is the password when machine-made: not `Target: admin @…`.)
                if match.range(2) != nil, !isMachineMade(range.lowerBound, range.upperBound) { continue }
                found.append(password)
            }
        }
        return found
    }
}
