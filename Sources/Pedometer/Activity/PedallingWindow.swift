/// What one analysis window (4 s, every 1 s) of the gait signal (|specific force| − 1 g) says
/// about riding a bicycle, from the accelerometer alone.
///
/// Pedalling with the device on the thigh (a trouser pocket) moves the knee up and down once per
/// crank revolution: the magnitude swings like a slow sinusoid at the crank frequency, strongly
/// (the knee travels about a crank length, ±0.17 m, so at 1.2 Hz it reaches about 1 g) but
/// smoothly, without the heel-strike impacts of a walk. One leg repeats once per revolution, so
/// half a revolution later the signal is at its opposite: the autocorrelation at half the period
/// is strongly negative. Walking repeats every step (the other foot's impact reaches a pocket
/// too), so at half a stride the autocorrelation stays near zero or positive.
/// A phone on a handlebar instead feels the road: strong, broadband vibration without rhythm.
struct PedallingWindow: Sendable, Equatable {
    /// Standard deviation of the gait signal, g.
    var deviation = 0.0
    /// Share of the variance above about 4 Hz (`PedallingAnalyser.impactCutoffHz`): heel strikes
    /// and road vibration live there, the knee's rotation does not.
    var impactShare = 0.0
    /// Crank frequency (strongest repeat between 0.8 and 1.65 Hz), Hz; 0 when the window is flat.
    var crankFrequency = 0.0
    /// Normalised autocorrelation at one crank period.
    var regularity = 0.0
    /// Normalised autocorrelation at half a crank period (−1 for a pure sinusoid).
    var halfPeriodCorrelation = 0.0
    /// Autocorrelation of the device's tilt (direction of the low-passed specific force) at the
    /// same period. Pedalling pitches the thigh once per revolution, with the magnitude: it
    /// repeats (positive). A walk or a stair climb bounces the body once per step but swings the
    /// leg once per stride, two steps: at one step's lag the tilt is at its opposite (negative).
    var tiltCorrelation = 0.0
    /// The rhythm of a rider seated on the saddle (a jersey pocket, a backpack).
    var seated = SeatedRhythm()

    /// Thresholds and their reasons. Measured on the tuning split of `imu-bench-activity`
    /// (real-dev thigh rides r00 left and right, r01, r02; oxford walks; real-dev gait walks).
    enum Limit {
        /// Weaker motion is coasting or standing: nothing to count either way, g.
        static let minimumDeviation = 0.05
        /// A thigh pedalling moves strongly: the knee travels about a crank length (±0.17 m), so
        /// at 1 Hz the mid-thigh swings ±0.34 g (deviation 0.24 g). Buses and trams rock at the
        /// same 1 Hz but weaker (0.06 to 0.14 g on the real-dev bus ride), and so does a phone
        /// strolled in the hand (the simulator's 0.18 g bounce: deviation 0.13 g).
        static let pedallingDeviation = 0.2
        /// Smooth rotation: the tuning rides' pedalling windows hold 0.07 to 0.14 of their variance
        /// above 4 Hz (10th to 90th percentile), the slow lower-back walks' windows that otherwise
        /// pass 0.24 to 0.29, pocket walks 0.3 to 0.6.
        static let maximumImpactShare = 0.2
        /// Crank frequencies, Hz: 48 to 99 rpm (the tuning rides pedal up to 1.62 Hz). Above
        /// 1.65 Hz a smooth walk's step (1.7 to 2 steps/s held in a hand or on an armband) takes
        /// over the same lag band.
        static let crankBand = 0.8...1.65
        /// Clearly periodic (the step counter's gate asks as much of a walk).
        static let minimumRegularity = 0.4
        /// One leg per sensor: half a revolution later the knee is at its opposite; walks stay
        /// above −0.3 at half a stride in 98 % of the oxford windows.
        static let maximumHalfPeriodCorrelation = -0.3
        /// The tilt repeats with the magnitude (see `tiltCorrelation`): the tuning rides' pedalling
        /// windows measure 0.67 to 0.83 and more (5th percentile per ride); the simulator's stair
        /// climbs in a pocket at most 0.43 (their turns on the landings drift the tilt).
        static let minimumTiltCorrelation = 0.5
        /// A handlebar in city traffic: 0.2 to 0.4 g of vibration (median per real ride), most
        /// of it above 4 Hz (0.75 to 0.95); buses, trams, cars and metros stay under 0.11 g
        /// (95th percentile) on the real-dev rides.
        static let rideVibrationDeviation = 0.15
        static let rideVibrationShare = 0.6
    }

    /// The smooth, one-legged rhythm of a thigh pedalling: evidence for a ride.
    var isPedalling: Bool { looksLikePedalling && tiltCorrelation >= Limit.minimumTiltCorrelation }

    /// The same with the tilt merely in step (> 0): a ride getting under way, whose slow first
    /// strokes repeat less cleanly (the tuning rides' first windows measure 0.1 to 0.45). Enough
    /// to keep a walk from starting, not to start a ride.
    var mayBePedalling: Bool { looksLikePedalling && tiltCorrelation > 0 || seated.isPedalling }

    /// Everything but the tilt says pedalling (`PedallingAnalyser` measures the tilt only then).
    var looksLikePedalling: Bool {
        mayPedal && Limit.crankBand.contains(crankFrequency) && regularity >= Limit.minimumRegularity
            && halfPeriodCorrelation <= Limit.maximumHalfPeriodCorrelation
    }

    /// Strong and smooth enough for a thigh pedalling (`PedallingAnalyser` searches the crank
    /// band only then).
    var mayPedal: Bool { deviation >= Limit.pedallingDeviation && impactShare <= Limit.maximumImpactShare }

    /// Strong broadband vibration: a device mounted on the bicycle itself.
    var isRideVibration: Bool {
        deviation >= Limit.rideVibrationDeviation && impactShare >= Limit.rideVibrationShare
    }
}
