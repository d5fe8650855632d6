import Foundation
import LensCore
import LensStore

/// A search as a person writes it, on the command line or in the page's URL: the query text and
/// filters as strings. One parser for both, so `lens search` and `/api/search` mean the same thing.
public struct SearchForm: Sendable, Equatable {
    public var text: String = ""
    /// A folder, absolute or relative to the working directory.
    public var folder: String?
    /// `YYYY-MM-DD`, `today`, `yesterday`, `7d`, `2w`…
    public var since: String?
    public var until: String?
    public var minimumConfidence: Double?
    public var types: [String] = []
    /// `type:value`, compared by normalized value.
    public var entities: [String] = []
    public var tags: [String] = []
    public var region: String = "US"
    public var limit: Int = 20
    public var offset: Int = 0
    /// The text is being typed: its last word, if unfinished (no space after it), also matches
    /// longer words, so `lumi` finds "Lumière" before the word is complete.
    public var isBeingTyped = false
    /// No OCR-misreading matches and no matches by meaning (`lens search --exact`).
    public var isExact = false
    /// How meaning is used; nil: along with the words, except while the text is being typed
    /// (the words come first and fast; the page asks for meaning once typing pauses) or with
    /// `isExact`. A text starting with `~` asks for meaning only.
    public var meaning: SearchMeaning?

    public init() {}

    /// `text` with `*` after a last word still being typed (two or more letters or digits, not
    /// excluded or an operator); an open phrase is closed as a prefix phrase (`"order num"*`).
    public static func completingLastWord(_ text: String) -> String {
        guard let last = text.last, !last.isWhitespace else { return text }
        // Inside a phrase still open: the phrase's last word is the unfinished one.
        if text.filter({ $0 == "\"" }).count % 2 == 1 {
            return text.hasSuffix("\"") ? text : text + "\"*"
        }
        let start = text.lastIndex(where: \.isWhitespace).map(text.index(after:)) ?? text.startIndex
        let word = text[start...]
        guard word != "OR", !word.hasPrefix("\""), !word.hasPrefix("-"), word.count >= SearchQuery.minimumPrefixLength,
              word.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || $0.properties.numericType != nil }) else { return text }
        return text + "*"
    }

    public var hasFilter: Bool {
        folder != nil || since != nil || until != nil || minimumConfidence != nil || !types.isEmpty || !entities.isEmpty || !tags.isEmpty
    }

    /// The request to run. Every problem is a ``SearchFormError`` whose message says what to change.
    /// Without text and without filters, the whole library is listed, newest first.
    public func request(now: Date = Date(), timeZone: TimeZone = .current, listingWhenEmpty: Bool = false) throws(SearchFormError) -> SearchRequest {
        guard limit >= 1 else { throw SearchFormError("limit must be at least 1") }
        guard offset >= 0 else { throw SearchFormError("offset must be 0 or more") }
        if let minimumConfidence, !(0...100).contains(minimumConfidence) {
            throw SearchFormError("the minimum confidence must be between 0 and 100")
        }
        var parsed: SearchQuery?
        var text = self.text, meaning = self.meaning
        if let tilde = text.firstIndex(where: { !$0.isWhitespace }), text[tilde] == "~" {
            text = String(text[text.index(after: tilde)...])
            meaning = .only
        }
        if isExact && meaning == .only { throw SearchFormError("a search by meaning only cannot also be exact: drop --exact or the meaning") }
        do {
            parsed = try SearchQuery(parsing: isBeingTyped ? Self.completingLastWord(text) : text)
        } catch SearchQuery.ParseError.empty where hasFilter || listingWhenEmpty {
            parsed = nil
        } catch {
            throw SearchFormError(error.description)
        }
        func date(_ text: String?, _ edge: DateBound.Edge) throws(SearchFormError) -> Date? {
            guard let text, !text.isEmpty else { return nil }
            do { return try DateBound.parse(text, edge: edge, now: now, timeZone: timeZone) } catch { throw SearchFormError("\(error)") }
        }
        var entityTypes: [String] = []
        for type in types { entityTypes.append(try Self.entityType(type).rawValue) }
        var entityFilters: [(type: String, normalized: String)] = []
        for entity in entities { entityFilters.append(try entityFilter(entity)) }
        for tag in tags where !LensDatabase.isTag(tag) { throw SearchFormError(AnnotationError.invalidTag(tag).description) }
        var request = SearchRequest(query: parsed, folder: folder.flatMap { $0.isEmpty ? nil : LensLocations.absolute($0) },
                                    since: try date(since, .start), until: try date(until, .end),
                                    minimumConfidence: minimumConfidence, entityTypes: entityTypes,
                                    entities: entityFilters, tags: tags, limit: limit, offset: offset)
        request.allowsFuzzy = !isExact
        request.meaning = meaning ?? (isExact || isBeingTyped ? .off : .alongWords)
        return request
    }

    public static func entityType(_ name: String) throws(SearchFormError) -> EntityType {
        guard let type = EntityType(rawValue: name.lowercased()) else {
            throw SearchFormError("Unknown entity type '\(name)'; the types are \(EntityType.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return type
    }

    /// `phone:(415) 555-0132` → (phone, +14155550132).
    private func entityFilter(_ text: String) throws(SearchFormError) -> (type: String, normalized: String) {
        guard let colon = text.firstIndex(of: ":"), !text[text.index(after: colon)...].isEmpty else {
            throw SearchFormError("--entity wants TYPE:VALUE, e.g. phone:+14155550132, not '\(text)'.")
        }
        let type = try Self.entityType(String(text[..<colon]))
        let value = String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        return (type.rawValue, EntityExtractors.normalized(value, as: type, region: region))
    }
}

/// A search that cannot run as written; the message says why.
public struct SearchFormError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
