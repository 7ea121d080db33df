import Foundation
import GPSFake
import IMUSimulation
import OffPool
import Testing
@testable import IMUService

/// imu-stepd with `gps = HOST:PORT` beside Debian's gpsd, fed by gpsfake (docs/gps.md), on a
/// private D-Bus. No mock gpsd.
@Suite(.offPool) struct DaemonGPSTests {
    /// Runs `body` on a thread of its own: the daemon runs for tens of seconds in real time and
    /// the test must not hold the runner's cooperative threads meanwhile.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// A smooth ride the IMU reads as sitting still, at 25 m/s by GPS: the daemon's activity is
    /// the fusion's (vehicle), its capabilities list gnss_speed while gpsd answers, and a gpsd
    /// killed under it is a logged, degraded state, not an error.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func theDaemonReadsGroundSpeedAndSurvivesLosingGPSD() async throws {
        if let reason = GPSFake.unavailable { print("DaemonGPSTests: skipped, \(reason)"); return }
        let log = NMEAWriter.log((0..<120).map { GNSSFix(time: Double($0), speed: 25, accuracy: 0.3) })
        let outcome = try await Self.offPool { () throws -> [String]? in
            guard let bus = try PrivateBus.start() else { return nil }
            let fake = try GPSFake(log: log)
            defer { fake.stop() }
            let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch() + "/state",
                                           settings: ["simulate = still:600", "gps = 127.0.0.1:\(fake.port)"])
            var problems: [String] = []
            let vehicle = try PrivateBus.waitFor(60) { busValue(try bus.property("Activity")) == "vehicle" }
            if !vehicle { problems.append("activity \(try bus.property("Activity")), not vehicle: \(daemon.log)") }
            let capable = try PrivateBus.waitFor(10) { try bus.property("SensorCapabilities").contains("\"gnss_speed\"") }
            if !capable { problems.append("capabilities \(try bus.property("SensorCapabilities")) lack gnss_speed") }

            fake.stop()
            let dropped = try PrivateBus.waitFor(10) { !(try bus.property("SensorCapabilities").contains("gnss_speed")) }
            if !dropped { problems.append("gnss_speed still listed with gpsd gone") }
            if !daemon.process.isRunning { problems.append("the daemon stopped with gpsd: \(daemon.log)") }
            let lost = daemon.log.split(separator: "\n").filter { $0.contains("lost gpsd at 127.0.0.1:\(fake.port)") }
            if lost.count != 1 { problems.append("\(lost.count) 'lost gpsd' lines: \(daemon.log)") }
            daemon.send(SIGTERM)
            let status = daemon.wait()
            if status != 0 { problems.append("exit \(String(describing: status)): \(daemon.log)") }
            return problems
        }
        guard let problems = outcome else { print("DaemonGPSTests: skipped, dbus-daemon is not installed (apt-get install dbus)"); return }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theGPSSettingIsCheckedWithItsLine() throws {
        #expect(try ServiceConfig.parse("gps = no\n", path: "stepd.conf").gpsd == nil)
        #expect(try ServiceConfig.parse("gps = yes\n", path: "stepd.conf").gpsd == "localhost:2947")
        #expect(try ServiceConfig.parse("gps = pi.lan:3000\n", path: "stepd.conf").gpsd == "pi.lan:3000")
        #expect(try ServiceConfig.parse("gps = [::1]\n", path: "stepd.conf").gpsd == "[::1]:2947")
        do {
            _ = try ServiceConfig.parse("rate = 100\ngps = host:port\n", path: "/etc/imukit/stepd.conf")
            Issue.record("gps = host:port was accepted")
        } catch let e as ConfigError {
            #expect(e.description.hasPrefix("/etc/imukit/stepd.conf:2: gps = 'host:port'"), "\(e)")
            #expect(e.fix?.contains("gps = HOST:PORT") == true)
        }
    }
}
