import IMUCLI
import Pedometer

/// imu-steps: live steps, cadence, distance, pace, floors and activity.
let spec = CommandSpec(
    name: "imu-steps",
    summary: "count steps, cadence, distance, pace, floors and activity from a sensor, a recording or the simulator",
    usage: [
        "[--source SPEC] [--json]",
        "--replay FILE [--realtime] [--json]",
        "--simulate NAME [--speed N] [--json]",
    ],
    options: SourceSelection.options + [
        OptionSpec("json", short: "j", help: "JSON Lines on stdout: step, floor, activity events, then a summary (docs/CONTRACTS.md §3)"),
        OptionSpec("height", value: "M", help: "your height in metres, for the default stride (default 1.75)"),
        OptionSpec("stride", value: "C:M,C:M", help: "your stride at two paces (steps/s:metres per step), e.g. 1.8:0.72,2.1:0.85; see --walked"),
        OptionSpec("walked", value: "M", help: "you walked M metres: print the pace to give --stride (cadence and metres per step)"),
        OptionSpec("floor-height", value: "M", help: "height of one floor in metres (default 3.0)"),
        OptionSpec("raw", help: "do not apply the saved calibration"),
    ],
    examples: [
        ("imu-steps", "first sensor found; the simulated demo walk (labelled) when there is none"),
        ("imu-steps --source i2c:/dev/i2c-1@0x68", "an MPU-6050 on a Raspberry Pi's I²C pins"),
        ("imu-steps --source iio:local:", "the kernel-bound IMU of a PinePhone"),
        ("imu-steps --replay walk.csv --json", "process a recording as fast as possible, JSON Lines out"),
        ("imu-steps --simulate day --speed 10", "the built-in synthetic day at ten times real time"),
        ("imu-steps --walked 100", "walk 100 m at your usual pace, stop; it prints the pace for --stride (repeat briskly)"),
    ]
)

await ToolMain.run(spec) { args in
    let request = try SourceSelection.request(from: args, fallbackToSimulation: true)
    let options = try SourceSelection.sourceOptions(from: args)
    var config = PedometerConfiguration()
    try args.exclusive(["height", "stride"])
    if let h = try args.double("height", in: 0.5...2.5) { config.userHeightMeters = h }
    if let text = args.string("stride") { config.strideCalibration = try StrideOption.parse(text, command: spec.name) }
    let walked = try args.double("walked", in: 1...100_000)
    if let f = try args.double("floor-height", in: 1...10) { config.floorHeightMeters = f }
    var source = try SourceSelection.open(request, options: options, backends: CLIBackends.hardware)
    _ = try SourceSelection.applySavedCalibration(to: &source, args: args)
    let json = args.flag("json")
    if json, source.info.isSimulated, case .automatic = request {
        Terminal.standardError.write("imu-steps: no sensor found; playing the SIMULATED '\(SourceSelection.defaultScenario)' walk. Run imu-info to see why.\n")
        Terminal.standardError.flush()
    }
    let runner = PedometerRunner(configuration: config, json: json, display: json ? nil : StatusDisplay())
    let snapshot = try await runner.run(source)
    if let walked { StrideOption.reportPace(walked: walked, snapshot, command: spec.name) }
    return .success
}
