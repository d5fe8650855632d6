import Foundation

/// Finds amounts of money with a currency symbol or ISO 4217 code before or after them
/// (`$1,234.50`, `1.234,50 €`, `GBP 353.78`, `₹1,00,000`, `JPY 306,895`) and normalizes them
/// to `<amount> <ISO 4217>`: two decimals, none for currencies without minor units (JPY).
public enum MoneyExtraction {
    /// Symbols and prefixes that stand for one currency. Longer prefixes come first in the pattern.
    static let symbols: [String: String] = [
        "US$": "USD", "CA$": "CAD", "AU$": "AUD", "A$": "AUD", "NZ$": "NZD", "HK$": "HKD", "S$": "SGD",
        "R$": "BRL", "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "Rs.": "INR", "Rs": "INR",
        "Fr.": "CHF", "zł": "PLN", "kr": "SEK",
    ]
    /// ISO 4217 codes accepted as written.
    static let codes = ["USD", "EUR", "GBP", "INR", "JPY", "CHF", "CAD", "AUD", "NZD", "CNY", "HKD", "SGD",
                        "SEK", "NOK", "DKK", "PLN", "CZK", "BRL", "MXN", "ZAR", "KRW", "TRY", "RUB", "ILS", "AED"]
    /// Currencies written without minor units.
    static let wholeUnits: Set<String> = ["JPY", "KRW"]

    /// Digits with thousands groups (`,` `.` space, thin space, apostrophe; Indian 2-digit groups)
    /// and an optional 1–2 digit decimal part, or plain digits with one.
    static let amount = #"\d{1,3}(?:[,.\u00A0\u202F' ]\d{2,3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?"#

    static let matcher: TextMatcher = {
        let escaped = symbols.keys.sorted { $0.count > $1.count }.map(NSRegularExpression.escapedPattern(for:))
        let currency = (escaped + codes).joined(separator: "|")
        let pattern = #"(?<![\p{L}\p{N}.,])(?:("# + currency + #")\s?("# + amount + #")|("# + amount + #")\s?("# + currency + #"))(?![\p{L}\p{N}])"#
        return TextMatcher(pattern)
    }()

    public static func entities(in text: String) -> [Entity] {
        matcher.matches(in: text).compactMap { match in
            guard let (sign, digits) = match[1].map({ ($0, match[2]) }) ?? match[4].map({ ($0, match[3]) }),
                  let digits, let currency = symbols[sign] ?? (codes.contains(sign) ? sign : nil),
                  let normalized = normalizedAmount(digits, currency: currency) else { return nil }
            return Entity(type: .money, value: match.text, normalized: normalized + " " + currency,
                          start: match.start, end: match.end)
        }
    }

    /// `1.234,50` → `1234.50`; `1,00,000` → `100000.00`; `306,895` (JPY) → `306895`.
    ///
    /// The last `.` or `,` is the decimal mark when 1–2 digits follow it; every other mark groups thousands.
    static func normalizedAmount(_ written: String, currency: String) -> String? {
        let kept = written.filter { $0.isNumber || $0 == "." || $0 == "," }
        var integer = kept, fraction = ""
        if let mark = kept.lastIndex(where: { $0 == "." || $0 == "," }) {
            let after = kept[kept.index(after: mark)...]
            if (1...2).contains(after.count) {
                integer = String(kept[..<mark])
                fraction = String(after)
            }
        }
        integer = integer.filter(\.isNumber)
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        integer = String(integer.drop(while: { $0 == "0" }))
        if integer.isEmpty { integer = "0" }
        if wholeUnits.contains(currency) { return integer }
        return integer + "." + (fraction + "00").prefix(2)
    }
}
