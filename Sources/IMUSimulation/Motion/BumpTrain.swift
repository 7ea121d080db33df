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

    /// Sum of the bumps ringing at τ.
    func value(at tau: Double) -> Double {
        var low = 0, high = bumps.count
        while low < high {
            let mid = (low + high) / 2
            if bumps[mid].time <= tau { low = mid + 1 } else { high = mid }
        }
        var sum = 0.0
        var i = low - 1
        while i >= 0, tau - bumps[i].time < Self.lastsSeconds {
            let age = tau - bumps[i].time
            sum += bumps[i].amplitude * exp(-age / Self.decaySeconds) * sin(bumps[i].frequency * age)
            i -= 1
        }
        return sum
    }
}
