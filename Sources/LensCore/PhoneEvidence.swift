import Foundation

/// How Lens reads phone numbers beyond what the matcher finds in one region:
///
/// - **National formats by evidence.** `030 901820` is no US number; if the same text shows a
///   German number in international form (`+49 …`), a `.de` address or the word "Germany", and
///   points to no other country, it is read as German, provided its digits are grouped as German
///   numbers are written. Otherwise the configured list (`regions = ["DE", "FR"]`) is tried in
///   order. A number the default region reads keeps that reading, so evidence never changes it.
/// - **Numbers the layout wrapped.** `+49 30` ending one line and `901820` starting the next are
///   one number when neither piece is a number by itself and the joined digits are a valid one.
/// - **Identifiers are not numbers.** Digits glued by `-` or `_` to a word before them
///   (`CVE-2026-106181`, `RFC-2119`, `build_20240101`) are part of a name.
public enum PhoneEvidence {
    /// Country-code top-level domains that are used as generic names (`.io`, `.co`, `.me`…) say
    /// nothing about where a number is.
    static let genericCountryDomains: Set<String> = ["io", "co", "me", "tv", "ai", "ly", "fm", "cc", "gg", "sh", "to", "ws", "la",
                                                     "app", "dev", "am", "so", "vc", "is", "it", "in", "be", "do", "us"]

    /// The regions `text` points to: those of its numbers written in international form, of
    /// the country-code domains of its addresses, and of the countries it names.
    public static func regions(in text: String, webEntities: [Entity]) -> [String] {
        var out: [String] = []
        for entity in webEntities where entity.type == .url || entity.type == .email {
            var host = Substring(entity.normalized)
            if entity.type == .email { host = host.split(separator: "@").last ?? "" }
            if let scheme = host.range(of: "://") { host = host[scheme.upperBound...] }
            host = host.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
            guard let tld = host.split(separator: ".").last.map({ $0.lowercased() }), tld.count == 2,
                  !genericCountryDomains.contains(tld) else { continue }
            let region = tld == "uk" ? "GB" : tld.uppercased()
            if !out.contains(region) { out.append(region) }
        }
        // Country names: each word that starts with a capital letter is looked up by that word.
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            let startsWord = byte >= 0x41 && byte <= 0x5A && (index == 0 || !isLetterByte(utf8[index - 1]))
            guard startsWord else { index += 1; continue }
            var end = index + 1
            while end < utf8.count, isLetterByte(utf8[end]) { end += 1 }
            if let names = countriesByFirstWord[Substring(String(decoding: utf8[index..<end], as: UTF8.self))] {
                let rest = String(decoding: utf8[index..<min(utf8.count, index + 64)], as: UTF8.self)
                for (name, region) in names where rest.hasPrefix(name) && !out.contains(region) { out.append(region) }
            }
            index = end
        }
        return out
    }

    /// What numbers are written with between their digits: space, `-`, `.`, brackets, `/`.
    static func isSeparator(_ b: UInt8) -> Bool { b == 0x20 || b == 0x2D || b == 0x2E || b == 0x28 || b == 0x29 || b == 0x2F }

    static func isLetterByte(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A || b >= 0x80 }

    static func firstWord(_ text: Substring) -> Substring { text.prefix { $0.isLetter } }

    /// English country names (ICU's, through Foundation) → region codes, under their first word
    /// and longest first: a capitalized word of the text finds the names it may start.
    static let countriesByFirstWord: [Substring: [(name: String, region: String)]] = {
        let english = Locale(identifier: "en")
        var table: [Substring: [(name: String, region: String)]] = [:]
        for region in Locale.Region.isoRegions where region.identifier.count == 2 {
            guard let name = english.localizedString(forRegionCode: region.identifier), !name.contains("("), name.count > 3 else { continue }
            table[firstWord(Substring(name)), default: []].append((name, region.identifier))
        }
        return table.mapValues { $0.sorted { $0.name.count > $1.name.count } }
    }()
    /// The numbers of `text`: those of `defaultRegion`; then, for each run of digits no number
    /// covers, its reading in the one region the text points to (``regions(in:webEntities:)`` and
    /// the regions of its own international numbers, when they are one) if the digits are grouped
    /// as that region writes them, else its reading in the first of `fallback` that has one,
    /// else the one reading (in a region whose grouping it has) that `known` says the library
    /// already holds; then numbers wrapped across a line. Identifiers are dropped.
    static func numbers(in text: String, utf8: [UInt8], finder: any PhoneNumberFinding, evidence: () -> [String],
                        fallback: [String], defaultRegion: String, known: (([String]) -> Set<String>)? = nil) -> [FoundPhoneNumber] {
        var found = finder.phoneNumbers(in: text, region: defaultRegion).filter { !isIdentifier($0, utf8) && !isVersion($0, utf8) }
        let runs = unreadRuns(utf8, found)
        var others: [String] = []
        if !runs.isEmpty {
            let international = found.compactMap { utf8[$0.start] == UInt8(ascii: "+") ? $0.region : nil }
            for region in international + evidence() where region != defaultRegion && !others.contains(region)
                && finder.isSupported(region: region) {
                others.append(region)
            }
            // Evidence counts only when it points to one country: a list of customers from five
            // countries says nothing about where a national number is from.
            if others.count > 1 { others = [] }
            let fallback = fallback.filter { $0 != defaultRegion && finder.isSupported(region: $0) }
            for run in runs where !isVersion(FoundPhoneNumber(start: run.lowerBound, end: run.upperBound, e164: ""), utf8) {
                // Each run alone: the matcher reads a few bytes, not the whole text once per region.
                let slice = String(decoding: utf8[run], as: UTF8.self)
                func readings(_ region: String, exact: Bool) -> [FoundPhoneNumber] {
                    finder.phoneNumbers(in: slice, region: region, exactGrouping: exact).compactMap { number in
                        var n = number
                        n.start += run.lowerBound
                        n.end += run.lowerBound
                        return utf8[n.start] == UInt8(ascii: "+") || isIdentifier(n, utf8) || isVersion(n, utf8) ? nil : n
                    }
                }
                var accepted = others.flatMap { readings($0, exact: true) }
                if accepted.isEmpty {
                    for region in fallback {
                        accepted = readings(region, exact: false)
                        if !accepted.isEmpty { break }
                    }
                }
                // No evidence in the text: the library's own numbers. A run grouped as several
                // countries write numbers (`020 7946 0018`: GB, CN, IN, JP…) is the one reading the
                // library already holds in international form, when exactly one of them is.
                if accepted.isEmpty, let known, isTrunkNumber(utf8[run]) {
                    let candidates = finder.regionsWriting(slice).flatMap { readings($0, exact: true) }
                    let held = known(candidates.map(\.e164))
                    let matching = candidates.filter { held.contains($0.e164) }
                    if Set(matching.map(\.e164)).count == 1 { accepted = [matching[0]] }
                }
                found += accepted.filter { number in !found.contains(where: { $0.start < number.end && number.start < $0.end }) }
            }
        }
        found += wrapped(in: utf8, finder: finder, regions: [defaultRegion] + others + fallback, known: found)
        return found.sorted { $0.start < $1.start }
    }

    /// Whether a run of digits looks like a national number dialled with the trunk prefix most
    /// countries use: `0`, then 8–11 more digits in groups (`020 7946 0018`, `(030) 901820`). Dates
    /// and versions (`2021-11-17`) are not: reading a run in every region costs about 1 ms.
    public static func isTrunkNumber(_ written: String) -> Bool { isTrunkNumber(Array(written.utf8)[...]) }

    static func isTrunkNumber(_ run: ArraySlice<UInt8>) -> Bool {
        let digits = run.filter { $0 >= 0x30 && $0 <= 0x39 }
        return digits.first == UInt8(ascii: "0") && (9...12).contains(digits.count) && run.contains(where: isSeparator)
    }

    /// The byte ranges of runs of eight or more digits (with the separators numbers are written
    /// with, and an opening bracket before) that no number found covers.
    static func unreadRuns(_ utf8: [UInt8], _ found: [FoundPhoneNumber]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var runStart = -1, digits = 0, lastDigit = -1
        for index in 0...utf8.count {
            let b = index < utf8.count ? utf8[index] : 0
            if b >= 0x30 && b <= 0x39 {
                if runStart < 0 { runStart = index; digits = 0 }
                digits += 1
                lastDigit = index
            } else if runStart >= 0, !isSeparator(b) {
                let start = runStart > 0 && utf8[runStart - 1] == UInt8(ascii: "(") ? runStart - 1 : runStart
                let range = start..<(lastDigit + 1)
                // Digits glued to letters are part of a word or a hash (`…2164b4989504d1468`).
                func isLetter(_ i: Int) -> Bool { utf8.indices.contains(i) && isLetterByte(utf8[i]) }
                // Eight digits at least (a national number with its trunk prefix: `030 901820`);
                // shorter runs and `#928512` are ids (Debian bugs, orders), not numbers.
                let isId = range.lowerBound > 0 && utf8[range.lowerBound - 1] == UInt8(ascii: "#")
                if digits >= 8, !isId, !isLetter(range.lowerBound - 1), !isLetter(range.upperBound), !found.contains(where: { $0.start <= range.lowerBound && range.upperBound <= $0.end }) { runs.append(range) }
                runStart = -1
            }
        }
        return runs
    }

    /// `136.0.7103.92-1`, `12-20211117-1`: a package version, not a number. Phone numbers are
    /// not written with a one-digit group after a `-` at their end, nor a one-digit group between
    /// dots (`04.57.78.50.96` and `+33 1 42 68 53 00` are).
    static func isVersion(_ number: FoundPhoneNumber, _ utf8: [UInt8]) -> Bool {
        let written = utf8[number.start..<number.end]
        let groups = written.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        if let last = groups.last, last.count == 1, written.count > 1,
           let separator = written.dropLast().last, separator == UInt8(ascii: "-") || separator == UInt8(ascii: ".") { return true }
        if written.contains(UInt8(ascii: ".")) {
            let dotted = written.split(separator: UInt8(ascii: "."))
            if dotted.dropFirst().dropLast().contains(where: { $0.count == 1 }) { return true }
        }
        return false
    }

    /// `CVE-2026-106181`: digits joined to a word before them by `-` or `_`.
    static func isIdentifier(_ number: FoundPhoneNumber, _ utf8: [UInt8]) -> Bool {
        guard number.start >= 2 else { return false }
        let joint = utf8[number.start - 1], before = utf8[number.start - 2]
        return (joint == UInt8(ascii: "-") || joint == UInt8(ascii: "_")) && isLetterByte(before)
    }

    /// Numbers split by a line break: where one line ends in a piece of a number (digits and the
    /// characters numbers are written with) and the next starts with one, the two pieces are read
    /// joined by a space, and a number found across the join counts when it overlaps no number
    /// already found (neither piece was one by itself). Only the pieces are read, not the text.
    static func wrapped(in utf8: [UInt8], finder: any PhoneNumberFinding, regions: [String], known: [FoundPhoneNumber]) -> [FoundPhoneNumber] {
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        func isPiece(_ b: UInt8) -> Bool { isDigit(b) || isSeparator(b) || b == UInt8(ascii: "+") }
        var out: [FoundPhoneNumber] = []
        var tried: [String] = []
        for region in regions where !tried.contains(region) && finder.isSupported(region: region) { tried.append(region) }
        for join in utf8.indices where utf8[join] == 0x0A && join > 0 && join + 1 < utf8.count
            && (isDigit(utf8[join - 1]) || utf8[join - 1] == UInt8(ascii: ")")) && (isDigit(utf8[join + 1]) || utf8[join + 1] == UInt8(ascii: "(")) {
            var start = join
            while start > 0, isPiece(utf8[start - 1]) { start -= 1 }
            var end = join + 1
            while end < utf8.count, isPiece(utf8[end]) { end += 1 }
            // A phone number has 7 to 17 digits with its country code; fewer or more is something else.
            let digits = utf8[start..<end].filter(isDigit).count
            guard (7...17).contains(digits), !(known + out).contains(where: { $0.start < end && start < $0.end }) else { continue }
            var piece = Array(utf8[start..<end])
            piece[join - start] = 0x20
            let text = String(decoding: piece, as: UTF8.self)
            for (index, region) in tried.enumerated() {
                let numbers = finder.phoneNumbers(in: text, region: region, exactGrouping: index > 0).compactMap { number -> FoundPhoneNumber? in
                    var n = number
                    n.start += start
                    n.end += start
                    return n.start < join && join < n.end && !isIdentifier(n, utf8) ? n : nil
                }
                if let number = numbers.first { out.append(number); break }
            }
        }
        return out
    }
}
