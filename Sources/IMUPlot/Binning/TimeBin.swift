/// Everything a plot keeps about one slice of time. Signals keep their extremes, events their count
/// and time sum, stretches (walking bouts, activities) their seconds, so two neighbouring bins merge
/// into one exactly: that is what keeps a 24-hour recording in a fixed number of bins.
struct TimeBin: Sendable, Equatable {
    /// |specific force|, g.
    var acceleration = Extent()
    /// Altitude change since the recording's first pressure reading, m.
    var altitude = Extent()
    /// Pedometer cadence while walking, steps/min.
    var cadence = Extent()
    var steps = EventTally()
    var floorsUp = EventTally()
    var floorsDown = EventTally()
    /// Seconds inside a walking bout (pedometer resume … pause).
    var boutSeconds = 0.0
    var activity = ActivityTally()
    /// The simulator's ground truth, when plotting a simulated scenario.
    var trueSteps = EventTally()
    var trueFloorsUp = EventTally()
    var trueFloorsDown = EventTally()
    var trueActivity = ActivityTally()

    mutating func merge(_ o: TimeBin) {
        acceleration.merge(o.acceleration)
        altitude.merge(o.altitude)
        cadence.merge(o.cadence)
        steps.merge(o.steps)
        floorsUp.merge(o.floorsUp)
        floorsDown.merge(o.floorsDown)
        boutSeconds += o.boutSeconds
        activity.merge(o.activity)
        trueSteps.merge(o.trueSteps)
        trueFloorsUp.merge(o.trueFloorsUp)
        trueFloorsDown.merge(o.trueFloorsDown)
        trueActivity.merge(o.trueActivity)
    }
}
