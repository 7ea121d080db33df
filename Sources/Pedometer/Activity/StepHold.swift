/// Steps held back until the ride detector has seen the time they were counted in (issue 15).
///
/// Getting on a bicycle straight from a walk, the step counter's bout is still open: it credits
/// the walk's cadence up to the newest window's centre, so the first 2 s of pedalling count as
/// steps before any analysis window holds enough pedalling to show it (the simulated rides'
/// first ride windows end 3 to 5 s into the ride; `CyclingDetector` decides a few windows later).
/// So the pedometer holds every step `seconds` after its own time before it commits it (a step
/// event, and the totals of `PedometerSnapshot`), and holds everything while a ride may be
/// starting (`CyclingDetector.mayBeStarting`). When a ride starts, the held steps from its
/// start on are retracted: they never reach an event, a total, the history or the daemon.
///
/// The price is latency: a step is reported `seconds` after it happened (the step counter
/// itself already reports up to 3 s late), longer while a ride may be starting.
struct StepHold: Sendable {
    /// How long a step is held, s: a whole analysis window (4 s) after the step, plus one hop
    /// (1 s) for the window to be analysed. A window sees pedalling once it fills most of it.
    static let seconds = 5.0

    private var times: [Double] = []
    private var distances: [Double] = []
    private var actives: [Double] = []
    /// Held steps, their distance (m) and their credited time (s).
    private(set) var count = 0
    private(set) var distance = 0.0
    private(set) var active = 0.0

    init() {
        times.reserveCapacity(64)
        distances.reserveCapacity(64)
        actives.reserveCapacity(64)
    }

    /// Moves the step events appended to `events` from index `mark` on into the hold; they
    /// brought `distance` (m) and `active` (s) to the step counter's totals.
    mutating func take(from mark: Int, distance addedDistance: Double, active addedActive: Double,
                       events: inout [PedometerEvent]) {
        guard events.count > mark else { return }
        var steps = 0
        for event in events[mark...] { if case .step = event { steps += 1 } }
        guard steps > 0 else { return }
        var kept = mark
        for i in mark..<events.count {
            if case .step(let time) = events[i] {
                times.append(time)
                distances.append(addedDistance / Double(steps))
                actives.append(addedActive / Double(steps))
            } else {
                events[kept] = events[i]
                kept += 1
            }
        }
        events.removeSubrange(kept...)
        count += steps
        distance += addedDistance
        active += addedActive
    }

    /// Commits, in order, the held steps up to the first one later than `time`.
    mutating func release(through time: Double, into events: inout [PedometerEvent]) {
        var n = 0
        while n < times.count, times[n] <= time {
            events.append(.step(time: times[n]))
            distance -= distances[n]
            active -= actives[n]
            n += 1
        }
        guard n > 0 else { return }
        drop(n)
    }

    /// Commits every held step (the end of the stream).
    mutating func releaseAll(into events: inout [PedometerEvent]) {
        release(through: .infinity, into: &events)
        distance = 0
        active = 0
    }

    /// Forgets the held steps at or after `time` (a ride began then); returns what they added.
    mutating func retract(from time: Double) -> (steps: Int, distance: Double, active: Double) {
        var removed = (steps: 0, distance: 0.0, active: 0.0)
        var kept = 0
        for i in 0..<times.count {
            if times[i] >= time {
                removed.steps += 1
                removed.distance += distances[i]
                removed.active += actives[i]
            } else {
                times[kept] = times[i]
                distances[kept] = distances[i]
                actives[kept] = actives[i]
                kept += 1
            }
        }
        times.removeSubrange(kept...)
        distances.removeSubrange(kept...)
        actives.removeSubrange(kept...)
        count -= removed.steps
        distance -= removed.distance
        active -= removed.active
        return removed
    }

    private mutating func drop(_ n: Int) {
        times.removeFirst(n)
        distances.removeFirst(n)
        actives.removeFirst(n)
        count -= n
        if count == 0 { distance = 0; active = 0 }
    }
}
