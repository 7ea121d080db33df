import DaemonGuard
import Foundation
import GPSFake
import IMUSimulation
import OffPool
import Testing

/// The private bus and gpsfake harnesses leave no dbus-daemon, gpsfake or gpsd behind when the
/// test process dies, even by SIGKILL (a crashed or timed-out run): checked on a child test
/// process running the matching probe.
@Suite(.offPool)
struct DaemonOrphanTests {
    static let noBus = !FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")

    @Test(.disabled(if: noBus, "dbus-daemon is not installed (apt-get install dbus)"))
    func aKilledTestProcessLeavesNoBusDaemon() throws {
        let (group, survivors) = try OrphanCheck.survivors(afterKillingProbe: "DaemonOrphanTests/busProbe")
        #expect(survivors.isEmpty, "dbus-daemon (group \(group)) outlived its killed test process by \(OrphanCheck.exitPatience) s: \(survivors)")
    }

    @Test(.disabled(if: GPSFake.unavailable != nil, Comment(rawValue: GPSFake.unavailable ?? "")))
    func aKilledTestProcessLeavesNoGpsfakeNorGpsd() throws {
        let (group, survivors) = try OrphanCheck.survivors(afterKillingProbe: "DaemonOrphanTests/gpsProbe")
        #expect(survivors.isEmpty, "gpsfake or gpsd (group \(group)) outlived its killed test process by \(OrphanCheck.exitPatience) s: \(survivors)")
    }

    @Test(.enabled(if: OrphanCheck.reportPath != nil, "the child process of aKilledTestProcessLeavesNoBusDaemon"))
    func busProbe() throws {
        let bus = try #require(try PrivateBus.start())
        try withExtendedLifetime(bus) { try OrphanCheck.report(group: bus.pid, to: OrphanCheck.reportPath!) }
    }

    @Test(.enabled(if: OrphanCheck.reportPath != nil, "the child process of aKilledTestProcessLeavesNoGpsfakeNorGpsd"))
    func gpsProbe() throws {
        let fake = try GPSFake(log: NMEAWriter.log((0..<10).map { GNSSFix(time: Double($0), speed: 1.4, accuracy: 3) }))
        // gpsd is gpsfake's child, in its process group: a survivor would be seen.
        let names = GuardedDaemon.members(ofGroup: fake.pid).map { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) ?? "" }
        try #require(names.contains("gpsd\n"), "gpsd is in gpsfake's process group: \(names)")
        try withExtendedLifetime(fake) { try OrphanCheck.report(group: fake.pid, to: OrphanCheck.reportPath!) }
    }
}
