import FoundationEssentials
import IMUCLI
import IMUCalibration

let spec = CommandSpec(
    name: "imu-calibrate",
    summary: "six-position accelerometer calibration and gyroscope bias, saved per sensor",
    usage: ["--six-position [--seconds] [--json] [--save] [--system] [--source | --simulate]",
            "--six-position --from-recording [--key] [--json] [--save] [--system]",
            "--show [--json] [--key | --source]",
            "--reset [--system] [--key | --source]"],
    options: [
        OptionSpec("six-position", short: "6", help: "guided: rest the device on each of its six faces in turn"),
        OptionSpec("from-recording", value: .path("FILE"), help: "compute from a recorded session (imu-record --raw) instead"),
        OptionSpec("show", help: "print the saved calibration of the sensor"),
        OptionSpec("reset", help: "delete the saved calibration of the sensor"),
        OptionSpec("json", help: "print one JSON object (docs/file-formats.md); does not save unless --save"),
        OptionSpec("save", help: "save the result (a live session without --json always saves)"),
        OptionSpec("system", help: "use /etc/imukit (all users; needs root) instead of ~/.config/imukit"),
        OptionSpec("seconds", value: .number("S"), help: "seconds averaged per face (default 5)"),
        OptionSpec("key", value: .text("KEY"), help: "calibration key (default: the sensor's, or the recording's)"),
    ] + SourceSelection.optionsWithoutReplay,
    examples: [
        ("imu-calibrate --six-position", "calibrate the first sensor found, guided, and save"),
        ("imu-calibrate -6 -s i2c:/dev/i2c-1@0x68 --seconds 10", "a given MPU-6050, 10 s per face"),
        ("imu-record --raw -o six.csv; imu-calibrate -6 --from-recording six.csv --json", "record first, compute later"),
        ("sudo imu-calibrate -6 --system", "save for all users in /etc/imukit"),
        ("imu-calibrate --show", "what is saved, and where"),
    ])

await ToolMain.run(spec) { args in
    try args.exclusive(["six-position", "show", "reset"])
    try args.exclusive(["from-recording", "source", "simulate"])
    // Options only a six-position session uses were ignored without a word by --show and --reset
    // (--reset prints no JSON).
    for (mode, unused) in [("show", ["save", "seconds"]), ("reset", ["save", "seconds", "json"])] where args.flag(mode) {
        if let given = unused.first(where: { args.string($0) != nil }) {
            throw UsageError("--\(given) goes with --six-position, not --\(mode)", command: "imu-calibrate",
                             fix: "leave out --\(given): imu-calibrate --\(mode) [--key KEY]")
        }
    }
    // `--reset --key A --source B` deleted A's calibration without a word about B (and --show
    // showed A's): --show and --reset take one sensor, by key or by source.
    if args.flag("show") || args.flag("reset") { try args.exclusive(["key", "source", "simulate"]) }
    let store = CalibrationStore.standard(system: args.flag("system"))
    // Opening the sensor and the calibration files block: on a thread of their own, never on the
    // Swift concurrency pool (docs/concurrency.md).
    if args.flag("show") { return try await OwnThread.run(name: WorkThread.name) { try showSaved(args, store: store) } }
    if args.flag("reset") { return try await OwnThread.run(name: WorkThread.name) { try reset(args, store: store) } }
    guard args.flag("six-position") else {
        // The only calibration there is: a recording given alone means it (the fix used to be "see --help").
        if let file = args.string("from-recording") {
            throw UsageError("--from-recording goes with --six-position, the calibration it computes", command: "imu-calibrate",
                             fix: "imu-calibrate --six-position --from-recording \(RecordingError.shellQuoted(file))")
        }
        throw UsageError("say what to do: --six-position, --show or --reset", command: "imu-calibrate",
                         fix: "imu-calibrate --six-position calibrates (guided), --show prints what is saved, --reset deletes it")
    }
    let settingsSeconds = try args.double("seconds", in: 1...600)
    var settings = SessionSettings()
    if let s = settingsSeconds { settings.captureSeconds = s }
    let json = args.flag("json")
    let calibration: Calibration
    if let file = args.string("from-recording") {
        settings.ordered = false
        let fileSettings = settings
        calibration = try await OwnThread.run(name: WorkThread.name) {
            try fromRecording(file, key: args.string("key"), settings: fileSettings, needKey: args.flag("save"))
        }
    } else {
        guard let measured = try await guided(args, settings: settings, json: json) else { return try await stoppedForClosedOutput() }
        calibration = measured
    }
    let save = args.flag("save") || (!json && args.string("from-recording") == nil)
    var savedPath: String?
    // A failed save (a full disk, a read-only home) is reported after the result is shown: the
    // result of a guided session (minutes on six faces) was lost with it, nothing printed.
    var saveFailure: (any Error)?
    if save {
        do { savedPath = try await OwnThread.run(name: WorkThread.name) { try store.save(calibration) } } catch { saveFailure = error }
    }
    if json {
        Terminal.standardOutput.write(calibration.jsonText() + "\n")
        if let savedPath { Terminal.standardError.write("imu-calibrate: saved to \(savedPath)\n") }
        Terminal.standardError.flush()
    } else {
        Terminal.standardOutput.write(CalibrationReport.text(calibration, path: savedPath))
        if savedPath != nil {
            Terminal.standardOutput.write("Saved. Every imukit tool now applies it to this sensor (--raw turns it off).\n")
        } else if saveFailure != nil {
            let target = store.path(for: calibration.key) ?? "the calibration file"
            Terminal.standardOutput.write("Not saved (the error below). Once it can be written, put this in \(target.escapedForTerminal):\n"
                                          + calibration.jsonText(pretty: true) + "\n")
        } else {
            Terminal.standardOutput.write("Not saved (add --save).\n")
        }
    }
    if let saveFailure { throw saveFailure }
    return .success
}

/// The thread that opens the sensor and reads and writes the calibration files (`ps -L`).
enum WorkThread { static let name = "imu-calibrate" }

/// The guided session stopped because the reader of standard output went away: exit 1 with
/// `ReaderGone`'s words. `ToolMain` says them when a write to standard output failed; when only
/// poll(2) saw it (`--json` writes there at the end), they are said here.
func stoppedForClosedOutput() async throws -> ExitStatus {
    await Terminal.standardOutput.written()   // a failed write is known once what was handed over is written
    if Terminal.standardOutput.readerGone { return .runtimeFailure }
    throw ReaderGone(written: Terminal.standardOutput.linesWritten)
}

/// The calibration key: --key, else the sensor's.
/// The key of `--key`, or of the sensor the source flags name. `--show` and `--reset` without a
/// sensor connected name the saved keys in the fix (they are what --key takes).
func sensorKey(_ args: ParsedArguments, store: CalibrationStore) throws -> String {
    if let key = args.string("key") { return key }
    do {
        return try openSource(args).info.calibrationKey
    } catch var error as NoSensorError {
        let keys = store.savedKeys()
        guard let first = keys.first else { throw error }
        let mode = args.flag("reset") ? "--reset" : "--show"
        error.fix = "name a saved calibration with --key: \(keys.map(RecordingError.shellQuoted).joined(separator: ", ")) "
            + "(imu-calibrate \(mode) --key \(RecordingError.shellQuoted(first))); or connect the sensor: \(error.fix ?? "imu-info shows what is connected")"
        throw error
    }
}

func showSaved(_ args: ParsedArguments, store: CalibrationStore) throws -> ExitStatus {
    let key = try sensorKey(args, store: store)
    guard let (c, path) = try store.load(key: key) else {
        // The key comes from --key or a device's name: escaped.
        Terminal.standardError.write("imu-calibrate: no calibration saved for \(key.escapedForTerminal) (looked in \(store.searchPaths(for: key).joined(separator: ", ").escapedForTerminal))\n"
                                     + "  fix: imu-calibrate --six-position\n")
        Terminal.standardError.flush()
        return .runtimeFailure
    }
    if args.flag("json") {
        Terminal.standardOutput.write(c.jsonText() + "\n")
    } else {
        Terminal.standardOutput.write(CalibrationReport.text(c, path: path))
    }
    return .success
}

func reset(_ args: ParsedArguments, store: CalibrationStore) throws -> ExitStatus {
    let key = try sensorKey(args, store: store)
    if let removed = try store.reset(key: key) {
        Terminal.standardOutput.write("removed \(removed)\n")
    } else {
        Terminal.standardOutput.write("nothing to remove: no calibration for \(key.escapedForTerminal) at \(store.path(for: key) ?? "(no home directory)")\n")
    }
    if let (_, other) = try store.load(key: key) {
        Terminal.standardOutput.write("note: \(other) still applies (\(other.hasPrefix(store.systemDirectory) ? "sudo imu-calibrate --reset --system" : "imu-calibrate --reset") removes it)\n")
    }
    return .success
}

/// The sensor named by the source flags; never the simulator unless asked for, and never with a
/// calibration applied (calibrating needs raw readings).
func openSource(_ args: ParsedArguments) throws -> any SampleSource {
    let request = try SourceSelection.request(from: args, fallbackToSimulation: false)
    return try SourceSelection.open(request, options: try SourceSelection.sourceOptions(from: args),
                                    backends: CLIBackends.hardware)
}

func now() -> String { Date().formatted(.iso8601) }
