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
/// A thread of its own with its own sd-bus connection sleeps in poll(2) on the bus socket and a
/// stop eventfd: the match rule names the one name (`arg0`), so the bus daemon sends nothing else
/// and the thread wakes only when that name changes hands.
public final class BusNameWatch: Sendable {
    public let name: String
    private struct State {
        var owner = ""
        var waiters: [UInt64: (present: Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())
    private let stopFlag = Atomic<Bool>(false)
    private let wakeup = Wakeup()
    private let finished = DispatchSemaphore(value: 0)

    /// Connects to `bus`, subscribes, and learns the current owner before it returns.
    /// `onChange(owner)` runs on the watch thread after each change ("" when the name is gone).
    public init(name: String, bus: BusAddress, onChange: @escaping @Sendable (String) -> Void = { _ in }) throws {
        self.name = name
        let started = Mutex<Result<Void, BusError>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            ThreadName.set("imukit-names")
            defer { finished.signal() }
            let connection: BusConnection
            let subscription: Subscription
            do {
                connection = try BusConnection(bus)
                subscription = try Subscription(connection, name: name) { [self] owner in
                    update(owner)
                    onChange(owner)
                }
                // After the match is in place, so no change falls between the two.
                let owner = try Self.currentOwner(connection, name)
                update(owner)
                started.withLock { $0 = .success(()) }
                ready.signal()
            } catch {
                started.withLock { $0 = .failure(error as? BusError ?? BusError(.failed, "\(error)")) }
                ready.signal()
                return
            }
            serve(connection)
            withExtendedLifetime(subscription) {}
        }
        thread.name = "imukit-names"
        thread.start()
        ready.wait()
        if case let .failure(e)? = started.withLock({ $0 }) { throw e }
    }

    /// The unique name of the current owner ("" when nobody owns it).
    public var owner: String { state.withLock { $0.owner } }
    public var isPresent: Bool { !owner.isEmpty }

    /// Returns once the name's presence is `present` (at once when it already is), or when the
    /// task is cancelled.
    public func waitUntil(present: Bool) async {
        let id = state.withLock { s -> UInt64 in s.nextID += 1; return s.nextID }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if !s.owner.isEmpty == present || Task.isCancelled { return true }
                    s.waiters[id] = (present, c)
                    return false
                }
                if resumeNow { c.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    public func stop(waitingUpTo seconds: Double = 2) {
        stopFlag.store(true, ordering: .releasing)
        wakeup.signal()
        _ = finished.wait(timeout: .now() + seconds)
    }

    private func update(_ owner: String) {
        let due = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.owner = owner
            let present = !owner.isEmpty
            let ids = s.waiters.filter { $0.value.present == present }.map(\.key)
            return ids.compactMap { s.waiters.removeValue(forKey: $0)?.continuation }
        }
        for c in due { c.resume() }
    }

    private func serve(_ c: BusConnection) {
        let busFD = sd_bus_get_fd(c.raw)
        while !stopFlag.load(ordering: .acquiring) {
            do { while try c.process() {} } catch { return }
            var fds = [pollfd(fd: busFD, events: Int16(truncatingIfNeeded: sd_bus_get_events(c.raw)), revents: 0),
                       pollfd(fd: wakeup.fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { wakeup.drain() }
        }
    }

    /// `GetNameOwner`: the unique name, or "" when the name has no owner.
    static func currentOwner(_ c: BusConnection, _ name: String) throws -> String {
        do {
            return try c.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                              member: "GetNameOwner", timeoutSeconds: 5, fill: { try $0.append(name) }, read: { try $0.readString() })
        } catch let e as BusError where e.kind == .serviceNotRunning || e.remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            // BusConnection.call words "no owner" as the step daemon not running: here it just means none.
            return ""
        }
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
