import Foundation
import LensApp
import LensCore
import LensEmbed
@testable import LensStore
import LensTestSupport
import Testing

/// Search by words and by meaning together, with the real model.
struct MeaningSearchTests {
    static let texts = [
        "Quartz Dental, 14 Elm Street. Bill to: Ana Souza. Check-up and cleaning, amount due $240.00",
        "Flight BA 283 London to Boston lands at 14:35, gate B42, baggage belt 7",
        "git log --oneline\n9fceb02 Fix rounding in totals\n3e1a7c4 Add CSV export (Dana Kim)",
        "Upload failed: couldn't sync Report.docx to OneDrive. Check your connection.",
        "Weekly groceries: milk, eggs, bread, apples, coffee beans",
        "Invoice INV-2207 from Northwind Traders: 3 office chairs, total $1,140.00",
    ]

    /// A library of `texts` (ids 1…, in order) with their vectors made.
    static func library(_ name: String, texts: [String] = texts, folders: [String]? = nil, kind: StoreKind = .sqlite) throws -> Library {
        let root = try TestSupport.makeTemporaryFolder(name)
        let library = kind == .sqlite ? try Library(databasePath: root.appendingPathComponent("lens.db").path)
            : try Library(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
        for (n, text) in texts.enumerated() {
            let folder = folders?[n] ?? "/s"
            let registration = try library.database.register(FileObservation(
                path: "\(folder)/\(n).png", size: 10, modifiedAt: 1, sha256: String(format: "%064x", n + 1), format: .png, seenAt: 2))
            let item = try #require(try library.database.claimNext(owner: getpid()))
            #expect(item.id == registration.id)
            try library.database.recordRecognition(Recognition(text: text, words: [], width: 1, height: 1), for: item.id, seconds: 0.1)
        }
        try library.fillEmbeddings(with: try EmbeddingModel.load())
        return library
    }

    static func search(_ library: Library, _ text: String, _ meaning: SearchMeaning, limit: Int = 10, offset: Int = 0,
                       folder: String? = nil) throws -> [SearchHit] {
        var request = SearchRequest(query: try SearchQuery(parsing: text), folder: folder, limit: limit, offset: offset)
        request.meaning = meaning
        return try library.search(request)
    }

    @Test(arguments: StoreKind.allCases)
    func paraphrasesFindTheirScreenshotByMeaning(_ kind: StoreKind) throws {
        let library = try Self.library("lens-meaning-paraphrase", kind: kind)
        // No word of these is in the screenshot they describe.
        for (query, id) in [("dentist bill", 1), ("plane arrival time", 2), ("version control history with authors", 3),
                            ("couldn't send my document to the cloud", 4), ("shopping list", 5)] {
            #expect(try Self.search(library, query, .off).isEmpty, "\(query) has no word hit")
            let found = try Self.search(library, query, .only)
            #expect(found.first?.id == Int64(id), "\(query) → \(found.map(\.id))")
            #expect(found.allSatisfy { $0.similarity != nil && $0.similarity! >= MeaningIndex.minimumSimilarity })
            // Plain search finds it as well, marked as found by meaning.
            let plain = try Self.search(library, query, .alongWords).first
            #expect(plain?.id == Int64(id) && plain?.similarity != nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func wordHitsComeFirstAndKeepTheirOrder(_ kind: StoreKind) throws {
        let library = try Self.library("lens-meaning-tiers", kind: kind)
        let words = try Self.search(library, "invoice", .off)
        #expect(words.map(\.id) == [6])
        let both = try Self.search(library, "invoice", .alongWords)
        // The screenshot holding the word first, unmarked; the dentist's bill after it, by meaning.
        #expect(both.first?.id == 6 && both.first?.similarity == nil)
        #expect(both.dropFirst().allSatisfy { $0.similarity != nil } && both.contains { $0.id == 1 })
        #expect(Set(both.map(\.id)).count == both.count)
        // Pages fetched one by one are the list fetched whole.
        let whole = try Self.search(library, "invoice", .alongWords, limit: 6)
        var paged: [Int64] = []
        for offset in stride(from: 0, to: 6, by: 2) { paged += try Self.search(library, "invoice", .alongWords, limit: 2, offset: offset).map(\.id) }
        #expect(paged == whole.map(\.id))
        // A number is looked for as written: nothing comes by meaning after it.
        #expect(try Self.search(library, "2207", .alongWords).map(\.id) == [6])
        // An excluded word keeps its screenshots out of meaning's answers too.
        #expect(try Self.search(library, "dentist bill", .only).first?.id == 1)
        #expect(try Self.search(library, "dentist bill -quartz", .only).allSatisfy { $0.id != 1 })
        // The filters hold for hits by meaning too.
        let filtered = try Self.library("lens-meaning-filter", folders: ["/a", "/b", "/b", "/b", "/b", "/b"], kind: kind)
        #expect(try Self.search(filtered, "dentist bill", .only, folder: "/b").allSatisfy { $0.id != 1 })
        #expect(try Self.search(filtered, "dentist bill", .only, folder: "/a").map(\.id) == [1])
    }

    @Test(arguments: StoreKind.allCases)
    func similarScreenshotsAndWhatIsMissing(_ kind: StoreKind) throws {
        let library = try Self.library("lens-meaning-similar", texts: Self.texts + [
            "Quartz Dental reminder: your next check-up and cleaning is due in March. Call 555-0142 to book.",
        ], kind: kind)
        let similar = try library.similar(to: 1, limit: 3)
        #expect(similar.first?.id == 7 && !similar.contains { $0.id == 1 })
        #expect(similar.allSatisfy { ($0.similarity ?? 0) >= MeaningIndex.minimumSimilarityOfScreenshots })

        // A screenshot recognized after the first search is found once its vector is made: the
        // vectors in memory follow the store.
        #expect(try Self.search(library, "holiday on a beach", .only).allSatisfy { $0.id != 8 })
        let registration = try library.database.register(FileObservation(
            path: "/s/new.png", size: 10, modifiedAt: 1, sha256: String(format: "%064x", 99), format: .png, seenAt: 2))
        let item = try #require(try library.database.claimNext(owner: getpid()))
        try library.database.recordRecognition(Recognition(text: "Sunny week in Crete: sand, sea and sunscreen", words: [], width: 1, height: 1),
                                               for: item.id, seconds: 0.1)
        #expect(throws: MeaningError.notRead(registration.id)) { try library.similar(to: registration.id) }
        try library.fillEmbeddings(with: try EmbeddingModel.load())
        #expect(try Self.search(library, "holiday on a beach", .only).first?.id == registration.id)
        // Deleted, it is gone from meaning's answers at once.
        _ = try library.database.deleteScreenshots(ids: [registration.id], summary: "delete")
        #expect(try Self.search(library, "holiday on a beach", .only).allSatisfy { $0.id != registration.id })

        // Without vectors, meaning only says what to run; plain search is words alone.
        let empty = kind == .sqlite
            ? try Library(databasePath: try TestSupport.makeTemporaryFolder("lens-meaning-none").appendingPathComponent("lens.db").path)
            : try Library(store: .postgresql(try PostgresCluster.shared.get().makeDatabase()))
        #expect(throws: MeaningError.noVectors) { try Self.search(empty, "dentist", .only) }
        #expect(try Self.search(empty, "dentist", .alongWords).isEmpty)
        // Without the model, the same: the error names the missing file.
        let noModel = try Library(store: try StoreAddress(library.databasePath), modelDirectory: "/nonexistent/model")
        #expect(try Self.search(noModel, "invoice", .alongWords).map(\.id) == [6])
        do {
            _ = try Self.search(noModel, "invoice", .only)
            Issue.record("no error without the model")
        } catch let error as MeaningError {
            #expect(error.description.contains("/nonexistent/model"))
        }
    }
}
