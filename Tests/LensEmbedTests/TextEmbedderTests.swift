import Foundation
import LensCore
import LensEmbed
import LensTestSupport
import Testing

/// The forward pass against embeddings the model's own Python package computed once
/// (`Tests/Embedding/reference.json`, from `make_reference.py`): cosine ≥ 0.999 for every text,
/// with the weights `scripts/install-deps.sh` unpacks.
struct TextEmbedderTests {
    static func cosine(_ a: [Float], _ b: [Float]) -> Float {
        var dot: Float = 0, na: Float = 0, nb: Float = 0
        for (x, y) in zip(a, b) {
            dot += x * y
            na += x * x
            nb += y * y
        }
        return dot / (na.squareRoot() * nb.squareRoot())
    }

    /// The tokenizer gives the model tokenizer's ids, with the vocabulary install-deps.sh unpacks.
    @Test func givesTheModelTokenizersIDs() throws {
        let vocabulary = try String(contentsOfFile: TextEmbedder.directory() + "/vocab.txt", encoding: .utf8)
        let tokenizer = try #require(WordPieceTokenizer(vocabulary: vocabulary), "no [UNK], [CLS] or [SEP] in the vocabulary")
        let reference = try EmbeddingReference.load()
        #expect(reference.cases.count >= 15)
        for example in reference.cases {
            #expect(tokenizer.ids(example.text, maximumTokens: reference.max_tokens) == example.ids, "\(example.text.prefix(40))")
        }
    }

    @Test func matchesTheModelsOwnPackage() throws {
        let embedder = try TextEmbedder(directory: TextEmbedder.directory())
        let reference = try EmbeddingReference.load()
        var worst: Float = 1
        for example in reference.cases {
            let vector = embedder.embedding(example.text)
            #expect(vector.count == TextEmbedder.dimensions)
            let similarity = Self.cosine(vector, example.embedding)
            worst = min(worst, similarity)
            #expect(similarity >= 0.999, "cosine \(similarity) for \(example.text.prefix(40))")
        }
        // The vectors tell texts apart: a paraphrase is nearer its target than an unrelated text.
        let invoice = embedder.embedding("Quartz Dental — Invoice #2231. Bill to: Ana Souza. Amount due $240.00")
        let dentist = embedder.embedding("the dentist invoice"), plane = embedder.embedding("plane arrival time")
        #expect(Self.cosine(invoice, dentist) > Self.cosine(invoice, plane) + 0.1)
        print("TextEmbedder: worst cosine against the reference \(worst) over \(reference.cases.count) texts")
    }

    /// A long text is read whole in windows, at most the number asked; a short one is one window
    /// and the same vector as the model's own.
    @Test func readsALongTextInWindows() throws {
        let embedder = try TextEmbedder(directory: TextEmbedder.directory())
        let short = "Flight BA 283 lands at 14:35, gate B42"
        #expect(embedder.embedding(windowsOf: short).windows == 1)
        #expect(Self.cosine(embedder.embedding(windowsOf: short).vector, embedder.embedding(short)) > 0.99999)
        // A receipt followed by a page about something else: the windows see both; the first
        // window alone sees only the receipt.
        let receipt = String(repeating: "Quartz Dental invoice, bill to Ana Souza, amount due 240 dollars. ", count: 30)
        let flight = String(repeating: "Your flight lands at gate B42, baggage on belt 7, the plane arrives early. ", count: 30)
        let whole = embedder.embedding(windowsOf: receipt + flight, maximumWindows: 8)
        #expect(whole.windows > 2 && whole.windows <= 8)
        let first = embedder.embedding(receipt + flight)
        let query = embedder.embedding("plane arrival time")
        #expect(Self.cosine(whole.vector, query) > Self.cosine(first, query))
        #expect(embedder.embedding(windowsOf: String(repeating: receipt, count: 20), maximumWindows: 3).windows == 3)
        #expect(abs(whole.vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        // Smaller windows (the bench's --window-tokens) cut the same pieces into more of them,
        // none past its size; a size past the model's is the model's.
        let small = embedder.windowEmbeddings(of: receipt + flight, maximumWindows: 16, windowTokens: 128)
        #expect(small.count > whole.windows && small.allSatisfy { $0.pieces <= 126 })
        #expect(small.reduce(0) { $0 + $1.pieces } == embedder.windowEmbeddings(of: receipt + flight, maximumWindows: 16).reduce(0) { $0 + $1.pieces })
        #expect(embedder.windowEmbeddings(of: receipt, windowTokens: 4_096).allSatisfy { $0.pieces <= TextEmbedder.maximumTokens - 2 })
    }

    /// Ids from outside the tokenizer cannot read past the weights.
    @Test func anIdWithoutARowReadsAsUnknown() throws {
        let embedder = try TextEmbedder(directory: TextEmbedder.directory())
        let unknown = embedder.embedding(ids: [embedder.tokenizer.classifier, embedder.tokenizer.unknown, embedder.tokenizer.separator])
        #expect(embedder.embedding(ids: [embedder.tokenizer.classifier, -5, embedder.tokenizer.separator]) == unknown)
        #expect(embedder.embedding(ids: [embedder.tokenizer.classifier, 1_000_000, embedder.tokenizer.separator]) == unknown)
        #expect(embedder.embedding(ids: []).allSatisfy { $0 == 0 })
        #expect(embedder.embedding(ids: Array(repeating: 1037, count: 600)).count == TextEmbedder.dimensions)
    }

    @Test func aMissingOrBrokenModelSaysWhichFileAndWhy() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lens-embed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect { try TextEmbedder(directory: folder.path) } throws: { "\($0)".contains("vocab.txt") }
        try String(contentsOfFile: TextEmbedder.directory() + "/vocab.txt", encoding: .utf8)
            .write(to: folder.appendingPathComponent("vocab.txt"), atomically: true, encoding: .utf8)
        // A header that claims more bytes than the file has.
        var bytes = Data([0xFF, 0xFF, 0, 0, 0, 0, 0, 0])
        bytes.append(Data("{}".utf8))
        try bytes.write(to: folder.appendingPathComponent("model.safetensors"))
        #expect { try TextEmbedder(directory: folder.path) } throws: { "\($0)".contains("model.safetensors") && "\($0)".contains("header") }
        // A valid header without the model's tensors.
        // (Padded with spaces to 8 bytes, as writers of the format do, so the data is aligned.)
        var header = Data(#"{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}"#.utf8)
        while header.count % 8 != 0 { header.append(0x20) }
        var file = Data()
        for i in 0..<8 { file.append(UInt8((header.count >> (8 * i)) & 0xFF)) }
        file.append(header)
        file.append(Data(count: 4))
        try file.write(to: folder.appendingPathComponent("model.safetensors"))
        #expect { try TextEmbedder(directory: folder.path) } throws: { "\($0)".contains("embeddings.word_embeddings.weight") }
    }
}
