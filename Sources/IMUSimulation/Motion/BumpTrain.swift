#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Jolts at random instants (potholes, kerbs, joints in the road): each a damped oscillation.
struct BumpTrain: Sendable {
    struct Bump: Sendable {
        var time: Double
        var amplitude: Double
        var frequency: Double   // rad/s
    }
    private(set) var bumps: [Bump] = []
    /// Decay time constant of a bump, s, and how long one is followed (8 time constants).
    static let decaySeconds = 0.3
    static let lastsSeconds = 8 * decaySeconds

    /// Bumps over `duration` s, on average one per `meanInterval` s, peak `amplitude` g,
    /// ringing at a frequency in `band` Hz (the suspension's bounce).
    init(duration: Double, meanInterval: Double, amplitude: ClosedRange<Double>, band: ClosedRange<Double>,
         random: inout Xoshiro256StarStar) {
        var t = 0.0
        while true {
            t += -meanInterval * log(1 - random.uniform())     // exponential gaps: a Poisson process
            guard t < duration else { break }
            bumps.append(Bump(time: t, amplitude: random.uniform(amplitude) * (random.uniform() < 0.5 ? 1 : -1),
                              frequency: 2 * Double.pi * random.uniform(band)))
        }
    }

    /// Sum of the bumps ringing at τ: acceleration (g) and the velocity it integrates to (g·s).
    /// Each bump is defined by its velocity, (A/ω)·e^(−t/T)·sin ωt, so it starts and ends at rest;
    /// its acceleration A·e^(−t/T)·(cos ωt − sin ωt/(ωT)) jumps to A at the jolt.
    func value(at tau: Double) -> (acceleration: Double, velocity: Double) {
        var low = 0, high = bumps.count
        while low < high {
            let mid = (low + high) / 2
            if bumps[mid].time <= tau { low = mid + 1 } else { high = mid }
        }
        var acceleration = 0.0, velocity = 0.0
        var i = low - 1
        while i >= 0, tau - bumps[i].time < Self.lastsSeconds {
            let bump = bumps[i]
            let age = tau - bump.time
            let decay = exp(-age / Self.decaySeconds)
            let angle = bump.frequency * age
            acceleration += bump.amplitude * decay * (cos(angle) - sin(angle) / (bump.frequency * Self.decaySeconds))
            velocity += bump.amplitude / bump.frequency * decay * sin(angle)
            i -= 1
        }
        return (acceleration, velocity)
    }
}
