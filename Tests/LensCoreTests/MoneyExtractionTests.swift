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

    /// Scale words, English currency names and plurals, ICU's symbols, negatives.
    @Test(arguments: [
        ("raised $ 75 million in", "$ 75 million", "75000000.00 USD"),
        ("I have €10M in savings", "€10M", "10000000.00 EUR"),
        ("GDP is $2.174T.", "$2.174T", "2174000000000.00 USD"),
        ("costs 50 euros each", "50 euros", "50.00 EUR"),
        ("sold for 420 million Finnish markka", "420 million Finnish markka", "420000000.00 FIM"),
        ("I spent 20 million pounds on this!", "20 million pounds", "20000000.00 GBP"),
        ("paid 12 pounds sterling", "12 pounds sterling", "12.00 GBP"),
        ("a fee of 1,200 rupees", "1,200 rupees", "1200.00 INR"),
        ("Rs. 1,200 only", "Rs. 1,200", "1200.00 INR"),
        ("5 US dollars", "5 US dollars", "5.00 USD"),
        ("3 lakh rupees", "3 lakh rupees", "300000.00 INR"),
        ("24,00 Kč", "24,00 Kč", "24.00 CZK"),
        ("9 472 Ft", "9 472 Ft", "9472.00 HUF"),
        ("cena 419 zł brutto", "419 zł", "419.00 PLN"),
        ("RM 50 voucher", "RM 50", "50.00 MYR"),
        ("EUR24.71 total", "EUR24.71", "24.71 EUR"),
        ("C$1.23 each", "C$1.23", "1.23 CAD"),
        ("12.500 ₫", "12.500 ₫", "12500 VND"),
        ("refund -$5.00 applied", "-$5.00", "-5.00 USD"),
        ("balance $-12.50", "$-12.50", "-12.50 USD"),
        ("DEM 170 000", "DEM 170 000", "170000.00 DEM"),
        ("¥1,500 tea", "¥1,500", "1500 JPY"),
        ("1,000 yen", "1,000 yen", "1000 JPY"),
    ])
    func scalesNamesAndSymbolsAreFound(text: String, shown: String, normalized: String) throws {
        let found = MoneyExtraction.entities(in: text)
        #expect(found.map(\.value) == [shown], "\(found)")
        #expect(found.first?.normalized == normalized)
    }

    @Test(arguments: ["5 pounds of flour", "CVE-2026-12345", "see ALL 5 items", "TOP 10 lists", "BSD-4 clause", "take 2 marks off",
                      "A4 paper", "v2 release", "10 Mbps", "build 5k", "$1x", "100 M rows",
                      "AMD64 build", "CRC32 check", "the DA9063 chip", "S/390 port", "drive 5 KM", "1 DT overlay", "4334 CVE-2024"])
    func wordsAndIdentifiersAreNotMoney(text: String) {
        #expect(MoneyExtraction.entities(in: text).isEmpty, "\(MoneyExtraction.entities(in: text))")
    }

    /// Local words ICU has no symbol for, three-decimal currencies, decimals beyond the minor
    /// unit, groups that must share one mark.
    @Test(arguments: [
        ("цена 5 450 руб. с НДС", "5 450 руб.", "5450.00 RUB"),
        ("1 890 Р", "1 890 Р", "1890.00 RUB"),
        ("2 285,81 грн.", "2 285,81 грн.", "2285.81 UAH"),
        ("145,00 lei", "145,00 lei", "145.00 RON"),
        ("550,00 лв", "550,00 лв", "550.00 BGN"),
        ("3,500円", "3,500円", "3500 JPY"),
        ("12,000원", "12,000원", "12000 KRW"),
        ("123,456.789 OMR", "123,456.789 OMR", "123456.789 OMR"),
        ("KWD 1.250", "KWD 1.250", "1.250 KWD"),
        ("฿ 3.3900", "฿ 3.3900", "3.39 THB"),
    ])
    func localWordsAndDecimalsAreRead(text: String, shown: String, normalized: String) throws {
        let found = MoneyExtraction.entities(in: text)
        #expect(found.map(\.value) == [shown], "\(found)")
        #expect(found.first?.normalized == normalized)
    }

    /// A currency written once for both ends of a range counts for both; a lower second end is
    /// not a range (`50 - $2.00` is a quantity and its price).
    @Test(arguments: [
        ("From 26 to 50 €", ["26.00 EUR", "50.00 EUR"]),
        ("€10–20 per seat", ["10.00 EUR", "20.00 EUR"]),
        ("$5 - 10 a month", ["5.00 USD", "10.00 USD"]),
        ("10 - 20 USD", ["10.00 USD", "20.00 USD"]),
        ("50 - $2.00 100 - $2.75", ["2.00 USD", "2.75 USD"]),
        ("pages 30-40 cost $5", ["5.00 USD"]),
        ("$20 - 5 = 15", ["20.00 USD"]),
    ])
    func rangesShareTheirCurrency(text: String, normalized: [String]) {
        #expect(MoneyExtraction.entities(in: text).map(\.normalized) == normalized, "\(MoneyExtraction.entities(in: text))")
    }

    @Test(arguments: ["в 2020 р. було", "page 2.00 100 items", "19 lei-uri", "Model 3 TLS", "zone 5 Рига"])
    func localWordsNeedAnAmountAndAWordEnd(text: String) {
        #expect(MoneyExtraction.entities(in: text).isEmpty, "\(MoneyExtraction.entities(in: text))")
    }
}
