import ArgumentParser
import Foundation
import LensCore
import LensOCR

/// Recognizes a corpus folder once per preprocessing step, adding one step at a time, and writes
/// each run's texts in the layout `score.py` reads, so the table of LensOCR/README.md can be rebuilt.
struct OCRBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr",
        abstract: "OCR a corpus folder with each preprocessing step added in turn; write STEP/STEM.txt for score.py and print CPU per image.",
        discussion: """
            Steps: plain (Tesseract defaults, the baseline), +polarity, +contrast, +scale, +psm6 (= what \
            Lens uses). CPU is each recognition's own thread time (decode, preprocessing and Tesseract), \
            so the figures do not depend on how busy the other worker is. When the corpus has sidecars \
            with a device "scale", CPU is also shown for 1x (desktop) and 2x/3x (phone/retina) images.

            Example: lens-bench ocr ../shared/corpus/public --output /tmp/ocr-eval
            """)

    @Argument(help: "A folder of screenshots (e.g. ../shared/corpus/public).")
    var corpus: String

    @Option(help: "Where to write one folder of STEM.txt files per step.")
    var output: String

    @Option(help: "Tesseract languages, e.g. eng or eng+deu.")
    var languages = "eng"

    @Option(help: "Recognition threads, each with its own Tesseract handle.")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Only these steps, comma-separated (plain,polarity,contrast,scale,psm6).")
    var steps: String?

    @Option(help: "Target x-height in pixels for the scale step and after (default: Lens's).")
    var xHeight: Double?

    @Option(name: .customLong("set"), help: "A Tesseract variable NAME=VALUE for every step (repeatable).")
    var variables: [String] = []

    @Flag(inversion: .prefixedNo, help: "Decode QR codes and barcodes in every step but plain, as Lens does.")
    var codes = true

    @Option(help: "The corpus scorer (score.py); default: score.py beside the corpus folder. Scores are skipped when it is missing.")
    var scorer: String?

    /// The ladder: each step adds one change to the one before it.
    static let ladder: [(name: String, tuning: OCRTuning)] = {
        var tuning = OCRTuning.plain
        var ladder = [("plain", tuning)]
        tuning.normalizesPolarity = true
        ladder.append(("polarity", tuning))
        tuning.normalizesContrast = true
        ladder.append(("contrast", tuning))
        tuning.targetXHeight = OCRTuning.screenshots.targetXHeight
        ladder.append(("scale", tuning))
        tuning.pageSegmentation = OCRTuning.screenshots.pageSegmentation
        ladder.append(("psm6", tuning))
        precondition(tuning == .screenshots, "the last step of the ladder is what Lens uses")
        return ladder
    }()

    func validate() throws {
        guard workers > 0 else { throw ValidationError("--workers must be at least 1") }
        for variable in variables where !variable.contains("=") {
            throw ValidationError("--set wants NAME=VALUE, got '\(variable)'")
        }
        if let steps {
            let known = Set(Self.ladder.map(\.name))
            for step in steps.split(separator: ",") where !known.contains(String(step)) {
                throw ValidationError("unknown step '\(step)'; the steps are \(Self.ladder.map(\.name).joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: corpus).standardizedFileURL
        let images = try Measure.imageNames(in: folder)
        guard !images.isEmpty else { throw ValidationError("no images in \(folder.path)") }
        let inputs = images.map { name in
            (name: name, bytes: [UInt8](FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()),
             deviceScale: Self.deviceScale(of: name, in: folder))
        }
        let chosen = steps.map { Set($0.split(separator: ",").map(String.init)) }
        let scorerPath = scorer ?? folder.deletingLastPathComponent().appendingPathComponent("score.py").path

        print("images: \(images.count) in \(folder.path), languages \(languages), \(workers) workers")
        let tesseractVariables = Dictionary(variables.map { v -> (String, String) in
            let parts = v.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }, uniquingKeysWith: { $1 })
        var selected: [(name: String, settings: RecognizerSettings)] = []
        for (name, ladderTuning) in Self.ladder where chosen?.contains(name) ?? true {
            var tuning = ladderTuning
            if let xHeight, tuning.targetXHeight != nil { tuning.targetXHeight = xHeight }
            // Plain Tesseract reads no codes; every other step pays for zbar, as Lens does.
            selected.append((name, RecognizerSettings(languages: languages, tuning: tuning, readsCodes: codes && tuning != .plain,
                                                      variables: tesseractVariables)))
        }
        let results = try recognizeAll(inputs.map(\.bytes), settings: selected.map(\.settings))
        for ((name, _), stepResults) in zip(selected, results) {
            let out = URL(fileURLWithPath: output).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            var failures = 0
            for (input, result) in zip(inputs, stepResults) {
                let stem = (input.name as NSString).deletingPathExtension
                if result.text == nil { failures += 1 }
                try Data((result.text ?? "").utf8).write(to: out.appendingPathComponent(stem + ".txt"))
            }
            func cpu(_ filter: (Double?) -> Bool) -> String {
                let picked = zip(inputs, stepResults).filter { filter($0.0.deviceScale) }.map(\.1.cpuSeconds)
                return picked.isEmpty ? "-" : String(format: "%.3f s (%d)", picked.reduce(0, +) / Double(picked.count), picked.count)
            }
            print("\n== \(name): \(out.path)\(failures > 0 ? " (\(failures) failed)" : "")")
            print("  CPU per image: all \(cpu { _ in true }), 1x \(cpu { ($0 ?? 1) <= 1 }), 2x/3x \(cpu { ($0 ?? 1) > 1 })")
            Self.printScore(scorer: scorerPath, corpus: folder, ocr: out)
        }
    }

    /// Recognizes every image with every step's settings on `workers` threads; results are `[step][image]`.
    ///
    /// A thread reads one image with all steps back to back, timing each by its own CPU clock, so
    /// a change in machine speed during the run (a busy neighbour on a VM) affects every step alike.
    private func recognizeAll(_ images: [[UInt8]], settings: [RecognizerSettings]) throws -> [[(text: String?, cpuSeconds: Double)]] {
        let state = SharedProgress(steps: settings.count, images: images.count)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<workers {
            let thread = Thread {
                defer { done.signal() }
                let recognizers: [Recognizer]
                do { recognizers = try settings.map { try Recognizer(settings: $0) } } catch {
                    state.fail(error)
                    return
                }
                while let image = state.nextImage() {
                    for (step, recognizer) in recognizers.enumerated() {
                        let start = Self.threadCPUSeconds()
                        let text = try? recognizer.recognize(images[image]).text
                        state.record(step: step, image: image, (text, Self.threadCPUSeconds() - start))
                    }
                }
            }
            thread.name = "lens-bench-ocr-\(index)"
            thread.stackSize = 16 << 20 // as OCRWorkerPool: Tesseract's layout analysis recurses deeply
            thread.start()
        }
        for _ in 0..<workers { done.wait() }
        return try state.results()
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The sidecar's device `scale` (1 desktop, 2/3 phone), when the corpus has sidecars.
    static func deviceScale(of image: String, in folder: URL) -> Double? {
        let sidecar = folder.appendingPathComponent((image as NSString).deletingPathExtension + ".json")
        guard let data = FileManager.default.contents(atPath: sidecar.path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["scale"] as? NSNumber)?.doubleValue
    }

    static func printScore(scorer: String, corpus: URL, ocr: URL) {
        guard FileManager.default.fileExists(atPath: scorer), let python = Measure.which("python3") else { return }
        let pipe = Pipe()
        guard (try? Measure.run(python, [scorer, corpus.path, ocr.path], stdout: pipe.fileHandleForWriting)) != nil else { return }
        try? pipe.fileHandleForWriting.close()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let wanted = ["group", "overall", "theme=dark", "theme=light", "flag=low_contrast", "flag=small_text", "flag=phone"]
        for line in report.split(separator: "\n") where wanted.contains(where: { line.hasPrefix($0 + " ") }) {
            print("  " + line)
        }
    }
}

/// The work list and results shared by the benchmark's threads.
private final class SharedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let imageCount: Int
    private var storage: [[(text: String?, cpuSeconds: Double)]]
    private var error: (any Error)?

    init(steps: Int, images: Int) {
        imageCount = images
        storage = Array(repeating: Array(repeating: (nil, 0), count: images), count: steps)
    }

    func nextImage() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard error == nil, next < imageCount else { return nil }
        next += 1
        return next - 1
    }

    func record(step: Int, image: Int, _ result: (text: String?, cpuSeconds: Double)) {
        lock.lock(); defer { lock.unlock() }
        storage[step][image] = result
    }

    func fail(_ error: any Error) {
        lock.lock(); defer { lock.unlock() }
        self.error = error
    }

    func results() throws -> [[(text: String?, cpuSeconds: Double)]] {
        lock.lock(); defer { lock.unlock() }
        if let error { throw error }
        return storage
    }
}
