/// One instant on the fixed internal grid: the raw samples of one grid interval, averaged.
struct Tick: Sendable {
    /// Grid time in seconds (the samples' clock).
    var time: Double
    /// Mean specific force over the interval, g.
    var acceleration: Vector3
    /// The newest pressure reading that arrived during the interval, hPa; NaN when none did (a
    /// reading that is not finite is dropped, so NaN means none). A plain `Double` rather than an
    /// optional: no flag to test and store per tick (callgrind, session 25).
    var pressure: Double
    /// True for the first tick after a gap (or the very first tick): history must not be bridged.
    var startsSegment: Bool
}

/// Brings any input rate (25 Hz to 1 kHz, jittered) to one fixed internal rate.
///
/// Each output tick at grid time T averages the accelerometer samples whose timestamps fall in
/// [T − h/2, T + h/2): a box filter whose first null sits at the internal rate, which is
/// enough anti-aliasing for gait (below 10 Hz). Grid intervals that hold no sample (inputs slower
/// than the grid, or jitter) are filled by linear interpolation towards the next sample. A silence
/// longer than `maximumGap` is not bridged: the grid restarts at the next sample and that tick is
/// flagged `startsSegment`, so later stages reset instead of inventing motion across the gap.
/// The gyroscope is not resampled: no stage reads it since the orientation filter was removed
/// (docs/steps.md). A sample whose gyroscope reading is not finite is still dropped and counted
/// in `droppedSamples` (a driver glitch makes the whole sample suspect).
///
/// Ticks are handed to the caller's `emit` closure or `TickSink` as each interval closes, in
/// order, from inside `push` and `flush`: the resampler holds no array. `Pedometer` hands them to a
/// `TickBatch` that holds them for the stages (a batch's, or one sample's); the closure form is
/// for tests.
struct Resampler: Sendable {
    /// Internal grid interval in seconds.
    let interval: Double
    /// Longest silence that is interpolated over, seconds.
    let maximumGap: Double

    private var origin = 0.0
    private var index = 0
    /// End of the current interval, s: `origin + (index + 0.5) · interval`, kept up to date with
    /// `index` so that a sample inside the interval costs one comparison.
    private var intervalEnd = 0.0
    private var started = false
    private var nextStartsSegment = true
    private var lastSampleTime = -Double.infinity

    private var accelerationSum = Vector3.zero
    private var accelerationCount = 0
    /// The newest finite pressure reading of the interval in progress, hPa; NaN when none.
    private var pendingPressure = Double.nan

    private var previousAcceleration = Vector3.zero
    private var havePrevious = false

    /// Samples dropped because their time did not increase or a reading was not finite.
    private(set) var droppedSamples = 0

    init(rateHz: Double, maximumGap: Double) {
        interval = 1 / rateHz
        self.maximumGap = maximumGap
    }

    /// Most ticks one `push` completes: the intervals that end within a silence no longer than
    /// `maximumGap` (a longer one closes one interval and restarts the grid), and two more for
    /// the rounding of the intervals' ends. 27 at the pedometer's 50 Hz and 0.5 s.
    var mostTicksPerPush: Int { Int((maximumGap / interval).rounded(.up)) + 2 }

    /// Feeds one raw sample; `emit` receives every tick it completes (at most
    /// `mostTicksPerPush`), in time order.
    @inline(__always) mutating func push(_ sample: MotionSample, _ emit: (Tick) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureSink(emit: emit)
            push(sample, into: &sink)
        }
    }

    /// `push(_:into:)` on the sample at `sample`, read where it lies: passed by value from a
    /// batch's buffer, the sample was first copied to the stack (88 bytes, 13 instructions a
    /// sample in callgrind, session 26).
    @inline(never) mutating func push<Sink: TickSink>(_ sample: UnsafePointer<MotionSample>, into sink: inout Sink) {
        push(sample.pointee, into: &sink)
    }

    /// Feeds one raw sample; `sink` receives every tick it completes (at most
    /// `mostTicksPerPush`), in time order. A sink rather than a closure for a batch
    /// (`TickBatch`): with a closure that stores the tick, the optimizer made a copy of `push`
    /// specialised for the closure and left it out of line (callgrind, session 25).
    @inline(__always) mutating func push<Sink: TickSink>(_ sample: MotionSample, into sink: inout Sink) {
        let t = sample.time
        guard t.isFinite else { droppedSamples += 1; return }
        // A clock that jumps back by more than a gap (a device rebooted, recordings joined)
        // starts a new segment; smaller steps back are out-of-order samples and are dropped.
        if t <= lastSampleTime {
            guard started, lastSampleTime - t > maximumGap else { droppedSamples += 1; return }
            closeCurrentInterval(nextValue: nil, nextTime: lastSampleTime, &sink)
            started = false
            nextStartsSegment = true
            havePrevious = false
            lastSampleTime = -Double.infinity
        }
        if let p = sample.pressure, p.isFinite { pendingPressure = p }
        guard let a = sample.acceleration else { return }
        // A non-finite reading (a driver glitch) would poison every filter downstream.
        guard Self.allFinite(a, sample.rotationRate ?? .zero) else {
            droppedSamples += 1
            return
        }
        if started, t - lastSampleTime > maximumGap {
            closeCurrentInterval(nextValue: nil, nextTime: t, &sink)
            started = false
            nextStartsSegment = true
            havePrevious = false
        }
        lastSampleTime = t
        if !started {
            started = true
            origin = t
            setIndex(0)
        }
        // Close every interval that ends before this sample.
        while t >= intervalEnd {
            closeCurrentInterval(nextValue: a, nextTime: t, &sink)
            setIndex(index + 1)
        }
        accelerationSum += a
        accelerationCount += 1
    }

    /// False only when a sample at time `t` (s) cannot complete a tick: its time is after the
    /// last sample's, within `maximumGap` of it, and before the current interval's end (`push`
    /// then closes nothing). True also for a time that is not finite (`push` drops it).
    @inline(__always) func mayCompleteTick(at t: Double) -> Bool {
        !(t > lastSampleTime && t < intervalEnd && t - lastSampleTime <= maximumGap)
    }

    /// Whether all six readings are finite, in one vector test: x · 0 is 0 for a finite x and
    /// NaN for ±∞ and NaN, and NaN equals nothing. The same answer as `isFinite` on each, without
    /// a test and branch per reading on every sample (about 20 instructions a sample in callgrind).
    @inline(__always) static func allFinite(_ a: Vector3, _ b: Vector3) -> Bool {
        all(SIMD8(a.x, a.y, a.z, b.x, b.y, b.z, 0, 0) * 0 .== SIMD8<Double>.zero)
    }

    @inline(__always) private mutating func setIndex(_ i: Int) {
        index = i
        intervalEnd = origin + (Double(i) + 0.5) * interval
    }

    /// Emits the current interval: the mean of its samples, or an interpolation towards the next
    /// sample when it holds none. Nothing is emitted for an empty interval without a neighbour.
    @inline(__always)
    private mutating func closeCurrentInterval<Sink: TickSink>(nextValue: Vector3?, nextTime: Double, _ sink: inout Sink) {
        let time = origin + Double(index) * interval
        let acceleration: Vector3
        if accelerationCount > 0 {
            acceleration = Self.mean(accelerationSum, count: accelerationCount)
        } else if havePrevious, let next = nextValue {
            // Linear interpolation from the previous tick (at time − interval) to the next sample.
            let fraction = interval / max(interval, nextTime - (time - interval))
            acceleration = previousAcceleration + (next - previousAcceleration) * fraction
        } else {
            return
        }
        let tick = Tick(time: time, acceleration: acceleration, pressure: pendingPressure, startsSegment: nextStartsSegment)
        nextStartsSegment = false
        pendingPressure = .nan
        previousAcceleration = acceleration
        havePrevious = true
        accelerationSum = .zero
        accelerationCount = 0
        sink.take(tick)
    }

    /// `sum / count`. One, two and four samples (inputs at the grid's rate, twice and four times
    /// it) are divided by multiplying with the exact reciprocal of a power of two: the same
    /// value, bit for bit, without a division's latency.
    @inline(__always) private static func mean(_ sum: Vector3, count: Int) -> Vector3 {
        switch count {
        case 1: sum
        case 2: sum * 0.5
        case 4: sum * 0.25
        default: sum / Double(count)
        }
    }

    /// Flushes the interval in progress (end of stream) into `emit`.
    mutating func flush(_ emit: (Tick) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureSink(emit: emit)
            flush(into: &sink)
        }
    }

    /// Flushes the interval in progress (end of stream) into `sink`: at most one tick.
    mutating func flush<Sink: TickSink>(into sink: inout Sink) {
        if started, accelerationCount > 0 { closeCurrentInterval(nextValue: nil, nextTime: lastSampleTime, &sink) }
        started = false
    }
}

/// Where `Resampler.push` hands the ticks it completes.
protocol TickSink {
    mutating func take(_ tick: Tick)
}

/// The sink for a sample that `Resampler.mayCompleteTick(at:)` says completes no tick.
struct NoTicks: TickSink {
    func take(_ tick: Tick) { preconditionFailure("Resampler: a tick from a sample that could complete none") }
}

/// A closure as a `TickSink` (`Resampler.push(_:_:)`).
private struct ClosureSink: TickSink {
    let emit: (Tick) -> Void
    @inline(__always) func take(_ tick: Tick) { emit(tick) }
}
