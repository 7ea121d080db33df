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

    /// With the wall clock not set (a Pi without RTC before NTP) the daemon keeps minutes by boot
    /// time, in no day: `--today` said "0 steps" with hundreds counted, and nothing more.
    @Test func totalsFromADaemonWithoutAWallClockSaySo() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["simulate = walk:600", "speed = 10"], clock: "auto")
        defer { withExtendedLifetime(daemon) {} }
        #expect(PrivateBus.waitFor(20) { (try? bus.property("SensorState"))?.contains("running") == true }, "\(daemon.log)")
        guard try bus.property("ClockSynchronized").contains("false") else {
            print("skipped: this machine's clock is synchronised (NTP or RTC), so imu-stepd places every minute")
            return
        }
        Thread.sleep(forTimeInterval: 3)   // s: steps counted (10× real time: 30 s of walking)
        let env = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        for arguments in [["--today"], ["--history", "2d", "--json"], ["--since", "00:00"]] {
            let r = try Run.command([DaemonProcess.tool("imu-steps")] + arguments, environment: env)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("imu-steps: warning: imu-stepd's wall clock is not synchronised yet")
                        && r.stderr.contains("these totals miss them") && r.stderr.contains("set clock = trust in \(daemon.configPath)"),
                    "\(arguments): \(r.stderr)")
        }
    }

    /// A daemon without a sensor (lost, or not there at all) or paused: `--today` said "0 steps",
    /// exit 0, and nothing more.
    @Test func totalsFromADaemonThatIsNotCountingSaySo() throws {
        guard let bus = try PrivateBus.start() else { print("skipped: dbus-daemon is not installed"); return }
        let daemon = try DaemonProcess(bus: bus, stateDirectory: try scratch(), settings: ["source = i2c:/dev/i2c-99@0x68"])
        defer { withExtendedLifetime(daemon) {} }
        #expect(PrivateBus.waitFor(20) { (try? bus.property("SensorState"))?.contains("lost") == true }, "\(daemon.log)")
        let env = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        let today = try Run.command([DaemonProcess.tool("imu-steps"), "--today"], environment: env)
        #expect(today.status == 0 && today.stdout.hasPrefix("today: 0 steps"), "\(today.stdout) \(today.stderr)")
        #expect(today.stderr.contains("imu-steps: warning: imu-stepd is not counting now: its sensor is lost (/dev/i2c-99: no such I²C adapter"),
                "\(today.stderr)")
        #expect(today.stderr.contains("these totals hold what it counted before"), "\(today.stderr)")
        guard getuid() == 0 else { print("skipped: only root (or group imukit) may pause the daemon"); return }
        _ = try bus.call("Pause")
        let paused = try Run.command([DaemonProcess.tool("imu-steps"), "--since", "00:00", "--json"], environment: env)
        #expect(paused.status == 0, "\(paused.stderr)")
        #expect(paused.stderr.contains("imu-steps: warning: imu-stepd's counting is paused, so these totals hold nothing since the pause; resume it with: busctl call"),
                "\(paused.stderr)")
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
