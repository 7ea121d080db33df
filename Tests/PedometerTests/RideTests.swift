import Testing
import IMUSimulation
@testable import Pedometer

/// Rides in the simulator's other vehicles add no steps and are never labelled walking or
/// running; getting off and walking away still counts (issue 14 part 2). The soft-suspension
/// city bus is a known limit (docs/steps.md): its start, before the ride is labelled a vehicle,
/// and the weak sway bursts the impact-coupling rule refuses are asserted here.
@Suite struct RideTests {
    @Test(arguments: [Segment.Vehicle.tram, .metro, .car])
    func aRideAddsNoStepsAndTheWalkOffCounts(vehicle: Segment.Vehicle) {
        let mount = DeviceHolding.custom(roll: 0, pitch: -80 * .pi / 180, yaw: 0)
        for holding in [DeviceHolding.inHand, .frontPocket, .bag, mount] {
            for rate in [20.0, 100.0] {
                let walkHolding = holding == mount ? DeviceHolding.inHand : holding
                let plan = [Segment(.ride(vehicle), seconds: 150, holding: holding),
                                Segment(.walk, seconds: 30, cadence: 1.7, amplitude: 0.22, holding: walkHolding)]
                var options = SimulationOptions()
                options.seed = 1
                options.sampleRateHz = rate
                options.includeGyroscope = false
                options.barometerRateHz = nil
                let (samples, truth) = Simulator.generate(Scenario(name: "ride", segments: plan), options: options)
                let (events, snapshot) = runPedometer(samples, capabilities: options.capabilities)
                let rideEnd = truth.segments[0].end
                let inRide = stepTimes(events).filter { $0 < rideEnd }
                #expect(inRide.isEmpty, "\(vehicle) \(holding) \(rate) Hz: \(inRide.count) steps in the ride")
                let gait: Set<ActivityClass> = [.walking, .running]
                let labelled = segments(events).filter { (s: ActivitySegment) -> Bool in gait.contains(s.activity) && s.start < rideEnd - 2 }
                #expect(labelled.isEmpty, "\(vehicle) \(holding) \(rate) Hz: labelled \(labelled)")
                // The walk off counts to within a step at each edge.
                #expect(abs(snapshot.steps - truth.steps) <= 2, "\(vehicle) \(holding) \(rate) Hz: \(snapshot.steps) vs \(truth.steps)")
            }
        }
    }

    /// The soft city bus's bounce (0.06 g at 1.2-2 Hz, in the walking band) reads as gait while
    /// the ride is still labelled stationary; it moves the phone vertically, not fore-aft as
    /// steps do, so no walk opens (`GaitGate.walkStartHorizontal`). Ride seed 7 counted 13 and
    /// 33 false steps here at 20 and 200 Hz before that rule applied up to 0.2 g.
    @Test(arguments: [20.0, 200.0])
    func aSoftBusBounceBeforeTheRideIsKnownAddsNoSteps(rate: Double) {
        expectNoStepsInACityBusRide(seed: 7, rate: rate)
    }

    /// The city bus's weak gait-like windows (0.065-0.09 g) that move the phone 0.04-0.056 g
    /// sideways, less than walks do, in bursts of its sway: that motion is not the steps' own,
    /// it does not peak with the vertical bounce (`GaitGate.minimumImpactCoupling`). Tuning
    /// seeds 23 and 32 at 20 Hz and 36 at 200 Hz, phone in the hand: before that rule they
    /// counted 14, 40 and 7 false steps here. The ride has no steps, so the truth is 0.
    @Test(arguments: [(UInt64(23), 20.0), (32, 20.0), (36, 200.0)])
    func aCityBusSwayThatIsNotTheStepsOwnAddsNoSteps(seed: UInt64, rate: Double) {
        expectNoStepsInACityBusRide(seed: seed, rate: rate)
    }

    /// The city bus's bounce on tuning seed 40: for about 20 s it is a 1.34-1.39 Hz near-sine of
    /// 0.10 g, regular 0.93-1.0, moving the phone 0.02-0.05 g horizontally, and it opened walks
    /// on its regularity (in the hand, 6 false steps at 20 Hz and 36 at 200 Hz). A bounce inside
    /// its resonance band has no third moment (|skewness| ≤ 0.17 there), a step has one
    /// (`GaitGate.selfSustainedSkewness`). The ride has no steps, so the truth is 0.
    @Test(arguments: [20.0, 200.0])
    func aCityBusBounceRegularAsAWalkAddsNoSteps(rate: Double) {
        expectNoStepsInACityBusRide(seed: 40, rate: rate)
    }

    /// A 180 s city-bus ride with the phone in the hand, accelerometer only: no steps, never
    /// labelled walking or running.
    func expectNoStepsInACityBusRide(seed: UInt64, rate: Double) {
        var options = SimulationOptions()
        options.seed = seed
        options.sampleRateHz = rate
        options.includeGyroscope = false
        options.barometerRateHz = nil
        let plan = [Segment(.ride(.cityBus), seconds: 180, holding: .inHand)]
        let (samples, _) = Simulator.generate(Scenario(name: "city-bus", segments: plan), options: options)
        let (events, snapshot) = runPedometer(samples, capabilities: options.capabilities)
        #expect(snapshot.steps == 0, "city bus seed \(seed), \(rate) Hz: \(snapshot.steps) steps")
        let gait: Set<ActivityClass> = [.walking, .running]
        #expect(segments(events).allSatisfy { !gait.contains($0.activity) })
    }
}
