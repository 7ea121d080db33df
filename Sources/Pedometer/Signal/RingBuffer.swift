/// A fixed-capacity history of `Double` values addressed by absolute sample index, so stages can
/// look back over a window without allocating. Memory is constant: the oldest values are overwritten.
struct RingBuffer: Sendable {
    private var storage: [Double]
    private let mask: Int
    /// Number of values ever appended; the newest value has index `count - 1`.
    private(set) var count = 0

    /// `minimumCapacity` is rounded up to a power of two so indexing is a mask, not a division.
    init(minimumCapacity: Int) {
        var capacity = 1
        while capacity < minimumCapacity { capacity <<= 1 }
        storage = [Double](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    /// How many of the most recent values are still held.
    var capacity: Int { mask + 1 }
    /// Smallest absolute index still held.
    var oldestIndex: Int { max(0, count - capacity) }

    @inline(__always) mutating func append(_ value: Double) {
        storage[count & mask] = value
        count += 1
    }

    /// The value at absolute index `index` (must be in `oldestIndex..<count`).
    @inline(__always) subscript(index: Int) -> Double {
        storage[index & mask]
    }

    /// Forgets everything (after a gap), keeping the storage.
    mutating func removeAll() { count = 0 }

    /// Copies values `start..<start+n` (absolute) into `destination[0..<n]`.
    func copy(from start: Int, count n: Int, into destination: inout [Double]) {
        for i in 0..<n { destination[i] = storage[(start + i) & mask] }
    }
}
