import Foundation
import LensStore
import LensTestSupport
import Testing

/// Fault injection through the real binary: hostile and broken files each fail alone, with their
/// path and reason; the run goes on, and nothing stored is harmed.
@Suite(.serialized)
struct FaultTests {
    /// The corpus's bad set (when present) and generated cases in one folder.
    @Test func hostileFilesEachFailAloneWithPathAndReason() throws {
        let lens = try LensBinary()
        let folder = lens.home.appendingPathComponent("in")
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        var expected: [String: String] = [:] // name → part of the reason
        if let bad = TestSupport.corpusFolder?.deletingLastPathComponent().appendingPathComponent("bad"), fm.fileExists(atPath: bad.path) {
            for name in ["empty.png", "truncated.png", "not_really.jpg", "bomb_30000x30000.png"] {
                try fm.copyItem(at: bad.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
            try fm.copyItem(at: bad.appendingPathComponent("watched"), to: folder.appendingPathComponent("watched"))
            expected["empty.png"] = "empty file"
            expected["truncated.png"] = "truncated PNG"
            expected["not_really.jpg"] = "not an image"
            expected["bomb_30000x30000.png"] = "over the limit of 64 Mpx; refused before decoding"
        }
        // A name that is not UTF-8 (Latin-1 é and 0xFF), made through the C API.
        let bytes: [UInt8] = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array("_".utf8) + [0xFF] + Array(".png".utf8) + [0]
        let fd = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        _ = try Data(contentsOf: TestSupport.samplePNG("terminal")).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        // Links: a folder loop, a self loop, a link out of the tree, a link to a file inside it.
        let outside = lens.home.appendingPathComponent("outside")
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.copyItem(at: TestSupport.samplePNG("small_text"), to: outside.appendingPathComponent("secret.png"))
        try fm.createDirectory(at: folder.appendingPathComponent("loop/a"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("loop/a/up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("self").path, withDestinationPath: "self")
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("escape.png").path,
                                  withDestinationPath: outside.appendingPathComponent("secret.png").path)
        try fm.createSymbolicLink(atPath: folder.appendingPathComponent("outside-folder").path, withDestinationPath: outside.path)
        expected["self"] = "symbolic link loop"
        expected["escape.png"] = "outside the folders being read"
        expected["outside-folder"] = "outside the folders being read"
        // A name with a line break and an escape sequence; a file over a 1 MB cap; 60 folders deep.
        let forged = "forged\nfailed: etc-passwd \u{1B}[31m.png"
        try Data("not an image".utf8).write(to: folder.appendingPathComponent(forged))
        expected[forged] = "not an image"
        var big = Data(try Data(contentsOf: TestSupport.samplePNG("terminal")))
        big.append(Data(count: (1 << 20) + 1))
        try big.write(to: folder.appendingPathComponent("big.png"))
        expected["big.png"] = "over the 1048576-byte limit"
        var deep = folder
        for level in 0..<60 { deep.appendPathComponent("d\(level)") }
        try fm.createDirectory(at: deep, withIntermediateDirectories: true)
        try fm.copyItem(at: TestSupport.samplePNG("chat_dark"), to: deep.appendingPathComponent("deep.png"))

        let result = try lens.run(["import", "--json", "--no-progress", "--max-file-mb", "1", folder.path])
        #expect(result.status == 1, "\(result.stderr)")
        let summary = try #require(try result.json() as? [String: Any])
        let failed = try #require(summary["failed"] as? [[String: String]])
        for (name, reason) in expected {
            let failure = failed.first { $0["path"] == folder.path + "/" + name }
            #expect(failure?["reason"]?.contains(reason) == true, "\(name.debugDescription): \(String(describing: failure))")
        }
        #expect(failed.contains { $0["path"]?.hasSuffix("/caf\\xE9_\\xFF.png") == true && $0["reason"]?.contains("UTF-8") == true },
                "\(failed)")
        #expect(failed.count == expected.count + 1, "\(failed.map { $0["path"] ?? "" })")
        // Imported: the deep image (and the corpus's good one); the link out of the tree was not read.
        #expect(summary["added"] as? Int == (expected["empty.png"] != nil ? 2 : 1))
        let shown = try lens.run(["show", "--json", outside.appendingPathComponent("secret.png").path])
        #expect(shown.status != 0)

        // Human output and the log escape the forged name: no line starts with "failed: etc-passwd".
        let text = try lens.run(["import", "--no-progress", "--max-file-mb", "1", folder.path])
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("failed: etc-passwd") }, "\(text.stdout)")
        #expect(text.stdout.contains("forged\\u{A}failed: etc-passwd \\u{1B}[31m.png"))
        #expect(!text.stdout.contains("\u{1B}"))

        // Nothing stored is harmed, and --symlinks follow does read the link out of the tree.
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
        let followed = try #require(try lens.run(["import", "--json", "--no-progress", "--max-file-mb", "1", "--symlinks", "follow", folder.path]).json() as? [String: Any])
        #expect(followed["added"] as? Int == 1)
        #expect(try LensDatabase(path: lens.database).integrityCheck() == ["ok"])
    }
}
