import ArgumentParser
import Foundation
import LensApp
import LensCore

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find screenshots by the text in them, best matches first.",
        discussion: """
            Words must all appear; accents and case are ignored, so 'creme' finds 'Crème'. \
            Screenshots whose text is about the query without holding its words come after \
            those that hold them, marked 'by meaning' ('--meaning' or '~query': meaning only; \
            '--exact': words only). \
            "Quoted phrases" match words in order, 'pref*' matches words starting with 'pref', \
            '-word' excludes, 'a OR b' matches either. Fragments of phone numbers and links, such \
            as 555-0132 or example.org/doc, match where they appear. Without a query, the filters \
            alone list screenshots, newest first.

            Examples:
              lens search invoice
              lens search --meaning plane arrival time
              lens search '"order number"' --since 2024-01-01
              lens search 555-0132 --json
              lens search --folder ~/Pictures/Screenshots --since 7d
              lens search --type money --since 30d
              lens search --entity 'phone:(415) 555-0132'
            """)

    @OptionGroup var global: GlobalOptions

    // Unrecognized input is query text, so `lens search report -draft` excludes a word
    // instead of failing as an unknown option; `--typos` are still refused in validate().
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("What to search for.", valueName: "query"))
    var query: [String] = []

    @Option(help: ArgumentHelp("Only screenshots stored under this folder.", valueName: "dir"))
    var folder: String?

    @Option(help: ArgumentHelp("Only screenshots taken on or after this date (YYYY-MM-DD, today, yesterday, 7d, 2w…).", valueName: "date"))
    var since: String?

    @Option(help: ArgumentHelp("Only screenshots taken on or before this date.", valueName: "date"))
    var until: String?

    @Option(help: ArgumentHelp("Only screenshots whose mean OCR confidence (0-100) is at least this; 'lens show --mark-below' shows the uncertain words.", valueName: "n"))
    var minConfidence: Double?

    @Option(name: .customLong("type"), help: ArgumentHelp("Only screenshots with an entity of this type (url, email, phone, person, date, money); repeatable.", valueName: "type"))
    var types: [String] = []

    @Option(name: .customLong("entity"), help: ArgumentHelp("Only screenshots with this entity, compared by normalized value, e.g. phone:+14155550132 or 'phone:(415) 555-0132'; repeatable.", valueName: "type:value"))
    var entities: [String] = []

    @Option(name: .customLong("tag"), help: ArgumentHelp("Only screenshots with this tag (lens tag); repeatable: all must be there.", valueName: "tag"))
    var tags: [String] = []

    @Option(help: ArgumentHelp("The region for --entity phone numbers and dates without a country or order; default: $ENTITY_REGION, else US.", valueName: "cc"))
    var region: String = RegionOption.environmentRegion ?? "US"

    // `.unconditional`: `--limit -1` is a value (refused below), not a missing one.
    @Option(parsing: .unconditional, help: "The most results to show.")
    var limit: Int = 20

    @Flag(help: "Print the results as a JSON array.")
    var json = false

    @Flag(help: "Only the words as written: no matches through OCR misreadings (lnvoice for invoice), none by meaning.")
    var exact = false

    @Flag(help: "By meaning only: the screenshots whose text is about the query, whatever its words (also: a query starting with '~').")
    var meaning = false

    /// The long options `lens search` takes, for "did you mean" (its query takes every other
    /// argument, so the parser cannot suggest them itself).
    static let longOptionNames = ["--folder", "--since", "--until", "--min-confidence", "--type", "--entity", "--tag",
                                  "--region", "--limit", "--json", "--exact", "--meaning", "--db", "--log-level", "--help"]

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        if let minConfidence, !(0...100).contains(minConfidence) {
            throw ValidationError("--min-confidence must be between 0 and 100.")
        }
        if let unknown = query.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
            let options = Self.longOptionNames
            let name = String(unknown.prefix { $0 != "=" })
            if let nearest = Suggestion.nearest(to: name, among: options) {
                throw ValidationError("Unknown option '\(unknown)'. Did you mean '\(nearest)'?")
            }
            throw ValidationError("Unknown option '\(unknown)'. To search for it, quote it inside a phrase: '\"\(unknown)\"'.")
        }
        _ = try makeRequest()
    }

    /// Parses the query and filters; every problem becomes a usage error with a clear message.
    private func makeRequest() throws -> SearchRequest {
        var form = SearchForm()
        form.text = query.joined(separator: " ")
        form.folder = folder
        form.since = since
        form.until = until
        form.minimumConfidence = minConfidence
        form.types = types
        form.entities = entities
        form.tags = tags
        form.region = region
        form.limit = limit
        form.isExact = exact
        if meaning { form.meaning = .only }
        do {
            return try form.request()
        } catch {
            throw ValidationError(error.description)
        }
    }

    static func entityType(_ name: String) throws -> EntityType {
        do { return try SearchForm.entityType(name) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let library = try global.openLibrary()
        let hits = try library.search(try makeRequest())
        if json {
            try printJSON(hits.map(JSONOutput.Hit.init))
            return
        }
        // No screenshot holds the words (some may be about them): first what might help.
        let meaningOnly = meaning || query.first?.hasPrefix("~") == true
        if !meaningOnly && !hits.contains(where: { $0.similarity == nil }) {
            if try explainNoWordMatches(in: library, hasMeaningHits: !hits.isEmpty) { return }
            if !hits.isEmpty { print("No screenshot holds these words; these are about them:") }
        }
        Self.printHits(hits)
    }

    /// What might help when no screenshot holds the words, true when it said all there is to say:
    /// an empty library says how to fill it; a last word that starts words the library holds
    /// shows those matches, as the page does while typing (then the hits by meaning, if any).
    private func explainNoWordMatches(in library: Library, hasMeaningHits: Bool) throws -> Bool {
        if try library.isEmpty() {
            print("The library is empty: 'lens import FOLDER' adds the screenshots in a folder, 'lens watch' keeps adding new ones.")
            return true
        }
        if let last = query.last, let word = SearchQuery.plainWordToComplete(last) {
            var widened = try makeRequest()
            widened.query = try? SearchQuery(parsing: (query.dropLast() + [word + "*"]).joined(separator: " "))
            widened.meaning = .off
            let hits = try library.search(widened)
            if !hits.isEmpty {
                print("No screenshot holds the word '\(word)'; these hold words starting with it ('\(word)*'):")
                Self.printHits(hits)
                return !hasMeaningHits
            }
        }
        if !hasMeaningHits { print("No matches.") }
        return !hasMeaningHits
    }

    static func printHits(_ hits: [SearchHit]) {
        let style = OutputStyle.forStandardOutput()
        let dateFormat = Date.ISO8601FormatStyle(timeZone: .current).year().month().day().dateSeparator(.dash)
        for hit in hits {
            let path = hit.paths.first.map { OutputStyle.visible($0) }
                ?? hit.lastGonePath.map { OutputStyle.visible($0) + " (file gone)" } ?? "(no present path)"
            let meaning = hit.similarity.map { String(format: "  (by meaning, %.2f)", $0) } ?? ""
            let header = "\(hit.id)  \(path)  \(hit.capturedAt.formatted(dateFormat))\(meaning)"
            print(style.isStyled ? "\u{1B}[36m\(header)\u{1B}[0m" : header)
            let field = hit.matchedIn == .text ? "" : hit.matchedIn.rawValue + ": "
            print("    " + field + style.snippet(hit.snippet))
        }
    }
}
