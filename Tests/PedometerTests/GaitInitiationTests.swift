import Foundation
import Testing
@testable import Pedometer

/// Starting to walk moves the trunk before the first heel strike: the anticipatory weight shift
/// (0.4 to 0.6 s) and then the first swing (about 0.4 s). The stillness a short walk needs before
/// it is judged before all of that (`ChainRules.initiationSeconds`, docs/steps.md "Short walks
/// between pauses").
@Suite struct GaitInitiationTests {
    /// 50 Hz of standing (0.002 g of sensor noise, a fixed pseudo-random sequence), a weight shift
    /// (a smooth hump of `shift` g over 0.45 s, ending `shiftEnd` s before the first strike), then
    /// strikes of 0.4 g at `strikes` (s); what the chain detector says once the stream is over.
    private func chain(strikes: [Double], shift: Double, shiftEnd: Double, seconds: Double = 12) -> [Int]? {
        let shiftStart = strikes[0] - shiftEnd - 0.45
        return chainVerdict(seconds: seconds, seed: 4242) { t in
            let hump = t >= shiftStart && t < shiftStart + 0.45 ? shift * sin(Double.pi * (t - shiftStart) / 0.45) : 0
            return strikePulses(strikes, heights: strikes.map { _ in 0.4 }, at: t) + hump
        }
    }

    /// Five steps at 0.55 to 0.65 s whose weight shift (0.08 g, too smooth to be a strike: 0.04 g
    /// above its trough within 0.15 s) ends 0.55 s before the first strike: the stand before
    /// the shift is still, and the walk counts in full.
    @Test func aWeightShiftBeforeTheFirstStrikeIsNoMotionBeforeTheWalk() {
        let strikes = [4.6, 5.2, 5.8, 6.35, 6.95]
        let ticks = chain(strikes: strikes, shift: 0.08, shiftEnd: 0.55)
        #expect(ticks?.count == 5)
        for (tick, time) in zip(ticks ?? [], strikes) { #expect(abs(Double(tick) / 50 - time) <= 0.02) }
    }

    /// The same motion 1.5 s before the first strike is no part of starting this walk (the
    /// weight shift and the first swing take about 1 s): the walk did not come out of stillness.
    @Test func motionWellBeforeTheFirstStrikeStillRefusesTheChain() {
        #expect(chain(strikes: [4.6, 5.2, 5.8, 6.35, 6.95], shift: 0.08, shiftEnd: 1.5) == nil)
    }
}
