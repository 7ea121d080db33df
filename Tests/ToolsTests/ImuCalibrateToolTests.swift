import OffPool
import Testing
import Foundation
import IMUCore

/// imu-calibrate as a user runs it, on simulated sessions, with a private config directory.
@Suite(.offPool, .serialized) struct ImuCalibrateToolTests {
    /// The simulator's default accelerometer (SensorErrorModel.typicalAccelerometer, the raw-sensor
    /// seed article's model sensor).
    static let bias = [0.004, -0.006, 0.010]
    static let scale = [1.002, 0.997, 1.005]

    /// A private XDG_CONFIG_HOME and system directory, so tests never touch the real stores.
    func environment() throws -> [String: String] {
        let root = try scratchDirectory()
        return ["XDG_CONFIG_HOME": root + "/config", "IMUKIT_SYSTEM_CONFIG_DIR": root + "/etc"]
    }

    /// A raw simulated six-position session recorded by imu-record.
    func recordSession(_ env: [String: String]) throws -> String {
        let out = try scratchDirectory() + "/six.csv"
        let r = try ToolRunner.run("imu-record", ["--simulate", "six-position", "--speed", "max", "--raw", "-q", "-o", out],
                                    environment: env)
        #expect(r.status == 0, "imu-record: \(r.stderr)")
        return out
    }

    func json(_ text: String) throws -> [String: Any] {
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1, "exactly one JSON object on stdout")
        return try #require(try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any])
    }

    @Test func fromRecordingJsonFollowsContractAndDoesNotSave() throws {
        let env = try environment()
        let file = try recordSession(env)
        let r = try ToolRunner.run("imu-calibrate", ["--six-position", "--from-recording", file, "--json"], environment: env)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let o = try json(r.stdout)
        let bias = try #require(o["accel_bias_g"] as? [Double])
        let scale = try #require(o["accel_scale"] as? [Double])
        for i in 0..<3 {
            #expect(abs(bias[i] - Self.bias[i]) < 0.0005)
            #expect(abs(scale[i] - Self.scale[i]) < 0.0005)
        }
        #expect((o["accel_misalignment"] as? [[Double]])?.count == 3)
        #expect((o["gyro_bias_rad_s"] as? [Double])?.count == 3)
        let before = try #require(o["gravity_error_before_g"] as? Double)
        let after = try #require(o["gravity_error_after_g"] as? Double)
        #expect(after < before)
        #expect(!FileManager.default.fileExists(atPath: env["XDG_CONFIG_HOME"]! + "/imukit"))
    }

    @Test func saveShowApplyAndReset() throws {
        let env = try environment()
        let file = try recordSession(env)
        var r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", file, "--json", "--save"], environment: env)
        #expect(r.status == 0)
        let saved = env["XDG_CONFIG_HOME"]! + "/imukit/calibration/sim_six-position.json"
        #expect(FileManager.default.fileExists(atPath: saved))
        #expect(r.stderr.contains(saved))

        r = try ToolRunner.run("imu-calibrate", ["--show", "--key", "sim:six-position"], environment: env)
        #expect(r.status == 0)
        #expect(r.stdout.contains("accelerometer bias") && r.stdout.contains(saved))

        // Every tool applies it and says so.
        let out = try scratchDirectory() + "/after.csv"
        r = try ToolRunner.run("imu-record", ["--simulate", "six-position", "--speed", "max", "-d", "2", "-o", out], environment: env)
        #expect(r.stderr.contains("using calibration for sim:six-position from \(saved)"))
        let reader = try RecordingReader(path: out)
        #expect(reader.comments.contains { $0.contains("calibration: applied") })

        r = try ToolRunner.run("imu-calibrate", ["--reset", "--key", "sim:six-position"], environment: env)
        #expect(r.status == 0 && r.stdout.contains("removed \(saved)"))
        #expect(!FileManager.default.fileExists(atPath: saved))
        r = try ToolRunner.run("imu-calibrate", ["--show", "--key", "sim:six-position"], environment: env)
        #expect(r.status == 1 && r.stderr.contains("no calibration saved for sim:six-position"))
    }

    @Test func guidedLiveSessionOnTheSimulatorSaves() throws {
        let env = try environment()
        let r = try ToolRunner.run("imu-calibrate", ["--six-position", "--simulate", "six-position", "--speed", "200"],
                                    environment: env)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        for n in 1...6 { #expect(r.stdout.contains("[\(n)/6]")) }
        #expect(r.stdout.contains("All six faces captured"))
        #expect(r.stdout.contains("Saved."))
        #expect(FileManager.default.fileExists(atPath: env["XDG_CONFIG_HOME"]! + "/imukit/calibration/sim_six-position.json"))
    }

    @Test func systemStoreIsUsedWithSystemFlagAndFoundAfterTheUserStore() throws {
        let env = try environment()
        let file = try recordSession(env)
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", file, "--save", "--system"], environment: env)
        #expect(r.status == 0)
        let system = env["IMUKIT_SYSTEM_CONFIG_DIR"]! + "/calibration/sim_six-position.json"
        #expect(FileManager.default.fileExists(atPath: system))
        let show = try ToolRunner.run("imu-calibrate", ["--show", "--key", "sim:six-position"], environment: env)
        #expect(show.stdout.contains(system))
    }

    @Test func calibratedRecordingIsRefused() throws {
        let dir = try scratchDirectory()
        let file = dir + "/calibrated.csv"
        try "# calibration: applied, for x from /y\nt,ax,ay,az\n0,0,0,1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", file], environment: try environment())
        #expect(r.status == 2)
        #expect(r.stderr.contains("calibrated.csv") && r.stderr.contains("--raw"))
    }

    @Test func incompleteSessionNamesTheMissingFaces() throws {
        // 8 s flat on the table only: five faces missing.
        var text = "# calibration-key: test\nt,ax,ay,az\n"
        for i in 0..<800 { text += "\(Double(i) / 100),0.004,-0.006,1.015\n" }
        let file = try scratchDirectory() + "/flat.csv"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", file, "--json"], environment: try environment())
        #expect(r.status == 2, "a file holding no session is a bad file: \(r.stderr)")
        #expect(r.stderr.contains("missing: -z +y -y +x -x"))
        #expect(r.stdout.isEmpty)
    }

    @Test func usageErrors() throws {
        let env = try environment()
        for args in [[], ["--show", "--reset"], ["-6", "--seconds", "0"], ["-6", "--bogus"],
                     ["-6", "--from-recording", "/nonexistent.csv"]] {
            let r = try ToolRunner.run("imu-calibrate", args, environment: env)
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(!r.stderr.isEmpty)
        }
    }

    @Test func helpHasExamples() throws {
        for tool in ["imu-calibrate", "imu-record"] {
            let r = try ToolRunner.run(tool, ["--help"])
            #expect(r.status == 0)
            #expect(r.stdout.contains("Examples:") && r.stdout.contains("Usage:"))
        }
    }
}

