import IMUCLI
import Pedometer

/// imu-steps: live steps, cadence, distance, pace, floors and activity.
let spec = CommandSpec(
    name: "imu-steps",
    summary: "count steps, cadence, distance, pace, floors and activity from a sensor, a recording or the simulator",
    usage: [
        "[--source] [--gps | --gpsd] [--json]",
        "--replay [--realtime] [--json]",
        "--simulate [--speed] [--json]",
        "--today | --history | --since [--json]   (ask the step daemon imu-stepd)",
    ],
    options: SourceSelection.options + GPSSelection.options + WalkerSettings.options + DaemonQueries.options + [
        OptionSpec("json", short: "j", help: "JSON Lines on stdout: step, floor, activity events, then a summary (docs/CONTRACTS.md §3)"),
        OptionSpec("walked", value: .number("M"), help: "you walked M metres: print the pace to give --stride (cadence and metres per step)"),
        OptionSpec("raw", help: "do not apply the saved calibration"),
    ],
    examples: [
        ("imu-steps", "first sensor found; the simulated demo walk (labelled) when there is none"),
        ("imu-steps --source i2c:/dev/i2c-1@0x68", "an MPU-6050 on a Raspberry Pi's I²C pins"),
        ("imu-steps --source iio:local:", "the kernel-bound IMU of a PinePhone"),
        ("imu-steps --replay walk.csv --json", "process a recording as fast as possible, JSON Lines out"),
        ("imu-steps --gps", "with ground speed from gpsd: tells a drive or a ride from a walk (docs/gps.md)"),
        ("imu-steps --simulate day --speed 10", "the built-in synthetic day at ten times real time"),
        ("imu-steps --walked 100", "walk 100 m at your usual pace, stop; it prints the pace for --stride (repeat briskly)"),
        ("imu-steps --stride 1.78:0.70,2.05:0.79 --remember", "keep your stride for every later run"),
        ("imu-steps --today", "today's steps from the step daemon imu-stepd; --history 7d for a week"),
    ]
)

await ToolMain.run(spec) { args in
    if let answered = try await DaemonQueries.run(args) { return answered }
    let request = try SourceSelection.request(from: args, fallbackToSimulation: true)
    let gpsd = GPSSelection.requested(args) ? try GPSSelection.address(from: args) : nil
    if gpsd != nil { try GPSSelection.checkPacing(request, command: spec.name) }
    if let followed = try await DaemonFollow.runIfDaemonOwnsSensor(request, json: args.flag("json"), gps: gpsd != nil) { return followed }
    let options = try SourceSelection.sourceOptions(from: args)
    // The walker profile is a file (read, and written with --remember): on a thread of its own.
    let (config, profileMessage) = try await OwnThread.run(name: "imukit-open") { try WalkerSettings.configuration(from: args) }
    let walked = try args.double("walked", in: 1...100_000)
    if let profileMessage {
        Terminal.standardError.write("imu-steps: \(profileMessage)\n")
        Terminal.standardError.flush()
    }
    let source = try await SourceSelection.open(request, options: options, backends: CLIBackends.hardware, calibrating: args).source
    let json = args.flag("json")
    if json, source.info.isSimulated, case .automatic = request {
        Terminal.standardError.write("imu-steps: no sensor found; playing the SIMULATED '\(SourceSelection.defaultScenario)' walk. Run imu-info to see why.\n")
        Terminal.standardError.flush()
    }
    let display = json ? nil : StatusDisplay()
    // Reports are wanted from the start: the activity is unknown until the first windows.
    var notify: (@Sendable (String) -> Void)?
    if let display { notify = { display.note($0) } }
    let gps = gpsd.map { GPSSelection.feed($0, command: spec.name, wanted: true, notify: notify) }
    var runner = PedometerRunner(configuration: config, json: json, display: display, gps: gps)
    if case let .replay(path, _) = request { runner.recordingPath = path }
    let snapshot = try await runner.run(source)
    if let walked, !WalkedPace.reportPace(walked: walked, snapshot, command: spec.name) { return .runtimeFailure }
    return .success
}
