import CSystemd
import Foundation
import IMUCore
import IMUServiceClient
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whether a well-known D-Bus name has an owner, kept current from the bus daemon's
/// `NameOwnerChanged` signal. `imu-stepd` watches iio-sensor-proxy's `net.hadess.SensorProxy` with
/// it and leaves the IIO buffer to that service while it runs (docs/service.md, Sharing).
///
/// A thread of its own (`OwnThread`) with its own sd-bus connection sleeps in poll(2) on the bus
/// socket and a stop eventfd: the match rule names the one name (`arg0`), so the bus daemon sends
/// nothing else and the thread wakes only when that name changes hands.
///
/// When the connection fails (the bus daemon restarts, say) the watch says so through
/// `onFailure`, takes the name as absent, ends every `waitUntil` with false so its callers decide
/// again, and connects again with backoff (1 s doubling to 30 s, as the sensor's); `onRestored`
/// runs once it watches again.
public final class BusNameWatch: Sendable {
    public let name: String
    /// Backoff between attempts to connect again: 1 s doubling to 30 s (the supervisor's).
    static let firstRetrySeconds = 1.0, longestRetrySeconds = 30.0
    private struct State {
        var owner = ""
        var waiters: [UInt64: (present: Bool, continuation: CheckedContinuation<Bool, Never>)] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())
    private let stopFlag = Atomic<Bool>(false)
    private let wakeup = Wakeup()
    private let finished = DispatchSemaphore(value: 0)

    /// Whether `name` is a bus name a watch can follow (sd_bus_service_name_is_valid(3): the
    /// D-Bus specification's rules; also what keeps the match rule's quoting intact).
    public static func isValid(_ name: String) -> Bool { sd_bus_service_name_is_valid(name) > 0 }

    /// Connects to `bus`, subscribes, and learns the current owner before it returns (on the watch
    /// thread; the calling task is suspended meanwhile).
    /// `onChange(owner)` runs on the watch thread after each change ("" when the name is gone);
    /// `onFailure(reason)` when the connection fails, `onRestored()` when it is made again.
    public init(name: String, bus: BusAddress, onChange: @escaping @Sendable (String) -> Void = { _ in },
                onFailure: @escaping @Sendable (String) -> Void = { _ in },
                onRestored: @escaping @Sendable () -> Void = {}) async throws {
        guard Self.isValid(name) else {
            throw BusError(.failed, "'\(name.escapedValue)' is not a D-Bus name", fix: "name a service, e.g. net.hadess.SensorProxy")
        }
        self.name = name
        try await OwnThread.start(name: "imukit-names", noThread: { BusError(.failed, $0.description, fix: $0.fix) },
                                  finished: finished) { [self] () throws(BusError) in
            do {
                let watched = try connect(bus, onChange)
                update(watched.owner)
                return watched
            } catch {
                throw error as? BusError ?? BusError(.failed, "\(error)")
            }
        } then: { [self] first in
            var watched = first
            while let failure = serve(watched.connection) {
                lose(failure, bus: bus, onFailure)
                guard let again = reconnect(bus, onChange) else { return }
                watched = again
                onRestored()
                update(watched.owner)
            }
            withExtendedLifetime(watched) {}
        }
    }

    /// The unique name of the current owner ("" when nobody owns it, or while the watch is
    /// connecting again).
    public var owner: String { state.withLock { $0.owner } }
    public var isPresent: Bool { !owner.isEmpty }

    /// Returns true once the name's presence is `present` (at once when it already is); false
    /// when the watch lost its bus meanwhile (the name is then taken as absent) or the task was
    /// cancelled.
    @discardableResult
    public func waitUntil(present: Bool) async -> Bool {
        let id = state.withLock { s -> UInt64 in s.nextID += 1; return s.nextID }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { s -> Bool? in
                    if Task.isCancelled { return false }
                    if !s.owner.isEmpty == present { return true }
                    s.waiters[id] = (present, c)
                    return nil
                }
                if let resumeNow { c.resume(returning: resumeNow) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
    }

    public func stop(waitingUpTo seconds: Double = 2) {
        stopFlag.store(true, ordering: .releasing)
        wakeup.signal()
        _ = finished.wait(timeout: .now() + seconds)
    }

    private var stopped: Bool { stopFlag.load(ordering: .acquiring) }

    /// A connection with the match in place (both live on the watch thread only), and the owner
    /// it found.
    private struct Watched {
        let connection: BusConnection
        let subscription: Subscription
        let owner: String
    }

    private func connect(_ bus: BusAddress, _ onChange: @escaping @Sendable (String) -> Void) throws -> Watched {
        let connection = try BusConnection(bus)
        let subscription = try Subscription(connection, name: name) { [self] owner in
            update(owner)
            onChange(owner)
        }
        // After the match is in place, so no change falls between the two (its signals are
        // handled in `serve`, after the caller's `update`).
        let owner = try connection.owner(of: name) ?? ""
        return Watched(connection: connection, subscription: subscription, owner: owner)
    }

    /// Connects again with backoff until it works; nil once stopped.
    private func reconnect(_ bus: BusAddress, _ onChange: @escaping @Sendable (String) -> Void) -> Watched? {
        var retry = Self.firstRetrySeconds
        while !stopped {
            var fd = pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Int32(retry * 1000)) > 0 { wakeup.drain() }
            if stopped { return nil }
            if let watched = try? connect(bus, onChange) { return watched }
            retry = min(retry * 2, Self.longestRetrySeconds)
        }
        return nil
    }

    private func update(_ owner: String) {
        let due = state.withLock { s -> [CheckedContinuation<Bool, Never>] in
            s.owner = owner
            let present = !owner.isEmpty
            let ids = s.waiters.filter { $0.value.present == present }.map(\.key)
            return ids.compactMap { s.waiters.removeValue(forKey: $0)?.continuation }
        }
        for c in due { c.resume(returning: true) }
    }

    /// The connection failed: the name counts as absent and every waiter ends with false.
    private func lose(_ reason: String, bus: BusAddress, _ onFailure: @Sendable (String) -> Void) {
        let all = state.withLock { s -> [CheckedContinuation<Bool, Never>] in
            s.owner = ""
            defer { s.waiters = [:] }
            return s.waiters.values.map(\.continuation)
        }
        // Said before the waiters act on it.
        onFailure("watching \(name) on the \(bus) bus stopped: \(reason); taken as absent, connecting again in \(Int(Self.firstRetrySeconds)) s (then up to every \(Int(Self.longestRetrySeconds)) s)")
        for c in all { c.resume(returning: false) }
    }

    /// Handles the bus until `stop()` (nil) or until the connection fails (why).
    private func serve(_ c: BusConnection) -> String? {
        let busFD = sd_bus_get_fd(c.raw)
        while !stopped {
            do { while try c.process() {} } catch { return "\(error)" }
            let events = sd_bus_get_events(c.raw)
            if events < 0 { return "the D-Bus connection failed: \(Errno.text(-events))" }
            var fds = [pollfd(fd: busFD, events: Int16(truncatingIfNeeded: events), revents: 0),
                       pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { return "poll: \(Errno.text(errno))" }
            if fds[1].revents != 0 { wakeup.drain() }
        }
        return nil
    }

    /// The `NameOwnerChanged` match for one name; `changed(newOwner)` runs inside `process()`.
    private final class Subscription {
        private var slot: OpaquePointer?
        private let changed: (String) -> Void

        init(_ c: BusConnection, name: String, changed: @escaping (String) -> Void) throws {
            self.changed = changed
            let rule = "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
            let r = sd_bus_add_match(c.raw, &slot, rule, { m, userdata, _ in
                guard let m, let userdata else { return 0 }
                let me = Unmanaged<Subscription>.fromOpaque(userdata).takeUnretainedValue()
                let message = BusMessage(m)
                if let _ = try? message.readString(), let _ = try? message.readString(), let new = try? message.readString() {
                    me.changed(new)
                }
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
            try BusMessage.check(r, "subscribing to NameOwnerChanged for \(name)")
        }

        deinit { sd_bus_slot_unref(slot) }
    }
}
