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
    ///
    /// `index & mask` is below `storage.count` (`mask + 1`, fixed at init) for every index, so
    /// the read goes through the buffer pointer: the array's bounds check could never fail here.
    @inline(__always) subscript(index: Int) -> Double {
        storage.withUnsafeBufferPointer { $0[index & mask] }
    }

    /// Forgets everything (after a gap), keeping the storage.
    mutating func removeAll() { count = 0 }

    /// Copies values `start..<start+n` (absolute) into `destination[0..<n]`: at most two
    /// contiguous block copies (before and after the wrap). `n` must fit both buffers.
    func copy(from start: Int, count n: Int, into destination: inout [Double]) {
        precondition(n >= 0 && n <= capacity && n <= destination.count, "RingBuffer.copy: \(n) values do not fit")
        let first = start & mask
        let head = min(n, capacity - first)
        storage.withUnsafeBufferPointer { source in
            destination.withUnsafeMutableBufferPointer { target in
                target.baseAddress!.update(from: source.baseAddress! + first, count: head)
                if n > head { (target.baseAddress! + head).update(from: source.baseAddress!, count: n - head) }
            }
        }
    }
}
