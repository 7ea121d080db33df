import DaemonGuard
import Foundation
import GPSFake
import IMUSimulation
import OffPool
import Testing

/// imu-stepd's open descriptors over time: D-Bus queries, gpsd and the MQTT broker going away
/// and coming back, on a private bus with Debian's real gpsd (gpsfake) and mosquitto.
@Suite(.offPool) struct DaemonDescriptorTests {
    static let broker = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Each of the daemon's resources is opened once and a reconnection replaces the connection it
    /// lost (docs/testing-crashes.md): after every query and every lost and regained gpsd and
    /// broker the count of open descriptors is at most what it was with all of them connected
    /// once. A leak of one descriptor per query or per reconnection shows as growth.
    @Test(.timeLimitAfterGate(.seconds(5 * 60))) func queriesAndReconnectionsLeaveTheDescriptorCountFlat() throws {
        if let reason = GPSFake.unavailable { print("DaemonDescriptorTests: skipped, \(reason)"); return }
        guard let brokerBinary = Self.broker else { print("DaemonDescriptorTests: skipped, mosquitto is not installed (apt-get install mosquitto)"); return }
        guard let bus = try PrivateBus.start() else { print("DaemonDescriptorTests: skipped, dbus-daemon is not installed (apt-get install dbus)"); return }
        let directory = try scratch()
        let mqttPort = Int(GPSFake.freePort())!
        let conf = directory + "/mosquitto.conf"
        try "persistence false\nlistener \(mqttPort) 127.0.0.1\nallow_anonymous true\n".write(toFile: conf, atomically: true, encoding: .utf8)
        var mosquitto = try GuardedDaemon(brokerBinary, ["-c", conf])
        let log = NMEAWriter.log((0..<120).map { GNSSFix(time: Double($0), speed: 1.4, accuracy: 3) })
        var fake = try GPSFake(log: log)
        let gpsPort = fake.port
        let daemon = try DaemonProcess(bus: bus, stateDirectory: directory + "/state",
                                       settings: ["simulate = walk:600", "gps = 127.0.0.1:\(gpsPort)",
                                                  "mqtt_broker = mqtt://127.0.0.1:\(mqttPort)", "mqtt_device_id = fds"])
        defer { mosquitto.stop(); fake.stop() }
        func lines(_ text: String) -> Int { daemon.log.components(separatedBy: text).count - 1 }
        func open() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd").count) ?? 0 }
        func connected() throws -> Bool {
            try bus.property("SensorCapabilities").contains("\"gnss_speed\"") && lines("MQTT: connected") >= 1
                && (Int(busValue(try bus.property("TodaySteps"))) ?? 0) > 0
        }
        try #require(try PrivateBus.waitFor(60) { try connected() }, "\(daemon.log)")
        let before = open()

        for round in 1...2 {
            for _ in 0..<10 { _ = try bus.property("TodaySteps"); _ = try bus.call("GetAll", "s", ["io.github.imukit.StepService1"], interface: "org.freedesktop.DBus.Properties") }
            fake.stop()
            mosquitto.stop()
            #expect(PrivateBus.waitFor(30) { lines("lost gpsd") == round && lines("MQTT: the connection") == round }, "\(daemon.log)")
            fake = try GPSFake(log: log, port: gpsPort)
            mosquitto = try GuardedDaemon(brokerBinary, ["-c", conf])
            // The broker's reconnection backs off up to 60 s (docs/mqtt.md).
            #expect(PrivateBus.waitFor(90) { lines("gpsd at 127.0.0.1:\(gpsPort) is back") == round && lines("again after") == round }, "\(daemon.log)")
        }
        let after = open()
        #expect(after <= before, "imu-stepd held \(before) descriptors with everything connected, \(after) after 2 rounds of 20 queries and gpsd and the broker lost and regained")
        daemon.send(SIGTERM)
        #expect(daemon.wait() == 0, "\(daemon.log)")
    }
}
