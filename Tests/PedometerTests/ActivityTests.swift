import Testing
import IMUSimulation
@testable import Pedometer

@Suite struct ActivityTests {
    @Test func redLightDoesNotEndARide() {
        var segmenter = ActivitySegmenter()
        var events: [PedometerEvent] = []
        var t = 0.0
        func feed(_ activity: ActivityClass, _ seconds: Int) {
            for _ in 0..<seconds {
                segmenter.add(activity, confidence: .medium, start: t, time: t + 1, into: &events)
                t += 1
            }
        }
        feed(.walking, 60)
        feed(.vehicle, 300)
        feed(.stationary, 60)     // red light
        feed(.vehicle, 200)
        feed(.walking, 3)         // a jolt flickers as walking
        feed(.vehicle, 100)
        feed(.walking, 60)
        segmenter.finish(at: t, into: &events)
        let kinds = segments(events).map(\.activity)
        #expect(kinds == [.walking, .vehicle, .walking])
        let ride = segments(events)[1]
        #expect(ride.start == 60 && ride.end == 723)
    }

    @Test func busIsAVehicleWithoutSteps() {
        let sim = simulate("bus")
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.steps == 0)
        let vehicleTime = segments(events).filter { $0.activity == .vehicle }.reduce(0) { $0 + $1.duration }
        #expect(vehicleTime > 0.8 * sim.truth.duration, "vehicle for \(vehicleTime) of \(sim.truth.duration) s")
    }

    /// Walk 5 min, wait 2 min, ride a bus 18 min (stops, turns, vibration), walk 5 min: the ride
    /// adds no steps and the walks count.
    @Test func commuteRideAddsNoSteps() {
        let sim = simulate("commute") { $0.sampleRateHz = 50 }
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        let ride = sim.truth.segments.first { $0.activity == "vehicle" }!
        let during = stepTimes(events).filter { $0 > ride.start + 2 && $0 < ride.end - 2 }
        #expect(during.isEmpty, "\(during.count) steps during the ride")
        #expect(relativeError(snapshot.steps, sim.truth.steps) <= 0.01, "\(snapshot.steps) vs \(sim.truth.steps)")
        let vehicleTime = segments(events).filter { $0.activity == .vehicle }.reduce(0) { $0 + $1.duration }
        #expect(vehicleTime > 0.9 * (ride.end - ride.start))
    }

    @Test func wavingIsNotWalking() {
        let sim = simulate("wave")
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.steps == 0)
        #expect(!segments(events).contains { $0.activity == .walking || $0.activity == .running })
    }

    @Test func dayHasWalkingRunningAndARide() {
        let sim = simulate("day")
        let (events, _) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        let found = segments(events)
        for truth in sim.truth.segments where truth.end - truth.start >= 30 && truth.activity != "unknown" {
            // The middle of every long true segment is labelled with its class.
            let middle = (truth.start + truth.end) / 2
            let label = found.first { $0.start <= middle && middle < $0.end }?.activity.rawValue
            #expect(label == truth.activity, "at \(middle): \(label ?? "none") vs \(truth.activity)")
        }
        // Segments tile the whole stream without overlap.
        for (a, b) in zip(found, found.dropFirst()) { #expect(abs(a.end - b.start) < 1e-9) }
        #expect(abs((found.first?.start ?? 0) - sim.samples[0].time) < 0.05)
        #expect(abs((found.last?.end ?? 0) - sim.samples[sim.samples.count - 1].time) < 0.05)
    }

    /// Boarding a bus straight from a walk, no pause between: the ride (5 min) adds no steps and
    /// the walks either side count, in the hand and in both pockets, five seeds, at 100 and at
    /// 25 Hz (where the bus's vibration above 12.5 Hz is gone and, before the 0.065 g gait floor,
    /// 2 of these 15 rides counted 14 to 19 steps).
    @Test(arguments: [DeviceHolding.inHand, .frontPocket, .backPocket], [100.0, 25.0])
    func busBoardedStraightFromAWalkAddsNoSteps(holding: DeviceHolding, rate: Double) {
        let segments = [Segment(.walk, seconds: 60, holding: holding), Segment(.bus, seconds: 300, holding: holding),
                        Segment(.walk, seconds: 60, holding: holding)]
        for seed in UInt64(1)...5 {
            let (events, snapshot, truth) = simulateAndCount(segments, seed: seed, rate: rate)
            let ride = truth.segments.first { $0.activity == "vehicle" }!
            let inRide = stepTimes(events).filter { $0 > ride.start + 3 && $0 < ride.end - 3 }
            #expect(inRide.isEmpty, "seed \(seed): \(inRide.count) steps during the ride")
            #expect(abs(snapshot.steps - truth.steps) <= 2, "seed \(seed): \(snapshot.steps) vs \(truth.steps)")
        }
    }
}
