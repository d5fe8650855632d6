import Foundation

/// Finds people's names: two to four capitalized words (diacritics, hyphens and a leading
/// initial allowed) that either stand where a name is expected or start with a known given name
/// on a line of their own.
///
/// No offline NER model is available, so precision comes from context:
/// - a cue before: a header (`From:`, `To:`, `Cc:`, `Author:`, `Organizer:`, `Bill to:`,
///   `owner:`; with its colon, so "an invoice from Copperpot Diner" is no name), `maintained by`,
///   `customer=`, `Dear`, `Hi`, `call`, `-- ` (a Debian changelog trailer), `[ ` (a changelog
///   section), `"name": "`;
/// - or a cue after: an e-mail address (`<a@b>`, `- a@b`, `| a@b`), a time (a chat author line
///   `Priya Nair 09:14`), or a closing `]`;
/// - or a given name from the 1990 US Census lists, with the name alone on its line (a chat's
///   direct messages, an inbox list, a contact card);
/// - or, alone on its line, a name whose words both appear in an e-mail address of the same
///   text (`Katarzyna Nowakowski` … `katarzyna.nowakowski@…`): a contact card or a signature,
///   whatever the name's origin.
/// An initial and a surname (`K. Nowakowska`) need a cue.
/// Normalized: the name as written, with single spaces.
public enum PersonExtraction {
    /// A capitalized word: `Smith`, `O'Neill`, `McAllister`, `Anna-Lena`.
    static let word = #"\p{Lu}\p{Ll}*['’]?\p{Lu}?[\p{Ll}'’]+(?:-\p{Lu}?\p{Ll}+)?"#
    /// Lower-case particles inside a name: `van der Berg`, `de la Cruz`, `da Silva`, `bin Salman`.
    static let particleWords = "van|von|der|den|de|del|della|di|da|dos|das|du|la|le|ter|ten|zu|bin|ibn|al|el|y"
    static let particles = #"(?:[ \t]+(?:"# + particleWords + #"))*"#
    static let wholeWord = TextMatcher("^" + word + "$")
    /// Titles before a name: context, like `Dear`, never part of it.
    static let titles: Set<String> = ["dr", "mr", "mrs", "ms", "mx", "prof", "sir", "dame", "rev", "hon"]
    static let particleGap = TextMatcher(#"^(?:[ \t]+(?:"# + particleWords + #"))+[ \t]+$"#)
    static let candidate = TextMatcher(#"(?<![\p{L}\p{N}@._-])(?:\p{Lu}\.(?:[ \t]+|"# + particles + #"[ \t]+)"# + word + #"(?:"# + particles + #"[ \t]+"# + word
                                       + #"){0,2}|"# + word + #"(?:"# + particles + #"[ \t]+"# + word + #"){1,3})(?![\p{L}\p{N}@_-])"#)
    /// (Starting only where a run of its characters starts, and taking the run whole: tried from
    /// every position of a long run with no `@` after it, the regex cost the square of its length.)
    static let emailLocalPart = TextMatcher(#"(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]++(?=@[\p{L}\p{N}-]+\.)"#)
    static let cueBefore = TextMatcher(#"(?:\b(?:(?i:From|To|Cc|Bcc|Author|Organi[sz]er|Owner|Bill to|Attendees?|Guests?|Reviewer|Assignee)[ \t]*:|(?i:customer)=|(?:Dear|Hi|Hello|Hey),?|(?i:maintained by|owned by|signed by|call|ask|contact|thanks|regards),?)|^[ \t]*--|\[|"name":)[ \t]*"?$"#)
    static let cueAfter = TextMatcher(#"^(?:[ \t]*(?:<[^>\s]+@|[-–|][ \t]*[^\s@]+@|\([^)\s]+@)|[ \t]+\d{1,2}:\d{2}\b|[ \t]*\])"#)
    /// Capitalized words that start UI labels, headings and sentences, never names.
    static let notNames: Set<String> = titles.union([
        "the", "a", "an", "and", "or", "of", "in", "on", "at", "for", "to", "from", "with", "by", "new", "re", "fwd",
        "your", "my", "our", "this", "that", "dear", "hi", "hello", "hey", "thanks", "thank", "best", "kind", "regards",
        "direct", "messages", "inbox", "sent", "drafts", "archive", "spam", "trash", "total", "subtotal", "tax",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
        "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "yesterday",
    ])

    public static func entities(in text: String) -> [Entity] {
        let utf8 = Array(text.utf8)
        let lines = LineBreaks(utf8)
        // The words of each e-mail address's local part (`katarzyna.nowakowski` → both names).
        let searchable = UTF16Text(text)
        let addressWords: [Set<String>] = emailLocalPart.matches(in: searchable).map { match in
            Set(folded(string(utf8, match.start..<match.end)).split { !$0.isLetter }.map(String.init))
        }
        var found: [Entity] = candidate.matches(in: searchable).compactMap { match in
            // Words that are never part of a name (`Dear`, `Hi`, month names) at either end are
            // context, not name: "Dear Anna-Lena Okafor" is the name "Anna-Lena Okafor" after a cue.
            var words = wordRanges(in: utf8, from: match.start, to: match.end)
            while let first = words.first, notNames.contains(string(utf8, first).lowercased()) { words.removeFirst() }
            while let last = words.last, notNames.contains(string(utf8, last).lowercased()) { words.removeLast() }
            guard words.count >= 2, let first = words.first, let last = words.last,
                  !words.contains(where: { notNames.contains(string(utf8, $0).lowercased()) }) else { return nil }
            let start = first.lowerBound, end = last.upperBound
            let (lineStart, lineEnd) = lines.bounds(start, end)
            // The cues are short: only the line's last bytes before the name and its first after it
            // are read, so a long line of names costs its length, not its square. (A line cut short
            // starts with a letter, so that `^` in ``cueBefore`` is the line's start only.)
            let beforeStart = max(lineStart, start - cueReach), afterEnd = min(lineEnd, end + cueReach)
            let before = (beforeStart > lineStart ? "x" : "") + string(utf8, beforeStart..<start), after = string(utf8, end..<afterEnd)
            let hasCue = !cueBefore.matches(in: before).isEmpty || !cueAfter.matches(in: after).isEmpty
            let isAlone = beforeStart == lineStart && afterEnd == lineEnd && before.allSatisfy(\.isWhitespace) && after.allSatisfy(\.isWhitespace)
            let firstWord = string(utf8, first)
            let given = firstWord.hasSuffix(".") ? "" : folded(firstWord.split(separator: "-").first.map(String.init) ?? "")
            let inAddress = words.count == 2 && given.count > 1
                && addressWords.contains { $0.contains(given) && $0.contains(folded(string(utf8, last))) }
            let surname = folded(string(utf8, last)).filter { $0.isLetter }
            let knownName = GivenNames.census1990.contains(Substring(given)) || Surnames.census1990.contains(Substring(surname))
            guard hasCue || (isAlone && (knownName || inAddress)) else { return nil }
            let value = string(utf8, start..<end)
            return Entity(type: .person, value: value, normalized: words.map { string(utf8, $0) }.joined(separator: " "),
                          start: start, end: end)
        }
        // Names in running text, with no cue: the statistical tagger. It tags capitalized words
        // only, so a name with particles comes as pieces: "Maarten" … "Berg" around "van der".
        for span in joinedAcrossParticles(NameTagger.names(in: text), in: utf8) where !found.contains(where: { $0.start < span.upperBound && span.lowerBound < $0.end }) {
            var end = span.upperBound
            // "Werner Koch's" → "Werner Koch".
            for possessive in ["'s", "’s"] where string(utf8, span.lowerBound..<end).hasSuffix(possessive) { end -= possessive.utf8.count }
            let value = string(utf8, span.lowerBound..<end)
            // A name is read on one line: a span across a line break joins two pieces of layout.
            guard !value.contains("\n") else { continue }
            var words = value.split(whereSeparator: \.isWhitespace)
            // A title starts the name, it is not part of it: "Dr Jane Roe" is "Jane Roe", "Dr" alone nothing.
            var start = span.lowerBound
            while let first = words.first, titles.contains(first.lowercased().trimmingCharacters(in: ["."])) {
                start += first.utf8.count
                while start < end, utf8[start] == 0x20 || utf8[start] == 0x2E { start += 1 }
                words.removeFirst()
            }
            guard !words.isEmpty, !words.contains(where: { notNames.contains($0.lowercased()) }) else { continue }
            // Every word written as names are (`McAllister`, `O'Neill`, a particle): not `TIM`,
            // `J`, `BeyondFinalZero` or `LE`, which the tagger takes for names in running text.
            guard words.allSatisfy({ !wholeWord.matches(in: String($0)).isEmpty || !particleGap.matches(in: " \($0) ").isEmpty })
            else { continue }
            // One word followed by a capitalized word the tagger left out is part of another
            // proper noun ("Austin TX", "Cloud VM"), not a name.
            if words.count == 1, end + 1 < utf8.count, utf8[end] == 0x20,
               let next = String(decoding: utf8[(end + 1)...].prefix(4), as: UTF8.self).first, next.isUppercase {
                continue
            }
            // One word starting a short line is a label or a menu item ("Mark as read",
            // "Archive") far more often than a name.
            if words.count == 1 {
                let (lineStart, lineEnd) = lines.bounds(span.lowerBound, span.upperBound)
                // (A line of four words is short: one over `cueReach` × 4 bytes is not read whole.)
                if lineEnd - lineStart <= cueReach * 4 {
                    let line = string(utf8, lineStart..<lineEnd)
                    if line.drop(while: \.isWhitespace).hasPrefix(value), line.split(whereSeparator: \.isWhitespace).count <= 4 { continue }
                }
                // One word after a postal code on its line is the town of an address
                // ("16 Congress Ave, TX 78701 Austin", "75002 Paris"): postal codes are runs of
                // 4 to 6 digits in most countries; times, house numbers and prices are shorter.
                if hasDigitRun(of: 4, in: utf8[max(lineStart, span.lowerBound - cueReach)..<span.lowerBound]) { continue }
            }
            found.append(Entity(type: .person, value: string(utf8, start..<end), normalized: words.joined(separator: " "),
                                start: start, end: end))
        }
        return found.sorted { $0.start < $1.start }
    }

    /// How far before and after a name its cues are looked for, in bytes.
    static let cueReach = 64

    /// Where each line of a text starts and ends, found by halving rather than by walking the line.
    struct LineBreaks {
        let breaks: [Int], count: Int

        init(_ utf8: [UInt8]) {
            breaks = utf8.indices.filter { utf8[$0] == 0x0A }
            count = utf8.count
        }

        /// The start and end (its line break or the text's end) of the line that holds `start..<end`
        /// (which holds no line break).
        func bounds(_ start: Int, _ end: Int) -> (start: Int, end: Int) {
            // The first break at or after `end`.
            var low = 0, high = breaks.count
            while low < high { let mid = (low + high) / 2; if breaks[mid] < end { low = mid + 1 } else { high = mid } }
            let lineEnd = low < breaks.count ? breaks[low] : count
            let lineStart = low > 0 && breaks[low - 1] < start ? breaks[low - 1] + 1 : 0
            return (lineStart, lineEnd)
        }
    }

    /// Whether `bytes` hold `length` or more ASCII digits in a row.
    static func hasDigitRun(of length: Int, in bytes: ArraySlice<UInt8>) -> Bool {
        var run = 0
        for byte in bytes {
            run = (0x30...0x39).contains(byte) ? run + 1 : 0
            if run >= length { return true }
        }
        return false
    }

    /// `Maarten` and `Berg` with only `van der` between them → `Maarten van der Berg`.
    static func joinedAcrossParticles(_ names: [Range<Int>], in utf8: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        for span in names {
            if let previous = spans.last, previous.upperBound < span.lowerBound,
               !particleGap.matches(in: string(utf8, previous.upperBound..<span.lowerBound)).isEmpty {
                spans[spans.count - 1] = previous.lowerBound..<span.upperBound
            } else {
                spans.append(span)
            }
        }
        return spans
    }

    /// The byte ranges of the space- or tab-separated words between `from` and `to`.
    static func wordRanges(in utf8: [UInt8], from: Int, to: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start: Int?
        for index in from..<to {
            let isSpace = utf8[index] == 0x20 || utf8[index] == 0x09
            if isSpace, let s = start { ranges.append(s..<index); start = nil }
            if !isSpace, start == nil { start = index }
        }
        if let s = start { ranges.append(s..<to) }
        return ranges
    }

    static func string(_ utf8: [UInt8], _ range: Range<Int>) -> String {
        String(decoding: utf8[range], as: UTF8.self)
    }

    /// `José` → `jose`: the census lists are plain ASCII.
    static func folded(_ name: String) -> String {
        name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
    }
}
