import CSystemd

/// Notes that a signal arrived (the handler runs inside `BusConnection.process()` on the same
/// thread). Keeps the match alive as long as the watcher lives.
final class SignalWatcher {
    private var slot: OpaquePointer?
    private var fired = false

    init(_ c: BusConnection, path: String, interface: String, member: String) throws {
        let r = sd_bus_match_signal(c.raw, &slot, StepServiceNames.busName, path, interface, member, { _, userdata, _ in
            Unmanaged<SignalWatcher>.fromOpaque(userdata!).takeUnretainedValue().fired = true
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        try BusMessage.check(r, "subscribing to \(member)")
    }

    deinit { sd_bus_slot_unref(slot) }

    /// True once per arrival batch.
    func takeFired() -> Bool {
        defer { fired = false }
        return fired
    }
}
