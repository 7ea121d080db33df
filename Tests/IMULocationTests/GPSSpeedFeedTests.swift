import Foundation
import GPSFake
import IMULocation
import IMUSimulation
import Pedometer
import Synchronization
import OffPool
import Testing

/// The feed a tool runs (`imu-steps --gps`, `imu-record`): Debian's gpsd through gpsfake, killed
/// and restarted under it; the WATCH lever with the real gpsd. No mock gpsd.
@Suite(.offPool, .serialized) struct GPSSpeedFeedTests {
    /// Lines the feed said, collected across its thread.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func add(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    /// A log of `seconds` fixes at `speed` m/s, one a second.
    static func log(speed: Double, seconds: Int) -> String {
        NMEAWriter.log((0..<seconds).map { GNSSFix(time: Double($0), speed: speed, accuracy: 0.3) })
    }

    /// How long a condition may take to come true: gpsfake feeds gpsd one sentence at a time, and
    /// under a loaded 2-core CI machine (the whole suite runs in parallel) a first report took more
    /// than 10 s. A passing wait returns as soon as the condition holds, so a long bound costs nothing.
    static let patience: Double = 40

    /// Polls `condition` every 50 ms for up to `timeout` seconds (sleeping, off the cooperative pool's back).
    static func eventually(_ timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    @Test(.timeLimitAfterGate(.seconds(3 * 60))) func aKilledGPSDIsOneMessageAndItsReturnIsSeen() async throws {
        if let reason = GPSFake.unavailable {
            print("GPSSpeedFeedTests: skipped, \(reason)")
            return
        }
        var fake: GPSFake? = try GPSFake(log: Self.log(speed: 8, seconds: 150))
        let port = fake!.port
        let lines = Lines()
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: port, settings: "") { lines.add($0) }
        feed.start()
        defer { feed.stop() }
        #expect(await Self.eventually(Self.patience) { feed.currentSpeed() != nil }, "no speed from gpsd: \(lines.all)")
        #expect(abs((feed.currentSpeed()?.metersPerSecond ?? 0) - 8) < 0.01)

        fake = nil   // SIGKILL to gpsd and gpsfake
        #expect(await Self.eventually(Self.patience) { feed.status.connection != .connected })
        if case .lost = feed.status.connection {} else { Issue.record("after the kill: \(feed.status.connection)") }
        #expect(feed.currentSpeed() == nil, "a lost gpsd leaves no speed behind")
        // Several reconnection attempts fail while gpsd is gone: still one message.
        try await Task.sleep(for: .seconds(2 * GPSSpeedFeed.retryInterval + 0.5))
        #expect(lines.all.filter { $0.contains("lost gpsd at 127.0.0.1:\(port)") }.count == 1, "\(lines.all)")
        #expect(lines.all.count == 2, "\(lines.all)")

        let back = try GPSFake(log: Self.log(speed: 3, seconds: 150), port: port)
        #expect(await Self.eventually(Self.patience) { feed.currentSpeed().map { abs($0.metersPerSecond - 3) < 0.01 } ?? false },
                "gpsd came back but no speed: \(lines.all), \(feed.status)")
        #expect(lines.all.last?.contains("is back") == true, "\(lines.all)")
        #expect(feed.status.losses == 1)
        withExtendedLifetime(back) {}
    }

    @Test(.timeLimitAfterGate(.seconds(3 * 60))) func reportsFlowOnlyWhileWanted() async throws {
        if let reason = GPSFake.unavailable {
            print("GPSSpeedFeedTests: skipped, \(reason)")
            return
        }
        let fake = try GPSFake(log: Self.log(speed: 12, seconds: 150))
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: fake.port, wanted: false, settings: "") { _ in }
        feed.start()
        defer { feed.stop() }
        #expect(await Self.eventually(Self.patience) { feed.status.connection == .connected })
        // Not wanted: gpsd sends nothing (WATCH off), though its receiver reports every second.
        try await Task.sleep(for: .seconds(3))
        #expect(feed.status.readings == 0)
        #expect(feed.status.watching == false)
        feed.setWanted(true)
        #expect(await Self.eventually(Self.patience) { feed.status.readings >= 2 }, "\(feed.status)")
        #expect(feed.status.watching)
        feed.setWanted(false)
        #expect(await Self.eventually(Self.patience) { !feed.status.watching })
        try await Task.sleep(for: .seconds(1))   // a report already on its way may still arrive
        let settled = feed.status.readings
        try await Task.sleep(for: .seconds(3))
        #expect(feed.status.readings == settled, "reports kept coming with WATCH off")
        withExtendedLifetime(fake) {}
    }

    @Test func anAbsentGPSDIsOneMessageAndNoSpeed() async throws {
        let port = GPSFake.freePort()
        let lines = Lines()
        let feed = GPSSpeedFeed(host: "127.0.0.1", port: port, settings: "check the address (--gpsd HOST:PORT)") { lines.add($0) }
        feed.start()
        defer { feed.stop() }
        #expect(await Self.eventually(5) { feed.status.connection != .starting })
        try await Task.sleep(for: .seconds(GPSSpeedFeed.retryInterval + 0.5))   // a retry, silently
        #expect(lines.all.count == 1, "\(lines.all)")
        let line = lines.all.first ?? ""
        #expect(line.contains("gpsd at 127.0.0.1:\(port) is not reachable"), "\(line)")
        #expect(line.contains("systemctl start gpsd") && line.contains("--gpsd HOST:PORT"), "names the fix: \(line)")
        #expect(line.contains("IMU alone"), "\(line)")
        #expect(feed.currentSpeed() == nil)
    }

    @Test func probeSaysReachableOrNot() async throws {
        let port = GPSFake.freePort()
        guard case .unreachable(let message) = await GPSProbe.check(host: "127.0.0.1", port: port, wait: 0.5) else {
            Issue.record("nothing listens on \(port), yet the probe reached gpsd")
            return
        }
        #expect(message.contains("127.0.0.1:\(port)"))
        if let reason = GPSFake.unavailable {
            print("GPSSpeedFeedTests: fix part skipped, \(reason)")
            return
        }
        let fake = try GPSFake(log: Self.log(speed: 5, seconds: 30))
        // gpsfake starts its replay only once gpsd has the device: on a loaded 2-core machine (the
        // whole suite in parallel) that took over 10 s once, so the probe may wait most of the log.
        let answer = await GPSProbe.check(host: "127.0.0.1", port: fake.port, wait: 25)
        guard case .fix(let speed, _, _) = answer else {
            Issue.record("gpsd with a fix at 5 m/s, yet the probe said \(answer)")
            return
        }
        #expect(abs(speed - 5) < 0.01)
    }

    /// Privacy at the source: the library reads a report's speed, its error and its fix mode, and
    /// no field of a position (docs/gps.md). A change that starts reading one fails here.
    @Test func theLibraryNeverReadsAPosition() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/IMULocation").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.contains("GPSDClient.swift"))
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for field in [".latitude", ".longitude", ".altitude", ".altHAE", ".altMSL", "ecef", "NED", "LATLON_SET", "ALTITUDE_SET"] {
                #expect(!text.contains(field), "\(file) reads \(field)")
            }
        }
    }
}
