/// Decides whether a window is walking or running: strong enough, regular at a plausible cadence,
/// and shaped like gait. Thresholds are measured figures on the development recordings and the
/// simulator (see the benchmark `imu-bench-accuracy`).
struct GaitGate: Sendable {
    /// Weakest gait, g (std of vertical user acceleration): slow walks in a purse measure about
    /// 0.05 g; a phone resting on a table is below 0.01 g.
    var minimumDeviation = 0.025
    /// Regularity needed at the step period. The pedometer seed measures about 0.9 for gait and 0.34 for a bus.
    var minimumRegularity = tune("MINR", 0.4)
    /// Plausible cadences, steps/s: from a slow stroll to a sprint.
    var cadenceRange = 1.0...4.0

    func isGait(estimate: CadenceEstimate?, verticalDeviation: Double, shape: GaitShape) -> Bool {
        guard let estimate, verticalDeviation >= minimumDeviation,
              cadenceRange.contains(estimate.cadence),
              estimate.regularity >= minimumRegularity else { return false }
        return true
    }

    /// Non-gait windows (seconds) a bout survives while the motion stays strong: a turn.
    static let toleratedMisses = Int(tune("MISSES", 2))
    /// Fraction of a bout's energy that marks its onset and end.
    static let envelopeFraction = tune("ENVF", 0.25)
    /// Phase (in steps) at a bout's onset: the first step falls at the onset.
    static let startPhase = tune("PHASE", 0.5)
}

import Foundation
func tune(_ name: String, _ value: Double) -> Double {
    ProcessInfo.processInfo.environment["TUNE_" + name].flatMap(Double.init) ?? value
}
