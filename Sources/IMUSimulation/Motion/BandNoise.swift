#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Band-limited random motion as a pure function of time: a sum of sinusoids with random
/// frequencies (log-uniform over a band), amplitudes and phases. With a dozen or more incommensurate
/// components it has no single rhythm, like road-induced vibration, yet needs no state, so samples
/// can be computed at any instant and any rate.
struct BandNoise: Sendable {
    private var frequencies: [Double] = []   // rad/s
    private var amplitudes: [Double] = []
    private var phases: [Double] = []

    /// `count` components in `band` (Hz) with a total RMS of `rms`.
    init(band: ClosedRange<Double>, count: Int, rms: Double, random: inout Xoshiro256StarStar) {
        var weights: [Double] = []
        for _ in 0..<count {
            let f = exp(random.uniform(log(band.lowerBound)...log(band.upperBound)))
            frequencies.append(2 * Double.pi * f)
            weights.append(random.uniform(0.3...1))
            phases.append(random.uniform(0...(2 * Double.pi)))
        }
        // A sinusoid of amplitude a has RMS a/√2, and independent ones add in power.
        let power = weights.reduce(0) { $0 + $1 * $1 / 2 }
        let scale = power > 0 ? rms / power.squareRoot() : 0
        amplitudes = weights.map { $0 * scale }
    }

    /// `count` components over `band` (Hz) shaped by a one-sided PSD `psd(f)` (unit²/Hz): the band
    /// is cut into `count` log-spaced bins, each holding one sinusoid at a random frequency inside
    /// it whose variance is the PSD's over the bin (amplitude √(2·PSD·Δf)); its total RMS is the
    /// PSD's over the band.
    init(spectrum psd: (Double) -> Double, band: ClosedRange<Double>, count: Int, random: inout Xoshiro256StarStar) {
        let low = log(band.lowerBound), step = (log(band.upperBound) - low) / Double(count)
        for i in 0..<count {
            let f = exp(low + step * (Double(i) + random.uniform()))
            let width = exp(low + step * Double(i + 1)) - exp(low + step * Double(i))
            frequencies.append(2 * Double.pi * f)
            amplitudes.append((2 * psd(f) * width).squareRoot())
            phases.append(random.uniform(0...(2 * Double.pi)))
        }
    }

    @inline(__always) func value(at tau: Double) -> Double {
        var sum = 0.0
        for i in frequencies.indices { sum += amplitudes[i] * sin(frequencies[i] * tau + phases[i]) }
        return sum
    }

    /// The value and its zero-mean antiderivative (Σ −aᵢ/ωᵢ·cos(ωᵢτ + φᵢ)), e.g. an acceleration and
    /// the velocity it belongs to, for modulating it without drift (see `PeriodicShape`).
    @inline(__always) func valueAndIntegral(at tau: Double) -> (value: Double, integral: Double) {
        var value = 0.0, integral = 0.0
        for i in frequencies.indices {
            let angle = frequencies[i] * tau + phases[i]
            value += amplitudes[i] * sin(angle)
            integral -= amplitudes[i] / frequencies[i] * cos(angle)
        }
        return (value, integral)
    }
}
