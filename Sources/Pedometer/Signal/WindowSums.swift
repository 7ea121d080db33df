/// Sums over an analysis window with independent accumulators.
///
/// A single running sum waits for the previous addition (about 4 cycles) on every sample, so a
/// 200-sample window costs 800 cycles per sum however little else happens; independent lanes keep
/// the adders busy. `sum` and `sumAndSquares` keep eight lanes (two four-lane vectors:
/// on a baseline x86-64 build a four-lane vector is two two-lane registers, so four lanes still
/// waited on one addition every two samples). The order of additions differs from a
/// left-to-right loop only in rounding (about 1e-16 relative), far below any threshold the stages
/// compare; the accuracy benchmarks print the same figures with four lanes and with eight.
enum WindowSums {
    /// Σ x[i] for i in 0..<n.
    @inline(__always)
    static func sum(_ x: UnsafeBufferPointer<Double>, count n: Int) -> Double {
        guard let base = x.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var low = SIMD4<Double>(), high = SIMD4<Double>()
        var i = 0
        while i + 8 <= n {
            low += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            high += raw.loadUnaligned(fromByteOffset: (i + 4) * 8, as: SIMD4<Double>.self)
            i += 8
        }
        if i + 4 <= n {
            low += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            i += 4
        }
        var total = (low + high).sum()
        while i < n { total += base[i]; i += 1 }
        return total
    }

    /// Σ x[i] and Σ x[i]² for i in 0..<n.
    @inline(__always)
    static func sumAndSquares(_ x: UnsafeBufferPointer<Double>, count n: Int) -> (sum: Double, squares: Double) {
        guard let base = x.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        var s1 = SIMD4<Double>(), s2 = SIMD4<Double>(), t1 = SIMD4<Double>(), t2 = SIMD4<Double>()
        var i = 0
        while i + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            let w = raw.loadUnaligned(fromByteOffset: (i + 4) * 8, as: SIMD4<Double>.self)
            s1 += v
            s2 += v * v
            t1 += w
            t2 += w * w
            i += 8
        }
        if i + 4 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            s1 += v
            s2 += v * v
            i += 4
        }
        var (sum, squares) = ((s1 + t1).sum(), (s2 + t2).sum())
        while i < n { sum += base[i]; squares += base[i] * base[i]; i += 1 }
        return (sum, squares)
    }

    /// Σ d², Σ d³, Σ d⁴ of d = x[i] − mean, and Σ (x[i] − x[i−1])², for i in 0..<n.
    /// `higherPowers: false` skips Σ d³ and Σ d⁴ (returned as 0); the other two sums are the same.
    @inline(__always)
    static func centredPowers(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double, higherPowers: Bool = true)
        -> (squares: Double, cubes: Double, fourths: Double, differences: Double) {
        // Two copies of the loop, each with `higherPowers` a constant: no test of it per block.
        higherPowers ? centredPowers(x, count: n, mean: mean, constant: true)
            : centredPowers(x, count: n, mean: mean, constant: false)
    }

    @inline(__always)
    private static func centredPowers(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double, constant higherPowers: Bool)
        -> (squares: Double, cubes: Double, fourths: Double, differences: Double) {
        guard let base = x.baseAddress, n > 0 else { return (0, 0, 0, 0) }
        let raw = UnsafeRawPointer(base)
        let m = SIMD4<Double>(repeating: mean)
        var s2 = SIMD4<Double>(), s3 = SIMD4<Double>(), s4 = SIMD4<Double>(), sd = SIMD4<Double>()
        var i = 0
        // Differences pair x[i] with x[i−1]: lanes start at i = 1.
        while i + 5 <= n {
            let v = raw.loadUnaligned(fromByteOffset: (i + 1) * 8, as: SIMD4<Double>.self)
            let previous = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            let d = previous - m
            let d2 = d * d
            s2 += d2
            if higherPowers {
                s3 += d2 * d
                s4 += d2 * d2
            }
            let step = v - previous
            sd += step * step
            i += 4
        }
        return addingTail(of: base, from: i, count: n, mean: mean, higherPowers: higherPowers,
                          to: (s2.sum(), s3.sum(), s4.sum(), sd.sum()))
    }

    /// `centredPowers`' sums with the values its vector loop left, from `i` on, added one by one
    /// in index order (Σ d³ and Σ d⁴ only with `higherPowers`).
    @inline(__always)
    private static func addingTail(of base: UnsafePointer<Double>, from start: Int, count n: Int, mean: Double,
                                   higherPowers: Bool, to sums: (Double, Double, Double, Double))
        -> (squares: Double, cubes: Double, fourths: Double, differences: Double) {
        var (squares, cubes, fourths, differences) = sums
        var i = start
        while i < n {
            let d = base[i] - mean
            squares += d * d
            if higherPowers {
                cubes += d * d * d
                fourths += d * d * d * d
            }
            if i + 1 < n {
                let step = base[i + 1] - base[i]
                differences += step * step
            }
            i += 1
        }
        return (squares, cubes, fourths, differences)
    }

    /// `centredPowers` (all four sums, the same additions in the same order) with Goertzel's two
    /// chains (`Goertzel.Chains`, coefficient `k`) taking the same centred values x[i] − mean in
    /// the same pass, two per step, from the start: on return the chains have taken every pair
    /// the pass loaded (`chains.next` on), the rest is `Goertzel.power`'s (`GaitShape.measure`:
    /// one pass's loads and loop instead of two).
    @inline(__always)
    static func centredPowers(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double, goertzel k: Double,
                              chains: inout Goertzel.Chains)
        -> (squares: Double, cubes: Double, fourths: Double, differences: Double) {
        guard let base = x.baseAddress, n > 0 else { return (0, 0, 0, 0) }
        precondition(chains.next == 0, "WindowSums.centredPowers: the chains start at the window's first sample")
        let raw = UnsafeRawPointer(base)
        let m = SIMD4<Double>(repeating: mean)
        var s2 = SIMD4<Double>(), s3 = SIMD4<Double>(), s4 = SIMD4<Double>(), sd = SIMD4<Double>()
        var i = 0
        while i &+ 5 <= n {
            let v = raw.loadUnaligned(fromByteOffset: (i &+ 1) &* 8, as: SIMD4<Double>.self)
            let previous = raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self)
            let d = previous - m
            chains.take(d.lowHalf, k: k)
            chains.take(d.highHalf, k: k)
            let d2 = d * d
            s2 += d2
            s3 += d2 * d
            s4 += d2 * d2
            let step = v - previous
            sd += step * step
            i &+= 4
        }
        return addingTail(of: base, from: i, count: n, mean: mean, higherPowers: true,
                          to: (s2.sum(), s3.sum(), s4.sum(), sd.sum()))
    }

    /// Running sums of squares: `squares[k]` = Σ x[i]² for i < k, for k in 0...n (`squares`
    /// holds n + 1 values).
    @inline(__always)
    static func prefixSquares(_ x: UnsafeBufferPointer<Double>, count n: Int, into squares: UnsafeMutableBufferPointer<Double>) {
        prefixSums(count: n, into: squares) { x[$0] * x[$0] }
    }

    /// Running sums: `sums[k]` = Σ term(i) for i < k, for k in 0...n (`sums` holds n + 1
    /// values). Blocks of four are summed within themselves and then added to the sum so far, so
    /// the chain of dependent additions is n/4 long instead of n.
    @inline(__always)
    static func prefixSums(count n: Int, into sums: UnsafeMutableBufferPointer<Double>, _ term: (Int) -> Double) {
        guard let out = sums.baseAddress else { return }
        var total = 0.0
        out[0] = 0
        var i = 0
        while i + 4 <= n {
            let a = term(i), b = term(i + 1), c = term(i + 2), d = term(i + 3)
            let ab = a + b
            out[i + 1] = total + a
            out[i + 2] = total + ab
            out[i + 3] = total + (ab + c)
            total += ab + (c + d)
            out[i + 4] = total
            i += 4
        }
        while i < n { total += term(i); out[i + 1] = total; i += 1 }
    }

    /// Σ x[i]·x[i + lag] for i in 0..<(n − lag), 0 unless lag < n: the lagged products of an
    /// autocorrelation. Four lanes over the blocks of four in index order, the lanes' `sum()`, then
    /// the last values one by one. The byte offsets are counted without overflow checks (below
    /// 8·n, a few kilobytes): the checked `i * 8` and `(i + lag) * 8` per block were 6 of its 18
    /// instructions (callgrind, session 26, the cycling analyser's searches).
    @inline(__always)
    static func laggedProducts(_ x: UnsafeBufferPointer<Double>, count n: Int, lag: Int) -> Double {
        precondition(lag >= 0 && n <= x.count, "WindowSums: a negative lag or a series shorter than its count")
        guard let base = x.baseAddress, lag < n else { return 0 }
        let end = n &- lag, blocks = end / 4
        let early = UnsafeRawPointer(base), late = UnsafeRawPointer(base + lag)
        var lanes = SIMD4<Double>()
        var offset = 0
        let stop = blocks &* 32
        while offset < stop {
            lanes += early.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
                * late.loadUnaligned(fromByteOffset: offset, as: SIMD4<Double>.self)
            offset &+= 32
        }
        var total = lanes.sum()
        var i = blocks &* 4
        while i < end { total += base[i] * base[i &+ lag]; i &+= 1 }
        return total
    }
}

/// Σ x and Σ x² (`WindowSums.sumAndSquares`) over a window of a series: `count` ticks ending
/// before absolute tick `end` of the current segment (`end` −1: none). Two stages that analyse
/// the same ticks of the same series hand these over instead of summing twice.
struct WindowTotals: Sendable, Equatable {
    var end = -1, count = 0
    var sum = 0.0, squares = 0.0

    init() {}

    init(end: Int, count: Int, sums: (sum: Double, squares: Double)) {
        self.end = end
        self.count = count
        (sum, squares) = sums
    }

    /// The mean and the variance (Σ x²/n − mean², at least 0).
    var moments: (mean: Double, variance: Double) {
        let mean = sum / Double(count)
        return (mean, max(0, squares / Double(count) - mean * mean))
    }
}
