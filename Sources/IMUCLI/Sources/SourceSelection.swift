#if canImport(Glibc)
import Glibc
#endif
import IMUSimulation

/// No sensor at all, or one that cannot be opened: exit 3 with the fix (docs/CONTRACTS.md §4).
public struct NoSensorError: DiagnosableError {
    public var message: String
    public var fix: String?
    public init(_ message: String, fix: String? = nil) {
        self.message = message
        self.fix = fix
    }
    public var description: String { message }
    public var exitStatus: ExitStatus { .noSensor }
}

extension NoSensorError: RetryableError {
    /// Transient (`RetryableError`): no sensor yet is what a board shows before a device is
    /// plugged in, a driver bound or a breakout powered, and the next open finds it.
    public var isPermanent: Bool { false }
}

/// Where a tool's samples come from, chosen from its flags.
public enum SourceRequest: Sendable, Equatable {
    /// `--source SCHEME:SPEC` (i2c:…, iio:…, sim:…).
    case spec(String)
    /// `--replay FILE`, optionally paced in real time (`--realtime`, `--speed N`).
    case replay(path: String, speed: Double)
    /// `--simulate NAME [--speed N]`.
    case simulate(name: String, speed: Double)
    /// No flag: the first sensor found; with `fallbackToSimulation`, the built-in demo walk when none.
    case automatic(fallbackToSimulation: Bool)
}

/// The flags every sample-consuming tool shares, and how they resolve to a source.
public enum SourceSelection {
    /// Options to splice into a tool's `CommandSpec`.
    public static let options: [OptionSpec] = [
        OptionSpec("source", short: "s", value: .text("SPEC"), help: "sensor to read: i2c:/dev/i2c-1@0x68, iio:local:, iio:ip:HOST, sim:walk"),
        OptionSpec("replay", short: "r", value: .path("FILE"), help: "read a recording (CSV, docs/file-formats.md) instead of a sensor"),
        OptionSpec("simulate", value: .text("NAME"), help: "use the built-in simulator: \(Scenario.allNames.joined(separator: ", ")), or compose: still:10,walk:60,stairs-up:2"),
        OptionSpec("speed", value: .number("N"), help: speedHelp("--simulate/--replay --realtime")),
        OptionSpec("realtime", help: "with --replay: play at the recording's own pace"),
        OptionSpec("rate", value: .number("HZ"), help: "requested sensor output rate (default 100)"),
        OptionSpec("mount", value: .text("MATRIX"), help: "chip-to-device axis mapping, kernel syntax: \"0,1,0; -1,0,0; 0,0,1\""),
    ]

    /// The shared flags of a tool that reads no recording through them (imu-calibrate has its own
    /// --from-recording): no --replay or --realtime, and --speed's help names --simulate alone (it
    /// named the two flags the tool refuses).
    public static var optionsWithoutReplay: [OptionSpec] {
        options.filter { !["replay", "realtime"].contains($0.long) }.map {
            var option = $0
            if option.long == "speed" { option.help = speedHelp("--simulate") }
            return option
        }
    }

    private static func speedHelp(_ flags: String) -> String {
        "playback speed for \(flags) (0.01–1000; 1 = real time, 'max' = as fast as possible)"
    }

    /// The demo scenario played when no sensor is found (a walk with a flight of stairs).
    public static let defaultScenario = "demo"

    /// Reads the shared flags into a request. `defaultSpeedForReplay` is `.infinity` for batch tools.
    public static func request(from args: ParsedArguments, fallbackToSimulation: Bool) throws -> SourceRequest {
        try args.exclusive(["source", "replay", "simulate"])
        let speed = try parseSpeed(args)
        if let file = args.string("replay") {
            // --realtime is the recording's own pace and --speed N multiplies it; `max` is no pace
            // at all, so the pair asked for two things and got the second without a word.
            if args.flag("realtime"), speed == .infinity {
                throw UsageError("--realtime and --speed max contradict each other: --realtime plays the recording at its own pace, "
                                 + "--speed max reads it as fast as possible", command: args.command,
                                 fix: "leave out --realtime to read the file at once, or give --speed a number to pace it (--realtime --speed 10: ten times its pace)")
            }
            if args.flag("realtime") || speed != nil { return .replay(path: file, speed: speed ?? 1) }
            return .replay(path: file, speed: .infinity)
        }
        if args.flag("realtime") {
            throw UsageError("--realtime goes with --replay FILE", command: args.command,
                             fix: args.string("simulate") != nil ? "leave it out: a simulation plays in real time already (--speed N changes its pace)"
                                : "leave it out: a sensor is read in real time already; --replay FILE --realtime plays a recording at its pace")
        }
        if let name = args.string("simulate") {
            _ = try scenario(name, command: args.command)
            return .simulate(name: name, speed: speed ?? 1)
        }
        if speed != nil {
            throw UsageError("--speed goes with --simulate or --replay", command: args.command,
                             fix: "leave out --speed: a sensor is read as it measures (--speed paces --simulate NAME or --replay FILE)")
        }
        if let spec = args.string("source") { return .spec(spec) }
        return .automatic(fallbackToSimulation: fallbackToSimulation)
    }

    /// The scenario `--simulate NAME` names (a catalogue name or a composition); a usage error
    /// with the simulator's own fix otherwise.
    public static func scenario(_ name: String, command: String) throws -> Scenario {
        do { return try Scenario.resolve(name) } catch {
            let fix = (error as? SimulationError)?.fix ?? "name one of: \(Scenario.allNames.joined(separator: ", ")), or a composition such as still:10,walk:60,stairs-up:2"
            throw UsageError("\(error)", command: command, fix: fix)
        }
    }

    /// `--speed N` (0.01 ≤ N ≤ 1000) or `--speed max`. "inf" is a number to `Double(_:)`, not a speed.
    static func parseSpeed(_ args: ParsedArguments) throws -> Double? {
        guard let text = args.string("speed") else { return nil }
        if text.lowercased() == "max" { return .infinity }
        let range = 0.01...1000.0
        if let v = DecimalParser.parse(text), range.contains(v) { return v }
        // Both forms named: "needs a number" hid `max`, the form most users are after.
        throw UsageError("--speed takes a number from \(range.lowerBound.asWritten) to \(range.upperBound.asWritten) (× real time; 1 = as recorded) or 'max' (as fast as possible), got '\(text.escapedValue)'",
                         command: args.command, fix: "e.g. --speed 10 for ten times real time, or --speed max")
    }

    /// The source options from `--rate` and `--mount`.
    public static func sourceOptions(from args: ParsedArguments) throws -> SourceOptions {
        // Options a recording or the simulator would ignore silently are refused instead.
        if args.string("replay") != nil, let given = ["rate", "mount"].first(where: { args.string($0) != nil }) {
            throw UsageError("--\(given) goes with a sensor; a recording plays at the rate and in the frame it was recorded", command: args.command,
                             fix: "leave out --\(given) with --replay, or read the sensor itself: --source SPEC --\(given) …")
        }
        if args.string("simulate") != nil || args.string("source")?.hasPrefix("sim:") == true, args.string("mount") != nil {
            throw UsageError("--mount goes with a sensor (--source i2c:… or iio:…); the simulator has no chip axes to map", command: args.command,
                             fix: "leave out --mount with the simulator, or give a sensor: --source i2c:/dev/i2c-1@0x68 --mount …")
        }
        var options = SourceOptions()
        options.rateHz = try args.double("rate", in: 1...8000)
        if let text = args.string("mount") {
            guard let m = MountMatrix(kernelText: text) else {
                throw UsageError("--mount needs three rows of three numbers, got '\(text.escapedValue)'", command: args.command,
                                 fix: "write the rows separated by ';' and the numbers by ',', quoted for the shell, e.g. --mount \"0,1,0; -1,0,0; 0,0,1\"")
            }
            guard m.isRotation else {
                throw UsageError("--mount '\(text.escapedValue)' is not a rotation: each row must be a unit vector at right angles to the others", command: args.command,
                                 fix: "map each device axis to one chip axis with one ±1 per row, e.g. --mount \"0,1,0; -1,0,0; 0,0,1\" (the kernel's mount_matrix form)")
            }
            options.mountMatrix = m
        }
        return options
    }

    /// The running tool's name (`imu-steps`, `imu-record`, …), for a fix that names a real command.
    static var commandName: String {
        (CommandLine.arguments.first ?? "").split(separator: "/").last.map(String.init) ?? "imu-steps"
    }

    /// A source spec's scheme and where (`i2c` and `/dev/i2c-1@0x68`), or a usage error that
    /// calls the spec by `name` (`--source`, or `a source` in a config file).
    static func split(_ spec: String, named name: String) throws -> (scheme: String, rest: String) {
        guard let colon = spec.firstIndex(of: ":") else {
            throw UsageError("\(name) needs SCHEME:WHERE, got '\(spec.escapedValue)'", command: commandName,
                             fix: "e.g. i2c:/dev/i2c-1@0x68 (a chip on a bus), iio:local: (the kernel's sensors) or sim:walk (the simulator)")
        }
        return (String(spec[..<colon]), String(spec[spec.index(after: colon)...]))
    }

    /// The backend of `scheme` among the hardware `backends` and the simulator's: one list, for
    /// opening a source and for checking a spec (`checkSyntax`).
    static func backend(for scheme: String, among backends: [any SensorBackend]) throws -> any SensorBackend {
        let all = backends + [SimulationBackend()]
        guard let backend = all.first(where: { $0.scheme == scheme }) else {
            let known = all.map { $0.scheme + ":" }.joined(separator: ", ")
            throw UsageError("unknown source type '\(scheme.escapedValue):'; known: \(known)", command: commandName,
                             fix: "begin the spec with one of \(known), e.g. i2c:/dev/i2c-1@0x68, iio:local: or sim:walk")
        }
        return backend
    }

    /// Opens the requested source. `backends` are the hardware backends to search, in order.
    public static func open(_ request: SourceRequest, options: SourceOptions,
                            backends: [any SensorBackend]) throws -> any SampleSource {
        switch request {
        case let .replay(path, speed):
            // Closed, it read /dev/null in its place (or, before, a descriptor of Dispatch's): "-:1: missing header line".
            try ReplayInput.checkStandardInput(path, option: "--replay", command: commandName)
            return try RecordingSource(path: path, speed: speed) { note in
                Terminal.standardError.write(note.escapedForTerminal + "\n")
                Terminal.standardError.flush()
            }
        case let .simulate(name, speed):
            let scenario = try Scenario.resolve(name)
            var sim = SimulationOptions()
            if let rate = options.rateHz {
                sim.sampleRateHz = rate
                // The simulated barometer (25 Hz) cannot read faster than the samples come:
                // below 25 Hz it reads with every sample, so --rate alone decides.
                if let baro = sim.barometerRateHz, baro > rate { sim.barometerRateHz = rate }
            }
            return SimulatedSource(scenario: scenario, options: sim, speed: speed)
        case let .spec(spec):
            let (scheme, rest) = try split(spec, named: "--source")
            return try backend(for: scheme, among: backends).open(spec: rest, options: options)
        case let .automatic(fallback):
            var firstProblem: (any Error)?
            for backend in backends {
                do {
                    if let source = try backend.openDefault(options: options) { return source }
                } catch {
                    firstProblem = firstProblem ?? error
                }
            }
            if fallback {
                return SimulatedSource(scenario: Scenario.named(defaultScenario)!, options: SimulationOptions(), speed: 1, loop: true)
            }
            if let firstProblem { throw firstProblem }
            throw NoSensorError("no sensor found on I²C or IIO",
                                fix: "run imu-info to see what is connected and why; docs/getting-started-raspberry-pi.md shows the wiring")
        }
    }
}
