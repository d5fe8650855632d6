import Testing
@testable import LensCore

/// The word lists are data files built into the binary: every word of each is read, no more.
struct WordListTests {
    @Test func theBIP39ListHasItsTwoThousandFortyEightWords() {
        #expect(BIP39.words.count == 2048)
        #expect(BIP39.words.contains("abandon") && BIP39.words.contains("zoo"))
        #expect(BIP39.words.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isLowercase) })
    }

    @Test func theCensusListsAreReadWhole() {
        #expect(GivenNames.census1990.count == 5163)
        #expect(GivenNames.census1990.contains("aaron") && GivenNames.census1990.contains("zulma"))
        #expect(Surnames.census1990.count == 10_000)
        #expect(Surnames.census1990.contains("smith") && Surnames.census1990.contains("brust"))
    }
}
