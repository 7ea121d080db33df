#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Totals over an interval, like `CMPedometerData`. Optional values mean "not available", never zero.
public struct PedometerData: Sendable, Equatable {
    public var startDate: Date
    public var endDate: Date
    public var numberOfSteps: Int
    /// Metres; nil when the source cannot estimate distance.
    public var distance: Double?
    /// nil when the source has no barometer (`isFloorCountingAvailable` is false).
    public var floorsAscended: Int?
    public var floorsDescended: Int?
    /// Steps per second; only in live updates while walking, nil in queries (as Core Motion documents).
    public var currentCadence: Double?
    /// Seconds per metre; only in live updates while walking.
    public var currentPace: Double?
    /// Seconds per metre over the active time of the interval; nil without walking.
    public var averageActivePace: Double?

    public init(startDate: Date, endDate: Date, numberOfSteps: Int = 0, distance: Double? = nil,
                floorsAscended: Int? = nil, floorsDescended: Int? = nil, currentCadence: Double? = nil,
                currentPace: Double? = nil, averageActivePace: Double? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.numberOfSteps = numberOfSteps
        self.distance = distance
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.currentCadence = currentCadence
        self.currentPace = currentPace
        self.averageActivePace = averageActivePace
    }
}
