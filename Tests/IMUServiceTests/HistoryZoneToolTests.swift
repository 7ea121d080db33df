import Foundation
import OffPool
import Testing

/// `imu-steps --history` asks imu-stepd for the days of the zone its own range is in. With a TZ
/// naming no zone glibc runs the tool on UTC, but the tool named no zone (""), and a daemon in
/// another zone answered with its own days: rows from 18:30 UTC for a daemon at UTC+5:30.
@Suite(.offPool, .serialized) struct HistoryZoneToolTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Asia/Kolkata"), "needs tzdata"))
    func theDaysAreTheToolsUTCDaysNotTheDaemons() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"],
                                       environment: ["TZ": "Asia/Kolkata"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(PrivateBus.waitFor(20) { (try? bus.property("SensorState"))?.contains("running") == true }, "\(daemon.log)")
        let steps = DaemonProcess.tool("imu-steps")
        for tz in ["Nowhere/Land", ":"] {
            let r = try Run.command([steps, "--history", "2d", "--json"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address, "TZ": tz])
            #expect(r.status == 0, "TZ='\(tz)': \(r.stderr)")
            let rows = r.stdout.split(separator: "\n")
            #expect(rows.count == 2, "TZ='\(tz)': \(r.stdout)")
            for row in rows {
                // The tool prints in its zone, UTC: a UTC day starts at 00:00:00Z.
                #expect(row.contains("T00:00:00Z\",\"end\":\"") && row.contains("T00:00:00Z\",\"steps\""), "TZ='\(tz)': \(row)")
            }
        }
    }
}
