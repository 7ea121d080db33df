/// Derives the ground truth from a plan: exact step instants from the closed-form gait phase,
/// floor crossings from the stairs' altitude, activity stretches from the segments.
enum TruthBuilder {
    /// A step counts when the gait's fade-in/out envelope is at least this strong at its instant:
    /// the feet are set down softly at the very start and end of a walk.
    static let minimumStepStrength = 0.5

    static func truth(of plan: Plan, startTime: Double) -> GroundTruth {
        var truth = GroundTruth()
        truth.startTime = startTime
        truth.endTime = startTime + plan.duration
        for p in plan.segments {
            let offset = startTime + p.start
            if let gait = p.gait {
                let firstStep = truth.stepTimes.count
                var k = (gait.initialPhase / (2 * Double.pi)).rounded(.down) + 1
                while 2 * Double.pi * k <= p.finalPhase {
                    let tau = gait.time(ofPhase: 2 * Double.pi * k)
                    if tau <= p.duration,
                       Easing.envelope(tau, duration: p.duration, ramp: PlannedSegment.rampSeconds) >= minimumStepStrength {
                        truth.stepTimes.append(offset + tau)
                        truth.distanceMeters += p.segment.stepLengthMeters
                    }
                    k += 1
                }
                let times = truth.stepTimes[firstStep...]
                let span = (times.last ?? 0) - (times.first ?? 0)
                truth.gaits.append(GaitTruth(start: offset, end: offset + p.duration, kind: p.segment.kindName,
                                             steps: times.count,
                                             cadence: times.count > 1 ? Double(times.count - 1) / span : 0,
                                             stepLengthMeters: p.segment.stepLengthMeters))
                // Floors: reached at the top (or bottom) of every second flight.
                let floors = (p.stairs?.flights ?? 0) / 2
                for j in stride(from: 1, through: floors, by: 1) {
                    let phase = gait.initialPhase + 2 * Double.pi * p.stairs!.stepsAtFloor(j)
                    truth.floors.append(FloorTruth(time: offset + min(gait.time(ofPhase: phase), p.duration),
                                                   up: p.altitudeChange > 0))
                }
            }
            if case .face(let face) = p.segment.kind {
                truth.faces.append(FaceTruth(start: offset, end: offset + p.duration, face: face, shaken: p.segment.shake > 0))
            }
            let activity = p.segment.shake > 0 ? "unknown" : p.segment.activity
            if let last = truth.segments.last, last.activity == activity, abs(last.end - offset) < 1e-9 {
                truth.segments[truth.segments.count - 1].end = offset + p.duration
            } else {
                truth.segments.append(ActivityTruth(start: offset, end: offset + p.duration, activity: activity))
            }
        }
        return truth
    }
}
