import Foundation
import IMUCLI
import IMUPublish
import IMUServiceClient
import Pedometer

/// The daemon's settings, read from /etc/imukit/stepd.conf (data/stepd.conf is the commented
/// example). `key = value` lines, `#` comments; every key is optional.
public struct ServiceConfig: Sendable {
    public static let defaultPath = "/etc/imukit/stepd.conf"
    /// systemd's StateDirectory=imu-stepd.
    public static let defaultStateDirectory = "/var/lib/imu-stepd"
    /// The file these settings were read from (`--config`, else the default path): messages
    /// that tell the user to change a setting name this file.
    public var path = ServiceConfig.defaultPath

    /// `source = auto | iio:… | i2c:… | sim:…`; `simulate = NAME` or `replay = FILE` with
    /// `speed = N` play the simulator or a recording (demonstrations and tests).
    public var source: SourceRequest = .automatic(fallbackToSimulation: false)
    public var sourceOptions = SourceOptions()
    public var pedometer = PedometerConfiguration()
    /// Where the history database and the lock file live.
    public var stateDirectory = ServiceConfig.defaultStateDirectory
    /// The SQLite file; default STATE/history.sqlite.
    public var databasePath: String?
    /// Days of minutes to keep; nil keeps everything (the default).
    public var retentionDays: Int?
    /// Seconds between commits. Issue #16: "commit at least every 10 s"; 5 s halves the loss
    /// after a power cut for one fsync every 5 s.
    public var commitSeconds = 5.0
    /// `bus = system | session | unix:path=…`.
    public var bus: BusAddress = .system
    /// Seconds within which every D-Bus method answers (D-Bus clients wait 25 s by default).
    public var methodDeadlineSeconds = 2.0
    /// `clock = auto | trust`: auto waits for NTP (adjtimex) before placing minutes on dates
    /// unless the machine has a real-time clock; trust takes the wall clock as it is.
    public var trustWallClock = false
    /// Apply the saved calibration (`calibration = no` is the tools' --raw).
    public var applyCalibration = true
    /// Polled fallback rate in Hz when another reader holds the IIO buffer. Issue #16: "≥ 25 Hz:
    /// the step count holds at that rate" (the pedometer's 25 Hz figure, README).
    public var polledFallbackHz = 50.0
    /// `yield_to`: a D-Bus name (on `bus`) whose owner gets the IIO buffer: while it is owned the
    /// daemon never opens a buffered capture and polls instead. iio-sensor-proxy's name by
    /// default, because it neither waits for a busy buffer nor falls back to polling once it has
    /// chosen its buffered driver, so holding the buffer would stop screen rotation
    /// (docs/service.md, Sharing). Empty (`yield_to = no`) never yields.
    public var yieldTo = "net.hadess.SensorProxy"
    /// Publishing to an MQTT broker (`mqtt_broker`, `mqtt_device_id`, `mqtt_credentials`,
    /// `mqtt_ca_file`; docs/mqtt.md); nil when no broker is named.
    public var mqtt: MQTTSettings?
    /// gpsd to read ground speed from for the activity (`gps`: no, yes or HOST:PORT; docs/gps.md).
    public var gpsd: String?
    /// `replay =` as written (relative ones are resolved into `source`, `ConfigPaths`) and its
    /// line, for the message when its file cannot be opened (`load`).
    var replaySetting: (asWritten: String, line: Int?)?

    public init() {}

    /// Every setting `parse` knows, in the order data/stepd.conf explains them.
    static let keys = ["source", "simulate", "replay", "speed", "rate", "mount", "height", "floor_height", "state_directory",
                       "database", "retention_days", "commit_seconds", "method_deadline", "polled_fallback_hz", "yield_to", "bus",
                       "clock", "calibration", "gps", "mqtt_broker", "mqtt_device_id", "mqtt_credentials", "mqtt_ca_file"]

    /// Whether the source may be an IIO device (`auto` or `iio:…`): only then is there a buffer
    /// to leave to `yieldTo`.
    public var sourceCanBeIIO: Bool {
        switch source {
        case .automatic: true
        case let .spec(text): text.hasPrefix("iio:")
        case .replay, .simulate: false
        }
    }

    public var resolvedDatabasePath: String { databasePath ?? stateDirectory + "/history.sqlite" }
    public var lockPath: String { stateDirectory + "/imu-stepd.lock" }

    /// Reads `path`. A missing file at the default path means all defaults; anywhere else it is an error.
    /// The `replay =` recording must open here (`ConfigReplayFile`); `parse` alone leaves it to the source.
    public static func load(path: String, required: Bool) throws -> ServiceConfig {
        // Only a file that is not there is "no such file" (or, at the default path, all
        // defaults): FileManager's fileExists was false also for a name too long, a path through
        // a file and a directory this user may not search, so those read as "no such file" and,
        // at the default path, as no config at all.
        var st = stat()
        if stat(path, &st) != 0 && errno == ENOENT {
            if required { throw ConfigError(path: path, line: nil, message: "no such file", fix: "copy data/stepd.conf there, or leave out --config") }
            return ServiceConfig()
        }
        let data: [UInt8]
        do { data = try SmallFile.read(path, limit: 65_536) } catch {
            switch error {
            case .tooLarge(let limit):
                throw ConfigError(path: path, line: nil, message: "is larger than \(limit) bytes; a config file is a few lines", fix: "use data/stepd.conf as the template")
            case .notARegularFile(let kind):
                // A FIFO, a device or a socket was read as it came: a FIFO without a writer (and
                // /dev/null) as an empty file, so the daemon ran on defaults without a word, and
                // /dev/zero as "larger than 65536 bytes". A config is a file on disk.
                throw ConfigError(path: path, line: nil, message: "is \(kind), not a regular file: the config must be a regular file",
                                  fix: required ? "point --config at a file on disk, e.g. --config /etc/imukit/stepd.conf (data/stepd.conf is the template)"
                                      : "put a regular file at \(path.escapedOnOneLine) (copy data/stepd.conf there), or give --config FILE")
            case .system(EISDIR):
                throw ConfigError(path: path, line: nil, message: "is a directory, not a config file", fix: "name the file, e.g. --config \(path.escapedOnOneLine)/stepd.conf")
            case .system(let e):
                let shown = path.escapedOnOneLine
                let fix = switch e {
                case ENAMETOOLONG: "give a shorter path: \(PathLimits.sentence)"
                case ENOTDIR: "a part of the path before the file name is a file, not a directory: check it (ls -ld \(shown))"
                case ELOOP: "the path's symbolic links run in a loop: check them (ls -l \(shown))"
                default: "sudo chmod 0644 \(shown)"
                }
                throw ConfigError(path: path, line: nil, message: "cannot be read: \(String(cString: strerror(e)))", fix: fix, errorNumber: e)
            }
        }
        // Binary data or another encoding (a UTF-16 "Unicode text" save) read as lines of U+FFFD,
        // refused as "'\u{FFFD}\u{FFFD} r\x00a\x00' is not key = value".
        if let offset = [data.firstIndex(of: 0), UTF8Check.firstInvalidByte(data)].compactMap({ $0 }).min() {
            throw ConfigError(path: path, line: nil, message: "is not UTF-8 text (byte 0x\(String(data[offset], radix: 16, uppercase: true)) at offset \(offset))",
                              fix: "save it as plain UTF-8 text, one key = value per line (data/stepd.conf is the template)")
        }
        var config = try parse(String(decoding: data, as: UTF8.self), path: path)
        config.path = path
        if case let .replay(recording, _) = config.source,
           let problem = ConfigReplayFile.problem(recording, asWritten: config.replaySetting?.asWritten ?? recording) {
            throw ConfigError(path: path, line: config.replaySetting?.line, message: problem.message,
                              fix: ConfigReplayFile.fix, errorNumber: problem.errorNumber)
        }
        return config
    }

    /// `credentialsOwner`: who must own the MQTT credentials file (`ServiceUser`).
    public static func parse(_ text: String, path: String,
                             credentialsOwner: CredentialsOwner = ServiceUser.credentialsOwner()) throws -> ServiceConfig {
        var c = ServiceConfig()
        // Files the settings name are relative to this file's directory (`ConfigPaths`).
        let paths = ConfigPaths(configPath: path)
        var simulate: String?, replay: String?, speed: Double?
        var mqttValues: [String: String] = [:], mqttLine: Int?
        var lineOfKey: [String: Int] = [:]
        // Any line end (a file edited on Windows has CRLF: "\r\n" is one Character, never "\n"),
        // and a byte-order mark before the first line is skipped, as the recording reader does.
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        for (index, rawLine) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let parts = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let line = parts.first.map(String.init) ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let bad = { (message: String, fix: String) in ConfigError(path: path, line: index + 1, message: message, fix: fix) }
            // A '#' glued to a value starts a comment all the same: `mqtt_device_id = kitchen#2`
            // published as "kitchen" and `database = /data/walk#1.sqlite` wrote /data/walk,
            // without a word. A comment after a value follows a space.
            if parts.count == 2, let eq = line.firstIndex(of: "="), let last = line.last, !last.isWhitespace, line.index(after: eq) != line.endIndex {
                let key = line[..<eq].trimmingCharacters(in: .whitespaces)
                let cut = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
                throw bad("\(key.escapedValue) = '\(cut.escapedValue)#\(String(parts[1]).escapedValue)': the '#' starts a comment, so \(key.escapedValue) would be '\(cut.escapedValue)'",
                          "a value cannot hold '#': choose one without it; for a comment after the value, put a space before the '#'")
            }
            guard let eq = trimmed.firstIndex(of: "=") else {
                throw bad("'\(trimmed.escapedValue)' is not key = value", "write one setting per line, e.g. rate = 100")
            }
            // Keys match in any case ("Rate = 50"); a message shows the key as the user wrote it.
            let keyAsWritten = trimmed[..<eq].trimmingCharacters(in: .whitespaces)
            let key = keyAsWritten.lowercased()
            let value = trimmed[trimmed.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw bad("'\(trimmed.escapedValue)' has no setting name before '='", "write key = value, e.g. rate = 100; known: \(Self.keys.joined(separator: ", "))")
            }
            /// The value of a numeric key (`NumericSetting.all`), in its range.
            func number() throws -> Double {
                let setting = NumericSetting.all[key]!
                guard let v = DecimalParser.parse(value), setting.range.contains(v) else {
                    let (low, high) = (setting.range.lowerBound.asWritten, setting.range.upperBound.asWritten)
                    // Heights in centimetres (height = 180, floor_height = 300) are the likely slip.
                    if setting.unit == "m", let cm = DecimalParser.parse(value), setting.range.contains(cm / 100) {
                        throw bad("\(key) = '\(value.escapedValue)' is in metres, so \(value.escapedValue) would be \(value.escapedValue) m",
                                  "write it in metres: \(key) = \((cm / 100).asWritten)")
                    }
                    throw bad("\(key) = '\(value.escapedValue)' is not a number from \(low) to \(high) \(setting.unit)", setting.fix(key: key))
                }
                return v
            }
            func boolean() throws -> Bool {
                switch value.lowercased() {
                case "yes", "true", "on", "1": return true
                case "no", "false", "off", "0": return false
                default: throw bad("\(key) = '\(value.escapedValue)' is not yes or no", "write \(key) = yes or \(key) = no")
                }
            }
            // A key given twice: the later line silently won, so an edit near the top did nothing.
            if let first = lineOfKey[key] {
                throw bad("\(key.escapedValue) is set twice (lines \(first) and \(index + 1))", "keep one of the two lines")
            }
            lineOfKey[key] = index + 1
            func checkSource(_ request: SourceRequest) throws {
                do { try SourceSelection.checkSyntax(request) } catch {
                    let why = (error as? any DiagnosableError)?.description ?? "\(error)"
                    throw bad("\(key) = '\(value.escapedValue)': \(why.escapedValue)",
                              "e.g. source = auto, source = iio:local:, source = i2c:/dev/i2c-1@0x68 or simulate = walk (docs/service.md)")
                }
            }
            if value.isEmpty && ["state_directory", "database", "simulate", "replay"].contains(key) {
                throw bad("\(key) has no value", "give one after '=', or leave the line out for the default")
            }
            switch key {
            case "source":
                c.source = value == "auto" || value.isEmpty ? .automatic(fallbackToSimulation: false) : .spec(value)
                try checkSource(c.source)
            case "simulate":
                simulate = value
                try checkSource(.simulate(name: value, speed: 1))
            case "replay": replay = value
            case "speed":
                // The tools' `--speed max` (as fast as possible) has no meaning for a service that
                // runs all day: it would count the whole recording in an instant, then sit idle.
                if ["max", "inf", "infinity", "fast"].contains(value.lowercased()) {
                    throw bad("speed = '\(value.escapedValue)' is not a pace the service plays at: it takes a number from 0.01 to 1000 (× real time; 1 = as recorded); '--speed max' is for the tools",
                              "write e.g. speed = 1 (real time) or speed = 1000 (the fastest); for a whole recording as fast as possible run imu-steps --replay FILE --speed max")
                }
                speed = try number()
            case "rate": c.sourceOptions.rateHz = try number()
            case "mount":
                guard let m = MountMatrix(kernelText: value) else {
                    throw bad("mount = '\(value.escapedValue)' is not three rows of three numbers", "e.g. mount = 0,1,0; -1,0,0; 0,0,1")
                }
                guard m.isRotation else {
                    throw bad("mount = '\(value.escapedValue)' is not a rotation (each row a unit vector at right angles to the others)", "e.g. mount = 0,1,0; -1,0,0; 0,0,1")
                }
                c.sourceOptions.mountMatrix = m
            case "height": c.pedometer.userHeightMeters = try number()
            case "floor_height": c.pedometer.floorHeightMeters = try number()
            case "state_directory": c.stateDirectory = paths.resolve(value)
            case "database": c.databasePath = paths.resolve(value)
            case "retention_days":
                let v = try number()
                guard v == v.rounded() else { throw bad("retention_days = '\(value.escapedValue)' is not a whole number of days", "e.g. retention_days = 365, or 0 to keep everything") }
                c.retentionDays = v == 0 ? nil : Int(v)
            case "commit_seconds": c.commitSeconds = try number()
            case "method_deadline": c.methodDeadlineSeconds = try number()
            case "polled_fallback_hz": c.polledFallbackHz = try number()
            case "yield_to":
                let name = value == "no" ? "" : value
                // A well-known name: a unique one (":1.42") changes with every connection.
                guard name.isEmpty || (!name.hasPrefix(":") && BusNameWatch.isValid(name)) else { throw bad("yield_to = '\(value.escapedValue)' is not a D-Bus name", "use yield_to = net.hadess.SensorProxy (iio-sensor-proxy) or yield_to = no") }
                c.yieldTo = name
            case "bus":
                switch value {
                case "system": c.bus = .system
                case "session": c.bus = .session
                default:
                    // D-Bus addresses are transport:key=value (D-Bus specification, Server Addresses):
                    // "unix:" alone names no socket, and failed only at the connection, without a line.
                    guard value.hasPrefix("unix:"), value.dropFirst(5).contains("=") else {
                        throw bad("bus = '\(value.escapedValue)' is not system, session or a unix: address with a socket (unix:path=FILE)",
                                  "use bus = system, bus = session or e.g. bus = unix:path=/run/dbus/system_bus_socket")
                    }
                    c.bus = .address(value)
                }
            case "clock":
                switch value {
                case "auto": c.trustWallClock = false
                case "trust": c.trustWallClock = true
                default: throw bad("clock = '\(value.escapedValue)' is not auto or trust", "use clock = auto (wait for NTP) or clock = trust")
                }
            case "calibration": c.applyCalibration = try boolean()
            case "gps":
                do { c.gpsd = try GPSSelection.setting(value) } catch {
                    throw bad("gps = '\(value.escapedValue)': \(error)", "use gps = no, gps = yes (localhost:2947) or gps = HOST:PORT")
                }
            case "mqtt_broker", "mqtt_device_id":
                mqttValues[key] = value
                if key == "mqtt_broker" || mqttLine == nil { mqttLine = index + 1 }
            case "mqtt_credentials", "mqtt_ca_file":
                // Empty stays empty: MQTTSettings says what an empty file name means.
                mqttValues[key] = value.isEmpty ? value : paths.resolve(value)
                if mqttLine == nil { mqttLine = index + 1 }
            default:
                // A slip of the keyboard (`retension_days`, `floorheight`) is named as the tools' options are.
                if let near = NearestOption.names(key, among: Self.keys).first {
                    throw bad("unknown setting '\(keyAsWritten.escapedValue)' (did you mean \(near)?)", "write \(near) = \(value.escapedValue)")
                }
                throw bad("unknown setting '\(keyAsWritten.escapedValue)'", "known: \(Self.keys.joined(separator: ", "))")
            }
        }
        do {
            c.mqtt = try MQTTSettings.from(mqttValues, origin: path)
        } catch {
            if case .invalidSetting(_, let problem, let fix) = error {
                throw ConfigError(path: path, line: mqttLine, message: problem, fix: fix)
            }
            throw ConfigError(path: path, line: mqttLine, message: error.description, fix: error.fix)
        }
        // The CA file is read now, as every other file a setting names, with its line and the fix.
        if let ca = c.mqtt?.caFile, let problem = MQTTCAFile.problem(ca) {
            throw ConfigError(path: path, line: lineOfKey["mqtt_ca_file"], message: "mqtt_ca_file: \(problem.message)",
                              fix: MQTTCAFile.fix, errorNumber: problem.errorNumber)
        }
        // So is the credentials file (it was first read when the publisher started: no line, and
        // permission denied exited 2).
        c.mqtt?.credentialsOwner = credentialsOwner
        if let credentials = c.mqtt?.credentialsPath {
            do throws(PublishError) { _ = try MQTTCredentials.load(path: credentials, owner: credentialsOwner) } catch {
                throw ConfigError(path: path, line: lineOfKey["mqtt_credentials"], message: "mqtt_credentials: \(error.description)",
                                  fix: error.fix, errorNumber: error.errorNumber)
            }
        }
        // One place for the samples: with two, one line was dropped without a word (replay won
        // over simulate, both over source), and speed without either was ignored.
        let origins = ["source", "simulate", "replay"].compactMap { key in lineOfKey[key].map { (key, $0) } }
        if origins.count > 1 {
            let named = origins.map { "\($0.0) (line \($0.1))" }
            throw ConfigError(path: path, line: origins[1].1,
                              message: named.joined(separator: " and ") + " both say where the samples come from",
                              fix: "keep one of the lines: source = for a sensor, simulate = or replay = to try the service without one")
        }
        if speed != nil, simulate == nil, replay == nil {
            throw ConfigError(path: path, line: lineOfKey["speed"], message: "speed paces simulate = or replay =, and neither is set",
                              fix: "remove the speed line: a sensor is read as it measures")
        }
        // As the tools refuse --rate/--mount with --replay and --mount with the simulator: the
        // daemon ignored those lines without a word.
        var simulated = simulate != nil
        if case let .spec(text) = c.source, text.hasPrefix("sim:") { simulated = true }
        for (setting, applies) in [("rate", replay == nil), ("mount", replay == nil && !simulated)] where !applies {
            guard let line = lineOfKey[setting] else { continue }
            let origin = replay != nil ? "replay =: a recording plays at the rate and in the frame it was recorded"
                : "the simulator: it has no chip axes to map"
            throw ConfigError(path: path, line: line, message: "\(setting) = does not apply to \(origin)",
                              fix: "remove the \(setting) line, or read a sensor with source = (e.g. source = i2c:/dev/i2c-1@0x68)")
        }
        if let simulate { c.source = .simulate(name: simulate, speed: speed ?? 1) }
        if let replay {
            c.source = .replay(path: paths.resolve(replay), speed: speed ?? 1)
            c.replaySetting = (replay, lineOfKey["replay"])
        }
        return c
    }
}

/// A bad line in the config file: names the file, the line and the fix. Exit 2.
public struct ConfigError: DiagnosableError, Equatable {
    public var path: String
    public var line: Int?
    public var message: String
    public var fix: String?
    /// errno when the file could not be read; permission denied exits 3 (docs/CONTRACTS.md §4).
    public var errorNumber: Int32 = 0
    /// The path as it came (from --config or a file), escaped on one line: a newline or an
    /// escape sequence in it cannot start a fake "fix:" line or recolour the terminal.
    public var description: String { "\(path.escapedOnOneLine)\(line.map { ":\($0)" } ?? ""): \(message)" }
    public var exitStatus: ExitStatus { isPermissionDenied(errno: errorNumber) ? .noSensor : .usage }
}
