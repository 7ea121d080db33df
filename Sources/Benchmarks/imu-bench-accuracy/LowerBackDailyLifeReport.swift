import IMUSimulation
import Pedometer

/// The simulator's lower-back daily life (issue 14, session 15): walks of 4 to 20 steps between
/// pauses with the phone on a belt at the lower back, each step's interval drawn at random within
/// the walk (`Segment.stepIntervals`): 0.3 to 2 s, as the held-out daily-life sessions describe
/// theirs (walks of 6 to 20 steps, 0.4 to 2 s between steps, irregular within a walk). Seeds 1-3
/// are the tuned part, seeds 4-6 held out (named here; the headline is the held-out figure).
enum LowerBackDailyLifeReport {
    static let tunedSeeds: [UInt64] = [1, 2, 3]
    static let heldOutSeeds: [UInt64] = [4, 5, 6]

    /// The walks: `PausedWalk.lowerBackDailyLife`.
    static let walks = PausedWalk.lowerBackDailyLife

    static func scenario() -> Scenario {
        Scenario(name: "lower-back-daily-life", segments: Segment.walksBetweenPauses(walks, holding: .lowerBack))
    }

    static func run() {
        print("== simulated lower-back daily life: 8 walks of 4-20 steps, 0.3-2 s between steps drawn per step, between 2-5 s pauses, 100 and 25 Hz")
        DailyLifeReport.walkSet(headline: "simulated lower-back daily life", tuned: tunedSeeds, heldOut: heldOutSeeds) { _ in scenario() }
    }
}
