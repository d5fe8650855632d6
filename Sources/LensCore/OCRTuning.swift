/// How Tesseract lays out a page before it reads the lines (its `tessedit_pageseg_mode`).
public enum PageSegmentation: String, Sendable, Equatable, CaseIterable {
    /// Tesseract's default (PSM 3): finds columns and blocks by itself.
    case automatic
    /// PSM 4: one column of text of variable sizes.
    case singleColumn
    /// PSM 6: one uniform block; each row of the screen is one line of text.
    case singleBlock

    /// Tesseract's numeric page segmentation mode.
    public var tesseractMode: Int32 {
        switch self {
        case .automatic: 3
        case .singleColumn: 4
        case .singleBlock: 6
        }
    }
}

/// The preprocessing steps and layout mode used to read an image.
///
/// Every step and the constants below were chosen by measurement on the real screenshots of the
/// evaluation corpus (`lens-bench ocr`; the table is in LensOCR/README.md), and each is decided per
/// image from that image's own measurements, never from its name or source.
public struct OCRTuning: Sendable, Equatable {
    /// Invert the image when its background (the median gray) is dark, so text is dark on light.
    public var normalizesPolarity: Bool
    /// Stretch the contrast tile by tile, so faint text on a tinted background becomes black on white.
    public var normalizesContrast: Bool
    /// Scale the image so that its measured x-height lands on this many pixels; `nil` keeps its size.
    public var targetXHeight: Double?
    public var pageSegmentation: PageSegmentation

    public init(normalizesPolarity: Bool, normalizesContrast: Bool, targetXHeight: Double?, pageSegmentation: PageSegmentation) {
        self.normalizesPolarity = normalizesPolarity
        self.normalizesContrast = normalizesContrast
        self.targetXHeight = targetXHeight
        self.pageSegmentation = pageSegmentation
    }

    /// What Lens uses: every step on, text scaled to a 14 px x-height, rows read as lines.
    public static let screenshots = OCRTuning(
        normalizesPolarity: true, normalizesContrast: true, targetXHeight: 14, pageSegmentation: .singleBlock)

    /// Plain Tesseract: the image as decoded, default page segmentation. The baseline of `lens-bench ocr`.
    public static let plain = OCRTuning(
        normalizesPolarity: false, normalizesContrast: false, targetXHeight: nil, pageSegmentation: .automatic)
}

/// Estimates the size of the text on an image from its connected components, to decide how much to scale it.
public enum TextSize {
    /// Components shorter than this are dots, accents and noise.
    static let minimumGlyphHeight = 4
    /// Components taller than this are icons, photos, frames or rules, not glyphs.
    static let maximumGlyphHeight = 160
    /// Fewer glyph-sized components than this give no reliable estimate (an icon, a photo).
    static let minimumGlyphCount = 20

    /// The median height of the glyph-sized components (width at most 3× height: letters, not rules).
    ///
    /// Lower-case letters outnumber capitals, digits and ascenders in running text, so the median
    /// is close to the x-height whatever the font. Returns `nil` when too few components look like glyphs.
    public static func estimatedXHeight<S: Sequence>(componentSizes: S) -> Double? where S.Element == (width: Int, height: Int) {
        let sorted = componentSizes
            .filter { $0.height >= minimumGlyphHeight && $0.height <= maximumGlyphHeight && $0.width <= 3 * $0.height }
            .map(\.height)
            .sorted()
        guard sorted.count >= minimumGlyphCount else { return nil }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[mid]) : Double(sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The factor that brings `xHeight` to `target`, within 0.25...4; 1 when already within 10%,
    /// since resampling costs time and blurs crisp glyphs for no gain.
    public static func scaleFactor(xHeight: Double, target: Double) -> Double {
        guard xHeight > 0, target > 0 else { return 1 }
        let factor = min(4, max(0.25, target / xHeight))
        return abs(factor - 1) <= 0.1 ? 1 : factor
    }
}
