#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The totals of one minute (or of any run of minutes): what a history keeps per wall-clock minute.
public struct MinuteTotals: Sendable, Equatable {
    public var steps = 0
    /// Metres.
    public var distanceMeters = 0.0
    public var floorsAscended = 0
    public var floorsDescended = 0
    /// Seconds spent walking or running.
    public var activeSeconds = 0.0

    public init(steps: Int = 0, distanceMeters: Double = 0, floorsAscended: Int = 0, floorsDescended: Int = 0,
                activeSeconds: Double = 0) {
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.activeSeconds = activeSeconds
    }

    public static func += (a: inout MinuteTotals, b: MinuteTotals) {
        a.steps += b.steps
        a.distanceMeters += b.distanceMeters
        a.floorsAscended += b.floorsAscended
        a.floorsDescended += b.floorsDescended
        a.activeSeconds += b.activeSeconds
    }
}

/// Wall-clock minutes as integers: minute n starts at n × 60 s after 1970-01-01 00:00 UTC.
/// Local midnights fall on whole minutes in every time zone, so a query's resolution of one minute
/// loses nothing at day boundaries.
public enum WallMinute {
    /// The minute containing `date`.
    public static func index(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 60).rounded(.down))
    }

    /// The start of minute `index`.
    public static func start(of index: Int64) -> Date {
        Date(timeIntervalSince1970: Double(index) * 60)
    }

    /// The minutes that start within `[start, end)`; nil when none does.
    public static func starting(from start: Date, to end: Date) -> ClosedRange<Int64>? {
        let first = index(of: start) + (start.timeIntervalSince1970.truncatingRemainder(dividingBy: 60) == 0 ? 0 : 1)
        let last = index(of: end.addingTimeInterval(-1e-6))
        return first <= last ? first...last : nil
    }
}

/// Splits what the pedometer emitted into totals at the times they happened.
///
/// Steps and floors carry their own times. Distance and active time come only as running totals
/// in the snapshot, so the growth since the previous call is spread evenly over the new steps
/// (a batch spans a second or so); growth in a batch without steps is placed at the snapshot's
/// time. A snapshot whose totals went down comes from a new `Pedometer` (counting from zero again),
/// and is measured from zero.
public struct EventApportioner: Sendable {
    private var lastSteps = 0
    private var lastDistance = 0.0
    private var lastActive = 0.0

    public init() {}

    /// Calls `add` with the time (the events' clock, s) and totals of every contribution.
    public mutating func apportion(_ events: [PedometerEvent], snapshot: PedometerSnapshot,
                                   _ add: (Double, MinuteTotals) -> Void) {
        if snapshot.steps < lastSteps || snapshot.distanceMeters < lastDistance || snapshot.activeDuration < lastActive {
            self = EventApportioner()
        }
        let stepTimes = events.compactMap { event -> Double? in
            if case .step(let time) = event { return time }
            return nil
        }
        let distanceGrowth = snapshot.distanceMeters - lastDistance
        let activeGrowth = snapshot.activeDuration - lastActive
        if stepTimes.isEmpty {
            if distanceGrowth > 0 || activeGrowth > 0 {
                add(snapshot.time, MinuteTotals(distanceMeters: distanceGrowth, activeSeconds: activeGrowth))
            }
        } else {
            let share = MinuteTotals(steps: 1, distanceMeters: distanceGrowth / Double(stepTimes.count),
                                     activeSeconds: activeGrowth / Double(stepTimes.count))
            for time in stepTimes { add(time, share) }
        }
        for event in events {
            if case .floor(let time, let direction) = event {
                add(time, direction == .up ? MinuteTotals(floorsAscended: 1) : MinuteTotals(floorsDescended: 1))
            }
        }
        lastSteps = snapshot.steps
        lastDistance = snapshot.distanceMeters
        lastActive = snapshot.activeDuration
    }
}
