/// Ticks the resampler completed during a stretch of a batch of samples, held so that each stage
/// takes them in a loop of its own (`Pedometer.process(contentsOf:speeds:into:)`): the resampler
/// over the samples, then gravity and the altimeter over the ticks, then the cycling detector and
/// the step counter, which store the ticks between their hops in one call each (one check of
/// their storage's sole ownership per stretch instead of one per tick). 1 581 → 1 517
/// instructions per 25 Hz sample in callgrind (docs/replay-speed.md, session 25).
///
/// Fixed storage on the stack, no allocation: `capacity` ticks.
struct TickBatch: TickSink {
    /// Ticks held at most.
    static let capacity = 64

    /// Ticks held.
    private(set) var count = 0
    /// How many of them start a segment (`Tick.startsSegment`): zero on almost every batch, so
    /// the stages need not look for a segment's start tick by tick.
    private(set) var segmentStarts = 0
    /// Per tick: the mean specific force (lanes 0–2, g) and the grid time (lane 3, s).
    private(set) var samples = InlineArray<64, SIMD4<Double>>(repeating: .zero)
    /// Per tick: the pressure that arrived during its interval (hPa; NaN when none did), then,
    /// after `Pedometer`'s gravity pass, the altitude the step counter stores with it (m).
    var level = InlineArray<64, Double>(repeating: .nan)
    /// Per tick: `Tick.startsSegment`.
    private(set) var startsSegment = InlineArray<64, Bool>(repeating: false)
    /// Per tick, from `Pedometer`'s gravity pass: the gait signal (lane 0, g) and the horizontal
    /// acceleration (lane 1, g), `UserAcceleration`.
    var user = InlineArray<64, SIMD2<Double>>(repeating: .zero)

    /// Whether a push of at most `most` ticks still fits.
    @inline(__always) func hasRoom(for most: Int) -> Bool { count + most <= Self.capacity }

    /// Holds one tick (at most `capacity`: the subscripts check it).
    @inline(__always) mutating func take(_ tick: Tick) {
        let a = tick.acceleration
        samples[count] = SIMD4(a.x, a.y, a.z, tick.time)
        level[count] = tick.pressure
        startsSegment[count] = tick.startsSegment
        if tick.startsSegment { segmentStarts += 1 }
        count += 1
    }

    /// The end of the run of ticks that starts at `from`: the next tick that starts a segment,
    /// or `count`.
    @inline(__always) func runEnd(from: Int) -> Int {
        guard segmentStarts > 0 else { return count }
        var to = from + 1
        while to < count, !startsSegment[to] { to += 1 }
        return to
    }

    /// Forgets the ticks (the storage is overwritten by the next ones).
    @inline(__always) mutating func removeAll() {
        count = 0
        segmentStarts = 0
    }
}
