import Foundation

/// Shape of a rhythmic signal, to tell gait from other rhythm (waving a phone, sway).
///
/// Gait has a heel strike each step: a short, sharp peak, so the vertical signal is skewed and
/// rich in harmonics of the cadence. A phone waved by hand is a smooth, near-sinusoidal swing
/// (the pedometer seed's exercise suggests skewness for exactly this; on real phones skewness
/// varies with placement and sign, so the gate uses the harmonic content — RMS frequency and
/// purity — and keeps the moments for diagnostics).
struct GaitShape: Sendable, Equatable {
    /// Third standardised moment of the window (0 for a sine).
    var skewness: Double = 0
    /// Fourth standardised moment (1.5 for a sine, 3 for noise, higher for spiky signals).
    var kurtosis: Double = 0
    /// Share of the variance in a sinusoid at the cadence: 1 for a pure sine (a waved phone).
    var purity: Double = 0
    /// RMS frequency of the signal, Hz: equal to the cadence for a pure sine, above it for gait
    /// (heel strikes add harmonics), below it when the "cadence" is half of a slow sway.
    var rmsFrequency: Double = 0

    /// Computes the moments, RMS frequency and purity of `x[0..<n]` at `cadence` (steps/s).
    static func measure(_ x: [Double], count n: Int, rateHz: Double, cadence: Double?) -> GaitShape {
        var mean = 0.0
        for i in 0..<n { mean += x[i] }
        mean /= Double(n)
        var m2 = 0.0, m3 = 0.0, m4 = 0.0
        for i in 0..<n {
            let d = x[i] - mean
            let d2 = d * d
            m2 += d2
            m3 += d2 * d
            m4 += d2 * d2
        }
        m2 /= Double(n); m3 /= Double(n); m4 /= Double(n)
        guard m2 > 1e-12 else { return GaitShape() }
        var shape = GaitShape(skewness: m3 / (m2 * m2.squareRoot()), kurtosis: m4 / (m2 * m2))
        var differences = 0.0
        for i in 1..<n {
            let d = x[i] - x[i - 1]
            differences += d * d
        }
        differences /= Double(n - 1)
        // For a sine of angular step ω per sample, E[(Δx)²] = 2(1 − cos ω) Var x.
        let cosine = max(-1, min(1, 1 - differences / (2 * m2)))
        shape.rmsFrequency = Foundation.acos(cosine) * rateHz / (2 * Double.pi)
        if let cadence, cadence > 0 {
            let fundamental = goertzelPower(x, count: n, mean: mean, frequency: cadence, rateHz: rateHz)
            // A sine of variance V over n samples has Goertzel power (n²/2)·V.
            shape.purity = min(1, 2 * fundamental / (Double(n) * Double(n) * m2))
        }
        return shape
    }

    /// Power of `x` at one frequency (Goertzel recurrence, Hann-free: the window holds several periods).
    private static func goertzelPower(_ x: [Double], count n: Int, mean: Double, frequency: Double, rateHz: Double) -> Double {
        let coefficient = 2 * _cos(2 * Double.pi * frequency / rateHz)
        var s1 = 0.0, s2 = 0.0
        for i in 0..<n {
            let s0 = (x[i] - mean) + coefficient * s1 - s2
            s2 = s1
            s1 = s0
        }
        return s1 * s1 + s2 * s2 - coefficient * s1 * s2
    }
}
