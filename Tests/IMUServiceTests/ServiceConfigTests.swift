import Foundation
import IMUCLI
import IMUServiceClient
import Testing
@testable import IMUService

@Suite struct ServiceConfigTests {
    @Test func readsEverySetting() throws {
        let c = try ServiceConfig.parse("""
        # comment
        source = iio:local:?resume=30
        rate = 100   # Hz
        height = 1.80
        floor_height = 3.2
        state_directory = /tmp/x
        retention_days = 365
        commit_seconds = 10
        bus = session
        clock = trust
        calibration = no
        polled_fallback_hz = 25
        """, path: "stepd.conf")
        #expect(c.source == .spec("iio:local:?resume=30"))
        #expect(c.sourceOptions.rateHz == 100)
        #expect(c.pedometer.userHeightMeters == 1.80)
        #expect(c.resolvedDatabasePath == "/tmp/x/history.sqlite")
        #expect(c.retentionDays == 365)
        #expect(c.commitSeconds == 10)
        #expect(c.bus == .session)
        #expect(c.trustWallClock && !c.applyCalibration)
        #expect(c.polledFallbackHz == 25)
    }

    @Test func defaultsKeepEverythingAndCommitWithinTenSeconds() throws {
        let c = try ServiceConfig.parse("", path: "x")
        #expect(c.retentionDays == nil)
        #expect(c.commitSeconds <= 10)
        #expect(c.source == .automatic(fallbackToSimulation: false))
        #expect(try ServiceConfig.parse("retention_days = 0", path: "x").retentionDays == nil)
        // The IIO buffer is left to iio-sensor-proxy unless told otherwise.
        #expect(c.yieldTo == "net.hadess.SensorProxy")
        #expect(try ServiceConfig.parse("yield_to = no", path: "x").yieldTo == "")
        #expect(try ServiceConfig.parse("yield_to = org.example.Rotation2", path: "x").yieldTo == "org.example.Rotation2")
    }

    @Test func badLinesNameTheFileTheLineAndTheFix() {
        for (text, line, words) in [("rate = fast", 1, "rate"), ("\n\ncommit_seconds = 60", 3, "10 s"),
                                    ("colour = blue", 1, "unknown setting"), ("just words", 1, "key = value"),
                                    ("polled_fallback_hz = 10", 1, "25 Hz"), ("bus = tcp:host=x", 1, "bus"),
                                    ("yield_to = iio-sensor-proxy", 1, "D-Bus name"), ("yield_to = net..SensorProxy", 1, "D-Bus name"),
                                    ("mount = 0,0,0; 0,0,0; 0,0,0", 1, "not a rotation")] {
            do {
                _ = try ServiceConfig.parse(text, path: "/etc/imukit/stepd.conf")
                Issue.record("accepted: \(text)")
            } catch let e as ConfigError {
                #expect(e.description.hasPrefix("/etc/imukit/stepd.conf:\(line):"), "\(e)")
                #expect(e.description.contains(words) || (e.fix ?? "").contains(words), "\(e)")
                #expect(e.fix != nil && e.exitStatus == .usage)
            } catch { Issue.record("\(error)") }
        }
    }

    @Test func controlCharactersAreEscapedInMessages() {
        do {
            _ = try ServiceConfig.parse("rate = \u{1B}[31m", path: "p")
        } catch {
            #expect(!"\(error)".contains("\u{1B}"))
        }
    }

    /// An unknown key is shown as written, escaped: lowercasing it first turned "\x1B[2J" into
    /// "\x1b[2j" and "Colour" into "colour", so the user could not find the line they wrote.
    @Test func anUnknownSettingIsShownAsWritten() {
        do {
            _ = try ServiceConfig.parse("Colour\u{1B}[2J = blue", path: "p")
            Issue.record("accepted an unknown setting")
        } catch {
            #expect("\(error)".contains("unknown setting 'Colour\\x1B[2J'"), "\(error)")
            #expect(!"\(error)".contains("\u{1B}"))
        }
        #expect(throws: Never.self) { try ServiceConfig.parse("RATE = 50", path: "p") }
    }

    @Test func aMissingFileIsAnErrorOnlyWhenNamed() throws {
        #expect(throws: ConfigError.self) { try ServiceConfig.load(path: "/nonexistent/stepd.conf", required: true) }
        #expect(try ServiceConfig.load(path: "/nonexistent/stepd.conf", required: false).commitSeconds == ServiceConfig().commitSeconds)
    }
}

@Suite struct ExampleConfigTests {
    /// data/stepd.conf shows every setting commented out with its default: uncommented, it must
    /// parse and give the defaults.
    @Test func theExampleFileShowsTheDefaults() throws {
        let text = try String(contentsOf: PrivateBus.packageRoot.appendingPathComponent("data/stepd.conf"), encoding: .utf8)
        let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("#") && $0.contains(" = ") && !$0.hasPrefix("# ") ? String($0.dropFirst()) : String($0) }
            .joined(separator: "\n")
        let c = try ServiceConfig.parse(uncommented, path: "data/stepd.conf")
        let d = ServiceConfig()
        #expect(c.source == d.source)
        #expect(c.commitSeconds == d.commitSeconds && c.methodDeadlineSeconds == d.methodDeadlineSeconds)
        #expect(c.retentionDays == d.retentionDays && c.polledFallbackHz == d.polledFallbackHz)
        #expect(c.stateDirectory == d.stateDirectory && c.resolvedDatabasePath == d.resolvedDatabasePath)
        #expect(c.bus == d.bus && c.trustWallClock == d.trustWallClock && c.applyCalibration == d.applyCalibration)
        #expect(c.pedometer.userHeightMeters == d.pedometer.userHeightMeters)
        #expect(c.pedometer.floorHeightMeters == d.pedometer.floorHeightMeters)
    }
}

/// The bad-input audit's config files: line ends, fractions, empty paths, files that are not files.
@Suite struct ServiceConfigBadInputTests {
    /// A file edited on Windows: "\r\n" is one Character to Swift, so splitting on "\n" read the
    /// whole file as one line.
    @Test func windowsLineEndsAndAByteOrderMarkAreRead() throws {
        let c = try ServiceConfig.parse("\u{FEFF}rate = 100\r\nheight = 1.8\r\n", path: "stepd.conf")
        #expect(c.sourceOptions.rateHz == 100)
        #expect(c.pedometer.userHeightMeters == 1.8)
        #expect(throws: ConfigError(path: "stepd.conf", line: 2, message: "rate = 'x' is not a number from 1 to 8000 Hz",
                                    fix: "write a number from 1 to 8000, e.g. rate = 100")) {
            try ServiceConfig.parse("height = 1.8\r\nrate = x\r\n", path: "stepd.conf")
        }
    }

    /// A range hint printed every bound as a Double ("from 0.0 to 36500.0 days", "e.g.
    /// retention_days = 0.0" for a count of whole days), and suggested the range's lower edge:
    /// `rate = 1e999` got "e.g. rate = 1", one sample a second, with which no step is ever
    /// counted. Whole bounds are whole, 0.01 stays 0.01, and the fix names the range and the
    /// daemon's typical value.
    @Test(arguments: [
        ("retention_days = -1", "retention_days = '-1' is not a number from 0 to 36500 days", "write a number from 0 to 36500, e.g. retention_days = 365"),
        ("speed = 0", "speed = '0' is not a number from 0.01 to 1000 × real time", "write a number from 0.01 to 1000, e.g. speed = 1"),
        ("rate = 1e999", "rate = '1e999' is not a number from 1 to 8000 Hz", "write a number from 1 to 8000, e.g. rate = 100"),
        ("commit_seconds = nan", "commit_seconds = 'nan' is not a number from 0.5 to 10 s (issue #16: at most 10 s may be lost)",
         "write a number from 0.5 to 10, e.g. commit_seconds = 5"),
    ])
    func rangeHintsNameTheRangeAndATypicalValue(line: String, message: String, fix: String) {
        #expect(throws: ConfigError(path: "x", line: 1, message: message, fix: fix)) { try ServiceConfig.parse(line, path: "x") }
    }

    /// `clock = maybe` was said as "x:1: clock = 'maybe'", a line that does not say what is wrong
    /// with it; `gps = yes please` was taken as the host "yes please" and retried every 2 s.
    @Test func wordSettingsSayWhatIsWrong() {
        #expect(throws: ConfigError(path: "x", line: 1, message: "clock = 'maybe' is not auto or trust",
                                    fix: "use clock = auto (wait for NTP) or clock = trust")) { try ServiceConfig.parse("clock = maybe", path: "x") }
        #expect(throws: ConfigError.self) { try ServiceConfig.parse("gps = yes please", path: "x") }
        #expect(throws: ConfigError.self) { try ServiceConfig.parse("gps = pi\u{1B}[2J", path: "x") }
    }

    /// `source =` with `simulate =` (or `replay =`) kept the last kind and dropped the other line
    /// without a word; `speed =` with neither was ignored.
    @Test func twoPlacesForTheSamplesOrASpeedForNoneAreRefused() {
        #expect(throws: ConfigError(path: "x", line: 3, message: "source (line 1) and simulate (line 3) both say where the samples come from",
                                    fix: "keep one of the lines: source = for a sensor, simulate = or replay = to try the service without one")) {
            try ServiceConfig.parse("source = iio:local:\nrate = 100\nsimulate = walk", path: "x")
        }
        #expect(throws: ConfigError.self) { try ServiceConfig.parse("simulate = walk\nreplay = walk.csv", path: "x") }
        #expect(throws: ConfigError(path: "x", line: 2, message: "speed paces simulate = or replay =, and neither is set",
                                    fix: "remove the speed line: a sensor is read as it measures")) {
            try ServiceConfig.parse("rate = 100\nspeed = 5", path: "x")
        }
        #expect(throws: Never.self) { try ServiceConfig.parse("simulate = walk\nspeed = 5", path: "x") }
    }

    /// `height = 180` (centimetres) got "not a number from 0.5 to 2.5 m, e.g. height = 1.75":
    /// the fix now gives the user's own height in metres.
    @Test func aHeightInCentimetresGetsItsMetres() {
        #expect(throws: ConfigError(path: "x", line: 1, message: "height = '180' is in metres, so 180 would be 180 m",
                                    fix: "write it in metres: height = 1.8")) { try ServiceConfig.parse("height = 180", path: "x") }
        #expect(throws: ConfigError(path: "x", line: 1, message: "floor_height = '350' is in metres, so 350 would be 350 m",
                                    fix: "write it in metres: floor_height = 3.5")) { try ServiceConfig.parse("floor_height = 350", path: "x") }
    }

    /// Every numeric setting's suggested value is one the parser takes, and a value outside the
    /// range is refused with that suggestion.
    @Test func everyTypicalValueIsInItsRange() throws {
        for (key, setting) in NumericSetting.all {
            #expect(setting.range.contains(setting.typical), "\(key)")
            // speed paces a simulation (or replay): alone it is refused (twoPlacesForTheSamples…).
            _ = try ServiceConfig.parse("\(key) = \(setting.typical.asWritten)" + (key == "speed" ? "\nsimulate = walk" : ""), path: "x")
            #expect(throws: ConfigError.self) { try ServiceConfig.parse("\(key) = 1e999", path: "x") }
        }
    }

    /// `retention_days = 0.5` became Int(0.5) = 0 days, refused later as "0 days"; 1.7 kept 1.
    @Test func retentionDaysMustBeWhole() throws {
        for text in ["0.5", "1.7"] {
            #expect(throws: ConfigError.self) { try ServiceConfig.parse("retention_days = \(text)", path: "x") }
        }
        #expect(try ServiceConfig.parse("retention_days = 30", path: "x").retentionDays == 30)
    }

    @Test func anEmptyPathIsNamed() {
        for key in ["state_directory", "database", "replay", "simulate"] {
            #expect(throws: ConfigError(path: "x", line: 1, message: "\(key) has no value",
                                        fix: "give one after '=', or leave the line out for the default")) {
                try ServiceConfig.parse("\(key) =   # none", path: "x")
            }
        }
    }

    /// A directory read as "permission denied?", and /dev/zero was read until memory ran out.
    @Test func aDirectoryOrADeviceIsNotReadAsAConfig() throws {
        let dir = FileManager.default.temporaryDirectory.path
        do { _ = try ServiceConfig.load(path: dir, required: true); Issue.record("a directory was accepted") } catch let e as ConfigError {
            #expect(e.message == "is a directory, not a config file")
            #expect(e.exitStatus == .usage)
        }
        do { _ = try ServiceConfig.load(path: "/dev/zero", required: true); Issue.record("/dev/zero was accepted") } catch let e as ConfigError {
            // Refused as a device before a byte is read (BadInputSweep21Tests: a FIFO was read as empty).
            #expect(e.message == "is a character device, not a regular file: the config must be a regular file")
            #expect(e.exitStatus == .usage)
        }
    }

    /// A config saved as UTF-16 ("Unicode text") or Latin-1 was read as lines of U+FFFD and
    /// NULs: "'\u{FFFD}\u{FFFD} r\x00a\x00…' is not key = value". It is now named as not UTF-8
    /// text, with the byte and the fix.
    @Test(arguments: [
        ([0xFF, 0xFE] + Array("rate = 100\n".utf8).flatMap { [$0, 0] }, "is not UTF-8 text (byte 0xFF at offset 0)"),
        (Array("# caf".utf8) + [0xE9] + Array("\nrate = 100\n".utf8), "is not UTF-8 text (byte 0xE9 at offset 5)"),
        (Array("rate = 100\n".utf8) + [0], "is not UTF-8 text (byte 0x0 at offset 11)"),
    ] as [([UInt8], String)])
    func aConfigThatIsNotUTF8TextIsNamed(bytes: [UInt8], message: String) throws {
        let path = FileManager.default.temporaryDirectory.path + "/stepd-\(UUID().uuidString).conf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ConfigError(path: path, line: nil, message: message,
                                    fix: "save it as plain UTF-8 text, one key = value per line (data/stepd.conf is the template)")) {
            try ServiceConfig.load(path: path, required: true)
        }
    }

    /// A '#' glued to a value started a comment without a word: `mqtt_device_id = kitchen#2`
    /// published as "kitchen", `database = /tmp/walk#1.sqlite` wrote /tmp/walk. A comment after a
    /// space still is one.
    @Test func aHashGluedToAValueIsRefusedNotCut() throws {
        for (line, message) in [("mqtt_device_id = kitchen#2", "mqtt_device_id = 'kitchen#2': the '#' starts a comment, so mqtt_device_id would be 'kitchen'"),
                                ("database = /tmp/walk#1.sqlite", "database = '/tmp/walk#1.sqlite': the '#' starts a comment, so database would be '/tmp/walk'")] {
            #expect(throws: ConfigError(path: "stepd.conf", line: 2, message: message,
                                        fix: "a value cannot hold '#': choose one without it; for a comment after the value, put a space before the '#'")) {
                try ServiceConfig.parse("rate = 100\n\(line)\n", path: "stepd.conf")
            }
        }
        let config = try ServiceConfig.parse("commit_seconds = 3 # sooner\n#commit_seconds = 5\n", path: "stepd.conf")
        #expect(config.commitSeconds == 3)
    }

    @Test func permissionDeniedExits3() {
        let e = ConfigError(path: "/etc/imukit/stepd.conf", line: nil, message: "cannot be read: Permission denied", fix: nil, errorNumber: EACCES)
        #expect(e.exitStatus == .noSensor)
    }
}

/// The config's source check asks the backends that open the sources (`SensorBackend.checkSpec`):
/// it listed i2c, iio and sim itself and checked `sim:` as a bare scenario name, so
/// `source = sim:walk?speed=2`, which opens, was refused as "unknown scenario 'walk?speed=2'".
@Suite struct SourceSpecCheckTests {
    @Test(arguments: ["sim:walk?speed=2&seed=3", "sim:walk:10,run:5", "i2c:/dev/i2c-1@0x68", "iio:local:", "iio:ip:192.168.1.2"])
    func whatOpensPassesTheCheck(_ spec: String) throws {
        let config = try ServiceConfig.parse("source = \(spec)\n", path: "c")
        #expect(config.source == .spec(spec))
    }

    @Test(arguments: [("sim:walk?bogus=1", "bogus"), ("i2c:/dev/i2c-1@0x200", "0x200"), ("usb:x", "known: i2c:, iio:, sim:")])
    func whatOpeningWouldRefuseIsRefusedWithItsLine(_ spec: String, _ named: String) {
        #expect {
            try ServiceConfig.parse("bus = session\nsource = \(spec)\n", path: "c")
        } throws: { error in
            "\(error)".hasPrefix("c:2: source = '") && "\(error)".contains(named)
        }
    }
}

/// The MQTT credentials file must be the service user's (docs/mqtt.md). The check used this
/// process's user, so `sudo imu-stepd --config /etc/imukit/stepd.conf` (a root trial of the
/// installed config, whose file is imu-stepd's) was refused as "not the service user (uid 0)",
/// and a root-owned file, which the service cannot read, passed the trial.
@Suite struct CredentialsOwnerTests {
    /// An uid no account here has: stands for the installed service user (root may chown to it).
    static let serviceUID: uid_t = 4242

    @Test func asRootTheInstalledServiceUserMustOwnTheFile() {
        let asRoot = ServiceUser.credentialsOwner(effectiveUID: 0, installedUID: Self.serviceUID)
        #expect(asRoot.uid == Self.serviceUID && asRoot.name == "imu-stepd")
        // The service itself, a developer's own config, root without the service installed: this process's user.
        #expect(ServiceUser.credentialsOwner(effectiveUID: 1000, installedUID: Self.serviceUID).uid == 1000)
        #expect(ServiceUser.credentialsOwner(effectiveUID: 0, installedUID: nil).uid == 0)
    }

    static func config(credentialsOwnedBy uid: uid_t) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cred-owner-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/mqtt-credentials"
        try "username=hall-pi\npassword=secret\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        guard chown(path, uid, gid_t(uid)) == 0 else { throw CocoaError(.fileWriteNoPermission) }
        return "mqtt_broker = mqtt://127.0.0.1:1\nmqtt_credentials = \(path)\n"
    }

    @Test func aRootTrialOfTheServiceUsersConfigIsAccepted() throws {
        guard geteuid() == 0 else { print("skipped: only root may give a file to another uid"); return }
        let owner = ServiceUser.credentialsOwner(effectiveUID: 0, installedUID: Self.serviceUID)
        let c = try ServiceConfig.parse(try Self.config(credentialsOwnedBy: Self.serviceUID), path: "stepd.conf", credentialsOwner: owner)
        #expect(c.mqtt?.credentialsOwner == owner, "the publisher checks the file again with the same owner")
    }

    @Test func aRootOwnedFileIsRefusedNamingTheServiceUser() throws {
        guard geteuid() == 0 else { print("skipped: the file must be root's"); return }
        let owner = ServiceUser.credentialsOwner(effectiveUID: 0, installedUID: Self.serviceUID)
        let text = try Self.config(credentialsOwnedBy: 0)
        let error = #expect(throws: ConfigError.self) { try ServiceConfig.parse(text, path: "stepd.conf", credentialsOwner: owner) }
        #expect(error?.line == 2)
        #expect(error?.message.contains("belongs to root (uid 0), not to imu-stepd (uid 4242), the user the installed service runs as") == true,
                "\(error?.message ?? "")")
        #expect(error?.fix?.hasPrefix("sudo chown imu-stepd ") == true, "\(error?.fix ?? "")")
    }
}
