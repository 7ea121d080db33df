/// What one analysis window (4 s, every 1 s) says about the motion, for the step counter and the
/// activity classifier.
struct GaitWindow: Sendable {
    /// Time of the window's last tick, s.
    var end: Double
    /// Standard deviation of the gait signal (|specific force| − 1 g) over the window, g.
    var gaitDeviation: Double
    /// Standard deviation of horizontal user acceleration over the window, g.
    var horizontalDeviation: Double
    /// Cadence estimate, nil when the window is flat.
    var estimate: CadenceEstimate?
    /// Shape statistics of the vertical signal; all 0 where no rule reads them (`shapeMeasured`).
    var shape: GaitShape
    /// `shape` was measured: the window has a cadence estimate (`GaitGate`), or the activity
    /// classifier reads its shape (`ActivityClassifier.readsShape`). Tuning traces print an
    /// unmeasured shape as "-".
    var shapeMeasured = true
    /// The verdict: this window is walking or running.
    var isGait: Bool
    /// Rhythmic and strong but judged not gait (waving, sway, vibration).
    var wasRhythmic: Bool
    /// The step counter is counting steps at the end of this window (a bout is open): only
    /// then is the time labelled walking or running.
    var counted = false
    /// Correlation of the gait signal and the horizontal acceleration's size over the window
    /// (`ImpactCoupling`), measured only where a walk's start needs it (0 otherwise).
    var impactCoupling = 0.0
    /// Deviation of the horizontal acceleration's size within each stride, at most
    /// `horizontalDeviation`, g (`StrideHorizontal`), measured only for a weak window that would
    /// open a walk (0 otherwise).
    var strideHorizontal = 0.0
    /// The window holds a second of stillness and a foot strike (`ActivityRules.startOrStopStrike`):
    /// a person standing before or after a few steps, not a ride. Measured only for a window
    /// that is not gait and moves like a vehicle (`ActivityClassifier.readsShape`; false otherwise).
    var standsAndSteps = false
}
