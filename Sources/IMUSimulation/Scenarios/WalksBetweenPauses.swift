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

extension PausedWalk {
    /// The simulator's lower-back daily life (issue 14, session 15; `imu-bench-accuracy`'s
    /// `LowerBackDailyLifeReport` and the tests that trace its walks): (steps, shortest and
    /// longest interval s, bounce g, pause s) per walk. Bounces of 0.14 to 0.2 g: the real-dev
    /// lower-back walks' gait windows (tuned part, s02 t1/t3, s03 t1/t2) deviate 0.13 to 0.18 g on
    /// average per trial, which the simulator's lower back gives at a 0.17 to 0.23 g bounce; these
    /// walks are slower, so a little weaker.
    public static let lowerBackDailyLife: [PausedWalk] = ([
        (6, 0.4, 0.8, 0.18, 3), (10, 0.5, 1.5, 0.15, 4), (8, 1.0, 2.0, 0.14, 3), (20, 0.5, 0.7, 0.2, 2),
        (6, 0.3, 2.0, 0.15, 5), (12, 0.4, 1.0, 0.18, 2.5), (4, 0.6, 1.4, 0.15, 4), (15, 0.8, 1.6, 0.15, 3),
    ] as [(Double, Double, Double, Double, Double)]).map { PausedWalk(steps: $0.0, shortest: $0.1, longest: $0.2, amplitude: $0.3, pause: $0.4) }
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
