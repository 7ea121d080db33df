import IMULocation

/// The GPS flags (`--gps`, `--gpsd HOST:PORT`, `--no-gps`) and the gpsd feed they start
/// (docs/gps.md). GPS is never required: without gpsd every tool works from the IMU.
public enum GPSSelection {
    /// imu-steps: ground speed only when asked for.
    public static let options: [OptionSpec] = [
        OptionSpec("gps", help: "use ground speed from gpsd (localhost:2947) for the activity; speed only, never a position"),
        OptionSpec("gpsd", value: .text("ADDRESS"), help: "gpsd to read ground speed from, HOST:PORT (implies --gps)"),
    ]

    /// imu-record: the `gnss_speed` column is recorded automatically from a live sensor when gpsd
    /// answers at the start; `--gps` asks for it with any source, `--no-gps` never.
    public static let recordOptions: [OptionSpec] = [
        OptionSpec("gps", help: "record gnss_speed from gpsd also with --simulate/--replay --realtime, and even if gpsd is not up yet"),
        OptionSpec("gpsd", value: .text("ADDRESS"), help: "gpsd to read ground speed from, HOST:PORT (default localhost:2947)"),
        OptionSpec("no-gps", help: "do not record gnss_speed, even when gpsd runs"),
    ]

    /// The address `--gpsd` names (default localhost:2947); a malformed one is a usage error.
    public static func address(from args: ParsedArguments) throws -> (host: String, port: String) {
        guard let text = args.string("gpsd") else { return ("localhost", GPSDClient.defaultPort) }
        do {
            return try GPSDClient.address(text)
        } catch {
            throw UsageError("--gpsd: \(error)", command: args.command, fix: "write it as HOST:PORT, e.g. --gpsd localhost:2947 or --gpsd [::1]:2947")
        }
    }

    /// imu-stepd's `gps` setting (docs/gps.md): `no` (the default), `yes` (localhost:2947) or
    /// `HOST:PORT`; the address to read, or nil for none.
    public static func setting(_ value: String) throws(GPSDError) -> String? {
        switch value.lowercased() {
        case "no", "off", "false", "0": return nil
        case "yes", "on", "true", "1": return GPSDClient.display(host: "localhost", port: GPSDClient.defaultPort)
        default:
            let address = try GPSDClient.address(value)
            return GPSDClient.display(host: address.host, port: address.port)
        }
    }

    /// Was ground speed asked for (`--gps` or `--gpsd`)?
    public static func requested(_ args: ParsedArguments) -> Bool { args.flag("gps") || args.string("gpsd") != nil }

    /// A live gpsd needs samples paced in real time: a replay or simulation "as fast as possible"
    /// has no present moment to pair a fix with.
    public static func checkPacing(_ request: SourceRequest, command: String) throws {
        let speed: Double
        switch request {
        case let .replay(_, s), let .simulate(_, s): speed = s
        case .spec, .automatic: return
        }
        guard speed.isFinite else {
            throw UsageError("--gps reads a live gpsd, which needs samples in real time, and this input plays as fast as possible", command: command,
                             fix: "add --realtime (or --speed 1), or leave out --gps: a recording's own gnss_speed column is used without it")
        }
    }

    /// Is the request a live sensor (not the simulator, not a recording)?
    public static func isLive(_ request: SourceRequest) -> Bool {
        switch request {
        case .spec(let spec): return !spec.hasPrefix("sim:")
        case .automatic: return true
        case .replay, .simulate: return false
        }
    }

    /// A feed from gpsd at `address`, not started yet (`start()`; `PedometerRunner` starts it
    /// once its header is out). Lines about its state go to `notify` (standard error by default),
    /// prefixed with the tool's name.
    public static func feed(_ address: (host: String, port: String), command: String, wanted: Bool,
                            notify: (@Sendable (String) -> Void)? = nil) -> GPSSpeedFeed {
        let sink: @Sendable (String) -> Void = notify ?? { line in
            Terminal.standardError.write(line.escapedForTerminal + "\n")
            Terminal.standardError.flush()
        }
        return GPSSpeedFeed(host: address.host, port: address.port, wanted: wanted,
                            settings: "check the address (--gpsd HOST:PORT), or run without --gps") { sink("\(command): \($0)") }
    }
}
