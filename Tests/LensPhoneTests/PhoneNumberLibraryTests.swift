import LensCore
@testable import LensPhone
import Testing

struct PhoneNumberLibraryTests {
    let library = PhoneNumberLibrary()

    /// Forms from the corpus generator: national, international, dashed, dotted, parenthesised, `(0)`.
    @Test(arguments: [
        ("Call (415) 555-0132 today", "US", "(415) 555-0132", "+14155550132"),
        ("Call +1 415-555-0132 today", "US", "+1 415-555-0132", "+14155550132"),
        ("Call 415.555.0132 today", "US", "415.555.0132", "+14155550132"),
        ("Ring +44 (0)20 7946 0018 now", "US", "+44 (0)20 7946 0018", "+442079460018"),
        ("Ring 020 7946 0018 now", "GB", "020 7946 0018", "+442079460018"),
        ("Tel. 089 6410349", "DE", "089 6410349", "+49896410349"),
        ("Tél : 06 15 95 05 01", "FR", "06 15 95 05 01", "+33615950501"),
        ("WhatsApp +91-95443-34129", "US", "+91-95443-34129", "+919544334129"),
    ])
    func numbersAreFoundAndNormalized(text: String, region: String, shown: String, e164: String) throws {
        let found = library.phoneNumbers(in: text, region: region)
        let number = try #require(found.first, "nothing found in \(text)")
        #expect(found.count == 1)
        #expect(number.e164 == e164)
        let utf8 = Array(text.utf8)
        #expect(String(decoding: utf8[number.start..<number.end], as: UTF8.self) == shown)
    }

    @Test func extensionsAreKept() throws {
        let number = try #require(library.phoneNumbers(in: "Desk: (415) 555-0132 ext. 204", region: "US").first)
        #expect(number.e164 == "+14155550132")
        #expect(number.extensionNumber == "204")
        #expect(number.region == "US")
    }

    @Test func offsetsAreUTF8BytesAfterAccentedText() throws {
        let text = "Crème brûlée — appelez le 06 15 95 05 01"
        let number = try #require(library.phoneNumbers(in: text, region: "FR").first)
        #expect(String(decoding: Array(text.utf8)[number.start..<number.end], as: UTF8.self) == "06 15 95 05 01")
    }

    @Test func manyNumbersAreAllReturned() {
        let text = (0..<40).map { "line \($0): (415) 555-01\(String(format: "%02d", $0))" }.joined(separator: "\n")
        #expect(library.phoneNumbers(in: text, region: "US").count == 40) // more than the first buffer holds
    }

    @Test func nonNumbersAndUnknownRegionsGiveNothing() {
        #expect(library.phoneNumbers(in: "order 4417, total 15.70, version 2.4.1", region: "US").isEmpty)
        #expect(library.phoneNumbers(in: "(415) 555-0132", region: "XX").isEmpty)
        #expect(library.phoneNumbers(in: "", region: "US").isEmpty)
        #expect(library.isSupported(region: "GB") && !library.isSupported(region: "XX"))
    }
}

/// A long text is searched in pieces of whole lines (libphonenumber's matcher costs its text's
/// length for every candidate): no number is lost or moved at a cut.
struct PhoneNumberPiecesTests {
    let library = PhoneNumberLibrary()

    /// Lines of numbers in many forms, some lines longer than a piece.
    static func page(lines: Int) -> (text: String, numbers: [String]) {
        let forms = ["(415) 555-01%02d", "+1 415-555-01%02d", "415.555.01%02d", "+44 20 7946 00%02d", "+49 89 64103%02d"]
        var text = "", numbers: [String] = []
        for line in 0..<lines {
            // Every seventh line is long: many numbers between words, no line break.
            let count = line % 7 == 0 ? 60 : 2
            for index in 0..<count {
                let number = String(format: forms[(line + index) % forms.count], (line * 3 + index) % 100)
                numbers.append(number)
                text += "call \(number) or "
            }
            text += "later\n"
        }
        return (text, numbers)
    }

    @Test func aLongTextGivesTheNumbersItsLinesGive() {
        let (text, numbers) = Self.page(lines: 60)
        #expect(text.utf8.count > 4 * PhoneNumberLibrary.pieceSize)
        let utf8 = Array(text.utf8)
        let found = library.phoneNumbers(in: text, region: "US")
        let shown = found.map { String(decoding: utf8[$0.start..<$0.end], as: UTF8.self) }
        #expect(shown == numbers)
        // And each number as read alone, line by line, with the same E.164 form.
        var alone: [String] = []
        for line in text.split(separator: "\n") { alone += library.phoneNumbers(in: String(line), region: "US").map(\.e164) }
        #expect(found.map(\.e164) == alone)
    }

    @Test func piecesCoverTheTextAndCutNoNumber() {
        let (text, _) = Self.page(lines: 40)
        let utf8 = Array(text.utf8)
        let pieces = PhoneNumberLibrary.pieces(of: utf8)
        #expect(pieces.first?.lowerBound == 0)
        #expect(pieces.last?.upperBound == utf8.count)
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            #expect(a.upperBound == b.lowerBound)
            // After a line break, or at a space with no digit beside it.
            let before = utf8[a.upperBound - 1], after = utf8[b.lowerBound]
            #expect(before == 0x0A || (before == 0x20 && !(0x30...0x39).contains(after)))
        }
        #expect(pieces.allSatisfy { $0.count <= PhoneNumberLibrary.pieceSize })
        // A line with no space at all is still cut, at a character's boundary.
        let glued = Array(String(repeating: "é4", count: 2_000).utf8)
        let cuts = PhoneNumberLibrary.pieces(of: glued)
        #expect(cuts.count > 1)
        #expect(cuts.allSatisfy { glued[$0.lowerBound] & 0xC0 != 0x80 })
    }
}
