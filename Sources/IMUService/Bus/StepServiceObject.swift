import CSystemd
import Foundation
import IMUServiceClient
import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// The D-Bus object /io/github/imukit/StepService1, served on the bus thread.
///
/// Properties answer at once from the StatusBoard. Queries and controls go to the engine thread;
/// the call is kept (sd_bus_message_ref) and answered when the engine replies, or with
/// Error.TimedOut at the deadline, whichever comes first. PropertiesChanged goes out at most once
/// a second, and only when a property changed.
final class StepServiceObject {
    let connection: BusConnection
    let engine: StepEngine
    let replies: ReplyQueue
    let deadlineSeconds: Double
    private var slot: OpaquePointer?
    private var pending: [Int: (call: OpaquePointer, member: String, deadline: Double)] = [:]
    private var nextID = 0
    private var emitted: (status: ServiceStatus, version: Int)
    private var lastEmit = -Double.infinity
    /// Issue #16: PropertiesChanged at most once a second.
    static let signalInterval = 1.0

    init(connection: BusConnection, engine: StepEngine, replies: ReplyQueue, deadlineSeconds: Double) throws {
        self.connection = connection
        self.engine = engine
        self.replies = replies
        self.deadlineSeconds = deadlineSeconds
        emitted = engine.board.current
        let r = sd_bus_add_object(connection.raw, &slot, StepServiceNames.objectPath, { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            return Unmanaged<StepServiceObject>.fromOpaque(userdata).takeUnretainedValue().handle(m)
        }, Unmanaged.passUnretained(self).toOpaque())
        guard r >= 0 else { throw ServiceError.bus("cannot export \(StepServiceNames.objectPath): \(Errno.text(-r))", fix: "report this as a bug") }
    }

    deinit {
        sd_bus_slot_unref(slot)
        for p in pending.values { sd_bus_message_unref(p.call) }
    }

    // MARK: Dispatch

    func handle(_ m: OpaquePointer) -> Int32 {
        let msg = BusMessage(m)
        let member = msg.member ?? ""
        do {
            switch (msg.interface ?? "", member) {
            case (StepServiceNames.introspectable, "Introspect"):
                guard hasSignature(m, "") else { return invalid(m, "Introspect takes no arguments, got (\(msg.signature.escapedValue))") }
                try reply(m) { try $0.append(Introspection.document) }
            case (StepServiceNames.properties, "Get"):
                guard hasSignature(m, "ss") else { return invalid(m, "Get takes (ss): interface_name, property_name") }
                let iface = try msg.readString(), name = try msg.readString()
                guard iface == StepServiceNames.interface else { return unknownInterface(m, "Get", iface) }
                guard ServiceStatus.propertySignatures.contains(where: { $0.name == name }) else {
                    return error(m, "org.freedesktop.DBus.Error.UnknownProperty",
                                 "property_name '\(name.escapedValue)' is no property of \(StepServiceNames.interface): GetAll or busctl introspect lists them (e.g. TodaySteps)")
                }
                let status = engine.board.current.status
                try reply(m) { try status.writeProperty(name, to: $0) }
            case (StepServiceNames.properties, "GetAll"):
                guard hasSignature(m, "s") else { return invalid(m, "GetAll takes (s): interface_name") }
                let iface = try msg.readString()
                // An empty dictionary for another interface read as "no properties", not as a slip.
                guard iface == StepServiceNames.interface || iface.isEmpty else { return unknownInterface(m, "GetAll", iface) }
                let status = engine.board.current.status
                try reply(m) { r in
                    try r.open("a", "{sv}")
                    if iface == StepServiceNames.interface || iface.isEmpty {
                        for (name, _) in ServiceStatus.propertySignatures {
                            try r.open("e", "sv")
                            try r.append(name)
                            try status.writeProperty(name, to: r)
                            try r.close()
                        }
                    }
                    try r.close()
                }
            case (StepServiceNames.properties, "Set"):
                return error(m, "org.freedesktop.DBus.Error.PropertyReadOnly", "the step service's properties are read-only")
            case (StepServiceNames.interface, "QueryTotals"), (StepServiceNames.interface, "QueryActivities"):
                guard hasSignature(m, "xx") else { return invalid(m, "\(member) takes (xx): from_usec and to_usec, µs since 1970 UTC") }
                let from = WireTime.date(try msg.readInt64()), to = WireTime.date(try msg.readInt64())
                if let problem = Self.checkInterval(from, to) { return invalid(m, problem) }
                enqueue(m, member) { member == "QueryTotals" ? .query(.totals(from: from, to: to), reply: $0) : .query(.activities(from: from, to: to), reply: $0) }
            case (StepServiceNames.interface, "QueryDays"):
                guard hasSignature(m, "xxs") else {
                    return invalid(m, "QueryDays takes (xxs): from_usec and to_usec, µs since 1970 UTC, and time_zone, such as Europe/Berlin")
                }
                let from = WireTime.date(try msg.readInt64()), to = WireTime.date(try msg.readInt64())
                let zoneName = try msg.readString()
                if let problem = Self.checkInterval(from, to) { return invalid(m, problem) }
                guard to.timeIntervalSince(from) <= Double(Self.maxIntervals) * 86_400 else {
                    return invalid(m, "from_usec to to_usec spans \(Int(to.timeIntervalSince(from) / 86_400)) days; QueryDays covers at most \(Self.maxIntervals) (ten years): ask in parts")
                }
                if zoneName.isEmpty {
                    // The daemon's own days, cut by the C library as its Today* properties are
                    // (`LocalDay`): Foundation's TimeZone.current took TZ=":" and a POSIX rule
                    // for /etc/localtime, so these days and today's disagreed. A span of
                    // `maxIntervals` days touches at most that many days and two partial ones.
                    let bounds = LocalTime.dayBounds(from: from.timeIntervalSince1970, to: to.timeIntervalSince1970,
                                                     maxDays: Self.maxIntervals + 2)
                    enqueue(m, member) { .query(.intervals(bounds: bounds.map { Date(timeIntervalSince1970: $0) }), reply: $0) }
                    return 1
                }
                guard let zone = TimeZone(identifier: zoneName) else {
                    return invalid(m, "unknown time_zone '\(zoneName.escapedValue)': give an IANA name such as Europe/Berlin, \"\" for the daemon's own, "
                                   + "or ask QueryIntervals with the bounds of your days")
                }
                enqueue(m, member) { .query(.days(from: from, to: to, timeZone: zone), reply: $0) }
            case (StepServiceNames.interface, "QueryIntervals"):
                guard hasSignature(m, "ax") else {
                    return invalid(m, "QueryIntervals takes (ax): bounds_usec, increasing instants in µs since 1970 UTC; one total comes back per interval between two of them")
                }
                let bounds = try msg.readInt64Array(limit: Self.maxIntervals + 1)
                if let problem = Self.checkBounds(bounds) { return invalid(m, problem) }
                enqueue(m, member) { .query(.intervals(bounds: bounds.map(WireTime.date)), reply: $0) }
            case (StepServiceNames.interface, "Pause"), (StepServiceNames.interface, "Resume"), (StepServiceNames.interface, "Reset"):
                guard hasSignature(m, "") else { return invalid(m, "\(member) takes no arguments, got (\(msg.signature.escapedValue))") }
                guard CallerAuthorization.isAllowed(m) else {
                    return error(m, StepServiceNames.Errors.accessDenied, "\(member) is only for root and members of group \(CallerAuthorization.group)")
                }
                let command = ControlCommand(rawValue: member)!
                enqueue(m, member) { .control(command, reply: $0) }
            default:
                return 0  // sd-bus answers UnknownMethod / handles Peer
            }
        } catch {
            return self.error(m, "org.freedesktop.DBus.Error.Failed", "\(error)")
        }
        return 1
    }

    /// A `from` before 1970 (negative µs: imu-steps asked --since 0001-01-01 as it came) asks
    /// about times no history can hold; it is refused rather than answered with totals. Each
    /// message names the argument as the interface does (from_usec, to_usec) and its value.
    static func checkInterval(_ from: Date, _ to: Date) -> String? {
        guard from.timeIntervalSince1970 >= 0 else {
            return "from_usec (\(WireTime.micros(from))) is before 1970-01-01: µs since 1970 UTC must be 0 or more (the history holds nothing before 2024-01-01)"
        }
        return to > from ? nil
            : "to_usec (\(WireTime.micros(to))) does not come after from_usec (\(WireTime.micros(from))): the interval must end after it starts"
    }

    /// The most intervals QueryIntervals answers in one call: ten years of days (QueryDays' limit,
    /// 3 700 days), which bounds the engine's work per call (one history sum per interval).
    static let maxIntervals = 3_700

    /// QueryIntervals' `bounds_usec`: 2 to `maxIntervals` + 1 instants, from 1970 on, increasing.
    static func checkBounds(_ bounds: [Int64]) -> String? {
        guard bounds.count >= 2 else {
            return "bounds_usec holds \(bounds.count) instant\(bounds.count == 1 ? "" : "s"); QueryIntervals needs at least 2, the start and end of an interval (µs since 1970 UTC)"
        }
        guard bounds.count <= maxIntervals + 1 else {
            return "bounds_usec holds more than \(maxIntervals + 1) instants; QueryIntervals takes at most \(maxIntervals + 1) (\(maxIntervals) intervals, ten years of days): ask in parts"
        }
        guard bounds[0] >= 0 else {
            return "bounds_usec[0] (\(bounds[0])) is before 1970-01-01 (µs since 1970 UTC must be 0 or more; the history holds nothing before 2024-01-01)"
        }
        for i in 1..<bounds.count where bounds[i] <= bounds[i - 1] {
            return "bounds_usec[\(i)] (\(bounds[i])) does not come after bounds_usec[\(i - 1)] (\(bounds[i - 1])): the instants must increase"
        }
        return nil
    }

    private func hasSignature(_ m: OpaquePointer, _ sig: String) -> Bool {
        sd_bus_message_has_signature(m, sig) > 0
    }

    /// Keeps the call and hands the work to the engine; the answer comes back through `replies`.
    private func enqueue(_ m: OpaquePointer, _ member: String, _ message: (@escaping @Sendable (EngineAnswer) -> Void) -> EngineMessage) {
        nextID += 1
        let id = nextID
        pending[id] = (sd_bus_message_ref(m), member, BootClock.nowSeconds() + deadlineSeconds)
        let replies = self.replies
        engine.send(message { answer in replies.post(id: id, answer) })
    }

    // MARK: Answers, deadlines, signals (called from the loop)

    func deliverReplies() {
        for (id, answer) in replies.take() {
            guard let p = pending.removeValue(forKey: id) else { continue }  // already timed out
            defer { sd_bus_message_unref(p.call) }
            do {
                switch answer {
                case let .totals(t): try reply(p.call) { try t.write(to: $0) }
                case let .days(days):
                    try reply(p.call) { r in
                        try r.open("a", "(\(TotalsWire.signature))")
                        for d in days { try d.write(to: r) }
                        try r.close()
                    }
                case let .activities(list):
                    try reply(p.call) { r in
                        try r.open("a", "(\(ActivityWire.signature))")
                        for a in list { try a.write(to: r) }
                        try r.close()
                    }
                case .done: try reply(p.call) { _ in }
                case let .failure(name, message): _ = error(p.call, name, message)
                }
            } catch {
                _ = self.error(p.call, "org.freedesktop.DBus.Error.Failed", "\(error)")
            }
        }
    }

    /// Answers calls past their deadline with Error.TimedOut; returns the next deadline.
    func expire(now: Double) -> Double? {
        for (id, p) in pending where p.deadline <= now {
            _ = error(p.call, StepServiceNames.Errors.timedOut,
                      "\(p.member) got no answer within \(deadlineSeconds) s: the step engine is busy (storage slow or stuck?); try again")
            sd_bus_message_unref(p.call)
            pending.removeValue(forKey: id)
        }
        return pending.values.map(\.deadline).min()
    }

    /// Emits PropertiesChanged when something changed and a second has passed; returns when to look again.
    ///
    /// A change that comes within the second after a signal wakes this thread once: it turns the
    /// board's wake-ups off and looks again at the second's end (later changes in that second
    /// wake nobody). A change after that second is sent at once: one wake-up a change.
    func emitChanges(now: Double) -> Double? {
        var current = engine.board.current
        if current.version == emitted.version {
            engine.board.signalChanges(true)
            // A change published while the signal was off has not woken this thread: look again.
            current = engine.board.current
            guard current.version != emitted.version else { return nil }
        }
        guard now - lastEmit >= Self.signalInterval else {
            engine.board.signalChanges(false)
            return lastEmit + Self.signalInterval
        }
        let changed = current.status.changedProperties(since: emitted.status)
        emitted = current
        // Nothing a client sees changed: as if nothing changed (this turns the signal back on).
        guard !changed.isEmpty else { return emitChanges(now: now) }
        lastEmit = now
        engine.board.signalChanges(true)
        var m: OpaquePointer?
        guard sd_bus_message_new_signal(connection.raw, &m, StepServiceNames.objectPath, StepServiceNames.properties, "PropertiesChanged") >= 0,
              let m else { return nil }
        defer { sd_bus_message_unref(m) }
        let r = BusMessage(m)
        do {
            try r.append(StepServiceNames.interface)
            try r.open("a", "{sv}")
            for name in changed {
                try r.open("e", "sv")
                try r.append(name)
                try current.status.writeProperty(name, to: r)
                try r.close()
            }
            try r.close()
            try r.open("a", "s")
            try r.close()
            _ = sd_bus_send(connection.raw, m, nil)
        } catch {}
        return nil
    }

    private func reply(_ call: OpaquePointer, _ fill: (BusMessage) throws -> Void) throws {
        var r: OpaquePointer?
        try BusMessage.check(sd_bus_message_new_method_return(call, &r), "building a reply")
        defer { sd_bus_message_unref(r) }
        try fill(BusMessage(r!))
        try BusMessage.check(sd_bus_send(connection.raw, r, nil), "sending a reply")
    }

    private func error(_ call: OpaquePointer, _ name: String, _ message: String) -> Int32 {
        var e = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer { sd_bus_error_free(&e) }
        _ = sd_bus_error_set(&e, name, message)
        _ = sd_bus_reply_method_error(call, &e)
        return 1
    }

    /// Get or GetAll for an interface the object does not have.
    private func unknownInterface(_ call: OpaquePointer, _ member: String, _ iface: String) -> Int32 {
        error(call, "org.freedesktop.DBus.Error.UnknownInterface",
              "\(member)'s interface_name '\(iface.escapedValue)' is not an interface with properties here: give \(StepServiceNames.interface)\(member == "GetAll" ? " (or \"\" for all)" : "")")
    }

    private func invalid(_ call: OpaquePointer, _ message: String) -> Int32 {
        error(call, StepServiceNames.Errors.invalidArgs, message)
    }
}
