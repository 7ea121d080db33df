import Foundation

/// Counts floors climbed or descended on foot.
///
/// Only the altitude change that happens *during walked time* counts: the step counter reports
/// how much the filtered altitude changed over each stretch of time it credited as steps. An
/// elevator ride (altitude changes while the user stands) therefore adds nothing, as Core Motion
/// documents ("while the user was walking or running up stairs"). Weather drift of 0.5 hPa/h
/// (about 4 m/h) would add up on a long walk, so the climb accumulator forgets with a 120 s time
/// constant (a steady drift then biases it by only 0.14 m, while a 3 m flight climbed in about
/// 15 s loses about 0.2 m; measured in the benchmark: floors exact under ±1 hPa/h).
struct FloorCounter: Sendable {
    /// Height of one floor, m.
    let floorHeight: Double
    /// A floor counts once 75% of its height has been climbed: leaves room for the first metre or
    /// two of a flight walked before the step counter confirmed the bout and for filter lag.
    private var threshold: Double { 0.75 * floorHeight }
    /// Forgetting time constant, s.
    private let forgetting = 120.0
    private var climb = 0.0
    private(set) var ascended = 0
    private(set) var descended = 0

    /// `floorHeight` below 1 m (or not finite) is taken as 1 m: no building has lower floors, and
    /// a zero height would count floors without end. Tools validate the user's value first.
    init(floorHeight: Double) {
        self.floorHeight = floorHeight.isFinite ? max(1, floorHeight) : 3
    }

    /// Adds `change` metres of altitude walked over `duration` seconds, ending at `time`.
    mutating func addWalked(change: Double, duration: Double, time: Double, into events: inout [PedometerEvent]) {
        climb = climb * exp(-duration / forgetting) + change
        while climb >= threshold {
            climb -= floorHeight
            ascended += 1
            events.append(.floor(time: time, direction: .up))
        }
        while climb <= -threshold {
            climb += floorHeight
            descended += 1
            events.append(.floor(time: time, direction: .down))
        }
    }
}
