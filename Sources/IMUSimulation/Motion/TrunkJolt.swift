#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a heel strike reaches a device worn on the trunk (a phone on a belt at the lower back)
/// beyond the vertical bounce every holding feels: a sharp impact whose size changes from strike
/// to strike, a fore-aft braking jolt and a sideways jolt at the same instant (the landing foot's
/// ground force, under the foot and pointing in to the body, turns the trunk's sideways motion back
/// towards the midline), and a first strike softer than the rest (the body starts from rest). A device
/// swinging on a limb or in a bag sees these through its own swing; those holdings leave this nil
/// and keep the older smooth model.
///
/// Each jolt has the strike's own shape (`GaitShapes.trunkSpike` and `.ring`) and modulation, so
/// it peaks with the vertical impact, strike after strike, and, defined through its velocity like
/// every gait term (`PeriodicShape`), integrates back to rest. Sizes are relative to the vertical
/// impact term. Figures measured with `scripts/lowerback-gait-stats.py` (docs/accuracy.md, "The
/// simulator's lower back").
struct TrunkJolt: Sendable, Equatable {
    /// Fore-aft braking at each strike, × the vertical impact (the trunk decelerates as the
    /// front foot lands).
    var brake: Double
    /// Sideways jolt at each strike, × the vertical impact; its sign alternates with the foot.
    var sideways: Double
    /// Strike-to-strike spread of the impact's size: each strike's impact is × (1 ± spread),
    /// drawn uniformly per strike (relative standard deviation spread/√3).
    var spread: Double
    /// The first strike's impact, × a steady one: the impact grows with the walking speed from
    /// this floor to 1 over the gait's speed ramp (`PlannedSegment.gaitSpeedRampSeconds`).
    var firstStrike: Double

    /// The strike-to-strike factor of step `k`, 1 − spread … 1 + spread: a hash of the segment's
    /// step seed, XORed with a fixed constant so it is drawn independently of `stepStrength`.
    @inline(__always) func strikeFactor(_ k: Int, seed: UInt64) -> Double {
        var mixer = SplitMix64(seed: (seed ^ 0x7452_554E_4B4A_4F4C) ^ UInt64(bitPattern: Int64(k)))
        return 1 + spread * (2 * Double(mixer.next() >> 11) * 0x1.0p-53 - 1)
    }

    /// The impact's growth from the first strike's size to a steady one at segment time τ (s),
    /// over `ramp` seconds, and its time derivative (1/s).
    @inline(__always) func onset(_ tau: Double, ramp: Double) -> (value: Double, rate: Double) {
        let u = tau / ramp
        return (firstStrike + (1 - firstStrike) * Easing.minimumJerk(u),
                (1 - firstStrike) * Easing.minimumJerkRate(u) / ramp)
    }
}
