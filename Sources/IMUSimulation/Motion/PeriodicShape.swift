#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 2π-periodic waveform with its mean removed, and its antiderivative (also zero-mean), tabulated
/// once. A motion whose acceleration is m(τ)·f(φ(τ)) drifts away unless its velocity is bounded; the
/// simulator defines the velocity as m·V(φ)/ω and uses its exact derivative
/// m·f(φ) + m′·V(φ)/ω, so every modulation (fade in, stronger step, limp) integrates back to rest.
struct PeriodicShape: Sendable {
    private let values: [Double]
    private let integral: [Double]
    /// Mean of the raw waveform over one period (removed from `value`).
    let mean: Double
    /// Table resolution: 4096 points per period keep a 14 ms heel-strike spike (σ = 0.15 rad)
    /// to within 0.1% by linear interpolation.
    static let points = 4096

    init(_ raw: (Double) -> Double) {
        let n = Self.points
        let step = 2 * Double.pi / Double(n)
        var f: [Double] = []
        for i in 0...n { f.append(raw(Double(i) * step)) }
        let mean = Self.average(f)
        for i in 0...n { f[i] -= mean }
        var v: [Double] = [0]
        for i in 0..<n { v.append(v[i] + (f[i] + f[i + 1]) / 2 * step) }
        // v[n] is ~0 because f has zero mean; remove what rounding leaves, then the mean of V.
        let trend = v[n] / Double(n)
        for i in 0...n { v[i] -= trend * Double(i) }
        let vMean = Self.average(v)
        for i in 0...n { v[i] -= vMean }
        values = f
        integral = v
        self.mean = mean
    }

    /// Trapezoid mean of one period sampled at n + 1 points (the last equals the first).
    private static func average(_ table: [Double]) -> Double {
        var sum = 0.0
        for i in 0..<(table.count - 1) { sum += (table[i] + table[i + 1]) / 2 }
        return sum / Double(table.count - 1)
    }

    /// The waveform at phase φ (any real φ; period 2π), mean removed.
    @inline(__always) func value(_ phi: Double) -> Double { Self.lookup(values, phi) }
    /// Its zero-mean antiderivative with respect to φ.
    @inline(__always) func antiderivative(_ phi: Double) -> Double { Self.lookup(integral, phi) }

    @inline(__always) private static func lookup(_ table: [Double], _ phi: Double) -> Double {
        let x = phi / (2 * Double.pi)
        let position = (x - x.rounded(.down)) * Double(points)
        let i = min(Int(position), points - 1)
        let fraction = position - Double(i)
        return table[i] + (table[i + 1] - table[i]) * fraction
    }
}

/// The gait waveforms that are not plain sinusoids, as functions of step phase (0 = foot contact).
enum GaitShapes {
    /// Heel-strike spike 0.3 rad after contact, σ 0.15 rad (the pedometer seed article's shape).
    static let spike = PeriodicShape { c in exp(-((c - 0.3) / 0.15) * ((c - 0.3) / 0.15)) }
    /// The heel strike as the trunk feels it at the sacrum: the same impact, σ 0.25 rad (FWHM
    /// 0.59 rad, 58 ms at 1.6 steps/s), measured on real-dev s02/s03 lower-back, the strike-aligned
    /// mean vertical peak's full width at half height, 40–90 ms (median 65 ms) at 1.33–1.72
    /// steps/s (`TrunkJolt`).
    static let trunkSpike = PeriodicShape { c in exp(-((c - 0.3) / 0.25) * ((c - 0.3) / 0.25)) }
    /// Soft tissue and clothing ringing after the strike: ~14 Hz at a walk (8 per radian of step
    /// phase), dying away in ~45 ms (0.5 rad), half the spike's size (illustrative).
    static let ring = PeriodicShape { c in c > 0.3 ? 0.5 * exp(-(c - 0.3) / 0.5) * sin(8 * (c - 0.3)) : 0 }
    /// Running: a half-sine push while the foot is on the ground (40% of the step; contact is
    /// ~0.13–0.15 s of a 0.36 s step at 2.8 steps/s), free flight the rest of the time, scaled so
    /// that the flight sits 1 unit below the mean.
    static let runningPush = PeriodicShape { c in
        let duty = runningContactFraction
        return (c < 2 * Double.pi * duty ? sin(c / (2 * duty)) : 0) / (2 * duty / Double.pi)
    }
    /// Share of a running step during which the foot is on the ground.
    static let runningContactFraction = 0.4
}
