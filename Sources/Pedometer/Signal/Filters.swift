import Foundation

/// First-order low-pass filter with a time constant, exact for any sample interval:
/// `y += (1 − e^(−dt/τ)) (x − y)`. Used at the fixed internal rate, so the coefficient is cached.
struct LowPass: Sendable {
    private(set) var value: Double = 0
    private(set) var isPrimed = false
    private let alpha: Double

    /// `timeConstant` and `interval` in seconds.
    init(timeConstant: Double, interval: Double) {
        alpha = 1 - exp(-interval / timeConstant)
    }

    @inline(__always) mutating func update(_ x: Double) -> Double {
        if isPrimed { value += alpha * (x - value) } else { value = x; isPrimed = true }
        return value
    }

    mutating func reset() { isPrimed = false; value = 0 }
}

/// The same low-pass filter on a 3-vector.
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

/// Median of the last five values: removes single-sample spikes (a door slam on a barometer)
/// without the lag of a longer average.
struct MedianOfFive: Sendable {
    private var values = SIMD8<Double>(repeating: 0)
    private var filled = 0
    private var next = 0

    mutating func update(_ x: Double) -> Double {
        values[next] = x
        next = (next + 1) % 5
        filled = min(filled + 1, 5)
        // Insertion sort of the held values in registers: no array, so no allocation per reading.
        var sorted = SIMD8<Double>(repeating: 0)
        for i in 0..<filled {
            let v = values[i]
            var j = i
            while j > 0 && sorted[j - 1] > v {
                sorted[j] = sorted[j - 1]
                j -= 1
            }
            sorted[j] = v
        }
        return sorted[filled / 2]
    }

    mutating func reset() { filled = 0; next = 0 }
}
