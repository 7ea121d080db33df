#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Shape of a rhythmic signal, to tell gait from other rhythm (waving a phone, sway).
///
/// Gait has a heel strike each step: a short, sharp peak, so the vertical signal is skewed and
/// rich in harmonics of the cadence. A phone waved by hand is a smooth, near-sinusoidal swing
/// (the pedometer seed's exercise suggests skewness for exactly this; on real phones skewness
/// varies with placement and sign, so the gate uses the harmonic content — RMS frequency and
/// purity — and the size of the skewness only where a walk would start on its regularity alone,
/// `GaitGate.selfSustainedSkewness`; the kurtosis is for diagnostics).
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
    /// `skewAndKurtosis: false` leaves `skewness` and `kurtosis` 0 and skips their sums (a caller
    /// that reads only `purity` and `rmsFrequency`; those are the same either way). `mean`: the
    /// window's mean when the caller has it (Σ x / n, equal to `WindowSums.sum`'s but for rounding).
    /// `purityBelow`: `purity` is measured only when `rmsFrequency` is below it (else it stays 0),
    /// for a caller whose verdict needs both a high purity and a low RMS frequency.
    static func measure(_ x: [Double], count n: Int, rateHz: Double, cadence: Double?, skewAndKurtosis: Bool = true,
                        mean: Double? = nil, purityBelow: Double = .infinity) -> GaitShape {
        x.withUnsafeBufferPointer { x in
            let mean = mean ?? WindowSums.sum(x, count: n) / Double(n)
            // The analysis's call (all four moments, the purity at the cadence whatever the RMS
            // frequency): Goertzel's chains run in the same pass as the centred powers, on the
            // same loads and the same x − mean, and go on alone after it (`Goertzel`).
            if skewAndKurtosis, purityBelow == .infinity, let cadence, cadence > 0, n >= 2 {
                let goertzel = Goertzel(frequency: cadence, rateHz: rateHz)
                var chains = Goertzel.Chains()
                let sums = WindowSums.centredPowers(x, count: n, mean: mean, goertzel: goertzel.k, chains: &chains)
                let m2 = sums.squares / Double(n), m3 = sums.cubes / Double(n), m4 = sums.fourths / Double(n)
                guard m2 > 1e-12 else { return GaitShape() }
                var shape = GaitShape(skewness: m3 / (m2 * m2.squareRoot()), kurtosis: m4 / (m2 * m2))
                let differences = sums.differences / Double(n - 1)
                let cosine = max(-1, min(1, 1 - differences / (2 * m2)))
                shape.rmsFrequency = acos(cosine) * rateHz / (2 * Double.pi)
                let fundamental = goertzel.power(x, count: n, mean: mean, chains: chains)
                shape.purity = min(1, 2 * fundamental / (Double(n) * Double(n) * m2))
                return shape
            }
            let sums = WindowSums.centredPowers(x, count: n, mean: mean, higherPowers: skewAndKurtosis)
            let m2 = sums.squares / Double(n), m3 = sums.cubes / Double(n), m4 = sums.fourths / Double(n)
            guard m2 > 1e-12 else { return GaitShape() }
            var shape = skewAndKurtosis ? GaitShape(skewness: m3 / (m2 * m2.squareRoot()), kurtosis: m4 / (m2 * m2)) : GaitShape()
            let differences = sums.differences / Double(n - 1)
            // For a sine of angular step ω per sample, E[(Δx)²] = 2(1 − cos ω) Var x.
            let cosine = max(-1, min(1, 1 - differences / (2 * m2)))
            shape.rmsFrequency = acos(cosine) * rateHz / (2 * Double.pi)
            if let cadence, cadence > 0, !(shape.rmsFrequency >= purityBelow) {
                let fundamental = power(x, count: n, mean: mean, frequency: cadence, rateHz: rateHz)
                // A sine of variance V over n samples has Goertzel power (n²/2)·V.
                shape.purity = min(1, 2 * fundamental / (Double(n) * Double(n) * m2))
            }
            return shape
        }
    }

    /// |Σ (x[i] − mean) e^(−iωi)|², ω = 2π·frequency/rateHz: the power at one frequency (no
    /// window function: the window holds several periods).
    ///
    /// Goertzel's recurrence (`Goertzel`).
    static func power(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double, frequency: Double, rateHz: Double) -> Double {
        Goertzel(frequency: frequency, rateHz: rateHz).power(x, count: n, mean: mean, chains: Goertzel.Chains())
    }
}

/// Goertzel's recurrence at one frequency (`GaitShape.power`), run as two interleaved chains
/// (even and odd samples, each at 2ω): one chain waits on its previous two values every sample,
/// two chains halve that wait. Each chain's end state gives its complex sum; the odd chain is one
/// sample later, a factor e^(−iω) (e^(+iω) when n is odd and the even chain is a sample longer).
struct Goertzel {
    let cosine: Double, sine: Double, cosine2: Double, sine2: Double
    /// 2 cos 2ω: the chains' coefficient.
    let k: Double

    /// ω = 2π·frequency/rateHz, in (0, π).
    @inline(__always) init(frequency: Double, rateHz: Double) {
        let omega = 2 * Double.pi * frequency / rateHz
        cosine = _cos(omega)
        sine = max(0, 1 - cosine * cosine).squareRoot()   // ω in (0, π): sin ω ≥ 0
        cosine2 = 2 * cosine * cosine - 1
        sine2 = 2 * sine * cosine   // at 2ω
        k = 2 * cosine2
    }

    /// The two chains side by side in one two-lane vector (lane 0 even samples, lane 1 odd), the
    /// samples before `next` taken: the same operations on each lane as two scalar chains, so the
    /// same values, with one load, subtraction, multiplication and addition per two samples.
    struct Chains {
        var s1 = SIMD2<Double>(), s2 = SIMD2<Double>()
        var next = 0

        /// Takes x[next], x[next + 1] less the mean (`centred`).
        @inline(__always) mutating func take(_ centred: SIMD2<Double>, k: Double) {
            // Each step adds k·s1 last: the chain from one value to the next is one multiplication
            // and one addition; the sample less the value before (s2, known a step earlier) is ready.
            let s0 = (centred - s2) + k * s1
            s2 = s1; s1 = s0
            next &+= 2
        }
    }

    /// |Σ (x[i] − mean) e^(−iωi)|² over x[0..<n], the samples before `chains.next` (an even index)
    /// already taken.
    @inline(__always) func power(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double, chains: Chains) -> Double {
        guard let base = x.baseAddress else { return 0 }
        var chains = chains
        let m = SIMD2<Double>(repeating: mean)
        let raw = UnsafeRawPointer(base)
        // Indices stay below n (a window's length): wrapping arithmetic, no overflow to check.
        while chains.next &+ 1 < n {
            chains.take(raw.loadUnaligned(fromByteOffset: chains.next &* 8, as: SIMD2<Double>.self) - m, k: k)
        }
        let i = chains.next
        var a1 = chains.s1[0], a2 = chains.s2[0]
        let b1 = chains.s1[1], b2 = chains.s2[1]
        var oddPhase = -sine
        if i < n {
            let a0 = ((x[i] - mean) - a2) + k * a1
            a2 = a1; a1 = a0
            oddPhase = sine
        }
        // A chain's sum, up to a common phase: s1 − e^(−2iω) s2.
        let evenRe = a1 - cosine2 * a2, evenIm = sine2 * a2
        let oddRe = b1 - cosine2 * b2, oddIm = sine2 * b2
        let re = evenRe + cosine * oddRe - oddPhase * oddIm
        let im = evenIm + cosine * oddIm + oddPhase * oddRe
        return re * re + im * im
    }
}
