/// The power policy for a GNSS receiver: ask gpsd for reports only while the IMU cannot settle
/// the activity alone. A receiver draws 20 to 30 mA while tracking, an accelerometer 0.5 to 1 mA
/// (the activity seed's figures); gpsd powers a receiver down when no client watches.
///
/// - Wanted while the activity is a vehicle, cycling or running (faster than a walk could
///   explain: the vote needs the speed to tell a car from a bicycle or a runner), unknown, or of
///   low confidence.
/// - Not wanted while stationary or walking at medium or high confidence: steps settle those,
///   and a treadmill does not need a fix.
/// - Once wanted, kept for at least `minimumOnSeconds`: a receiver needs seconds to a fix after
///   a warm start, so switching it off at every flicker would spend more than it saves.
public struct GPSDemand: Sendable {
    /// Shortest time reports stay requested, s.
    public static let minimumOnSeconds = 60.0

    private var onSince: Double?
    /// Seconds with reports requested, and seconds observed.
    public private(set) var onSeconds = 0.0
    public private(set) var totalSeconds = 0.0
    private var lastTime: Double?

    public init() {}

    /// Whether reports are wanted at `time` (s) for the pedometer's current `activity`.
    public mutating func update(time: Double, activity: ActivityClass, confidence: ActivityConfidence) -> Bool {
        let needed: Bool
        switch activity {
        case .vehicle, .cycling, .running, .unknown: needed = true
        case .stationary, .walking: needed = confidence == .low
        }
        var on = needed
        if needed {
            if onSince == nil { onSince = time }
        } else if let since = onSince {
            if time - since < Self.minimumOnSeconds { on = true } else { onSince = nil }
        }
        if let last = lastTime, time > last {
            totalSeconds += time - last
            if on { onSeconds += time - last }
        }
        lastTime = time
        return on
    }

    /// Share of the time reports were requested (0 to 1).
    public var dutyCycle: Double { totalSeconds > 0 ? onSeconds / totalSeconds : 0 }
}
