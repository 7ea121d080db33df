import Foundation
import IMUCalibration
import IMUCLI
import IMUServiceClient
import Synchronization

/// imu-stepd: wires the parts together and runs until SIGTERM.
///
/// Order: config → state directory → single-instance lock → history store (on the engine
/// thread) → D-Bus name → READY=1 → sensor. A failure before READY exits with the error's
/// message and fix (systemd shows them in `systemctl status`).
public enum StepDaemon {
    public static let spec = CommandSpec(
        name: "imu-stepd",
        summary: "the always-on step service: counts steps all day, keeps the history, answers on D-Bus",
        usage: ["[--config]"],
        options: [
            OptionSpec("config", short: "c", value: .path("FILE"), help: "settings file (default \(ServiceConfig.defaultPath); data/stepd.conf is the example)"),
        ],
        examples: [
            ("sudo systemctl enable --now imu-stepd", "how it normally runs (docs/service.md)"),
            ("imu-stepd --config ./stepd.conf", "by hand, e.g. with bus = session and state_directory = /tmp/stepd"),
        ]
    )

    /// Runs the daemon. `makeStore` opens the history at the configured path (on the engine thread).
    public static func run(_ args: ParsedArguments, clock: (any WallClock)? = nil,
                           makeStore: @escaping @Sendable (ServiceConfig) throws -> any StepStore) async throws -> ExitStatus {
        let path = args.string("config") ?? ServiceConfig.defaultPath
        let required = args.string("config") != nil
        // A TZ that names no zone runs the daemon's days on UTC (tzset(3) says nothing): logged
        // once, first, so a config error after it does not hide it. Looks at a zone file: off the pool.
        if let zone = try await OwnThread.run(name: "stepd-start", { LocalTime.unknownZone() }) {
            ServiceLog().warning(zone.warning)
        }
        // File reads, a mkdir and a flock: blocking calls, on a thread of their own.
        let (config, lock) = try await OwnThread.run(name: "stepd-start") {
            let config = try ServiceConfig.load(path: path, required: required)
            try prepareStateDirectory(config.stateDirectory, config: config.path)
            return (config, try InstanceLock(path: config.lockPath))
        }
        let log = ServiceLog()
        let clock = clock ?? SystemWallClock(trust: config.trustWallClock)
        let notifier = SystemdNotifier()

        let wakeup = Wakeup()
        var initial = ServiceStatus(today: StepTotals(start: Date(), end: Date()))
        // Absolute: a client runs in another directory (`--config ./stepd.conf` by hand).
        initial.configPath = config.path.hasPrefix("/") ? config.path : FileManager.default.currentDirectoryPath + "/" + config.path
        let board = StatusBoard(initial: initial, wakeup: wakeup)
        let engine = StepEngine(board: board)
        let supervisor = SupervisorSlot()
        let yieldTo = await watchYieldName(config, log: log)
        let sensor = SensorSupervisor(config: config, engine: engine, log: log, yieldTo: yieldTo)
        try await engine.start(config: config, clock: clock, log: log, makeStore: { try makeStore(config) },
                         onReset: { supervisor.restart(sensor) })
        let bus = BusLoop(wakeup: wakeup)
        let stopped = AsyncStream<String>.makeStream()
        do {
            try await bus.start(config: config, engine: engine, notifier: notifier, log: log,
                          onFailure: { stopped.continuation.yield("D-Bus connection lost: \($0)") })
        } catch {
            _ = await stopping { engine.stop(waitingUpTo: 10) }
            throw error
        }
        let mqtt: MQTTBridge?
        do {
            // Reads the credentials and CA files: on a thread of its own.
            mqtt = try await OwnThread.run(name: "stepd-start") {
                try config.mqtt.map { try MQTTBridge(settings: $0, board: board, log: log, softwareVersion: StepDaemon.softwareVersion) }
            }
        } catch {
            _ = await stopping { bus.stop(waitingUpTo: 2); return engine.stop(waitingUpTo: 10) }
            throw error
        }
        log.notice("serving \(StepServiceNames.busName) on the \(config.bus) bus; history in \(config.resolvedDatabasePath)")
        notifier.ready(status: "counting steps")
        supervisor.restart(sensor)

        let trap = SignalTrap { stopped.continuation.yield("") }
        var reason = ""
        for await r in stopped.stream { reason = r; break }
        _ = trap
        notifier.stopping()
        supervisor.cancel()
        let flushed = await stopping {
            yieldTo?.stop()
            mqtt?.stop()
            defer { bus.stop(waitingUpTo: 2) }
            return engine.stop(waitingUpTo: 10)
        }
        withExtendedLifetime(lock) {}
        if !flushed { log.error("the engine did not finish its last commit within 10 s") }
        if !reason.isEmpty {
            log.error("stopping: \(reason)")
            return .runtimeFailure
        }
        log.notice("stopped; totals committed")
        return .success
    }

    /// Runs `stop`, which waits for threads to end (seconds at most), on a thread of its own so
    /// that no thread of the cooperative pool waits; in place when the system gives no thread.
    static func stopping<T: Sendable>(_ stop: @escaping @Sendable () -> T) async -> T {
        (try? await OwnThread.run(name: "imukit-stop", stop)) ?? stop()
    }

    /// Watches `yield_to` (iio-sensor-proxy's name) on the daemon's bus, for a source that can be
    /// IIO (no watch for i2c:, sim: or a replay: nothing to yield). Without the watch the daemon
    /// still runs: it says so and never yields, as with `yield_to = no`. A watch that loses its
    /// bus says so here and connects again by itself.
    static func watchYieldName(_ config: ServiceConfig, log: ServiceLog) async -> BusNameWatch? {
        guard !config.yieldTo.isEmpty, config.sourceCanBeIIO else { return nil }
        do {
            let watch = try await BusNameWatch(name: config.yieldTo, bus: config.bus,
                                               onFailure: { log.warning($0) },
                                               onRestored: { log.notice("watching \(config.yieldTo) on the \(config.bus) bus again") })
            if watch.isPresent { log.notice("\(config.yieldTo) is on the bus: its IIO buffer is left to it (polled capture)") }
            return watch
        } catch {
            log.warning("cannot watch \(config.yieldTo) on the \(config.bus) bus (\(error)): the IIO buffer is not left to it")
            return nil
        }
    }

    /// "0.y.z (git abcdef1)", as `--version` prints it without the tool's name.
    static var softwareVersion: String {
        let text = spec.versionText.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.hasPrefix(spec.name + " ") ? String(text.dropFirst(spec.name.count + 1)) : text
    }

    /// `config`: the settings file that names the directory, for the fix.
    static func prepareStateDirectory(_ path: String, config: String) throws {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            do { try CalibrationStore.makeDirectories(path) } catch {
                // The errno's words ("Permission denied": exit 3), not Foundation's "You don't have
                // permission." or "The operation could not be completed. The file doesn't exist."
                if error.errorNumber == EROFS {
                    throw ServiceError.stateDirectory(path: path, config: config, reason: "does not exist and cannot be created: " + ServiceError.readOnly)
                }
                throw ServiceError.stateDirectory(path: path, config: config, reason: "does not exist and cannot be created (\(String(cString: strerror(error.errorNumber))))")
            }
        } else if !isDir.boolValue {
            throw ServiceError.stateDirectory(path: path, config: config, reason: ServiceError.notADirectory)
        }
        guard access(path, W_OK) == 0 else {
            // A read-only file system was "not writable by this user" (exit 3), with a chown as the fix.
            let reason = errno == EROFS ? "is on a " + ServiceError.readOnly : ServiceError.notWritable
            throw ServiceError.stateDirectory(path: path, config: config, reason: reason)
        }
    }
}

/// The running supervisor task; Reset restarts it (the sensor is reopened). The new supervisor
/// starts once the old one has ended and its capture has let go of the sensor
/// (`SensorSupervisor.waitForEarlierCaptures`): an IIO buffer is its own again, not "held by
/// another reader".
final class SupervisorSlot: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func restart(_ supervisor: SensorSupervisor) {
        task.withLock { old in
            old?.cancel()
            let previous = old
            old = Task {
                if let previous {
                    // Bounded: a supervisor inside a blocking open (an iiod that does not answer)
                    // ends only when that call returns.
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await previous.value }
                        group.addTask { try? await Task.sleep(nanoseconds: UInt64(SensorSupervisor.releaseSeconds * 1e9)) }
                        await group.next()
                        group.cancelAll()
                    }
                    await supervisor.waitForEarlierCaptures()
                }
                await supervisor.run()
            }
        }
    }

    func cancel() { task.withLock { $0?.cancel() } }
}
