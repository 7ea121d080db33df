import Foundation
import IMUHistory
import IMUService
import OffPool
import Pedometer
import Testing

/// Messages whose fix is a setting name the settings file imu-stepd was started with: both named
/// /etc/imukit/stepd.conf whatever `--config` was given, so a user edited a file the daemon never read.
@Suite(.offPool, .serialized) struct ConfigNamingTests {
    /// The stranded-minutes notice (minutes of an earlier boot that never got a date).
    @Test func theStrandedMinutesNoticeNamesTheConfigInUse() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/history.sqlite"
        do {
            let earlier = try HistoryStore(path: path, bootID: "an-earlier-boot")
            var snapshot = PedometerSnapshot()
            snapshot.steps = 3
            earlier.record([.step(time: 5), .step(time: 70), .step(time: 130)], snapshot: snapshot, mapping: nil)
            try earlier.commit()
        }
        let store = try HistoryStepStore(path: path, retentionDays: nil, configPath: dir + "/my stepd.conf")
        let notices = store.takeNotices()
        #expect(notices.count == 1, "\(notices)")
        #expect(notices.first?.contains("set clock = trust in \(dir)/my stepd.conf if its clock is right") == true, "\(notices)")
        #expect(notices.first?.contains("/etc/imukit") == false, "\(notices)")
    }

    /// `imu-steps --gps` while the daemon owns the sensor: the daemon's own file, read over D-Bus.
    @Test func theGPSNoticeNamesTheDaemonsConfig() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(try PrivateBus.waitFor(20) { busValue(try bus.property("Config")) == daemon.configPath }, "\(daemon.log)")
        // Ctrl-C once both lines are out (a fixed 3 s, then 8 s, before Ctrl-C was too short on a
        // loaded 2-core machine: imu-steps had not reached the daemon and printed nothing); 30 s is
        // the deadline for a machine that slow, not a wait every run pays.
        let notice = "--gps does not apply while following the step daemon: its activity is its own (set gps = in \(daemon.configPath); docs/gps.md)"
        let r = try Run.interrupting([DaemonProcess.tool("imu-steps"), "--gps", "--json"],
                                     environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], deadline: 30) { stdout, stderr in
            stderr.contains(notice) && stdout.contains("\"type\":\"daemon\"")
        }
        #expect(r.stderr.contains(notice), "stderr: \(r.stderr)")
        #expect(r.stdout.contains("\"type\":\"daemon\""), "stdout: \(r.stdout)")
    }

    /// `--config ./stepd.conf` by hand: the property is absolute, for a client in another directory.
    @Test func aRelativeConfigIsServedAsAnAbsolutePath() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "bus = \(bus.address)\nstate_directory = \(dir)/state\nclock = trust\nsimulate = walk:600\n".write(toFile: dir + "/stepd.conf", atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: DaemonProcess.tool("imu-stepd"))
        daemon.arguments = ["--config", "stepd.conf"]
        daemon.currentDirectoryURL = URL(fileURLWithPath: dir)
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        #expect(try PrivateBus.waitFor(20) { busValue(try bus.property("Config")) == dir + "/stepd.conf" })
    }
}
