import CTesseract
import LensCore

/// What preprocessing measured on an image and did to it.
public struct PreparationReport: Sendable, Equatable {
    /// The background was dark, so the image was inverted.
    public var inverted = false
    public var contrastNormalized = false
    /// The estimated x-height in source pixels, when enough glyphs were found to tell.
    public var measuredXHeight: Double?
    /// The factor the image was scaled by (1: not scaled).
    public var scale = 1.0
}

/// Turns a decoded image into the gray image Tesseract reads best, with leptonica, in process.
///
/// The order matters: polarity and contrast are fixed first, so that the glyphs measured for the
/// x-height are the same dark-on-light shapes at every theme, and scaling comes last, on one 8-bit channel.
enum ImagePreparation {
    /// Tile size and minimum spread of `pixContrastNorm`. A tile spans a few lines of UI text, so
    /// it holds both text and background; spreads under 30 gray levels are left alone (flat areas, noise).
    static let contrastTile: Int32 = 40
    static let contrastMinimumSpread: Int32 = 30
    /// Scaling never makes an image larger than this (upscaling small text is the one step that grows it).
    static let maximumScaledPixels = 16_000_000

    /// A new 8-bit gray image of `source` (the caller destroys it), alpha blended over white so
    /// that transparent areas read as background; `nil` when leptonica fails.
    static func grayscale(_ source: UnsafeMutablePointer<PIX>) -> UnsafeMutablePointer<PIX>? {
        var opaque: UnsafeMutablePointer<PIX>? = pixRemoveAlpha(source)
        defer { pixDestroy(&opaque) }
        guard let opaqueImage = opaque else { return nil }
        return pixConvertTo8(opaqueImage, 0)
    }

    /// Applies `tuning`'s steps to an 8-bit gray image, taking ownership of it: returns the image to
    /// read (the caller destroys it) and what was done.
    ///
    /// `visit` sees the image once, with polarity and contrast fixed, at the smaller of its sizes
    /// before and after scaling: QR codes are read (and erased) there, where it costs least. Their
    /// modules stay several pixels wide: scaling only shrinks images whose text is large.
    static func prepare(_ grayImage: UnsafeMutablePointer<PIX>, tuning: OCRTuning,
                        visit: (UnsafeMutablePointer<PIX>) -> Void = { _ in }) -> (UnsafeMutablePointer<PIX>, PreparationReport) {
        var report = PreparationReport()
        var gray: UnsafeMutablePointer<PIX>? = grayImage

        if tuning.normalizesPolarity {
            var median: UInt32 = 0
            if pixGetRankValue(grayImage, 2, 0.5, &median) == 0, median < 128 {
                pixInvert(grayImage, grayImage)
                report.inverted = true
            }
        }
        if tuning.normalizesContrast, let stretched = pixContrastNorm(
            nil, gray, contrastTile, contrastTile, contrastMinimumSpread, 1, 1) {
            pixDestroy(&gray)
            gray = stretched
            report.contrastNormalized = true
        }
        var factor = 1.0
        if let target = tuning.targetXHeight, let current = gray {
            report.measuredXHeight = measuredXHeight(current)
            if let xHeight = report.measuredXHeight {
                let pixels = Double(current.pointee.w) * Double(current.pointee.h)
                let largest = (Double(maximumScaledPixels) / pixels).squareRoot()
                factor = min(TextSize.scaleFactor(xHeight: xHeight, target: target), max(1, largest))
            }
        }
        if factor >= 1, let current = gray { visit(current) }
        if factor != 1, let current = gray, let scaled = pixScale(current, Float(factor), Float(factor)) {
            pixDestroy(&gray)
            gray = scaled
            report.scale = factor
        }
        if factor < 1, let current = gray { visit(current) }
        return (gray ?? grayImage, report)
    }

    /// The x-height of the dark glyphs of an 8-bit image, from its connected components.
    static func measuredXHeight(_ gray: UnsafeMutablePointer<PIX>) -> Double? {
        var binary: UnsafeMutablePointer<PIX>? = pixConvertTo1(gray, 128)
        defer { pixDestroy(&binary) }
        guard let binaryImage = binary else { return nil }
        var boxes: UnsafeMutablePointer<BOXA>? = pixConnCompBB(binaryImage, 8)
        defer { boxaDestroy(&boxes) }
        guard let boxList = boxes else { return nil }
        let count = boxaGetCount(boxList)
        var sizes: [(width: Int, height: Int)] = []
        sizes.reserveCapacity(Int(count))
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        for index in 0..<count where boxaGetBoxGeometry(boxList, index, &x, &y, &w, &h) == 0 {
            sizes.append((Int(w), Int(h)))
        }
        return TextSize.estimatedXHeight(componentSizes: sizes)
    }
}
