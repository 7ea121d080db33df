import Pedometer

/// What really happened, drawn over a simulated scenario's plot (in black, dashed or hollow). Times
/// are on the samples' timeline, s.
public struct TruthOverlay {
    public var stepTimes: [Double]
    public var floors: [(time: Double, up: Bool)]
    public var activities: [(start: Double, end: Double, activity: ActivityClass)]
    /// Each stretch of gait with its mean cadence, steps/min.
    public var cadences: [(start: Double, end: Double, stepsPerMinute: Double)]
    /// True altitude change since the start, m, at a time.
    public var altitude: (Double) -> Double

    public init(stepTimes: [Double], floors: [(time: Double, up: Bool)],
                activities: [(start: Double, end: Double, activity: ActivityClass)],
                cadences: [(start: Double, end: Double, stepsPerMinute: Double)],
                altitude: @escaping (Double) -> Double) {
        self.stepTimes = stepTimes
        self.floors = floors
        self.activities = activities
        self.cadences = cadences
        self.altitude = altitude
    }
}
