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

    /// How a vehicle drives between stops: ranges its legs are drawn from.
    struct Habits: Sendable {
        /// Cruising speed, m/s; seconds to reach it, to brake, to cruise, and to stand.
        var speed: ClosedRange<Double>
        var accelerate: ClosedRange<Double>
        var brake: ClosedRange<Double>
        var cruise: ClosedRange<Double>
        var stop: ClosedRange<Double>
        /// Illustrative for a city bus: 25–47 km/h cruising, 6–10 s to get there (≈0.1–0.2 g
        /// peak), 5–8 s to brake, red lights of 5–25 s.
        static let cityBus = Habits(speed: 7...13, accelerate: 6...10, brake: 5...8, cruise: 8...40, stop: 5...25)
        /// The coach (`Segment.Vehicle.coach`), chosen apart from the city bus's: 29–54 km/h,
        /// a heavier vehicle's gentler start (10–15 s, ≈0.1 g peak) and stop (6–10 s), longer
        /// stretches and longer stops (boarding, 10–30 s).
        static let coach = Habits(speed: 8...15, accelerate: 10...15, brake: 6...10, cruise: 15...60, stop: 10...30)
    }

    private(set) var legs: [Leg]
    /// Distance covered at the start of each leg, m.
    private var legDistances: [Double] = []
    /// Highest cruising speed of the ride, m/s.
    let topSpeed: Double

    /// Plans a ride filling `duration` seconds, starting and ending at rest, driven with `habits`.
    init(duration: Double, habits: Habits = .cityBus, random: inout Xoshiro256StarStar, turns: inout [HeadingProfile.Turn]) {
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
            let speed = random.uniform(habits.speed)
            let accelerate = random.uniform(habits.accelerate), brake = random.uniform(habits.brake)
            var cruise = random.uniform(habits.cruise)
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
            let stop = random.uniform(habits.stop)
            add(min(stop, duration - t), 0, 0)
        }
        self.legs = legs
        topSpeed = max(top, 1)
        var covered = 0.0
        for leg in legs {
            legDistances.append(covered)
            covered += leg.duration * (leg.v0 + (leg.v1 - leg.v0) / 2)
        }
    }

    /// Distance covered by segment time τ, m: the integral of `motion(at:).speed`.
    func distance(at tau: Double) -> Double {
        var low = 0, high = legs.count
        while low < high {
            let mid = (low + high) / 2
            if legs[mid].start <= tau { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return 0 }
        let leg = legs[low - 1]
        let u = min(1, max(0, (tau - leg.start) / leg.duration))
        // ∫ v0 + Δ·(u − sin 2πu / 2π) dt over the leg so far, t = T·u.
        let change = leg.v1 - leg.v0
        return legDistances[low - 1]
            + leg.duration * (leg.v0 * u + change * (u * u / 2 + (cos(2 * Double.pi * u) - 1) / (4 * Double.pi * Double.pi)))
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
