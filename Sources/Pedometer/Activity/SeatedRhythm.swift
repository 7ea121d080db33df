/// What a device on a seated rider's torso (a jersey pocket, a backpack) feels while pedalling,
/// from one analysis window (`PedallingAnalyser`).
///
/// The legs push in turn: each pedal stroke lifts the pelvis a little (a vertical bob twice per
/// revolution) and each leg's push rocks it towards that side (a sway once per revolution).
/// Vertical motion changes the magnitude of the specific force; the rock changes its direction.
/// So the low-passed magnitude repeats at the stroke and the tilt repeats at two strokes while
/// it is at its opposite after one. Road vibration is removed by the same 3 Hz low-pass that
/// follows the tilt (`PedallingAnalyser.tiltCutoffHz`).
struct SeatedRhythm: Sendable, Equatable {
    /// Standard deviation of the low-passed magnitude, g.
    var deviation = 0.0
    /// Strongest repeat of the low-passed magnitude in `Limit.strokeBand`, Hz; 0 when flat.
    var strokeFrequency = 0.0
    /// Its normalised autocorrelation.
    var strokeRegularity = 0.0
    /// The tilt's autocorrelation at two strokes (one revolution) and at one stroke.
    var rockPerRevolution = 0.0
    var rockPerStroke = 0.0

    enum Limit {
        /// Pedal strokes per second searched: two per revolution at 48 to 99 rpm
        /// (`PedallingWindow.Limit.crankBand`).
        static let strokeBand = 1.6...3.3
        /// A seated rider's strokes must be faster than any walk's steps (walking cadences top
        /// out around 2.2 steps/s; `GaitGate.runningCadence`): a phone held in the hand on a
        /// slow walk bobs as weakly, sways with the stride and feels no braking per step (the
        /// oxford walk samsung-jamie-hard-inhand-1, 1.6 to 1.9 steps/s, met every other bound in
        /// 33 of its 142 windows and lost 40 % of its steps before this bound). Faster than
        /// 2.2 per second and weaker than 0.1 g is no run either (a run bounces 0.5 g and more).
        /// The cost: a torso-worn device is recognised only at 66 rpm and more; a thigh
        /// (`PedallingWindow`) at any cadence of the crank band.
        static let minimumStrokeFrequency = 2.2
        /// The bob's strength, g: a torso lifted 1 to 5 mm per stroke at 2 to 3 strokes/s
        /// accelerates 0.01 to 0.1 g (a·(2πf)²/g; above that the rider stands on the pedals, and
        /// the thigh's own rhythm, `PedallingWindow`, takes over). Below 0.01 g a low-passed MEMS
        /// signal is noise. The real-dev lower-back walks' gait windows measure 0.062 g and more
        /// (5th percentile; the slowest, 0.73 m/s, included); the rule below, not this bound,
        /// keeps them out.
        static let deviation = 0.01...0.1
        /// Clearly periodic (the step counter's gate asks as much of a walk).
        static let minimumRegularity = 0.5
        /// The rock repeats every revolution and is at its opposite after one stroke, as for the
        /// thigh's half-period rule (`PedallingWindow.Limit.maximumHalfPeriodCorrelation`). A
        /// walk brakes and pushes along its direction of travel at every step, so its tilt
        /// repeats at the step: of the real-dev lower-back walks' gait windows one in 319 meets
        /// both (their median at one step is +0.21; none with the cadence bound above); of the
        /// real bus, tram, car and metro rides' windows none does (one metro window, at 0.002 g,
        /// below the strength bound).
        static let minimumRockPerRevolution = 0.3
        static let maximumRockPerStroke = -0.3
    }

    /// A seated rider's alternating push: the bob repeats per stroke, the rock per revolution.
    var isPedalling: Bool {
        rhythmFits && rockPerRevolution >= Limit.minimumRockPerRevolution && rockPerStroke <= Limit.maximumRockPerStroke
    }

    /// The bob's strength is a seated rider's (`PedallingAnalyser` searches the stroke band only then).
    var mayPedal: Bool { Limit.deviation.contains(deviation) }

    /// Strength, stroke rate and regularity are a seated rider's (`PedallingAnalyser` measures
    /// the rock only then).
    var rhythmFits: Bool {
        mayPedal && strokeFrequency >= Limit.minimumStrokeFrequency && strokeRegularity >= Limit.minimumRegularity
    }
}
