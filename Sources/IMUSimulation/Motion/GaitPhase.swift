#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The step phase of a gait as a closed-form function of time, so step times are known exactly
/// and up front. One step = 2π of phase. The cadence wanders sinusoidally:
/// c(τ) = c₀·(1 + w·sin(2πτ/T + θ)), whose integral gives the phase.
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

    /// Step phase in radians at segment time τ (s).
    @inline(__always) func phase(_ tau: Double) -> Double {
        let omega = 2 * Double.pi / wanderPeriod
        let wanderIntegral = wander / omega * (cos(wanderOffset) - cos(omega * tau + wanderOffset))
        return initialPhase + 2 * Double.pi * cadence * (tau + wanderIntegral)
    }

    /// Instantaneous cadence in steps per second.
    @inline(__always) func cadence(at tau: Double) -> Double {
        cadence * (1 + wander * sin(2 * Double.pi / wanderPeriod * tau + wanderOffset))
    }

    /// The segment time at which the phase reaches `target` (Newton's method; the phase is
    /// strictly increasing because the wander is below 100%).
    func time(ofPhase target: Double) -> Double {
        var tau = (target - initialPhase) / (2 * Double.pi * cadence)
        for _ in 0..<30 {
            let error = phase(tau) - target
            if abs(error) < 1e-12 { break }
            tau -= error / (2 * Double.pi * cadence(at: tau))
        }
        return tau
    }
}
