import Foundation
@testable import LensCore
import Testing

/// ``ICURegex`` searches with ICU's C API what `NSRegularExpression` (Foundation's copy of ICU)
/// searched before round 155: the same matches and groups, for the options the extractors use.
struct ICURegexTests {
    /// Patterns of the kinds the extractors write: look-behinds, case folding, Unicode properties,
    /// word boundaries, optional groups, anchors, lazy repeats.
    static let patterns = [
        #"(?<![A-Za-z])(?:key|token)(?![a-z])[ \t]*[:=][ \t]*(\S+)(?=\s|$)"#,
        #"(?i)(?<![\p{L}\p{N}])(code|código|код|验证码)[^\d\n]{0,20}?(\d{4,8})(?!\d)"#,
        #"\b([A-Z][a-z]+)(?: ([A-Z]\.))? ([A-Z][a-z]+)\b"#,
        #"(?m)^\s*(password|pwd)\s*=\s*(.*?)\s*$"#,
        #"(?<=\p{Sc})\s?(\d{1,3}(?:[,.]\d{3})*(?:[.,]\d{2})?)|(\d+)(?=\s?€)"#,
        #"[A-Za-z0-9+/]{16,}={0,2}"#,
    ]

    static let texts = [
        "token: ab12cd 😀 key=ef34\nmonkey: no\né token = x99 é",
        "Your código: 123456. Код 4821 — 验证码：805281 and CODE is 99",
        "Ana M. López met John Smith and Émile Zola 😀 at Café Central",
        "  password = hunter2 \npwd=   \nPASSWORD=no\n",
        "Total €1,234.56 and 99 € and $ 1.000,00 £7",
        "AKIAIOSFODNN7EXAMPLE 😀 c2VjcmV0IHNlY3JldCBzZWNyZXQ= ok",
        "",
    ]

    func ranges(_ result: NSTextCheckingResult) -> [NSRange] {
        (0..<result.numberOfRanges).map { result.range(at: $0) }
    }

    @Test(arguments: patterns)
    func findsWhatNSRegularExpressionFinds(pattern: String) throws {
        let ours = try ICURegex(pattern)
        let theirs = try NSRegularExpression(pattern: pattern)
        for string in Self.texts {
            let text = UTF16Text(string)
            #expect(ours.results(in: text, range: text.whole).map(\.ranges) == theirs.matches(in: string, range: text.whole).map(ranges), "\(string)")
            #expect(ours.results(in: text, range: text.whole, first: true).map(\.ranges)
                    == theirs.firstMatch(in: string, range: text.whole).map { [ranges($0)] } ?? [])
            // Every window of every start and length up to 12 units, with and without the bounds
            // options, and anchored at its start.
            for location in stride(from: 0, through: text.length, by: 3) {
                for length in [0, 5, 12] where location + length <= text.length {
                    let range = NSRange(location: location, length: length)
                    for (mine, foundation) in [(ICURegex.Options.transparentBounds, NSRegularExpression.MatchingOptions.withTransparentBounds),
                                               ([.transparentBounds, .withoutAnchoringBounds], [.withTransparentBounds, .withoutAnchoringBounds]),
                                               ([], [])] {
                        #expect(ours.results(in: text, range: range, options: mine).map(\.ranges)
                                == theirs.matches(in: string, options: foundation, range: range).map(ranges), "\(string) \(range)")
                        #expect(ours.results(in: text, range: range, options: mine.union(.anchored), first: true).map(\.ranges)
                                == theirs.firstMatch(in: string, options: foundation.union(.anchored), range: range).map { [ranges($0)] } ?? [],
                                "\(string) \(range)")
                    }
                }
            }
        }
    }

    @Test func foldsCaseWhenAsked() throws {
        let text = UTF16Text("Password: x / PASSWORD: y / pässword")
        #expect(try ICURegex("password", caseInsensitive: true).results(in: text, range: text.whole).count == 2)
        #expect(try ICURegex("password").results(in: text, range: text.whole).isEmpty)
    }

    /// A window of a long text sees ``ICURegex/searchContext`` units around it, no more: a
    /// look-behind further back does not see the text.
    @Test func aWindowSeesItsContextOnly() throws {
        let string = "secret" + String(repeating: " ", count: 300) + "value"
        let text = UTF16Text(string)
        let regex = try ICURegex(#"(?<=secret\s{300})value"#)
        let window = NSRange(location: text.length - 5, length: 5)
        #expect(regex.results(in: text, range: text.whole).count == 1)
        #expect(regex.results(in: text, range: window, options: .transparentBounds).isEmpty)
    }

    @Test func aBadPatternIsAnErrorNamingIt() {
        #expect(throws: ICURegex.Error.self) { try ICURegex("(unclosed") }
        do {
            _ = try ICURegex("[z-a]")
            Issue.record("compiled")
        } catch {
            #expect(error.description.contains("[z-a]"))
        }
    }

    /// UTF-16 offsets map back to UTF-8 offsets across two-, three- and four-byte characters.
    @Test func mapsOffsetsToUTF8() {
        let text = UTF16Text("é€😀a")
        #expect(text.length == 5)
        #expect((0...5).map(text.utf8Offset) == [0, 2, 5, nil, 9, 10])
        #expect(text.utf8Range(NSRange(location: 2, length: 3)) == 5..<10)
        #expect(text.substring(with: NSRange(location: 2, length: 2)) == "😀")
        #expect(UTF16Text("plain").utf8Offset(3) == 3)
    }

    /// One compiled pattern searched from many threads at once gives each search its own matcher.
    @Test func searchesFromManyThreadsAtOnce() async throws {
        let regex = try ICURegex(#"(\d+)-(\w+)"#)
        let texts = (0..<64).map { i in UTF16Text((0..<200).map { "\($0 * i)-w\($0)" }.joined(separator: " ")) }
        let expected = texts.map { text in regex.results(in: text, range: text.whole).map(\.ranges) }
        let found = await withTaskGroup(of: (Int, [[NSRange]]).self) { group in
            for (index, text) in texts.enumerated() {
                group.addTask { (index, regex.results(in: text, range: text.whole).map(\.ranges)) }
            }
            var found = [[[NSRange]]](repeating: [], count: texts.count)
            for await (index, ranges) in group { found[index] = ranges }
            return found
        }
        #expect(found == expected)
        #expect(expected.allSatisfy { $0.count == 200 })
    }
}
