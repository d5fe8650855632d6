import Foundation
import LensCore
import Testing

/// A few rules in the list's own format, including a wildcard and an exception.
let testSuffixes = PublicSuffixList(parsing: """
    // comment
    com
    org
    io
    de
    in
    studio
    coffee
    рф
    co.uk
    uk
    py
    toml.example
    *.ck
    !www.ck
    """)

struct PublicSuffixListTests {
    @Test(arguments: [
        ("example.org", true), ("shop.example.co.uk", true), ("co.uk", false), ("uk", false),
        ("settings.toml", false), ("pixelforge.studio", true), ("a.b.ck", true), ("b.ck", false),
        ("www.ck", true), ("EXAMPLE.ORG", true), ("example..org", false),
    ])
    func registrableNames(host: String, expected: Bool) {
        #expect(testSuffixes.isRegistrable(host) == expected)
    }
}

struct WebExtractionTests {
    @Test(arguments: [
        ("see https://example.org/docs.", "https://example.org/docs", "https://example.org/docs"),
        ("(HTTPS://Example.ORG/a?b=1#frag)", "HTTPS://Example.ORG/a?b=1#frag", "https://example.org/a?b=1#frag"),
        ("go to www.example.com/wiki/Release_Process - ping", "www.example.com/wiki/Release_Process", "https://www.example.com/wiki/Release_Process"),
        ("bare example.org/docs/ here", "example.org/docs/", "https://example.org/docs/"),
        ("at pixelforge.studio/events/meetup-berlin,", "pixelforge.studio/events/meetup-berlin", "https://pixelforge.studio/events/meetup-berlin"),
        ("wiki (https://en.example.org/wiki/Foo_(bar)) end", "https://en.example.org/wiki/Foo_(bar)", "https://en.example.org/wiki/Foo_(bar)"),
        ("http://blueheron.coffee/en/guide:", "http://blueheron.coffee/en/guide", "http://blueheron.coffee/en/guide"),
        ("visit example.org!", "example.org", "https://example.org"),
    ])
    func urlsAreFoundTrimmedAndNormalized(text: String, shown: String, normalized: String) throws {
        let found = WebExtraction.urls(in: text, suffixes: testSuffixes)
        #expect(found.count == 1, "\(found)")
        let url = try #require(found.first)
        #expect(url.value == shown)
        #expect(url.normalized == normalized)
        #expect(String(decoding: Array(text.utf8)[url.start..<url.end], as: UTF8.self) == shown)
    }

    /// A narrow bubble breaks a URL after `-` or `/`; the next line goes on with it unless it
    /// starts like text (a capital) or there is no break at all.
    @Test(arguments: [
        ("Moved the doc to www.lumen-\noptics.de/events/meetup-berlin - ping", "https://www.lumen-optics.de/events/meetup-berlin"),
        ("details at pixelforge.studio/events/meetup-\nberlin\nhaha", "https://pixelforge.studio/events/meetup-berlin"),
        ("https://example.org/help/\nreset-password, thanks", "https://example.org/help/reset-password"),
        ("Track it at http://blueheron.coffee/en/guide/getting-\nOlusegun Nair", "http://blueheron.coffee/en/guide/getting-"),
        ("see example.org/a-\n\nnext paragraph", "https://example.org/a-"),
    ])
    func urlsBrokenAcrossLinesAreJoined(text: String, normalized: String) throws {
        let found = WebExtraction.urls(in: text, suffixes: testSuffixes)
        #expect(found.map(\.normalized) == [normalized])
        let url = try #require(found.first)
        #expect(String(decoding: Array(text.utf8)[url.start..<url.end], as: UTF8.self).replacingOccurrences(of: "\n", with: "") == url.value)
    }

    @Test(arguments: ["edit settings.toml now", "run build.py", "version 2.4.1", "co.uk alone", "file.txt", "a.b", "3.14",
                      "http://-example.com", "_http://example.com", "example.com:500000", "http://example.com:99999/",
                      "release 1.2.3.4 out", "///example.com", "конец.Начало", "retry https://riverstone. legal/p/1", "https://quillfeatherio/changelog"])
    func namesUnderNoRealSuffixAreNotURLs(text: String) {
        #expect(WebExtraction.urls(in: text, suffixes: testSuffixes).isEmpty, "\(WebExtraction.urls(in: text, suffixes: testSuffixes))")
    }

    @Test func emailsAreLowerCasedAndNotURLs() {
        let text = "Write to Priya.Nair@Fabrikam.io or https://user@example.org/login."
        let extractor = EntityExtractor(suffixes: testSuffixes)
        let found = extractor.entities(in: text)
        #expect(found.map(\.type) == [.email, .url])
        #expect(found.first?.normalized == "priya.nair@fabrikam.io")
        #expect(found.last?.value == "https://user@example.org/login")
    }

    @Test func theExtractorKeepsReadingOrderAndNeverOverlaps() {
        let text = "Mar 5, 2024: paid $15.70 to billing@cafe-lumiere.example, receipt at example.org/r/4417"
        let found = EntityExtractor(suffixes: testSuffixes).entities(in: text)
        #expect(found.map(\.type) == [.date, .money, .email, .url], "\(found)")
        for (a, b) in zip(found, found.dropFirst()) { #expect(a.end <= b.start) }
    }

    /// Where an address ends: characters RFC 3986 never allows unencoded, and a closing bracket
    /// that has no opening one inside the address.
    @Test(arguments: [
        ("xx[http://example.org/status/200](http://example.org/status/210)trololo", ["http://example.org/status/200", "http://example.org/status/210"]),
        ("[markdown](https://example.com/)\n![Img](https://example.com/a.jpg)", ["https://example.com/", "https://example.com/a.jpg"]),
        ("[http://example.com|Example]", ["http://example.com"]),
        ("asd(example.org/bracketext)asd", ["example.org/bracketext"]),
        ("see https://en.wikipedia.org/wiki/Bracket_(disambiguation) now", ["https://en.wikipedia.org/wiki/Bracket_(disambiguation)"]),
        ("Local development url http://localhost:8000/", ["http://localhost:8000/"]),
        ("{\\url{http://www.example.com/file.pdf}}", ["http://www.example.com/file.pdf"]),
        ("http://example.com/blah_[other] ok", ["http://example.com/blah_[other]"]),
        ("｜www.example.com/foo｜bar", ["www.example.com/foo"]),
        ("見てhttps://example.com/a。ありがとう", ["https://example.com/a"]),
        ("My ssl //example.com site", ["//example.com"]),
        ("http://nas:5000/photos and http://intranet/", ["http://nas:5000/photos", "http://intranet/"]),
        ("router at 192.168.1.1/admin or 10.0.0.7:8080", ["192.168.1.1/admin", "10.0.0.7:8080"]),
        ("президент.рф и www.bürgerentscheid.de", ["президент.рф", "www.bürgerentscheid.de"]),
    ])
    func urlsEndWhereAddressesEnd(text: String, values: [String]) {
        #expect(WebExtraction.urls(in: text, suffixes: testSuffixes).map(\.value) == values)
    }

    @Test(arguments: [
        ("mail first.last+tag@example.org now", ["first.last+tag@example.org"]),
        ("Ask o'neil@example.com", ["o'neil@example.com"]),
        ("MAIL_FROM=jose@example.de", ["jose@example.de"]),
        ("राम@मोहन.ईन्फो", ["राम@मोहन.ईन्फो"]),
        ("twodots..here@example.com", []),
        (".lead@example.com", []),
        ("trail.@example.com", []),
        (String(repeating: "a", count: 65) + "@example.com", []),
    ])
    func emailsFollowTheRFCsAsWritten(text: String, values: [String]) {
        #expect(WebExtraction.emails(in: text).map(\.value) == values, "\(WebExtraction.emails(in: text))")
    }
}
