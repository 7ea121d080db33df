/// The few step thresholds a tuning tool may vary (`@_spi(Tuning)`): the ones that decide how
/// much of a walk's soft first and last steps is counted, which is where the development
/// recordings disagree with each other. `imu-bench-accuracy` searches a small named grid of them
/// and reports each person's walks with the point chosen on the other people's walks (leave one
/// person out). The shipped values are `StepTuning.shipped` (`StepSettings`' defaults).
@_spi(Tuning) public struct StepTuning: Sendable, Hashable, CustomStringConvertible {
    /// `BoutRules.envelopeFraction`: share of the walk's energy that still counts at its edges.
    public var envelopeFraction: Double
    /// `BoutRules.edgeCorrelation`: stride-to-stride correlation that still counts at its edges.
    public var edgeCorrelation: Double
    /// `HeelStrikes.heightFraction`: least height of a first or last step, × the walk's RMS.
    public var heightFraction: Double

    public init(envelopeFraction: Double, edgeCorrelation: Double, heightFraction: Double) {
        self.envelopeFraction = envelopeFraction
        self.edgeCorrelation = edgeCorrelation
        self.heightFraction = heightFraction
    }

    init(_ settings: StepSettings) {
        self.init(envelopeFraction: settings.bout.envelopeFraction, edgeCorrelation: settings.bout.edgeCorrelation,
                  heightFraction: settings.strikes.heightFraction)
    }

    /// The values the pedometer ships with.
    public static var shipped: StepTuning { StepTuning(StepSettings()) }

    func applied(to settings: StepSettings) -> StepSettings {
        var s = settings
        s.bout.envelopeFraction = envelopeFraction
        s.bout.edgeCorrelation = edgeCorrelation
        s.strikes.heightFraction = heightFraction
        return s
    }

    public var description: String {
        "envelope \(envelopeFraction) edge r \(edgeCorrelation) strike height \(heightFraction)"
    }
}
