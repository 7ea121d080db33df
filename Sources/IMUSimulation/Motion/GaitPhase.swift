#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The step phase of a gait as a closed-form function of time, so step times are known exactly
/// and up front. One step = 2π of phase. Steps fall at φ = 2πk.
///
/// Two kinds of rhythm:
/// - **steady** (every walk and run by default): the cadence wanders sinusoidally,
///   c(τ) = c₀·(1 + w·sin(2πτ/T + θ)), whose integral gives the phase;
/// - **irregular** (`steps` given, `Segment.stepIntervals`): each step has its own interval, drawn
///   up front, as in daily life, where people slow down, hesitate and speed up from one step to
///   the next (0.3 to 2 s within one walk, issue 14). The phase rises linearly from one step to
///   the next, so the cadence within a step is 1 / its interval.
struct GaitPhase: Sendable {
    /// Mean cadence in steps per second.
    var cadence: Double
    /// Relative cadence wander (0.05 = ±5%, the pedometer seed article's figure).
    var wander: Double
    /// Period of the wander in seconds.
    var wanderPeriod: Double
    /// Phase of the wander sinusoid at τ = 0, radians.
    var wanderOffset: Double
    /// Step phase at τ = 0, radians (π: the first step comes half a period in).
    var initialPhase: Double
    /// Irregular rhythm: knot 0 is τ = 0 (phase π), knot j ≥ 1 the time of step j (phase 2πj), s.
    /// Empty for a steady rhythm.
    private var knots: [Double] = []

    init(cadence: Double, wander: Double, wanderPeriod: Double, wanderOffset: Double, initialPhase: Double) {
        self.cadence = cadence
        self.wander = wander
        self.wanderPeriod = wanderPeriod
        self.wanderOffset = wanderOffset
        self.initialPhase = initialPhase
    }

    /// An irregular rhythm: step k + 1 follows step k after `intervals[k + 1]` seconds, and the
    /// first step comes half of `intervals[0]` in (as a steady gait's first step comes half a
    /// period in). The phase keeps the last interval's rate after the last step.
    init(intervals: [Double]) {
        precondition(!intervals.isEmpty && intervals.allSatisfy { $0 > 0 })
        initialPhase = Double.pi
        wander = 0
        wanderPeriod = 1
        wanderOffset = 0
        var t = 0.0
        knots = [0]
        for (k, interval) in intervals.enumerated() {
            t += k == 0 ? interval / 2 : interval
            knots.append(t)
        }
        cadence = Double(intervals.count) / (t + intervals[0] / 2)
    }

    /// Phase at knot j: π at τ = 0, then the steps at 2π, 4π, …
    @inline(__always) private func knotPhase(_ j: Int) -> Double { j == 0 ? initialPhase : 2 * Double.pi * Double(j) }

    /// The knot span holding τ: j with knots[j] ≤ τ < knots[j + 1], clamped to the first and last.
    @inline(__always) private func span(_ tau: Double) -> Int {
        var lo = 0, hi = knots.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if knots[mid] <= tau { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Step phase in radians at segment time τ (s).
    @inline(__always) func phase(_ tau: Double) -> Double {
        if knots.count > 1 {
            let j = span(tau)
            let rate = (knotPhase(j + 1) - knotPhase(j)) / (knots[j + 1] - knots[j])
            return knotPhase(j) + rate * (tau - knots[j])
        }
        let omega = 2 * Double.pi / wanderPeriod
        let wanderIntegral = wander / omega * (cos(wanderOffset) - cos(omega * tau + wanderOffset))
        return initialPhase + 2 * Double.pi * cadence * (tau + wanderIntegral)
    }

    /// Instantaneous cadence in steps per second.
    @inline(__always) func cadence(at tau: Double) -> Double {
        if knots.count > 1 {
            let j = span(tau)
            return (knotPhase(j + 1) - knotPhase(j)) / (knots[j + 1] - knots[j]) / (2 * Double.pi)
        }
        return cadence * (1 + wander * sin(2 * Double.pi / wanderPeriod * tau + wanderOffset))
    }

    /// The segment time at which the phase reaches `target` (exact between an irregular rhythm's
    /// knots; Newton's method for a steady one, whose phase is strictly increasing because the
    /// wander is below 100%).
    func time(ofPhase target: Double) -> Double {
        if knots.count > 1 {
            var j = 0
            while j < knots.count - 2, knotPhase(j + 1) <= target { j += 1 }
            let rate = (knotPhase(j + 1) - knotPhase(j)) / (knots[j + 1] - knots[j])
            return knots[j] + (target - knotPhase(j)) / rate
        }
        var tau = (target - initialPhase) / (2 * Double.pi * cadence)
        for _ in 0..<30 {
            let error = phase(tau) - target
            if abs(error) < 1e-12 { break }
            tau -= error / (2 * Double.pi * cadence(at: tau))
        }
        return tau
    }
}
