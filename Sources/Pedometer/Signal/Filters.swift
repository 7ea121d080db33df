#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// First-order low-pass filter on a 3-vector, with a time constant, exact for any sample
/// interval: `y += (1 − e^(−dt/τ)) (x − y)`. Used at the fixed internal rate, so the
/// coefficient is cached.
struct LowPass3: Sendable {
    private(set) var value = Vector3.zero
    private(set) var isPrimed = false
    private let alpha: Double

    init(timeConstant: Double, interval: Double) {
        alpha = 1 - exp(-interval / timeConstant)
    }

    @inline(__always) mutating func update(_ x: Vector3) -> Vector3 {
        if isPrimed { value += alpha * (x - value) } else { value = x; isPrimed = true }
        return value
    }

    /// `update` over `n` inputs in order, `input(i)` the i-th, handing `output(i, (x, y), z)` each
    /// new value. The same values as `n` calls of `update` (each axis the same operations, lane
    /// by lane, as the vector form), with the state in three scalar locals for the whole run: the
    /// vector form's three lanes went through shuffles between a two-lane and a one-lane register
    /// on every call.
    @inline(__always) mutating func update(count n: Int, _ input: (Int) -> Vector3,
                                           _ output: (_ i: Int, _ xy: SIMD2<Double>, _ z: Double) -> Void) {
        guard n > 0 else { return }
        var i = 0
        if !isPrimed {
            value = input(0)
            isPrimed = true
            output(0, SIMD2(value.x, value.y), value.z)
            i = 1
        }
        // x and y as the two lanes of one register, z alone: each lane the same operations.
        let a = alpha
        var xy = SIMD2(value.x, value.y), z = value.z
        while i < n {
            let v = input(i)
            xy += a * (SIMD2(v.x, v.y) - xy)
            z += a * (v.z - z)
            output(i, xy, z)
            i &+= 1
        }
        value = Vector3(xy.x, xy.y, z)
    }

    mutating func reset() { isPrimed = false; value = .zero }
}
