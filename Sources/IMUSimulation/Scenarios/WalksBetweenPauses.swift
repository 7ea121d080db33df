/// One walk of a daily-life scenario: `steps` steps, each interval drawn within
/// `shortest...longest` s (`Segment.stepIntervals`), a bounce of `amplitude` g, then `pause` s
/// standing still.
public struct PausedWalk: Sendable, Equatable {
    public var steps: Double
    public var shortest: Double
    public var longest: Double
    public var amplitude: Double
    public var pause: Double

    public init(steps: Double, shortest: Double, longest: Double, amplitude: Double, pause: Double) {
        (self.steps, self.shortest, self.longest, self.amplitude, self.pause) = (steps, shortest, longest, amplitude, pause)
    }
}

extension Segment {
    /// `leadingStill` s of standing, then each walk and its pause, the device held as `holding`.
    /// A walk lasts its steps times its mean interval, at the cadence of that mean.
    public static func walksBetweenPauses(_ walks: [PausedWalk], holding: DeviceHolding, leadingStill: Double = 5) -> [Segment] {
        var segments = [Segment(.still, seconds: leadingStill, holding: holding)]
        for w in walks {
            var walk = Segment(.walk, seconds: w.steps * (w.shortest + w.longest) / 2, cadence: 2 / (w.shortest + w.longest),
                               amplitude: w.amplitude, holding: holding)
            walk.stepIntervals = w.shortest...w.longest
            segments.append(walk)
            segments.append(Segment(.still, seconds: w.pause, holding: holding))
        }
        return segments
    }
}
