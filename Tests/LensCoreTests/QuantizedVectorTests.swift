import LensCore
import LensTestSupport
import Testing

struct QuantizedVectorTests {
    /// Random unit vectors of 384 dimensions, seeded.
    static func unitVectors(_ count: Int, seed: UInt64) -> [[Float]] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { _ in
            let raw = (0..<384).map { _ in Float(Double(random.next(upTo: 2_000_001)) / 1_000_000 - 1) }
            let norm = raw.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return raw.map { $0 / norm }
        }
    }

    @Test func dotProductsStayCloseToTheFloats() {
        let vectors = Self.unitVectors(40, seed: 7)
        var worst: Float = 0
        for a in vectors.prefix(20) {
            for b in vectors.suffix(20) {
                let exact = zip(a, b).reduce(Float(0)) { $0 + $1.0 * $1.1 }
                worst = max(worst, abs(QuantizedVector(a).dot(QuantizedVector(b)) - exact))
            }
            // A vector with itself: 1 within the rounding.
            #expect(abs(QuantizedVector(a).dot(QuantizedVector(a)) - 1) < 0.01)
        }
        #expect(worst < 0.01, "worst error \(worst)")
    }

    @Test func roundTripsThroughItsBytes() throws {
        let vector = QuantizedVector(Self.unitVectors(1, seed: 3)[0])
        #expect(vector.bytes.count == 388)
        let back = try #require(QuantizedVector(bytes: vector.bytes, dimensions: 384))
        #expect(back == vector)
        #expect(QuantizedVector(bytes: vector.bytes.dropLast(), dimensions: 384) == nil)
        #expect(QuantizedVector(bytes: [0, 0, 0, 0] + [UInt8](repeating: 1, count: 384), dimensions: 384) == nil)
        #expect(QuantizedVector([Float](repeating: 0, count: 384)).values.allSatisfy { $0 == 0 })
    }
}
