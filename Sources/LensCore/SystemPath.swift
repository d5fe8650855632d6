/// File names on Linux are bytes; Lens keeps paths as text (SQLite columns, JSON, output). A name
/// that is not UTF-8 (a file copied from an old Latin-1 system: `caf\xE9.png`) is kept by a
/// reversible mapping, as Python's `surrogateescape` does, but into code points a Swift `String`
/// can hold: each byte that is not part of valid UTF-8 becomes U+10FF00 + byte (U+10FF80…U+10FFFF,
/// private use). Turning the text back into bytes for a system call gives the original name.
/// A name that really holds one of those code points has its bytes escaped too, so the mapping is
/// one-to-one. Names that are UTF-8, nearly all, are unchanged.
///
/// Hand-written: Foundation and swift-system (`FilePath`) keep such names, but not as a `String`
/// that can be stored, compared by prefix in SQL and printed.
public enum SystemPath {
    static let escapes: ClosedRange<UInt32> = 0x10FF80...0x10FFFF

    /// The text for a name or path read from the system as bytes.
    public static func string(fromBytes bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let valid = String(validating: bytes, as: UTF8.self), !valid.unicodeScalars.contains(where: { escapes.contains($0.value) }) {
            return valid
        }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                scalars.append(Unicode.Scalar(lead))
                index += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, index + length <= bytes.count,
               let decoded = String(validating: bytes[index..<index + length], as: UTF8.self),
               decoded.unicodeScalars.count == 1, let scalar = decoded.unicodeScalars.first, !escapes.contains(scalar.value) {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(0x10FF00 + UInt32(lead))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes the system knows `path` by.
    public static func bytes(of path: String) -> [UInt8] {
        guard isEscaped(path) else { return Array(path.utf8) }
        var bytes: [UInt8] = []
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                bytes.append(UInt8(scalar.value - 0x10FF00))
            } else {
                bytes += Array(String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Whether `path` holds a byte that is not UTF-8.
    public static func isEscaped(_ path: String) -> Bool {
        path.unicodeScalars.contains { escapes.contains($0.value) }
    }

    /// `path` for people: each byte that is not UTF-8 as `\xNN`.
    public static func visible(_ path: String) -> String {
        guard isEscaped(path) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            if escapes.contains(scalar.value) {
                let byte = scalar.value - 0x10FF00
                out += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// Calls `body` with this path as the C string the system knows it by (``SystemPath``).
    public func withSystemPath<T>(_ body: (UnsafePointer<CChar>) throws -> T) rethrows -> T {
        guard SystemPath.isEscaped(self) else { return try withCString(body) }
        let bytes = SystemPath.bytes(of: self).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }
}
