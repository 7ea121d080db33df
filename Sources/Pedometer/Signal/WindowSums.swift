/// Sums over an analysis window with four independent accumulators.
///
/// A single running sum waits for the previous addition (about 4 cycles) on every sample, so a
/// 200-sample window costs 800 cycles per sum however little else happens; four lanes keep the
/// adder busy. The order of additions differs from a left-to-right loop only in rounding (about
/// 1e-16 relative), far below any threshold the stages compare.
enum WindowSums {
    /// Σ x[i] for i in 0..<n.
    @inline(__always)
    static func sum(_ x: UnsafeBufferPointer<Double>, count n: Int) -> Double {
        guard let base = x.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var lanes = SIMD4<Double>()
        var i = 0
        while i + 4 <= n {
            lanes += raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            i += 4
        }
        var total = lanes.sum()
        while i < n { total += base[i]; i += 1 }
        return total
    }

    /// Σ x[i] and Σ x[i]² for i in 0..<n.
    @inline(__always)
    static func sumAndSquares(_ x: UnsafeBufferPointer<Double>, count n: Int) -> (sum: Double, squares: Double) {
        guard let base = x.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        var s1 = SIMD4<Double>(), s2 = SIMD4<Double>()
        var i = 0
        while i + 4 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
            s1 += v
            s2 += v * v
            i += 4
        }
        var (sum, squares) = (s1.sum(), s2.sum())
        while i < n { sum += base[i]; squares += base[i] * base[i]; i += 1 }
        return (sum, squares)
    }

    /// Σ d², Σ d³, Σ d⁴ of d = x[i] − mean, and Σ (x[i] − x[i−1])², for i in 0..<n.
    @inline(__always)
    static func centredPowers(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double)
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
            s3 += d2 * d
            s4 += d2 * d2
            let step = v - previous
            sd += step * step
            i += 4
        }
        var (squares, cubes, fourths, differences) = (s2.sum(), s3.sum(), s4.sum(), sd.sum())
        while i < n {
            let d = base[i] - mean
            squares += d * d
            cubes += d * d * d
            fourths += d * d * d * d
            if i + 1 < n {
                let step = base[i + 1] - base[i]
                differences += step * step
            }
            i += 1
        }
        return (squares, cubes, fourths, differences)
    }
}
