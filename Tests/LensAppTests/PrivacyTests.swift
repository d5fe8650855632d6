import Foundation
import GRDB
import LensApp
import LensCore
@testable import LensStore
import LensTestSupport
import Logging
import Testing

/// Secrets end to end: screenshots rendered with secrets on them (light and dark, small text, a QR
/// code; `Tests/Fixtures/secrets/make.py`) are imported with real Tesseract and SQLite, and no
/// file Lens writes holds a secret, while the words around them still find the screenshots.
@Suite(.serialized)
struct PrivacyTests {
    static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/secrets")

    struct Expected: Decodable {
        var values: [String]
        var kinds: [String]
        var words: [String]
    }

    static func expected() throws -> [String: Expected] {
        try JSONDecoder().decode([String: Expected].self, from: Data(contentsOf: fixtures.appendingPathComponent("secrets.json")))
    }

    /// The database file and its WAL and shared-memory files.
    static func files(of databasePath: String) -> [String] {
        [databasePath, databasePath + "-wal", databasePath + "-shm"].filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// Every string the database keeps that comes from a screenshot's text: the texts and code
    /// payloads (inflated), entities, the vocabulary and the full-text index's own terms.
    static func storedStrings(_ databasePath: String) throws -> [String] {
        let queue = try DatabaseQueue(path: databasePath)
        defer { try? queue.close() }
        return try queue.write { db in
            var all: [String] = []
            for row in try Row.fetchAll(db, sql: "SELECT body, codes FROM screenshot_text") {
                if let body = row["body"] as Data?, let text = try? TextCompression.inflate(bytes: [UInt8](body)) {
                    all.append(String(decoding: text, as: UTF8.self))
                }
                if let codes = row["codes"] as String? { all.append(codes) }
            }
            all += try String.fetchAll(db, sql: "SELECT payload FROM code")
            all += try String.fetchAll(db, sql: "SELECT value || ' ' || normalized FROM entity")
            all += try String.fetchAll(db, sql: "SELECT term FROM term")
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, screenshot_fts, row)")
            all += try String.fetchAll(db, sql: "SELECT term FROM temp.v")
            return all
        }
    }

    /// The pieces of a value that must not be found: the value, and for long values every run of
    /// 8 of its characters (OCR may misread one character elsewhere in it).
    static func pieces(of value: String) -> [String] {
        let compact = value.filter { !$0.isWhitespace }
        var out = [value, compact]
        if compact.count > 8 {
            let characters = Array(compact)
            for i in 0...(characters.count - 8) { out.append(String(characters[i..<(i + 8)])) }
        }
        return out
    }

    /// What leaks: each piece found in the files' bytes or in a stored string.
    static func leaks(of values: [String], in databasePath: String) throws -> [String] {
        var found: [String] = []
        let bytes = try files(of: databasePath).map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let strings = try storedStrings(databasePath)
        for value in values {
            for piece in pieces(of: value) {
                // Short values (a CVC, a code) match random bytes: those are checked in strings only.
                if piece.utf8.count >= 6, bytes.contains(where: { $0.contains(Array(piece.utf8)) }) {
                    found.append("\(piece) in the files")
                }
                if strings.contains(where: { Self.containsWord(piece, in: $0) }) { found.append("\(piece) in a stored string") }
            }
        }
        return found
    }

    static func containsWord(_ piece: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let range = text.range(of: piece, range: searchRange) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let isAlnum: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber } ?? false }
            if piece.count >= 8 || (!isAlnum(before) && !isAlnum(after)) { return true }
            searchRange = range.upperBound..<text.endIndex
        }
        return false
    }

    static func ids(_ library: Library, _ query: String) throws -> [Int64] {
        try library.search(SearchRequest(query: try SearchQuery(parsing: query), limit: 50)).map(\.id)
    }

    @Test func importedSecretsAreInNoFileAndTheScreenshotsAreStillFound() async throws {
        let root = try TestSupport.makeTemporaryFolder("lens-privacy")
        let shots = root.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let expected = try Self.expected()
        for name in expected.keys {
            try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(name + ".png"), to: shots.appendingPathComponent(name + ".png"))
        }
        try FileManager.default.copyItem(at: TestSupport.samplePNG("qr_dark_2fa"), to: shots.appendingPathComponent("qr_dark_2fa.png"))
        let path = root.appendingPathComponent("lens.db").path
        let library = try Library(databasePath: path)
        let summary = try await Importer(library: library, options: ImportOptions(workers: 2), logger: Logger(label: "test")).run(paths: [shots.path])
        #expect(summary.failed.isEmpty)

        let values = expected.values.flatMap(\.values) + ["JBSWY3DPEHPK3PXP"]
        #expect(try Self.leaks(of: values, in: path) == [])
        // Searching for a secret finds nothing; the words around it still find its screenshot.
        for query in ["4242424242424242", "\"4242 4242 4242 4242\"", "DE89370400440532013000", "Sunfl0wer", "804513",
                      "ghp_Zq8RkW2mT5xVb7NcLp4HsJd9FgYa3Ue6Qi0O", "AKIAIOSFODNN7EXAMPLE", "JBSWY3DPEHPK3PXP", "Cr0issant"] {
            #expect(try Self.ids(library, query) == [], "\(query)")
        }
        for (name, shot) in expected {
            let id = try #require(try library.search(SearchRequest(query: try SearchQuery(parsing: name), limit: 5)).first?.id
                                  ?? Self.ids(library, shot.words[0]).first)
            for word in shot.words { #expect(try Self.ids(library, word).contains(id), "\(word) finds \(name)") }
            // What was masked is recorded by kind, and `--type secret` lists the screenshot.
            let kinds = Set(try library.database.entities(ofScreenshot: id).filter { $0.type == "secret" }.map(\.normalized))
            #expect(kinds.isSuperset(of: shot.kinds), "\(name): \(kinds)")
        }
        let review = try library.search(SearchRequest(query: nil, entityTypes: ["secret"], limit: 50))
        #expect(review.count == expected.count + 1)

        // The thumbnail Lens keeps paints the secrets over: OCR of it (at full size, so nothing is
        // lost to scaling) reads the words around them but not them.
        let checkout = try #require(try Self.ids(library, "Checkout").first)
        let cache = ThumbnailCache(folder: root.appendingPathComponent("thumbs").path, maximumSide: 4000)
        let jpeg = try cache.thumbnail(of: checkout, in: library).bytes
        let thumbnail = root.appendingPathComponent("thumbnail.jpg")
        try Data(jpeg).write(to: thumbnail)
        let seen = try SingleImage.text(atPath: thumbnail.path)
        #expect(seen.contains("Checkout") && seen.contains("transfer"), "\(seen)")
        for value in ["4242", "DE89", "3704", "737", "12/29"] { #expect(!seen.contains(value), "\(value) in \(seen)") }
        #expect(try library.secretBoxes(id: checkout).count >= 4)
    }

    /// One screen of `Tests/Fixtures/secrets/ocr-noise`: rendered by `Tests/SecretCases/rendered.py
    /// --seed 1` (a development seed) in the font, size and theme it names.
    struct RenderedScreen: Decodable {
        var file: String
        var kind: String
        var values: [String]
        var font: String
        var px: Int
        var words: [String]
    }

    /// Secrets as OCR reads them from real fonts at 15–20 px: split by spaces (a Slack token, a
    /// PEM block, a setup key in groups), a character misread (`&` as `6`), a password after a
    /// label with no colon, a token inside a clone URL. Each leaked with the clean-text rules. No
    /// 8 characters of any of them is stored; the thumbnail paints over every word of them (OCR of
    /// it at full size reads none), and the words around still find the screenshot.
    @Test func secretsAsOCRMangledThemAreMaskedInTextAndThumbnails() async throws {
        let folder = Self.fixtures.appendingPathComponent("ocr-noise")
        let screens = try JSONDecoder().decode([RenderedScreen].self, from: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
        let root = try TestSupport.makeTemporaryFolder("lens-privacy-noise")
        let shots = root.appendingPathComponent("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for screen in screens {
            try FileManager.default.copyItem(at: folder.appendingPathComponent(screen.file), to: shots.appendingPathComponent(screen.file))
        }
        let path = root.appendingPathComponent("lens.db").path
        let library = try Library(databasePath: path)
        let summary = try await Importer(library: library, options: ImportOptions(workers: 2), logger: Logger(label: "test")).run(paths: [shots.path])
        #expect(summary.failed.isEmpty)
        #expect(try Self.leaks(of: screens.flatMap(\.values), in: path) == [])

        let cache = ThumbnailCache(folder: root.appendingPathComponent("thumbs").path, maximumSide: 4000)
        for screen in screens {
            let id = try #require(try Self.ids(library, screen.words[0]).first, "\(screen.file): \(screen.words[0])")
            for word in screen.words { #expect(try Self.ids(library, word).contains(id), "\(word) finds \(screen.file)") }
            #expect(try !library.secretBoxes(id: id).isEmpty, "\(screen.file)")
            let thumbnail = root.appendingPathComponent("\(id).jpg")
            try Data(try cache.thumbnail(of: id, in: library).bytes).write(to: thumbnail)
            let seen = try SingleImage.text(atPath: thumbnail.path).filter { !$0.isWhitespace }
            for value in screen.values {
                let leaked = Self.pieces(of: value).filter { $0.count == 8 && seen.contains($0) }
                #expect(leaked.isEmpty, "\(screen.file) (\(screen.font), \(screen.px) px): the thumbnail shows \(leaked)")
            }
        }
    }

    /// A library written before Lens masked secrets: `lens doctor` counts its texts, masking them
    /// rewrites text, index, entities and payloads, and wipes the freed pages.
    @Test func anOldLibraryIsMaskedInPlace() throws {
        let root = try TestSupport.makeTemporaryFolder("lens-privacy-old")
        let path = root.appendingPathComponent("lens.db").path
        let library = try Library(databasePath: path)
        let text = "Checkout Marigold\nCard number 4242 4242 4242 4242\nWi-Fi password: Sunfl0wer!92\nCall (415) 555-0132"
        let registration = try library.database.register(FileObservation(
            path: root.appendingPathComponent("old.png").path, size: 10, modifiedAt: 1, sha256: String(repeating: "a", count: 64),
            format: .png, seenAt: 2))
        _ = try library.database.claimNext(owner: getpid())
        // As an older Lens stored it: no masking, the payload kept as read.
        try library.database.recordRecognition(
            Recognition(text: text, words: [], width: 1, height: 1,
                        codes: [DecodedCode(symbology: "QR-Code", payload: "otpauth://totp/Lens:a@example.org?secret=JBSWY3DPEHPK3PXP")]),
            entities: EntityExtractors.make(region: "US").entities(in: text), for: registration.id, seconds: 0.1)
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "UPDATE screenshot_text SET privacy_checked = 0") }
        #expect(try library.uncheckedTextCount() == 1)
        #expect(try !Self.leaks(of: ["4242424242424242", "Sunfl0wer!92", "JBSWY3DPEHPK3PXP"], in: path).isEmpty)

        let report = try library.maskStoredTexts(all: false, privacy: .init(), region: "US")
        #expect(report.checked == 1 && report.changed == 1)
        #expect(try library.uncheckedTextCount() == 0)
        #expect(try Self.leaks(of: ["4242 4242 4242 4242", "Sunfl0wer!92", "JBSWY3DPEHPK3PXP"], in: path) == [])
        #expect(try Self.ids(library, "Marigold") == [registration.id])
        #expect(try Self.ids(library, "Sunfl0wer") == [])
        let entities = try library.database.entities(ofScreenshot: registration.id)
        #expect(entities.contains { $0.type == "phone" && $0.normalized == "+14155550132" })
        #expect(Set(entities.filter { $0.type == "secret" }.map(\.normalized)) == ["card", "password", "api_key"])
        // A second pass over every text finds nothing more to do.
        #expect(try library.maskStoredTexts(all: true, privacy: .init(), region: "US").changed == 0)
    }

    /// An export written before Lens masked secrets, restored into either store: its text is
    /// masked before the restore returns (the text, the index and the entities).
    @Test(arguments: StoreKind.allCases)
    func aRestoredExportIsMasked(_ kind: StoreKind) throws {
        let root = try TestSupport.makeTemporaryFolder("lens-privacy-restore")
        let library = try kind == .sqlite ? Library(databasePath: root.appendingPathComponent("lens.db").path)
            : Library(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
        let text = "Checkout Marigold\nWi-Fi password: Sunfl0wer!92\nCall (415) 555-0132"
        let record: [String: Any] = [
            "id": 1, "sha256": String(repeating: "b", count: 64), "byte_count": 10, "format": "png", "state": "done",
            "captured_at": "2024-03-05T10:00:00Z", "imported_at": "2024-03-05T10:00:00Z", "recognized_at": "2024-03-05T10:00:00Z",
            "paths": [], "text": text, "codes": [], "entities": [], "tags": [], "links": [],
        ]
        let header: [String: Any] = ["format": "lens-export", "version": 2, "screenshots": 1, "exported_at": "2024-03-05T10:00:00Z"]
        let file = root.appendingPathComponent("old.jsonl")
        try (String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self) + "\n"
             + String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self) + "\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let report = try BackupUseCases.restore(library, from: file.path, replacing: false)
        #expect(report.added == 1)
        #expect(try library.uncheckedTextCount() == 0)
        let stored = try #require(try library.screenshot(idOrPath: "1"))
        #expect(stored.text?.contains("Sunfl0wer") == false && stored.text?.contains("Marigold") == true, "\(stored.text ?? "")")
        #expect(stored.entities.contains { $0.type == "secret" && $0.normalized == "password" })
        #expect(try Self.ids(library, "Sunfl0wer") == [])
        #expect(try Self.ids(library, "Marigold") == [1])
    }

    /// `skip_images_with`: such a screenshot is recorded without any text, only the kinds found.
    @Test func skipImagesWithKeepsNoText() {
        let filter = PrivacyFilter(mask: [.card], skipImagesWith: [.seedPhrase])
        let phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
        let (kept, secrets) = filter.filter(Recognition(text: "Backup your wallet\n" + phrase, words: [], width: 1, height: 1))
        #expect(kept.text.isEmpty && kept.words.isEmpty && kept.codes.isEmpty)
        #expect(secrets.map(\.kind) == [.seedPhrase])
        // Masked kinds only: an OTP is left when only cards are masked.
        let (other, _) = filter.filter(Recognition(text: "Your code is 482913, card 4242 4242 4242 4242", words: [], width: 1, height: 1))
        #expect(other.text == "Your code is 482913, card [card ••••4242]")
    }
}
