/// An image container recognized from a file's leading bytes.
///
/// Lens never trusts file extensions: a text file named `.jpg` is not an image,
/// and a PNG named `.dat` is. Sniffing needs at most ``ImageFormat/sniffLength`` bytes.
public enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case png, jpeg, webp, tiff, gif, bmp

    /// How many leading bytes ``init(sniffing:)`` needs to decide.
    public static let sniffLength = 12

    /// Recognizes the format from a file's first bytes, or returns `nil` when they
    /// match none of the supported signatures.
    public init?(sniffing prefix: some Collection<UInt8>) {
        let b = Array(prefix.prefix(Self.sniffLength))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            b.count >= offset + signature.count && Array(b[offset..<offset + signature.count]) == signature
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("BM".utf8)) && b.count >= 6 {
            self = .bmp
        } else {
            return nil
        }
    }
}
