import Foundation
import GPSFake
import IMULocation
import IMUSimulation
import Pedometer
import OffPool
import Testing

/// Debian's gpsd, fed by gpsfake with a simulated NMEA log, read through libgps. No mock gpsd.
@Suite(.offPool) struct GPSDTests {
    /// Speeds the log carries, m/s.
    static let speeds: [Double] = [0, 1.4, 3.0, 5.5, 8.0, 12.0, 30.5, 2.2]

    @Test(.timeLimitAfterGate(.seconds(3 * 60))) func readsTheLoggedSpeedsFromARealGPSD() async throws {
        if let reason = GPSFake.unavailable {
            print("GPSDTests: skipped, \(reason)")
            return
        }
        let fixes = Self.speeds.enumerated().map { GNSSFix(time: Double($0.offset), speed: $0.element, accuracy: 0.3) }
        // The log three times over at 0.05 s per sentence, so a client that connects late still sees all of it.
        let once = NMEAWriter.log(fixes, noFixAt: [Double(fixes.count) + 0.5])
        let fake = try GPSFake(log: once + once + once, cycle: 0.05)
        let port = fake.port

        let received = try await Self.onThread { () throws -> [Double] in
            let client = try GPSDClient(host: "127.0.0.1", port: port)
            try client.setWatching(true)
            let deadline = Date().addingTimeInterval(15)
            var speeds: [Double] = []
            while Date() < deadline, Set(speeds.map { ($0 * 10).rounded() }).count < Self.speeds.count {
                if case .speed(let reading) = try client.next(timeout: 1) { speeds.append(reading.metersPerSecond) }
            }
            return speeds
        }
        withExtendedLifetime(fake) {}
        // Every speed gpsd reports is one the log holds (NMEA carries knots to 0.01: ±0.003 m/s).
        for speed in received {
            #expect(Self.speeds.contains { abs($0 - speed) < 0.01 }, "gpsd reported \(speed) m/s, not in the log")
        }
        // And the whole log came through.
        let distinct = Set(received.map { ($0 * 10).rounded() })
        #expect(distinct.count == Self.speeds.count, "received \(received)")
    }

    @Test func anAbsentGPSDIsAClearErrorNotACrash() throws {
        #expect(throws: GPSDError.self) { try GPSDClient(host: "127.0.0.1", port: "1") }
        #expect(throws: GPSDError.badAddress("a:b:c")) { try GPSDClient.address("a:b:c") }
        #expect(throws: GPSDError.badAddress("host:99999")) { try GPSDClient.address("host:99999") }
        #expect(throws: GPSDError.badAddress("yes please")) { try GPSDClient.address("yes please") }
        #expect(throws: GPSDError.badAddress("pi\u{1B}[2J")) { try GPSDClient.address("pi\u{1B}[2J") }
        #expect(try GPSDClient.address(":3000") == ("localhost", "3000"))
        #expect(try GPSDClient.address("") == ("localhost", "2947"))
        #expect(try GPSDClient.address("pi.local") == ("pi.local", "2947"))
        #expect(try GPSDClient.address("[::1]:3000") == ("::1", "3000"))
        #expect(try GPSDClient.address("[fe80::1]") == ("fe80::1", "2947"))
        for bad in ["::1", "[::1", "[::1]x", "[]:2947", "host:", "host:0", "host:-1", "host:2947x"] {
            #expect(throws: GPSDError.badAddress(bad), "\(bad)") { try GPSDClient.address(bad) }
        }
    }

    /// Runs blocking work on a thread of its own, never on the cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
