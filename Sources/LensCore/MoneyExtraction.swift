import Foundation

/// Finds amounts of money and normalizes them to `<amount> <ISO 4217>`: two decimals, none for
/// currencies without minor units (JPY), the amount multiplied out when a scale word follows.
///
/// - Currencies: symbols and ISO codes before or after the amount (`$1,234.50`, `1.234,50 €`,
///   `GBP 353.78`, `₹1,00,000`, `24,00 Kč`, `RM50`), and English currency names and plurals
///   after it (`50 euros`, `420 million Finnish markka`, `1,200 rupees`, `5 US dollars`). The
///   symbols, codes and names are the Unicode CLDR's, read from ICU through Foundation's `Locale`
///   once per process, so every currency ICU knows is covered, not a hand-picked list. A symbol
///   several currencies share is given to the one most people mean (`$` USD, `£` GBP, `¥` JPY,
///   `kr` SEK, `Rs` INR) or, when there is none, not used; one-letter symbols (`R`, `K`, `L`)
///   and codes that are English words (`ALL`, `TOP`, `CUP`…) are not currencies alone.
/// - Scale words: `k`, `m`, `bn`, `thousand`, `million`, `billion`, `trillion`, `lakh`, `crore`
///   (`$ 75 million` → `75000000.00 USD`, `€10M`).
/// - Local words CLDR has no symbol for (`руб.`, `грн.`, `lei`, `円`, `원`), symbols written
///   without their dot (`лв`), three-decimal currencies (`123,456.789 OMR`).
/// - Ranges with the currency written once: `26 to 50 €` and `€10–20` give two amounts.
/// - Negatives: `-$5.00`, `$-5.00`, `−€3`.
/// - "pounds" after a number is money only with a scale word or "sterling": otherwise it is as
///   likely a weight.
public enum MoneyExtraction {
    /// Symbols several currencies share, given to the one most people mean.
    static let preferred: [String: String] = [
        "$": "USD", "£": "GBP", "¥": "JPY", "kr": "SEK", "kr.": "DKK", "Rs": "INR", "Rs.": "INR", "Br": "BYN",
        "US$": "USD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD", "C$": "CAD",
        "R$": "BRL", "Fr.": "CHF", "zł": "PLN", "Zł": "PLN", "₹": "INR", "€": "EUR", "Rp": "IDR", "RM": "MYR",
    ]
    /// ISO codes that are also English words or common abbreviations in capitals.
    static let wordCodes: Set<String> = ["ALL", "TOP", "CUP", "PEN", "BOB", "MOP", "SOS", "TRY", "ESP", "CAD", "BAM", "MAD",
                                         "GEL", "LAK", "NIO", "PAB", "SAR", "SHP", "XXX", "XTS", "ANG", "BEL", "CHE", "LUL",
                                         "RON", "DOP", "MAF", "PES", "ARA", "GNS", "CVE"]
    /// Codes that are also names in computing (`PHP 8`, `BSD 4.1`, `AMD64`): money only with an
    /// amount that looks like one (`PHP 1,500.00`).
    static let computingWords: Set<String> = ["PHP", "BSD", "AMD", "CRC", "SRD", "STD", "SYP", "MDL", "GHS", "TMT"]
    /// Currency words of one currency each that are also ordinary English words or units.
    static let wordNames: Set<String> = ["kip", "mark", "real", "dram", "som", "unit", "rand"]
    /// Currencies written without minor units.
    static let wholeUnits: Set<String> = ["JPY", "KRW", "VND", "CLP", "ISK", "IDR", "PYG", "UGX", "KMF", "XAF", "XOF", "BIF", "DJF", "GNF", "RWF", "VUV", "XPF"]
    /// Currencies with three minor digits (ISO 4217). Foundation on Linux does not give a
    /// currency's minor digits (its `NumberFormatter` answers 2 for every code), so the two
    /// short lists are kept here.
    static let thousandths: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    /// How people write some currencies in their own language, where CLDR has only a symbol
    /// (`₽`, `₴`, `₩`, `￥`) and a full name (`российский рубль`): ICU has no such list, so it is
    /// kept here. Only forms that name one currency; not `р.` (also the Ukrainian year, `2020 р.`)
    /// or the rial and dinar words several countries share.
    static let localWords: [String: String] = [
        "руб": "RUB", "руб.": "RUB", "Р": "RUB", "рублей": "RUB", "грн": "UAH", "грн.": "UAH", "lei": "RON", "Lei": "RON",
        "元": "CNY", "円": "JPY", "원": "KRW", "zl": "PLN", "TL": "TRY", "KSh": "KES", "тг": "KZT", "₸": "KZT", "ש\"ח": "ILS",
        "SFr": "CHF", "SFr.": "CHF", "VNĐ": "VND",
    ]

    struct Tables: Sendable {
        var symbols: [String: String] = [:]
        var codes: Set<String> = []
        /// Lower-cased English names and unit words (`finnish markka`, `euro`, `dollar`) → code.
        var names: [String: String] = [:]
        var longestSymbol: Int
        var longestName: Int
    }

    static let tables: Tables = {
        var symbolCodes: [String: Set<String>] = [:]
        for identifier in Locale.availableIdentifiers {
            let locale = Locale(identifier: identifier)
            guard let code = locale.currency?.identifier, let symbol = locale.currencySymbol?.trimmingCharacters(in: .whitespaces),
                  !symbol.isEmpty else { continue }
            symbolCodes[symbol, default: []].insert(code)
        }
        var symbols: [String: String] = [:]
        for (symbol, codes) in symbolCodes {
            guard symbol.count > 1 || !symbol.allSatisfy(\.isLetter) else { continue }   // R, K, L, P…
            if symbol.count == 3, symbol.allSatisfy(\.isUppercase) { continue }           // codes as symbols
            if let code = preferred[symbol] { symbols[symbol] = code } else if codes.count == 1 { symbols[symbol] = codes.first }
        }
        // `лв.`, `ден.`: the same symbol is written without its dot as often as with it.
        for (symbol, code) in symbols where symbol.count > 2 && symbol.hasSuffix(".") && symbols[String(symbol.dropLast())] == nil {
            symbols[String(symbol.dropLast())] = code
        }
        for (symbol, code) in preferred { symbols[symbol] = code }
        for (word, code) in localWords { symbols[word] = code }
        let english = Locale(identifier: "en")
        var codes: Set<String> = []
        var names: [String: String] = [:]
        var unitCodes: [String: Set<String>] = [:]
        for currency in Locale.Currency.isoCurrencies {
            let code = currency.identifier
            // Funds, metals and accounting units (`USS` "US Dollar (Same day)", `XAU` gold) are not
            // what a screen shows; their ICU names carry a parenthesis, or they are X-codes.
            guard code.count == 3, let name = english.localizedString(forCurrencyCode: code), !name.contains("("), name != code,
                  !code.hasPrefix("X") || ["XAF", "XOF", "XPF", "XCD"].contains(code) else { continue }
            if !wordCodes.contains(code) { codes.insert(code) }
            let lower = name.lowercased()
            names[lower] = code
            if let unit = lower.split(separator: " ").last.map(String.init), unit.count >= 3, !wordNames.contains(unit) {
                unitCodes[unit, default: []].insert(code)
            }
        }
        // A unit word alone (`dollars`, `francs`) is the currency most people mean by it, or the
        // only currency with that word.
        let preferredUnits = ["dollar": "USD", "pound": "GBP", "franc": "CHF", "rupee": "INR", "ruble": "RUB", "rouble": "RUB",
                              "krona": "SEK", "yuan": "CNY", "won": "KRW", "euro": "EUR", "yen": "JPY", "peso": "MXN", "lira": "TRY"]
        for (unit, set) in unitCodes where names[unit] == nil {
            if let code = preferredUnits[unit] { names[unit] = code } else if set.count == 1 { names[unit] = set.first }
        }
        names["won"] = "KRW"
        names["yen"] = "JPY"
        names["us dollar"] = "USD"
        names["u.s. dollar"] = "USD"
        names["pound sterling"] = "GBP"
        names["sterling"] = "GBP"

        return Tables(symbols: symbols, codes: codes, names: names,
                      longestSymbol: symbols.keys.map(\.count).max() ?? 1, longestName: names.keys.map { $0.split(separator: " ").count }.max() ?? 1)
    }()

    /// A number, with a sign and a scale word when shown. The currency around it is looked up in
    /// the tables by hand rather than by one pattern with every symbol and name in it: such a
    /// pattern (some 600 alternatives tried at each position) made money ten times slower than
    /// all other extraction together.
    /// Thousands groups all use one mark (`1 234 567`, not `2.00 100`); a decimal part has up
    /// to four digits (`123,456.789 OMR`, `฿ 3.3900`).
    /// Groups: 1 sign, 2 amount, 3 group mark, 4 scale word, 5 scale letter.
    static let number = TextMatcher(#"(?<![\p{N}.,])([-−–]\s?)?(\d{1,3}([,.\u00A0\u202F' ])\d{2,3}(?:\3\d{2,3})*(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?|[.,]\d{1,2})"#
                                    + #"(?:\s?((?i:thousand|million|billion|trillion|lakhs?|crores?|mn|bn|tn))\b|(k|K|m|M|b|B|bn|T)\b)?(?![\p{N}])"#)

    public static func entities(in text: String) -> [Entity] {
        let t = tables
        let positions = ScalarOffsets(text)
        let chars = positions.scalars, offsets = positions.utf8
        func isWordChar(_ i: Int) -> Bool {
            guard chars.indices.contains(i) else { return false }
            return chars[i].properties.isAlphabetic || chars[i].properties.numericType != nil
        }
        func isSpace(_ i: Int) -> Bool { chars.indices.contains(i) && (chars[i] == " " || chars[i] == "\u{00A0}" || chars[i] == "\u{202F}") }
        func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(chars[range])) }

        /// Whether the text between two amounts joins them into a range (`26 to 50 €`, `$10–20`).
        func isRangeJoint(_ range: Range<Int>) -> Bool {
            guard range.lowerBound <= range.upperBound else { return false }
            let joint = string(range).trimmingCharacters(in: .whitespaces)
            return ["-", "–", "—", "~", "to"].contains(joint)
        }
        func amount(_ normalized: String) -> Decimal? { Decimal(string: String(normalized.prefix { $0 != " " })) }

        var found: [Entity] = []
        /// The last amount without a currency, and the last one with a symbol before it: the
        /// other end of a range whose currency is written once.
        var bare: (range: Range<Int>, amount: String, scale: String?)?
        var prefixed: (entity: Entity, currency: String, end: Int)?
        for match in number.matches(in: text) {
            var first = positions.scalarIndex(ofUTF8: match.start)
            let last = positions.scalarIndex(ofUTF8: match.end)
            let scale = match[4] ?? match[5]
            var negative = match[1] != nil
            // `10 - 20 €`: the dash between two amounts joins them; it is not a sign.
            if negative, let sign = match[1], let end = bare?.range.upperBound ?? prefixed?.end, isRangeJoint(end..<(first + sign.unicodeScalars.count)) {
                negative = false
                first += sign.unicodeScalars.count
            }
            var currency: String?, start = first, end = last
            // A symbol or code just before (one space allowed), starting at a word boundary.
            var j = first
            if !negative, isSpace(j - 1) { j -= 1 }
            for length in stride(from: min(t.longestSymbol, j), through: 1, by: -1) {
                let candidate = string((j - length)..<j)
                guard let code = t.symbols[candidate] ?? (t.codes.contains(candidate) ? candidate : nil) else { continue }
                let isLetters = candidate.unicodeScalars.first?.properties.isAlphabetic ?? false
                if isLetters && isWordChar(j - length - 1) { continue }
                // `CVE-2026-1234`, `ISO-8601`: a letter code joined to a number by a dash is a name.
                if isLetters, match[1] != nil { break }
                if needsMoneyLikeAmount(candidate, glued: j == first), !looksLikeMoney(match[2]) { break }
                currency = code
                start = j - length
                if chars.indices.contains(start - 1), "-−–".unicodeScalars.contains(chars[start - 1]) { negative = true; start -= 1 }
                break
            }
            // A letter right before the number that is not a currency's: part of a word (`v2`, `A4`);
            // a letter right after it that is not a scale or a currency: the same (`$1x`, `4K60`).
            if currency == nil, isWordChar(first - 1) { continue }
            if currency != nil, chars.indices.contains(last), chars[last].properties.isAlphabetic { continue }
            if currency == nil {
                // A symbol, code or name just after (one space allowed), ending at a word boundary.
                var k = last
                if isSpace(k) { k += 1 }
                for length in stride(from: min(t.longestSymbol, chars.count - k), through: 1, by: -1) {
                    let candidate = string(k..<(k + length))
                    guard let code = t.symbols[candidate] ?? (t.codes.contains(candidate) ? candidate : nil) else { continue }
                    let isLetters = candidate.unicodeScalars.last?.properties.isAlphabetic ?? false
                    if isLetters && isWordChar(k + length) { continue }
                    // `4334 CVE-2024`: a code followed by a dash and more is a name's start.
                    if isLetters, chars.indices.contains(k + length), chars[k + length] == "-" { break }
                    if needsMoneyLikeAmount(candidate, glued: k == last), !looksLikeMoney(match[2]) { break }
                    currency = code
                    end = k + length
                    break
                }
                if currency == nil, let (code, wordsEnd) = currencyName(in: chars, at: k, tables: t, scale: scale) {
                    currency = code
                    end = wordsEnd
                }
            }
            guard let currency else {
                // `€10–20`: the currency written before the first end of a range is the second's too.
                if let p = prefixed, isRangeJoint(p.end..<first), !negative, let low = amount(p.entity.normalized),
                   let normalized = normalizedAmount(match[2] ?? "", currency: p.currency, scale: scale), let high = amount(normalized), low < high {
                    found.append(Entity(type: .money, value: string(first..<last), normalized: normalized + " " + p.currency,
                                        start: offsets[first], end: offsets[last]))
                }
                bare = (first..<last, match[2] ?? "", scale)
                prefixed = nil
                continue
            }
            guard !found.contains(where: { $0.start < offsets[end] && offsets[start] < $0.end }),
                  let normalized = normalizedAmount(match[2] ?? "", currency: currency, scale: scale) else { continue }
            // `26 to 50 €`: the currency written after the second end of a range is the first's too.
            if let b = bare, isRangeJoint(b.range.upperBound..<start), !negative,
               let low = normalizedAmount(b.amount, currency: currency, scale: b.scale ?? scale), let l = amount(low), let h = amount(normalized), l < h {
                found.append(Entity(type: .money, value: string(b.range), normalized: low + " " + currency,
                                    start: offsets[b.range.lowerBound], end: offsets[b.range.upperBound]))
            }
            bare = nil
            let entity = Entity(type: .money, value: string(start..<end), normalized: (negative ? "-" : "") + normalized + " " + currency,
                                start: offsets[start], end: offsets[end])
            found.append(entity)
            prefixed = start < first ? (entity, currency, end) : nil
        }
        return found.sorted { $0.start < $1.start }
    }

    /// Letters alone (`AMD`, `DT`, `SR`) name a currency only next to an amount that looks like
    /// money (decimals or thousands groups) when they are glued to it (`AMD64`, `CRC32`,
    /// `DA9063` are names of things) or are a two-letter symbol nobody prefers (`5 KM`, `1 DT`).
    static func needsMoneyLikeAmount(_ symbol: String, glued: Bool) -> Bool {
        guard symbol.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || $0 == "." || $0 == "/" }),
              symbol.unicodeScalars.contains(where: { $0.properties.isAlphabetic }) else { return false }
        return glued || (symbol.count <= 2 && preferred[symbol] == nil) || computingWords.contains(symbol)
    }
    /// Two decimals (`24,00`, `1.50`) or thousands groups (`1,500`, `9 472`): not `4.1` or `8`.
    static func looksLikeMoney(_ amount: String?) -> Bool {
        guard let amount else { return false }
        let marks = amount.filter { $0 == "." || $0 == "," || $0 == "\u{00A0}" || $0 == "\u{202F}" || $0 == "'" || $0 == " " }
        guard let lastMark = amount.lastIndex(where: { marks.contains($0) }) else { return false }
        let after = amount[amount.index(after: lastMark)...].count
        return after == 2 || after == 3
    }

    /// An English currency name of one to three words at `index` (`euros`, `Finnish markka`,
    /// `US dollars`): its code and where it ends. "pounds" alone needs a scale or "sterling".
    static func currencyName(in chars: [Unicode.Scalar], at index: Int, tables t: Tables, scale: String?) -> (String, Int)? {
        var words: [Range<Int>] = []
        var i = index
        while words.count < t.longestName, i < chars.count, chars[i].properties.isAlphabetic {
            let start = i
            while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "." { i += 1 }
            words.append(start..<i)
            guard i < chars.count, chars[i] == " " else { break }
            i += 1
        }
        for count in stride(from: words.count, through: 1, by: -1) {
            let range = words[0].lowerBound..<words[count - 1].upperBound
            var phrase = String(String.UnicodeScalarView(chars[range])).lowercased()
            var end = range.upperBound
            if phrase.hasSuffix(".") { phrase.removeLast(); end -= 1 }
            guard let singular = [phrase, String(phrase.dropLast()), String(phrase.dropLast(2))].first(where: { t.names[$0] != nil }),
                  let code = t.names[singular] else { continue }
            if singular == "pound", scale == nil {
                // "5 pounds" is as likely a weight.
                let rest = String(String.UnicodeScalarView(chars[end..<min(chars.count, end + 9)])).lowercased()
                guard rest.hasPrefix(" sterling") else { return nil }
                end += 9
            }
            return (code, end)
        }
        return nil
    }

    static func multiplier(_ scale: String?) -> Decimal? {
        guard let scale else { return nil }
        switch scale {
        case "k", "K": return 1_000
        case "m", "M", "mn": return 1_000_000
        case "b", "B", "bn": return 1_000_000_000
        case "T", "tn": return 1_000_000_000_000
        default: break
        }
        switch scale.lowercased() {
        case "thousand": return 1_000
        case "million", "mn": return 1_000_000
        case "billion", "bn": return 1_000_000_000
        case "trillion", "tn": return 1_000_000_000_000
        case "lakh", "lakhs": return 100_000
        case "crore", "crores": return 10_000_000
        default: return nil
        }
    }

    /// `1.234,50` → `1234.50`; `1,00,000` → `100000.00`; `306,895` (JPY) → `306895`; `2.174`
    /// with a scale (`$2.174T`) → 2.174 × 10¹².
    ///
    /// The last `.` or `,` is the decimal mark when other than three digits follow it, when it
    /// differs from the marks before it, or when it is the only mark, a dot, before a scale word
    /// or in a three-decimal currency (`KWD 1.250`); every other mark groups thousands.
    static func normalizedAmount(_ written: String, currency: String, scale: String? = nil) -> String? {
        let kept = written.filter { $0.isNumber || $0 == "." || $0 == "," }
        var integer = kept, fraction = ""
        let marks = kept.filter { $0 == "." || $0 == "," }
        if let mark = kept.lastIndex(where: { $0 == "." || $0 == "," }) {
            let after = kept[kept.index(after: mark)...]
            // A mark unlike the ones before it (`123,456.789`), or with other than three digits
            // after it, is the decimal mark: thousands groups have three.
            let mixed = marks.count > 1 && marks.dropLast().allSatisfy { $0 != kept[mark] }
            let onlyDot = marks.count == 1 && kept[mark] == "."
            if after.count != 3 || mixed || (onlyDot && (scale != nil || thousandths.contains(currency))) {
                integer = String(kept[..<mark])
                fraction = String(after)
            }
        }
        integer = integer.filter(\.isNumber)
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        integer = String(integer.drop(while: { $0 == "0" }))
        if integer.isEmpty { integer = "0" }
        let minorDigits = wholeUnits.contains(currency) ? 0 : thousandths.contains(currency) ? 3 : 2
        if let factor = multiplier(scale) {
            guard let value = Decimal(string: integer + "." + (fraction.isEmpty ? "0" : fraction)) else { return nil }
            var scaled = value * factor, rounded = Decimal()
            NSDecimalRound(&rounded, &scaled, minorDigits, .plain)
            return format(rounded, minorDigits: minorDigits)
        }
        if minorDigits == 0 { return integer }
        return integer + "." + (fraction + "000").prefix(minorDigits)
    }

    static func format(_ value: Decimal, minorDigits: Int) -> String {
        let plain = NSDecimalNumber(decimal: value).stringValue
        guard minorDigits > 0 else { return plain.split(separator: ".").first.map(String.init) ?? plain }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        return String(parts[0]) + "." + (fraction + "000").prefix(minorDigits)
    }
}
