/// The bout state machine (docs/steps.md): **idle** or **walking**. Each second, one analysis
/// window's facts go in and one action comes out, which `StepCounter` carries out (crediting
/// steps, finding a walk's edges). It holds no signal, so what it decides can be read, and
/// tested, on its own.
struct BoutStateMachine: Sendable {
    enum State: Sendable, Equatable {
        case idle
        /// Counting; `misses` non-gait windows in a row so far (a turn, a stumble).
        case walking(misses: Int)
    }

    enum Action: Sendable, Equatable {
        /// Nothing to count.
        case none
        /// A walk starts: back-fill it from its onset, then count the window.
        case open
        /// Keep counting at the window's cadence.
        case count
        /// Keep counting at the walk's cadence through a non-gait window (a turn).
        case bridge
        /// The walk ended: credit its tail up to where the strides stop repeating.
        case close
        /// The walk ended where counting stopped: what follows is known not to be gait (a waved
        /// phone, or the explicit not-walking input).
        case closeWithoutTail
    }

    /// What the window showed (`GaitGate`, `GaitShape`, the energy envelope).
    struct Window: Sendable {
        var verdict: GaitGate.Verdict
        /// Normalised autocorrelation at the repeat (0 without a cadence).
        var regularity = 0.0
        /// Weaker than `GaitGate.vibrationDeviation`, where vibration lives.
        var weak = false
        /// Strong enough to be a walk during a vehicle ride (`GaitGate.vehicleWalkHorizontal`,
        /// `vehicleWalkDeviation`, `walksLikeSteps`).
        var walkInVehicle = false
        /// Moves the phone horizontally as steps do (`GaitGate.walkStartHorizontal`), or is
        /// strong (`GaitGate.vehicleWalkDeviation`) or regular and skewed enough as steps are
        /// (`GaitGate.walksLikeSteps`) that it need not: required of every window that opens a walk.
        var movesLikeSteps = false
        /// The whole window is a pure sinusoid (`GaitGate.maximumPurity`): a waved phone.
        var pureSine = false
        /// While walking: its newest 2 s are a pure sinusoid at the cadence (waving has begun).
        var newestPureSine = false
        /// While walking: the stretch not yet counted keeps `BoutRules.envelopeFraction` of the
        /// walk's energy.
        var energyHolds = false
        /// The phone has been still for a second (`BoutRules.pauseDeviation`): while walking,
        /// anywhere since counting stopped (the walk has ended); while idle, in a gait window's
        /// newest second (no walk is going on, whatever rhythm the window's older part holds).
        var stoodStill = false
    }

    /// What the rest of the pedometer knows.
    struct Context: Sendable {
        /// The current activity segment is a vehicle ride: a walk needs the stricter start.
        var inVehicle = false
        /// An explicit "not walking" input (a stage that knows the user rides a bike, say): no
        /// walk opens, and an open one closes without its tail.
        var notWalking = false
    }

    private(set) var state = State.idle
    /// The window before this one was judged gait.
    private var previousWasGait = false

    var isWalking: Bool { state != .idle }

    /// Back to idle with no memory (a gap in the stream).
    mutating func reset() {
        state = .idle
        previousWasGait = false
    }

    /// The next window: the new state and what to do.
    mutating func next(_ w: Window, context: Context, rules: BoutRules) -> Action {
        let isGait = w.verdict == .gait
        switch state {
        case .idle:
            // A walk starts on one clearly regular window, or on two gait windows in a row: one
            // marginal window in vibration or handling must not back-fill a burst of steps. Weak
            // motion and vehicle rides need both, and in a vehicle the walk must also be
            // strong: a ride adds no steps; getting off and walking away still counts,
            // back-filled. On the oxford recordings every walk reaches 0.1 g and regularity 0.7
            // within seconds. Whatever the context, a walk opens only on a window that moves the
            // phone horizontally as steps do, or is strong: a vehicle's suspension bounces it
            // vertically, in the walking band, before the ride is known to be one.
            let confident = w.regularity >= rules.confidentRegularity
            let strict = context.inVehicle || w.weak
            let confirmed = strict
                ? confident && previousWasGait && (!context.inVehicle || w.walkInVehicle)
                : confident || previousWasGait
            previousWasGait = isGait
            guard isGait, confirmed, w.movesLikeSteps, !w.stoodStill, !context.notWalking else { return .none }
            state = .walking(misses: 0)
            return .open
        case .walking(let misses):
            previousWasGait = isGait
            if context.notWalking || (isGait && w.newestPureSine) {
                // Inside a walk, the newest 2 s turning into a pure sinusoid is waving that has
                // begun: the window as a whole still reads as gait for another 2 s, long enough
                // to credit several of the waving's "steps".
                reset()
                return .closeWithoutTail
            }
            if w.stoodStill {
                // Walking never holds the trunk still for a second: whatever rhythm the window
                // holds (a walk's last steps, read before the pause), the walk stopped before it,
                // and no turn is bridged into it.
                state = .idle
                return .close
            }
            if isGait {
                state = .walking(misses: 0)
                return .count
            }
            if w.verdict == .wrongShape, w.pureSine {
                // The walk turned into a waved phone: it ended where counting stopped, since the
                // tail beyond repeats just as well; no turn-like grace either.
                state = .idle
                return .closeWithoutTail
            }
            // A turn or a stumble breaks the rhythm for a second or two: keep counting through
            // `toleratedMisses` windows while the motion stays strong.
            if misses + 1 <= rules.toleratedMisses, w.energyHolds {
                state = .walking(misses: misses + 1)
                return .bridge
            }
            state = .idle
            return .close
        }
    }
}
