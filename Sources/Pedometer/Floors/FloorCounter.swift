#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Counts floors climbed or descended on foot, one stair trip at a time.
///
/// Only the altitude change that happens *during walked time* counts: the step counter hands over
/// how much the filtered altitude changed over each stretch of time it credited as steps (about a
/// second each). An elevator ride (altitude changes while the user stands) therefore adds nothing,
/// as Core Motion documents ("while the user was walking or running up stairs").
///
/// Walked climb is grouped into **trips**: a trip starts when the walked vertical speed, averaged
/// over the last `FloorSettings.speedWindow`, reaches `tripStartSpeed`, and ends after
/// `quietTime` without it (or without walking). Within a trip, floor *k* is counted once the trip
/// has climbed (k − 1 + `floorFraction`) floor heights, so a trip's total is its climb rounded
/// with that fraction. Outside trips nothing accumulates, so weather drift (0.5 to 1 hPa/h, 4 to
/// 8 m/h, 0.001 to 0.002 m/s: twenty times below the start speed) adds no floor however long the
/// walk. Walked climb faster than `maximumClimbSpeed` is no person on stairs: that stretch and the
/// trip it belongs to are dropped and counted in `implausibleClimbs` (a faulty or replaced
/// barometer jumping by 100 hPa would otherwise count a hundred floors).
///
/// docs/floors.md explains the rules with examples.
struct FloorCounter: Sendable {
    /// Height of one floor, m.
    let floorHeight: Double
    private let settings = FloorSettings()

    private(set) var ascended = 0
    private(set) var descended = 0
    /// Walked stretches refused because the altitude moved faster than anyone climbs stairs.
    private(set) var implausibleClimbs = 0

    /// The last few walked stretches: (change m, duration s, end time s), newest last.
    private var recent: [(change: Double, duration: Double, time: Double)] = []
    private var inTrip = false
    /// Altitude change since the trip started (including the stretch that started it), m.
    private var tripClimb = 0.0
    /// Floors already counted in this trip: positive up, negative down.
    private var tripFloors = 0
    /// Time of the last walked stretch that moved at trip speed, s.
    private var lastClimbing = -Double.infinity

    /// `floorHeight` below 1 m (or not finite) is taken as 1 m: no building has lower floors, and
    /// a zero height would count floors without end. Tools validate the user's value first.
    init(floorHeight: Double) {
        self.floorHeight = floorHeight.isFinite ? max(1, floorHeight) : 3
        recent.reserveCapacity(FloorSettings.recentCapacity)
    }

    /// Adds `change` metres of altitude walked over `duration` seconds, ending at `time`.
    mutating func addWalked(change: Double, duration: Double, time: Double, into events: inout [PedometerEvent]) {
        guard duration > 0, change.isFinite else { return }
        advance(to: time - duration, into: &events)
        if abs(change) > settings.maximumClimbSpeed * duration {
            implausibleClimbs += 1
            endTrip()
            recent.removeAll(keepingCapacity: true)
            return
        }
        if recent.count == FloorSettings.recentCapacity { recent.removeFirst() }
        recent.append((change, duration, time))
        let speed = recentSpeed(at: time)
        let climbing = abs(speed) >= settings.tripStartSpeed
        if inTrip, climbing, (speed > 0) != (tripClimb > 0), abs(tripClimb) > 0 {
            // Turned round without a pause: the way back is a trip of its own.
            endTrip()
        }
        if !inTrip {
            guard climbing else { return }
            // The speed average lags: the climb of the stretches it covers belongs to the trip.
            inTrip = true
            tripClimb = recentClimb(at: time)
        } else {
            tripClimb += change
        }
        if climbing { lastClimbing = time }
        countFloors(at: time, into: &events)
    }

    /// Ends a trip that has been quiet (no walked climbing) for `quietTime` by `time`.
    mutating func advance(to time: Double, into events: inout [PedometerEvent]) {
        if inTrip, time - lastClimbing >= settings.quietTime { endTrip() }
    }

    /// Ends the stream: the current trip is over.
    mutating func finish() {
        endTrip()
    }

    private mutating func countFloors(at time: Double, into events: inout [PedometerEvent]) {
        while tripClimb >= (Double(tripFloors) + settings.floorFraction) * floorHeight {
            tripFloors += 1
            ascended += 1
            events.append(.floor(time: time, direction: .up))
        }
        while -tripClimb >= (Double(-tripFloors) + settings.floorFraction) * floorHeight {
            tripFloors -= 1
            descended += 1
            events.append(.floor(time: time, direction: .down))
        }
    }

    private mutating func endTrip() {
        inTrip = false
        tripClimb = 0
        tripFloors = 0
    }

    /// Mean vertical speed of the walked stretches within `speedWindow` of `time`, m/s.
    private func recentSpeed(at time: Double) -> Double {
        var change = 0.0, duration = 0.0
        for stretch in recent where time - stretch.time < settings.speedWindow {
            change += stretch.change
            duration += stretch.duration
        }
        return duration > 0 ? change / duration : 0
    }

    /// Altitude change of the walked stretches within `speedWindow` of `time`, m.
    private func recentClimb(at time: Double) -> Double {
        recent.reduce(0) { time - $1.time < settings.speedWindow ? $0 + $1.change : $0 }
    }
}

/// Every threshold of the floor counter, with its unit and where it comes from.
struct FloorSettings: Sendable {
    /// A walked vertical speed at or above this starts (and keeps alive) a stair trip, m/s.
    /// Stairs climb 0.2 to 0.6 m/s (riser about 0.17 m at 1.5 to 2 steps/s; the IPIN 2023 T51r2
    /// stairwell recording descends its 2.9 m floors in 10 to 15 s of walking, 0.2 to 0.3 m/s);
    /// weather drift is 0.001 to 0.002 m/s. 0.08 m/s sits between, below the slowest flights
    /// including their landings.
    var tripStartSpeed = 0.08
    /// Window of the vertical-speed average, s: a few steps, so that one step's pressure noise
    /// (about ±0.1 m/s per second of handheld walking in that recording) averages out.
    var speedWindow = 4.0
    /// A trip ends after this long without walked climbing, s: longer than a landing's U-turn
    /// (2 to 3 s), short enough that the next flight after a corridor is a trip of its own.
    var quietTime = 6.0
    /// Share of a floor height a trip must climb to count a floor (and each further floor at this
    /// share past the previous whole floor). Floors are 2.5 to 4 m, and about a tenth of a flight's
    /// climb falls outside walked time (the step counter confirms a walk after it starts, and the
    /// altimeter lags 1 s): the IPIN 2023 T51r2 trips credit 2.3 to 2.7 m of 2.9 m floors, 0.77
    /// to 0.9 of a 3 m setting. Above one half, so half-flights (split levels) do not count.
    var floorFraction = 0.65
    /// Fastest believable walked climb, m/s: the Margaria-Kalamen stair sprint, run by trained
    /// athletes over a few steps, reaches about 1.5 to 1.8 m/s vertical.
    var maximumClimbSpeed = 2.0
    /// Walked stretches kept for the speed average: stretches are about 1 s (one analysis hop),
    /// so eight cover `speedWindow` with room for shorter ones.
    static let recentCapacity = 8
}
