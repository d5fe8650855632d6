import LensCore
import LensTestSupport
import Testing

struct ImageFormatTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], ImageFormat.png),
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46], .jpeg),
        (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBP".utf8), .webp),
        ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
        ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], .tiff),
        (Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
        (Array("GIF87a".utf8) + [1, 0, 1, 0], .gif),
        (Array("BM".utf8) + [0x46, 0, 0, 0, 0, 0], .bmp),
    ] as [([UInt8], ImageFormat)])
    func recognizesSignatures(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat(sniffing: bytes) == format)
    }

    @Test(arguments: [
        [],
        [0x89, 0x50, 0x4E],                                 // a PNG signature cut short
        Array("https://example.org is not an image".utf8),  // text named .jpg
        Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8),
        Array("BM".utf8),
        Array("%PDF-1.7".utf8),
    ] as [[UInt8]])
    func rejectsOtherBytes(bytes: [UInt8]) {
        #expect(ImageFormat(sniffing: bytes) == nil)
    }

    @Test func sniffsTheBundledSamples() throws {
        for name in TestSupport.sampleNames {
            #expect(ImageFormat(sniffing: try TestSupport.sampleBytes(name)) == .png)
        }
    }
}

struct PNGStructureTests {
    @Test func acceptsCompletePNGs() throws {
        for name in TestSupport.sampleNames {
            #expect(PNGStructure.problem(in: try TestSupport.sampleBytes(name)) == nil)
        }
        // Trailing bytes after IEND are legal (some tools append metadata).
        #expect(PNGStructure.problem(in: TestSupport.distinctCopy(of: try TestSupport.sampleBytes("terminal"), tag: 1)) == nil)
    }

    @Test(arguments: [0.1, 0.4, 0.9, 0.999])
    func reportsTruncation(fraction: Double) throws {
        let bytes = try TestSupport.sampleBytes("receipt_light")
        let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
        let problem = try #require(PNGStructure.problem(in: cut))
        #expect(problem.hasPrefix("truncated PNG"))
    }

    @Test func reportsAMissingHeaderChunk() throws {
        var bytes = try TestSupport.sampleBytes("chat_dark")
        bytes.replaceSubrange(12..<16, with: Array("IDAT".utf8))
        #expect(PNGStructure.problem(in: bytes) == "corrupt PNG: the first chunk is not IHDR")
    }
}

struct RecognitionTests {
    @Test func wordBoxesRoundTripThroughTheirBinaryForm() {
        let text = "Total  paid\n$15.70 ✓ naïve"
        let words = [
            RecognizedWord(textOffset: 0, textLength: 5, confidence: 96.4, x: 10, y: 20, width: 50, height: 14),
            RecognizedWord(textOffset: 7, textLength: 4, confidence: 12, x: 65, y: 21, width: 40, height: 14),
            RecognizedWord(textOffset: 12, textLength: 6, confidence: 100, x: 10, y: 48, width: 60, height: 15),
            RecognizedWord(textOffset: 19, textLength: 3, confidence: 0, x: 5, y: 40_000, width: 70_000, height: 0),
            RecognizedWord(textOffset: 23, textLength: 6, confidence: 55, x: 0, y: 0, width: 1, height: 1),
        ]
        let bytes = Recognition.encode(words)
        #expect(bytes.count <= 7 * words.count + 6) // compact: a few bytes a word
        var expected = words
        expected[0].confidence = 96 // stored rounded to whole percent
        #expect(Recognition.decodeWords(bytes, text: text) == expected)
        // Truncated bytes or text decode what they can, never crash.
        #expect(Recognition.decodeWords(Array(bytes.prefix(4)), text: text).count <= 1)
        #expect(Recognition.decodeWords(bytes, text: "Total").count == 1)
        #expect(Recognition.decodeWords([], text: text).isEmpty)
    }

    @Test func meanConfidenceAveragesWords() {
        let r = Recognition(text: "a b", words: [
            RecognizedWord(textOffset: 0, textLength: 1, confidence: 90, x: 0, y: 0, width: 1, height: 1),
            RecognizedWord(textOffset: 2, textLength: 1, confidence: 60, x: 0, y: 0, width: 1, height: 1),
        ], width: 10, height: 10)
        #expect(r.meanConfidence == 75)
        #expect(Recognition(text: "", words: [], width: 1, height: 1).meanConfidence == nil)
    }
}
