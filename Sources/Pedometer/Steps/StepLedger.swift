/// Turns walked time into step events and totals: each credited tick advances the step phase by
/// cadence × dt, and every whole step commits one event, placed at the highest gait-signal sample
/// within a quarter step (the heel strike). It also keeps the distance, the walked time and the
/// altitude change over walked time (for the floor counter).
struct StepLedger: Sendable {
    let rateHz: Double
    let interval: Double
    /// Step length model.
    let stride: StrideModel
    /// Delay of the filtered altitude behind the true one, ticks: the altimeter's 1 s median
    /// (0.5 s) plus its 1 s low-pass (1 s) on a steady climb.
    let altitudeDelay: Int

    /// Absolute tick index: steps are counted up to here.
    var until = 0
    /// Fractional steps since the last committed one.
    var phase = 0.0
    /// Committed steps.
    private(set) var steps = 0
    /// Absolute tick of the latest committed step (its heel strike), nil before the first.
    private(set) var lastStepTick: Int?
    /// Distance of the committed steps, m.
    private(set) var distanceMeters = 0.0
    /// Seconds credited as walking or running.
    private(set) var activeDuration = 0.0
    /// Altitude change over credited (walked) time not yet taken by the floor counter, m.
    var walkedClimb = 0.0
    /// Duration of that walked time, s.
    var walkedClimbDuration = 0.0

    init(rateHz: Double, stride: StrideModel) {
        self.rateHz = rateHz
        interval = 1 / rateHz
        self.stride = stride
        altitudeDelay = Int((BarometricAltimeter.delay * rateHz).rounded())
    }

    /// Counts steps at `cadence` (steps/s) over ticks `until..<end`; `origin` is the time of tick 0, s.
    mutating func credit(to end: Int, cadence: Double, gait: RingBuffer, altitude: RingBuffer, origin: Double,
                         into events: inout [PedometerEvent]) {
        guard end > until else { return }
        let ticks = end - until
        let stepsPerTick = cadence * interval
        var committed = 0
        var index = until
        // Phase advances by cadence·dt each tick; each whole step commits one event at that tick.
        var p = phase
        for _ in 0..<ticks {
            p += stepsPerTick
            if p >= 1 {
                p -= 1
                let strike = heelStrike(near: index, cadence: cadence, gait: gait)
                events.append(.step(time: origin + Double(strike) * interval))
                lastStepTick = strike
                committed += 1
            }
            index += 1
        }
        phase = p
        activeDuration += Double(ticks) * interval
        // The filtered altitude lags the true one by `altitudeDelay`: read it that much later.
        let newest = altitude.count - 1
        let first = max(altitude.oldestIndex, min(newest, until - 1 + altitudeDelay))
        let last = max(altitude.oldestIndex, min(newest, end - 1 + altitudeDelay))
        walkedClimb += altitude[max(last, 0)] - altitude[max(first, 0)]
        walkedClimbDuration += Double(ticks) * interval
        until = end
        steps += committed
        distanceMeters += Double(committed) * stride.stride(cadence: cadence)
    }

    /// Commits one step found on its own (`HeelStrikes`) at absolute tick `tick`.
    mutating func strike(at tick: Int, cadence: Double, origin: Double, into events: inout [PedometerEvent]) {
        events.append(.step(time: origin + Double(tick) * interval))
        steps += 1
        distanceMeters += stride.stride(cadence: cadence)
        if tick > lastStepTick ?? Int.min { lastStepTick = tick }
    }

    /// Takes back steps never committed downstream (issue 15, `StepCounter.retract`).
    mutating func retract(steps count: Int, distanceMeters meters: Double, activeSeconds seconds: Double) {
        steps = max(0, steps - count)
        distanceMeters = max(0, distanceMeters - meters)
        activeDuration = max(0, activeDuration - seconds)
    }

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
