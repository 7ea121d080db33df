/// A fixed-capacity history of `Double` values addressed by absolute sample index, so stages can
/// look back over a window without allocating. Memory is constant: the oldest values are
/// overwritten. A `RingPlanes` under the names the step stages use: one plane, or several series
/// appended together (`init(planes:minimumCapacity:)`, one ownership check per tick for all of
/// them), of which this ring reads one (plane 0; `plane(_:)` is a read-only view of another).
struct RingBuffer: Sendable {
    private var ring: RingPlanes
    /// Where the plane this ring reads starts in the storage (`RingPlanes.planeOffset`).
    private let offset: Int
    /// The plane this ring reads.
    private let plane: Int

    /// `minimumCapacity` is rounded up to a power of two so indexing is a mask, not a division.
    init(minimumCapacity: Int) {
        self.init(planes: 1, minimumCapacity: minimumCapacity)
    }

    /// `planes` series (at most 8) appended together with `append(_: SIMD8<Double>)`; reads see
    /// plane 0.
    init(planes: Int, minimumCapacity: Int) {
        ring = RingPlanes(planes: planes, minimumCapacity: minimumCapacity)
        offset = 0
        plane = 0
    }

    private init(ring: RingPlanes, plane: Int) {
        self.ring = ring
        self.plane = plane
        offset = ring.planeOffset(plane)
    }

    /// The same ticks of plane `plane`, to be read (a copy: appending to it would not change this
    /// ring, and would copy the storage).
    func plane(_ plane: Int) -> RingBuffer { RingBuffer(ring: ring, plane: plane) }

    /// Number of values ever appended; the newest value has index `count - 1`.
    var count: Int { ring.count }
    /// How many of the most recent values are still held.
    var capacity: Int { ring.capacity }
    /// Smallest absolute index still held.
    var oldestIndex: Int { ring.oldestIndex }

    /// Appends one value to a one-plane ring.
    @inline(__always) mutating func append(_ value: Double) { ring.append(value) }

    /// Appends one tick: lane p of `values` to plane p, for each plane.
    @inline(__always) mutating func append(_ values: SIMD8<Double>) { ring.append(values) }

    /// Appends one tick to a ring of exactly four planes: lane p of `values` to plane p.
    @inline(__always) mutating func append(_ values: SIMD4<Double>) { ring.append(values) }
    /// `n` ticks of four planes, `tick(i)` in order, behind one ownership check (`RingPlanes`).
    @inline(__always) mutating func append(count n: Int, _ tick: (Int) -> SIMD4<Double>) { ring.append(count: n, tick) }

    /// The value at absolute index `index` (must be in `oldestIndex..<count`).
    @inline(__always) subscript(index: Int) -> Double { ring[offset: offset, index] }

    /// The value of plane `plane` at absolute index `index` (in `oldestIndex..<count`).
    @inline(__always) func value(plane: Int, at index: Int) -> Double {
        ring[offset: ring.planeOffset(plane), index]
    }

    /// The values of plane `plane` (this buffer's own without it) at absolute ticks `from..<to`, in
    /// order, to `body` (`RingPlanes.forEach`: one access to the storage for the run).
    @inline(__always) func forEach(plane: Int? = nil, from: Int, to: Int, _ body: (Double) -> Void) {
        ring.forEach(plane: plane ?? self.plane, from: from, to: to, body)
    }

    /// `RingPlanes.withUnsafePlanes`: every plane's storage, to read and write a run of ticks.
    @inline(__always) mutating func withUnsafePlanes<R>(_ body: (_ base: UnsafeMutablePointer<Double>, _ capacity: Int) -> R) -> R {
        ring.withUnsafePlanes(body)
    }

    /// This ring's plane, read-only: `values[index & mask]` is the value at absolute tick `index`
    /// (held: in `oldestIndex..<count`). One access to the storage for a run of reads.
    @inline(__always) func withUnsafeValues<R>(_ body: (_ values: UnsafePointer<Double>, _ mask: Int) -> R) -> R {
        ring.withUnsafePlane(offset: offset, body)
    }

    /// Forgets everything (after a gap), keeping the storage.
    mutating func removeAll() { ring.removeAll() }

    /// Copies values `start..<start+n` (absolute, all still held) into `destination[0..<n]`: at
    /// most two contiguous block copies (before and after the wrap).
    func copy(from start: Int, count n: Int, into destination: inout [Double]) {
        ring.copy(plane: plane, from: start, count: n, into: &destination)
    }
}
