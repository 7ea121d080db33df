/// A scenario with every random choice made (from the seed's "plan" stream): the device's motion
/// is then a pure function of time, independent of the sample rate and of the sensor noise.
struct Plan: Sendable {
    var segments: [PlannedSegment] = []
    var duration: Double = 0

    /// Random stream used for planning, separate from the per-sample noise stream.
    static let planStream: UInt64 = 1

    init(scenario: Scenario, seed: UInt64, holding override: DeviceHolding?, startAltitude: Double) {
        var random = Xoshiro256StarStar(seed: seed, stream: Self.planStream)
        var t = 0.0
        var heading = random.uniform(0...(2 * Double.pi))
        var altitude = startAltitude
        let mounts = scenario.segments.map { Self.mount(of: $0, override: override) }
        var previousMount = mounts.first.flatMap { $0 } ?? .identity
        for (index, segment) in scenario.segments.enumerated() {
            let duration = segment.seconds.isFinite ? max(0, segment.seconds) : 0
            guard duration > 0 else { continue }
            // A transition turns the device towards the next segment's mount; other segments
            // ease into their own mount over their first 1.5 s when it differs from the last one.
            let target = mounts[index] ?? mounts[(index + 1)...].lazy.compactMap { $0 }.first ?? previousMount
            var blend = 0.0
            if segment.kind == .transition {
                blend = duration
            } else if previousMount.angle(to: target) > 1e-9 {
                blend = min(1.5, duration / 3)
            }
            var planned = PlannedSegment(segment: segment, start: t, duration: duration,
                                         mountFrom: previousMount, mountTo: target, blendSeconds: blend,
                                         headingStart: heading, heading: HeadingProfile(),
                                         altitudeStart: altitude, altitudeChange: 0)
            planned.phases = (0..<4).map { _ in random.uniform(0...(2 * Double.pi)) }
            planned.shakeFrequencies = (0..<4).map { _ in random.uniform(3...7) }   // hand shaking, Hz
            Self.plan(&planned, holding: override ?? segment.holding ?? segment.defaultHolding, random: &random)
            segments.append(planned)
            t += duration
            heading += planned.heading.totalChange
            altitude += planned.altitudeChange
            previousMount = target
        }
        duration = t
    }

    /// Device → body rotation a segment asks for; nil for a transition (it takes the next one's).
    static func mount(of segment: Segment, override: DeviceHolding?) -> Quaternion? {
        switch segment.kind {
        case .face(let face): return face.mount
        case .transition: return nil
        default: return (override ?? segment.holding ?? segment.defaultHolding).mount
        }
    }

    /// Draws the random parts of one segment: cadence wander, turns, the bus route, the ride.
    private static func plan(_ p: inout PlannedSegment, holding: DeviceHolding, random: inout Xoshiro256StarStar) {
        let segment = p.segment
        let duration = p.duration
        var turns: [HeadingProfile.Turn] = []
        if segment.isGait {
            // ±5% cadence wander over 6–20 s (the seed article's ±5%; the period is illustrative),
            // or irregular steps: intervals drawn until they fill the segment.
            let gait: GaitPhase
            if let range = segment.stepIntervals {
                var intervals: [Double] = [], filled = 0.0
                while filled < duration {
                    let interval = random.uniform(range)
                    intervals.append(interval)
                    filled += interval
                }
                gait = GaitPhase(intervals: intervals)
            } else {
                gait = GaitPhase(cadence: max(segment.cadence, 0.05), wander: 0.05,
                                 wanderPeriod: random.uniform(6...20),
                                 wanderOffset: random.uniform(0...(2 * Double.pi)),
                                 initialPhase: Double.pi)
            }
            p.gait = gait
            p.stepSeed = random.next()
            p.finalPhase = gait.phase(duration)
            let scale = min(2, max(0.5, segment.amplitude / 0.25))   // sway grows with the bounce
            p.sway = holding.sway.scaled(by: scale)
            p.leverArm = p.mountTo.inverseRotate(p.sway.leverArm)
        }
        switch segment.kind {
        case .stroll, .walk, .run:
            // Occasional turns: every 10–40 s, 15–90° either way, at ~45°/s (illustrative).
            var t = random.uniform(10...40)
            while true {
                let angle = random.uniform(15...90) * .pi / 180 * (random.uniform() < 0.5 ? 1 : -1)
                let seconds = 1 + abs(angle) / (45 * .pi / 180)
                guard t + seconds < duration - 1 else { break }
                turns.append(.init(start: t, duration: seconds, angle: angle))
                t += seconds + random.uniform(10...40)
            }
        case .stairsUp(let floors), .stairsDown(let floors):
            let up: Bool
            if case .stairsUp = segment.kind { up = true } else { up = false }
            let height = Double(max(floors, 0)) * Segment.floorHeightMeters
            p.altitudeChange = up ? height : -height
            // Switchback stairs: flights of half a floor, turning 180° on each landing between them
            // over 1.5 s (illustrative).
            let gait = p.gait!
            let layout = StairLayout(floors: floors, steps: (p.finalPhase - gait.initialPhase) / (2 * Double.pi))
            p.stairs = layout
            for j in stride(from: 1, to: layout.flights, by: 1) {
                let centre = gait.time(ofPhase: gait.initialPhase + 2 * Double.pi * layout.stepsAtLanding(j))
                guard centre - 0.75 > 0.5, centre + 0.75 < duration - 0.5 else { continue }
                turns.append(.init(start: centre - 0.75, duration: 1.5, angle: up ? Double.pi : -Double.pi))
            }
        case .elevatorUp(let floors), .elevatorDown(let floors):
            let up: Bool
            if case .elevatorUp = segment.kind { up = true } else { up = false }
            let height = Double(max(floors, 0)) * Segment.floorHeightMeters
            let ride = min(ElevatorProfile.rideSeconds(floors: floors), max(duration - 2, duration / 2))
            let wait = (duration - ride) / 2
            p.elevator = ElevatorProfile(rideStart: wait, rideSeconds: ride, heightChange: up ? height : -height)
            p.altitudeChange = up ? height : -height
        case .bus:
            p.bus = BusProfile(duration: duration, random: &random, turns: &turns)
            p.busVibration = BusVibration(duration: duration, random: &random)
        case .ride(let vehicle):
            p.bus = BusProfile(duration: duration, habits: vehicle == .coach ? .coach : .cityBus, random: &random, turns: &turns)
            p.busVibration = BusVibration(vehicle: vehicle, duration: duration, random: &random)
        case .still, .wave, .face, .transition:
            break
        }
        p.heading = HeadingProfile(turns: turns)
    }

    /// Index of the segment containing scenario time `t` (s), starting the search at `hint`.
    @inline(__always) func segmentIndex(at t: Double, hint: Int) -> Int {
        var i = min(max(hint, 0), segments.count - 1)
        while i + 1 < segments.count && t >= segments[i].end { i += 1 }
        while i > 0 && t < segments[i].start { i -= 1 }
        return i
    }
}
