import ArgumentParser
import Foundation
import LensApp
import LensCore

/// Writes a `lens restore` file whose screenshots hold real text: pieces of the machine's Debian
/// changelogs and man pages, with the entities Lens finds in them. For measuring restore, the
/// mind map and search on text nobody generated.
struct RealTextBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtext",
        abstract: "Write a lens export of N screenshots made of real text (Debian changelogs and man pages), to restore and measure.",
        discussion: """
            Files are read in sorted order (…/changelog.Debian.gz under /usr/share/doc, then the man \
            pages under /usr/share/man), roff requests dropped, and cut into pieces of --lines lines; \
            each piece is one screenshot with the entities the real extractor finds in it. Pieces \
            repeat only where the files do (licence boilerplate), as screenshots of the same screen do.

            Example: lens-bench realtext --documents 100000 --output /tmp/real-100k.jsonl && \
            lens restore --replace /tmp/real-100k.jsonl --db /tmp/real-100k.db
            """)

    @Option(help: "How many screenshots to write.")
    var documents = 10_000

    @Option(help: "Lines of text per screenshot.")
    var lines = 30

    @Option(help: "The export file to write.")
    var output: String

    @Option(parsing: .upToNextOption, help: "Folders to read.")
    var sources: [String] = ["/usr/share/doc", "/usr/share/man"]

    func run() throws {
        let files = Self.sourceFiles(in: sources)
        let extractor = EntityExtractors.make(region: "US")
        guard FileManager.default.createFile(atPath: output, contents: nil) else {
            throw ValidationError("cannot create \(output)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        defer { try? handle.close() }
        let header: [String: Any] = ["format": "lens-export", "version": 1, "screenshots": documents, "exported_at": "2026-11-23T00:00:00Z"]
        handle.write(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]) + Data("\n".utf8))
        var written = 0, rawBytes = 0, entityCount = 0
        let start = ContinuousClock.now
        fileLoop: for file in files {
            for piece in Self.pieces(of: file, lines: lines) {
                guard written < documents else { break fileLoop }
                let entities = extractor.entities(in: piece).map { e -> [String: Any] in
                    ["type": e.type.rawValue, "value": e.value, "normalized": e.normalized, "start": e.start, "end": e.end, "source": "text"]
                }
                entityCount += entities.count
                rawBytes += piece.utf8.count
                let record = Self.record(id: written + 1, text: piece,
                                         sha256: String(format: "%016llx%016llx%032x", Self.fnv(piece), Self.fnv(file), written),
                                         path: "/home/user/Pictures/Screenshots/\(written / 1000)/Screenshot \(written).png", entities: entities)
                handle.write(try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) + Data("\n".utf8))
                written += 1
            }
        }
        print(String(format: "%d screenshots of real text (%.1f MB, %.0f bytes each, %.1f entities each) from %d files in %.1f s",
                     written, Double(rawBytes) / 1e6, Double(rawBytes) / Double(max(written, 1)),
                     Double(entityCount) / Double(max(written, 1)), files.count, (ContinuousClock.now - start).seconds))
        if written < documents { print("only \(written) pieces: the sources ran out (add --sources)") }
    }

    /// The Debian changelogs and man pages under `roots`, in sorted order.
    static func sourceFiles(in roots: [String] = ["/usr/share/doc", "/usr/share/man"]) -> [String] {
        var files: [String] = []
        for root in roots {
            let walker = FileManager.default.enumerator(atPath: root)
            while let name = walker?.nextObject() as? String {
                if name.hasSuffix("changelog.Debian.gz") || (name.hasPrefix("man") && name.hasSuffix(".gz")) { files.append(root + "/" + name) }
            }
        }
        return files.sorted()
    }

    /// The file's text (gzip read through zcat), roff requests and font escapes dropped, in
    /// pieces of `lines` non-empty lines, each at least 80 bytes.
    static func pieces(of file: String, lines: Int) -> [String] {
        guard let text = SecretBench.read(file) else { return [] }
        let kept = text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.hasPrefix(".") && !$0.hasPrefix("'") }
            .map { $0.replacingOccurrences(of: "\\f[BIRP]", with: "", options: .regularExpression).replacingOccurrences(of: "\\-", with: "-") }
        return stride(from: 0, to: kept.count, by: max(1, lines)).map { kept[$0..<min(kept.count, $0 + lines)].joined(separator: "\n") }
            .filter { $0.utf8.count >= 80 }
    }

    /// One screenshot of an export, recognized, with `text` and `entities`, taken a minute after
    /// the one before it.
    static func record(id: Int, text: String, sha256: String, path: String, entities: [[String: Any]]) -> [String: Any] {
        let captured = 1.7e9 + Double(id - 1) * 60
        return [
            "id": id, "sha256": sha256,
            "byte_count": 100_000, "format": "png", "width": 1920, "height": 1080, "state": "done", "confidence": 90.0,
            "ocr_seconds": 1.0, "captured_at": captured, "imported_at": captured, "recognized_at": captured,
            "paths": [["path": path, "size": 100_000, "modified_at": captured, "first_seen_at": captured, "last_seen_at": captured]],
            "text": text, "codes": [], "entities": entities, "tags": [], "links": [],
        ]
    }

    static func fnv(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
