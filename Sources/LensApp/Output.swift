import Foundation
import LensCore
import LensStore

/// How results are written: styled for a person at a terminal, plain for pipes.
public struct OutputStyle: Sendable {
    /// Bold highlights and colors (a TTY, and `NO_COLOR` unset).
    public var isStyled: Bool

    public static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> OutputStyle {
        OutputStyle(isStyled: isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil)
    }

    public init(isStyled: Bool) { self.isStyled = isStyled }

    /// A snippet on one line, matches in bold (TTY) or `[…]` (otherwise), control characters made visible.
    public func snippet(_ raw: String) -> String {
        var out = ""
        for ch in raw {
            switch ch {
            case SearchHit.matchStart: out += isStyled ? "\u{1B}[1m" : "["
            case SearchHit.matchEnd: out += isStyled ? "\u{1B}[0m" : "]"
            case "\n", "\r", "\t": out += " "
            default: out += Self.visible(String(ch))
            }
        }
        return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `text` with control characters shown as escapes, so OCR text or file names cannot move the cursor.
    /// Line breaks are escaped too (`\u{A}`), so a file name cannot forge a line of output or of
    /// the log, unless `keepingLineBreaks` (for a screenshot's text, printed as lines).
    public static func visible(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control && !(keepingLineBreaks && scalar == "\n") {
                out += String(format: "\\u{%X}", scalar.value)
            } else if SystemPath.isEscaped(String(scalar)) {
                out += SystemPath.visible(String(scalar)) // a byte of a file name that is not UTF-8: \xE9
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The snippet for JSON: matches marked with `[` and `]`.
    public static func plainSnippet(_ raw: String) -> String {
        plainSnippetWithMatches(raw).snippet
    }

    /// The JSON snippet, and where its matches are: `[start, end)` in UTF-16 code units (as
    /// JavaScript indexes strings), inside the `[` and `]` that mark them. Brackets that were in
    /// the text itself are not matches, so a page can tell them apart.
    public static func plainSnippetWithMatches(_ raw: String) -> (snippet: String, matches: [[Int]]) {
        // By scalar, not by Character, and ASCII without Unicode property lookups: a String per
        // character and two lookups per scalar made this 1 ms for the 60 hits of a page.
        // (Character.isWhitespace is its first scalar's, so the result is the same.)
        let open = SearchHit.matchStart.unicodeScalars.first!, close = SearchHit.matchEnd.unicodeScalars.first!
        var out = String.UnicodeScalarView(), length = 0, matches: [[Int]] = [], start: Int?, pendingSpace = false
        func append(_ scalar: Unicode.Scalar) {
            out.append(scalar)
            length += UTF16.width(scalar)
        }
        for scalar in raw.unicodeScalars {
            switch scalar {
            case open:
                if pendingSpace && !out.isEmpty { append(" ") }
                pendingSpace = false
                append("[")
                start = length
            case close:
                if let begin = start { matches.append([begin, length]) }
                start = nil
                append("]")
            case _ where scalar.isASCII ? (0x09...0x0D).contains(scalar.value) || scalar == " " : scalar.properties.isWhitespace:
                pendingSpace = true
            default:
                if pendingSpace && !out.isEmpty { append(" ") }
                pendingSpace = false
                if scalar.isASCII ? scalar.value < 0x20 || scalar.value == 0x7F : scalar.properties.generalCategory == .control {
                    visible(String(scalar)).unicodeScalars.forEach(append)
                } else {
                    append(scalar)
                }
            }
        }
        return (String(out), matches)
    }
}

/// JSON shapes of the CLI (snake_case keys, ISO-8601 dates, stable key order).
public enum JSONOutput {
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One row of `lens entities --json`.
    public struct EntityCountJSON: Encodable {
        var type: String
        var normalized: String
        var example: String
        var screenshots: Int
        var occurrences: Int

        public init(_ count: EntityCount) {
            type = count.type
            normalized = count.normalized
            example = count.example
            screenshots = count.screenshots
            occurrences = count.occurrences
        }
    }

    /// One line of `lens extract --json`.
    public struct ExtractedEntity: Encodable {
        var type: String
        /// For a secret: its kind (`card`, `api_key`…); its value is the marker, never the secret.
        var kind: String?
        var value: String
        var normalized: String
        var start: Int
        var end: Int

        public init(_ entity: Entity) {
            type = entity.type.rawValue
            kind = entity.type == .secret ? entity.normalized : nil
            value = entity.value
            normalized = entity.normalized
            start = entity.start
            end = entity.end
        }
    }

    public struct Hit: Encodable, Sendable {
        var id: Int64
        var path: String?
        var paths: [String]
        var score: Double
        var snippet: String
        /// Where the matches are in `snippet`: `[start, end)` in UTF-16 code units.
        var matches: [[Int]]
        var captured_at: Date
        var imported_at: Date
        /// Present (true) when only the newest matches were ranked, or a word typed in part had
        /// more completions than were tried.
        var approximate: Bool?
        /// Present (true) for a hit found through an OCR misreading of a query word, with the words used.
        var fuzzy: Bool?
        var fuzzy_words: [String]?
        /// Present when every file of the screenshot is gone: where it was last seen.
        var gone_path: String?
        /// Present (`note`, `tags`) when the snippet shows the note or the tags, which the query matched.
        var matched_in: String?
        /// Present (true) for a hit found by meaning alone (no word of the query in it), with how
        /// near the query it is (a cosine, 0...1 in practice).
        var semantic: Bool?
        var similarity: Double?

        public init(_ hit: SearchHit) {
            semantic = hit.similarity == nil ? nil : true
            similarity = hit.similarity.map { (Double($0) * 1000).rounded() / 1000 }
            matched_in = hit.matchedIn == .text ? nil : hit.matchedIn.rawValue
            gone_path = hit.lastGonePath.map(SystemPath.visible)
            approximate = hit.isApproximate ? true : nil
            fuzzy = hit.fuzzyWords.isEmpty ? nil : true
            fuzzy_words = hit.fuzzyWords.isEmpty ? nil : hit.fuzzyWords
            id = hit.id
            // Names that are not UTF-8 as `\xNN` (JSON text cannot carry their bytes).
            path = hit.paths.first.map(SystemPath.visible)
            paths = hit.paths.map(SystemPath.visible)
            score = hit.score
            (snippet, matches) = OutputStyle.plainSnippetWithMatches(hit.snippet)
            captured_at = hit.capturedAt
            imported_at = hit.importedAt
        }
    }

    public struct Word: Encodable {
        var text: String
        var confidence: Float
        var box: [Int]
    }

    public struct Code: Encodable {
        var symbology: String
        var payload: String
    }

    public struct StoredEntityJSON: Encodable {
        var type: String
        var value: String
        var normalized: String
        var source: String
    }

    public struct Screenshot: Encodable {
        var id: Int64
        var text: String
        var codes: [Code]
        var entities: [StoredEntityJSON]
        /// Vendor, total and date when the text is a receipt or an invoice.
        var receipt: Receipt?
        var tags: [String]
        var note: String?
        var confidence: Double?
        var paths: [String]
        var gone_paths: [String]
        var sha256: String
        var size: Int
        var format: String
        var width: Int?
        var height: Int?
        var state: String
        var attempts: Int
        var last_error: String?
        var captured_at: Date
        var imported_at: Date
        var recognized_at: Date?
        var ocr_seconds: Double?
        var words: [Word]?

        public init(_ d: ScreenshotDetail, includeWords: Bool) {
            id = d.id
            text = d.text ?? ""
            codes = d.codes.map { Code(symbology: $0.symbology, payload: $0.payload) }
            entities = d.entities.map { StoredEntityJSON(type: $0.type, value: $0.value, normalized: $0.normalized, source: $0.source) }
            receipt = d.receipt
            tags = d.tags
            note = d.note
            confidence = d.confidence
            paths = d.paths.map(SystemPath.visible)
            gone_paths = d.gonePaths.map(SystemPath.visible)
            sha256 = d.sha256
            size = d.byteCount
            format = d.format
            width = d.width
            height = d.height
            state = d.state.rawValue
            attempts = d.attempts
            last_error = d.lastError
            captured_at = d.capturedAt
            imported_at = d.importedAt
            recognized_at = d.recognizedAt
            ocr_seconds = d.ocrSeconds
            if includeWords {
                words = zip(d.words, d.wordTexts).map { w, text in
                    Word(text: text, confidence: w.confidence, box: [w.x, w.y, w.width, w.height])
                }
            }
        }
    }

    public struct Status: Encodable {
        struct Daemon: Encodable {
            var running: Bool
            var pid: Int32?
            var since: Date?
        }
        struct Folder: Encodable {
            var path: String
            var screenshots: Int
        }
        var database: String
        var database_bytes: Int
        var counts: [String: Int]
        var total: Int
        var daemon: Daemon
        var folders: [Folder]
        var recognized_last_5_minutes: Int
        var waiting_for_retry: Int
        /// Texts read for meaning (with a vector of the current model), of all texts.
        var read_for_meaning: Int
        var texts: Int

        public init(_ report: StatusReport) {
            read_for_meaning = report.readForMeaning
            texts = report.texts
            database = report.database
            database_bytes = report.databaseBytes
            counts = Dictionary(uniqueKeysWithValues: report.counts.map { ($0.key.rawValue, $0.value) })
            total = report.counts.values.reduce(0, +)
            daemon = Daemon(running: report.daemon != nil, pid: report.daemon?.pid, since: report.daemon?.startedAt)
            folders = (report.daemon?.folders ?? []).map { Folder(path: $0, screenshots: report.folderCounts[$0] ?? 0) }
            recognized_last_5_minutes = report.recognizedLastFiveMinutes
            waiting_for_retry = report.waitingForRetry
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place.
public final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private let start = ContinuousClock.now
    private var drewSomething = false

    public init() {}

    public func update(_ progress: ImportProgress) {
        lock.lock(); defer { lock.unlock() }
        let now = ContinuousClock.now
        let finished = progress.completed == progress.total
        guard finished || now - lastDraw > .milliseconds(100) else { return }
        lastDraw = now
        let width = 30
        let fraction = progress.total > 0 ? Double(progress.completed) / Double(progress.total) : 1
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let label = progress.phase == .scanning ? "scanning   " : "recognizing"
        let elapsed = now - start
        let seconds = elapsed.seconds
        let rate = progress.phase == .recognizing && seconds > 0 ? String(format: " %.1f img/s", Double(progress.completed) / seconds) : ""
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(label) \(bar) \(progress.completed)/\(progress.total)\(rate)".utf8))
        drewSomething = true
    }

    public func finish() {
        lock.lock(); defer { lock.unlock() }
        if drewSomething { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}

extension ScreenshotDetail {
    /// Each recognized word's text, in the order of ``words``.
    public var wordTexts: [String] {
        let utf8 = Array((text ?? "").utf8)
        return words.map { w in
            let end = min(utf8.count, w.textOffset + w.textLength)
            return w.textOffset < end ? String(decoding: utf8[w.textOffset..<end], as: UTF8.self) : ""
        }
    }

    /// Vendor, total and date, when the recognized text is a receipt or an invoice.
    public var receipt: Receipt? {
        guard let text else { return nil }
        return ReceiptReading.receipt(in: text, entities: entities.compactMap(\.entity))
    }
}
