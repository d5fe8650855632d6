import Foundation
import LensTestSupport
import Testing

/// `lens search` by meaning and `lens similar`, through the binary, on the bundled samples
/// (real OCR, the real model), in a file and in a shared library.
struct MeaningCLITests {
    @Test(arguments: StoreKind.allCases)
    func searchByMeaningAndSimilar(_ kind: StoreKind) throws {
        let lens = try LensBinary(kind)
        let imported = try lens.run(["import", TestSupport.samplesFolder.path])
        #expect(imported.status == 0 && imported.stdout.contains("read for meaning"), "\(imported.stdout)\(imported.stderr)")

        // No word of the query is on the receipt: words alone find nothing, meaning finds it.
        let query = "dessert bought at a coffee shop"
        #expect(try lens.run(["search", "--exact", "--json", query]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        for args in [["search", "--meaning", "--json", query], ["search", "--json", "~" + query], ["search", "--json", query]] {
            let result = try lens.run(args)
            #expect(result.status == 0, "\(result.stderr)")
            let hits = try #require(try result.json() as? [[String: Any]])
            let first = try #require(hits.first, "\(args)")
            #expect((first["path"] as? String)?.hasSuffix("receipt_light.png") == true, "\(args): \(hits.map { $0["path"] ?? "" })")
            #expect(first["semantic"] as? Bool == true && (first["similarity"] as? Double ?? 0) > 0)
        }
        // A word query keeps its hits first, unmarked.
        let words = try #require(try lens.run(["search", "--json", "Espresso"]).json() as? [[String: Any]])
        #expect((words.first?["path"] as? String)?.hasSuffix("receipt_light.png") == true && words.first?["semantic"] == nil)
        // The text output says which came by meaning.
        #expect(try lens.run(["search", "--meaning", query]).stdout.contains("(by meaning, "))

        // The receipt's neighbours by meaning: not itself, each with a similarity.
        let receipt = try #require(words.first?["id"] as? Int)
        let similar = try lens.run(["similar", String(receipt), "--json"])
        #expect(similar.status == 0, "\(similar.stderr)")
        let neighbours = try #require(try similar.json() as? [[String: Any]])
        #expect(!neighbours.contains { $0["id"] as? Int == receipt } && neighbours.allSatisfy { $0["semantic"] as? Bool == true })
        let none = try lens.run(["similar", "99999"])
        #expect(none.status == 2 && none.stderr.contains("99999"))

        // Conflicting or impossible requests say why.
        let both = try lens.run(["search", "--exact", "--meaning", "x"])
        #expect(both.status == 2 && both.stderr.contains("exact"))
        let noModel = try lens.run(["search", "--meaning", query], environment: ["LENS_MODEL_DIR": "/nonexistent/lens-model"])
        #expect(noModel.status == 2 && noModel.stderr.contains("/nonexistent/lens-model"), "\(noModel.stderr)")
        // Without the model, plain search is words alone, as before.
        let plain = try lens.run(["search", "--json", "Espresso"], environment: ["LENS_MODEL_DIR": "/nonexistent/lens-model"])
        #expect(plain.status == 0 && plain.stdout.contains("receipt_light.png"))
    }
}
