import Foundation
import OffPool
import Testing

/// imu-stepd whose standard output and error lead to a pipe whose reader has gone (run by hand
/// as `imu-stepd 2>&1 | head`, or a log collector that died): its log lines (IMUKIT_LOG_STDERR,
/// as without the journal) cannot be written. It used to die from SIGPIPE at its first line;
/// with SIGPIPE ignored, Foundation's FileHandle.write would trap on EPIPE instead. It must
/// keep serving and counting (ServiceLog drops the line).
@Suite(.offPool, .serialized) struct DaemonClosedLogTests {
    @Test func theDaemonKeepsCountingWhenItsLogReaderIsGone() throws {
        guard let bus = try PrivateBus.start() else { return print("skipped: dbus-daemon is not installed (apt-get install dbus)") }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"],
                                       logReaderGone: true)
        // "serving … on the … bus" is logged before the first step is counted.
        let counting = try PrivateBus.waitFor(20) { (Int(busValue(try bus.property("TodaySteps"))) ?? 0) > 10 }
        #expect(counting, "status \(daemon.process.isRunning ? "running" : "\(daemon.process.terminationStatus)")")
        #expect(daemon.process.isRunning, "reason \(daemon.process.isRunning ? 0 : daemon.process.terminationReason.rawValue)")
    }
}
