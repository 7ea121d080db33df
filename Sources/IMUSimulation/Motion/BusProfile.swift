#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bus ride's speed over time: stops (boarding, red lights, bus stops), smooth accelerations,
/// cruising and braking. Turns happen while cruising and live in the segment's `HeadingProfile`.
struct BusProfile: Sendable {
    /// One leg with constant speed (v0 == v1) or a smooth speed change from v0 to v1.
    struct Leg: Sendable {
        var start: Double
        var duration: Double
        var v0: Double
        var v1: Double
    }

    private(set) var legs: [Leg]
    /// Highest cruising speed of the ride, m/s.
    let topSpeed: Double

    /// Plans a ride filling `duration` seconds, starting and ending at rest.
    /// Figures are illustrative for a city bus: 25–47 km/h cruising, 6–10 s to get there
    /// (≈0.1–0.2 g peak), 5–8 s to brake, red lights of 5–25 s.
    init(duration: Double, random: inout Xoshiro256StarStar, turns: inout [HeadingProfile.Turn]) {
        var legs: [Leg] = []
        var t = 0.0
        func add(_ seconds: Double, _ v0: Double, _ v1: Double) {
            legs.append(Leg(start: t, duration: seconds, v0: v0, v1: v1))
            t += seconds
        }
        add(min(3, duration), 0, 0)            // boarding: the bus is still standing at the stop
        var top = 0.0
        while duration - t > 0 {
            let remaining = duration - t
            let speed = random.uniform(7...13)
            let accelerate = random.uniform(6...10), brake = random.uniform(5...8)
            var cruise = random.uniform(8...40)
            let margin = 2.0
            if accelerate + brake + cruise > remaining - margin { cruise = remaining - margin - accelerate - brake }
            if cruise < 2 {
                add(remaining, 0, 0)           // not enough room for another leg: wait out the rest
                break
            }
            add(accelerate, 0, speed)
            if cruise >= 20 && random.uniform() < 0.5 {
                // A 90° curve inside the cruise, taking 12–16 s: at 10 m/s that peaks near 0.2 g sideways.
                let turnSeconds = random.uniform(12...16)
                let turnStart = t + random.uniform(2...(cruise - turnSeconds - 2))
                let left = random.uniform() < 0.5
                turns.append(.init(start: turnStart, duration: turnSeconds, angle: (left ? 1 : -1) * Double.pi / 2))
            }
            add(cruise, speed, speed)
            add(brake, speed, 0)
            top = max(top, speed)
            let stop = random.uniform(5...25)
            add(min(stop, duration - t), 0, 0)
        }
        self.legs = legs
        topSpeed = max(top, 1)
    }

    /// Speed (m/s) and forward acceleration (m/s²) at segment time τ.
    /// A speed change uses a raised-cosine acceleration (v1−v0)/T·(1 − cos 2πu), zero at both ends.
    func motion(at tau: Double) -> (speed: Double, acceleration: Double) {
        var low = 0, high = legs.count
        while low < high {
            let mid = (low + high) / 2
            if legs[mid].start <= tau { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return (0, 0) }
        let leg = legs[low - 1]
        let u = min(1, max(0, (tau - leg.start) / leg.duration))
        let change = leg.v1 - leg.v0
        if change == 0 { return (leg.v0, 0) }
        let twoPiU = 2 * Double.pi * u
        return (leg.v0 + change * (u - sin(twoPiU) / (2 * Double.pi)),
                u >= 1 ? 0 : change / leg.duration * (1 - cos(twoPiU)))
    }
}
