import LensCore
import Testing

struct MoneyExtractionTests {
    /// Forms from the corpus generator and the issue: symbol or code, before or after, decimal
    /// commas, Indian grouping, whole-unit yen.
    @Test(arguments: [
        ("Total $1,234.50 paid", "$1,234.50", "1234.50 USD"),
        ("Summe 1.234,50 € inkl.", "1.234,50 €", "1234.50 EUR"),
        ("Betrag: 1 869,67 €", "1 869,67 €", "1869.67 EUR"),
        ("GBP 353.78 due", "GBP 353.78", "353.78 GBP"),
        ("INR 19,938.18 total", "INR 19,938.18", "19938.18 INR"),
        ("only ₹1,00,000 left", "₹1,00,000", "100000.00 INR"),
        ("Rs. 97,881.20 incl. GST", "Rs. 97,881.20", "97881.20 INR"),
        ("US$ 44.88 shipping", "US$ 44.88", "44.88 USD"),
        ("JPY 306,895 total", "JPY 306,895", "306895 JPY"),
        ("CHF 109.06", "CHF 109.06", "109.06 CHF"),
        ("costs £22.79.", "£22.79", "22.79 GBP"),
        ("172,36 € netto", "172,36 €", "172.36 EUR"),
        ("a €5 voucher", "€5", "5.00 EUR"),
    ])
    func amountsAreFoundAndNormalized(text: String, shown: String, normalized: String) throws {
        let found = MoneyExtraction.entities(in: text)
        #expect(found.count == 1, "\(found)")
        let money = try #require(found.first)
        #expect(money.value == shown)
        #expect(money.normalized == normalized)
        #expect(String(decoding: Array(text.utf8)[money.start..<money.end], as: UTF8.self) == shown)
    }

    @Test(arguments: ["version 2.4.1", "order 4417 shipped", "2 x 12.50", "USD", "call 555-0132", "GBPX 12.00", "ABCUSD 5"])
    func numbersWithoutACurrencyAreNotMoney(text: String) {
        #expect(MoneyExtraction.entities(in: text).isEmpty, "\(MoneyExtraction.entities(in: text))")
    }

    @Test func severalAmountsOnAReceipt() {
        let text = "2 x Crème brûlée $12.50\n1 x Espresso $3.20\nTotal paid $15.70"
        #expect(MoneyExtraction.entities(in: text).map(\.normalized) == ["12.50 USD", "3.20 USD", "15.70 USD"])
    }
}
