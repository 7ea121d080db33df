import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// A walk that closes at a pause with more steps left than the rhythm credited: its strikes up to
/// the pause are counted one by one (`BoutRules.strikesBeforePause`; docs/steps.md, "walking →
/// idle at a pause"). Before, at most `HeelStrikes.maximumAfter` (3) were, and the real-dev short
/// walks whose strides never repeated (s02_t2, s03_t1, tuned) lost the rest.
@Suite struct IrregularShortWalkTests {
    /// The simulator's lower-back daily life (`imu-bench-accuracy`, tuned seed 1, 100 Hz): its
    /// fourth walk, 20 steps 0.5 to 0.7 s apart before a 2 s pause, counted one step short (18 of
    /// 19 true steps) when at most three steps followed the rhythm's last credited one.
    @Test func aWalkClosedAtAPauseCountsItsLastStepsUpToThePause() throws {
        let (allCounted, truth, fourth) = try lowerBackDailyLifeWalk(3, seed: 1)
        let inside = { (t: Double) in t >= fourth.start - 0.5 && t < fourth.end + 0.5 }
        let trueSteps = truth.filter(inside)
        let counted = allCounted.filter(inside)
        #expect(counted.count == trueSteps.count)
        // Each step at a foot strike: within 0.3 s of a true step (the step-time tolerance).
        for t in counted { #expect(trueSteps.contains { abs($0 - t) <= 0.3 }) }
    }
}
