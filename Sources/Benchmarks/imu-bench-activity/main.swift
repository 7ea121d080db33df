import BenchArguments
import Foundation
import IMUSimulation
import Pedometer

BenchArguments.acceptNone("imu-bench-activity", summary: "activity over time and steps during rides (IMU_SCENARIO=NAME traces one catalogue scenario)")

// imu-bench-activity: activity over time and steps during rides (issue 15). Prints figures, never asserts.
if let name = ProcessInfo.processInfo.environment["IMU_SCENARIO"], let scenario = Scenario.named(name) {
    // Diagnostics: one catalogue scenario through the pedometer (with IMU_TRACE, window by window).
    var options = SimulationOptions()
    options.seed = ProcessInfo.processInfo.environment["IMU_SEED"].flatMap(UInt64.init) ?? 1
    let (samples, truth) = Simulator.generate(scenario, options: options)
    let run = ActivityRun(samples: samples, capabilities: SimulationOptions().capabilities, speeds: [])
    print("\(name): truth \(truth.steps) steps, counted \(run.steps)")
} else {
    JourneyReport.run()
    RealRideReport.run()
}
