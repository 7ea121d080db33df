/// Shape of a rhythmic signal, to tell gait from other rhythm (waving a phone, sway).
///
/// Gait has a heel strike each step: a short, sharp peak, so the vertical signal is skewed and
/// rich in harmonics of the cadence. A phone waved by hand is a smooth, near-sinusoidal swing
/// (the pedometer seed's exercise suggests skewness for exactly this).
struct GaitShape: Sendable, Equatable {
    /// Third standardised moment of the window (0 for a sine).
    var skewness: Double = 0
    /// Fourth standardised moment (1.5 for a sine, 3 for noise, higher for spiky signals).
    var kurtosis: Double = 0
    /// Power in harmonics 2 to 4 of the cadence over power at the cadence (0 for a sine).
    var harmonicRatio: Double = 0

    /// Computes the moments of `x[0..<n]` and the harmonic ratio at `cadence` (steps/s).
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
        if let cadence, cadence > 0 {
            let fundamental = goertzelPower(x, count: n, mean: mean, frequency: cadence, rateHz: rateHz)
            var harmonics = 0.0
            for k in 2...4 where Double(k) * cadence < rateHz / 2 {
                harmonics += goertzelPower(x, count: n, mean: mean, frequency: Double(k) * cadence, rateHz: rateHz)
            }
            shape.harmonicRatio = fundamental > 1e-12 ? harmonics / fundamental : 0
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
