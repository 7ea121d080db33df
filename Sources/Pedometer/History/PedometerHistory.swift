import Foundation

/// Steps, distance and floors by minute, for queries over any interval, in bounded memory.
///
/// Events carry boot-clock times; a `BootTimeMapping` puts them on the wall clock. Totals are kept
/// per wall-clock minute (a query's resolution is one minute: local midnights, also on
/// daylight-saving days, fall on whole minutes), and minutes older than `retention` are dropped,
/// as Core Motion keeps seven days. Memory is at most `retention / 60 s` bins.
public struct PedometerHistory: Sendable {
    public let mapping: BootTimeMapping
    /// How long minutes are kept, s (default seven days, like Core Motion).
    public let retention: TimeInterval
    public let capabilities: Capabilities

    struct Bin: Sendable, Equatable {
        var steps = 0
        var distance = 0.0
        var ascended = 0
        var descended = 0
        var activeSeconds = 0.0
    }

    private var bins: [Int64: Bin] = [:]
    private var newestMinute = Int64.min
    private var lastSteps = 0
    private var lastDistance = 0.0
    private var lastActive = 0.0

    public init(mapping: BootTimeMapping, capabilities: Capabilities, retention: TimeInterval = 7 * 86_400) {
        self.mapping = mapping
        self.capabilities = capabilities
        self.retention = retention
    }

    /// Number of minutes held (for memory checks).
    public var binCount: Int { bins.count }

    private static func minute(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 60).rounded(.down))
    }

    /// Records what the pedometer emitted since the last call, with its snapshot afterwards
    /// (distance and active time are spread over the new steps).
    public mutating func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot) {
        let newSteps = snapshot.steps - lastSteps
        let distancePerStep = newSteps > 0 ? (snapshot.distanceMeters - lastDistance) / Double(newSteps) : 0
        let activePerStep = newSteps > 0 ? (snapshot.activeDuration - lastActive) / Double(newSteps) : 0
        for event in events {
            switch event {
            case .step(let time):
                update(at: time) {
                    $0.steps += 1
                    $0.distance += distancePerStep
                    $0.activeSeconds += activePerStep
                }
            case .floor(let time, let direction):
                update(at: time) {
                    if direction == .up { $0.ascended += 1 } else { $0.descended += 1 }
                }
            case .activity, .pause, .resume:
                break
            }
        }
        lastSteps = snapshot.steps
        lastDistance = snapshot.distanceMeters
        lastActive = snapshot.activeDuration
        prune()
    }

    private mutating func update(at bootSeconds: Double, _ change: (inout Bin) -> Void) {
        let minute = Self.minute(of: mapping.date(bootSeconds: bootSeconds))
        change(&bins[minute, default: Bin()])
        newestMinute = max(newestMinute, minute)
    }

    private mutating func prune() {
        let keep = Int64((retention / 60).rounded(.up))
        guard newestMinute != Int64.min, bins.count > keep else { return }
        let oldest = newestMinute - keep
        bins = bins.filter { $0.key > oldest }
    }

    /// Totals of the minutes that start within `[start, end)`.
    public func query(from start: Date, to end: Date) -> PedometerData {
        let first = Self.minute(of: start) + (start.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0 ? 0 : 1)
        let last = Self.minute(of: end.addingTimeInterval(-1e-6))
        var total = Bin()
        for (minute, bin) in bins where minute >= first && minute <= last {
            total.steps += bin.steps
            total.distance += bin.distance
            total.ascended += bin.ascended
            total.descended += bin.descended
            total.activeSeconds += bin.activeSeconds
        }
        return PedometerData(
            startDate: start, endDate: end, numberOfSteps: total.steps,
            distance: capabilities.isDistanceAvailable ? total.distance : nil,
            floorsAscended: capabilities.isFloorCountingAvailable ? total.ascended : nil,
            floorsDescended: capabilities.isFloorCountingAvailable ? total.descended : nil,
            averageActivePace: total.distance > 0 ? total.activeSeconds / total.distance : nil)
    }

    /// Totals for the local day containing `date` (midnight to midnight in `timeZone`).
    public func today(containing date: Date, in timeZone: TimeZone = .current) -> PedometerData {
        let day = LocalDay.interval(containing: date, in: timeZone)
        return query(from: day.start, to: day.end)
    }
}
