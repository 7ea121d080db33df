import Foundation
import IMULocation
import IMUSimulation
import Pedometer
import Testing

/// Debian's gpsd, fed by gpsfake with a simulated NMEA log, read through libgps. No mock gpsd.
@Suite struct GPSDTests {
    /// Speeds the log carries, m/s.
    static let speeds: [Double] = [0, 1.4, 3.0, 5.5, 8.0, 12.0, 30.5, 2.2]

    @Test(.timeLimit(.minutes(1))) func readsTheLoggedSpeedsFromARealGPSD() async throws {
        guard let gpsfake = Self.which("gpsfake"), Self.which("gpsd") ?? Self.which("/usr/sbin/gpsd") != nil else {
            print("GPSDTests: skipped, gpsfake or gpsd is not installed (apt-get install gpsd gpsd-clients)")
            return
        }
        let fixes = Self.speeds.enumerated().map { GNSSFix(time: Double($0.offset), speed: $0.element, accuracy: 0.3) }
        let log = NMEAWriter.log(fixes, noFixAt: [Double(fixes.count) + 0.5])
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-gpsd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("ride.nmea").path
        try log.write(toFile: path, atomically: true, encoding: .utf8)

        let port = String(Int.random(in: 30000...45000))
        let process = Process()
        // In a session of its own (setsid), so that gpsfake and the gpsd it starts stop together.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        // -w: setsid waits for gpsfake, so the process stays the one to stop.
        // Repeat the log (no -1) at 0.05 s per sentence, so a client that connects late still sees all of it.
        process.arguments = ["-w", gpsfake, "-q", "-P", port, "-c", "0.05", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { Self.stop(process) }

        let received = try await Self.onThread { () throws -> [Double] in
            var client: GPSDClient?
            let deadline = Date().addingTimeInterval(15)
            while client == nil, Date() < deadline {
                client = try? GPSDClient(host: "127.0.0.1", port: port)
                if client == nil { Thread.sleep(forTimeInterval: 0.2) }
            }
            guard let client else { throw GPSDError.unreachable(host: "127.0.0.1", port: port, reason: "gpsfake did not start") }
            try client.setWatching(true)
            var speeds: [Double] = []
            while Date() < deadline, Set(speeds.map { ($0 * 10).rounded() }).count < Self.speeds.count {
                if case .speed(let reading) = try client.next(timeout: 1) { speeds.append(reading.metersPerSecond) }
            }
            return speeds
        }
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
        #expect(try GPSDClient.address(":3000") == ("localhost", "3000"))
    }

    /// Stops gpsfake and its gpsd: the session (setsid forks when it leads a group, so the
    /// session is found from gpsfake's children) gets SIGKILL; gpsfake ignores SIGINT and SIGTERM
    /// while it waits. Only processes of the session this test started are signalled.
    static func stop(_ process: Process) {
        let sessions = Set(children(of: process.processIdentifier).map { getsid($0) } + [getsid(process.processIdentifier)])
        for session in sessions where session > 1 && session != getsid(0) { kill(-session, SIGKILL) }
        process.terminate()
        process.waitUntilExit()
    }

    /// Direct children of `pid`, from /proc.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return [] }
        return text.split(separator: " ").compactMap { pid_t($0) }
    }

    static func which(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for dir in ["/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin", "/sbin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        return nil
    }

    /// Runs blocking work on a thread of its own, never on the cooperative pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
