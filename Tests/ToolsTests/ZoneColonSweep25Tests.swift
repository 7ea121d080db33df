import Foundation
import OffPool
import Testing

/// TZ=":" is UTC on purpose (glibc reads an empty zone file name as UTC) and TZ="" the system's
/// zone: neither is warned about by any tool or by the daemon, which all cut their days with the
/// C library (imu-plot's are DayZoneToolTests and RecordingZoneSweep25Tests; the daemon's
/// QueryDays "" is LocalDaysSweep25Tests). TZDIR is where glibc looks, and the fix names it.
@Suite(.offPool) struct ZoneColonSweep25Tests {
    static let bus = "unix:path=/nonexistent/imukit-bus"

    @Test(arguments: [":", ""])
    func noToolWarnsOfColonOrEmpty(tz: String) throws {
        let steps = try ToolRunner.run("imu-steps", ["--today"], environment: ["TZ": tz, "DBUS_SYSTEM_BUS_ADDRESS": Self.bus])
        #expect(!steps.stderr.contains("warning: TZ="), "imu-steps, TZ='\(tz)': \(steps.stderr)")
        #expect(steps.status == 1, "no daemon here: \(steps.stderr)")
        let daemon = try ToolRunner.run("imu-stepd", ["--config", "/nonexistent/imukit-sweep25.conf"],
                                        environment: ["TZ": tz, "IMUKIT_LOG_STDERR": "1"], timeout: 30)
        #expect(!daemon.stderr.contains("warning: TZ="), "imu-stepd, TZ='\(tz)': \(daemon.stderr)")
        #expect(daemon.status == 2, "\(daemon.stderr)")
    }

    /// With TZDIR set, glibc finds Europe/Berlin only there: the warning names that directory.
    @Test func theWarningNamesTZDIR() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sweep25-tzdir-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-steps", ["--today"], environment: ["TZ": "Europe/Berlin", "TZDIR": dir, "DBUS_SYSTEM_BUS_ADDRESS": Self.bus])
        #expect(r.stderr.contains("imu-steps: warning: TZ='Europe/Berlin' names no time zone this system knows (no zone file \(dir)/Europe/Berlin"), "\(r.stderr)")
        #expect(r.stderr.contains("(ls \(dir), which TZDIR names; or unset TZDIR to use /usr/share/zoneinfo)"), "\(r.stderr)")
    }
}
