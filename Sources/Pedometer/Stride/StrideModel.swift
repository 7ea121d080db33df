/// Stride (metres per step) as a straight line in cadence: `stride = a + b · cadence`.
///
/// People lengthen their steps as they speed up, so one fixed stride misjudges every other pace
/// (the pedometer seed measures −37% at a run); a line through two calibrated paces stays within
/// about 6% from a stroll to a run (same seed).
public struct StrideModel: Sendable, Equatable {
    /// Intercept in metres.
    public var intercept: Double
    /// Slope in metres per (step/s).
    public var slope: Double

    public init(intercept: Double, slope: Double) {
        self.intercept = intercept
        self.slope = slope
    }

    /// Default model from body height. At a typical walking cadence of 1.8 steps/s the step length
    /// is about 0.415 × height (a common anthropometric rule of thumb: 0.415 h for men, 0.413 h for
    /// women), and the seed's illustrative paces grow by about 0.43 m per step/s of cadence; the
    /// slope is scaled with height from a 1.75 m reference.
    /// Heights outside 0.5 to 2.5 m (or not finite) are clamped to that range.
    public init(height: Double) {
        let height = height.isFinite ? min(2.5, max(0.5, height)) : 1.75
        let reference = 1.75                       // m, height the slope figure refers to
        let slope = 0.43 * height / reference      // m per (step/s), seed paces 1.6→2.8 steps/s
        let atWalk = 0.415 * height                // m per step at 1.8 steps/s
        self.init(intercept: atWalk - slope * 1.8, slope: slope)
    }

    /// The line through two calibrated paces, each (cadence in steps/s, stride in m).
    /// Returns nil when the cadences are equal (no line through them) or a value is not finite/positive.
    public init?(calibratedFrom first: (cadence: Double, stride: Double), _ second: (cadence: Double, stride: Double)) {
        let values = [first.cadence, first.stride, second.cadence, second.stride]
        guard values.allSatisfy({ $0.isFinite && $0 > 0 }), abs(second.cadence - first.cadence) > 1e-6 else { return nil }
        let slope = (second.stride - first.stride) / (second.cadence - first.cadence)
        self.init(intercept: first.stride - slope * first.cadence, slope: slope)
    }

    /// Step length in metres at `cadence` steps/s, never below 0.1 m (a shuffle).
    @inlinable public func stride(cadence: Double) -> Double {
        max(0.1, intercept + slope * cadence)
    }
}
