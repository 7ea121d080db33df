import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// Per-step detection at a walk's edges (`HeelStrikes`) and the rules that keep rides and
/// gait-like vibration from counting or being labelled walking (docs/steps.md).
@Suite struct ShortWalkTests {
    /// A ring of `seconds` at 50 Hz: flat, with an impact of `height` g at each of `strikes` (s).
    private func ring(seconds: Double, strikes: [Double], height: Double = 0.3) -> RingBuffer {
        var x = RingBuffer(minimumCapacity: Int(seconds * 50))
        for i in 0..<Int(seconds * 50) {
            let t = Double(i) / 50
            let v = strikes.map { height * exp(-pow((t - $0) / 0.03, 2)) }.reduce(0, +)
            x.append(v)
        }
        return x
    }

    @Test func strikesAfterTheLastCountedStepChainUntilAPause() {
        // Steps every 0.6 s to 6.0 s, then a 3 s pause (longer than any step), then more impacts.
        let times = stride(from: 1.2, through: 6.0, by: 0.6).map { $0 } + [9.0, 9.6]
        let x = ring(seconds: 10.24, strikes: times)
        let strikes = HeelStrikes()
        // Counted up to the step at 4.2 s (tick 210); period 30 ticks; bout RMS 0.1 g.
        let after = strikes.after(210, ceiling: x.count - 1, period: 30, level: 0.1, rateHz: 50, in: x)
        #expect(after == [240, 270, 300].prefix(strikes.maximumAfter).map { $0 })
        // Nothing beyond the pause: the chain stops at 6.0 s even when more are allowed.
        let all = strikes.after(210, ceiling: x.count - 1, count: 10, period: 30, level: 0.1, rateHz: 50, in: x)
        #expect(all == [240, 270, 300])
    }

    @Test func strikesBeforeTheFirstStepStopAtTheFloorAndIgnoreSoftBumps() {
        let x = ring(seconds: 10.24, strikes: [2.4, 3.0, 3.6, 4.2])
        let strikes = HeelStrikes()
        let before = strikes.before(210, floor: 0, period: 30, level: 0.1, rateHz: 50, in: x)
        #expect(before == [180, 150])                    // one stride, latest first
        let floored = strikes.before(210, floor: 170, period: 30, level: 0.1, rateHz: 50, in: x)
        #expect(floored == [180])
        // Impacts below 0.8 × the bout's RMS are not steps (a weight shift before walking off).
        let soft = ring(seconds: 10.24, strikes: [3.6, 4.2], height: 0.05)
        #expect(strikes.before(240, floor: 0, period: 30, level: 0.1, rateHz: 50, in: soft).isEmpty)
    }

    /// Running has a flight phase (gait signal down to −1 g once per step): a 3.3 steps/s rhythm
    /// of 0.08 g (a car's engine or road) is not running.
    @Test func weakFastRhythmIsNotRunning() {
        let gate = GaitGate()
        let estimate = CadenceEstimate(cadence: 3.3, regularity: 0.8, halfRepeat: 0.5, wasStride: false)
        var shape = GaitShape()
        shape.rmsFrequency = 2 * 3.3
        shape.purity = 0.5
        #expect(gate.verdict(estimate: estimate, gaitDeviation: 0.08, shape: shape) == .noRhythm)
        #expect(gate.verdict(estimate: estimate, gaitDeviation: 0.4, shape: shape) == .gait)
    }

    /// A gait-like window that did not open a bout is not labelled walking.
    @Test func uncountedGaitIsNotLabelledWalking() {
        var shape = GaitShape()
        shape.rmsFrequency = 4
        let estimate = CadenceEstimate(cadence: 1.4, regularity: 0.75, halfRepeat: -0.5, wasStride: false)
        var window = GaitWindow(end: 10, gaitDeviation: 0.1, horizontalDeviation: 0.03, estimate: estimate,
                                shape: shape, isGait: true, wasRhythmic: false)
        #expect(ActivityClassifier().classify(window).0 == .unknown)
        window.counted = true
        #expect(ActivityClassifier().classify(window).0 == .walking)
    }

    /// Two regular 8 s walks of 12 steps with stops between (issue 14: such walks counted 0 in a
    /// real daily-life session): each counts within one step at each edge (the onset's resolution).
    @Test(arguments: [UInt64(1), 2, 3])
    func eightSecondWalksCount(seed: UInt64) {
        let segments = [Segment(.still, seconds: 5, holding: .inHand),
                        Segment(.walk, seconds: 8, cadence: 1.5, holding: .inHand),
                        Segment(.still, seconds: 6, holding: .inHand),
                        Segment(.walk, seconds: 8, cadence: 1.5, holding: .inHand),
                        Segment(.still, seconds: 5, holding: .inHand)]
        let (events, snapshot, truth) = simulateAndCount(segments, seed: seed)
        #expect(abs(snapshot.steps - truth.steps) <= 2 * 2, "\(snapshot.steps) vs \(truth.steps)")
        #expect(!stepTimes(events).isEmpty)
    }
}
