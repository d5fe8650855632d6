import Foundation
import LensCore
import LensOCR
import LensStore

/// Why a screenshot's image cannot be shown.
public enum ScreenshotFileError: Error, Equatable, CustomStringConvertible {
    case noSuchScreenshot(Int64)
    /// Every file it was seen at is gone, or holds other bytes now.
    case noFile(Int64)
    case undecodable(Int64, String)

    public var description: String {
        switch self {
        case .noSuchScreenshot(let id): return "no screenshot with id \(id)"
        case .noFile(let id): return "screenshot \(id): none of its files is still there with the same content"
        case .undecodable(let id, let reason): return "screenshot \(id): \(reason)"
        }
    }
}

/// The bytes of one screenshot, read from a file that still holds exactly the indexed content.
public struct ScreenshotImage: Sendable {
    public var id: Int64
    public var path: String
    public var bytes: [UInt8]
    public var format: ImageFormat
    public var sha256: String
}

extension Library {
    /// The original image of screenshot `id`, found through the database (never from a path a
    /// caller names): the first of its live paths whose bytes still hash to its content.
    public func originalImage(id: Int64, maximumBytes: Int = 256 << 20) throws -> ScreenshotImage {
        guard let (sha256, paths) = try database.contentAndPaths(id: id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        return try originalImage(id: id, sha256: sha256, paths: paths, maximumBytes: maximumBytes)
    }

    /// Whether screenshot `id` exists (one indexed lookup; no text is read).
    public func exists(_ id: Int64) throws -> Bool { try database.contentAndPaths(id: id) != nil }

    func originalImage(id: Int64, sha256: String, paths: [String], maximumBytes: Int = 256 << 20) throws -> ScreenshotImage {
        for path in paths {
            guard let bytes = try? readWholeFile(path, limit: maximumBytes), sha256Hex(bytes) == sha256 else { continue }
            return ScreenshotImage(id: id, path: path, bytes: bytes, format: ImageFormat(sniffing: bytes) ?? .png, sha256: sha256)
        }
        throw ScreenshotFileError.noFile(id)
    }
}

/// Thumbnails (JPEG, longest side ``maximumSide``) made once with leptonica and kept under the
/// cache folder, named by content hash: the same bytes at two paths share one thumbnail, and a
/// changed file (new content, new screenshot) never shows a stale one.
public struct ThumbnailCache: Sendable {
    public let folder: String
    public let maximumSide: Int

    public init(folder: String = LensLocations.cacheFolder() + "/thumbnails", maximumSide: Int = 400) {
        self.folder = folder
        self.maximumSide = maximumSide
    }

    /// The thumbnail's bytes and its entity tag (content hash and size), made now if not cached.
    public func thumbnail(of id: Int64, in library: Library) throws -> (bytes: [UInt8], tag: String) {
        guard let (sha256, paths) = try library.database.contentAndPaths(id: id) else { throw ScreenshotFileError.noSuchScreenshot(id) }
        // `r`: made with the masked secrets painted over (files from before are not used).
        let tag = "\(sha256.prefix(32))-\(maximumSide)r"
        let file = "\(folder)/\(sha256.prefix(2))/\(tag).jpg"
        if let cached = FileManager.default.contents(atPath: file), !cached.isEmpty { return (Array(cached), tag) }
        let original = try library.originalImage(id: id, sha256: sha256, paths: paths)
        let boxes = try library.secretBoxes(id: id)
        let jpeg: [UInt8]
        do {
            jpeg = try Thumbnail.jpeg(from: original.bytes, maximumSide: maximumSide, redacting: boxes)
        } catch {
            throw ScreenshotFileError.undecodable(id, error.description)
        }
        store(jpeg, at: file)
        return (jpeg, tag)
    }

    /// Writes through a temporary file and a rename, 0600 in 0700 folders (thumbnails show what
    /// was on screen). A cache that cannot be written only costs time.
    private func store(_ bytes: [UInt8], at file: String) {
        let parent = (file as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = file + ".\(getpid()).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }
}
