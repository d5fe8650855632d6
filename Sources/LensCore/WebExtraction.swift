import Foundation

/// Finds web addresses and e-mail addresses in text.
///
/// URLs: with a scheme (`https://…`), with `www.`, or bare (`example.org/docs`) when the host
/// ends in a real public suffix. Trailing punctuation and unbalanced closing brackets are left
/// out. Normalized: scheme and host lower-cased, `https://` added when missing, the rest as written.
/// E-mails: lower-cased; the user part of a URL (`https://user@host`) is not an e-mail.
public enum WebExtraction {
    /// Dot-atoms as people write them (RFC 5322, with RFC 6531's Unicode): letters and digits
    /// of any script, `.`, `_`, `%`, `+` (tags) and `-`, and `'` inside (`o'neil`); the rarer atom
    /// characters (`=`, `!`, `#`…) are left out because in text they join keys and values
    /// (`MAIL_FROM=jose@…`). ``emails(in:)`` then refuses a local part over 64 characters, with
    /// a leading, trailing or doubled dot, and an address over 254 bytes.
    static let email = TextMatcher(#"(?<![\p{L}\p{M}\p{N}._%+'-])[\p{L}\p{N}_%+-][\p{L}\p{M}\p{N}._%+'-]*@(?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:\p{L}[\p{L}\p{M}]{1,62}|xn--[a-z0-9-]{2,59})(?![\p{L}\p{M}\p{N}-])"#)
    /// Characters RFC 3986 never allows unencoded in an address (`{ } | \\ ^` and quotes) end
    /// it: `[http://example.com|Example]`, `{\\url{…}}`; so do CJK and full-width punctuation
    /// (`｜`, `。`, `」`), which no address holds unencoded. Square brackets stay when they pair up
    /// inside it (`/wiki/a_[b]`); ``trimTrail(_:)`` drops one that closes what it did not open,
    /// as in a Markdown `[text](url)`. A scheme glued to a word of a script written with spaces
    /// (`xhttp://`) is no address's start; glued to Chinese or Japanese (`見てhttps://…`) it is.
    static let stop = #"\s<>"'`{}|\\^\x{3000}-\x{303F}\x{FF01}-\x{FF65}"#
    static let schemeOrWWW = TextMatcher(#"(?i)(?<![\p{Latin}\p{Greek}\p{Cyrillic}\p{N}_])(?:https?://|www\.)[^"# + stop + #"]+"#)
    /// A host ending in a public suffix, in any script (`президент.рф`, `bündnis-für-x.de`),
    /// or written scheme-relative (`//example.com`), with a
    /// port and path when shown; a port that is not one (`google.com:500000`) makes no address.
    /// Groups: 1 `//`, 2 host, 3 port, 4 path.
    static let bare = TextMatcher(#"(?i)(?<![\p{L}\p{N}@._/:-])(//)?((?:[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:\p{L}[\p{L}\p{M}]{1,62}|xn--[a-z0-9-]{2,59}))(?![\p{L}\p{M}\p{N}-])(:\d{2,5}(?!\d))?(?!:\d)(/[^"#
                                  + stop + #"]*)?"#)
    /// An IPv4 address without a scheme is an address with a port or a path (`10.0.0.7:8080`,
    /// `192.168.1.1/admin`); alone, four numbers are as often a version (`1.2.3.4`).
    static let bareIPv4 = TextMatcher(#"(?<![\p{L}\p{N}@._/:-])((?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})"#
                                      + #"(?:(:\d{2,5})(/[^"# + stop + #"]*)?|(/[^"# + stop + #"]*))(?![\p{N}.]*\d)"#)
    /// Top-level domains that are also common file extensions: a bare `name.py` without a path is a file.
    static let fileLikeSuffixes: Set<String> = ["py", "md", "sh", "rs", "pl", "so", "ps", "cc", "mk", "js", "ts", "sc", "st", "cs", "zip", "mov"]

    public static func emails(in text: String) -> [Entity] {
        let utf8 = Array(text.utf8)
        return email.matches(in: text).compactMap { match in
            // Skip the user part of a URL: "://" earlier in the same run of non-space text.
            var i = match.start
            while i > 0, utf8[i - 1] != 0x20, utf8[i - 1] != 0x0A, utf8[i - 1] != 0x09 { i -= 1 }
            if String(decoding: utf8[i..<match.start], as: UTF8.self).contains("://") { return nil }
            let local = match.text.prefix { $0 != "@" }
            guard local.count <= 64, !local.hasSuffix("."), !local.contains(".."), match.text.utf8.count <= 254 else { return nil }
            return Entity(type: .email, value: match.text, normalized: match.text.lowercased(), start: match.start, end: match.end)
        }
    }

    /// The URLs in `text`, none overlapping `excluded` spans (the e-mails).
    public static func urls(in text: String, suffixes: PublicSuffixList, excluding excluded: [Entity] = []) -> [Entity] {
        var found: [Entity] = []
        func overlaps(_ start: Int, _ end: Int) -> Bool {
            (found + excluded).contains { $0.start < end && start < $0.end }
        }
        let utf8 = Array(text.utf8)
        // An address cut short by a bracket it did not open may have another one after it
        // (`[http://a.org/1](http://a.org/2)`): the rest of the match is searched again, with the
        // text around it in view of the pattern's look-behind.
        let searchable = UTF16Text(text)
        var pending = schemeOrWWW.matches(in: searchable)
        while !pending.isEmpty {
            let match = pending.removeFirst()
            let (trimmed, end) = unwrapped(trimTrail(match.text), start: match.start, in: utf8)
            if end < match.end {
                let rest = text.utf8.index(text.startIndex, offsetBy: end)..<text.utf8.index(text.startIndex, offsetBy: match.end)
                pending += schemeOrWWW.matches(in: searchable, within: [NSRange(rest, in: text)])
            }
            guard !overlaps(match.start, end), let address = WebAddress(trimmed, allowingLocalHost: true) else { continue }
            found.append(Entity(type: .url, value: trimmed, normalized: address.normalized, start: match.start, end: end))
        }
        for match in bare.matches(in: searchable) {
            guard let host = match[2] else { continue }
            let (trimmed, end) = unwrapped(trimTrail(match.text), start: match.start, in: utf8)
            let written = (match[1]?.utf8.count ?? 0) + host.utf8.count + (match[3]?.utf8.count ?? 0)
            let hasPath = trimmed.utf8.count > written
            let topLevel = host.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard !overlaps(match.start, end), suffixes.isRegistrable(host),
                  hasPath || !fileLikeSuffixes.contains(topLevel),
                  let address = WebAddress("https://" + trimmed.drop { $0 == "/" }) else { continue }
            found.append(Entity(type: .url, value: trimmed, normalized: address.normalized, start: match.start, end: end))
        }
        for match in bareIPv4.matches(in: searchable) {
            let (trimmed, end) = unwrapped(trimTrail(match.text), start: match.start, in: utf8)
            guard !overlaps(match.start, end), trimmed.utf8.count > (match[1]?.utf8.count ?? 0) + 1,
                  let address = WebAddress("http://" + trimmed) else { continue }
            found.append(Entity(type: .url, value: trimmed, normalized: address.normalized, start: match.start, end: end))
        }
        return found.sorted { $0.start < $1.start }
    }

    /// A URL that a narrow bubble or column broke after a `-` or `/` at the end of a line goes on
    /// at the start of the next line when that line starts with a lower-case letter or a digit
    /// (`www.lumen-` / `optics.de/events`); the value is the address without the line break.
    /// A capital letter there starts text (`getting-` / `Olusegun Nair`), so it is left alone.
    static func unwrapped(_ candidate: String, start: Int, in utf8: [UInt8]) -> (value: String, end: Int) {
        let end = start + candidate.utf8.count
        guard let last = candidate.utf8.last, last == UInt8(ascii: "-") || last == UInt8(ascii: "/"),
              end + 1 < utf8.count, utf8[end] == UInt8(ascii: "\n"),
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(utf8[end + 1]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[end + 1])
        else { return (candidate, end) }
        var next = end + 1
        while next < utf8.count, ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"),
                                   UInt8(ascii: "`")].contains(utf8[next]) { next += 1 }
        let rest = trimTrail(String(decoding: utf8[(end + 1)..<next], as: UTF8.self))
        return (candidate + rest, end + 1 + rest.utf8.count)
    }

    /// Ends an address at its first closing bracket that has no opening one inside it
    /// (`(see example.org/a)` , `[text](https://x.org/a)trailing`), then drops trailing sentence
    /// punctuation and unbalanced closing brackets.
    static func trimTrail(_ candidate: String) -> String {
        var text = Substring(candidate)
        var depth: [Character: Int] = [:]
        let pairs: [Character: Character] = [")": "(", "]": "[", "}": "{", ">": "<"]
        for index in text.indices {
            let c = text[index]
            if pairs.values.contains(c) { depth[c, default: 0] += 1 }
            if let open = pairs[c] {
                if depth[open, default: 0] == 0 { text = text[..<index]; break }
                depth[open, default: 0] -= 1
            }
        }
        while let last = text.last {
            if ".,;:!?'\"".contains(last) {
                text = text.dropLast()
            } else if let open = ["(": ")", "[": "]", "{": "}", "<": ">"].first(where: { $0.value == String(last) })?.key,
                      text.filter({ String($0) == open }).count < text.filter({ $0 == last }).count {
                text = text.dropLast()
            } else {
                break
            }
        }
        return String(text)
    }
}
