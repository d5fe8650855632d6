import Foundation
import LensCore

/// A file as seen on disk, after its content was hashed.
public struct FileObservation: Sendable, Equatable {
    public var path: String
    public var size: Int
    public var modifiedAt: Double
    public var sha256: String
    public var format: ImageFormat
    public var seenAt: Double

    public init(path: String, size: Int, modifiedAt: Double, sha256: String, format: ImageFormat, seenAt: Double) {
        self.path = path
        self.size = size
        self.modifiedAt = modifiedAt
        self.sha256 = sha256
        self.format = format
        self.seenAt = seenAt
    }
}

/// What registering a file did.
public enum Registration: Sendable, Equatable {
    /// New content, queued for OCR.
    case added(id: Int64)
    /// Content already stored; `isNewPath` tells whether this path was new for it.
    case known(id: Int64, state: QueueState, lastError: String?, isNewPath: Bool)

    public var id: Int64 {
        switch self {
        case .added(let id), .known(let id, _, _, _): return id
        }
    }
}

public struct ScreenshotState: Sendable, Equatable {
    public var id: Int64
    public var state: QueueState
    public var lastError: String?
}

/// A queue item taken by one worker.
public struct ClaimedItem: Sendable, Equatable {
    public var id: Int64
    public var sha256: String
    public var attempts: Int
    /// Live paths holding the content, most recently seen first.
    public var paths: [String]
    /// When the screenshot was taken (its file's time when first seen): dates shown without a
    /// year are read against it.
    public var capturedAt: Date = .distantPast
}

/// An entity stored for a screenshot.
public struct StoredEntity: Sendable, Equatable, Codable {
    public var type: String
    /// As shown on the screenshot (or in a code's payload).
    public var value: String
    public var normalized: String
    /// `text` (found in the recognized text) or `code` (a QR code's or barcode's payload).
    public var source: String
    /// UTF-8 offsets in the text (nil for a code's payload).
    public var start: Int?, end: Int?

    public init(type: String, value: String, normalized: String, source: String, start: Int? = nil, end: Int? = nil) {
        self.type = type
        self.value = value
        self.normalized = normalized
        self.source = source
        self.start = start
        self.end = end
    }
}

extension StoredEntity {
    /// The entity as found in the text, or nil for a code's payload (no offsets) or an unknown type.
    public var entity: Entity? {
        guard let type = EntityType(rawValue: type), let start, let end else { return nil }
        return Entity(type: type, value: value, normalized: normalized, start: start, end: end)
    }
}

public struct ScreenshotDetail: Sendable {
    public var id: Int64
    public var sha256: String
    public var byteCount: Int
    public var format: String
    public var width: Int?
    public var height: Int?
    public var state: QueueState
    public var attempts: Int
    public var lastError: String?
    public var text: String?
    public var confidence: Double?
    public var words: [RecognizedWord]
    public var ocrSeconds: Double?
    public var capturedAt: Date
    public var importedAt: Date
    public var recognizedAt: Date?
    public var paths: [String]
    public var gonePaths: [String]
    /// QR codes and barcodes decoded on the image.
    public var codes: [DecodedCode] = []
    /// URLs, e-mails, phones, dates and amounts found in the text and the codes.
    public var entities: [StoredEntity] = []
    /// Tags and the note a person added (lens tag, lens note).
    public var tags: [String] = []
    public var note: String? = nil
}
