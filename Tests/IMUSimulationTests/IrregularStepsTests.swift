import Testing
@testable import IMUSimulation

/// Irregular walks (issue 14): each step's interval drawn within a range (`Segment.stepIntervals`,
/// written `~MIN-MAX`), and the lower-back holding the daily-life sessions wear.
@Suite struct IrregularStepsTests {
    @Test func stepsFallWithinTheRangeAndVary() throws {
        let walk = try Scenario.resolve("still:2,walk:30~0.3-2/lower-back,still:2")
        for seed in UInt64(1)...5 {
            let truth = Simulator(scenario: walk, options: options { $0.seed = seed }).truth
            let gaps = zip(truth.stepTimes.dropFirst(), truth.stepTimes).map { $0 - $1 }
            // Every interval is one drawn from 0.3-2 s (the truth leaves out only the softest
            // steps at the walk's two ends, never one in the middle).
            #expect(gaps.allSatisfy { $0 >= 0.3 - 1e-9 && $0 <= 2 + 1e-9 }, "seed \(seed): \(gaps)")
            // Irregular, not a steady cadence with ±5 % wander: uniform draws over 1.7 s spread.
            #expect((gaps.max() ?? 0) - (gaps.min() ?? 0) > 0.8, "seed \(seed)")
            // 30 s of steps 1.15 s apart on average: 26 ± 8 (a uniform draw's deviation is 0.49 s).
            #expect((18...34).contains(truth.steps), "seed \(seed): \(truth.steps)")
        }
    }

    @Test func compositionSyntax() throws {
        let s = try Scenario.resolve("walk:8~0.3-2/lower-back")
        #expect(s.segments[0].stepIntervals == 0.3...2)
        #expect(s.segments[0].holding == .lowerBack)
        #expect(abs(s.segments[0].cadence - 2 / 2.3) < 1e-12)   // the mean interval's rate
        #expect(try Scenario.resolve("stroll:8@0.9*0.1~0.4-1.2/hand").segments[0].cadence == 0.9)
        #expect(try Scenario.resolve("walk:8").segments[0].stepIntervals == nil)
        for bad in ["walk:8~2-0.3", "walk:8~0.1-2", "walk:8~0.3", "walk:8~a-b", "run:8~0.3-1", "walk:8~0.3-20"] {
            #expect(throws: SimulationError.self, "\(bad)") { try Scenario.resolve(bad) }
        }
    }
}
