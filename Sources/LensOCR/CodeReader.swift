import CTesseract
import CZbar
import LensCore

/// Decodes QR codes and barcodes with zbar, on the 8-bit image that OCR also reads.
///
/// One scanner per recognizer (zbar scanners are not thread-safe and cost little to keep).
/// Only symbologies that screenshots carry are enabled (QR codes on tickets, 2FA set-up and
/// payment pages; EAN/UPC and Code 128 on receipts and parcels): zbar's other 1-D decoders
/// (Interleaved 2 of 5, Codabar, DataBar…) find phantom codes in rows of text.
final class CodeReader {
    private let scanner: OpaquePointer

    static let enabledSymbologies: [zbar_symbol_type_t] = [ZBAR_QRCODE, ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE, ZBAR_CODE128]

    init?() {
        guard let scanner = zbar_image_scanner_create() else { return nil }
        self.scanner = scanner
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for symbology in Self.enabledSymbologies {
            zbar_image_scanner_set_config(scanner, symbology, ZBAR_CFG_ENABLE, 1)
        }
        // Every second row and column: codes on screenshots span far more than two scan lines,
        // and this halves zbar's time (25 → 14 ms on a 1080p screenshot).
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, 2)
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, 2)
        // Dark-mode pages show light modules on a dark background.
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    /// A code and the bounding box of the points zbar located it by, in image pixels.
    struct Found {
        var code: DecodedCode
        var minX: Int, minY: Int, maxX: Int, maxY: Int
    }

    /// The codes on an 8-bit gray image, without duplicates.
    func codes(in gray: UnsafeMutablePointer<PIX>) -> [Found] {
        let width = Int(gray.pointee.w), height = Int(gray.pointee.h)
        guard gray.pointee.d == 8, width > 0, height > 0 else { return [] }
        // zbar wants packed Y800 rows; leptonica stores 8-bit pixels in 32-bit words, big-endian within each word.
        let wpl = Int(gray.pointee.wpl)
        var luma = [UInt8](repeating: 0, count: width * height)
        let words = gray.pointee.data!
        for y in 0..<height {
            let line = words + y * wpl
            for x in 0..<width {
                let word = line[x >> 2]
                luma[y * width + x] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (x & 3)))
            }
        }
        guard let image = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, 0x3030_3859) // fourcc "Y800": 8-bit luminance
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        var found: [Found] = []
        luma.withUnsafeBytes { buffer in
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            guard zbar_scan_image(scanner, image) > 0 else { return }
            var symbol = zbar_image_first_symbol(image)
            while let current = symbol {
                let length = Int(zbar_symbol_get_data_length(current))
                if let data = zbar_symbol_get_data(current) {
                    let bytes = UnsafeRawBufferPointer(start: data, count: length)
                    let code = DecodedCode(symbology: String(cString: zbar_get_symbol_name(zbar_symbol_get_type(current))),
                                           payload: String(decoding: bytes, as: UTF8.self))
                    var xs: [Int] = [], ys: [Int] = []
                    for point in 0..<zbar_symbol_get_loc_size(current) {
                        xs.append(Int(zbar_symbol_get_loc_x(current, point)))
                        ys.append(Int(zbar_symbol_get_loc_y(current, point)))
                    }
                    if !found.contains(where: { $0.code == code }) {
                        found.append(Found(code: code, minX: xs.min() ?? 0, minY: ys.min() ?? 0,
                                           maxX: xs.max() ?? -1, maxY: ys.max() ?? -1))
                    }
                }
                symbol = zbar_symbol_next(current)
            }
        }
        return found
    }

    /// Paints each found code's box (grown by a quiet zone of `margin` pixels) with the image's
    /// background gray, so that OCR does not read the modules as a block of junk characters.
    static func erase(_ found: [Found], from gray: UnsafeMutablePointer<PIX>, margin: Int = 8) {
        var background: UInt32 = 255
        guard !found.isEmpty, pixGetRankValue(gray, 2, 0.5, &background) == 0 else { return }
        for item in found where item.maxX >= item.minX && item.maxY >= item.minY {
            var box: UnsafeMutablePointer<BOX>? = boxCreate(
                Int32(max(0, item.minX - margin)), Int32(max(0, item.minY - margin)),
                Int32(item.maxX - item.minX + 1 + 2 * margin), Int32(item.maxY - item.minY + 1 + 2 * margin))
            if let rect = box { pixSetInRectArbitrary(gray, rect, background) }
            boxDestroy(&box)
        }
    }
}
