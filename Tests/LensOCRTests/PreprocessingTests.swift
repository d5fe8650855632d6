import CTesseract
import Foundation
import LensCore
@testable import LensOCR
import LensTestSupport
import Testing

/// Preprocessing chosen per image from the image's own measurements (see LensOCR/README.md for the
/// corpus figures behind each step), checked on the bundled samples with real leptonica and Tesseract.
@Suite(.serialized)
struct PreprocessingTests {
    /// Decodes a sample and runs the preparation steps on it, returning what they measured and did.
    private func report(for name: String, tuning: OCRTuning = .screenshots) throws -> PreparationReport {
        let bytes = try TestSupport.sampleBytes(name)
        var source: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
        defer { pixDestroy(&source) }
        let decoded = try #require(source)
        let gray = try #require(ImagePreparation.grayscale(decoded))
        let (image, report) = ImagePreparation.prepare(gray, tuning: tuning)
        var prepared: UnsafeMutablePointer<PIX>? = image
        pixDestroy(&prepared)
        return report
    }

    @Test func darkThemesAreInvertedAndLightOnesAreNot() throws {
        #expect(try report(for: "chat_dark").inverted)
        #expect(try report(for: "terminal").inverted)
        #expect(try !report(for: "receipt_light").inverted)
        #expect(try !report(for: "small_text").inverted)
        #expect(try !report(for: "chat_dark", tuning: .plain).inverted) // the baseline leaves images alone
    }

    /// 11 px text (x-height ~6 px) is scaled up; 3x phone text (x-height ~26 px) is scaled down;
    /// text already near the target is left at its size.
    @Test func textIsScaledTowardsTheTargetXHeight() throws {
        let small = try report(for: "small_text")
        let smallXHeight = try #require(small.measuredXHeight)
        #expect(smallXHeight < 9 && small.scale > 1.5, "\(small)")
        let retina = try report(for: "retina_chat")
        let retinaXHeight = try #require(retina.measuredXHeight)
        #expect(retinaXHeight > 20 && retina.scale < 0.7, "\(retina)")
        let target = try #require(OCRTuning.screenshots.targetXHeight)
        #expect(abs(smallXHeight * small.scale - target) < 1)
        #expect(abs(retinaXHeight * retina.scale - target) < 1)
        #expect(try report(for: "receipt_light", tuning: .plain).scale == 1)
    }

    @Test func smallUITextIsReadAfterScaling() throws {
        let bytes = try TestSupport.sampleBytes("small_text")
        let expected = try TestSupport.sampleText("small_text")
        let tuned = try Recognizer().recognize(bytes).text
        let plain = try Recognizer(settings: RecognizerSettings(tuning: .plain)).recognize(bytes).text
        let tunedRecall = TestSupport.wordRecall(expected: expected, actual: tuned)
        let plainRecall = TestSupport.wordRecall(expected: expected, actual: plain)
        #expect(tunedRecall >= 0.9, "word recall \(tunedRecall):\n\(tuned)")
        #expect(tunedRecall >= plainRecall, "plain Tesseract read more (\(plainRecall)):\n\(plain)")
        #expect(tuned.contains("ops-team@example.org"))
    }

    /// A 3x phone screenshot is read at a third of its pixels, and word boxes still refer to the
    /// image as stored: the first word sits where it was drawn (x = 84, y = 72 at 3x).
    @Test func retinaScreenshotsAreDownscaledAndBoxesMapBack() throws {
        let result = try Recognizer().recognize(try TestSupport.sampleBytes("retina_chat"))
        let expected = try TestSupport.sampleText("retina_chat")
        #expect(TestSupport.wordRecall(expected: expected, actual: result.text) >= 0.9, "\(result.text)")
        #expect(result.width == 1170 && result.height == 1260)
        let first = try #require(result.words.first)
        let utf8 = Array(result.text.utf8)
        #expect(String(decoding: utf8[first.textOffset..<first.textOffset + first.textLength], as: UTF8.self) == "Aoife")
        #expect(abs(first.x - 84) <= 12 && abs(first.y - 80) <= 20 && first.height > 25, "\(first)")
        for word in result.words {
            #expect(word.x >= 0 && word.y >= 0 && word.x + word.width <= result.width && word.y + word.height <= result.height)
        }
    }

    @Test(arguments: [
        ("qr_ticket", "https://example.org/tickets/8F3K2Q?seat=14C"),
        ("qr_dark_2fa", "otpauth://totp/Lens:priya@example.org?secret=JBSWY3DPEHPK3PXP&issuer=Lens"),
    ])
    func qrCodesAreDecodedAndNotReadAsText(name: String, payload: String) throws {
        let result = try Recognizer().recognize(try TestSupport.sampleBytes(name))
        #expect(result.codes == [DecodedCode(symbology: "QR-Code", payload: payload)])
        let expected = try TestSupport.sampleText(name)
        #expect(TestSupport.wordRecall(expected: expected, actual: result.text) >= 0.9, "\(result.text)")
        // The code's modules are erased before OCR: no block of junk words next to the text.
        let expectedWords = expected.split(whereSeparator: \.isWhitespace).count
        #expect(result.text.split(whereSeparator: \.isWhitespace).count <= expectedWords + 2, "\(result.text)")
    }

    /// Text on a transparent background: the transparent pixels are black with alpha 0, so an
    /// image read without blending would be black on black.
    @Test func transparentBackgroundsReadAsWhite() throws {
        let bytes = try TestSupport.sampleBytes("receipt_light")
        var source: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
        defer { pixDestroy(&source) }
        let decoded = try #require(source)
        var gray = pixConvertTo8(decoded, 0)
        defer { pixDestroy(&gray) }
        let grayImage = try #require(gray)
        let width = Int32(grayImage.pointee.w), height = Int32(grayImage.pointee.h)
        var rgba = pixCreate(width, height, 32)
        defer { pixDestroy(&rgba) }
        let rgbaImage = try #require(rgba)
        pixSetSpp(rgbaImage, 4)
        for y in 0..<height {
            for x in 0..<width {
                var value: UInt32 = 0, pixel: UInt32 = 0
                pixGetPixel(grayImage, x, y, &value)
                composeRGBAPixel(0, 0, 0, 255 - Int32(value), &pixel) // black ink, opaque where the text is
                pixSetPixel(rgbaImage, x, y, pixel)
            }
        }
        var encoded: UnsafeMutablePointer<UInt8>?
        var size = 0
        #expect(pixWriteMem(&encoded, &size, rgbaImage, Int32(IFF_PNG)) == 0)
        let png = [UInt8](UnsafeBufferPointer(start: encoded, count: size))
        lept_free(encoded)
        let text = try Recognizer().recognize(png).text
        let recall = TestSupport.wordRecall(expected: try TestSupport.sampleText("receipt_light"), actual: text)
        #expect(recall >= 0.8, "word recall \(recall):\n\(text)")
    }

    @Test func codesAreOnlyReadWhenAsked() throws {
        let settings = RecognizerSettings(readsCodes: false)
        #expect(try Recognizer(settings: settings).recognize(try TestSupport.sampleBytes("qr_ticket")).codes.isEmpty)
        #expect(try Recognizer().recognize(try TestSupport.sampleBytes("receipt_light")).codes.isEmpty)
    }
}
