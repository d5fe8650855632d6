import Foundation
import LensApp
import LensCore
import Testing

@Suite struct SearchFormTests {
    @Test(arguments: [
        ("lumi", "lumi*"), ("cafe lumi", "cafe lumi*"), ("cafe ", "cafe "), ("l", "l"), ("\"order num", "\"order num\"*"), ("\"order\" num", "\"order\" num*"),
        ("-draft", "-draft"), ("a OR", "a OR"), ("555-01", "555-01"), ("report*", "report*"), ("Crè", "Crè*"), ("", ""),
    ])
    func theLastUnfinishedWordBecomesAPrefix(typed: String, searched: String) {
        #expect(SearchForm.completingLastWord(typed) == searched)
    }

    @Test func anEmptyFormListsTheLibraryOnlyWhenAsked() throws {
        #expect(throws: SearchFormError.self) { try SearchForm().request() }
        #expect(try SearchForm().request(listingWhenEmpty: true).query == nil)
    }

    @Test func filtersAreParsedWithClearMessages() throws {
        var form = SearchForm()
        form.types = ["Phone"]
        form.entities = ["phone:(415) 555-0132"]
        form.since = "2024-01-01"
        let request = try form.request(now: Date(timeIntervalSince1970: 1_800_000_000), timeZone: TimeZone(identifier: "UTC")!)
        #expect(request.entityTypes == ["phone"])
        #expect(request.entities.map(\.normalized) == ["+14155550132"])
        #expect(request.since == Date(timeIntervalSince1970: 1_704_067_200))
        form.types = ["colour"]
        #expect(throws: SearchFormError("Unknown entity type 'colour'; the types are url, email, phone, person, date, money, secret.")) { try form.request() }
        form.types = []
        form.tags = ["two words"]
        #expect(throws: SearchFormError.self) { try form.request() }
    }
}

@Suite struct SnippetMatchTests {
    @Test(arguments: [
        ("a \u{2}cafe\u{3} b", "a [cafe] b", [[3, 7]]),
        ("[x] \u{2}Crème\u{3}\n\n\u{2}brûlée\u{3}", "[x] [Crème] [brûlée]", [[5, 10], [13, 19]]),
        ("\u{2}😀x\u{3}", "[😀x]", [[1, 4]]),
        ("no match", "no match", []),
        // Runs of whitespace (ASCII or not) become one space; control characters are shown escaped.
        ("a\t\u{A0} b\u{7}\u{85}c \u{2}é\u{3}", "a b\\u{7} c [é]", [[12, 13]]),
    ])
    func offsetsAreUTF16InsideTheBrackets(raw: String, snippet: String, matches: [[Int]]) {
        let result = OutputStyle.plainSnippetWithMatches(raw)
        #expect(result.snippet == snippet)
        #expect(result.matches == matches)
    }
}
