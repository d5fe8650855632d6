import Foundation
import LensCore

/// When two entities of two screenshots are the same thing, and how much that connects them.
///
/// Per type, from the corpus's designed groups and hard negatives (`relations.json`):
/// - phone, e-mail: equal normalized values only. One digit off is another number, and
///   `pfernandez@` / `afernandez@` are other people (similarity 0.92–0.96: no threshold separates them).
/// - url: equal once scheme, `www.` and a trailing `/` are set aside (`https://example.org/docs`,
///   `example.org/docs/`, `http://www.example.org/docs`); `.org` / `.com` twins stay apart.
/// - person: folded names (case, diacritics) with similarity ≥ 0.8 (`Jon Smith` / `John Smith` /
///   `Jon Smyth`), or an initial that fits and surnames with similarity ≥ 0.8 (`K. Nowakowska`).
/// Dates and amounts do not connect screenshots: thousands of screenshots share a day or a price.
public enum ConnectionRules {
    /// How strongly a shared entity of each type links two screenshots.
    public static func weight(of type: EntityType) -> Double {
        switch type {
        case .phone, .email: 1.0
        case .url: 0.8
        case .person: 0.9
        case .date, .money: 0
        }
    }

    public static let personSimilarity = 0.8

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
        let wordsA = a.split(separator: " "), wordsB = b.split(separator: " ")
        if let firstA = wordsA.first, let firstB = wordsB.first, isInitial(firstA) || isInitial(firstB) {
            // An initial stands for any given name with that letter: compare the surnames.
            guard wordsA.count >= 2, wordsB.count >= 2, firstA.first == firstB.first else { return nil }
            let surname = EditDistance.similarity(wordsA.dropFirst().joined(separator: " "), wordsB.dropFirst().joined(separator: " "))
            return surname >= personSimilarity ? surname * 0.9 : nil
        }
        let whole = EditDistance.similarity(a, b)
        return whole >= personSimilarity ? whole : nil
    }

    static func isInitial(_ word: Substring) -> Bool { word.count == 2 && word.hasSuffix(".") }
}
