#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// The pedometer core: a state machine fed one sample at a time, the same live, in replay and in
/// tests. Feed samples with `process`, end a finite stream with `finish`, read totals from
/// `snapshot`.
///
/// Stages (one folder each): `Resampler` brings any rate (25 Hz to 1 kHz, jittered, with gaps) to
/// a fixed 50 Hz grid; `GravityEstimator` yields the gait signal (|specific force| − 1 g) and,
/// from a low-pass "down", the horizontal acceleration (accelerometer only: a gyro bought nothing,
/// docs/steps.md); `StepCounter` finds gait by rhythm and shape and counts it by cadence; `StrideModel` turns steps into distance; the barometer
/// stages count floors walked; `ActivityClassifier` and `ActivitySegmenter` label the time.
/// Memory is constant in the length of the stream; `process` allocates nothing per sample (only
/// the caller's `events` array grows, by the events appended).
public struct Pedometer: Sendable {
    /// Internal processing rate, Hz: gait lives below 10 Hz (cadence ≤ 4 steps/s plus a few
    /// harmonics), so 50 Hz keeps the heel-strike shape while making 400 Hz inputs 8× cheaper.
    /// 40 Hz was measured too (with an earlier core): 25 Hz inputs ran 4.8 instead of 3.7 million
    /// samples/s, but the oxford recordings read 1.44% instead of 1.41% MAPE (the repo fixtures
    /// 1.58% vs 1.08%), and real data comes first. `imu-bench-core` prints the core's speed at
    /// 25 and 100 Hz input beside its anchor (docs/replay-speed.md).
    public static let internalRateHz = 50.0
    /// Longest silence bridged by interpolation, s. Longer gaps restart the filters and end any
    /// bout at the gap instead of inventing or losing steps across it.
    public static let maximumGap = 0.5

    public let configuration: PedometerConfiguration
    public let sensors: SensorCapabilities

    private var resampler: Resampler
    private var gravity: GravityEstimator
    private var stepCounter: StepCounter
    private var altimeter = BarometricAltimeter()
    private var floors: FloorCounter
    private let classifier: ActivityClassifier
    private var segmenter: ActivitySegmenter
    // MARK: cycling and ground speed (issue 15)
    private var cycling = CyclingDetector(rateHz: Pedometer.internalRateHz)
    private var vote = ActivityVote()
    private var lastRecordedSpeed: (speed: Double, time: Double)?
    private var firstTime: Double?
    private var lastTickTime = 0.0
    private var currentAltitude = 0.0
    private var state = PedometerSnapshot()
    private var finished = false
    private var labelledUntil: Double?
    /// End of the latest window counted as a walk or run, s (`ActivityClassifier`'s `justWalked`).
    private var lastCountedWindow: Double?
    /// The latest analysed window and how many there were, for tuning tools.
    @_spi(Diagnostics) public private(set) var windowCount = 0
    @_spi(Diagnostics) public private(set) var lastWindow = WindowDiagnostics()
    /// The latest pedalling analysis and ride state, for tuning tools (issue 15). A figure the
    /// analyser did not measure, since a cheaper rule had already settled every verdict
    /// (`PedallingAnalyser.analyse`), prints as "-".
    @_spi(Diagnostics) public var lastPedalling: String {
        let w = cycling.latest, s = w.seated
        let impact = w.deviation >= PedallingWindow.Limit.minimumDeviation ? String(cFormat: "imp=%.2f", w.impactShare) : "imp=-"
        let crank = w.mayPedal ? String(cFormat: "f=%.2f r=%.2f half=%+.2f", w.crankFrequency, w.regularity, w.halfPeriodCorrelation)
            : "f=- r=- half=-"
        let tilt = w.looksLikePedalling ? String(cFormat: "tilt=%+.2f", w.tiltCorrelation) : "tilt=-"
        let stroke = s.mayPedal ? String(cFormat: "f=%.2f r=%+.2f", s.strokeFrequency, s.strokeRegularity) : "f=- r=-"
        let rock = s.rhythmFits ? String(cFormat: "rock=%+.2f/%+.2f", s.rockPerRevolution, s.rockPerStroke) : "rock=-/-"
        return String(cFormat: "dev=%.3f ", w.deviation) + impact + " " + crank + " " + tilt + " " + (w.isPedalling ? "P" : "-")
            + (w.isRideVibration ? "V" : "-") + " riding=" + (cycling.isRiding ? "Y" : "n")
            + String(cFormat: " seated dev=%.3f ", s.deviation) + stroke + " " + rock
    }

    public init(configuration: PedometerConfiguration = .init(), capabilities: SensorCapabilities) {
        self.init(configuration: configuration, capabilities: capabilities, settings: StepSettings())
    }

    /// A pedometer with some step thresholds changed, for tuning tools (leave-one-person-out in
    /// `imu-bench-accuracy`).
    @_spi(Tuning) public init(configuration: PedometerConfiguration = .init(), capabilities: SensorCapabilities,
                              tuning: StepTuning) {
        self.init(configuration: configuration, capabilities: capabilities, settings: tuning.applied(to: StepSettings()))
    }

    init(configuration: PedometerConfiguration, capabilities: SensorCapabilities, settings: StepSettings) {
        self.configuration = configuration
        sensors = capabilities
        resampler = Resampler(rateHz: Self.internalRateHz, maximumGap: Self.maximumGap)
        gravity = GravityEstimator(interval: 1 / Self.internalRateHz)
        let stride = configuration.strideCalibration ?? StrideModel(height: configuration.userHeightMeters)
        stepCounter = StepCounter(rateHz: Self.internalRateHz, stride: stride, settings: settings)
        classifier = ActivityClassifier(rules: settings.activity)
        segmenter = ActivitySegmenter(rules: settings.activity)
        floors = FloorCounter(floorHeight: configuration.floorHeightMeters)
    }

    /// What this source lets the pedometer report.
    public static func capabilities(for sensors: SensorCapabilities) -> Capabilities {
        Capabilities(sensors: sensors)
    }

    /// Feeds one sample; appends whatever it completed to `events`.
    public mutating func process(_ sample: MotionSample, into events: inout [PedometerEvent]) {
        noteTime(of: sample)
        // MARK: ground speed (issue 15): a recording's gnss_speed column, as a live receiver's reports.
        if let reading = newRecordedSpeed(in: sample) { observe(reading) }
        // The sample's ticks (at most `Resampler.mostTicksPerPush`) through the batch path. A
        // batch is made only when the sample may complete a tick: setting up its 64 places
        // (about 3.6 KB) for every sample made this path about twice as slow at 100 to 400 Hz
        // (`imu-bench-accuracy --only speed`, session 26), where most samples complete none.
        if resampler.mayCompleteTick(at: sample.time) {
            var ticks = TickBatch()
            resampler.push(sample, into: &ticks)
            if ticks.count > 0 { take(&ticks, into: &events) }
        } else {
            var none = NoTicks()
            resampler.push(sample, into: &none)
        }
    }

    /// The stream's first and latest time (`snapshot`), from a sample's.
    @inline(__always) private mutating func noteTime(of sample: MotionSample) {
        guard sample.time.isFinite else { return }
        if firstTime == nil { firstTime = sample.time; state.time = sample.time }
        if sample.time > state.time { state.time = sample.time }
    }

    /// Feeds a batch of samples in order: the same as `process(_:into:)` on each, but each sample
    /// is read where it lies in the array instead of being copied out first (a 145-byte copy per
    /// sample, 5 % of the core's time in `perf`).
    public mutating func process(contentsOf batch: [MotionSample], into events: inout [PedometerEvent]) {
        process(contentsOf: batch, speeds: [], into: &events)
    }

    // MARK: ground speed among a batch's samples (issue 15)
    /// Feeds a batch of samples in order with the ground-speed readings of its span: each reading
    /// is observed before the first sample at or after its time, so the vote's speed is as fresh
    /// inside the batch as a feed sample by sample would make it (a batch arrives after its span,
    /// `HandOver.seconds`, and its readings are waiting by then). Readings later than the batch's
    /// last sample are observed after it. `speeds` must be in time order. The one place where
    /// readings and samples are merged: `GroundSpeedInput` (tools, daemon) and the benchmarks.
    ///
    /// The resampler's ticks are held in a `TickBatch` and handed to the stages a stretch at a
    /// time (`take`), each stage in a loop of its own. Everything a tick leads to is still done in
    /// tick order, and before the vote observes any ground speed that follows it (the held ticks
    /// are taken first), so the events are the same as sample by sample.
    public mutating func process(contentsOf batch: [MotionSample], speeds: [GroundSpeed], into events: inout [PedometerEvent]) {
        var next = 0
        // The resampler stays in a local variable for the batch (a reading reaches only the vote).
        var resampler = self.resampler
        var ticks = TickBatch()
        let most = resampler.mostTicksPerPush
        batch.withUnsafeBufferPointer { samples in
            for i in samples.indices {
                let sample = samples[i]
                while next < speeds.count, speeds[next].time <= sample.time {
                    if ticks.count > 0 { take(&ticks, into: &events) }
                    observe(speeds[next])
                    next += 1
                }
                noteTime(of: sample)
                if let reading = newRecordedSpeed(in: sample) {
                    if ticks.count > 0 { take(&ticks, into: &events) }
                    observe(reading)
                }
                if !ticks.hasRoom(for: most) { take(&ticks, into: &events) }
                resampler.push(samples.baseAddress! + i, into: &ticks)
            }
        }
        if ticks.count > 0 { take(&ticks, into: &events) }
        self.resampler = resampler
        for reading in speeds[next...] { observe(reading) }
    }

    /// Hands the held ticks to the stages (a batch's, or one sample's in `process(_:into:)` and
    /// the last interval's in `finish`: the one path from ticks to events), in runs that each
    /// start at the batch's start or at a segment's start: a segment's resets, then gravity and the altimeter over the run (`level`
    /// and `user` filled in), then the cycling detector and the step counter tick by tick, with
    /// each window they complete handled at its tick. Gravity and the altimeter read nothing the
    /// later stages change, so running them ahead over the run gives the same values.
    /// Out of line: one call per stretch of ticks.
    @inline(never)
    private mutating func take(_ ticks: inout TickBatch, into events: inout [PedometerEvent]) {
        var from = 0
        while from < ticks.count {
            let to = ticks.runEnd(from: from)
            if ticks.startsSegment[from] { startSegment(at: ticks.samples[from][3], into: &events) }
            var gravity = self.gravity
            for i in from..<to {
                let s = ticks.samples[i]
                let user = gravity.update(acceleration: Vector3(s[0], s[1], s[2]))
                ticks.user[i] = SIMD2(user.magnitude, user.horizontal)
            }
            self.gravity = gravity
            currentAltitude = altimeter.fill(&ticks, from: from, to: to, altitude: currentAltitude)
            // Up to the next tick at which either stage completes a hop, the ticks are only
            // stored: in one call each. That tick goes through both as one tick alone.
            var i = from
            while i < to {
                let stored = min(to - i, cycling.ticksToHop, stepCounter.ticksToHop) - 1
                if stored > 0 {
                    let first = i
                    cycling.store(count: stored) { k in
                        let s = ticks.samples[first + k]
                        return SIMD4(s[0], s[1], s[2], ticks.user[first + k][0])
                    }
                    stepCounter.store(count: stored) { k in
                        let user = ticks.user[first + k]
                        return SIMD4(user[0], user[1], ticks.level[first + k], 0)
                    }
                    i += stored
                }
                let s = ticks.samples[i], user = ticks.user[i]
                // MARK: cycling input (issue 15): pedalling is not counted (`CyclingDetector.blocksSteps`).
                if cycling.add(Vector3(s[0], s[1], s[2]), gait: user[0]) { takeCyclingWindow() }
                if let window = stepCounter.process(UserAcceleration(magnitude: user[0], horizontal: user[1]),
                                                    altitude: ticks.level[i]) {
                    handle(window, at: s[3], into: &events)
                }
                i += 1
            }
            lastTickTime = ticks.samples[to - 1][3]
            from = to
        }
        ticks.removeAll()
    }

    /// Ends the stream: flushes pending steps, floors and the final activity segment.
    public mutating func finish(into events: inout [PedometerEvent]) {
        guard !finished else { return }
        finished = true
        var ticks = TickBatch()
        resampler.flush(into: &ticks)
        if ticks.count > 0 { take(&ticks, into: &events) }
        stepCounter.finish()
        stepCounter.ledger.commit(through: .infinity, into: &events)   // issue 15: the stream's last steps are committed
        takeFloors(at: lastTickTime, into: &events)
        floors.finish()
        segmenter.finish(at: state.time, into: &events)
    }

    /// Samples ignored because their time did not increase or a reading was NaN/infinite.
    public var droppedSamples: Int { resampler.droppedSamples }

    /// Totals and current state.
    public var snapshot: PedometerSnapshot {
        var s = state
        // Committed steps only (`StepLedger`): pending ones may yet turn out to be pedalling.
        s.steps = stepCounter.steps
        s.distanceMeters = stepCounter.distanceMeters
        s.floorsAscended = floors.ascended
        s.floorsDescended = floors.descended
        s.activeDuration = stepCounter.activeDuration
        s.duration = firstTime.map { state.time - $0 } ?? 0
        if !finished, let cadence = stepCounter.currentCadence {
            s.currentCadence = cadence
            s.currentPace = 1 / (cadence * stepCounter.stride.stride(cadence: cadence))
        }
        if s.distanceMeters > 0 { s.averageActivePace = s.activeDuration / s.distanceMeters }
        if let segment = segmenter.current {
            s.activity = segment.activity
            s.confidence = segment.confidence
        }
        return s
    }

    /// Resets the stages at the first tick of a segment (the stream's first tick, or the first
    /// after a gap), at grid time `time` (s), before that tick goes through them; the floors are
    /// taken up to the previous tick.
    private mutating func startSegment(at time: Double, into events: inout [PedometerEvent]) {
        stepCounter.startSegment(at: time)
        gravity.reset()
        altimeter.reset()
        cycling.reset()   // issue 15
        takeFloors(at: lastTickTime, into: &events)
    }

    /// Hands the cycling detector's verdicts on its latest window to the step counter.
    ///
    /// Once per hop, out of line (with `handle(_:at:into:)`): inside the per-tick path it added
    /// spills to every tick, and its reads of the detector, called there, copied the whole
    /// detector to the stack first (callgrind, session 21).
    @inline(never)
    private mutating func takeCyclingWindow() {
        stepCounter.cycling = cycling.blocksSteps(inBout: stepCounter.inBout)
        stepCounter.rideVibration = cycling.isVibratingOn
        stepCounter.gaitTotals = cycling.gaitTotals   // the same window of the same gait signal
    }

    /// Everything a step counter's window completed at the tick at `time` (s) leads to: floors,
    /// the ride's evidence, commits and retractions of steps, the activity label. Once per hop,
    /// out of line (`takeCyclingWindow`).
    @inline(never)
    private mutating func handle(_ window: GaitWindow, at time: Double, into events: inout [PedometerEvent]) {
        takeFloors(at: time, into: &events)
        windowCount += 1
        lastWindow = WindowDiagnostics(window, steps: stepCounter.steps)
        // MARK: steps pending until the ride detector has seen them (issue 15, `StepLedger`).
        let wasRiding = cycling.isRiding
        cycling.noteGait(window.isGait, at: window.end, beyondWalking: vote.beyondWalking(at: window.end))
        stepCounter.rideEvidenceUntil = cycling.lastRideWindow ?? -.infinity
        if !wasRiding, cycling.isRiding,
           let start = cycling.rideStart(windowSeconds: stepCounter.settings.bout.windowSeconds,
                                         hopSeconds: stepCounter.settings.bout.hopSeconds) {
            stepCounter.ledger.retract(from: start)
        }
        if !cycling.mayBeStarting {
            // A bout that may yet be recounted by its strikes keeps its steps (`recountableFrom`).
            let held = stepCounter.recountableFrom.map { $0.nextDown } ?? .infinity
            stepCounter.ledger.commit(through: Swift.min(window.end - StepLedger.holdSeconds, held), into: &events)
        }
        if window.counted { lastCountedWindow = window.end }
        let justWalked = lastCountedWindow.map { window.end - $0 <= stepCounter.settings.bout.windowSeconds } ?? false
        let imu = cycling.isRiding ? (ActivityClass.cycling, cycling.confidence) : classifier.classify(window, justWalked: justWalked)
        let (activity, confidence) = vote.decide(imu: imu, cadence: stepCounter.currentCadence, time: window.end)   // issue 15
        // Labels tile the time from the first sample: each covers the span since the previous
        // one, up to the window's centre (the time it describes best).
        let centre = window.end - stepCounter.settings.bout.windowSeconds / 2
        let from = labelledUntil ?? firstTime ?? centre
        segmenter.add(activity, confidence: confidence, start: from, time: Swift.max(from, centre),
                      gaitDeviation: window.gaitDeviation, into: &events)
        labelledUntil = Swift.max(from, centre)
        stepCounter.inVehicle = segmenter.isProvenRide
    }

    // MARK: ground speed (issue 15)
    /// Feeds one ground-speed reading (a GNSS fix's speed over ground, never its position). The
    /// activity vote uses it while it is fresh (`ActivityVote.freshness`). Without readings the
    /// pedometer works from the IMU alone; once a receiver has been seen, a lost fix lowers the
    /// confidence one level (docs/activity.md).
    public mutating func observe(_ speed: GroundSpeed) {
        vote.observe(speed)
    }

    /// Ground-speed readings the vote ignored as implausible (`GroundSpeed.isPlausible`: faster
    /// than `GroundSpeed.fastestLandSpeed`, negative, or not finite), and the fastest finite one, m/s.
    public var ignoredGroundSpeeds: (count: Int, fastest: Double?) { (vote.ignoredReadings, vote.fastestIgnored) }

    /// The smoothed ground speed the vote uses now (nil without a fresh fix).
    public var groundSpeed: SmoothedSpeed? { vote.speed(at: lastTickTime) }

    /// The sample's recorded ground speed when it is a new reading (remembered as the latest), else
    /// nil: recordings hold the last fix on every row until the next, so a value is a new reading
    /// only when it changes or a receiver's report interval (1 s) has passed.
    private mutating func newRecordedSpeed(in sample: MotionSample) -> GroundSpeed? {
        guard let speed = sample.gnssSpeed else { return nil }
        if let last = lastRecordedSpeed, last.speed == speed, sample.time - last.time < 1 { return nil }
        lastRecordedSpeed = (speed, sample.time)
        return GroundSpeed(time: sample.time, metersPerSecond: speed)
    }

    private mutating func takeFloors(at time: Double, into events: inout [PedometerEvent]) {
        floors.advance(to: time, into: &events)
        guard stepCounter.ledger.walkedClimbDuration > 0 else { return }
        floors.addWalked(change: stepCounter.ledger.walkedClimb, duration: stepCounter.ledger.walkedClimbDuration,
                         time: time, into: &events)
        stepCounter.ledger.walkedClimb = 0
        stepCounter.ledger.walkedClimbDuration = 0
    }
}

/// One analysis window's figures, for tuning tools (`@_spi(Diagnostics)`).
@_spi(Diagnostics) public struct WindowDiagnostics: Sendable, CustomStringConvertible {
    public var end = 0.0, gaitDeviation = 0.0, horizontalDeviation = 0.0
    public var cadence = 0.0, regularity = 0.0, strongest = 0.0, wasStride = false
    public var skewness = 0.0, kurtosis = 0.0, purity = 0.0, rmsFrequency = 0.0
    public var isGait = false, steps = 0
    /// The shape figures were measured (`GaitWindow.shapeMeasured`); printed as "-" otherwise.
    public var shapeMeasured = true
    public var impactCoupling = 0.0
    /// Horizontal motion within the window's strides, g (`GaitWindow.strideHorizontal`); 0 where
    /// the weak-start rule did not measure it.
    public var strideHorizontal = 0.0
    init() {}
    init(_ w: GaitWindow, steps: Int) {
        end = w.end
        gaitDeviation = w.gaitDeviation
        horizontalDeviation = w.horizontalDeviation
        cadence = w.estimate?.cadence ?? 0
        regularity = w.estimate?.regularity ?? 0
        wasStride = w.estimate?.wasStride ?? false
        strongest = w.estimate?.halfRepeat ?? 0
        skewness = w.shape.skewness
        kurtosis = w.shape.kurtosis
        purity = w.shape.purity
        rmsFrequency = w.shape.rmsFrequency
        shapeMeasured = w.shapeMeasured
        isGait = w.isGait
        self.steps = steps
        impactCoupling = w.impactCoupling
        strideHorizontal = w.strideHorizontal
    }
    public var description: String {
        String(cFormat: "t=%7.1f gdev=%.3f hdev=%.3f cad=%.3f r=%.2f/%.2f", end, gaitDeviation, horizontalDeviation, cadence,
               regularity, strongest) + (wasStride ? "S" : " ")
            + (shapeMeasured ? String(cFormat: " skew=%+.2f kurt=%.2f pur=%.2f frms/cad=%.2f ", skewness, kurtosis, purity,
                                      cadence > 0 ? rmsFrequency / cadence : 0.0) : " skew=- kurt=- pur=- frms/cad=- ")
            + (isGait ? "GAIT" : "----") + " steps=\(steps)"
            + (impactCoupling != 0 ? String(cFormat: " coupling=%+.2f", impactCoupling) : "")
            + (strideHorizontal != 0 ? String(cFormat: " hstride=%.3f", strideHorizontal) : "")
    }
}
