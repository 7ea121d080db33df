import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// Slow walks (0.5 to 1 steps/s) read by the rhythm stage as steps, not as strides of two
/// (`CadenceEstimator.unlikeHalves`, `CadenceEstimator.maximumSlowStepPeriod`; docs/steps.md).
@Suite struct SlowWalkTests {
    /// One step of 1 to 2 s repeats as one fall and one heel strike: half a step later its
    /// fundamental is in opposite phase, so it is one step, not a stride whose two halves are
    /// alike. Within one 50 Hz tick of lag (cadence² × 0.02 s) of the true cadence.
    @Test(arguments: [0.55, 0.85, 0.95])
    func aSlowStepIsOneStep(cadence: Double) throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let signal = gaitSignal(cadence: cadence, rate: 50, seconds: 4)
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(!estimate.wasStride)
        #expect(abs(estimate.cadence - cadence) <= cadence * cadence * 0.02, "\(estimate.cadence)")
        #expect(GaitGate().cadenceRange.contains(estimate.cadence))
    }

    /// A stride of the same length whose two steps differ in size but not in shape (a phone on
    /// one leg) is still two steps.
    @Test func aStrideOfTwoAlikeStepsIsStillTwoSteps() throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let signal = gaitSignal(cadence: 1.7, rate: 50, seconds: 4, strideAsymmetry: 0.6)
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(abs(estimate.cadence - 1.7) < 0.02, "\(estimate.cadence)")
    }

    /// Daily life's slow walks between pauses, in a bag and trouser pockets: 6 steps at
    /// 0.8 steps/s, 8 at 1 and 5 at 0.6 (the issue: a walk of 4 or more steps counts in full,
    /// down to about 0.6 steps/s). They were read as strides whose halves are unlike (a sway) and
    /// refused, or as 0.57 steps/s, below the slowest cadence. Each walk within one step of its
    /// truth (a walk's first or last step may fall either side of where its motion starts).
    @Test(arguments: [UInt64(11), 12, 13])
    func slowWalksInPocketsAndBagsCountInFull(seed: UInt64) {
        let walks: [(steps: Double, cadence: Double, amplitude: Double, holding: DeviceHolding)] = [
            (6, 0.8, 0.12, .bag), (6, 0.8, 0.12, .backPocket), (6, 0.8, 0.12, .frontPocket),
            (8, 1.0, 0.15, .bag), (8, 1.0, 0.15, .backPocket), (5, 0.6, 0.1, .bag),
        ]
        var segments = [Segment(.still, seconds: 5, holding: .inHand)]
        for w in walks {
            segments.append(Segment(.walk, seconds: w.steps / w.cadence, cadence: w.cadence, amplitude: w.amplitude, holding: w.holding))
            segments.append(Segment(.still, seconds: 4, holding: w.holding))
        }
        for rate in [100.0, 25.0] {
            let (events, _, truth) = simulateAndCount(segments, seed: seed, rate: rate)
            let ours = stepTimes(events)
            // Each walk with the second either side of it (the pauses are 4 s).
            for walk in truth.segments where walk.activity == "walking" {
                let span = (walk.start - 1)..<(walk.end + 1)
                let counted = ours.filter { span.contains($0) }.count
                let real = truth.stepTimes.filter { span.contains($0) }.count
                #expect(abs(counted - real) <= 1, "seed \(seed) \(rate) Hz, walk at \(walk.start) s: \(counted) of \(real)")
            }
        }
    }

    /// A heel strike's harmonics do not slow down with the steps: a weak window of a walk at
    /// 0.6 steps/s whose RMS frequency is 2.2 Hz (3.7 × its cadence) is gait, while weak motion
    /// at 4 Hz or more over a slow or a walking rhythm is an engine's or a road's vibration
    /// (`GaitGate.vibrationReferenceCadence`).
    @Test func aSlowWalksHeelStrikesAreNotVibration() {
        let gate = GaitGate()
        var shape = GaitShape()
        shape.purity = 0.75
        let slow = CadenceEstimate(cadence: 0.6, regularity: 0.85, halfRepeat: -0.6, wasStride: false)
        shape.rmsFrequency = 2.2
        #expect(gate.verdict(estimate: slow, gaitDeviation: 0.085, shape: shape) == .gait)
        shape.rmsFrequency = 4
        #expect(gate.verdict(estimate: slow, gaitDeviation: 0.085, shape: shape) == .vibration)
        let walking = CadenceEstimate(cadence: 1.5, regularity: 0.85, halfRepeat: 0.5, wasStride: false)
        shape.rmsFrequency = 6
        #expect(gate.verdict(estimate: walking, gaitDeviation: 0.085, shape: shape) == .vibration)
    }

    /// End to end: five steps at 0.6 steps/s with the phone in a bag (0.08 to 0.09 g windows),
    /// from standing and back, count within one step of the truth at 100 and 25 Hz; at 100 Hz
    /// its windows read as vibration and it counted none.
    @Test(arguments: [UInt64(11), 12, 13])
    func aWalkAtPointSixStepsPerSecondInABagCounts(seed: UInt64) {
        let segments = [Segment(.still, seconds: 5, holding: .inHand),
                        Segment(.walk, seconds: 5 / 0.6, cadence: 0.6, amplitude: 0.1, holding: .bag),
                        Segment(.still, seconds: 4, holding: .bag)]
        for rate in [100.0, 25.0] {
            let (_, snapshot, truth) = simulateAndCount(segments, seed: seed, rate: rate)
            #expect(abs(snapshot.steps - truth.steps) <= 1, "seed \(seed) \(rate) Hz: \(snapshot.steps) of \(truth.steps)")
        }
    }
}
