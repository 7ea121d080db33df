import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// An irregular walk longer than 8 s that the rhythm never reads is counted by its chain of
/// strikes (`ChainRules.longestChain`, 10 s; issue 14, session 23). The simulator's lower-back
/// daily life on seeds the benchmark never plays (15 and 20): its 2nd walk, 11 steps drawn within
/// 0.5 to 1.5 s apart, spans 9.0 s from its first strike to its last, and its windows read
/// regularity 0.2 to 0.4, so no bout opens. With chains of at most 8 s it counted 0 of 11.
@Suite struct LongIrregularWalkTests {
    @Test(arguments: [(UInt64(15), 100.0), (15, 25), (20, 100), (20, 25)])
    func anIrregularWalkLongerThanEightSecondsCountsItsStrikes(seed: UInt64, rate: Double) throws {
        let (allCounted, truth, second) = try lowerBackDailyLifeWalk(1, seed: seed, rate: rate)
        let inside = { (t: Double) in t >= second.start - 0.5 && t < second.end + 0.5 }
        let trueSteps = truth.filter(inside)
        // The walk is the case: longer than 8 s from its first true step to its last.
        try #require(trueSteps.count >= 4)
        try #require(trueSteps.last! - trueSteps.first! > 8)
        let counted = allCounted.filter(inside)
        #expect(counted.count == trueSteps.count)
        // Each step at a foot strike: within 0.3 s of a true step (the step-time tolerance).
        for t in counted { #expect(trueSteps.contains { abs($0 - t) <= 0.3 }) }
    }
}
