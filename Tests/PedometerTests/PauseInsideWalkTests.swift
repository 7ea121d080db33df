import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// A slow, irregular walk whose rhythm opens a bout that then stops at a still second between
/// two of its steps before it counted one: the bout leaves its strikes to `ImpactChain`
/// (docs/steps.md, "walking → idle at a pause").
@Suite struct PauseInsideWalkTests {
    /// The simulator's lower-back daily life (`imu-bench-accuracy`, tuned seed 1, 100 Hz): its
    /// seventh walk, 4 steps 1.1, 1.3 and 0.7 s apart, opened a bout on its rhythm (regularity
    /// 0.90) that the still second between its second and third steps closed with no step; the
    /// bout's floor then moved past the pause and the chain kept only 2 strikes: 0 of 4 counted.
    @Test func aWalkStoppedBeforeItsFirstStepIsCountedStrikeByStrike() throws {
        let (counted, truth, seventh) = try lowerBackDailyLifeWalk(6, seed: 1)
        let inside = { (t: Double) in t >= seventh.start && t < seventh.end }
        let trueSteps = truth.filter(inside).count
        #expect(trueSteps == 4)
        #expect(counted.filter(inside).count == trueSteps)
    }
}
