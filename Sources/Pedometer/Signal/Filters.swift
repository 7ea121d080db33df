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

    mutating func reset() { isPrimed = false; value = .zero }
}
