import ArgumentParser
import Foundation
import LensCore
import LensEmbed
import LensOCR

/// What an embedding costs next to the OCR it follows: each image of a folder is recognized as
/// Lens does, then its text embedded, both timed as the thread's own CPU in the same run.
struct EmbedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "CPU per screenshot of the text embedding against its OCR, measured in the same run.",
        discussion: """
            Each image is recognized with Lens's settings and its text embedded (all-MiniLM-L6-v2) \
            whole, in windows of 256 tokens (at most --windows); CPU is the thread's own time, one \
            thread, so the other core's load does not count. Prints the ratio embedding / OCR per \
            image (median, p95) and in all, and the pieces and windows per text.

            Example: lens-bench embed ../shared/corpus/public
            """)

    @Argument(help: "A folder of screenshots (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "The model's folder (model.safetensors, vocab.txt).")
    var model = TextEmbedder.directory()

    @Option(help: "At most this many windows of 256 tokens a text.")
    var windows = 4

    @Option(help: "Also time a scan of this many 8-bit vectors in memory for the 10 nearest (0: skip).")
    var scan = 0

    func run() throws {
        if scan > 0 { timeScan(count: scan) }
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        let images = try Measure.imageNames(in: folder)
        guard !images.isEmpty else { throw ValidationError("no images in \(folder.path)") }
        let recognizer = try Recognizer(settings: RecognizerSettings())
        let (embedder, load) = try Measure.time { try TextEmbedder(directory: model) }
        print(String(format: "model loaded in %.0f ms", load * 1000))
        var ocr: [Double] = [], embed: [Double] = [], tokens: [Int] = [], windowCounts: [Int] = []
        for name in images {
            let data = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            var start = OCRBench.threadCPUSeconds()
            guard let text = try? recognizer.recognize(data).text else {
                print("  \(name): not recognized, skipped")
                continue
            }
            ocr.append(OCRBench.threadCPUSeconds() - start)
            start = OCRBench.threadCPUSeconds()
            let (_, windowCount) = embedder.embedding(windowsOf: text, maximumWindows: windows)
            embed.append(OCRBench.threadCPUSeconds() - start)
            tokens.append(embedder.tokenizer.pieceIDs(text, maximum: 100_000).count)
            windowCounts.append(windowCount)
        }
        let ratios = zip(embed, ocr).map { $0 / max($1, 1e-9) }
        print("\(ocr.count) screenshots, pieces per text: median \(Int(Measure.percentile(tokens.map(Double.init), 0.5))), max \(tokens.max() ?? 0);"
              + " windows: \((1...max(1, windows)).map { w in "\(windowCounts.filter { $0 == w }.count)×\(w)" }.joined(separator: " "))")
        print(String(format: "OCR CPU per screenshot:       median %.0f ms, p95 %.0f ms, total %.1f s",
                     Measure.percentile(ocr, 0.5) * 1000, Measure.percentile(ocr, 0.95) * 1000, ocr.reduce(0, +)))
        print(String(format: "embedding CPU per screenshot: median %.0f ms, p95 %.0f ms, total %.1f s",
                     Measure.percentile(embed, 0.5) * 1000, Measure.percentile(embed, 0.95) * 1000, embed.reduce(0, +)))
        print(String(format: "embedding / OCR: %.3f in all; per screenshot median %.3f, p95 %.3f",
                     embed.reduce(0, +) / ocr.reduce(0, +), Measure.percentile(ratios, 0.5), Measure.percentile(ratios, 0.95)))
    }

    /// The brute-force scan search by meaning would start from: every vector's dot product with
    /// the query's, the 10 best kept. Random unit vectors: the cost does not depend on the values.
    func timeScan(count: Int) {
        var state: UInt64 = 42
        func random() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000
        }
        let vectors = (0..<count).map { _ in QuantizedVector((0..<TextEmbedder.dimensions).map { _ in random() }) }
        var times: [Double] = []
        for _ in 0..<21 {
            let query = QuantizedVector((0..<TextEmbedder.dimensions).map { _ in random() })
            let (_, seconds) = Measure.time { () -> [Int] in
                var best: [(Float, Int)] = []
                for (i, vector) in vectors.enumerated() {
                    let score = vector.dot(query)
                    if best.count < 10 || score > best[best.count - 1].0 {
                        best.append((score, i))
                        best.sort { $0.0 > $1.0 }
                        if best.count > 10 { best.removeLast() }
                    }
                }
                return best.map(\.1)
            }
            times.append(seconds)
        }
        print(String(format: "scan of %d vectors for the 10 nearest: median %.1f ms, p95 %.1f ms (in memory, one thread)",
                     count, Measure.percentile(times, 0.5) * 1000, Measure.percentile(times, 0.95) * 1000))
    }
}
