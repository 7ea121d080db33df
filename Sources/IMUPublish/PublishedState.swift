import Foundation

/// What a device publishes: today's totals and what it is doing now. The totals are cumulative
/// over the local day, so a message lost while the broker was away loses nothing: the next one
/// carries the sum.
public struct PublishedState: Sendable, Equatable {
    public var stepsToday: Int
    /// Metres walked today.
    public var distanceTodayMeters: Double
    public var floorsAscendedToday: Int
    public var floorsDescendedToday: Int
    /// Current cadence, steps per second (Core Motion's unit); published as steps per minute.
    public var cadenceStepsPerSecond: Double?
    /// An `ActivityClass` raw value: stationary, walking, running, cycling, vehicle, unknown.
    public var activity: String
    /// An `ActivityConfidence` raw value: low, medium, high.
    public var confidence: String

    public init(stepsToday: Int = 0, distanceTodayMeters: Double = 0, floorsAscendedToday: Int = 0,
                floorsDescendedToday: Int = 0, cadenceStepsPerSecond: Double? = nil,
                activity: String = "unknown", confidence: String = "low") {
        self.stepsToday = stepsToday
        self.distanceTodayMeters = distanceTodayMeters
        self.floorsAscendedToday = floorsAscendedToday
        self.floorsDescendedToday = floorsDescendedToday
        self.cadenceStepsPerSecond = cadenceStepsPerSecond
        self.activity = activity
        self.confidence = confidence
    }

    /// The JSON state message: one retained message holds every value, so a subscriber never
    /// sees today's steps from one moment beside the distance from another.
    public var json: String {
        // Distance to the centimetre and cadence to a tenth of a step per minute: finer digits
        // would only make every message differ from the last without telling anyone more.
        // A value that is not finite is null: printf's "nan" and "inf" are no JSON, and Home
        // Assistant's value_json is undefined for a message that is not JSON: every sensor went stale.
        let cadence = cadenceStepsPerSecond.flatMap { $0.isFinite ? String(format: "%.1f", ($0 * 60 * 10).rounded() / 10) : nil } ?? "null"
        let distance = distanceTodayMeters.isFinite ? String(format: "%.2f", distanceTodayMeters) : "null"
        return "{\"steps_today\":\(stepsToday),\"distance_today_m\":\(distance),"
            + "\"floors_ascended_today\":\(floorsAscendedToday),\"floors_descended_today\":\(floorsDescendedToday),"
            + "\"cadence_spm\":\(cadence),\"activity\":\"\(Self.token(activity))\",\"confidence\":\"\(Self.token(confidence))\"}"
    }

    /// Labels are enum raw values; anything else is published as "unknown" rather than quoted raw.
    private static func token(_ text: String) -> String {
        text.allSatisfy { $0.isLetter || $0 == "_" } && !text.isEmpty ? text : "unknown"
    }
}
