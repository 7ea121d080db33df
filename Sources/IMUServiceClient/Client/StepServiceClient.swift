import FoundationEssentials
import IMUHistory
import Pedometer

/// The library's way to ask the step daemon (imu-stepd) about steps, like `CMPedometer`'s queries.
///
/// Every call opens its own connection on a thread of its own (`OwnThread.run`, named
/// `callThread`: sd-bus blocks; the cooperative pool never does, and on Linux Dispatch's global
/// queues share its threads), so the client is freely Sendable. Calls answer within `timeoutSeconds` or throw.
public struct StepServiceClient: Sendable {
    public let bus: BusAddress
    /// The longest a call may take, in seconds. The daemon's own deadline is shorter (2 s).
    public let timeoutSeconds: Double

    /// The history holds no minute before this instant (`HistoryStore.earliestPlausibleDate`: a
    /// clock that reads earlier was never set), so a question about earlier times is a slip.
    public static let earliestHistoryDate = HistoryStore.earliestPlausibleDate

    /// The name of the threads that make the calls.
    static let callThread = "imukit-bus-call"

    public init(bus: BusAddress = .system, timeoutSeconds: Double = 5) {
        self.bus = bus
        self.timeoutSeconds = timeoutSeconds
    }

    /// Is the daemon on the bus? False also when there is no bus at all.
    public func isRunning() async -> Bool {
        (try? await OwnThread.run(name: Self.callThread) { try BusConnection(bus).hasOwner(StepServiceNames.busName) }) ?? false
    }

    /// Totals over [from, to), like `queryPedometerData(from:to:)`.
    public func totals(from: Date, to: Date) async throws -> StepTotals {
        try await method("QueryTotals", fill: { m in
            try m.append(WireTime.micros(from)); try m.append(WireTime.micros(to))
        }, read: { m in
            guard let t = try StepTotals.read(from: m) else { throw BusError(.failed, "QueryTotals returned nothing") }
            return t
        })
    }

    /// One total per local day of `timeZone` overlapping [from, to), oldest first.
    public func days(from: Date, to: Date, timeZone: TimeZone) async throws -> [StepTotals] {
        try await days(from: from, to: to, timeZoneIdentifier: timeZone.identifier)
    }

    /// One total per local day of the zone named `timeZoneIdentifier` (IANA, e.g. "Europe/Berlin";
    /// "": the daemon's zone) overlapping [from, to), oldest first: the daemon cuts the days, in
    /// its own zone database.
    public func days(from: Date, to: Date, timeZoneIdentifier: String) async throws -> [StepTotals] {
        try await method("QueryDays", fill: { m in
            try m.append(WireTime.micros(from)); try m.append(WireTime.micros(to)); try m.append(timeZoneIdentifier)
        }, read: Self.readTotalsArray)
    }

    /// One total per local day of this process overlapping [from, to), oldest first, each clipped
    /// to [from, to): the days the C library cuts (`LocalTime.dayBounds`), the ones `--today` and
    /// the tools' clocks use, whatever `TZ` holds: a zone name, a POSIX rule with its
    /// daylight-saving changes (TZ=EST5EDT,M3.2.0,M11.1.0, which names no zone to send), a zone
    /// under `TZDIR`. They are asked for by instants (`totals(between:)`). At most 3 700 days.
    public func days(from: Date, to: Date) async throws -> [StepTotals] {
        let (a, b) = (from.timeIntervalSince1970, to.timeIntervalSince1970)
        // Cut on the call thread: the C library may read zone files (tzset(3)) the first time.
        return try await intervals { LocalTime.dayBounds(from: a, to: b).map { WireTime.micros(Date(timeIntervalSince1970: $0)) } }
    }

    /// One total per interval between consecutive `bounds` (increasing, at most 3 701 of them),
    /// oldest first: QueryIntervals. A daemon older than that method (UnknownMethod), or a bus
    /// whose policy file predates it (AccessDenied), is asked QueryTotals for each interval
    /// instead, on one connection: the same answer, one call per interval.
    public func totals(between bounds: [Date]) async throws -> [StepTotals] {
        let micros = bounds.map(WireTime.micros)
        return try await intervals { micros }
    }

    private func intervals(_ bounds: @escaping @Sendable () -> [Int64]) async throws -> [StepTotals] {
        let bus = self.bus, timeout = timeoutSeconds
        return try await OwnThread.run(name: Self.callThread) {
            let micros = bounds()
            guard micros.count >= 2 else { return [] }
            let c = try BusConnection(bus)
            do {
                return try Self.call(c, "QueryIntervals", timeout: timeout, fill: { try $0.append(micros) }, read: Self.readTotalsArray)
            } catch let e as BusError where e.kind == .remote
                && (e.remoteName == "org.freedesktop.DBus.Error.UnknownMethod" || e.remoteName == StepServiceNames.Errors.accessDenied) {
                return try zip(micros, micros.dropFirst()).map { from, to in
                    try Self.call(c, "QueryTotals", timeout: timeout, fill: { m in try m.append(from); try m.append(to) }, read: Self.readTotals)
                }
            }
        }
    }

    static func readTotals(_ m: BusMessage) throws -> StepTotals {
        guard let t = try StepTotals.read(from: m) else { throw BusError(.failed, "the step daemon's answer held no totals") }
        return t
    }

    static func readTotalsArray(_ m: BusMessage) throws -> [StepTotals] {
        var out: [StepTotals] = []
        _ = try m.enter("a", "(\(TotalsWire.signature))")
        while let t = try StepTotals.read(from: m) { out.append(t) }
        try m.exit()
        return out
    }

    /// The activity segments overlapping [from, to), like `queryActivityStarting(from:to:)`.
    public func activities(from: Date, to: Date) async throws -> [StepActivity] {
        try await method("QueryActivities", fill: { m in
            try m.append(WireTime.micros(from)); try m.append(WireTime.micros(to))
        }, read: { m in
            var out: [StepActivity] = []
            _ = try m.enter("a", "(\(ActivityWire.signature))")
            while let a = try StepActivity.read(from: m) { out.append(a) }
            try m.exit()
            return out
        })
    }

    /// Today's totals, the current activity, cadence, sensor and storage state.
    public func status() async throws -> ServiceStatus {
        let timeout = timeoutSeconds, bus = self.bus
        return try await OwnThread.run(name: Self.callThread) {
            try Self.getAll(BusConnection(bus), timeout: timeout)
        }
    }

    /// Stops counting until `resume()` (root or group imukit only).
    public func pause() async throws { try await control("Pause") }
    public func resume() async throws { try await control("Resume") }
    /// Restarts the pedometer and reopens the sensor (root or group imukit only); history is kept.
    public func reset() async throws { try await control("Reset") }

    /// The status now and after every PropertiesChanged (at most once a second). Ends with an
    /// error when the daemon leaves the bus; cancelling the consumer stops the listening thread.
    public func updates() -> AsyncThrowingStream<ServiceStatus, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ServiceStatus, any Error>.makeStream()
        let stop = StopSignal()
        continuation.onTermination = { _ in stop.set() }
        let bus = self.bus, timeout = timeoutSeconds
        do {
            try OwnThread.start(name: "imukit-bus-client") {
                do {
                    let c = try BusConnection(bus)
                    let watcher = try SignalWatcher(c, path: StepServiceNames.objectPath,
                                                    interface: StepServiceNames.properties, member: "PropertiesChanged")
                    continuation.yield(try Self.getAll(c, timeout: timeout))
                    while !stop.isSet {
                        c.wait(seconds: 0.5)
                        while try c.process() {}
                        if watcher.takeFired() { continuation.yield(try Self.getAll(c, timeout: timeout)) }
                        if !(try c.hasOwner(StepServiceNames.busName)) {
                            throw BusError(.serviceNotRunning, "the step daemon imu-stepd stopped", fix: BusError.notRunningFix)
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
        } catch {
            continuation.finish(throwing: error)
        }
        return stream
    }

    // MARK: Plumbing

    static func getAll(_ c: BusConnection, timeout: Double) throws -> ServiceStatus {
        var status = try c.call(destination: StepServiceNames.busName, path: StepServiceNames.objectPath,
                                interface: StepServiceNames.properties, member: "GetAll", timeoutSeconds: timeout,
                                fill: { try $0.append(StepServiceNames.interface) },
                                read: { try ServiceStatus.read(from: $0) })
        // Today in this process's zone through the C library (`LocalTime`; `TimeZone.current` is
        // GMT in a tool linked without full Foundation).
        let day = LocalTime.day(containing: Date().timeIntervalSince1970)
        status.today.start = Date(timeIntervalSince1970: day.start)
        status.today.end = Date(timeIntervalSince1970: day.end)
        return status
    }

    private func control(_ member: String) async throws {
        try await method(member, fill: { _ in }, read: { _ in () })
    }

    private func method<T: Sendable>(_ member: String, fill: @escaping @Sendable (BusMessage) throws -> Void,
                                     read: @escaping @Sendable (BusMessage) throws -> T) async throws -> T {
        let bus = self.bus, timeout = timeoutSeconds
        return try await OwnThread.run(name: Self.callThread) {
            try Self.call(BusConnection(bus), member, timeout: timeout, fill: fill, read: read)
        }
    }

    /// A method of the service's interface on connection `c` (blocking: on a call thread only).
    static func call<T>(_ c: BusConnection, _ member: String, timeout: Double, fill: (BusMessage) throws -> Void,
                        read: (BusMessage) throws -> T) throws -> T {
        try c.call(destination: StepServiceNames.busName, path: StepServiceNames.objectPath,
                   interface: StepServiceNames.interface, member: member, timeoutSeconds: timeout, fill: fill, read: read)
    }
}
