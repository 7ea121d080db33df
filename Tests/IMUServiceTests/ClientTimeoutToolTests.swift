import Foundation
import OffPool
import Testing

/// imu-steps asking an imu-stepd that does not answer (stopped with SIGSTOP: stuck or swamped).
@Suite(.offPool, .serialized) struct ClientTimeoutToolTests {
    /// It said "QueryTotals: Connection timed out", naming neither the daemon nor a fix.
    @Test func aDaemonThatDoesNotAnswerIsNamedWithTheFix() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"])
        defer { daemon.send(SIGCONT); withExtendedLifetime(daemon) {} }
        #expect(try PrivateBus.waitFor(20) { (Int(busValue(try bus.property("TodaySteps"))) ?? -1) >= 0 }, "\(daemon.log)")
        daemon.send(SIGSTOP)
        let r = try Run.command([DaemonProcess.tool("imu-steps"), "--today"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("the step daemon imu-stepd (io.github.imukit.StepService1) did not answer QueryTotals within"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: see what it is doing: systemctl status imu-stepd"), "stderr: \(r.stderr)")
    }
}
