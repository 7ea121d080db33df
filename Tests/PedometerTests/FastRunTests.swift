import Foundation
import IMUSimulation
import Testing
@testable import Pedometer

/// Fast runs and sprints (up to about 5 steps/s) count in full, and the wider cadence range does
/// not double a walk (docs/steps.md, "Cadence range"). Simulated runs only.
@Suite struct FastRunTests {
    /// A run of `seconds` at `cadence` between two still stretches.
    static func run(cadence: Double, holding: DeviceHolding, seconds: Double = 40) -> [Segment] {
        [Segment(.still, seconds: 5, holding: holding),
         Segment(.run, seconds: seconds, cadence: cadence, holding: holding),
         Segment(.still, seconds: 5, holding: holding)]
    }

    /// A run at 4 or 4.5 steps/s (fast running and sprinting; sprinters reach 4.5 to 5) counts
    /// within 2 % of its steps and one step at each end, with the phone in the hand, on an
    /// armband, in a back pocket or a bag, at 25, 50 and 100 Hz: its first and last steps come
    /// out of and go into stillness, where the simulator's bounce fades in and out, and are as
    /// soft as a walk's. Before the cadence range reached 5.5 steps/s such runs counted about
    /// half of their steps.
    @Test(arguments: [(4.0, DeviceHolding.inHand, 100.0), (4.0, .armband, 25), (4.0, .backPocket, 50),
                      (4.5, .inHand, 25), (4.5, .armband, 100), (4.5, .bag, 50), (4.5, .backPocket, 100)])
    func fastRunCountsInFull(cadence: Double, holding: DeviceHolding, rate: Double) {
        let result = simulateAndCount(Self.run(cadence: cadence, holding: holding), seed: 11, rate: rate)
        #expect(result.truth.steps >= Int(40 * cadence) - 1)
        #expect(abs(result.snapshot.steps - result.truth.steps) <= Int(0.02 * Double(result.truth.steps)) + 2,
                "\(cadence) steps/s, \(holding), \(rate) Hz: counted \(result.snapshot.steps) of \(result.truth.steps)")
    }

    /// The same with the phone in a front trouser pocket, from a fast run (3.5 steps/s) to a
    /// sprint (5 steps/s): the thigh's swing and the near foot's stronger strike repeat once per
    /// stride and the stride's two halves do not look alike, so the stride was read as one step
    /// and such runs counted half their steps (`GaitGate.isLimbStride`). Within 2 % of the
    /// steps simulated and one step at each end.
    @Test(arguments: [(3.5, 50.0), (4.0, 25), (4.0, 100), (4.5, 50), (5.0, 25), (5.0, 100)])
    func frontPocketSprintCountsInFull(cadence: Double, rate: Double) {
        let result = simulateAndCount(Self.run(cadence: cadence, holding: .frontPocket), seed: 11, rate: rate)
        #expect(result.truth.steps >= Int(40 * cadence) - 1)
        #expect(abs(result.snapshot.steps - result.truth.steps) <= Int(0.02 * Double(result.truth.steps)) + 2,
                "\(cadence) steps/s, front pocket, \(rate) Hz: counted \(result.snapshot.steps) of \(result.truth.steps)")
    }

    /// A jog in a front pocket or a bag (2.5 steps/s: a bag swings on its strap, a thigh less
    /// at a jog) is not read at twice its cadence: within 2 % of its steps and one at each end.
    @Test(arguments: [(DeviceHolding.frontPocket, 25.0), (.frontPocket, 100), (.bag, 50), (.bag, 100)])
    func joggingIsNotDoubled(holding: DeviceHolding, rate: Double) {
        let result = simulateAndCount(Self.run(cadence: 2.5, holding: holding), seed: 11, rate: rate)
        #expect(abs(result.snapshot.steps - result.truth.steps) <= Int(0.02 * Double(result.truth.steps)) + 2,
                "2.5 steps/s, \(holding), \(rate) Hz: counted \(result.snapshot.steps) of \(result.truth.steps)")
    }

    /// A walk at 2 steps/s whose vertical bounce at twice the cadence is twice its bounce at the
    /// cadence (a brisk walk's two-humped ground force) repeats every half step almost as well
    /// as every step. Its motion is a walk's, far from running's, so it is not read at
    /// 4 steps/s: within 2 % of its steps (one step at each end of 140).
    @Test(arguments: [(DeviceHolding.inHand, 100.0), (.inHand, 25), (.backPocket, 50), (.bag, 100)])
    func walkWithAStrongSecondHarmonicIsNotDoubled(holding: DeviceHolding, rate: Double) {
        var walk = Segment(.walk, seconds: 70, cadence: 2.0, amplitude: 0.2, holding: holding)
        walk.secondHarmonic = 2
        let segments = [Segment(.still, seconds: 5, holding: holding), walk, Segment(.still, seconds: 5, holding: holding)]
        let result = simulateAndCount(segments, seed: 12, rate: rate)
        #expect(relativeError(result.snapshot.steps, result.truth.steps) <= 0.02,
                "\(holding), \(rate) Hz: counted \(result.snapshot.steps) of \(result.truth.steps)")
    }

    /// The estimator alone: the same walk's signal at 50 Hz (a bounce twice as large at twice
    /// the cadence, heel strikes once per step) reads 2 steps/s when it is as weak as a walk, and
    /// the same shape at a sprint's cadence and strength reads as the sprint.
    @Test func estimatorKeepsAWalkAtItsCadenceAndASprintAtItsOwn() throws {
        func signal(cadence: Double, size: Double) -> [Double] {
            (0..<200).map { i in
                let phase = 2 * Double.pi * cadence * Double(i) / 50
                let heel = exp(-pow((phase.truncatingRemainder(dividingBy: 2 * .pi) - 0.3) / 0.15, 2))
                return size * (sin(phase) + 2 * sin(2 * phase - 1.2) + 0.8 * heel)
            }
        }
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let walkSignal = signal(cadence: 2, size: 0.15)
        let sprintSignal = gaitSignal(cadence: 4.8, rate: 50, seconds: 4).map { 6 * $0 }
        let walkEstimate = estimator.estimate(walkSignal, count: 200)
        let walk = try #require(walkEstimate)
        #expect(abs(walk.cadence - 2) < 0.05, "walk read at \(walk.cadence) steps/s")
        let sprintEstimate = estimator.estimate(sprintSignal, count: 200)
        let sprint = try #require(sprintEstimate)
        #expect(abs(sprint.cadence - 4.8) < 0.05, "sprint read at \(sprint.cadence) steps/s")
    }
}
