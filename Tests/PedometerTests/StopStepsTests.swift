import Foundation
import Testing
@testable import Pedometer

/// A short walk's last two steps strike softer as the trunk brakes to a stop, and still count
/// (`ChainRules.weakestFraction`, docs/steps.md "Short walks between pauses"). The strikes are
/// the ones `ImpactChain` measured on the 5-step walks of the real-dev short walks set, tuned
/// trials only (s03_t5, s03_t6 at the lower back); their truth is 5 steps each.
@Suite struct StopStepsTests {
    /// 50 Hz of standing (0.002 g of sensor noise, a fixed pseudo-random sequence) with a strike
    /// of `heights[k]` g at `strikes[k]` s; what the chain detector says once the stream is over.
    private func chain(strikes: [Double], heights: [Double], seconds: Double = 12) -> [Int]? {
        chainVerdict(seconds: seconds, seed: 777) { strikePulses(strikes, heights: heights, at: $0) }
    }

    /// s03_t5: a weight shift (0.10 g, 0.24 × the median) before five steps whose last two, the
    /// stop, strike at 0.16 and 0.18 g against 0.41 to 0.48 g. The shift is left out, the stop
    /// counts: 5 steps, each at its strike.
    @Test func aStopsSoftLastTwoStepsCount() {
        let strikes = [4.08, 4.58, 5.16, 5.74, 6.30, 6.84]
        let ticks = chain(strikes: strikes, heights: [0.10, 0.41, 0.44, 0.48, 0.16, 0.18])
        #expect(ticks?.count == 5)
        for (tick, time) in zip(ticks ?? [], strikes.dropFirst()) { #expect(abs(Double(tick) / 50 - time) <= 0.02) }
    }

    /// s03_t6: five steps, the last two at 0.13 and 0.19 g against 0.36 to 0.61 g.
    @Test func aStopWithoutAWeightShiftCountsInFull() {
        let ticks = chain(strikes: [4.60, 5.22, 5.78, 6.32, 6.74], heights: [0.36, 0.61, 0.46, 0.13, 0.19])
        #expect(ticks?.count == 5)
    }
}
