import LensCore
import Testing

struct TextSizeTests {
    @Test func theEstimateIsTheMedianGlyphHeight() {
        // 15 x-height letters, 6 taller ascenders/capitals, plus a rule, a photo and specks that do not count.
        let glyphs = Array(repeating: (width: 7, height: 8), count: 15) + Array(repeating: (width: 7, height: 11), count: 6)
        let noise = [(width: 600, height: 2), (width: 300, height: 200), (width: 2, height: 2), (width: 40, height: 5)]
        #expect(TextSize.estimatedXHeight(componentSizes: glyphs + noise) == 8)
        // An even count takes the mean of the two middle heights.
        let even = Array(repeating: (width: 5, height: 10), count: 10) + Array(repeating: (width: 5, height: 12), count: 10)
        #expect(TextSize.estimatedXHeight(componentSizes: even) == 11)
    }

    @Test func tooFewGlyphsGiveNoEstimate() {
        #expect(TextSize.estimatedXHeight(componentSizes: Array(repeating: (width: 7, height: 8), count: 19)) == nil)
        #expect(TextSize.estimatedXHeight(componentSizes: Array(repeating: (width: 90, height: 8), count: 50)) == nil) // rules, not glyphs
        #expect(TextSize.estimatedXHeight(componentSizes: [(width: Int, height: Int)]()) == nil)
    }

    @Test(arguments: [
        (6.0, 14.0, 14.0 / 6), (28.0, 14.0, 0.5), (14.0, 14.0, 1.0), (13.0, 14.0, 1.0), (15.5, 14.0, 1.0),
        (12.0, 14.0, 14.0 / 12), (2.0, 14.0, 4.0), (100.0, 14.0, 0.25), (0.0, 14.0, 1.0),
    ])
    func scaleFactorsAreClampedAndSkipSmallChanges(xHeight: Double, target: Double, expected: Double) {
        #expect(abs(TextSize.scaleFactor(xHeight: xHeight, target: target) - expected) < 1e-9)
    }

    @Test func thePlainTuningChangesNothing() {
        #expect(OCRTuning.plain.targetXHeight == nil && !OCRTuning.plain.normalizesPolarity && !OCRTuning.plain.normalizesContrast)
        #expect(OCRTuning.plain.pageSegmentation.tesseractMode == 3)
        #expect(OCRTuning.screenshots.pageSegmentation.tesseractMode == 6)
    }
}

struct WebAddressTests {
    @Test(arguments: [
        ("https://example.org/docs", "https://example.org/docs"),
        ("HTTP://WWW.Example.org/Path?Q=A#Frag", "http://www.example.org/Path?Q=A#Frag"),
        ("www.example.com/wiki/Release_Process", "https://www.example.com/wiki/Release_Process"),
        ("https://example.org:8443/x", "https://example.org:8443/x"),
        ("  https://example.org/padded \n", "https://example.org/padded"),
    ])
    func addressesAreNormalized(payload: String, normalized: String) {
        #expect(WebAddress(payload)?.normalized == normalized)
    }

    @Test(arguments: ["otpauth://totp/Lens:priya@example.org?secret=JBSWY3DPEHPK3PXP", "WIFI:S:Home;T:WPA;P:pw;;",
                      "4006381333931", "https://localhost/x", "https://exa mple.org", "ftp://example.org/file", "", "https://.org"])
    func otherPayloadsAreNotWebAddresses(payload: String) {
        #expect(WebAddress(payload) == nil)
    }
}

struct UncertainWordTests {
    @Test func wordsUnderTheThresholdAreMarked() {
        let text = "Crème brûlée 12.50\nTotal"
        let words = [
            RecognizedWord(textOffset: 0, textLength: 6, confidence: 91, x: 0, y: 0, width: 1, height: 1),
            RecognizedWord(textOffset: 7, textLength: 8, confidence: 42, x: 0, y: 0, width: 1, height: 1),
            RecognizedWord(textOffset: 16, textLength: 5, confidence: 88, x: 0, y: 0, width: 1, height: 1),
            RecognizedWord(textOffset: 22, textLength: 5, confidence: 10, x: 0, y: 0, width: 1, height: 1),
        ]
        #expect(Recognition.marking(text, words: words, below: 50, open: "[?", close: "?]") == "Crème [?brûlée?] 12.50\n[?Total?]")
        #expect(Recognition.marking(text, words: words, below: 0, open: "[?", close: "?]") == text)
        #expect(Recognition.marking(text, words: words, below: 100, open: "<", close: ">") == "<Crème> <brûlée> <12.50>\n<Total>")
    }
}
