import Foundation
import LensCore

/// When two entities of two screenshots are the same thing, and how much that connects them.
///
/// Per type, from the corpus's designed groups and hard negatives (`relations.json`):
/// - phone, e-mail: equal normalized values only. One digit off is another number, and
///   `pfernandez@` / `afernandez@` are other people (similarity 0.92–0.96: no threshold separates them).
/// - url: equal once scheme, `www.` and a trailing `/` are set aside (`https://example.org/docs`,
///   `example.org/docs/`, `http://www.example.org/docs`); `.org` / `.com` twins stay apart.
/// - person: folded names (case, diacritics) whose given names begin with the same letter and
///   whose surnames (all after the first word) have similarity ≥ 0.8; then the given names must
///   have ≥ 0.7 and the whole names ≥ 0.8 too (`Jon Smith` / `John Smith` / `Jon Smyth`, but not
///   `Aarav Gupta` / `Amara Gupta`), unless one given name is an initial
///   (`K. Nowakowska`). One-word names are compared whole, with one-word names only. The first
///   letter and the surname are what let `EntityIndex` find candidates among 100,000s of names
///   (they favour precision too: `Jon Smith` / `Don Smith` is 0.89 whole, yet two people).
/// Dates and amounts do not connect screenshots: thousands of screenshots share a day or a price;
/// masked secrets neither (their kinds are all they keep).
public enum ConnectionRules {
    /// How strongly a shared entity of each type links two screenshots.
    public static func weight(of type: EntityType) -> Double {
        switch type {
        case .phone, .email: 1.0
        case .url: 0.8
        case .person: 0.9
        case .date, .money, .secret: 0
        }
    }

    public static let personSimilarity = 0.8
    /// Given names of one person written two ways: `Jon` / `John` 0.75, `Mohammed` / `Muhammad` 0.75.
    public static let givenNameSimilarity = 0.7

    /// The types that connect screenshots.
    public static let linkingTypes: [EntityType] = [.person, .email, .phone, .url]

    /// The form entities are compared in.
    public static func key(_ normalized: String, type: EntityType) -> String {
        switch type {
        case .url:
            var rest = Substring(normalized)
            if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
            var host = rest.prefix { !"/?#".contains($0) }.lowercased()
            var path = String(rest.dropFirst(host.count))
            if host.hasPrefix("www.") { host.removeFirst(4) }
            while path.hasSuffix("/") { path.removeLast() }
            return host + path
        case .person:
            return normalized.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        default:
            return normalized
        }
    }

    /// How similar two keys of `type` are, in 0...1, or `nil` when they are not the same thing.
    public static func similarity(_ a: String, _ b: String, type: EntityType) -> Double? {
        if a == b { return 1 }
        guard type == .person else { return nil }
        return similarity(PersonName(a), PersonName(b))
    }

    /// The person rule on names already split (see the type's documentation).
    static func similarity(_ a: PersonName, _ b: PersonName) -> Double? {
        if a.whole == b.whole { return 1 }
        guard a.letter == b.letter else { return nil }
        switch (a.surname, b.surname) {
        case let (surnameA?, surnameB?):
            guard let surname = EditDistance.similarity(surnameA, surnameB, atLeast: personSimilarity) else { return nil }
            if a.hasInitial || b.hasInitial { return surname * 0.9 }
            // A long shared surname must not carry two different given names: `Aarav Gupta` and
            // `Amara Gupta` are 0.82 alike whole, but their given names only 0.6.
            guard EditDistance.similarity(a.given, b.given, atLeast: givenNameSimilarity) != nil else { return nil }
            return EditDistance.similarity(a.whole, b.whole, atLeast: personSimilarity)
        case (nil, nil):
            return EditDistance.similarity(a.whole, b.whole, atLeast: personSimilarity)
        default:
            return nil
        }
    }

    /// The most edits two strings may differ by and still be `personSimilarity` alike, when the
    /// longer has `length` scalars.
    static func personEdits(_ length: Int) -> Int {
        Int((1 - personSimilarity) * Double(length) + 1e-6)
    }
}

/// A person key (folded, single-spaced) as the person rule reads it.
struct PersonName: Sendable {
    var whole: [Unicode.Scalar]
    /// The first word.
    var given: [Unicode.Scalar]
    /// All after the first word, for names of two or more words.
    var surname: [Unicode.Scalar]?
    var letter: Unicode.Scalar?
    /// The first word is an initial (`k.`).
    var hasInitial: Bool

    init(_ key: String) {
        let scalars = Array(key.unicodeScalars)
        let space = scalars.firstIndex(of: " ")
        whole = scalars
        given = Array(scalars[..<(space ?? scalars.endIndex)])
        surname = space.map { Array(scalars[($0 + 1)...]) }
        letter = scalars.first
        hasInitial = space == 2 && scalars[1] == "."
    }
}
