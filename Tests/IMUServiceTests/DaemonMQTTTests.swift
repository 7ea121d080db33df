import DaemonGuard
import Foundation
import OffPool
import Testing
@testable import IMUService

/// imu-stepd publishing to Debian's real Mosquitto broker (docs/mqtt.md), on a private D-Bus.
@Suite(.offPool, .serialized) struct DaemonMQTTTests {
    static let broker = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func theDaemonPublishesTodaysTotals() throws {
        guard let brokerBinary = Self.broker, FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub") else {
            print("skipped: Debian's mosquitto and mosquitto-clients are not installed (apt-get install mosquitto mosquitto-clients)")
            return
        }
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed (apt-get install dbus)"); return }
        let directory = try scratch()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = Int.random(in: 20_000...40_000)
        let conf = directory + "/mosquitto.conf"
        try "persistence false\nlistener \(port) 127.0.0.1\nallow_anonymous true\n".write(toFile: conf, atomically: true, encoding: .utf8)
        // Killed at the end, also when the test process dies (GuardedDaemon).
        let mosquitto = try GuardedDaemon(brokerBinary, ["-c", conf])
        defer { mosquitto.stop() }
        usleep(300_000)

        let daemon = try DaemonProcess(bus: bus, stateDirectory: directory + "/state",
                                       settings: ["simulate = walk:600", "speed = 10",
                                                  "mqtt_broker = mqtt://127.0.0.1:\(port)", "mqtt_device_id = stepd-test"])
        // The bus counts steps still pending; MQTT publishes committed ones. A bout's first steps stay
        // pending until it began 13 s ago (StepSettings: longest chain 8 s + hold 5 s, docs/steps.md),
        // about 26 steps at the simulated walk's 2 steps/s, so wait until the bus is well past that.
        let walking = try PrivateBus.waitFor(30) { (Int(busValue(try bus.property("TodaySteps"))) ?? 0) > 40 }
        #expect(walking, "\(daemon.log)")
        let sub = try Run.command(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-v", "-C", "3", "-W", "10",
                                   "-t", "imukit/stepd-test/state", "-t", "imukit/stepd-test/availability",
                                   "-t", "homeassistant/sensor/stepd-test/steps_today/config"])
        #expect(sub.stdout.contains("imukit/stepd-test/availability online"), "\(sub.stdout) \(daemon.log)")
        #expect(sub.stdout.contains("\"state_class\":\"total_increasing\""), "\(sub.stdout)")
        // The Home Assistant device names the software as --version does ("0.y.z (git abcdef1)").
        let version = try Run.command([DaemonProcess.tool("imu-stepd"), "--version"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "imu-stepd ", with: "")
        #expect(!version.isEmpty && sub.stdout.contains("\"sw_version\":\"\(version)\""), "\(version) \(sub.stdout)")
        let line = try #require(sub.stdout.split(separator: "\n").first { $0.hasPrefix("imukit/stepd-test/state ") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst("imukit/stepd-test/state ".count).utf8))
            as? [String: Any])
        let published = try #require(json["steps_today"] as? Int)
        let onBus = Int(busValue(try bus.property("TodaySteps"))) ?? -1
        // The retained state trails the bus by at most a second or two, and follows it.
        #expect(published > 0 && published <= onBus, "published \(published), bus \(onBus)")
        #expect(json["activity"] as? String == "walking", "\(line)")
        usleep(3_000_000)
        let later = try Run.command(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-C", "1", "-W", "5",
                                     "-t", "imukit/stepd-test/state"])
        let laterJSON = try JSONSerialization.jsonObject(with: Data(later.stdout.utf8)) as? [String: Any]
        #expect((laterJSON?["steps_today"] as? Int ?? 0) > published, "\(later.stdout)")
        daemon.send(SIGTERM)
        #expect(daemon.wait() == 0, "\(daemon.log)")
        let after = try Run.command(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-C", "1", "-W", "5",
                                     "-t", "imukit/stepd-test/availability"])
        #expect(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "offline")
        #expect(daemon.log.contains("MQTT: connected to mqtt://127.0.0.1:\(port)"), "\(daemon.log)")

        // A daemon that dies without a word: the broker publishes its last will.
        let again = try DaemonProcess(bus: bus, stateDirectory: directory + "/state",
                                      settings: ["simulate = walk:600", "speed = 10",
                                                 "mqtt_broker = mqtt://127.0.0.1:\(port)", "mqtt_device_id = stepd-test"])
        let online = try PrivateBus.waitFor(30) {
            try Run.command(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-C", "1", "-W", "2",
                             "-t", "imukit/stepd-test/availability"]).stdout.hasPrefix("online")
        }
        #expect(online, "\(again.log)")
        again.send(SIGKILL)
        _ = again.wait()
        let will = try PrivateBus.waitFor(10) {
            try Run.command(["/usr/bin/mosquitto_sub", "-h", "127.0.0.1", "-p", "\(port)", "-C", "1", "-W", "2",
                             "-t", "imukit/stepd-test/availability"]).stdout.hasPrefix("offline")
        }
        #expect(will, "the last will did not mark the device offline")
    }

    @Test func aBadBrokerSettingNamesItsLine() {
        #expect {
            try ServiceConfig.parse("bus = session\nmqtt_broker = http://broker.lan\n", path: "/etc/imukit/stepd.conf")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("/etc/imukit/stepd.conf:2: ") && (error as? ConfigError)?.fix?.contains("mqtt://HOST:1883") == true
        }
        #expect {
            try ServiceConfig.parse("mqtt_broker = mqtt://h\nmqtt_device_id = a/b\n", path: "c")
        } throws: { "\($0)".contains("mqtt_device_id") }
        // The CA file is read with the config: it must hold a PEM certificate.
        let ca = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(getpid()).pem").path
        try? "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(toFile: ca, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: ca) }
        let config = try? ServiceConfig.parse("mqtt_broker = mqtts://broker.lan\nmqtt_ca_file = \(ca)\n", path: "c")
        #expect(config?.mqtt?.broker.port == 8883 && config?.mqtt?.caFile == ca)
        #expect((try? ServiceConfig.parse("bus = session\n", path: "c"))?.mqtt == nil)
    }
}
