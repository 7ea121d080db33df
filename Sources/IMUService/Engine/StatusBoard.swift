import CSystemd
import IMUServiceClient
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The published state: the engine writes it, the D-Bus thread reads it for properties. A change
/// bumps the version and wakes the bus thread, which emits PropertiesChanged at most once a second,
/// and is passed to the observers (the MQTT bridge): nobody polls the board.
public final class StatusBoard: Sendable {
    private let state: Mutex<(status: ServiceStatus, version: Int)>
    private let observers = Mutex<[@Sendable (ServiceStatus) -> Void]>([])
    /// Whether a change wakes the bus thread. Off while the bus waits for the end of the second
    /// after a PropertiesChanged (it looks at the board then anyway), so further changes in that
    /// second cost it no wake-up.
    private let signalsChanges = Atomic<Bool>(true)
    public let wakeup: Wakeup

    public init(initial: ServiceStatus, wakeup: Wakeup) {
        state = Mutex((initial, 0))
        self.wakeup = wakeup
    }

    public var current: (status: ServiceStatus, version: Int) { state.withLock { $0 } }

    public func publish(_ status: ServiceStatus) {
        let changed = state.withLock { s -> Bool in
            guard s.status != status else { return false }
            s = (status, s.version + 1)
            return true
        }
        guard changed else { return }
        if signalsChanges.load(ordering: .acquiring) { wakeup.signal() }
        for observer in observers.withLock({ $0 }) { observer(status) }
    }

    /// Turns the bus thread's wake-up on changes on or off (see `signalsChanges`).
    public func signalChanges(_ on: Bool) { signalsChanges.store(on, ordering: .releasing) }

    /// Calls `observer` with the current status now and with each change after, on the thread
    /// that publishes it (the engine's): it must not block.
    public func observe(_ observer: @escaping @Sendable (ServiceStatus) -> Void) {
        observers.withLock { $0.append(observer) }
        observer(current.status)
    }

    public func update(_ change: (inout ServiceStatus) -> Void) {
        var s = current.status
        change(&s)
        publish(s)
    }
}

/// An eventfd(2) that wakes the D-Bus thread's poll(2) from another thread.
public final class Wakeup: Sendable {
    public let fd: Int32
    public init() { fd = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK)) }
    deinit { close(fd) }
    public func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }
    /// Reads the counter back to zero.
    public func drain() {
        var value: UInt64 = 0
        _ = read(fd, &value, 8)
    }
}
