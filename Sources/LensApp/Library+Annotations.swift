import Foundation
import LensCore
import LensStore

// The value types of the store that callers of LensApp see, named here so that the command line
// and the web layer depend on LensApp alone.
public typealias SearchRequest = LensStore.SearchRequest
public typealias SearchHit = LensStore.SearchHit
public typealias SearchError = LensStore.SearchError
public typealias ScreenshotDetail = LensStore.ScreenshotDetail
public typealias EntityCount = LensStore.EntityCount
public typealias BatchRecord = LensStore.BatchRecord
public typealias AnnotationError = LensStore.AnnotationError
public typealias CollectionStatistics = LensStore.CollectionStatistics
public typealias GarbageReport = LensStore.GarbageReport
public typealias UndoError = LensStore.UndoError
public typealias RestoreReport = LensStore.RestoreReport
public typealias Facets = LensStore.Facets

/// Tags, notes, links and the other small edits and reads of the library, for the command line
/// and the web page alike.
extension Library {
    /// A tag is one word of letters, digits, `-`, `_` or `.`.
    public static func isTag(_ text: String) -> Bool { LensDatabase.isTag(text) }

    /// A sentence for a storage error (disk full, read-only, locked), naming `path`; `nil` for others.
    public static func explanation(of error: any Error, path: String) -> String? {
        LensDatabase.explanation(of: error, path: path)
    }

    /// A sentence for what this library's store cannot do yet (a shared PostgreSQL library: the
    /// mind map, history…), naming the operation; `nil` for other errors. A caller says it as an
    /// answer, not as a failure of Lens.
    public static func unsupportedHere(_ error: any Error) -> String? {
        if let error = error as? PostgresStoreError, case .unsupported = error { return error.description }
        return nil
    }

    /// What a user types goes through the same guard as what OCR reads: every kind of secret.
    static let typedTextGuard = SecretDetector()

    /// Adds and removes tags; returns the screenshot's tags after the change. A tag holding a
    /// secret (`ghp_…`) is refused with ``AnnotationError/secretInTag(kind:)``: a tag is a word,
    /// so there is nothing to keep around a marker.
    @discardableResult
    public func changeTags(of id: Int64, adding: [String] = [], removing: [String] = []) throws -> [String] {
        for tag in adding {
            if let secret = Self.typedTextGuard.secrets(in: tag).first { throw AnnotationError.secretInTag(kind: secret.kind.rawValue) }
        }
        return try database.changeTags(of: id, adding: adding, removing: removing)
    }

    /// Sets the note (`nil` or empty clears it), or adds a line to it, with its secrets masked
    /// as a screenshot's text is; returns the kinds masked.
    @discardableResult
    public func setNote(of id: Int64, to text: String?, appending: Bool = false) throws -> [SecretKind] {
        // (Refused before it is masked: masking costs the text's length.)
        if let text, text.utf8.count > LensDatabase.maximumNoteBytes { throw AnnotationError.noteTooLong(bytes: text.utf8.count) }
        let masked = text.map { Self.typedTextGuard.masking($0) }
        try database.setNote(of: id, to: masked?.text, appending: appending)
        return masked?.secrets.map(\.kind) ?? []
    }

    public func tagCounts() throws -> [(tag: String, count: Int)] { try database.tagCounts() }

    /// Draws a link by hand; false when either screenshot does not exist.
    public func link(_ x: Int64, _ y: Int64, note: String?) throws -> Bool {
        try database.link(x, y, note: note.map { Self.typedTextGuard.masking($0).text })
    }

    /// Removes a link drawn by hand; false when there was none.
    public func unlink(_ x: Int64, _ y: Int64) throws -> Bool { try database.unlink(x, y) }

    public func batches(limit: Int = 20) throws -> [BatchRecord] { try database.batches(limit: limit) }

    public func statistics() throws -> CollectionStatistics { try database.statistics() }

    /// Folders, entity types and tags with their counts, for filters (reads no text).
    public func facets() throws -> Facets { try database.facets() }

    public func collectGarbage(goneBefore: Double, dryRun: Bool) throws -> GarbageReport {
        try database.collectGarbage(goneBefore: goneBefore, dryRun: dryRun)
    }

    /// Queues failed screenshots again (all failed ones when `ids` is nil); returns how many.
    public func retry(ids: [Int64]?) throws -> Int { try database.retry(ids: ids) }

    /// Extracts entities again from every stored text (with its capture time) as an import in
    /// `region` would; returns the screenshots and entities seen. A national number is read as
    /// a number the library holds in international form wherever in the library that is.
    public func reextractEntities(region: String, phoneRegions: [String]) throws -> (screenshots: Int, entities: Int) {
        let extractor = EntityExtractors.make(region: region, fallbackRegions: phoneRegions, knowing: database)
        return try database.reextractEntities { extractor.entities(in: $0, reference: $1) }
    }

    public func screenshot(id: Int64) throws -> ScreenshotDetail? { try database.screenshot(id: id) }

    /// Changes whenever screenshots are recognized or removed, by any process: polled for live updates.
    public func changeMark() throws -> String { try database.changeMark() }

    /// The connections of one screenshot, strongest first, each with what links it.
    public func connections(of id: Int64) throws -> [MindMapConnection] {
        try database.edges(minimumScore: 0, touching: id).map { edge in
            MindMapConnection(other: edge.a == id ? edge.b : edge.a, score: edge.score, via: MindMapUseCases.describe(edge.via),
                              isManual: edge.isManual, note: edge.note, resemblance: edge.resemblance)
        }.sorted { ($0.score, -$0.other) > ($1.score, -$1.other) }
    }
}

/// One connection of a screenshot to another.
public struct MindMapConnection: Sendable, Equatable, Encodable {
    public var other: Int64
    public var score: Double
    /// `person: jon smith`, one line per shared entity.
    public var via: [String]
    public var isManual: Bool
    public var note: String?
    public var resemblance: Double?

    enum CodingKeys: String, CodingKey {
        case other = "id", score, via, isManual = "manual", note, resemblance
    }
}
