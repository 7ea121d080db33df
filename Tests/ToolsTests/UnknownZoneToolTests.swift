import Foundation
import OffPool
import Testing

/// TZ=Nowhere/Land ran the tools and the daemon on UTC without a word (glibc's tzset(3) falls
/// back silently), so "today" was cut at UTC midnight. They still run on UTC, and say so once.
@Suite(.offPool) struct UnknownZoneToolTests {
    static let bus = "unix:path=/nonexistent/imukit-bus"

    @Test func imuStepsTodaySaysTheZoneIsUnknownOnce() throws {
        let r = try ToolRunner.run("imu-steps", ["--today"], environment: ["TZ": "Nowhere/Land", "DBUS_SYSTEM_BUS_ADDRESS": Self.bus])
        let warning = "imu-steps: warning: TZ='Nowhere/Land' names no time zone this system knows"
        #expect(r.stderr.components(separatedBy: warning).count == 2, "\(r.stderr)")
        #expect(r.stderr.contains("set TZ to a zone such as Europe/Berlin"), "\(r.stderr)")
        // It goes on (on UTC) to ask the daemon, absent here.
        #expect(r.status == 1 && r.stderr.contains("cannot ask the step daemon imu-stepd"), "\(r.stderr)")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin"), "needs tzdata"))
    func aKnownZoneOrARuleSaysNothing() throws {
        for tz in ["Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            let r = try ToolRunner.run("imu-steps", ["--today"], environment: ["TZ": tz, "DBUS_SYSTEM_BUS_ADDRESS": Self.bus])
            #expect(!r.stderr.contains("warning: TZ="), "\(tz): \(r.stderr)")
        }
    }

    /// The daemon logs it first, before a config error ends it (standard error: not under systemd).
    @Test func imuStepdLogsTheUnknownZone() throws {
        let r = try ToolRunner.run("imu-stepd", ["--config", "/nonexistent/imukit-sweep23.conf"],
                                   environment: ["TZ": "Nowhere/Land", "IMUKIT_LOG_STDERR": "1"], timeout: 30)
        #expect(r.stderr.hasPrefix("imu-stepd: warning: TZ='Nowhere/Land' names no time zone this system knows"), "\(r.stderr)")
        #expect(r.status == 2, "\(r.stderr)")
    }
}
