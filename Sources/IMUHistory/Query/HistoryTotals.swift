import FoundationEssentials

/// The sums of one interval: the minutes that start within `[start, end)`.
public struct HistoryTotals: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var steps: Int
    /// Metres (stored to the millimetre per minute).
    public var distanceMeters: Double
    public var floorsAscended: Int
    public var floorsDescended: Int
    /// Seconds spent walking or running (stored to the millisecond per minute).
    public var activeSeconds: Double

    public init(start: Date, end: Date, steps: Int = 0, distanceMeters: Double = 0, floorsAscended: Int = 0,
                floorsDescended: Int = 0, activeSeconds: Double = 0) {
        self.start = start
        self.end = end
        self.steps = steps
        self.distanceMeters = distanceMeters
        self.floorsAscended = floorsAscended
        self.floorsDescended = floorsDescended
        self.activeSeconds = activeSeconds
    }

    init(start: Date, end: Date, _ totals: MinuteTotals) {
        self.init(start: start, end: end, steps: totals.steps, distanceMeters: totals.distanceMeters,
                  floorsAscended: totals.floorsAscended, floorsDescended: totals.floorsDescended,
                  activeSeconds: totals.activeSeconds)
    }
}

/// An activity segment on the wall clock, like `CMMotionActivity` from `queryActivityStarting`.
public struct HistoryActivity: Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var activity: ActivityClass
    public var confidence: ActivityConfidence

    public init(start: Date, end: Date, activity: ActivityClass, confidence: ActivityConfidence) {
        self.start = start
        self.end = end
        self.activity = activity
        self.confidence = confidence
    }
}

/// A moment when counting or walking paused or resumed.
public struct HistoryMarker: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// The pedometer saw walking stop (`PedometerEvent.pause`).
        case walkingPaused = "walking-paused"
        /// The pedometer saw walking (re)start (`PedometerEvent.resume`).
        case walkingResumed = "walking-resumed"
        /// Counting was paused on request (`HistoryStore.recordPause`).
        case countingPaused = "counting-paused"
        /// Counting resumed on request (`HistoryStore.recordResume`).
        case countingResumed = "counting-resumed"
    }

    public var date: Date
    public var kind: Kind

    public init(date: Date, kind: Kind) {
        self.date = date
        self.kind = kind
    }
}
