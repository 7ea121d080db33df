import Foundation
import IMUServiceClient
import Synchronization
import OffPool
import Testing
@testable import IMUService

/// Sharing the IIO buffer with iio-sensor-proxy (docs/service.md, Sharing): the daemon learns
/// whether `net.hadess.SensorProxy` is owned from a real private dbus-daemon, with a real other
/// process (dbus-test-tool from Debian's dbus-tests) owning the name; the engine shows each state.
/// The capture switches themselves run on real IIO drivers in the kernel ring
/// (Tests/kernel/test_sharing.py).
@Suite(.offPool, .serialized) struct SharingTests {
    static let proxyName = "net.hadess.SensorProxy"
    static let testTool = "/usr/bin/dbus-test-tool"

    /// A process owning `name` on `bus` until killed: `dbus-test-tool black-hole`, which takes the
    /// name on the session bus its environment names.
    final class NameOwner {
        let process = Process()
        init(_ name: String, on bus: PrivateBus) throws {
            process.executableURL = URL(fileURLWithPath: SharingTests.testTool)
            process.arguments = ["black-hole", "--session", "--name=\(name)"]
            var env = ProcessInfo.processInfo.environment
            env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        func kill9() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        deinit { if process.isRunning { kill9() } }
    }

    func start() throws -> PrivateBus? {
        guard FileManager.default.isExecutableFile(atPath: Self.testTool) else {
            print("skipped: dbus-test-tool is not installed (apt-get install dbus-tests)")
            return nil
        }
        guard let bus = try PrivateBus.start(allowOwning: [Self.proxyName]) else {
            print("skipped: dbus-daemon is not installed (apt-get install dbus)")
            return nil
        }
        return bus
    }

    /// Waits for `watch.waitUntil(present:)` to return, up to `seconds`; true when it did.
    func returns(_ watch: BusNameWatch, present: Bool, within seconds: Double) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await watch.waitUntil(present: present); return !Task.isCancelled }
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)); return false }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    @Test func theWatchFollowsAnotherProcessTakingAndLeavingTheName() async throws {
        guard let bus = try start() else { return }
        let changes = ChangeLog()
        let watch = try await BusNameWatch(name: Self.proxyName, bus: .address(bus.address), onChange: { changes.add($0) })
        defer { watch.stop() }
        #expect(!watch.isPresent && watch.owner.isEmpty)
        // Nobody owns it: waiting for it to be absent returns at once, for it to appear does not.
        #expect(await returns(watch, present: false, within: 1))
        #expect(!(await returns(watch, present: true, within: 0.5)))

        let owner = try NameOwner(Self.proxyName, on: bus)
        #expect(await returns(watch, present: true, within: 10), "no NameOwnerChanged seen")
        #expect(watch.owner.hasPrefix(":"), "a unique name: \(watch.owner)")
        let busctl = try bus.busctl(["status", Self.proxyName])
        #expect(busctl.stdout.contains("PID=\(owner.process.processIdentifier)"), "the owner is that process: \(busctl.stdout)")

        // kill -9: the bus daemon drops the name with the connection.
        owner.kill9()
        #expect(await returns(watch, present: false, within: 10))
        #expect(!watch.isPresent)
        #expect(changes.all.count == 2 && changes.all.last == "", "\(changes.all)")
    }

    @Test func aNameAlreadyOwnedIsSeenAtStart() async throws {
        guard let bus = try start() else { return }
        let owner = try NameOwner(Self.proxyName, on: bus)
        #expect(PrivateBus.waitFor(10) { (try? bus.busctl(["status", Self.proxyName]).status) == 0 })
        let watch = try await BusNameWatch(name: Self.proxyName, bus: .address(bus.address))
        defer { watch.stop() }
        #expect(watch.isPresent, "GetNameOwner at start")
        owner.kill9()
        #expect(await returns(watch, present: false, within: 10))
    }

    @Test func anotherNameChangingHandsIsNotSeen() async throws {
        guard let bus = try PrivateBus.start(allowOwning: [Self.proxyName, "org.example.Other"]),
              FileManager.default.isExecutableFile(atPath: Self.testTool) else { return print("skipped: dbus-daemon or dbus-test-tool missing") }
        let changes = ChangeLog()
        let watch = try await BusNameWatch(name: Self.proxyName, bus: .address(bus.address), onChange: { changes.add($0) })
        defer { watch.stop() }
        let other = try NameOwner("org.example.Other", on: bus)
        #expect(PrivateBus.waitFor(10) { (try? bus.busctl(["status", "org.example.Other"]).status) == 0 })
        other.kill9()
        usleep(300_000)
        #expect(changes.all.isEmpty && !watch.isPresent, "\(changes.all)")
    }

    /// The bus daemon dies (a crash, `systemctl restart dbus`): the watch says so, ends its
    /// waiters with false so the supervisor decides again, takes the name as absent, and watches
    /// again once the bus is back.
    @Test func aWatchWhoseBusGoesAwaySaysSoEndsItsWaitersAndWatchesAgain() async throws {
        guard let bus = try start() else { return }
        let failures = ChangeLog(), restored = ChangeLog()
        let owner = try NameOwner(Self.proxyName, on: bus)
        #expect(PrivateBus.waitFor(10) { (try? bus.busctl(["status", Self.proxyName]).status) == 0 })
        let watch = try await BusNameWatch(name: Self.proxyName, bus: .address(bus.address),
                                           onFailure: { failures.add($0) }, onRestored: { restored.add("") })
        defer { watch.stop() }
        #expect(watch.isPresent)
        // The supervisor's wait while it polls for iio-sensor-proxy.
        let waiter = Task { await watch.waitUntil(present: false) }
        try await Task.sleep(nanoseconds: 200_000_000)
        bus.kill9()
        owner.kill9()
        let ended = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await waiter.value }
            group.addTask { try? await Task.sleep(nanoseconds: 10_000_000_000); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        waiter.cancel()
        #expect(ended == false, "the waiter ends with false (watch lost), not left waiting: \(String(describing: ended))")
        #expect(failures.all.count == 1 && failures.all.first?.contains(Self.proxyName) == true, "\(failures.all)")
        #expect(!watch.isPresent, "taken as absent while not watched")

        // The bus comes back with the name owned: the watch connects again (backoff from 1 s).
        try bus.restart()
        let again = try NameOwner(Self.proxyName, on: bus)
        defer { again.kill9() }
        #expect(await returns(watch, present: true, within: 15), "watching again after the bus came back")
        #expect(restored.all.count == 1 && failures.all.count == 1, "restored \(restored.all), failures \(failures.all)")
    }

    @Test func aNameThatIsNotADBusNameIsRefused() async throws {
        for bad in ["", "net..SensorProxy", "net.hadess.Sensor'Proxy", "1net.hadess"] {
            #expect(!BusNameWatch.isValid(bad), "\(bad)")
            await #expect(throws: BusError.self) { try await BusNameWatch(name: bad, bus: .address("unix:path=/nonexistent")) }
        }
        #expect(BusNameWatch.isValid(Self.proxyName))
    }

    @Test func onlyASourceThatCanBeIIOIsWatched() async throws {
        for (text, iio) in [("", true), ("source = iio:local:", true), ("source = i2c:/dev/i2c-1@0x68", false),
                            ("simulate = walk", false), ("replay = /tmp/x.csv", false)] {
            #expect(try ServiceConfig.parse(text, path: "x").sourceCanBeIIO == iio, "\(text)")
        }
        guard let bus = try start() else { return }
        let log = ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"])
        var config = try ServiceConfig.parse("source = iio:local:\nbus = \(bus.address)", path: "x")
        let watch = await StepDaemon.watchYieldName(config, log: log)
        #expect(watch?.name == Self.proxyName, "an IIO source watches \(Self.proxyName)")
        watch?.stop()
        config.yieldTo = ""
        #expect(await StepDaemon.watchYieldName(config, log: log) == nil, "yield_to = no")
        config = try ServiceConfig.parse("simulate = walk\nbus = \(bus.address)", path: "x")
        #expect(await StepDaemon.watchYieldName(config, log: log) == nil, "a simulation has no IIO buffer to leave")
    }

    @Test func everySharingStateIsShownWithItsReason() async throws {
        let h = try await EngineHarness()
        let (info, _) = try await EngineHarness.batches("walk:1")
        let supervisor = SensorSupervisor(config: ServiceConfig(), engine: h.engine, log: ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"]))
        let yielding = supervisor.polledReason(.yielding)
        #expect(yielding.contains("iio-sensor-proxy (net.hadess.SensorProxy)") && yielding.contains("50 Hz"), "\(yielding)")
        h.engine.send(.sensor(.running(info, captureMode: "polled", reason: yielding)))
        var s = h.status { $0.captureMode == "polled" }
        #expect(s.sensorState == "running" && s.sensorMessage == yielding, "\(s)")

        let waiting = supervisor.waitingReason("mpu6050")
        h.engine.send(.sensor(.waiting(waiting)))
        s = h.status { $0.sensorState == "waiting" }
        #expect(s.captureMode == "none" && s.sensorMessage == waiting && s.cadence == 0, "\(s)")
        #expect(waiting.contains("mpu6050") && waiting.contains("screen off"))

        h.engine.send(.sensor(.running(info, captureMode: "buffered")))
        s = h.status { $0.captureMode == "buffered" }
        #expect(s.sensorState == "running" && s.sensorMessage.isEmpty, "\(s)")
        let held = supervisor.polledReason(.held("bmi160"))
        #expect(held.contains("bmi160") && held.contains("held by another reader"))
        #expect(h.engine.stop(waitingUpTo: 5))
    }
}

/// Owners reported by a watch, in order.
final class ChangeLog: Sendable {
    private let log = Mutex<[String]>([])
    func add(_ owner: String) { log.withLock { $0.append(owner) } }
    var all: [String] { log.withLock { $0 } }
}
