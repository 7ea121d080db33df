/// A fixed-capacity history of `Double` values addressed by absolute sample index, so stages can
/// look back over a window without allocating. Memory is constant: the oldest values are
/// overwritten. A `RingPlanes` of one plane, under the names the step stages use.
struct RingBuffer: Sendable {
    private var ring: RingPlanes

    /// `minimumCapacity` is rounded up to a power of two so indexing is a mask, not a division.
    init(minimumCapacity: Int) {
        ring = RingPlanes(planes: 1, minimumCapacity: minimumCapacity)
    }

    /// Number of values ever appended; the newest value has index `count - 1`.
    var count: Int { ring.count }
    /// How many of the most recent values are still held.
    var capacity: Int { ring.capacity }
    /// Smallest absolute index still held.
    var oldestIndex: Int { ring.oldestIndex }

    @inline(__always) mutating func append(_ value: Double) { ring.append(value) }

    /// The value at absolute index `index` (must be in `oldestIndex..<count`).
    @inline(__always) subscript(index: Int) -> Double { ring[index] }

    /// Forgets everything (after a gap), keeping the storage.
    mutating func removeAll() { ring.removeAll() }

    /// Copies values `start..<start+n` (absolute, all still held) into `destination[0..<n]`: at
    /// most two contiguous block copies (before and after the wrap).
    func copy(from start: Int, count n: Int, into destination: inout [Double]) {
        ring.copy(plane: 0, from: start, count: n, into: &destination)
    }
}
