#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    private var bins: [Int64: MinuteTotals] = [:]
    private var newestMinute = Int64.min
    private var apportioner = EventApportioner()

    public init(mapping: BootTimeMapping, capabilities: Capabilities, retention: TimeInterval = 7 * 86_400) {
        self.mapping = mapping
        self.capabilities = capabilities
        self.retention = retention
    }

    /// Number of minutes held (for memory checks).
    public var binCount: Int { bins.count }

    /// Records what the pedometer emitted since the last call, with its snapshot afterwards
    /// (distance and active time are spread over the new steps, see `EventApportioner`).
    public mutating func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot) {
        var apportioner = self.apportioner
        apportioner.apportion(events, snapshot: snapshot) { time, totals in
            let minute = WallMinute.index(of: mapping.date(bootSeconds: time))
            bins[minute, default: MinuteTotals()] += totals
            newestMinute = max(newestMinute, minute)
        }
        self.apportioner = apportioner
        prune()
    }

    private mutating func prune() {
        let keep = Int64((retention / 60).rounded(.up))
        guard newestMinute != Int64.min, bins.count > keep else { return }
        let oldest = newestMinute - keep
        bins = bins.filter { $0.key > oldest }
    }

    /// Totals of the minutes that start within `[start, end)`.
    public func query(from start: Date, to end: Date) -> PedometerData {
        var total = MinuteTotals()
        if let minutes = WallMinute.starting(from: start, to: end) {
            for (minute, bin) in bins where minutes.contains(minute) { total += bin }
        }
        return PedometerData(
            startDate: start, endDate: end, numberOfSteps: total.steps,
            distance: capabilities.isDistanceAvailable ? total.distanceMeters : nil,
            floorsAscended: capabilities.isFloorCountingAvailable ? total.floorsAscended : nil,
            floorsDescended: capabilities.isFloorCountingAvailable ? total.floorsDescended : nil,
            averageActivePace: total.distanceMeters > 0 ? total.activeSeconds / total.distanceMeters : nil)
    }

    /// Totals for the local day containing `date` (midnight to midnight in `timeZone`; nil: this
    /// process's zone, `LocalDay.interval(containing:)`).
    public func today(containing date: Date, in timeZone: TimeZone? = nil) -> PedometerData {
        let day = timeZone.map { LocalDay.interval(containing: date, in: $0) } ?? LocalDay.interval(containing: date)
        return query(from: day.start, to: day.end)
    }
}
