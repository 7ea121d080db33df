/// Turns walked time into step events and totals: each credited tick advances the step phase by
/// cadence × dt, and every whole step makes one event, placed at the highest gait-signal sample
/// within a quarter step (the heel strike). It also keeps the distance, the walked time and the
/// altitude change over walked time (for the floor counter).
///
/// Pending and committed (issue 15): every step, every credited stretch of walked time and every
/// pause or resume is first pending, in the order counted. `commit(through:into:)` hands the
/// pending ones up to a time out as events and adds them to the totals; `retract(from:)` forgets
/// those from a time on (a ride turned out to have begun then, `CyclingDetector`). The totals
/// (`steps`, `distanceMeters`, `activeDuration`) are the committed ones only, so events and
/// totals always agree and no total goes down. The pedometer decides when to commit
/// (`holdSeconds`).
struct StepLedger: Sendable {
    /// How long the pedometer keeps a step pending after its own time, s: a whole analysis window
    /// (4 s) after the step, plus one hop (1 s) for the window to be analysed. A window sees
    /// pedalling once it fills most of it (docs/activity.md, "Getting on the bicycle").
    static let holdSeconds = 5.0

    let rateHz: Double
    let interval: Double
    /// Step length model.
    let stride: StrideModel
    /// Delay of the filtered altitude behind the true one, ticks: the altimeter's 1 s median
    /// (0.5 s) plus its 1 s low-pass (1 s) on a steady climb.
    let altitudeDelay: Int

    /// Absolute tick index: steps are counted up to here.
    var until = 0
    /// Fractional steps since the last counted one.
    var phase = 0.0
    /// Committed steps.
    private(set) var steps = 0
    /// Everything counted up to this time (s) is committed (`commit(through:into:)`).
    private(set) var committedThrough = -Double.infinity
    /// Absolute tick of the latest counted step (its heel strike), nil before the first.
    private(set) var lastStepTick: Int?
    /// Distance of the committed steps, m.
    private(set) var distanceMeters = 0.0
    /// Committed seconds credited as walking or running.
    private(set) var activeDuration = 0.0
    /// Altitude change over credited (walked) time not yet taken by the floor counter, m.
    var walkedClimb = 0.0
    /// Duration of that walked time, s.
    var walkedClimbDuration = 0.0

    /// What was counted and is not committed yet, in the order counted: a step (its event and
    /// stride), a credited stretch of walked time (from `time`, `seconds` long, no event), or a
    /// pause or resume.
    private struct Pending {
        var time: Double
        var event: PedometerEvent?
        var meters = 0.0
        var seconds = 0.0
    }
    private var pending: [Pending] = []
    /// A retraction took a resume back while its bout went on: the bout's pause is dropped too,
    /// unless a resume is noted again first (`IrregularBout`).
    private(set) var resumeRetracted = false

    init(rateHz: Double, stride: StrideModel) {
        self.rateHz = rateHz
        interval = 1 / rateHz
        self.stride = stride
        altitudeDelay = Int((BarometricAltimeter.delay * rateHz).rounded())
        pending.reserveCapacity(64)
    }

    /// Counts steps at `cadence` (steps/s) over ticks `until..<end`; `origin` is the time of tick 0, s.
    mutating func credit(to end: Int, cadence: Double, gait: RingBuffer, altitude: RingBuffer, origin: Double) {
        guard end > until else { return }
        let ticks = end - until
        let stepsPerTick = cadence * interval
        let meters = stride.stride(cadence: cadence)
        pending.append(Pending(time: origin + Double(until) * interval, event: nil, seconds: Double(ticks) * interval))
        var index = until
        // Phase advances by cadence·dt each tick; each whole step makes one event at that tick.
        var p = phase
        for _ in 0..<ticks {
            p += stepsPerTick
            if p >= 1 {
                p -= 1
                let strike = heelStrike(near: index, cadence: cadence, gait: gait)
                let time = origin + Double(strike) * interval
                pending.append(Pending(time: time, event: .step(time: time), meters: meters))
                lastStepTick = strike
            }
            index += 1
        }
        phase = p
        // The filtered altitude lags the true one by `altitudeDelay`: read it that much later.
        let newest = altitude.count - 1
        let first = max(altitude.oldestIndex, min(newest, until - 1 + altitudeDelay))
        let last = max(altitude.oldestIndex, min(newest, end - 1 + altitudeDelay))
        walkedClimb += altitude[max(last, 0)] - altitude[max(first, 0)]
        walkedClimbDuration += Double(ticks) * interval
        until = end
    }

    /// Counts one step found on its own (`HeelStrikes`) at absolute tick `tick`.
    mutating func strike(at tick: Int, cadence: Double, origin: Double) {
        let time = origin + Double(tick) * interval
        pending.append(Pending(time: time, event: .step(time: time), meters: stride.stride(cadence: cadence)))
        if tick > lastStepTick ?? Int.min { lastStepTick = tick }
    }

    /// Counts `seconds` of walked time from `time` (s) with no step of its own: the time taken by
    /// a walk counted strike by strike (`ImpactChain`), whose steps come from `strike(at:)`.
    mutating func creditTime(from time: Double, seconds: Double) {
        pending.append(Pending(time: time, event: nil, seconds: seconds))
    }

    /// Counts a chain of strikes (absolute ticks, oldest first) one by one at `cadence` steps/s,
    /// with one step period of walked time per step from the first (`ImpactChain`'s walks and
    /// `IrregularBout`'s recounts).
    mutating func strikes(_ ticks: [Int], cadence: Double, origin: Double) {
        guard let first = ticks.first else { return }
        creditTime(from: origin + Double(first) * interval, seconds: Double(ticks.count) / cadence)
        for tick in ticks { strike(at: tick, cadence: cadence, origin: origin) }
    }

    /// A walk paused or resumed (`PedometerEvent.pause`, `.resume`), pending with the steps.
    mutating func note(_ event: PedometerEvent) {
        let time: Double
        switch event {
        case .pause(let t):
            if resumeRetracted { resumeRetracted = false; return }
            time = t
        case .resume(let t):
            resumeRetracted = false
            time = t
        default:
            return
        }
        pending.append(Pending(time: time, event: event))
    }

    /// Commits, in the order counted, everything pending up to the first entry later than `time`
    /// (s): its events go to `events`, its steps, distance and walked time to the totals.
    mutating func commit(through time: Double, into events: inout [PedometerEvent]) {
        var n = 0
        while n < pending.count, pending[n].time <= time {
            let entry = pending[n]
            if let event = entry.event {
                events.append(event)
                if case .step = event { steps += 1 }
            }
            distanceMeters += entry.meters
            activeDuration += entry.seconds
            n += 1
        }
        if n > 0 { pending.removeFirst(n) }
        committedThrough = max(committedThrough, time)
    }

    /// Forgets everything pending from `time` (s) on: the steps, pauses and resumes at or after
    /// it, and the walked time after it (a stretch that began before is cut there).
    mutating func retract(from time: Double) {
        var kept = 0
        for i in pending.indices {
            var entry = pending[i]
            if entry.time >= time {
                if case .resume = entry.event { resumeRetracted = true }
                continue
            }
            if entry.event == nil { entry.seconds = min(entry.seconds, time - entry.time) }
            pending[kept] = entry
            kept += 1
        }
        pending.removeSubrange(kept...)
    }

    /// Pending steps at or after `from` and before `to` (s).
    func pendingSteps(from: Double, to: Double) -> Int {
        pending.reduce(0) { n, entry in
            if entry.time >= from, entry.time < to, case .step = entry.event { return n + 1 }
            return n
        }
    }

    /// Times (s) of the pending steps at or after `from` and before `to`, in the order counted.
    func pendingStepTimes(from: Double, to: Double) -> [Double] {
        pending.compactMap { entry in
            if entry.time >= from, entry.time < to, case .step(let t) = entry.event { return t }
            return nil
        }
    }

    /// Is `event` still pending (counted, neither committed nor retracted)?
    func isPending(_ event: PedometerEvent) -> Bool { pending.contains { $0.event == event } }

    /// Forgets the latest step's tick (a new segment restarts tick numbering).
    mutating func restartTicks() { lastStepTick = nil }

    /// The tick of the highest gait-signal sample (the heel strike) within a quarter step of `index`.
    private func heelStrike(near index: Int, cadence: Double, gait: RingBuffer) -> Int {
        let reach = max(1, Int(0.25 / max(cadence, 0.5) * rateHz))
        let lo = max(gait.oldestIndex, index - reach)
        let hi = min(gait.count - 1, index + reach)
        var best = index
        var bestValue = -Double.infinity
        if lo <= hi {
            for i in lo...hi where gait[i] > bestValue {
                bestValue = gait[i]
                best = i
            }
        }
        return best
    }
}
