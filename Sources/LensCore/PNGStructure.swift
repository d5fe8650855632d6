/// Checks that a PNG's chunk structure is complete before it is decoded.
///
/// Hand-written because libpng, when handed a truncated file through leptonica, prints its own
/// error to stderr and only then fails; walking the chunk headers (no decompression, no CRC)
/// costs microseconds and yields a reason a person can act on.
public enum PNGStructure {
    /// `nil` when the chunks run from the signature through `IHDR` to `IEND`, else what is wrong.
    public static func problem(in bytes: [UInt8]) -> String? {
        guard ImageFormat(sniffing: bytes) == .png else { return "not a PNG file" }
        var offset = 8
        var sawHeader = false
        while true {
            guard offset + 8 <= bytes.count else {
                return "truncated PNG: the file ends after \(bytes.count) bytes, before its end marker (IEND)"
            }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if !sawHeader {
                guard type == "IHDR" else { return "corrupt PNG: the first chunk is not IHDR" }
                sawHeader = true
            }
            guard length <= 0x7FFF_FFFF, offset + 12 + length <= bytes.count else {
                return "truncated PNG: the file ends inside a \(type) chunk (\(bytes.count) bytes)"
            }
            if type == "IEND" { return nil }
            offset += 12 + length
        }
    }
}
