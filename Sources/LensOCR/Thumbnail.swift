import CTesseract
import LensCore

/// Small JPEG previews of screenshots, made with leptonica (already linked for OCR), in process.
public enum Thumbnail {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// leptonica could not decode the bytes.
        case undecodable
        /// Scaling or encoding failed.
        case encodingFailed

        public var description: String {
            switch self {
            case .undecodable: return "the image cannot be decoded"
            case .encodingFailed: return "the preview could not be encoded"
            }
        }
    }

    /// A JPEG of `bytes` whose longest side is at most `maximumSide` pixels (never enlarged).
    /// Transparency is blended over white; palette and gray images come out as 24-bit color.
    /// `redacting` boxes (image pixels: x, y, width, height) are painted black before scaling:
    /// where the masked secrets were read, so no copy Lens makes shows them.
    public static func jpeg(from bytes: [UInt8], maximumSide: Int = 400, quality: Int = 82,
                            redacting boxes: [(x: Int, y: Int, width: Int, height: Int)] = []) throws(Failure) -> [UInt8] {
        var source: UnsafeMutablePointer<PIX>? = bytes.withUnsafeBufferPointer { pixReadMem($0.baseAddress, $0.count) }
        defer { pixDestroy(&source) }
        guard let image = source else { throw .undecodable }
        var opaque: UnsafeMutablePointer<PIX>? = pixRemoveAlpha(image)
        defer { pixDestroy(&opaque) }
        guard var flat = opaque else { throw .encodingFailed }
        var full: UnsafeMutablePointer<PIX>? = boxes.isEmpty ? nil : pixConvertTo32(flat)
        defer { pixDestroy(&full) }
        if let full {
            for b in boxes {
                // A margin of 2 pixels covers anti-aliased edges the OCR box leaves out.
                var box: UnsafeMutablePointer<BOX>? = boxCreate(Int32(b.x - 2), Int32(b.y - 2), Int32(b.width + 4), Int32(b.height + 4))
                if let box { pixClearInRect(full, box) }
                boxDestroy(&box)
            }
            flat = full
        }
        let width = Int(flat.pointee.w), height = Int(flat.pointee.h)
        let factor = min(1, Float(maximumSide) / Float(max(width, height, 1)))
        // pixScale picks area mapping for reductions, which keeps small UI text legible.
        var scaled: UnsafeMutablePointer<PIX>? = factor < 1 ? pixScale(flat, factor, factor) : pixClone(flat)
        defer { pixDestroy(&scaled) }
        guard let small = scaled else { throw .encodingFailed }
        var color: UnsafeMutablePointer<PIX>? = pixConvertTo32(small)
        defer { pixDestroy(&color) }
        guard let rgb = color else { throw .encodingFailed }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard pixWriteMemJpeg(&data, &size, rgb, Int32(quality), 0) == 0, let data else { throw .encodingFailed }
        defer { lept_free(data) }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}
