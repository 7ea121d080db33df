import Foundation
import Testing
@testable import Pedometer

/// A strike's rebound within its loading response is part of the strike, not a weak step that
/// refuses a short walk (`ChainRules.reboundSeconds`, docs/steps.md "Short walks between pauses").
@Suite struct StrikeReboundTests {
    /// 50 Hz of standing (0.002 g of sensor noise) with a strike of `heights[k]` g at `strikes[k]`
    /// s; what the chain detector says once the stream is over.
    private func chain(strikes: [Double], heights: [Double]) -> [Int]? {
        chainVerdict(seconds: 12, seed: 4242) { strikePulses(strikes, heights: heights, at: $0) }
    }

    /// The simulator's lower-back daily life, tuned seed 2 at 100 Hz, its 5th walk (6 steps, 0.3
    /// to 2 s apart; truth 54.93, 56.87, 58.54, 59.30, 59.61, 60.60 s): `ImpactChain` measured
    /// these impacts (moved 52 s earlier), among them 0.09 g 0.30 s after the 0.49 g strike of a
    /// 1.9 s step. The rebound is left out and the six steps count, each at its strike, the two
    /// 0.36 s apart as two. A weak impact that follows no strike closely (0.8 s after one, in the
    /// middle of the walk) still refuses the chain: steps of one walk are of a kind.
    @Test func aReboundAfterAStrikeIsPartOfIt() {
        let steps = [3.06, 4.96, 6.58, 7.30, 7.66, 8.70]
        let heights = [0.33, 0.49, 0.41, 0.62, 0.53, 0.85]
        let ticks = chain(strikes: [3.06, 4.96, 5.26, 6.58, 7.30, 7.66, 8.70], heights: [0.33, 0.49, 0.09, 0.41, 0.62, 0.53, 0.85])
        #expect(ticks?.count == 6)
        for (tick, time) in zip(ticks ?? [], steps) { #expect(abs(Double(tick) / 50 - time) <= 0.02) }
        // The same weak impact 0.8 s after the strike, 0.6 s before the next: not a rebound.
        var late = steps, lateHeights = heights
        late.insert(5.76, at: 2); lateHeights.insert(0.09, at: 2)
        #expect(chain(strikes: late, heights: lateHeights) == nil)
    }
}
