import CZlib
import Foundation
import GRDB

/// Stored text is deflated with zlib: on real screenshot text it takes 0.56× the space
/// (0.42× on the synthetic benchmark text), which is what keeps the database near the size of
/// the raw text even with the full-text index beside it.
///
/// Format: the UTF-8 length as a 4-byte little-endian prefix, then a zlib stream (`compress2`).
enum TextCompression {
    static func deflate(_ text: String) -> [UInt8] {
        deflate(bytes: Array(text.utf8))
    }

    /// Word boxes are deflated too: their varints still compress to about 0.7 of their size.
    static func deflate(bytes input: [UInt8]) -> [UInt8] {
        var bound = compressBound(uLong(input.count))
        var out = [UInt8](repeating: 0, count: 4 + Int(bound))
        let count = UInt32(input.count)
        for i in 0..<4 { out[i] = UInt8(truncatingIfNeeded: count >> (8 * UInt32(i))) }
        let status = out.withUnsafeMutableBufferPointer { dst in
            input.withUnsafeBufferPointer { src in
                compress2(dst.baseAddress! + 4, &bound, src.baseAddress, uLong(input.count), 6)
            }
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status)") // only on out-of-memory
        return Array(out.prefix(4 + Int(bound)))
    }

    struct CorruptText: Error, CustomStringConvertible {
        var description: String { "stored text is corrupt (it does not inflate)" }
    }

    static func inflate(_ body: [UInt8]) throws -> String {
        String(decoding: try inflate(bytes: body), as: UTF8.self)
    }

    static func inflate(bytes body: [UInt8]) throws -> [UInt8] {
        guard body.count >= 4 else { throw CorruptText() }
        let count = body[0..<4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard count > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: count)
        var length = uLong(count)
        let status = out.withUnsafeMutableBufferPointer { dst in
            body.withUnsafeBufferPointer { src in
                uncompress(dst.baseAddress, &length, src.baseAddress! + 4, uLong(body.count - 4))
            }
        }
        guard status == Z_OK, Int(length) == count else { throw CorruptText() }
        return out
    }

    /// `lens_inflate(body)` and `lens_deflate(text)`, registered on every connection: the FTS5
    /// index reads its external content through a view that inflates, and its triggers inflate
    /// the old text to remove it from the index.
    static let functions: [DatabaseFunction] = [
        DatabaseFunction("lens_inflate", argumentCount: 1, pure: true) { values in
            guard let data = Data.fromDatabaseValue(values[0]) else { return nil }
            return try inflate([UInt8](data))
        },
        DatabaseFunction("lens_deflate", argumentCount: 1, pure: true) { values in
            guard let text = String.fromDatabaseValue(values[0]) else { return nil }
            return Data(deflate(text))
        },
    ]
}
