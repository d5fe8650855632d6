import Foundation
import LensCore
import LensOCR
import LensTestSupport
import Testing

@Suite(.serialized) // Each recognizer uses a core; running them one by one keeps timings honest on 2 cores.
struct RecognizerTests {
    /// Clean 15–17 px renders: plain Tesseract reads most words. The bar is below 100% on purpose:
    /// small-font misreads (`Lumiére`, `|` for `I`) are issue #4's work, and this test guards the pipeline.
    @Test(arguments: TestSupport.sampleNames)
    func readsTheBundledSamples(name: String) throws {
        let recognizer = try Recognizer()
        let result = try recognizer.recognize(try TestSupport.sampleBytes(name))
        let expected = try TestSupport.sampleText(name)
        let recall = TestSupport.wordRecall(expected: expected, actual: result.text)
        #expect(recall >= 0.8, "word recall \(recall) for \(name):\n\(result.text)")
        #expect(result.width > 0 && result.height > 0)
        let confidence = try #require(result.meanConfidence)
        #expect(confidence > 50 && confidence <= 100)
    }

    @Test func readsEntitiesVerbatimOnACleanRender() throws {
        let text = try Recognizer().recognize(try TestSupport.sampleBytes("receipt_light")).text
        for needle in ["(415) 555-0132", "billing@cafe-lumiere.example", "https://example.org/docs/menu?lang=fr", "$15.70"] {
            #expect(text.contains(needle), "missing \(needle) in:\n\(text)")
        }
    }

    @Test func wordOffsetsAndBoxesPointAtTheWords() throws {
        let result = try Recognizer().recognize(try TestSupport.sampleBytes("terminal"))
        let utf8 = Array(result.text.utf8)
        #expect(!result.words.isEmpty)
        for word in result.words {
            let slice = utf8[word.textOffset..<word.textOffset + word.textLength]
            #expect(!String(decoding: slice, as: UTF8.self).contains(" "))
            #expect(word.x >= 0 && word.y >= 0 && word.x + word.width <= result.width && word.y + word.height <= result.height)
        }
        // Words come in reading order: the first line is above the last.
        #expect(result.words.first!.y < result.words.last!.y)
        // The stored form recovers every word against the text (confidence rounded to a whole percent).
        let decoded = Recognition.decodeWords(Recognition.encode(result.words), text: result.text)
        #expect(decoded.count == result.words.count)
        for (stored, original) in zip(decoded, result.words) {
            #expect(stored.textOffset == original.textOffset && stored.textLength == original.textLength)
            #expect(stored.x == original.x && stored.y == original.y && stored.width == original.width && stored.height == original.height)
            #expect(abs(stored.confidence - original.confidence) <= 0.5)
        }
    }

    @Test func aHandleIsReusedAcrossImages() throws {
        let recognizer = try Recognizer()
        let first = try recognizer.recognize(try TestSupport.sampleBytes("chat_dark"))
        _ = try recognizer.recognize(try TestSupport.sampleBytes("terminal"))
        let again = try recognizer.recognize(try TestSupport.sampleBytes("chat_dark"))
        #expect(first.text == again.text) // no state leaks between images
    }

    @Test func refusesBrokenInputWithAReason() throws {
        let recognizer = try Recognizer()
        let png = try TestSupport.sampleBytes("receipt_light")
        #expect(throws: RecognitionError.emptyFile) { try recognizer.recognize([]) }
        #expect(throws: RecognitionError.unreadableImage) { try recognizer.recognize(Array("not an image".utf8)) }
        #expect {
            try recognizer.recognize(Array(png.prefix(png.count / 2)))
        } throws: { error in
            (error as? RecognitionError)?.description.hasPrefix("truncated PNG") == true
        }
    }

    @Test func refusesDecompressionBombsFromTheHeader() throws {
        let recognizer = try Recognizer(settings: RecognizerSettings(maximumPixels: 64_000_000))
        let bomb = TestSupport.pngHeaderOnly(width: 30_000, height: 30_000)
        #expect(throws: RecognitionError.tooManyPixels(width: 30_000, height: 30_000, limit: 64_000_000)) {
            try recognizer.recognize(bomb)
        }
    }

    /// Per-folder languages: one recognizer reads each image with the model it is asked for, and
    /// goes back to its own. "alt" here is Tesseract's orientation model under another name, which
    /// reads no words, so the switch is visible in the text.
    @Test func eachImageCanBeReadWithOtherLanguages() throws {
        let data = try TestSupport.makeTemporaryFolder("lens-tessdata")
        let system = "/usr/share/tesseract-ocr/5/tessdata"
        try FileManager.default.copyItem(atPath: system + "/eng.traineddata", toPath: data.path + "/eng.traineddata")
        try FileManager.default.copyItem(atPath: system + "/osd.traineddata", toPath: data.path + "/alt.traineddata")
        let recognizer = try Recognizer(settings: RecognizerSettings(languages: "eng", dataPath: data.path))
        let bytes = try TestSupport.sampleBytes("terminal")
        let english = try recognizer.recognize(bytes)
        #expect(try recognizer.recognize(bytes, languages: "eng").text == english.text)
        let other = try recognizer.recognize(bytes, languages: "alt")
        #expect(other.text != english.text)
        #expect(try recognizer.recognize(bytes).text == english.text)
        #expect(throws: RecognitionError.languageNotInstalled("xyz")) { try recognizer.recognize(bytes, languages: "xyz") }
        #expect(Recognizer.missingLanguages("eng+alt+xyz", dataPath: data.path) == ["xyz"])
    }

    @Test(arguments: [("eng", "tesseract-ocr-eng"), ("chi_sim", "tesseract-ocr-chi-sim"), ("deu", "tesseract-ocr-deu"),
                      ("Latin", "tesseract-ocr-script-latn"), ("HanS_vert", "tesseract-ocr-script-hans-vert"),
                      ("Cyrillic", "tesseract-ocr-script-cyrl")])
    func languagesAndScriptsMapToTheirDebianPackages(language: String, package: String) {
        #expect(Recognizer.debianPackage(for: language) == package)
    }

    @Test func aMissingLanguageNamesTheDebianPackage() {
        #expect {
            _ = try Recognizer(settings: RecognizerSettings(languages: "eng+xyz"))
        } throws: { error in
            (error as? RecognitionError)?.description.contains("tesseract-ocr-xyz") == true
        }
    }
}

@Suite(.serialized)
struct OCRWorkerPoolTests {
    @Test func concurrentResultsMatchSequentialOnes() async throws {
        let pool = try OCRWorkerPool(workerCount: 2) { try Recognizer() }
        defer { pool.shutdown() }
        let inputs = try TestSupport.sampleNames.map { try TestSupport.sampleBytes($0) }
        let sequential = try inputs.map { try Recognizer().recognize($0).text }
        let concurrent = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, bytes) in inputs.enumerated() {
                group.addTask { (index, try await pool.recognize(bytes).text) }
            }
            var texts = Array(repeating: "", count: inputs.count)
            for try await (index, text) in group { texts[index] = text }
            return texts
        }
        #expect(concurrent == sequential)
    }

    @Test func eachWorkerBuildsItsOwnRecognizerOnItsOwnThread() async throws {
        let factoryThreads = ThreadSet()
        let pool = try OCRWorkerPool(workerCount: 3) {
            factoryThreads.insert(UInt(bitPattern: Int(bitPattern: pthread_self())))
            return try Recognizer()
        }
        defer { pool.shutdown() }
        #expect(factoryThreads.values.count == 3) // three different threads, one factory call each
        let jobThreads = try await withThrowingTaskGroup(of: UInt.self) { group in
            for _ in 0..<9 {
                group.addTask { try await pool.run { _ in UInt(bitPattern: Int(bitPattern: pthread_self())) } }
            }
            return try await group.reduce(into: Set<UInt>()) { $0.insert($1) }
        }
        // Every job ran on a thread that built a recognizer: never on Swift's cooperative pool.
        #expect(jobThreads.isSubset(of: factoryThreads.values))
    }

    @Test func aFactoryFailureIsReportedAndNothingHangs() {
        #expect(throws: RecognitionError.languageNotInstalled("zzz")) {
            _ = try OCRWorkerPool(workerCount: 2) { try Recognizer(settings: RecognizerSettings(languages: "zzz")) }
        }
    }

    @Test func workAfterShutdownIsRefused() async throws {
        let pool = try OCRWorkerPool(workerCount: 1) { try Recognizer() }
        pool.shutdown()
        await #expect(throws: CancellationError.self) { _ = try await pool.recognize(try TestSupport.sampleBytes("terminal")) }
    }

    @Test func aCancelledWaitingJobLeavesTheQueue() async throws {
        let pool = try OCRWorkerPool(workerCount: 1) { try Recognizer() }
        defer { pool.shutdown() }
        let gate = Gate()
        // Occupy the only worker until the gate opens.
        let blocker = Task { try await pool.run { _ in gate.wait() } }
        let waiting = Task { try await pool.recognize(try TestSupport.sampleBytes("terminal")) }
        try await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await waiting.value }
        gate.open()
        try await blocker.value
    }
}

final class ThreadSet: @unchecked Sendable {
    private let lock = NSLock()
    private var set = Set<UInt>()
    func insert(_ id: UInt) { lock.lock(); set.insert(id); lock.unlock() }
    var values: Set<UInt> { lock.lock(); defer { lock.unlock() }; return set }
}

final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    func wait() { condition.lock(); while !isOpen { condition.wait() }; condition.unlock() }
    func open() { condition.lock(); isOpen = true; condition.broadcast(); condition.unlock() }
}
