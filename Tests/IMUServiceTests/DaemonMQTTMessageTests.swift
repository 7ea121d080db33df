import Foundation
import OffPool
import Testing

/// imu-stepd refusing a bad MQTT credentials file, as a user reads it on the terminal.
@Suite(.offPool, .serialized) struct DaemonMQTTMessageTests {
    /// The fix was printed twice: inside the message ("…; fix: create it with the two lines …")
    /// and on the fix line.
    @Test func aMissingCredentialsFileGivesItsFixOnce() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(),
                                       settings: ["simulate = walk", "mqtt_broker = mqtt://127.0.0.1:1", "mqtt_credentials = /nonexistent/mqtt-credentials"])
        let status = daemon.wait(timeout: 30)
        #expect(status == 2, "\(daemon.log)")
        #expect(daemon.log.contains("MQTT credentials /nonexistent/mqtt-credentials"), "\(daemon.log)")
        #expect(daemon.log.components(separatedBy: "create it with the two lines username=NAME and password=SECRET").count == 2, "the fix once: \(daemon.log)")
    }
}
