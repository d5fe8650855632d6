import Foundation
import Testing
@testable import LensCore

/// How OCR's English model reads Greek and Cyrillic letters (`Assets/ocr-lookalikes.tsv`, measured by
/// `Tests/SecretCases/lookalikes.py table`): a cue word's pattern matches the word itself and readings
/// of it taken at other sizes than the table was measured at (`lookalikes.py check`'s), each reading
/// holds one of the word's anchors, and words of other languages with a like shape do not match.
struct OCRLookalikesTests {
    static let heldOutReadings: [(String, String)] = [
        ("пароль", "naponb"), ("пароль", "Naponb"), ("пароль", "Tlapomb"), ("пароль", "NAPOJIb"), ("пароль", "TIAPOJIb"),
        ("пароль", "Napon"), ("пароль", "пароль"), ("пароль", "Пароль"),
        ("κωδικός", "Kwdikdc"), ("κωδικός", "Kw61K6¢"), ("κωδικός", "KwStKdc"), ("κωδικός", "KQAIKOX"), ("κωδικός", "KOQAIKOZ"),
        ("κωδικός", "κωδικός"), ("κωδικός", "Κωδικός"),
        ("είναι", "Eival"), ("είναι", "eivat"), ("είναι", "etvar"),
    ]

    static func matchesWhole(_ pattern: String, _ text: String) -> Bool {
        let regex = try! NSRegularExpression(pattern: "^(?:" + pattern + ")$")
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test func aLettersReadingsAreItsCapitalsAndSmallLettersTogether() {
        let small = OCRLookalikes.readings["п"] ?? [], capital = OCRLookalikes.readings["П"] ?? []
        #expect(small.contains("n") && small.contains("N") && small.contains("Tl"))
        #expect(Set(small) == Set(capital))
        // Greek's final sigma shares its capital with `σ`.
        #expect(OCRLookalikes.readings["ς"]?.contains("Z") == true)
        // Most often first.
        #expect(OCRLookalikes.readings["Κ"]?.first == "K")
    }

    /// A rare reading of one letter is left out (an alignment's slip lets other words match), a rare
    /// digit or symbol is kept (no word has one inside it), and so is a rare letter dropped no more.
    @Test func aRareReadingIsKeptOnlyWhenItIsNoLetter() {
        #expect(OCRLookalikes.readings["δ"]?.contains("8") == true)
        #expect(OCRLookalikes.readings["κ"]?.contains("o") == false)
        #expect(OCRLookalikes.readings["ς"]?.contains(OCRLookalikes.dropped) == false)
        #expect(Self.matchesWhole(OCRLookalikes.pattern(for: "κωδικός"), "Kw8tkdc"))
        #expect(!Self.matchesWhole(OCRLookalikes.pattern(for: "κωδικός"), "koooge"))
    }

    @Test(arguments: heldOutReadings)
    func aReadingMatchesItsWordsPattern(word: String, reading: String) {
        #expect(Self.matchesWhole(OCRLookalikes.pattern(for: word), reading))
    }

    /// (The anchors of the cue words: `είναι` is only tried after one of them.)
    @Test(arguments: heldOutReadings.filter { $0.0 != "είναι" })
    func aReadingHoldsOneOfItsWordsAnchors(word: String, reading: String) {
        let anchors = OCRLookalikes.anchors(for: word)
        #expect(!anchors.isEmpty && anchors.allSatisfy { $0.count >= 3 })
        #expect(anchors.contains { reading.lowercased().contains($0) }, "\(anchors) in \(reading)")
    }

    @Test(arguments: ["Napoleon", "Paroled", "Tapas", "napkin", "Mapo", "Kodak", "Kwik", "Kodiak", "kiosk", "Kinako"])
    func aWordOfAnotherLanguageIsNoReading(of text: String) {
        #expect(!Self.matchesWhole(OCRLookalikes.pattern(for: "пароль"), text))
        #expect(!Self.matchesWhole(OCRLookalikes.pattern(for: "κωδικός"), text))
    }

    @Test func aCharacterOfAnOperatorIsEscaped() {
        #expect(OCRLookalikes.escaped("/I") == "\\/I")
        #expect(OCRLookalikes.escaped("a|(b)") == "a\\|\\(b\\)")
    }
}
