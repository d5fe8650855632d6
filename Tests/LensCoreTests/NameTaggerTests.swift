@testable import LensCore
import Testing

struct NameTaggerTests {
    static let sentence = "Met Anna-Lena O'Neill at the café.\nMark"

    static func tokens(_ text: String) -> [NameTagger.Token] {
        let utf8 = Array(text.utf8)
        return NameTagger.tokenize(text).map { range in
            let word = String(decoding: utf8[range], as: UTF8.self)
            let lower = word.lowercased()
            return NameTagger.Token(text: word, lower: lower, shape: NameTagger.shape(word), start: range.lowerBound, end: range.upperBound,
                                    isGiven: GivenNames.census1990.contains(Substring(lower)),
                                    isSurname: Surnames.census1990.contains(Substring(lower)))
        }
    }

    /// The weights mean something only if Swift computes the training script's features: these
    /// lists were printed by `scripts/train-name-model.py`'s `tokenize` and `features`.
    @Test func tokensAndFeaturesAreTheTrainingScripts() {
        let tokens = Self.tokens(Self.sentence)
        let utf8 = Array(Self.sentence.utf8)
        #expect(tokens.map(\.text) == ["Met", "Anna-Lena", "O'Neill", "at", "the", "café", ".", "Mark"])
        #expect(NameTagger.featureNames(tokens, utf8: utf8, at: 1, previousTag: "O") ==
                ["b", "w=anna-lena", "p=met", "n=o'neill", "pp=<s>", "s=Xx-Xx", "ps=Xx", "ns=X'Xx", "suf=ena", "pre=ann", "t=O",
                 "ts=OXx-Xx", "pw=met|Xx-Xx"])
        #expect(NameTagger.featureNames(tokens, utf8: utf8, at: 2, previousTag: "B") ==
                ["b", "w=o'neill", "p=anna-lena", "n=at", "pp=met", "s=X'Xx", "ps=Xx-Xx", "ns=x", "suf=ill", "pre=o'n", "t=B",
                 "ts=BX'Xx", "pw=anna-lena|X'Xx"])
        #expect(NameTagger.featureNames(tokens, utf8: utf8, at: 7, previousTag: "O") ==
                ["b", "w=mark", "p=.", "n=</s>", "pp=café", "s=Xx", "ps=.", "ns=-", "suf=ark", "pre=mar", "t=O", "ts=OXx",
                 "pw=.|Xx", "g", "sn", "first"])
    }

    /// The hashed features the tagger scores are the named ones, in the same order.
    @Test(arguments: [(1, "O"), (2, "B"), (7, "O")] as [(Int, StaticString)])
    func hashedFeaturesAreTheNamedOnes(index: Int, previous: StaticString) {
        let tokens = Self.tokens(Self.sentence)
        let utf8 = Array(Self.sentence.utf8)
        var keys: [UInt64] = []
        NameTagger.features(tokens, utf8: utf8, at: index, previousTag: previous, into: &keys)
        #expect(keys == NameTagger.featureNames(tokens, utf8: utf8, at: index, previousTag: previous.description)
            .map { NameTagger.featureKey(Substring($0)) })
    }

    @Test func theWeightsAreLoaded() {
        // Every line of the generated table is read: an edit that broke the format would leave it empty.
        #expect(NameTagger.weights[NameTagger.featureKey("b")] != nil)
        #expect(NameTagger.weights[NameTagger.featureKey("g")].map { $0[1] > $0[0] } == true, "a census given name leans to B")
    }

    /// Names in running text, where no cue says one follows.
    @Test(arguments: [
        ("Yesterday I met Sarah Connor at the station.", ["Sarah Connor"]),
        ("Great dinner with Barack Obama and Angela Merkel tonight", ["Barack Obama", "Angela Merkel"]),
        ("Thanks to Werner Koch's patch the build works", ["Werner Koch"]),
        ("Catherine O'Neill will present the results", ["Catherine O'Neill"]),
    ])
    func namesInRunningText(text: String, names: [String]) {
        #expect(PersonExtraction.entities(in: text).map(\.value) == names, "\(PersonExtraction.entities(in: text))")
    }

    /// The tagger tags capitalized words only; pieces with particles between them are one name.
    @Test func piecesAroundParticlesAreOneName() {
        let text = "Maarten van der Berg met Anna and Lucía de la Cruz"
        let utf8 = Array(text.utf8)
        func range(_ word: String) -> Range<Int> {
            let r = text.range(of: word)!
            return text.utf8.distance(from: text.startIndex, to: r.lowerBound)..<text.utf8.distance(from: text.startIndex, to: r.upperBound)
        }
        let joined = PersonExtraction.joinedAcrossParticles([range("Maarten"), range("Berg"), range("Anna"), range("Lucía"), range("Cruz")], in: utf8)
        #expect(joined.map { String(decoding: utf8[$0], as: UTF8.self) } == ["Maarten van der Berg", "Anna", "Lucía de la Cruz"])
    }

    @Test(arguments: ["Mark as read\nArchive\nSettings", "The Quarterly Report is due", "Download the app from the App Store",
                      "Phil\n    Blundell"])
    func capitalizedWordsAreNotNamesInRunningText(text: String) {
        #expect(PersonExtraction.entities(in: text).isEmpty, "\(PersonExtraction.entities(in: text))")
    }
}
