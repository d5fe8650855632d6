/// A unit-length embedding kept in 8 bits a dimension: one scale (the largest magnitude / 127)
/// and the rounded quotients. 384 dimensions take 388 bytes stored; the dot product of two is
/// summed in integers and scaled once, and stays within about 0.01 of the floats' (the tests
/// measure it).
public struct QuantizedVector: Equatable, Sendable {
    public var scale: Float
    public var values: [Int8]

    public init(scale: Float, values: [Int8]) {
        self.scale = scale
        self.values = values
    }

    public init(_ vector: [Float]) {
        let largest = vector.reduce(Float(0)) { max($0, abs($1)) }
        let scale: Float = largest > 0 ? largest / 127 : 1
        self.scale = scale
        values = vector.map { Int8(clamping: Int(($0 / scale).rounded())) }
    }

    /// The dot product (the cosine, both being unit length).
    public func dot(_ other: QuantizedVector) -> Float {
        precondition(values.count == other.values.count, "vectors of different lengths")
        var sum: Int32 = 0
        values.withUnsafeBufferPointer { a in
            other.values.withUnsafeBufferPointer { b in
                for i in 0..<a.count { sum &+= Int32(a[i]) &* Int32(b[i]) }
            }
        }
        return Float(sum) * scale * other.scale
    }

    /// The stored form: the scale (4 bytes, little-endian IEEE 754), then one byte a dimension.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4 + values.count)
        let bits = scale.bitPattern
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt32(i)))) }
        for value in values { out.append(UInt8(bitPattern: value)) }
        return out
    }

    /// The vector from its stored form, or nil when the bytes are not one of `dimensions`.
    public init?(bytes: some Collection<UInt8>, dimensions: Int) {
        guard bytes.count == 4 + dimensions else { return nil }
        var bits: UInt32 = 0
        for (i, byte) in bytes.prefix(4).enumerated() { bits |= UInt32(byte) << (8 * UInt32(i)) }
        let scale = Float(bitPattern: bits)
        guard scale.isFinite, scale > 0 else { return nil }
        self.scale = scale
        values = bytes.dropFirst(4).map { Int8(bitPattern: $0) }
    }
}
