extension SourceSelection {
    /// The thread a tool opens its source on (`ps -L` shows it), as the daemon's supervisor does.
    static let openThread = "imukit-open"

    /// `open`, then with `calibrating` the saved calibration (`applySavedCalibration`; nil: none,
    /// as imu-calibrate needs raw readings), on a thread of its own (`OwnThread.run`); the calling
    /// task is suspended meanwhile. Opening blocks: I²C probing (ioctls, a chip's reset wait), an
    /// IIO context (an `ip:` one waits on the network), a recording (a FIFO's open and its header
    /// wait for the writer), the calibration files. A tool's body runs on the Swift concurrency
    /// pool (`ToolMain`), so these calls never run there (docs/concurrency.md).
    /// Returns the source and the calibration message (nil when none was applied).
    public static func open(_ request: SourceRequest, options: SourceOptions, backends: [any SensorBackend],
                            calibrating args: ParsedArguments?) async throws -> (source: any SampleSource, calibration: String?) {
        try await OwnThread.run(name: openThread) {
            var source = try open(request, options: options, backends: backends)
            let message = try args.flatMap { try applySavedCalibration(to: &source, args: $0) }
            return (source, message)
        }
    }
}
