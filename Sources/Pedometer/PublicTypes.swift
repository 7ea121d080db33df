/// Settings of the pedometer core. Every field has a documented default.
public struct PedometerConfiguration: Sendable {
    /// User height in metres; the default stride model scales with it (see `StrideModel(height:)`;
    /// values outside 0.5 to 2.5 m are clamped there, so tools should validate them first).
    public var userHeightMeters: Double = 1.75
    /// Height of one floor in metres. Core Motion documents "approximately three meters" per floor.
    /// Values below 1 m are taken as 1 m (tools should reject them with a message first).
    public var floorHeightMeters: Double = 3.0
    /// A stride model calibrated on two paces; when nil, `StrideModel(height: userHeightMeters)` is used.
    public var strideCalibration: StrideModel? = nil
    public init() {}
}

/// What the pedometer thinks the user is doing (Core Motion's classes; `vehicle` is its `automotive`).
public enum ActivityClass: String, Sendable, CaseIterable {
    case stationary, walking, running, cycling, vehicle, unknown
}

/// How sure the classification is, as `CMMotionActivityConfidence`.
public enum ActivityConfidence: String, Sendable, Comparable {
    case low, medium, high

    var rank: Int {
        switch self {
        case .low: 0
        case .medium: 1
        case .high: 2
        }
    }
    public static func < (a: ActivityConfidence, b: ActivityConfidence) -> Bool { a.rank < b.rank }
}

/// Direction of a floor climbed or descended on foot.
public enum FloorDirection: String, Sendable {
    case up, down
}

/// A stretch of one activity. Times are in the samples' clock (seconds).
public struct ActivitySegment: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var activity: ActivityClass
    public var confidence: ActivityConfidence

    public init(start: Double, end: Double, activity: ActivityClass, confidence: ActivityConfidence) {
        self.start = start
        self.end = end
        self.activity = activity
        self.confidence = confidence
    }

    /// Length of the segment in seconds.
    public var duration: Double { end - start }
}

/// Something the pedometer noticed. Times are in the samples' clock (seconds).
public enum PedometerEvent: Sendable, Equatable {
    /// One step, carrying the time of the step itself even when it is committed seconds later.
    case step(time: Double)
    /// One floor climbed or descended on foot.
    case floor(time: Double, direction: FloorDirection)
    /// A finished segment (or, at `finish()`, the final one).
    case activity(ActivitySegment)
    /// Walking stopped (like `CMPedometerEventType.pause`).
    case pause(time: Double)
    /// Walking (re)started (like `CMPedometerEventType.resume`).
    case resume(time: Double)
}

/// Totals and current state, like `CMPedometerData` plus the current activity.
public struct PedometerSnapshot: Sendable, Equatable {
    /// Time of the latest sample processed, seconds.
    public var time: Double = 0
    /// Committed steps so far.
    public var steps: Int = 0
    /// Distance walked in metres (steps × stride(cadence)).
    public var distanceMeters: Double = 0
    public var floorsAscended: Int = 0
    public var floorsDescended: Int = 0
    /// Steps per second; nil when not walking.
    public var currentCadence: Double? = nil
    /// Seconds per metre; nil when not walking.
    public var currentPace: Double? = nil
    /// Seconds per metre over the time spent walking or running; nil before any.
    public var averageActivePace: Double? = nil
    public var activity: ActivityClass = .unknown
    public var confidence: ActivityConfidence = .low
    /// Seconds since the first sample.
    public var duration: Double = 0
    /// Seconds spent walking or running.
    public var activeDuration: Double = 0

    public init() {}
}

/// Which pedometer outputs a source supports, like CMPedometer's `is…Available` class methods.
public struct Capabilities: Sendable, Equatable {
    public var isStepCountingAvailable: Bool
    public var isDistanceAvailable: Bool
    public var isFloorCountingAvailable: Bool
    public var isPaceAvailable: Bool
    public var isCadenceAvailable: Bool
    public var isPedometerEventTrackingAvailable: Bool

    /// Steps, distance, pace, cadence and pause/resume need only an accelerometer; floors need a barometer.
    public init(sensors: SensorCapabilities) {
        let steps = sensors.accelerometer
        isStepCountingAvailable = steps
        isDistanceAvailable = steps
        isFloorCountingAvailable = steps && sensors.barometer
        isPaceAvailable = steps
        isCadenceAvailable = steps
        isPedometerEventTrackingAvailable = steps
    }
}
