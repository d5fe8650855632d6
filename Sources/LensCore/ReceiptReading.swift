import Foundation

/// The fields of a receipt or invoice, read from its text and the entities found in it.
public struct Receipt: Sendable, Equatable, Codable {
    /// Who issued it: the first line of plain words at the top (the shop's name).
    public var vendor: String?
    /// The amount on the last total line, normalized (`174.82 USD`). When OCR lost the currency
    /// on that line (`USS 175.05`, a dropped `₹`), the receipt's most used currency is assumed,
    /// or the amount stands alone (`21810.70`).
    public var total: String
    /// The first date that is not a due date, in ISO 8601.
    public var date: String?

    public init(vendor: String?, total: String, date: String?) {
        self.vendor = vendor
        self.total = total
        self.date = date
    }
}

/// Recognizes receipts: a text is one when a line says total (`TOTAL`, `Grand total`, `Amount
/// due`, `Balance due`, `Total due`, not `Subtotal`) and holds an amount.
public enum ReceiptReading {
    static let totalLine = TextMatcher(#"(?im)^[ \t]*(?:grand[ \t]+total|total(?:[ \t]+(?:due|paid|amount))?|amount[ \t]+(?:due|paid)|balance[ \t]+due)\b[^\n]*$"#)
    static let bareAmount = TextMatcher(#"\d[\d,.\u00A0 ]*[.,]\d{2}\b"#)
    static let dueLine = TextMatcher(#"(?im)^[^\n]*\b(?:due|pay[ \t]+by|expires?)\b[^\n]*$"#)

    public static func receipt(in text: String, entities: [Entity]) -> Receipt? {
        let amounts = entities.filter { $0.type == .money }
        // The last total line that holds an amount; its last amount.
        guard let line = totalLine.matches(in: text).last else { return nil }
        let total: String
        if let amount = amounts.last(where: { $0.start >= line.start && $0.end <= line.end }) {
            total = amount.normalized
        } else if let number = bareAmount.matches(in: line.text).last {
            var counts: [Substring: Int] = [:]
            for amount in amounts { if let code = amount.normalized.split(separator: " ").last { counts[code, default: 0] += 1 } }
            let currency = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { String($0.key) } ?? ""
            guard let value = MoneyExtraction.normalizedAmount(number.text, currency: currency) else { return nil }
            total = currency.isEmpty ? value : value + " " + currency
        } else {
            return nil
        }

        let dueLines = dueLine.matches(in: text)
        let date = entities.first { entity in
            entity.type == .date && !dueLines.contains { $0.start <= entity.start && entity.end <= $0.end }
        }
        return Receipt(vendor: vendor(in: text, entities: entities), total: total,
                       date: date.map { String($0.normalized.prefix(10)) })
    }

    /// The first of the first three non-empty lines made of words only: no digits, no entity,
    /// not a heading such as `Receipt` or `Invoice`. A line like `Café Lumière — Receipt #4417`
    /// gives its part before the dash.
    static func vendor(in text: String, entities: [Entity]) -> String? {
        var offset = 0, seen = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            defer { offset += line.utf8.count + 1 }
            let head = [" — ", " – ", " - ", " | "].compactMap { line.range(of: $0) }.min { $0.lowerBound < $1.lowerBound }
                .map { line[..<$0.lowerBound] } ?? line
            // Frame edges read as `|` or `[` are not part of the name.
            let trimmed = head.trimmingCharacters(in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "'’&")).inverted)
            guard !trimmed.isEmpty else { continue }
            seen += 1
            if seen > 3 { return nil }
            let end = offset + head.utf8.count
            let lower = trimmed.lowercased()
            guard trimmed.contains(where: \.isLetter), !trimmed.contains(where: \.isNumber),
                  !["receipt", "invoice", "order", "tax invoice"].contains(where: { lower.hasPrefix($0) }),
                  !entities.contains(where: { $0.start < end && offset < $0.end }) else { continue }
            return trimmed
        }
        return nil
    }
}
