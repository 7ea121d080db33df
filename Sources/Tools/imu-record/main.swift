#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import IMUCLI
import IMUCalibration
import IMULocation

let spec = CommandSpec(
    name: "imu-record",
    summary: "record raw sensor samples to a CSV file, without dropping any",
    usage: ["[--out] [--duration] [--source | --simulate | --replay] [--gps | --no-gps] [--gpsd]"],
    options: [
        OptionSpec("out", short: "o", value: .path("FILE"), help: "where to write (default imukit-YYYYmmdd-HHMMSS.csv; - = stdout)"),
        OptionSpec("duration", short: "d", value: .number("S"), help: "stop after S seconds (default: until Ctrl-C); of the recording's own time with --replay, a pause in it included"),
        OptionSpec("raw", help: "do not apply the saved calibration"),
        OptionSpec("force", short: "f", help: "overwrite FILE if it exists"),
        OptionSpec("quiet", short: "q", help: "no progress, gaps or summary on stderr"),
    ] + SourceSelection.options + GPSSelection.recordOptions,
    examples: [
        ("imu-record -d 60 -o walk.csv", "one minute from the first sensor found"),
        ("imu-record -s i2c:/dev/i2c-1@0x68 --rate 200 -o fast.csv", "an MPU-6050 on the Pi's I²C bus at 200 Hz"),
        ("imu-record --raw --simulate six-position -o six.csv", "a simulated calibration session (for imu-calibrate --from-recording)"),
        ("imu-record -d 10 -o - | head", "samples to standard output"),
        ("imu-record --simulate walk --gps -o walk.csv", "with gpsd's ground speed in the gnss_speed column (automatic with a sensor when gpsd runs)"),
    ])

await ToolMain.run(spec) { args in
    let duration = try args.double("duration", in: 0.001...31_536_000)   // up to a year
    let path = args.string("out") ?? defaultFileName()
    // A directory was told "already exists … add --force to replace it", and --force then failed.
    var st = stat()
    if path != "-" && stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
        throw RecordingError.access(path, errno: EISDIR, creating: true)
    }
    try OutputName.check(path)
    // /dev/null or a named pipe is written in place, never replaced (`RecordingWriter`): there
    // is no file to overwrite, so no --force to ask for.
    if path != "-" && !args.flag("force") && FileManager.default.fileExists(atPath: path) && !OutputGuard.isStreamSink(path) {
        throw UsageError("\(path) already exists; it is left as it is", command: "imu-record",
                         fix: "choose another name (--out FILE), or add --force to replace it")
    }
    let request = try SourceSelection.request(from: args, fallbackToSimulation: false)
    if case let .replay(input, _) = request, path != "-", OutputGuard.sameFile(input, path) {
        throw UsageError("--out \(path) is the recording being replayed: writing it would replace what is being read", command: "imu-record",
                         fix: "choose another --out, e.g. --out copy.csv")
    }
    let gps = try await groundSpeedFeed(args, request: request)
    let (source, applied) = try await SourceSelection.open(request, options: try SourceSelection.sourceOptions(from: args),
                                                           backends: CLIBackends.hardware, calibrating: args)
    let replayed = ((source as? CalibratedSource)?.base ?? source) as? RecordingSource
    let calibrationNote: String
    if let message = applied {
        calibrationNote = "calibration: applied, \(message.replacing("using calibration ", with: ""))"
    } else {
        calibrationNote = args.flag("raw") ? "calibration: off (--raw), raw readings" : "calibration: none saved for this sensor, raw readings"
    }
    let info = source.info
    var comments: [String] = ["imukit recording (format: docs/file-formats.md)",
                    "sensor: \(info.name)\(info.isSimulated && !info.name.contains("simulated") ? " (simulated)" : "")",
                    "calibration-key: \(info.calibrationKey)",
                    calibrationNote,
                    "started: \(Date().formatted(.iso8601))"]
    if let rate = info.nominalRateHz { comments.insert("rate: \(fixed(rate, 1)) Hz nominal", at: 2) }
    if let gps {
        comments.append("gnss_speed: ground speed from gpsd at \(GPSDClient.display(host: gps.host, port: gps.port)), m/s, empty without a fix; positions are never recorded")
    }
    if let replayed {
        comments = OriginHeader.keep(replayed.comments, path: replayed.path, calibrationNow: calibrationNote,
                                     calibrationApplied: !args.flag("raw") && calibrationNote.hasPrefix("calibration: applied"),
                                     ours: comments)
    }
    let captured = source, quiet = args.flag("quiet"), header = comments.map(OriginHeader.plain)
    let task = Task {
        let recorder = Recorder(path: path, comments: header, duration: duration, progress: RecordProgress(quiet: quiet), gps: gps)
        return try await recorder.run(captured)
    }
    // Ctrl-C / SIGTERM cancel the recording task; it closes (flushes, fsyncs) the file and summarises.
    let signals = SignalTrap { task.cancel() }
    _ = try await task.value
    withExtendedLifetime(signals) {}
    gps?.stop()
    return .success
}

/// The gpsd feed for the `gnss_speed` column (docs/gps.md): with `--gps`/`--gpsd` always (gpsd
/// may come up later); from a live sensor also when gpsd answers at the start; never with
/// `--no-gps`. Reports are requested all the time: a recording is kept to be replayed.
func groundSpeedFeed(_ args: ParsedArguments, request: SourceRequest) async throws -> GPSSpeedFeed? {
    try args.exclusive(["no-gps", "gps"])
    try args.exclusive(["no-gps", "gpsd"])
    let address = try GPSSelection.address(from: args)
    let quiet = args.flag("quiet")
    let notify: @Sendable (String) -> Void = { line in
        guard !quiet else { return }
        // On a terminal, over the progress line (RecordProgress redraws it).
        let clear = Terminal.standardError.acceptsEscapes ? "\r\u{1B}[K" : ""
        Terminal.standardError.write(clear + line.escapedForTerminal + "\n")
        Terminal.standardError.flush()
    }
    if GPSSelection.requested(args) {
        try GPSSelection.checkPacing(request, command: "imu-record")
        return started(GPSSelection.feed(address, command: "imu-record", wanted: true, notify: notify))
    }
    guard !args.flag("no-gps"), GPSSelection.isLive(request) else { return nil }
    guard case .noFix = await GPSProbe.check(host: address.host, port: address.port, wait: 0) else { return nil }
    return started(GPSSelection.feed(address, command: "imu-record", wanted: true, notify: notify))
}

func started(_ feed: GPSSpeedFeed) -> GPSSpeedFeed {
    feed.start()
    return feed
}

/// imukit-YYYYmmdd-HHMMSS.csv in local time, in the current directory.
func defaultFileName() -> String {
    ZoneWarning.say(command: "imu-record")
    let t = LocalTime.fields(Date().timeIntervalSince1970)
    return "imukit-" + String(cFormat: "%04d%02d%02d-%02d%02d%02d", t.year, t.month, t.day, t.hour, t.minute, t.second) + ".csv"
}
