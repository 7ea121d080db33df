import IMUPlot
import IMUSimulation
import Pedometer

/// The simulator's ground truth in the plot's terms.
enum SimulationTruth {
    static func overlay(_ simulator: Simulator) -> TruthOverlay {
        let truth = simulator.truth
        return TruthOverlay(
            stepTimes: truth.stepTimes,
            floors: truth.floors.map { ($0.time, $0.up) },
            activities: truth.segments.map { ($0.start, $0.end, ActivityClass(rawValue: $0.activity) ?? .unknown) },
            cadences: truth.gaits.map { ($0.start, $0.end, $0.cadence * 60) },
            altitude: { simulator.altitude(at: $0) })
    }
}
