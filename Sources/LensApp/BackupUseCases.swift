import CSV
import Foundation
import LensCore
import LensStore

/// `lens export` and `lens restore`.
///
/// The JSON export is JSON Lines: a header object, then one screenshot (``ArchivedScreenshot``)
/// per line, in id order, with sorted keys. Lines, not one document, so that export and restore
/// both stream: 100,000 screenshots never need 100,000 records in memory, and a damaged line is
/// named by its number.
public enum BackupUseCases {
    public enum Format: String, CaseIterable, Sendable { case json, csv }

    /// The first line of a JSON export.
    struct Header: Codable {
        var format: String
        var version: Int
        var screenshots: Int
        var exportedAt: String

        enum CodingKeys: String, CodingKey { case format, version, screenshots, exportedAt = "exported_at" }
    }

    static let formatName = "lens-export"
    /// 2: dates are ISO 8601 text (1 wrote seconds since 1970; both are read).
    static let version = 2
    /// Screenshots read from the database at a time.
    static let pageSize = 200

    /// Writes the whole library to `path` (standard output when nil) and returns how many
    /// screenshots it wrote. A file is written beside its final name, 0600, and renamed into
    /// place at the end, so an interrupted export never leaves half a backup under that name.
    @discardableResult
    public static func export(_ library: Library, format: Format, to path: String?, now: Date = Date()) throws -> Int {
        let sink: FileSink = try path.map { try FileSink(finalPath: $0) } ?? FileSink(standardOutput: ())
        let count: Int
        do {
            switch format {
            case .json: count = try exportJSON(library, into: sink, now: now)
            case .csv: count = try exportCSV(library, into: sink)
            }
        } catch {
            sink.abandon()
            throw error
        }
        try sink.commit()
        return count
    }

    private static func exportJSON(_ library: Library, into sink: FileSink, now: Date) throws -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[ArchivedScreenshot.datesAsText] = true
        var count = 0
        try library.database.readArchives(pageSize: pageSize, total: { total in
            let header = Header(format: formatName, version: version, screenshots: total, exportedAt: ISO8601DateFormatter().string(from: now))
            try sink.write(try encoder.encode(header) + Data([0x0A]))
        }) { page in
            var chunk = Data()
            for archive in page {
                chunk += try encoder.encode(archive)
                chunk.append(0x0A)
            }
            try sink.write(chunk)
            count += page.count
        }
        return count
    }

    /// One row per screenshot, for spreadsheets (not for restoring: use JSON for that). CSVWriter
    /// streams straight into the output file, a page of screenshots at a time.
    private static func exportCSV(_ library: Library, into sink: FileSink) throws -> Int {
        guard let stream = OutputStream(toFileAtPath: sink.streamPath, append: true) else {
            throw BackupError(message: "cannot write \(sink.streamPath)")
        }
        let csv = try CSVWriter(stream: stream)
        defer { csv.stream.close() }
        let dates = ISO8601DateFormatter()
        func date(_ seconds: Double?) -> String { seconds.map { dates.string(from: Date(timeIntervalSince1970: $0)) } ?? "" }
        try csv.write(row: ["id", "sha256", "path", "other_paths", "state", "captured_at", "imported_at", "recognized_at",
                            "confidence", "width", "height", "tags", "note", "entities", "text"])
        var count = 0
        try library.database.readArchives(pageSize: pageSize, total: { _ in }) { page in
            for archive in page {
                let live = archive.paths.filter { $0.goneAt == nil }.map(\.path)
                let entities = archive.entities.map { "\($0.type): \($0.normalized)" }.joined(separator: "; ")
                try csv.write(row: [
                    String(archive.id), archive.sha256, live.first ?? "", live.dropFirst().joined(separator: "\n"), archive.state,
                    date(archive.capturedAt), date(archive.importedAt), date(archive.recognizedAt),
                    archive.confidence.map { String(format: "%.1f", $0) } ?? "", archive.width.map(String.init) ?? "",
                    archive.height.map(String.init) ?? "", archive.tags.joined(separator: " "), archive.note ?? "", entities,
                    archive.text ?? "",
                ])
            }
            count += page.count
        }
        csv.beginNewRow() // the last line ends with a line break, like every other
        try csv.write(field: "")
        return count
    }

    /// Checks a JSON export from its first line to its last, and returns its header's count. Each
    /// problem names the file, the line and, once known, the record's content hash. Nothing is
    /// written.
    @discardableResult
    public static func validate(_ path: String) throws -> Int {
        var records = 0
        try read(path) { _ in records += 1 }
        return records
    }

    /// Validates the export at `path`, then restores it in one transaction (all of it or, on an
    /// error, nothing), then masks the secrets of the restored texts (an export made before Lens
    /// masked them holds them), then recomputes the mind map.
    /// See ``LensDatabase/restore(replacing:summary:now:records:)``.
    public static func restore(_ library: Library, from path: String, replacing: Bool,
                               privacy: LensConfiguration.Privacy = .init(), region: String = "US") throws -> RestoreReport {
        try validate(path)
        let report = try library.database.restore(replacing: replacing, summary: path) { sink in
            try read(path, sink)
        }
        let masking = try library.maskStoredTexts(all: false, privacy: privacy, region: region)
        if masking.connections == nil { _ = try MindMapUseCases.rebuild(library) }
        return report
    }

    /// Reads and checks every record of the export at `path`, handing each to `body`.
    private static func read(_ path: String, _ body: (ArchivedScreenshot) throws -> Void) throws {
        let reader = try LineReader(path: path, maximumLineBytes: 32 << 20)
        func fail(_ line: Int, _ message: String) -> BackupError { BackupError(message: "\(path), line \(line): \(message)") }
        guard let first = try reader.next(onTooLong: { throw fail($0, "longer than 32 MiB") }) else {
            throw BackupError(message: "\(path) is empty: not a Lens export")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: first), header.format == formatName else {
            throw fail(1, "not a Lens export (its first line should be {\"format\":\"\(formatName)\",...})")
        }
        guard (1...version).contains(header.version) else {
            throw fail(1, header.version > version
                ? "export version \(header.version) is newer than this Lens reads (\(version)): upgrade Lens"
                : "export version \(header.version) is not one this Lens reads (1 to \(version))")
        }
        let decoder = JSONDecoder()
        var seen = Set<String>(), line = 1
        while let data = try reader.next(onTooLong: { throw fail($0, "longer than 32 MiB") }) {
            line += 1
            if data.isEmpty { continue }
            let archive: ArchivedScreenshot
            do {
                archive = try decoder.decode(ArchivedScreenshot.self, from: data)
            } catch {
                throw fail(line, "not a screenshot record: \(describe(error))")
            }
            let name = "screenshot \(archive.sha256.prefix(12))"
            if let problem = archive.problem() { throw fail(line, "\(name): \(problem)") }
            guard seen.insert(archive.sha256).inserted else { throw fail(line, "\(name) is listed twice") }
            try body(archive)
        }
        guard seen.count == header.screenshots else {
            throw BackupError(message: "\(path): the header promises \(header.screenshots) screenshots but the file holds \(seen.count) (cut short?)")
        }
    }

    /// A decoding error in a few words: which field, and what was wrong with it.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func field(_ path: [any CodingKey]) -> String { path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(field(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(field(context.codingPath + [key])) is missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(field(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

public struct BackupError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Where an export goes: standard output, or a temporary file renamed to its final name once
/// complete.
private final class FileSink {
    private let handle: FileHandle
    private let temporary: String?
    private let finalPath: String?
    /// A path that writes where this sink does, for writers that open their own stream.
    var streamPath: String { temporary ?? "/dev/stdout" }

    init(standardOutput: Void) {
        handle = FileHandle.standardOutput
        temporary = nil
        finalPath = nil
    }

    init(finalPath: String) throws {
        let url = URL(fileURLWithPath: finalPath).standardizedFileURL
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw BackupError(message: "\(url.path) is a folder; give a file name")
        }
        let temporary = url.deletingLastPathComponent().path + "/.\(url.lastPathComponent).\(getpid()).partial"
        // The export holds every screenshot's text: private to its owner, like the database.
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BackupError(message: "cannot write \(url.path): \(String(cString: strerror(errno)))") }
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        self.temporary = temporary
        self.finalPath = url.path
    }

    func write(_ data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw BackupError(message: "cannot write \(finalPath ?? "standard output"): \(error.localizedDescription)")
        }
    }

    func commit() throws {
        guard let temporary, let finalPath else { return }
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, finalPath) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BackupError(message: "cannot write \(finalPath): \(reason)")
        }
    }

    func abandon() {
        guard let temporary else { return }
        try? handle.close()
        unlink(temporary)
    }
}

/// Lines of a file, read in 1 MiB blocks, none longer than a limit.
///
/// Hand-written: Foundation on Linux has no line reader for files (no `FileHandle.bytes`), and
/// `getline` would grow its buffer to whatever a hostile line holds. Each byte is searched for a
/// line break once (`memchr`), so a long line costs linear time.
final class LineReader {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`, and how far it has been searched for a break.
    private var start = 0, searched = 0
    private var atEnd = false
    private var line = 0
    let maximumLineBytes: Int

    init(path: String, maximumLineBytes: Int) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BackupError(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.maximumLineBytes = maximumLineBytes
    }

    /// The next line without its line break, or nil at the end; `onTooLong` is called with the
    /// line number of a line over the limit (and must throw).
    func next(onTooLong: (Int) throws -> Never) throws -> Data? {
        while true {
            let found: Int? = buffer.withUnsafeBytes { bytes in
                guard searched < bytes.count, let base = bytes.baseAddress,
                      let hit = memchr(base + searched, 0x0A, bytes.count - searched) else { return nil }
                return base.distance(to: UnsafeRawPointer(hit))
            }
            if let newline = found {
                let result = Data(buffer[start..<newline])
                start = newline + 1
                searched = start
                line += 1
                return result
            }
            searched = buffer.count
            if buffer.count - start > maximumLineBytes { try onTooLong(line + 1) }
            if atEnd {
                guard start < buffer.count else { return nil }
                defer { buffer = []; start = 0; searched = 0 }
                line += 1
                return Data(buffer[start...])
            }
            let block = handle.readData(ofLength: 1 << 20)
            if block.isEmpty {
                atEnd = true
            } else {
                if start > 0 { // drop the lines already returned
                    buffer.removeFirst(start)
                    searched -= start
                    start = 0
                }
                buffer.append(contentsOf: block)
            }
        }
    }
}
