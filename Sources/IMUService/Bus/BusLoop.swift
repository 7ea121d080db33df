import CSystemd
import Foundation
import IMUCore
import IMUServiceClient
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The D-Bus thread: owns the connection and the object, sleeps in poll(2) on the bus socket and
/// the wake-up eventfd, and wakes only for bus traffic, an engine answer, a property change, a
/// deadline or the watchdog. It never waits for the engine or the sensor.
public final class BusLoop: Sendable {
    let stopFlag = Atomic<Bool>(false)
    let wakeup: Wakeup
    private let finished = DispatchSemaphore(value: 0)

    public init(wakeup: Wakeup) { self.wakeup = wakeup }

    /// Connects, claims the name (refusing when another process has it) and serves until `stop()`.
    /// Returns once the name is owned (the calling task is suspended meanwhile); throws when it
    /// cannot be.
    public func start(config: ServiceConfig, engine: StepEngine, notifier: SystemdNotifier, log: ServiceLog,
                      onFailure: @escaping @Sendable (String) -> Void) async throws {
        let replies = ReplyQueue(wakeup: wakeup)
        try await OwnThread.start(name: "imukit-bus", noThread: Self.serviceError, finished: finished) { () throws(ServiceError) in
            do {
                let connection = try BusConnection(config.bus)
                let object = try StepServiceObject(connection: connection, engine: engine, replies: replies,
                                                   deadlineSeconds: config.methodDeadlineSeconds)
                try Self.claimName(connection, bus: config.bus)
                return (connection, object)
            } catch {
                throw Self.serviceError(error)
            }
        } then: { [self] (opened: (connection: BusConnection, object: StepServiceObject)) in
            do {
                try serve(opened.connection, opened.object, engine: engine, notifier: notifier)
            } catch {
                log.error("D-Bus connection lost: \(error)")
                onFailure("\(error)")
            }
            withExtendedLifetime(opened.object) {}
        }
    }

    /// `error` as the service reports it: a `ServiceError` as it is, anything else (a bus call, no
    /// thread) as a D-Bus failure with its fix.
    private static func serviceError(_ error: any Error) -> ServiceError {
        error as? ServiceError ?? .bus("\(error)", fix: (error as? any DiagnosableError)?.fix ?? "check the D-Bus daemon")
    }

    public func stop(waitingUpTo seconds: Double) {
        stopFlag.store(true, ordering: .releasing)
        wakeup.signal()
        _ = finished.wait(timeout: .now() + seconds)
    }

    static func claimName(_ c: BusConnection, bus: BusAddress) throws {
        let r = sd_bus_request_name(c.raw, StepServiceNames.busName, 0)
        if r == -EEXIST { throw ServiceError.nameTaken(name: StepServiceNames.busName, bus: "\(bus)") }
        if r == -EACCES || r == -EPERM {
            throw ServiceError.bus("the D-Bus policy does not let this user own \(StepServiceNames.busName)",
                                   fix: "install data/io.github.imukit.StepService1.conf in /usr/share/dbus-1/system.d (make install-service) and run as user imu-stepd")
        }
        if r < 0 { throw ServiceError.bus("cannot claim \(StepServiceNames.busName): \(Errno.text(-r))", fix: "check the D-Bus daemon (systemctl status dbus)") }
    }

    private func serve(_ c: BusConnection, _ object: StepServiceObject, engine: StepEngine, notifier: SystemdNotifier) throws {
        let busFD = sd_bus_get_fd(c.raw)
        // Ping at half the interval systemd asked for (sd_watchdog_enabled(3)).
        let pingEvery = notifier.watchdogSeconds.map { $0 / 2 }
        var nextPing = BootClock.nowSeconds()
        while !stopFlag.load(ordering: .acquiring) {
            while try c.process() {}
            object.deliverReplies()
            let now = BootClock.nowSeconds()
            var next = [object.expire(now: now), object.emitChanges(now: now)].compactMap { $0 }
            if let pingEvery, let watchdog = notifier.watchdogSeconds {
                if now >= nextPing {
                    // Only while the engine's loop turns: a stuck engine gets restarted by systemd.
                    if engine.secondsSinceHeartbeat < watchdog { notifier.watchdog() }
                    nextPing = now + pingEvery
                }
                next.append(nextPing)
            }
            _ = sd_bus_flush(c.raw)
            var busTimeout: UInt64 = 0
            var timeoutMs: Int32 = -1
            if let soonest = next.min() { timeoutMs = Int32(clamping: Int(max(0, (soonest - now) * 1000).rounded(.up))) }
            if sd_bus_get_timeout(c.raw, &busTimeout) >= 0, busTimeout != UInt64.max {
                var ts = timespec()
                clock_gettime(CLOCK_MONOTONIC, &ts)
                let nowUs = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
                let ms = Int32(clamping: busTimeout > nowUs ? Int((busTimeout - nowUs + 999) / 1000) : 0)
                timeoutMs = timeoutMs < 0 ? ms : min(timeoutMs, ms)
            }
            var fds = [pollfd(fd: busFD, events: Int16(truncatingIfNeeded: sd_bus_get_events(c.raw)), revents: 0),
                       pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)]
            let r = poll(&fds, 2, timeoutMs)
            if r < 0 && errno != EINTR { throw ServiceError.bus("poll: \(Errno.text(errno))", fix: "report this as a bug") }
            if fds[1].revents != 0 { wakeup.drain() }
        }
        _ = sd_bus_flush(c.raw)
    }
}
