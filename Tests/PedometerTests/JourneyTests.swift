import Testing
import IMUSimulation
@testable import Pedometer

/// The simulator's journeys (`JourneyCatalogue`) through the pedometer: rides in every placement
/// add no steps once under way, read as cycling, and the walks around them count.
@Suite struct JourneyTests {
    /// Seconds at each end of a leg that belong to the change of activity: one analysis window
    /// (4 s) plus the ride's start (4 pedalling windows of the last 8) would be 8 s; 6 s is
    /// what a window and a half leaves once the ride is under way.
    static let edge = 6.0

    private static func run(_ journey: Journey, gps: Bool) -> (events: [PedometerEvent], sim: JourneySimulation) {
        let sim = JourneySimulation.simulate(journey, seed: 1, rateHz: 50)
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        pedometer.process(contentsOf: sim.samples, speeds: gps ? speeds(sim) : [], into: &events)
        pedometer.finish(into: &events)
        return (events, sim)
    }

    private static func speeds(_ sim: JourneySimulation) -> [GroundSpeed] {
        sim.fixes.map { GroundSpeed(time: $0.time, metersPerSecond: $0.speed, accuracy: $0.accuracy) }
    }

    /// Seconds of `range` that the finished segments label `activity`.
    private static func seconds(of activity: ActivityClass, in range: ClosedRange<Double>, _ events: [PedometerEvent]) -> Double {
        segments(events).filter { $0.activity == activity }.reduce(0) {
            $0 + max(0, min($1.end, range.upperBound) - max($1.start, range.lowerBound))
        }
    }

    @Test(arguments: RidePlacement.allCases)
    func aRideAddsNoStepsAndTheWalksCount(_ placement: RidePlacement) {
        let journey = JourneyCatalogue.rides.first { $0.name.hasSuffix(placement.rawValue) }!
        let (events, sim) = Self.run(journey, gps: false)
        let ride = sim.legTimes[1]
        let inner = (ride.lowerBound + Self.edge)...(ride.upperBound - Self.edge)
        let pedalled = stepTimes(events).filter { inner.contains($0) }
        #expect(pedalled.isEmpty, "\(pedalled.count) steps while pedalling (\(placement.rawValue))")
        // Cycling most of the ride: all but its edges.
        let cycling = Self.seconds(of: .cycling, in: ride, events)
        #expect(cycling >= inner.upperBound - inner.lowerBound, "cycling for \(cycling) s of \(ride.upperBound - ride.lowerBound) s")
        // Walking the bike away counts again: both walks within 5 % (the step counter's own accuracy).
        let walked = stepTimes(events).filter { !ride.contains($0) }.count
        let truth = sim.legSteps[0] + sim.legSteps[2]
        #expect(relativeError(walked, truth) <= 0.05, "walks: \(walked) steps of \(truth)")
    }

    /// Getting on straight from a walk: the ride's first seconds, which the walk's open bout used
    /// to credit as steps before any window showed the pedalling, add none either (`StepLedger`
    /// retracts them when the ride starts). A quarter second of grace: a step is placed at the
    /// highest sample within a quarter step of its phase, and the walk's last step may land there.
    @Test(arguments: RidePlacement.allCases)
    func gettingOnTheBikeAddsNoSteps(_ placement: RidePlacement) {
        let journey = JourneyCatalogue.rides.first { $0.name.hasSuffix(placement.rawValue) }!
        let (events, sim) = Self.run(journey, gps: false)
        let ride = sim.legTimes[1]
        let start = (ride.lowerBound + 0.25)...(ride.lowerBound + Self.edge)
        let counted = stepTimes(events).filter { start.contains($0) }
        #expect(counted.isEmpty, "steps \(counted.map { $0 - ride.lowerBound }) s into the ride (\(placement.rawValue))")
    }

    /// Getting off and walking away: the walk is back-filled from its onset, but not into the
    /// ride (`StepCounter.rideEvidenceUntil`): a handlebar's vibration and a bag's bob gave the
    /// first-step chain and the onset search peaks as strong as the walk's (4 steps in the
    /// rides' last second over the simulated seeds 1–3 before; the walks' counts are
    /// `aRideAddsNoStepsAndTheWalksCount`'s and `imu-bench-activity`'s business).
    @Test(arguments: RidePlacement.allCases)
    func gettingOffTheBikeAddsNoSteps(_ placement: RidePlacement) {
        let journey = JourneyCatalogue.rides.first { $0.name.hasSuffix(placement.rawValue) }!
        for seed: UInt64 in [1, 2, 3] {
            let sim = JourneySimulation.simulate(journey, seed: seed, rateHz: 100)
            var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
            var events: [PedometerEvent] = []
            pedometer.process(contentsOf: sim.samples, into: &events)
            pedometer.finish(into: &events)
            let ride = sim.legTimes[1]
            let end = (ride.upperBound - Self.edge)...ride.upperBound
            let counted = stepTimes(events).filter { end.contains($0) && $0 < ride.upperBound }
            #expect(counted.isEmpty, "seed \(seed): steps \(counted.map { $0 - ride.upperBound }) s before the ride's end")
        }
    }

    /// Pauses and resumes are pending with the steps (`StepLedger`): a walk's pause comes after
    /// its last step in the event stream, and a resume before its first, although every step is
    /// committed seconds after its time. Steps committed after a pause they precede would read,
    /// to a client following the events, as steps taken while stopped.
    @Test func pausesAndResumesKeepTheirPlaceAmongTheSteps() {
        let (events, _, _) = simulateAndCount([Segment(.still, seconds: 5), Segment(.walk, seconds: 20),
                                               Segment(.still, seconds: 10), Segment(.walk, seconds: 20),
                                               Segment(.still, seconds: 5)], seed: 4)
        var pauses = 0, resumes = 0, misplaced: [String] = []
        var lastStep = -Double.infinity, lastPause = -Double.infinity
        for event in events {
            switch event {
            case .step(let t):
                if t < lastPause { misplaced.append(String(format: "step %.2f after pause %.2f", t, lastPause)) }
                lastStep = t
            case .pause(let t):
                pauses += 1
                if t < lastStep { misplaced.append(String(format: "pause %.2f after step %.2f", t, lastStep)) }
                lastPause = t
            case .resume(let t):
                resumes += 1
                if t < lastStep { misplaced.append(String(format: "resume %.2f after step %.2f", t, lastStep)) }
            default:
                break
            }
        }
        #expect(pauses >= 2 && resumes >= 2, "\(resumes) resumes, \(pauses) pauses")
        #expect(misplaced.isEmpty, "\(misplaced)")
    }

    /// The step events and the snapshot agree after a ride's start retracted steps: every total
    /// counts committed steps only.
    @Test func eventsAndTotalsAgreeAcrossARetraction() {
        let journey = JourneyCatalogue.rides.first { $0.name.hasSuffix(RidePlacement.bag.rawValue) }!
        let sim = JourneySimulation.simulate(journey, seed: 1, rateHz: 50)
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        var lastSteps = 0, stepEvents = 0, mismatches = 0
        for sample in sim.samples {
            let before = events.count
            pedometer.process(sample, into: &events)
            stepEvents += stepTimes(Array(events[before...])).count
            let steps = pedometer.snapshot.steps
            #expect(steps >= lastSteps, "the total went down at \(sample.time)")
            lastSteps = steps
            if stepEvents != steps { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) samples where the step events and the total differ")
        pedometer.finish(into: &events)
        #expect(stepTimes(events).count == pedometer.snapshot.steps)
    }

    /// Getting off to walk the bike a few steps between two rides: the short walk counts. Its
    /// steps are pending while a ride may be starting (`StepLedger`); the first ride's hints must not
    /// keep them held, nor let the second ride's start retract them as if it had begun with the
    /// first ride. 6 s: the ride's release takes three windows with the walk's heel strikes (a
    /// walk of 5 s in a trouser pocket does not end the ride), and 8 windows without a hint
    /// (8 s) let the old hints lapse on their own.
    @Test(arguments: [RidePlacement.trouserPocket, .handlebar])
    func aShortWalkBetweenTwoRidesCounts(_ placement: RidePlacement) {
        let pocket: DeviceHolding = placement == .handlebar ? .inHand : .frontPocket
        func walk(_ seconds: Double) -> Journey.Leg {
            .init(.foot(Segment(.walk, seconds: seconds, holding: pocket)), seconds: seconds, speed: 1.4)
        }
        let ride = Journey.Leg(.cycle(placement, crankHz: 1.2), seconds: 60, speed: 5.5)
        let journey = Journey(name: "two rides", expectation: "the walk between them counts",
                              legs: [walk(30), ride, walk(6), ride, walk(30)])
        let (events, sim) = Self.run(journey, gps: false)
        let between = sim.legTimes[2]
        let counted = stepTimes(events).filter { between.contains($0) }.count
        let truth = sim.legSteps[2]
        // The walk is back-filled from its onset once the ride is released; its first and last
        // steps, next to the rides, may fall on either side of the boundary: a stride's worth.
        #expect(counted >= truth - 2, "the walk between the rides counted \(counted) of \(truth) steps")
    }

    /// Ground speed merged into batches of samples (`process(contentsOf:speeds:into:)`, as the
    /// tools hand samples over, a second at a time) reaches the vote exactly as readings observed
    /// one by one between single samples: the same events and, at every batch's end, the same
    /// snapshot and smoothed speed.
    @Test func speedsMergedIntoBatchesActAsReadingsBetweenSamples() {
        let journey = JourneyCatalogue.seedScenarios.first { $0.name.hasPrefix("C ") }!
        let sim = JourneySimulation.simulate(journey, seed: 2, rateHz: 50)
        let speeds = Self.speeds(sim)
        var single = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var batched = single
        var singleEvents: [PedometerEvent] = [], batchedEvents: [PedometerEvent] = []
        var next = 0, taken = 0, differences = 0
        for start in stride(from: 0, to: sim.samples.count, by: 50) {
            let batch = Array(sim.samples[start..<min(start + 50, sim.samples.count)])
            for sample in batch {
                while next < speeds.count, speeds[next].time <= sample.time {
                    single.observe(speeds[next])
                    next += 1
                }
                single.process(sample, into: &singleEvents)
            }
            // The readings up to the batch's last sample, as the tools take them after a batch.
            var readings: [GroundSpeed] = []
            while taken < speeds.count, speeds[taken].time <= batch.last!.time {
                readings.append(speeds[taken])
                taken += 1
            }
            batched.process(contentsOf: batch, speeds: readings, into: &batchedEvents)
            if single.snapshot != batched.snapshot || single.groundSpeed != batched.groundSpeed { differences += 1 }
        }
        #expect(taken > 100, "\(taken) readings")
        #expect(differences == 0)
        #expect(singleEvents == batchedEvents)
        // A reading after the batch's last sample is observed after it.
        var late = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        late.process(contentsOf: [MotionSample(time: 0, acceleration: Vector3(0, 0, 1))],
                     speeds: [GroundSpeed(time: 0.5, metersPerSecond: 3, accuracy: 0.3)], into: &events)
        #expect(late.groundSpeed?.metersPerSecond == 3)
    }

    /// The activity seed's scenario G: cycling at 6 m/s, phone in a jersey pocket. The seed's
    /// vote reads it as driving without its coprocessor; here the IMU sees the seated rider.
    @Test(arguments: [false, true])
    func seedScenarioGReadsCycling(gps: Bool) {
        let journey = JourneyCatalogue.seedScenarios.first { $0.name.hasPrefix("G ") }!
        let (events, sim) = Self.run(journey, gps: gps)
        let ride = sim.legTimes[0]
        let cycling = Self.seconds(of: .cycling, in: ride, events)
        #expect(cycling >= ride.upperBound - ride.lowerBound - 2 * Self.edge, "cycling for \(cycling) s")
        // Only its first seconds may read otherwise: a 4 s window, then 4 pedalling windows.
        #expect(Self.seconds(of: .vehicle, in: ride, events) <= 8)
        #expect(stepTimes(events).isEmpty)
    }
}
