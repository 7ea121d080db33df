/// Decides, second by second, whether the user rides a bicycle, from the accelerometer alone:
/// `PedallingWindow`s (a thigh pedalling, or a bicycle's vibration) and the step counter's gait
/// verdicts.
///
/// - A ride starts when `enterCount` of the last `memory` windows pedal: the real thigh rides
///   pedal in 36 % to 91 % of their windows (the tuning split's lowest is 59 %), walks in at
///   most 2 % (oxford) and single stray windows; or after `vibrationRun` windows in a row of a
///   bicycle's vibration (a phone being put into a purse shakes as hard, for a few seconds).
/// - It ends after `releaseGait` windows in a row that the step counter judges gait, that do
///   not pedal and that carry heel strikes (`heelStrikeShare`: walking the bike, or walking
///   away), after `releaseSmoothGait` such windows without heel strikes (a phone walked in the
///   hand is smooth too; fast pedalling near 1.6 Hz can read as gait for a few seconds), or
///   after `releaseIdle` seconds without any pedalling or vibration (parked).
/// While riding, the pedometer tells the step counter not to count (`StepCounter.cycling`).
struct CyclingDetector: Sendable {
    /// Windows remembered (s).
    static let memory = 8
    /// Pedalling windows among the remembered ones that start a ride.
    static let enterCount = 4
    /// Pedalling windows that start a ride at a ground speed no walk reaches (`noteGait`'s
    /// `beyondWalking`): a walk's stray pedalling windows (at most 2 % on oxford, singly) are
    /// at walking speed, so two at a cyclist's speed need not wait for four.
    static let enterCountBeyondWalking = 2
    /// Vibration windows in a row that start a ride (s).
    static let vibrationRun = 8
    /// Gait windows in a row, none pedalling, that end a ride (s): two strides' worth of windows.
    static let releaseGait = 3
    /// Gait windows in a row without heel strikes that end a ride (s).
    static let releaseSmoothGait = 10
    /// Impact share of a window with heel strikes: the slow real-dev lower-back walks measure
    /// 0.24 to 0.34, pocket walks 0.3 to 0.6; the tuning rides' fast pedalling reaches 0.21.
    static let heelStrikeShare = 0.25
    /// Seconds without pedalling or vibration that end a ride: a long red light is shorter.
    static let releaseIdle = 45

    private var analyser: PedallingAnalyser
    /// Bit i set: the window i seconds ago pedalled.
    private var recent: UInt32 = 0
    private var gaitRun = 0
    private var vibrating = 0
    private var strikeRun = 0
    private var idle = 0
    /// What the latest evidence of the ride was: a seated rider's rhythm, or the bicycle's own vibration.
    private var evidenceKind = Evidence.thigh
    private enum Evidence { case thigh, seated, handlebar }
    /// End of the first window, s, of the latest run of ride hints (pedalling, maybe pedalling,
    /// a seated rhythm, vibration) with no `memory` windows between them, since the latest start
    /// or end of a ride or gap; nil without one. A ride's start or end closes the run: a walk
    /// between two rides is its own (the next ride's hints start afresh after it).
    private(set) var hintsSince: Double?
    private var sinceHint = 0
    /// The first hint of that run was a seated rider's rhythm alone (`rideStart`).
    private var firstHintIsSeated = false
    /// The run of hints that started the ride in progress (`rideStart`), kept when the run closes;
    /// nil outside a ride (`endRide`).
    private(set) var startingHint: (end: Double, seated: Bool)?

    /// Where the ride in progress began, at the earliest, s (the pedometer retracts the pending
    /// steps from there, `StepLedger`). A window shows a rhythm once the rhythm outweighs what else it holds: a
    /// thigh's pedalling (0.2 to 0.5 g) and a handlebar's vibration (0.2 to 0.4 g) are as strong
    /// as the walk before them and show once they fill about half the window; a seated rider's
    /// bob (0.01 to 0.1 g) is a sixteenth of a walk's energy or less and shows only once the walk
    /// has left the window entirely. One hop more for the analysis' alignment.
    func rideStart(windowSeconds: Double, hopSeconds: Double) -> Double? {
        guard isRiding, let hint = startingHint else { return nil }
        return hint.end - (hint.seated ? windowSeconds : windowSeconds / 2) - hopSeconds
    }
    /// A ride may be starting: hints, and no ride yet (the pedometer commits no step meanwhile, `StepLedger`).
    var mayBeStarting: Bool { !isRiding && hintsSince != nil }
    /// A ride is in progress.
    private(set) var isRiding = false
    /// End of the latest window that read as the bicycle's (pedalling, a seated rhythm, or
    /// vibration without gait) during a ride, s; nil before any. The walk away from the ride
    /// began after it (`StepCounter.rideEvidenceUntil`).
    private(set) var lastRideWindow: Double?
    /// The latest window's analysis.
    private(set) var latest = PedallingWindow()
    /// Σ x and Σ x² of the gait signal over the latest window (`PedallingAnalyser.gaitTotals`).
    var gaitTotals: WindowTotals { analyser.gaitTotals }

    init(rateHz: Double) {
        analyser = PedallingAnalyser(rateHz: rateHz)
    }

    /// Pedalling windows among the remembered ones.
    var evidence: Int { (recent & ((1 << UInt32(Self.memory)) - 1)).nonzeroBitCount }

    /// Forgets the signal history (a gap); a ride in progress goes on. A run of ride hints ends
    /// at the gap: what follows it is judged afresh.
    mutating func reset() {
        analyser.reset()
        closeHints()
    }

    /// Ends the run of ride hints (a ride started or ended, or a gap).
    private mutating func closeHints() {
        hintsSince = nil
        sinceHint = 0
        firstHintIsSeated = false
    }

    /// Feeds one tick of specific force (g, device frame). Returns true when a window completed:
    /// `latest` describes it, and `noteGait` must follow with the step counter's verdict on it.
    /// `gait` is the tick's |specific force| − 1 g (`UserAcceleration.magnitude`).
    mutating func add(_ acceleration: Vector3, gait: Double) -> Bool {
        guard let window = analyser.add(acceleration, gait: gait) else { return false }
        latest = window
        return true
    }

    /// Ticks up to and including the next one at which `add` completes a window's hop.
    var ticksToHop: Int { analyser.ticksToHop }

    /// `n` ticks (fewer than `ticksToHop`) that complete no hop (`PedallingAnalyser.store`).
    @inline(__always) mutating func store(count n: Int, _ tick: (Int) -> SIMD4<Double>) {
        analyser.store(count: n, tick)
    }

    /// The step counter's verdict on the latest window, which ended at `end` (s). Vibration
    /// counts only without gait: heel strikes are broadband too.
    /// `beyondWalking`: a fresh ground speed above any walk's (`ActivityVote.walkingSpeedMax`).
    mutating func noteGait(_ isGait: Bool, at end: Double, beyondWalking: Bool = false) {
        let vibration = latest.isRideVibration && !isGait
        let pedals = latest.isPedalling || latest.seated.isPedalling
        let hit = pedals || vibration
        // Any hint of a ride (pending steps, `StepLedger`): remembered until `memory` windows pass without one.
        if hit || latest.mayBePedalling {
            if hintsSince == nil {
                hintsSince = end
                firstHintIsSeated = latest.seated.isPedalling && !latest.isPedalling && !vibration
            }
            sinceHint = 0
        } else if hintsSince != nil {
            sinceHint += 1
            if sinceHint >= Self.memory { hintsSince = nil }
        }
        vibrating = vibration ? vibrating + 1 : 0
        if latest.isPedalling { evidenceKind = .thigh } else if latest.seated.isPedalling { evidenceKind = .seated } else if vibration { evidenceKind = .handlebar }
        recent = (recent << 1) | (pedals ? 1 : 0)
        idle = hit ? 0 : idle + 1
        let enough = beyondWalking ? Self.enterCountBeyondWalking : Self.enterCount
        if !isRiding, pedals && evidence >= enough || vibrating >= Self.vibrationRun {
            isRiding = true
            gaitRun = 0
            strikeRun = 0
            startingHint = hintsSince.map { (end: $0, seated: firstHintIsSeated) }
            closeHints()
        } else if isRiding, idle >= Self.releaseIdle {
            endRide()
        }
        if isRiding, hit { lastRideWindow = end }
        let walking = isGait && !pedals
        gaitRun = walking ? gaitRun + 1 : 0
        strikeRun = walking && leftTheSaddle ? strikeRun + 1 : 0
        if isRiding, strikeRun >= Self.releaseGait || gaitRun >= Self.releaseSmoothGait {
            endRide()
            recent = 0
        }
    }

    /// The ride is over: its starting hints go with it, and the run of hints closes.
    private mutating func endRide() {
        isRiding = false
        startingHint = nil
        closeHints()
    }

    /// A gait window that the ride's own evidence cannot explain: heel strikes; or, on a ride
    /// recognised from a seated rider's rhythm, a bob stronger than any seated rider's
    /// (`SeatedRhythm.Limit.deviation`); or, on a ride recognised from the handlebar's vibration,
    /// a gait window without it (the phone has left the bicycle).
    private var leftTheSaddle: Bool {
        switch evidenceKind {
        case .thigh: latest.impactShare >= Self.heelStrikeShare
        case .seated: latest.impactShare >= Self.heelStrikeShare || latest.seated.deviation > SeatedRhythm.Limit.deviation.upperBound
        case .handlebar: latest.impactShare >= Self.heelStrikeShare || !latest.isRideVibration
        }
    }

    /// Whether the step counter must not count now (`StepCounter.cycling`): during a ride; in a
    /// window that may be pedalling before a walk has begun (a ride getting under way); and in a
    /// seated rider's window even inside a walk, since no window of the real-dev lower-back or
    /// oxford walks meets that signature (`SeatedRhythm.Limit`) while a bag bobbing on a rider's
    /// back is gait to the step counter (getting on the bike right after a walk).
    ///
    /// Inlined: read once per window from `Pedometer.handle`, where a call took a copy of the
    /// whole detector first (a 552-byte `memcpy` per window; callgrind, session 21).
    @inline(__always) func blocksSteps(inBout: Bool) -> Bool {
        isRiding || (latest.mayBePedalling && !inBout) || latest.seated.isPedalling
    }

    /// The latest window shakes like a bicycle's frame, and so did the one before without gait:
    /// a walk carried onto a handlebar. The step counter then ends a walk at a window that is not
    /// gait instead of bridging it (`StepCounter.rideVibration`). One window alone is not enough:
    /// hard heel strikes in a back pocket are as broadband for a window now and then.
    var isVibratingOn: Bool { latest.isRideVibration && vibrating >= 1 }

    /// How sure the ride is: high when most remembered windows pedal or the bicycle vibrates on.
    var confidence: ActivityConfidence {
        evidence * 4 >= Self.memory * 3 || vibrating >= Self.vibrationRun ? .high : .medium
    }
}
