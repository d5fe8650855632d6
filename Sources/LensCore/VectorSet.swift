/// Screenshots' embeddings by id, held in one flat array and scanned whole for the nearest to a
/// query. A scan of 100,000 vectors of 384 dimensions reads 38 MB and takes some 10 ms on one
/// core (`lens-bench embed --scan`), so no approximate index is needed at the sizes Lens serves;
/// hand-written because no package here offers an int8 scan (Debian's OpenBLAS has no int8 GEMV).
public struct VectorSet: Sendable {
    public let dimensions: Int
    /// The ids, in slot order; slot `i` holds `values[i * dimensions ..< (i + 1) * dimensions]`.
    private var ids: [Int64] = []
    private var scales: [Float] = []
    private var values: [Int8] = []
    private var slots: [Int64: Int] = [:]

    public init(dimensions: Int) {
        self.dimensions = dimensions
    }

    public var count: Int { ids.count }
    public var isEmpty: Bool { ids.isEmpty }

    /// Adds `vector` for `id`, or replaces the one it had. A vector of another width is ignored.
    public mutating func set(_ vector: QuantizedVector, for id: Int64) {
        guard vector.values.count == dimensions else { return }
        if let slot = slots[id] {
            scales[slot] = vector.scale
            values.replaceSubrange(slot * dimensions..<(slot + 1) * dimensions, with: vector.values)
        } else {
            slots[id] = ids.count
            ids.append(id)
            scales.append(vector.scale)
            values.append(contentsOf: vector.values)
        }
    }

    /// Forgets `id`'s vector (the last slot moves into its place).
    public mutating func remove(_ id: Int64) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        let last = ids.count - 1
        if slot != last {
            ids[slot] = ids[last]
            scales[slot] = scales[last]
            values.replaceSubrange(slot * dimensions..<(slot + 1) * dimensions, with: values[last * dimensions..<(last + 1) * dimensions])
            slots[ids[slot]] = slot
        }
        ids.removeLast()
        scales.removeLast()
        values.removeLast(dimensions)
    }

    public func contains(_ id: Int64) -> Bool { slots[id] != nil }

    public func vector(for id: Int64) -> QuantizedVector? {
        guard let slot = slots[id] else { return nil }
        return QuantizedVector(scale: scales[slot], values: Array(values[slot * dimensions..<(slot + 1) * dimensions]))
    }

    /// The cosine of `id`'s vector with `query` (both unit length), nil when `id` has none.
    public func similarity(of id: Int64, to query: QuantizedVector) -> Float? {
        guard let slot = slots[id], query.values.count == dimensions else { return nil }
        return values.withUnsafeBufferPointer { all in
            query.values.withUnsafeBufferPointer { q in Self.dot(all.baseAddress! + slot * dimensions, q.baseAddress!, dimensions) }
        } * scales[slot] * query.scale
    }

    /// Every vector at least `minimumSimilarity` from `query`, most similar first (ties: the newer
    /// id first), at most `limit`: one pass over all of them, and a heap of `limit` entries.
    public func nearest(to query: QuantizedVector, minimumSimilarity: Float = -1, limit: Int) -> [(id: Int64, similarity: Float)] {
        guard limit > 0, query.values.count == dimensions, !ids.isEmpty else { return [] }
        var heap = BoundedHeap(capacity: limit)
        let d = dimensions
        values.withUnsafeBufferPointer { all in
            query.values.withUnsafeBufferPointer { q in
                scales.withUnsafeBufferPointer { scales in
                    ids.withUnsafeBufferPointer { ids in
                        for slot in 0..<ids.count {
                            let similarity = Self.dot(all.baseAddress! + slot * d, q.baseAddress!, d) * scales[slot] * query.scale
                            if similarity >= minimumSimilarity { heap.insert(Scored(similarity: similarity, id: ids[slot])) }
                        }
                    }
                }
            }
        }
        return heap.sortedDescending().map { ($0.id, $0.similarity) }
    }

    /// Summed in 32-bit integers: 384 products of at most 127² fit many times over.
    @inline(__always)
    private static func dot(_ a: UnsafePointer<Int8>, _ b: UnsafePointer<Int8>, _ n: Int) -> Float {
        var sum: Int32 = 0
        for i in 0..<n { sum &+= Int32(a[i]) &* Int32(b[i]) }
        return Float(sum)
    }

    struct Scored: Comparable {
        var similarity: Float
        var id: Int64
        static func < (a: Scored, b: Scored) -> Bool { (a.similarity, a.id) < (b.similarity, b.id) }
    }

    /// The `capacity` largest entries seen: a min-heap whose root is the one to drop next.
    struct BoundedHeap {
        let capacity: Int
        private(set) var items: [Scored] = []

        init(capacity: Int) {
            self.capacity = capacity
            items.reserveCapacity(min(capacity, 4_096))
        }

        mutating func insert(_ item: Scored) {
            if items.count < capacity {
                items.append(item)
                var child = items.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard items[child] < items[parent] else { break }
                    items.swapAt(child, parent)
                    child = parent
                }
            } else if let root = items.first, root < item {
                items[0] = item
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var smallest = parent
                    if left < items.count, items[left] < items[smallest] { smallest = left }
                    if right < items.count, items[right] < items[smallest] { smallest = right }
                    guard smallest != parent else { break }
                    items.swapAt(parent, smallest)
                    parent = smallest
                }
            }
        }

        func sortedDescending() -> [Scored] { items.sorted(by: >) }
    }
}
