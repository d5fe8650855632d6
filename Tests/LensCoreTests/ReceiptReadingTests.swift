import LensCore
import Testing

struct ReceiptReadingTests {
    static let extractor = EntityExtractor(region: "US", suffixes: PublicSuffixList(parsing: "com\norg\n"))

    @Test(arguments: [
        ("Harbor Freightways\n146 MG Road, Austin TX 78701\nReceipt #209339 09/23/2025\n2 x Flat white USD 99.39\nSubtotal USD 161.87\nTax 8% USD 12.95\nTOTAL USD 174.82\nThank you for your visit!",
         Receipt(vendor: "Harbor Freightways", total: "174.82 USD", date: "2025-09-23")),
        ("INVOICE\nCopperpot Diner\nDate: 2025-02-14 14:18\nSubtotal US$ 162.08\nTOTAL US$ 175.05\nDue date: 2024-12-20 13:52",
         Receipt(vendor: "Copperpot Diner", total: "175.05 USD", date: "2025-02-14")),
        ("Café Lumière — Receipt #4417\n2 x Crème brûlée $12.50\nTotal paid $15.70\nQuestions? Call (415) 555-0132",
         Receipt(vendor: "Café Lumière", total: "15.70 USD", date: nil)),
        ("Due date: 2024-08-22\nAmount due: 1.234,50 €", Receipt(vendor: nil, total: "1234.50 EUR", date: nil)),
        ("Café Lumière\nGrand total £12.40\n12 March 2024", Receipt(vendor: "Café Lumière", total: "12.40 GBP", date: "2024-03-12")),
        // As OCR reads them: a frame edge before the name, a currency lost on the total line.
        ("| Fabrikam Labs\nTea US$ 10.00\nTOTAL USS 175.05", Receipt(vendor: "Fabrikam Labs", total: "175.05 USD", date: nil)),
        ("Harbor Freightways\nSubtotal 20,195.09\nTOTAL 21,810.70", Receipt(vendor: "Harbor Freightways", total: "21810.70", date: nil)),
    ])
    func receiptsGiveVendorTotalAndDate(text: String, expected: Receipt) {
        #expect(ReceiptReading.receipt(in: text, entities: Self.extractor.entities(in: text)) == expected)
    }

    /// A subtotal alone, an amount in a chat, or a total line without an amount is no receipt.
    @Test(arguments: [
        "Subtotal USD 161.87\nTax USD 12.95", "Lunch came to CHF 2,070.98, I paid. No rush.", "Total\nitems: 3",
        "the total was fine, we paid $20 each",
    ])
    func otherTextsAreNoReceipts(text: String) {
        #expect(ReceiptReading.receipt(in: text, entities: Self.extractor.entities(in: text)) == nil)
    }
}
