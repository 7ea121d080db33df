import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// Walks of 3 s (4 to 6 steps) between pauses count in full, first and last steps included
/// (issue 14: `imu-steps --simulate still:2,walk:3,still:3` counted 0 of its steps: the walk's
/// fading last strike refused the whole chain; `ImpactChain`, docs/steps.md).
@Suite struct ThreeSecondWalkTests {
    /// Within one step of the simulator's truth: the truth counts a step only where the walk's
    /// fade-in/out envelope is at least half strength, so the softest foot-fall at either end
    /// is a step or not by a margin no counter can see.
    @Test(arguments: [100.0, 25.0])
    func threeSecondWalksBetweenPausesCount(rate: Double) {
        let walks: [(cadence: Double?, holding: DeviceHolding?)] = [
            (nil, nil),               // the walk: 1.8 steps/s, front pocket
            (1.4, nil), (nil, .inHand), (1.4, .inHand),
        ]
        for walk in walks {
            for seed: UInt64 in 1...3 {
                let (events, snapshot, truth) = simulateAndCount([
                    Segment(.still, seconds: 2),
                    Segment(.walk, seconds: 3, cadence: walk.cadence, holding: walk.holding),
                    Segment(.still, seconds: 3),
                ], seed: seed, rate: rate)
                let counted = stepTimes(events).count
                #expect((4...6).contains(truth.steps), "the walk is the issue's 4 to 6 steps: \(truth.steps)")
                #expect(abs(counted - truth.steps) <= 1,
                        "\(walk) seed \(seed) at \(rate) Hz: \(counted) steps of \(truth.steps)")
                // Walked time: one step period per counted step, so the steps over the walk's
                // own cadence (the simulator's truth), within one step's period either way (the
                // step counted or not at an end); the pace and the minute's active time come from it.
                let cadence = truth.gaits.first?.cadence ?? 0
                let walked = snapshot.activeDuration
                #expect(abs(walked - Double(counted) / cadence) <= 1 / cadence,
                        "\(walk) seed \(seed) at \(rate) Hz: \(walked) s walked for \(counted) steps")
            }
        }
    }
}
