import Foundation
import IMUServiceClient
import OffPool
import Testing

/// imu-steps and the async client library asking a running imu-stepd on a private bus.
@Suite(.offPool, .serialized) struct ClientToolTests {
    @Test func imuStepsTodayHistoryAndSinceAskTheDaemon() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(try PrivateBus.waitFor(20) { (Int(busValue(try bus.property("TodaySteps"))) ?? 0) > 20 }, "\(daemon.log)")
        let env = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        let steps = DaemonProcess.tool("imu-steps")
        let today = try Run.command([steps, "--today", "--json"], environment: env)
        #expect(today.status == 0, "\(today.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [String: Any]
        #expect(json?["type"] as? String == "today")
        #expect((json?["steps"] as? Int ?? 0) > 20, "\(today.stdout)")
        let history = try Run.command([steps, "--history", "3d"], environment: env)
        #expect(history.status == 0, "\(history.stderr)")
        let rows = history.stdout.split(separator: "\n")
        #expect(rows.count == 5, "header, 3 days, total: \(history.stdout)")
        #expect(rows.last?.hasPrefix("total") == true)
        let since = try Run.command([steps, "--since", "00:00"], environment: env)
        #expect(since.status == 0 && since.stdout.contains("steps"), "\(since.stderr)")
    }

    @Test func theLibraryAsksAsynchronously() async throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"])
        defer { withExtendedLifetime(daemon) {} }
        let client = StepServiceClient(bus: .address(bus.address))
        #expect(try PrivateBus.waitFor(20) { (Int(busValue(try bus.property("TodaySteps"))) ?? 0) > 20 })
        #expect(await client.isRunning())
        let status = try await client.status()
        #expect(status.sensorState == "running" && status.today.steps > 20)
        let now = Date()
        let totals = try await client.totals(from: now.addingTimeInterval(-3600), to: now.addingTimeInterval(60))
        #expect(totals.steps >= status.today.steps)
        let days = try await client.days(from: now.addingTimeInterval(-86_400), to: now)
        #expect(days.count == 2 && days.last!.steps > 0)
        var updates = 0
        for try await s in client.updates() {
            updates += 1
            #expect(s.today.steps >= status.today.steps)
            if updates == 3 { break }
        }
        if getuid() == 0 {  // root may pause (the policy and the daemon both allow it)
            try await client.pause()
            #expect(try await client.status().paused)
            try await client.resume()
            #expect(try await client.status().paused == false)
        }
        let stopped = StepServiceClient(bus: .address(bus.address + "-absent"))
        #expect(await stopped.isRunning() == false)
    }
}
