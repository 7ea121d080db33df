/// Several `Double` series appended together, one value each per tick, in fixed memory: the
/// same history as one `RingBuffer` per series, but one storage array, so a tick's values are
/// stored behind one check of the storage's sole ownership instead of one per series (that
/// runtime call was most of a per-tick `append`'s cost). Each series ("plane") is a ring of its
/// own inside the storage, so a window of it is still at most two block copies. `RingBuffer` is
/// the one-plane case.
struct RingPlanes: Sendable {
    private var storage: [Double]
    private let mask: Int
    /// Number of series.
    let planes: Int
    /// Number of ticks ever appended; the newest has index `count - 1`.
    private(set) var count = 0

    /// `minimumCapacity` (ticks) is rounded up to a power of two so indexing is a mask.
    /// At most eight planes (`append` takes one vector).
    init(planes: Int, minimumCapacity: Int) {
        precondition((1...8).contains(planes), "RingPlanes: 1 to 8 planes")
        var capacity = 1
        while capacity < minimumCapacity { capacity <<= 1 }
        self.planes = planes
        storage = [Double](repeating: 0, count: planes * capacity)
        mask = capacity - 1
    }

    /// How many of the most recent ticks are still held.
    var capacity: Int { mask + 1 }
    /// Smallest absolute tick index still held.
    var oldestIndex: Int { max(0, count - capacity) }

    /// Appends one tick: lane p of `values` to plane p, for each of the `planes` planes.
    @inline(__always) mutating func append(_ values: SIMD8<Double>) {
        append(count: 1) { _ in values }
    }

    /// Appends `n` ticks, `tick(i)` for i in 0..<n in order, behind one check of the storage's
    /// sole ownership. The planes are stored one by one, unrolled: lane p of a vector is then a
    /// register, not a load from the stack. The number of planes is looked up once per call, not
    /// once per plane and tick: a loop for each count.
    @inline(__always) mutating func append(count n: Int, _ tick: (Int) -> SIMD8<Double>) {
        switch planes {
        case 1: append(count: n, planes: 1, tick)
        case 2: append(count: n, planes: 2, tick)
        case 3: append(count: n, planes: 3, tick)
        case 4: append(count: n, planes: 4, tick)
        case 5: append(count: n, planes: 5, tick)
        case 6: append(count: n, planes: 6, tick)
        case 7: append(count: n, planes: 7, tick)
        default: append(count: n, planes: 8, tick)
        }
    }

    /// Appends `n` ticks (at most `capacity`) that `write` stores itself, behind one check of
    /// sole ownership: it gets the storage (plane p of the tick in slot k at `base + p · capacity + k`),
    /// the capacity, and the absolute index of the first new tick; tick i goes to slot
    /// `i & (capacity − 1)`. Every plane of every new tick must be written.
    @inline(__always) mutating func append(count n: Int,
                                           writing write: (_ base: UnsafeMutablePointer<Double>, _ capacity: Int, _ first: Int) -> Void) {
        precondition(n >= 0 && n <= capacity, "RingPlanes.append: more ticks than the ring holds")
        let capacity = self.capacity, first = count
        storage.withUnsafeMutableBufferPointer { write($0.baseAddress!, capacity, first) }
        count += n
    }

    /// `append(count:_:)` for `planes` planes, a constant where it is called, so that the tests
    /// below fold away.
    @inline(__always) private mutating func append(count n: Int, planes: Int, _ tick: (Int) -> SIMD8<Double>) {
        let capacity = mask + 1, mask = self.mask
        var count = self.count
        storage.withUnsafeMutableBufferPointer { s in
            let base = s.baseAddress!
            for i in 0..<n {
                let v = tick(i)
                let at = base + (count & mask)
                at[0] = v[0]
                if planes > 1 { at[capacity] = v[1] }
                if planes > 2 { at[2 &* capacity] = v[2] }
                if planes > 3 { at[3 &* capacity] = v[3] }
                if planes > 4 { at[4 &* capacity] = v[4] }
                if planes > 5 { at[5 &* capacity] = v[5] }
                if planes > 6 { at[6 &* capacity] = v[6] }
                if planes > 7 { at[7 &* capacity] = v[7] }
                count += 1
            }
        }
        self.count = count
    }

    /// Appends one tick to a ring of exactly four planes: lane p of `values` to plane p. One
    /// check of the plane count instead of one per plane (`append(_: SIMD8<Double>)`, whose
    /// eight checks were a tenth of the step counter's per-tick cost in callgrind).
    @inline(__always) mutating func append(_ values: SIMD4<Double>) {
        precondition(planes == 4, "RingPlanes.append: four values for \(planes) planes")
        let capacity = mask + 1, at = count & mask
        storage.withUnsafeMutableBufferPointer { s in
            let base = s.baseAddress! + at
            base[0] = values[0]
            base[capacity] = values[1]
            base[2 &* capacity] = values[2]
            base[3 &* capacity] = values[3]
        }
        count += 1
    }

    /// Appends `n` ticks (at most `capacity`) to a ring of exactly four planes, `tick(i)` for i
    /// in 0..<n in order, lane p to plane p: `n` calls of `append(_: SIMD4<Double>)` behind one
    /// check of the storage's sole ownership.
    @inline(__always) mutating func append(count n: Int, _ tick: (Int) -> SIMD4<Double>) {
        precondition(planes == 4, "RingPlanes.append: four values for \(planes) planes")
        precondition(n >= 0 && n <= capacity, "RingPlanes.append: more ticks than the ring holds")
        let capacity = mask + 1, mask = self.mask
        var count = self.count
        storage.withUnsafeMutableBufferPointer { s in
            let base = s.baseAddress!
            for i in 0..<n {
                let values = tick(i), at = base + (count & mask)
                at[0] = values[0]
                at[capacity] = values[1]
                at[2 &* capacity] = values[2]
                at[3 &* capacity] = values[3]
                count &+= 1
            }
        }
        self.count = count
    }

    /// Appends one tick to a one-plane ring (`RingBuffer`).
    @inline(__always) mutating func append(_ value: Double) {
        assert(planes == 1, "RingPlanes.append: one value for several planes")
        storage.withUnsafeMutableBufferPointer { $0[count & mask] = value }
        count += 1
    }

    /// Plane 0's value at absolute tick `index` (must be in `oldestIndex..<count`).
    ///
    /// `index & mask` is below `capacity`, and plane 0 fills `storage[0..<capacity]` (fixed at
    /// init) for every index, so the read goes through the buffer pointer: the array's bounds
    /// check could never fail here.
    @inline(__always) subscript(index: Int) -> Double {
        storage.withUnsafeBufferPointer { $0[index & mask] }
    }

    /// The value at absolute tick `index` (in `oldestIndex..<count`) of the plane that starts at
    /// `offset` in the storage (`planeOffset(_:)`). As for plane 0, `offset + (index & mask)` is
    /// below `planes · capacity` for every index once `offset` came from `planeOffset`.
    @inline(__always) subscript(offset offset: Int, index: Int) -> Double {
        storage.withUnsafeBufferPointer { $0[offset &+ (index & mask)] }
    }

    /// Hands plane `plane`'s values at absolute ticks `from..<to` (held: in `oldestIndex...count`)
    /// to `body`, in tick order: one access to the storage for the whole run instead of one per value.
    @inline(__always) func forEach(plane: Int, from: Int, to: Int, _ body: (Double) -> Void) {
        precondition(plane >= 0 && plane < planes && from >= count - capacity && to <= count,
                     "RingPlanes.forEach: ticks not held")
        // Two contiguous runs, before and after the wrap: no mask per value.
        let first = from & mask, head = Swift.min(to &- from, capacity &- first)
        storage.withUnsafeBufferPointer { s in
            let base = s.baseAddress! + plane * capacity
            var k = first
            while k < first &+ head { body(base[k]); k &+= 1 }
            k = 0
            while k < to &- from &- head { body(base[k]); k &+= 1 }
        }
    }

    /// `body` with the storage (plane p starts at `base + p · capacity`; tick k of a plane is at
    /// `k & (capacity − 1)` in it), for a run of reads and writes behind one check of sole ownership.
    @inline(__always) mutating func withUnsafePlanes<R>(_ body: (_ base: UnsafeMutablePointer<Double>, _ capacity: Int) -> R) -> R {
        let capacity = self.capacity
        return storage.withUnsafeMutableBufferPointer { body($0.baseAddress!, capacity) }
    }

    /// The storage from `offset` (`planeOffset(_:)`), to read a plane's ticks at `index & mask`
    /// (held: in `oldestIndex..<count`) without an access to the array per value.
    @inline(__always) func withUnsafePlane<R>(offset: Int, _ body: (_ values: UnsafePointer<Double>, _ mask: Int) -> R) -> R {
        let mask = self.mask
        return storage.withUnsafeBufferPointer { body($0.baseAddress! + offset, mask) }
    }

    /// Where plane `plane` starts in the storage, values: the `offset` of `subscript(offset:index:)`.
    func planeOffset(_ plane: Int) -> Int {
        precondition(plane >= 0 && plane < planes, "RingPlanes: no plane \(plane) of \(planes)")
        return plane * capacity
    }

    /// Forgets everything (after a gap), keeping the storage.
    mutating func removeAll() { count = 0 }

    /// Copies plane `plane`'s values at ticks `start..<start+n` (absolute, all still held) into
    /// `destination[0..<n]`: at most two contiguous block copies (before and after the wrap).
    func copy(plane: Int, from start: Int, count n: Int, into destination: inout [Double]) {
        copy(plane: plane, from: start, count: n, into: &destination) { $0.update(from: $1, count: $2) }
    }

    /// The same, less `value` each: `destination[i] = x[start + i] − value` (a copy and a pass in one).
    func copy(plane: Int, from start: Int, count n: Int, into destination: inout [Double], less value: Double) {
        copy(plane: plane, from: start, count: n, into: &destination) { target, source, k in
            for i in 0..<k { target[i] = source[i] - value }
        }
    }

    /// The same, less `first` and then `second` each: `destination[i] = (x[start + i] − first) − second`.
    func copy(plane: Int, from start: Int, count n: Int, into destination: inout [Double], less first: Double, then second: Double) {
        copy(plane: plane, from: start, count: n, into: &destination) { target, source, k in
            for i in 0..<k { target[i] = (source[i] - first) - second }
        }
    }

    /// `move(target, source, k)` for the run before the wrap and the one after it.
    @inline(__always)
    private func copy(plane: Int, from start: Int, count n: Int, into destination: inout [Double],
                      _ move: (UnsafeMutablePointer<Double>, UnsafePointer<Double>, Int) -> Void) {
        precondition(plane >= 0 && plane < planes && n >= 0 && n <= capacity && n <= destination.count
                     && start >= count - capacity && start + n <= count, "RingPlanes.copy: ticks not held or do not fit")
        let first = start & mask
        let head = min(n, capacity - first)
        storage.withUnsafeBufferPointer { source in
            let base = source.baseAddress! + plane * capacity
            destination.withUnsafeMutableBufferPointer { target in
                move(target.baseAddress!, base + first, head)
                if n > head { move(target.baseAddress! + head, base, n - head) }
            }
        }
    }
}
