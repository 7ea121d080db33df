import Foundation
import IMUCore
import IMUSimulation

/// Simulated recordings written as CSV (docs/CONTRACTS.md §2), as `imu-record` would.
enum Recordings {
    /// Writes `scenario` (a name or a composition) to `dir/name` and returns the path and the truth.
    static func write(_ scenario: String, to dir: URL, name: String, barometer: Bool = true,
                      comments: [String] = []) throws -> (path: String, truth: GroundTruth) {
        var options = SimulationOptions()
        if !barometer { options.barometerRateHz = nil }
        let (samples, truth) = Simulator.generate(try Scenario.resolve(scenario), options: options)
        let path = dir.appendingPathComponent(name).path
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: options.capabilities), comments: comments)
        for s in samples { try writer.write(s) }
        try writer.close()
        return (path, truth)
    }

    /// An environment in which no saved calibration or walker profile of the user applies.
    static func cleanEnvironment(_ dir: URL) -> [String: String] {
        ["HOME": dir.path, "XDG_CONFIG_HOME": dir.appendingPathComponent("config").path, "TZ": "UTC"]
    }
}
