import Foundation
import IMUSimulation
import Pedometer

// imu-bench-activity: activity over time and steps during rides (issue 15). Prints figures, never asserts.
if let name = ProcessInfo.processInfo.environment["IMU_SCENARIO"], let scenario = Scenario.named(name) {
    // Diagnostics: one catalogue scenario through the pedometer (with IMU_TRACE, window by window).
    let (samples, truth) = Simulator.generate(scenario)
    let run = ActivityRun(samples: samples, capabilities: SimulationOptions().capabilities, speeds: [])
    print("\(name): truth \(truth.steps) steps, counted \(run.steps)")
} else {
    JourneyReport.run()
    RealRideReport.run()
}
