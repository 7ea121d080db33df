import Foundation
import Testing
@testable import Pedometer

/// A walk's closing steps into a stand strike softer than its steady steps and still count
/// (`HeelStrikes.closingFraction`, `closingSteps`; docs/steps.md, session 25). The strikes are
/// the |a| − 1 g peaks measured at the end of the real-dev lower-back walks, tuned trials only
/// (s02_t1, s02_t2), whose short walks each lost their last step or two before; the truth holds a
/// step at every one of them (the trial's annotated foot strikes, 0.07 to 0.21 s before each peak).
@Suite struct ClosingStepTests {
    /// 50 Hz, `seconds` long: flat but for 0.002 g of noise (a fixed sequence), with a pulse of
    /// `heights[k]` g at `strikes[k]` s.
    private func ring(seconds: Double, strikes: [Double], heights: [Double]) -> RingBuffer {
        var x = RingBuffer(minimumCapacity: Int(seconds * 50))
        var state: UInt64 = 2525
        for i in 0..<Int(seconds * 50) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = 0.002 * 3.46 * (Double(state >> 11) / Double(1 << 53) - 0.5)
            x.append(strikePulses(strikes, heights: heights, at: Double(i) / 50) + noise)
        }
        return x
    }

    private func tick(_ seconds: Double) -> Int { Int((seconds * 50).rounded()) }

    /// s02_t1: the last counted step at 26.74 s (0.62 g), then the last stride's two steps at 0.13
    /// and 0.09 g (0.73 and 0.51 × the walk's 0.177 g RMS, under the 0.8 × a walking step needs)
    /// and the settle at 0.04 g; the stand from 29.1 s. Before a pause both steps count, each at
    /// its strike; with no pause (a walk that fades out, `maximumAfter`) neither does.
    @Test func theLastStridesSofterStepsCountBeforeAPause() {
        let times = [24.70, 25.38, 26.06, 26.74, 27.62, 28.28, 28.58], heights = [0.6, 0.6, 0.6, 0.62, 0.13, 0.09, 0.04]
        let x = ring(seconds: 30, strikes: times, heights: heights)
        let strikes = HeelStrikes()
        let closing = strikes.after(tick(26.74), ceiling: tick(29.1), count: 20, period: 34, level: 0.177, rateHz: 50, in: x)
        #expect(closing == [tick(27.62), tick(28.28)])
        #expect(strikes.after(tick(26.74), ceiling: tick(29.1), period: 34, level: 0.177, rateHz: 50, in: x).isEmpty)
    }

    /// s02_t2: a full step at 26.54 s (0.23 g), the closing step at 0.14 g (0.72 × the 0.195 g RMS),
    /// and the settle 0.32 s after it at 0.06 g: two steps, not three.
    @Test func theSettleAfterTheClosingStepIsNoStep() {
        let times = [24.49, 25.15, 25.82, 26.54, 27.33, 27.65], heights = [0.6, 0.6, 0.96, 0.23, 0.14, 0.06]
        let x = ring(seconds: 30, strikes: times, heights: heights)
        let closing = HeelStrikes().after(tick(25.82), ceiling: tick(28.6), count: 20, period: 33, level: 0.195, rateHz: 50, in: x)
        #expect(closing == [tick(26.54), tick(27.33)])
    }

    /// A settle later than the spacing a step needs (0.45 s after the last step, 0.6 × 0.66 s is
    /// 0.40 s) and at 0.35 × the RMS, the highest the tuned trials' settles reach: no step.
    @Test func aLateSettleIsNoStep() {
        let times = [24.49, 25.15, 25.82, 26.48, 26.93], heights = [0.6, 0.6, 0.6, 0.6, 0.35 * 0.195]
        let x = ring(seconds: 30, strikes: times, heights: heights)
        #expect(HeelStrikes().after(tick(25.82), ceiling: tick(28.6), count: 20, period: 33, level: 0.195, rateHz: 50, in: x) == [tick(26.48)])
    }
}
