import CTesseract
import Foundation
import LensCore

/// Why an image could not be recognized. Each case reads as the reason shown to the user.
public enum RecognitionError: Error, Equatable, CustomStringConvertible, Sendable {
    case emptyFile
    case unreadableImage
    case malformed(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case languageNotInstalled(String)
    case engineFailed
    /// Recognition ran past the time limit and was stopped.
    case timedOut(seconds: Int)

    public var description: String {
        switch self {
        case .emptyFile:
            return "empty file"
        case .unreadableImage:
            return "the image data is corrupt or truncated and could not be decoded"
        case .malformed(let reason):
            return reason
        case .tooManyPixels(let w, let h, let limit):
            return "image is \(w)x\(h) (\(w * h / 1_000_000) Mpx), over the limit of \(limit / 1_000_000) Mpx; refused before decoding"
        case .languageNotInstalled(let lang):
            let packages = lang.split(separator: "+").map { Recognizer.debianPackage(for: String($0)) }
            return "Tesseract language data for '\(lang)' is not installed (install the Debian package \(packages.joined(separator: " ")))"
        case .engineFailed:
            return "Tesseract failed to recognize the image"
        case .timedOut(let seconds):
            return "recognition took over \(seconds) s (ocr_timeout_s) and was stopped; 'lens retry' tries again"
        }
    }

    /// Whether retrying the same bytes could succeed.
    public var isPermanent: Bool {
        if case .languageNotInstalled = self { return false }
        return true
    }
}

/// Settings shared by every recognizer in a pool.
public struct RecognizerSettings: Sendable, Equatable {
    /// Tesseract language string, e.g. `eng` or `eng+deu`.
    public var languages: String
    /// Where traineddata files live; `nil` uses Tesseract's compiled-in default.
    public var dataPath: String?
    /// Resolution passed to Tesseract, since screenshots carry no meaningful DPI.
    public var sourceResolution: Int
    /// Images with more pixels are refused from their header, before any decoding.
    public var maximumPixels: Int
    /// Preprocessing and page layout; `.plain` reads the image as plain Tesseract would.
    public var tuning: OCRTuning
    /// Decode QR codes and barcodes with zbar in the same pass.
    public var readsCodes: Bool
    /// Tesseract variables set on every handle (e.g. `tessedit_do_invert`), for experiments with `lens-bench ocr`.
    public var variables: [String: String]
    /// How long one image may take; past it, recognition is stopped (`ocr_timeout_s`).
    public var timeLimit: Duration
    public static let defaultTimeLimit = Duration.seconds(60)

    public init(languages: String = "eng", dataPath: String? = nil, sourceResolution: Int = 96,
                maximumPixels: Int = 64_000_000, tuning: OCRTuning = .screenshots, readsCodes: Bool = true,
                variables: [String: String] = [:], timeLimit: Duration = RecognizerSettings.defaultTimeLimit) {
        self.timeLimit = timeLimit
        self.languages = languages
        self.dataPath = dataPath
        self.sourceResolution = sourceResolution
        self.maximumPixels = maximumPixels
        self.tuning = tuning
        self.variables = variables
        self.readsCodes = readsCodes
    }
}

/// One long-lived Tesseract handle. Not thread-safe: a recognizer belongs to one worker thread.
///
/// Creating a handle costs ~50 ms and ~15 MB, so workers keep theirs for their whole life and
/// call `TessBaseAPIClear` between images instead of re-initializing.
public final class Recognizer {
    /// The handle for `settings.languages`, made up front so a missing language fails at start.
    private let primary: OpaquePointer
    /// Handles for other language sets (per-folder `languages`), made on first use and kept, as
    /// re-initializing one handle each time the language changes would reload the models.
    private var others: [String: OpaquePointer] = [:]
    public let settings: RecognizerSettings
    private let codeReader = CodeReader()

    /// At most this many language sets besides the primary one stay loaded (~15–30 MB each).
    static let maximumOtherLanguageSets = 3

    public init(settings: RecognizerSettings = RecognizerSettings()) throws(RecognitionError) {
        primary = try Self.makeHandle(languages: settings.languages, settings: settings)
        self.settings = settings
    }

    private static func makeHandle(languages: String, settings: RecognizerSettings) throws(RecognitionError) -> OpaquePointer {
        let dataPath = settings.dataPath
        Self.silenceLeptonica
        guard let api = TessBaseAPICreate() else { throw .engineFailed }
        // Tesseract writes diagnostics through tprintf to `debug_file`; keep them off stderr.
        TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard Self.isInstalled(languages, dataPath: dataPath),
              TessBaseAPIInit3(api, dataPath, languages) == 0 else {
            TessBaseAPIDelete(api)
            throw .languageNotInstalled(languages)
        }
        for (name, value) in settings.variables { TessBaseAPISetVariable(api, name, value) }
        return api
    }

    deinit {
        for api in [primary] + Array(others.values) {
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
        }
    }

    /// The handle for `languages` (`nil`: the settings' languages).
    private func handle(for languages: String?) throws(RecognitionError) -> OpaquePointer {
        guard let languages, languages != settings.languages else { return primary }
        if let api = others[languages] { return api }
        if others.count >= Self.maximumOtherLanguageSets, let (evicted, api) = others.first {
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
            others[evicted] = nil
        }
        let api = try Self.makeHandle(languages: languages, settings: settings)
        others[languages] = api
        return api
    }

    /// Recognizes an encoded image (PNG, JPEG, WebP, TIFF, GIF or BMP) held in memory.
    ///
    /// Decoding from memory lets the caller hash exactly the bytes that are recognized.
    ///
    /// - Parameter languages: a Tesseract language string (`eng+deu`) for this image, e.g. its
    ///   folder's; `nil` means the settings' languages.
    public func recognize(_ data: [UInt8], languages: String? = nil) throws(RecognitionError) -> Recognition {
        guard !data.isEmpty else { throw .emptyFile }
        let started = ContinuousClock.now
        let api = try handle(for: languages)
        var format: Int32 = 0, w: Int32 = 0, h: Int32 = 0, bps: Int32 = 0, spp: Int32 = 0, cmap: Int32 = 0
        let headerOK = data.withUnsafeBufferPointer { buf in
            pixReadHeaderMem(buf.baseAddress, buf.count, &format, &w, &h, &bps, &spp, &cmap) == 0
        }
        guard headerOK, w > 0, h > 0 else { throw .unreadableImage }
        guard Int(w) * Int(h) <= settings.maximumPixels else {
            throw .tooManyPixels(width: Int(w), height: Int(h), limit: settings.maximumPixels)
        }
        if ImageFormat(sniffing: data) == .png, let problem = PNGStructure.problem(in: data) {
            throw .malformed(problem)
        }
        var pix: UnsafeMutablePointer<PIX>? = data.withUnsafeBufferPointer { buf in
            pixReadMem(buf.baseAddress, buf.count)
        }
        guard let image = pix else { throw .unreadableImage }
        defer { pixDestroy(&pix) }
        let width = Int(image.pointee.w), height = Int(image.pointee.h)
        guard let gray = ImagePreparation.grayscale(image) else { throw .unreadableImage }
        var found: [CodeReader.Found] = []
        let (preparedImage, report) = ImagePreparation.prepare(gray, tuning: settings.tuning) { image in
            guard settings.readsCodes, let codeReader else { return }
            found = codeReader.codes(in: image)
            // Erased so that OCR does not read the modules as a block of junk characters.
            CodeReader.erase(found, from: image)
        }
        var prepared: UnsafeMutablePointer<PIX>? = preparedImage
        defer { pixDestroy(&prepared) }

        TessBaseAPISetImage2(api, preparedImage)
        TessBaseAPISetSourceResolution(api, Int32(settings.sourceResolution))
        TessBaseAPISetPageSegMode(api, TessPageSegMode(rawValue: UInt32(settings.tuning.pageSegmentation.tesseractMode)))
        defer { TessBaseAPIClear(api) }
        // Tesseract stops at its monitor's deadline (between words and passes). What preparing
        // the image took counts against the same limit.
        let limit = settings.timeLimit
        let remaining = limit - (ContinuousClock.now - started)
        let seconds = Int(limit.components.seconds)
        guard remaining > .zero, let monitor = TessMonitorCreate() else { throw .timedOut(seconds: seconds) }
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        let status = TessBaseAPIRecognize(api, monitor)
        guard ContinuousClock.now - started <= limit else { throw .timedOut(seconds: seconds) }
        guard status == 0 else { throw .engineFailed }
        let (text, words) = readWords(api, scale: report.scale)
        return Recognition(text: text, words: words, width: width, height: height, codes: found.map(\.code))
    }

    /// Walks the result word by word, building the text so that word offsets are exact.
    /// Boxes are divided by `scale`, so they refer to the source image whatever preprocessing did.
    private func readWords(_ api: OpaquePointer, scale: Double) -> (String, [RecognizedWord]) {
        var text = ""
        var words: [RecognizedWord] = []
        guard let iterator = TessBaseAPIGetIterator(api) else { return (text, words) }
        defer { TessResultIteratorDelete(iterator) }
        let page = TessResultIteratorGetPageIterator(iterator)
        repeat {
            guard let cWord = TessResultIteratorGetUTF8Text(iterator, RIL_WORD) else { continue }
            // Words never contain white space: stored boxes are matched to the text's runs by position.
            let word = String(cString: cWord).split(whereSeparator: \.isWhitespace).joined()
            TessDeleteText(cWord)
            guard !word.isEmpty else { continue }
            if !text.isEmpty {
                if TessPageIteratorIsAtBeginningOf(page, RIL_BLOCK) != 0 {
                    text += "\n\n"
                } else if TessPageIteratorIsAtBeginningOf(page, RIL_TEXTLINE) != 0 {
                    text += "\n"
                } else {
                    text += " "
                }
            }
            var left: Int32 = 0, top: Int32 = 0, right: Int32 = 0, bottom: Int32 = 0
            TessPageIteratorBoundingBox(page, RIL_WORD, &left, &top, &right, &bottom)
            words.append(RecognizedWord(
                textOffset: text.utf8.count, textLength: word.utf8.count,
                confidence: TessResultIteratorConfidence(iterator, RIL_WORD),
                x: Int((Double(left) / scale).rounded()), y: Int((Double(top) / scale).rounded()),
                width: Int((Double(right - left) / scale).rounded()), height: Int((Double(bottom - top) / scale).rounded())))
            text += word
        } while TessResultIteratorNext(iterator, RIL_WORD) != 0
        return (text, words)
    }

    /// The installed Tesseract version, e.g. `5.3.0`.
    public static var tesseractVersion: String { String(cString: TessVersion()) }

    /// Languages with a traineddata file Tesseract can load.
    public static func installedLanguages(dataPath: String? = nil) -> [String] {
        for dir in candidateDataDirectories(dataPath) {
            if let files = try? FileManager.default.contentsOfDirectory(atPath: dir) {
                let langs = files.filter { $0.hasSuffix(".traineddata") }.map { String($0.dropLast(".traineddata".count)) }
                if !langs.isEmpty { return langs.sorted() }
            }
        }
        return []
    }

    /// The languages of a Tesseract language string (`eng+deu`) that have no traineddata file.
    public static func missingLanguages(_ languages: String, dataPath: String? = nil) -> [String] {
        let installed = Set(installedLanguages(dataPath: dataPath))
        return languages.split(separator: "+").map(String.init).filter { !installed.contains($0) }
    }

    /// Checks for the traineddata files up front: Tesseract's own failure message goes to stderr
    /// and does not name the Debian package that fixes it.
    static func isInstalled(_ languages: String, dataPath: String?) -> Bool {
        missingLanguages(languages, dataPath: dataPath).isEmpty
    }

    /// The Debian package holding a Tesseract language (`chi_sim` → `tesseract-ocr-chi-sim`)
    /// or script model (`Latin` → `tesseract-ocr-script-latn`).
    public static func debianPackage(for language: String) -> String {
        if let script = scriptCodes[language.replacingOccurrences(of: "_vert", with: "")] {
            return "tesseract-ocr-script-" + script + (language.hasSuffix("_vert") ? "-vert" : "")
        }
        return "tesseract-ocr-" + language.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    /// Tesseract's script models and the ISO 15924 codes Debian names their packages by.
    private static let scriptCodes: [String: String] = [
        "Arabic": "arab", "Armenian": "armn", "Bengali": "beng", "Canadian_Aboriginal": "cans", "Cherokee": "cher",
        "Cyrillic": "cyrl", "Devanagari": "deva", "Ethiopic": "ethi", "Fraktur": "frak", "Georgian": "geor",
        "Greek": "grek", "Gujarati": "gujr", "Gurmukhi": "guru", "HanS": "hans", "HanT": "hant", "Hangul": "hang",
        "Hebrew": "hebr", "Japanese": "jpan", "Kannada": "knda", "Khmer": "khmr", "Lao": "laoo", "Latin": "latn",
        "Malayalam": "mlym", "Myanmar": "mymr", "Oriya": "orya", "Sinhala": "sinh", "Syriac": "syrc", "Tamil": "taml",
        "Telugu": "telu", "Thaana": "thaa", "Thai": "thai", "Tibetan": "tibt", "Vietnamese": "viet",
    ]

    private static func candidateDataDirectories(_ dataPath: String?) -> [String] {
        if let dataPath { return [dataPath, dataPath + "/tessdata"] }
        var dirs: [String] = []
        if let prefix = ProcessInfo.processInfo.environment["TESSDATA_PREFIX"] { dirs += [prefix, prefix + "/tessdata"] }
        return dirs + ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata", "/usr/share/tessdata"]
    }

    /// Leptonica prints decoding errors of broken files to stderr; Lens reports them per file instead.
    private static let silenceLeptonica: Void = {
        _ = setMsgSeverity(6) // L_SEVERITY_NONE
    }()
}
