/// Counts steps from the gait signal (|specific force| − 1 g, `UserAcceleration.magnitude`) on
/// the fixed internal grid.
///
/// Two views are combined, as the accuracy notes recommend:
/// - **Rhythm and shape** decide *when* the user walks: every `hop` (1 s) the last `window` (4 s)
///   is analysed; it is gait when it is strong enough, regular at a plausible cadence, and shaped
///   like gait rather than a waved phone or bus sway (`GaitGate`).
/// - **Cadence × time** decides *how many* steps: inside a bout, each second is credited with
///   cadence × 1 s steps. Counting peaks double-counts in pockets and purses (the seeds' detector
///   measures +30% to +80% there); counting by cadence reached about 1.9% on the same recordings.
/// Walks too short or too slow for a rhythm (a few steps between pauses) are counted strike by
/// strike once they are over (`ImpactChain`).
/// A bout's first and last seconds are back-filled: when the first gait window arrives, steps are
/// credited from the moment the motion energy rose (the onset), and when gait ends, up to the
/// moment it fell; so short walks count in full. Each step event carries the time of the step
/// itself (placed at the cadence's phase and snapped to the highest sample within a quarter step,
/// the heel strike), although it is committed up to 3 s later.
struct StepCounter: Sendable {
    /// Every threshold (`StepSettings`).
    let settings: StepSettings
    var gate: GaitGate { settings.gate }
    var strikes: HeelStrikes { settings.strikes }
    private var rules: BoutRules { settings.bout }
    let rateHz: Double
    let interval: Double
    /// Analysis window, ticks (4 s: long enough for two strides at 1 step/s).
    let window: Int
    /// Ticks between analyses (1 s).
    let hop: Int
    /// Credited region of each window ends this many ticks before its end (centre + half hop).
    private let lagBehind: Int
    /// Ticks of the energy envelope's box average (0.5 s: about one step).
    private let envelopeLength: Int
    /// Ticks of stillness that end a walk (`BoutRules.pauseSeconds`).
    private let pauseTicks: Int
    /// 1 / `envelopeLength`.
    private let envelopeReciprocal: Double


    /// The per-tick history, one plane per series (`Plane`), appended together: one check of the
    /// storage's sole ownership per tick instead of one per series. Read as a `RingBuffer`, it is
    /// the gait signal (plane 0), as the stages that look back over it expect.
    private var gait: RingBuffer
    /// The planes of `gait`.
    private enum Plane {
        /// The gait signal, g (what `gait[i]` reads).
        static let gait = 0
        /// Size of the horizontal acceleration, g (`ImpactCoupling`).
        static let horizontal = 1
        /// The energy envelope, g² (`energy(around:)`).
        static let envelope = 2
        /// Filtered altitude, m (0 without a barometer).
        static let altitude = 3
        static let count = 4
    }
    /// Sum and sum of squares of the horizontal acceleration per hop (the window is whole hops),
    /// for its deviation in one pass over the hops (the horizontal plane keeps the samples too,
    /// for the few windows that need `ImpactCoupling`).
    private var horizontalSums: [Double]
    private var horizontalSquares: [Double]
    private var hopSum = 0.0, hopSquares = 0.0, hopsDone = 0
    private var envelopeSum = 0.0
    /// Ticks whose envelope is in its plane and whose horizontal acceleration is in the hop's
    /// sums (`fillEnvelope`); the ticks after them are stored with an envelope of 0.
    private var filled = 0
    private var scratch: [Double]
    private var cadenceEstimator: CadenceEstimator

    /// Time of tick 0 of the current segment, s.
    private var origin = 0.0
    private var sinceHop = 0

    // Bout state.
    /// Decides when walks open and close (`BoutStateMachine`).
    private var machine = BoutStateMachine()
    /// A bout is open in the ledger (follows `machine`; closed by `endBout`).
    private(set) var inBout = false
    private var boutCadence = 0.0          // steps/s of the latest gait window
    /// What the open bout's gait windows read, for `IrregularBout` (its cadence is their median).
    private var boutCadences: BoutCadences
    private var boutLevel = 0.0            // envelope level of the bout, g²
    /// Where counting stood when the open bout opened (`ledger.until` before its onset search)
    /// and its latest step then: a bout that closes at a pause without a step of its own leaves
    /// its strikes to `ImpactChain` (`endBout`).
    private var openedFrom = 0
    private var lastStepAtOpen: Int?
    /// The open bout's first tick: its resume, at its onset or its earliest step before it (`open`).
    private var boutStart = 0
    private var shapeRejectedUntil = 0     // tick index: the last wrong-shape window ended here
    private var waving = WavingMemory()
    /// Short walks between pauses, impact by impact.
    private var chain: ImpactChain
    /// Ticks of the segment the chain has looked at (`observeImpacts`).
    private var chainSeen = 0
    /// Set by the pedometer while the current activity segment is a vehicle ride.
    var inVehicle = false
    // MARK: cycling input (issue 15)
    /// Set by the pedometer while the user pedals (`CyclingDetector`): do not count. No bout
    /// starts, and a bout in progress ends where counting stopped (its tail was pedalling).
    var cycling = false
    /// Set by the pedometer while the window shakes like a bicycle's frame (`CyclingDetector`):
    /// a window that is not gait then ends a walk where counting stopped instead of bridging it.
    var rideVibration = false
    /// Set by the pedometer: end of the latest window that read as the bicycle's during a ride,
    /// s (`CyclingDetector.lastRideWindow`). A walk is not back-filled before it: the walk away
    /// from a bicycle breaks the window's rhythm or vibration within a second (on the simulated
    /// handlebar ride, one second of walk takes the window's impact share from 0.84 to 0.59,
    /// below the vibration's 0.6), while a handlebar's vibration or a bag's bob offers the onset
    /// search and the first-step chain peaks as strong as a walk's.
    var rideEvidenceUntil = -Double.infinity
    /// The previous window was analysed while `cycling` kept it from counting: the previous
    /// window's `cycling`. Stored, as it cannot be derived when `open` needs it: the pedometer sets
    /// `cycling` from the `CyclingDetector` window that completes on the same tick as this
    /// counter's window, just before it is analysed (both hop on the same 1 s grid from each
    /// segment start, `PedallingAnalyser`), so `cycling` already holds this window's verdict; and
    /// the detector keeps no earlier one (`blocksSteps` reads its latest window, its ride state and
    /// `inBout` as they are now).
    private var blockedByRide = false
    /// Set by the pedometer: Σ v and Σ v² of the gait signal over the cycling analyser's latest
    /// window (`CyclingDetector.gaitTotals`), which completes on the same tick as this counter's
    /// window and holds the same ticks (both 4 s every 1 s from each segment start). Used for
    /// the window's deviation and mean when its end and length match this counter's window (the
    /// same values, summed hop by hop: equal to this counter's own sum but for rounding, about
    /// 1e-16 relative), so the window is not summed again; cleared once read.
    var gaitTotals: WindowTotals?

    /// Step events and totals of the credited (walked) time.
    var ledger: StepLedger
    var steps: Int { ledger.steps }
    var distanceMeters: Double { ledger.distanceMeters }
    var activeDuration: Double { ledger.activeDuration }
    var stride: StrideModel { ledger.stride }
    /// Cadence of the latest gait window, nil when not in a bout.
    var currentCadence: Double? { inBout ? boutCadence : nil }
    /// Time (s) from which the ledger keeps everything pending, whatever its age, nil when it
    /// need not: the open bout's start, while `IrregularBout` may still recount the bout by its
    /// strikes when it closes at a pause. Its steps are then all still pending and all give way
    /// to the strikes, none committed at the rhythm's count (issue 14, session 19: a walk of 6 s
    /// was recounted only after its first 5 s). One chain spans at most
    /// `ChainRules.longestChain` (10 s); a bout that began longer ago than that plus the hold
    /// every step gets anyway (`StepLedger.holdSeconds`, 5 s, by which its closing window has
    /// seen the still second after it) is not one chain, and its steps are committed as they age.
    ///
    /// Inlined: read once per window from `Pedometer.handle`, where a call took a copy of the
    /// whole counter first (1.3 kB `memcpy` per window; callgrind, session 21).
    @inline(__always) var recountableFrom: Double? {
        guard inBout, !inVehicle, !cycling, gait.count > 0 else { return nil }
        let start = time(boutStart)
        return time(gait.count - 1) - start <= settings.chain.longestChain + StepLedger.holdSeconds ? start : nil
    }

    init(rateHz: Double, stride: StrideModel, settings: StepSettings = StepSettings()) {
        self.settings = settings
        ledger = StepLedger(rateHz: rateHz, stride: stride)
        self.rateHz = rateHz
        interval = 1 / rateHz
        hop = Int((settings.bout.hopSeconds * rateHz).rounded())
        window = Int((settings.bout.windowSeconds / settings.bout.hopSeconds).rounded()) * hop   // whole hops
        lagBehind = (window - hop) / 2
        envelopeLength = Int((settings.bout.envelopeSeconds * rateHz).rounded())
        envelopeReciprocal = 1 / Double(envelopeLength)
        pauseTicks = Int((settings.bout.pauseSeconds * rateHz).rounded())
        // A window, two hops of onset search before it, and the ride's release windows: a walk
        // opened right after a ride is back-filled to the ride's last window (`open`).
        let capacity = window + (2 + CyclingDetector.releaseGait) * hop + envelopeLength
        gait = RingBuffer(planes: Plane.count, minimumCapacity: capacity)
        horizontalSums = [Double](repeating: 0, count: max(1, window / hop))
        horizontalSquares = horizontalSums
        scratch = [Double](repeating: 0, count: window)
        cadenceEstimator = CadenceEstimator(rateHz: rateHz, windowSamples: window, hopSamples: hop)
        chain = ImpactChain(rules: settings.chain, rateHz: rateHz)
        // The windows that can have read part of one chain: its longest span and one window more.
        boutCadences = BoutCadences(capacity: Int(((settings.chain.longestChain + settings.bout.windowSeconds)
            / settings.bout.hopSeconds).rounded(.up)) + 1)
    }

    /// Time of absolute tick `index`, s.
    @inline(__always) private func time(_ index: Int) -> Double { origin + Double(index) * interval }

    /// Starts a new segment at `time` (first tick, or first tick after a gap).
    mutating func startSegment(at time: Double) {
        // A gap ends any walk, a short one between pauses too.
        observeImpacts()
        if gait.count > 0 { fillEnvelope(); endBout(); countChain(end: gait.count, streamEnded: true) }
        gait.removeAll()
        chainSeen = 0
        filled = 0
        gaitTotals = nil
        cadenceEstimator.forget()
        hopSum = 0; hopSquares = 0; hopsDone = 0
        envelopeSum = 0
        origin = time
        sinceHop = 0
        ledger.until = 0
        ledger.restartTicks()
        shapeRejectedUntil = 0
        machine.reset()
        waving.reset()
        chain.reset()
    }

    /// Ticks up to and including the next one at which `process` analyses a hop (at least 1).
    var ticksToHop: Int { hop - sinceHop }

    /// Stores `n` ticks (fewer than `ticksToHop`), tick i's gait signal, horizontal acceleration
    /// (g) and altitude (m) from `tick(i)`'s lanes 0, 1 and 2: the same as `n` calls of `process`,
    /// none of which completes a hop, behind one check of the ring's sole ownership instead of
    /// one per tick (`Pedometer`'s batches; callgrind, session 25).
    @inline(__always) mutating func store(count n: Int, _ tick: (Int) -> SIMD4<Double>) {
        precondition(n < ticksToHop, "StepCounter.store: a hop's tick goes through process")
        gait.append(count: n) { i in let t = tick(i); return SIMD4(t[0], t[1], 0, t[2]) }
        sinceHop += n
    }

    /// Feeds one tick. Returns the analysis of a window when one completed.
    @inline(__always)
    mutating func process(_ user: UserAcceleration, altitude meters: Double) -> GaitWindow? {
        // The envelope is read only by the hop's analysis: filled in then (`fillEnvelope`).
        gait.append(SIMD4(user.magnitude, user.horizontal, 0, meters))
        sinceHop += 1
        guard sinceHop >= hop else { return nil }
        sinceHop = 0
        observeImpacts()
        let n = gait.count
        fillEnvelope()
        // The running envelope sum adds and subtracts a rounding error every tick and is only
        // reset at a gap; over a day of continuous samples (4.3 million ticks) the errors would
        // add up. Once per hop it is summed afresh from the ring (`envelopeLength` products), so
        // its error never spans more than one hop.
        var fresh = 0.0
        for k in max(0, n - envelopeLength)..<n { fresh += gait[k] * gait[k] }
        envelopeSum = fresh
        horizontalSums[hopsDone % horizontalSums.count] = hopSum
        horizontalSquares[hopsDone % horizontalSums.count] = hopSquares
        hopsDone += 1
        hopSum = 0
        hopSquares = 0
        guard n >= window else { gaitTotals = nil; return nil }
        var report = analyse()
        gaitTotals = nil
        report.counted = report.counted || inBout
        return report
    }

    /// Fills in the envelope of the ticks stored since the last fill (`filled..<gait.count`): the
    /// mean of v² over the last `envelopeLength` ticks, from a running sum (add the newest v²,
    /// subtract the one leaving the box, still held before it), and adds their horizontal
    /// acceleration to the hop's sums. Once per hop, and before a bout ends at a gap or the
    /// stream's end, instead of on every tick: nothing reads the envelope in between, and the
    /// running sums add and subtract the same values in the same order as per tick.
    private mutating func fillEnvelope() {
        let n = gait.count, length = envelopeLength, reciprocal = envelopeReciprocal
        var sum = envelopeSum, horizontal = hopSum, squares = hopSquares
        gait.withUnsafePlanes { base, capacity in
            let mask = capacity - 1
            let v = base + Plane.gait * capacity, h = base + Plane.horizontal * capacity
            let envelope = base + Plane.envelope * capacity
            // The horizontal sums are added in the same loops, each still in tick order (one pass
            // over the hop instead of two: callgrind, session 25).
            // Before the box is full (a segment's first ticks): nothing leaves it yet.
            var t = filled
            while t < min(n, length) {
                let x = v[t & mask], y = h[t & mask]
                sum += x * x
                envelope[t & mask] = max(0, sum) * (t + 1 == length ? reciprocal : 1 / Double(t + 1))
                horizontal += y
                squares += y * y
                t += 1
            }
            // Then the tick `length` before leaves it, and the box's reciprocal scales it (no
            // division per tick; the same to a rounding). In runs over which neither the tick's
            // nor the leaving tick's place in the ring wraps: plain offsets from two pointers, no
            // mask per read (24 → 20 instructions a tick; callgrind, session 26).
            while t < n {
                let at = t & mask, leaving = (t &- length) & mask
                let run = min(n &- t, capacity &- at, capacity &- leaving)
                let vt = v + at, vl = v + leaving, ht = h + at, et = envelope + at
                for k in 0..<run {
                    let x = vt[k], old = vl[k], y = ht[k]
                    sum += x * x
                    sum -= old * old
                    et[k] = max(0, sum) * reciprocal
                    horizontal += y
                    squares += y * y
                }
                t &+= run
            }
        }
        envelopeSum = sum
        hopSum = horizontal
        hopSquares = squares
        filled = n
    }

    /// Energy around tick `index`: the box average centred on it.
    @inline(__always) private func energy(around index: Int) -> Double {
        let centre = min(gait.count - 1, index + envelopeLength / 2)
        return gait.value(plane: Plane.envelope, at: max(gait.oldestIndex, centre))
    }

    private mutating func analyse() -> GaitWindow {
        let n = gait.count
        let start = n - window
        gait.copy(from: start, count: window, into: &scratch)
        let totals = gaitTotals.flatMap { $0.end == n && $0.count == window ? $0 : nil }
            ?? WindowTotals(end: n, count: window, sums: scratch.withUnsafeBufferPointer { WindowSums.sumAndSquares($0, count: window) })
        let gaitDeviation = totals.moments.variance.squareRoot()
        // A short walk between stops fills only part of the window; the still stretches around
        // it dilute its autocorrelation at the stride lag. Rhythm and shape are judged on the
        // active part (energy above a tenth of the window's peak, at least 1.5 s).
        var analysed = window
        if gaitDeviation >= gate.minimumDeviation {
            // The window's peak of `energy(around:)`: for ticks start..<n that is the envelope at
            // min(n − 1, tick + envelopeLength / 2), so the peak is the envelope's over those
            // ticks, read straight from its plane (the same maximum, without clamping each index).
            var peakEnergy = 0.0
            gait.forEach(plane: Plane.envelope, from: min(n - 1, start + envelopeLength / 2), to: n) { peakEnergy = max(peakEnergy, $0) }
            var first = start, last = n - 1
            while first < last, energy(around: first) < rules.activeFraction * peakEnergy { first += 1 }
            while last > first, energy(around: last) < rules.activeFraction * peakEnergy { last -= 1 }
            let active = last - first + 1
            if active < window * 9 / 10, active >= Int(rules.minimumActiveSeconds * rateHz) {
                analysed = active
                gait.copy(from: first, count: active, into: &scratch)
            }
        }
        // The whole window's mean for the stages below (what `WindowSums.sum` would give them
        // but for rounding); a trimmed window's is summed by them.
        let wholeMean = analysed == window ? totals.moments.mean : nil
        // Too weak to be gait: skip the autocorrelation (most of the analysis cost).
        var estimate = gaitDeviation >= gate.minimumDeviation
            ? cadenceEstimator.estimate(scratch, count: analysed, end: analysed == window ? n : nil, mean: wholeMean) : nil
        let count = Double(horizontalSums.count * hop)
        let meanHorizontal = horizontalSums.reduce(0, +) / count
        let horizontalDeviation = max(0, horizontalSquares.reduce(0, +) / count - meanHorizontal * meanHorizontal).squareRoot()
        // A phone on a swinging thigh repeats once per stride, its two steps unalike
        // (`GaitGate.isLimbStride`): the window is judged at that repeat, and counted at twice it.
        let limbStride = estimate.map {
            gate.isLimbStride($0, gaitDeviation: gaitDeviation, horizontalDeviation: horizontalDeviation,
                              halfOfBout: inBout && rules.octaveBand.contains($0.cadence / boutCadence))
        } ?? false
        // Octave continuity: inside a bout, a reading near half the bout cadence is a stride
        // taken for a step (the stride and step peaks trade places from window to window).
        if inBout, !limbStride, var e = estimate, rules.octaveBand.contains(e.cadence / boutCadence) {
            e.cadence *= 2
            e.wasStride = true
            estimate = e
        }
        // The shape is read by the gate only with a cadence estimate, and by the activity
        // classifier only for motion of a vehicle's strength: most flat windows need none of it.
        let vehicleStrength = ActivityClassifier(rules: settings.activity).readsShape(gaitDeviation: gaitDeviation,
                                                                                       horizontalDeviation: horizontalDeviation)
        let shapeMeasured = estimate != nil || vehicleStrength
        let shape = shapeMeasured ? GaitShape.measure(scratch, count: analysed, rateHz: rateHz, cadence: estimate?.cadence, mean: wholeMean)
            : GaitShape()
        var verdict = gate.verdict(estimate: estimate, gaitDeviation: gaitDeviation, shape: shape, inBout: inBout)
        // A window at the rhythm of a phone waved just before cannot start a walk (`WavingMemory`).
        // It does not move `shapeRejectedUntil` either: the walk's own first window finds the
        // onset by its stride.
        if verdict == .wrongShape, shape.purity > gate.maximumPurity, let cadence = estimate?.cadence {
            waving.noteSine(cadence: cadence, end: n)
        } else if !inBout, verdict == .gait, let cadence = estimate?.cadence,
                  waving.isWaving(cadence: cadence, end: n, window: window) {
            verdict = .noRhythm
        }
        let isGait = verdict == .gait
        // The repeat the gate judged, s⁻¹ (the waving and pure-sine tests look for a sinusoid at it).
        let repeatRate = estimate?.cadence ?? 0
        if isGait, limbStride, var e = estimate {
            e.cadence *= 2
            e.wasStride = true
            estimate = e
        }
        // A walk cannot be back-filled into motion that was just judged rhythmic but not gait
        // (waving right before walking off); allow half a hop of overlap.
        if verdict == .wrongShape { shapeRejectedUntil = n - hop / 2 }
        var report = GaitWindow(end: time(n - 1), gaitDeviation: gaitDeviation,
                                horizontalDeviation: horizontalDeviation, estimate: estimate,
                                shape: shape, shapeMeasured: shapeMeasured, isGait: isGait,
                                wasRhythmic: verdict == .wrongShape || verdict == .vibration)
        if !isGait, vehicleStrength {
            report.standsAndSteps = standsAndSteps(from: start, to: n)
        }
        let creditEnd = n - lagBehind
        // The bout state machine decides; this carries out its action.
        let walking = machine.isWalking
        var facts = BoutStateMachine.Window(verdict: verdict)
        facts.regularity = estimate?.regularity ?? 0
        facts.weak = gaitDeviation < gate.vibrationDeviation
        // A walk regular enough to start without moving the phone horizontally (`GaitGate.walksLikeSteps`).
        let selfSustained = gate.walksLikeSteps(gaitDeviation: gaitDeviation, regularity: estimate?.regularity ?? 0,
                                                skewness: shape.skewness)
        facts.walkInVehicle = gaitDeviation >= gate.vibrationDeviation
            && (horizontalDeviation >= gate.vehicleWalkHorizontal || gaitDeviation >= gate.vehicleWalkDeviation || selfSustained)
        // The same three signs of steps as in a vehicle, with a smaller least horizontal motion;
        // a weak window that moves the phone less than walks do must move it with its impacts.
        facts.movesLikeSteps = horizontalDeviation >= gate.walkStartHorizontal || gaitDeviation >= gate.vehicleWalkDeviation
            || selfSustained
        if !walking, isGait, facts.movesLikeSteps, gaitDeviation < gate.vibrationDeviation, let estimate {
            // Only the horizontal motion at the gait's rhythm counts (`StrideHorizontal`), never
            // more than the whole window's: a vehicle's braking surge is slower than a stride.
            report.strideHorizontal = horizontalDeviation < gate.coupledStartHorizontal ? horizontalDeviation
                : StrideHorizontal.deviation(gait.plane(Plane.horizontal), end: n, count: window,
                                             strideTicks: Int((2 * rateHz / estimate.cadence).rounded()))
            if gate.needsImpactCoupling(gaitDeviation: gaitDeviation, strideHorizontal: report.strideHorizontal) {
                report.impactCoupling = ImpactCoupling.correlation(gait: gait, horizontal: gait.plane(Plane.horizontal), from: start, count: window)
                facts.movesLikeSteps = report.impactCoupling >= gate.minimumImpactCoupling
            }
        }
        facts.pureSine = shape.purity > gate.maximumPurity
        if walking, isGait { facts.newestPureSine = newestIsPureSine(cadence: repeatRate) }
        if walking, !isGait { facts.energyHolds = regionEnergy(ledger.until, creditEnd) >= rules.envelopeFraction * boutLevel }
        // A second of stillness since counting stopped ends the walk before it (no turn is bridged
        // into it); a walk does not open while the phone is still.
        let pause = walking || isGait ? BoutEdges.pause(gait, from: walking ? ledger.until : n - pauseTicks, to: n,
                                                        ticks: pauseTicks, deviation: rules.pauseDeviation) : nil
        facts.stoodStill = pause != nil
        var context = BoutStateMachine.Context(inVehicle: inVehicle)
        // MARK: cycling input (issue 15): pedalling opens no walk and closes an open one.
        context.notWalking = cycling || (rideVibration && !isGait)
        switch machine.next(facts, context: context, rules: rules) {
        case .none:
            break
        case .open, .count:
            guard let estimate else { break }
            countWindow(cadence: estimate.cadence, windowStart: start, end: n, creditEnd: creditEnd)
        case .bridge:
            credit(to: creditEnd)
        case .close:
            // A gait window that saw the pause still counts its rhythm, up to the pause: it is
            // the walk's last counted window.
            if let pause, isGait, let estimate {
                countWindow(cadence: estimate.cadence, windowStart: start, end: n, creditEnd: min(creditEnd, pause))
                report.counted = true
            }
            endBout(before: pause)
        case .closeWithoutTail:
            endBout(creditingTail: false)
        }
        // A gait window kept from opening a walk by its still newest second, into which the walk
        // just closed at that pause was credited, holds that walk's end: it is labelled as the
        // walk, as it was before the pause closed it (the activity labels read stillness right
        // after a walk from the last counted window, `ActivityClassifier`'s `justWalked`).
        if !walking, isGait, pause != nil, ledger.until > start { report.counted = true }
        if !machine.isWalking { countChain(end: n) }
        blockedByRide = cycling
        return report
    }

    /// Does ticks `a..<b` hold a still second and a rise of a foot strike
    /// (`ActivityRules.startOrStopStrike`)? A person stood and stepped there.
    /// `mutating` although it changes nothing: called from `analyse`, a plain method took a copy
    /// of the whole counter first (1.3 kB `memcpy` per call; callgrind, session 21).
    private mutating func standsAndSteps(from a: Int, to b: Int) -> Bool {
        var lowest = Double.infinity, highest = -Double.infinity
        gait.forEach(plane: Plane.gait, from: a, to: b) { lowest = min(lowest, $0); highest = max(highest, $0) }
        return highest - lowest >= settings.activity.startOrStopStrike
            && BoutEdges.pause(gait, from: a, to: b, ticks: pauseTicks, deviation: rules.pauseDeviation) != nil
    }

    /// Counts a gait window ending at tick `n` at `cadence` (opening the bout first when none is
    /// open), up to `creditEnd` and to where the strides stop repeating.
    private mutating func countWindow(cadence: Double, windowStart start: Int, end n: Int, creditEnd: Int) {
        boutCadence = cadence
        if !inBout { boutCadences.reset() }
        boutCadences.append(cadence)
        // Bout level: mean energy over the window's most recent part, where gait certainly is.
        var level = 0.0
        gait.forEach(plane: Plane.envelope, from: n - 2 * hop, to: n) { level += $0 }
        level /= Double(2 * hop)
        if !inBout {
            open(level: level, windowStart: start, end: n)
        } else {
            boutLevel = 0.8 * boutLevel + 0.2 * level   // follows the walk over about 5 s
        }
        // The window may hold the last steps of a walk: credit only up to where the strides
        // stop repeating.
        let threshold = rules.envelopeFraction * boutLevel
        let walkedTo = BoutEdges.offset(gait, from: ledger.until, to: n, stride: strideTicks,
                                        minimumCorrelation: rules.edgeCorrelation) { energy(around: $0) >= threshold }
        credit(to: min(creditEnd, walkedTo))
    }

    /// Opens a bout whose window starts at tick `start` and ends at `n`: finds its onset (where
    /// strides begin to repeat) and counts the stride before that impact by impact.
    private mutating func open(level: Double, windowStart start: Int, end n: Int) {
        inBout = true
        boutLevel = level
        openedFrom = ledger.until
        lastStepAtOpen = ledger.lastStepTick
        let threshold = rules.envelopeFraction * boutLevel
        // After a confirming second window, the walk may have begun in the window before. Right
        // after a ride (`blockedByRide`, its last window still held), the windows that released it
        // were gait the ride kept from opening a walk; there are `CyclingDetector.releaseGait` of
        // them or more (a window half walk, half ride is neither), so the walk may have begun as
        // early as the ride's last window (`rideEvidenceUntil`).
        let afterRide = blockedByRide && rideFloor > gait.oldestIndex
        let earliest = max(gait.oldestIndex, afterRide ? min(start - hop, rideFloor) : start - hop)
        let floor = max(ledger.until, shapeRejectedUntil, rideFloor)
        let onset = BoutEdges.onset(gait, from: max(earliest, floor), to: n, stride: strideTicks,
                                    minimumCorrelation: rules.edgeCorrelation) { energy(around: $0) >= threshold }
        ledger.until = onset
        ledger.phase = rules.startPhase
        // The first steps from standing, before the rhythm is clear, one by one. Not after
        // waving: a waved phone's swings are maxima just like heel strikes, and a walk is
        // confirmed up to two windows after the waving's last one.
        let firstExpected = onset + Int((1 - rules.startPhase) * Double(stepTicks))
        let waved = waving.wavedRecently(end: n, window: 2 * window)
        var early = waved ? []
            : strikes.before(firstExpected, floor: floor, period: stepTicks, level: boutLevel.squareRoot(), rateHz: rateHz, in: gait)
        if !waved, early.count < strikes.maximumBefore, let first = firstStepOutOfStillness(before: early.last, expected: firstExpected, floor: floor) {
            early.append(first)
        }
        boutStart = min(onset, early.last ?? onset)
        ledger.note(.resume(time: time(boutStart)))
        for tick in early.reversed() { ledger.strike(at: tick, cadence: boutCadence, origin: origin) }
    }

    /// A walk's first step from standing that `HeelStrikes.before` passed over (issue 14, session
    /// 20): it asks 0.6 bout periods between strikes, and at a slow, irregular walk's period the
    /// first step can come sooner (tuned seed 3's 2nd walk, 0.5 to 1.5 s between steps, read at
    /// 1.36 s: its first strike 0.54 s before its second). The impact the chain logged just before
    /// the walk's earliest counted step (`earliest`, or, with none, the strike its first rhythm
    /// step will be snapped to: the highest logged impact within a quarter step of `expected`),
    /// when it strikes out of stillness (`ImpactChain.strikeOutOfStillness`), lies within the
    /// longest interval `HeelStrikes` chains over, and rises as high as it asks; with no earlier
    /// step, it must lie before that quarter step (`StepLedger`'s snap reach), where the snap
    /// cannot take it. It must also be of a kind with the walk's first strikes (≥ 0.3 × their
    /// median, `ChainRules.weakestFraction`): impacts out of stillness 0.7 to 0.8 s before a
    /// walk of the simulator's daily life (phone in a hand, pocket or bag; fresh seeds 7 and 14,
    /// no step in their truth) read 0.24 and 0.27 × of the gait signal at the strikes after them,
    /// the lower back's first steps 0.50 × (tuned seed 3) and 0.62 × (seed 10).
    private func firstStepOutOfStillness(before earliest: Int?, expected: Int, floor: Int) -> Int? {
        let quarter = max(1, Int(0.25 / max(boutCadence, 0.5) * rateHz))
        let anchor: Int
        if let earliest {
            anchor = earliest
        } else {
            let near = chain.impacts.filter { abs($0.tick - expected) <= quarter }
            guard let best = near.max(by: { gait[$0.tick] < gait[$1.tick] }) else { return nil }
            anchor = best.tick
        }
        let latest = earliest == nil ? expected - quarter : anchor
        let longest = min(Int(strikes.longestInterval * rateHz), Int(strikes.longestSpacing * Double(stepTicks)))
        guard let tick = chain.strikeOutOfStillness(before: anchor, floor: max(floor, anchor - longest, gait.oldestIndex), latest: latest),
              gait[tick] >= max(strikes.minimumHeight, strikes.heightFraction * boutLevel.squareRoot()) else { return nil }
        // Of a kind with the walk's first strikes (the anchor and the two logged after it): not
        // below `ChainRules.weakestFraction` of their median, as a chain's strikes.
        let firsts = chain.impacts.filter { $0.tick >= anchor - chain.halfWidth }.prefix(3).map { gait[$0.tick] }.sorted()
        guard let median = firsts.isEmpty ? nil : firsts[firsts.count / 2], gait[tick] >= settings.chain.weakestFraction * median else { return nil }
        return tick
    }

    /// A short walk between pauses that the rhythm could not see (`ImpactChain`): counted strike
    /// by strike once it is over. Not in a vehicle, not while pedalling, not into waving.
    private mutating func countChain(end n: Int, streamEnded: Bool = false) {
        let floor = max(ledger.until, shapeRejectedUntil, rideFloor)
        guard n > chain.quietTicks, let ticks = chain.completed(after: floor, in: gait, streamEnded: streamEnded),
              !inVehicle, !cycling, !waving.wavedRecently(end: n, window: 2 * window),
              let first = ticks.first, let last = ticks.last else { return }
        let cadence = Double(ticks.count - 1) * rateHz / Double(max(1, last - first))
        ledger.note(.resume(time: time(first)))
        // Walked time as `credit` counts it: one step period per step.
        ledger.strikes(ticks, cadence: cadence, origin: origin)
        ledger.until = last + 1
        ledger.note(.pause(time: time(last)))
    }

    /// The first tick after `rideEvidenceUntil` (0 before this segment).
    private var rideFloor: Int {
        rideEvidenceUntil > origin ? Int(((rideEvidenceUntil - origin) * rateHz).rounded(.up)) : 0
    }

    /// Mean energy over ticks `a..<b`, g².
    private func regionEnergy(_ a: Int, _ b: Int) -> Double {
        guard b > a else { return 0 }
        var sum = 0.0
        for i in a..<b { sum += energy(around: i) }
        return sum / Double(b - a)
    }

    /// Ticks in one step at the bout cadence.
    private var stepTicks: Int { boutCadence > 0 ? Int((rateHz / boutCadence).rounded()) : 0 }

    /// Ticks in one stride (two steps) at the bout cadence.
    private var strideTicks: Int { boutCadence > 0 ? Int((2 * rateHz / boutCadence).rounded()) : 0 }

    /// Ends a bout: credits from where counting stopped up to the last tick with gait energy
    /// (unless `creditingTail` is false: the tail is known not to be gait), and not into a pause
    /// that begins at tick `pause` (`BoutRules.pauseDeviation`): nothing after it is this walk's.
    private mutating func endBout(creditingTail: Bool = true, before pause: Int? = nil) {
        guard inBout else { return }
        var offset = ledger.until
        let tailEnd = pause ?? gait.count
        if creditingTail {
            // The end may lie anywhere in the uncredited tail (at most one window's length).
            let threshold = rules.envelopeFraction * boutLevel
            offset = BoutEdges.offset(gait, from: ledger.until, to: tailEnd, stride: strideTicks, minimumCorrelation: rules.edgeCorrelation) {
                energy(around: $0) >= threshold
            }
            offset = min(offset, ledger.until + lagBehind + hop)
        }
        credit(to: offset)
        var end = max(offset - 1, 0)
        if creditingTail, let last = ledger.lastStepTick {
            // The last steps before stopping, one by one; before a pause, all of them up to it
            // (`BoutRules.strikesBeforePause`).
            let count = pause.map { _ in max(strikes.maximumAfter, rules.strikesBeforePause) }
            for tick in strikes.after(last, ceiling: tailEnd - 1, count: count, period: stepTicks, level: boutLevel.squareRoot(),
                                      rateHz: rateHz, in: gait) {
                ledger.strike(at: tick, cadence: boutCadence, origin: origin)
                end = max(end, tick)
                ledger.until = max(ledger.until, tick + 1)
            }
        }
        // A short irregular walk the rhythm misread is counted strike by strike (`IrregularBout`).
        if let pause, !inVehicle, !cycling,
           let last = IrregularBout.recount(&ledger, chain: chain, rules: settings.irregular, from: openedFrom, start: boutStart, pause: pause,
                                            cadence: boutCadences.median ?? boutCadence, gait: gait, origin: origin) { end = last }
        ledger.note(.pause(time: time(end)))
        // A walk after the pause begins after it (its onset search starts there). A bout that
        // stopped at a pause inside itself before it counted a step was a slow, irregular walk
        // whose rhythm held no stride (a still second between two steps up to 2 s apart,
        // `ChainRules.longestInterval`): its strikes are left to the chain.
        if let pause {
            ledger.until = ledger.lastStepTick == lastStepAtOpen ? openedFrom : max(ledger.until, pause + pauseTicks)
        }
        inBout = false
        machine.reset()
    }

    /// Are the newest `2 · hop` ticks a pure sinusoid at about `cadence` (a waved phone)?
    private mutating func newestIsPureSine(cadence: Double) -> Bool {
        let count = 2 * hop
        gait.copy(from: gait.count - count, count: count, into: &scratch)
        // Purity only when the RMS frequency already says sine (a walk's harmonics mostly say not).
        let spread = gate.minimumHarmonicSpread * cadence
        let shape = GaitShape.measure(scratch, count: count, rateHz: rateHz, cadence: cadence, skewAndKurtosis: false,
                                      purityBelow: spread)
        return shape.purity > gate.maximumPurity && shape.rmsFrequency < spread
    }

    /// Counts steps at the bout cadence up to tick `end` (`StepLedger`).
    private mutating func credit(to end: Int) {
        ledger.credit(to: end, cadence: boutCadence, gait: gait, altitude: gait.plane(Plane.altitude), origin: origin)
    }

    /// Hands the ticks the impact chain has not looked at yet to it, in order, each as the ring
    /// stood when it arrived (`ImpactChain.observe`). Once per hop, before the window's analysis
    /// reads the chain, and before a gap or the stream's end flush it: the chain is read nowhere
    /// else, so it holds the same impacts as if it had looked at every tick on its arrival, and
    /// its peak test is a short loop of its own instead of part of the per-tick path (where its
    /// values and the ring's address stayed in registers across every other stage; callgrind,
    /// session 23). Out of line: inlined, its loop joined the per-tick path's.
    @inline(never)
    private mutating func observeImpacts() {
        chain.observe(gait, after: chainSeen)
        chainSeen = gait.count
    }

    /// Ends the stream: flushes the bout in progress.
    mutating func finish() {
        observeImpacts()
        fillEnvelope()
        endBout()
        countChain(end: gait.count, streamEnded: true)
    }

}
