/// A parsed `sim:` spec: scenario name (or composition, see `Scenario.resolve`) plus `?key=value&…` parameters (see `SimulationBackend`).
public struct SimulationSpec: Sendable {
    public var scenario: Scenario
    public var options = SimulationOptions()
    /// Playback speed (× real time); infinity = as fast as possible.
    public var speed = 1.0
    /// Repeat the scenario for ever, continuing the timeline.
    public var loop = false
    /// Simulated seconds after which the source fails (nil = never).
    public var failAfter: Double?

    public static let parameterNames = ["speed", "seed", "rate", "baro", "gyro", "temp", "holding", "ideal",
                                        "jitter", "drift", "loop", "start", "fail"]

    /// Parses `text` ("walk", "sim:walk?speed=2&seed=3"); `rateHz` (a `--rate` flag) applies
    /// unless the spec names its own rate. Throws `SimulationError` naming the bad part and the fix.
    public init(_ text: String, rateHz: Double? = nil) throws {
        var body = Substring(text)
        if body.hasPrefix("sim:") { body = body.dropFirst(4) }
        let parts = body.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts.first ?? "")
        let scenario = try Scenario.resolve(name)
        self.scenario = scenario
        if let rateHz { options.sampleRateHz = rateHz }
        if parts.count > 1 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                try apply(key: String(kv[0]), value: kv.count > 1 ? String(kv[1]) : "")
            }
        }
        try options.validate()
    }

    private mutating func apply(key: String, value: String) throws {
        func bad(_ expected: String) -> SimulationError {
            SimulationError(message: "bad value '\(value)' for '\(key)' in sim: source", fix: "give \(key)=\(expected)")
        }
        func number() throws -> Double {
            guard let v = DecimalParser.parse(value), v.isFinite else { throw bad("a number") }
            return v
        }
        func flag() throws -> Bool {
            switch value.lowercased() {
            case "", "1", "on", "yes", "true": return true
            case "0", "off", "no", "false": return false
            default: throw bad("on or off")
            }
        }
        switch key {
        case "speed":
            if ["inf", "max", "infinity"].contains(value.lowercased()) { speed = .infinity; return }
            let v = try number()
            guard v >= 0 else { throw bad("a speed ≥ 0 (0 or inf = as fast as possible)") }
            speed = v
        case "seed":
            guard let v = UInt64(value) else { throw bad("a whole number from 0 to 18446744073709551615") }
            options.seed = v
        case "rate": options.sampleRateHz = try number()
        case "baro":
            if ["off", "none", "0"].contains(value.lowercased()) { options.barometerRateHz = nil } else { options.barometerRateHz = try number() }
        case "gyro": options.includeGyroscope = try flag()
        case "temp": options.includeTemperature = try flag()
        case "holding":
            guard let h = DeviceHolding(name: value) else { throw bad(DeviceHolding.names.joined(separator: "|")) }
            options.holding = h
        case "ideal":
            if try flag() {
                // Only the error fields: parameters given before or after `ideal` all survive.
                let ideal = SimulationOptions.ideal
                options.accelerometer = ideal.accelerometer
                options.gyroscope = ideal.gyroscope
                options.barometerNoiseHPa = ideal.barometerNoiseHPa
                options.weatherDriftHPaPerHour = ideal.weatherDriftHPaPerHour
                options.timestampJitterSeconds = ideal.timestampJitterSeconds
            }
        case "jitter": options.timestampJitterSeconds = try number()
        case "drift": options.weatherDriftHPaPerHour = try number()
        case "loop": loop = try flag()
        case "start": options.startTime = try number()
        case "fail":
            let v = try number()
            guard v >= 0 else { throw bad("seconds ≥ 0 after which the simulated sensor is lost") }
            failAfter = v
        default:
            throw SimulationError(message: "unknown parameter '\(key)' in sim: source",
                                  fix: "use \(Self.parameterNames.joined(separator: ", ")), e.g. sim:walk?speed=2&seed=3")
        }
    }
}
