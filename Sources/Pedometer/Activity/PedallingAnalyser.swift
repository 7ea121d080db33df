#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Measures `PedallingWindow`s on the pedometer's fixed grid: the last 4 s every 1 s, in step with
/// the step counter's windows (both restart at every segment start).
struct PedallingAnalyser: Sendable {
    /// Heel strikes and road vibration are measured above this frequency, Hz: the crank's
    /// fundamental (≤ 1.65 Hz) and its second harmonic stay below it.
    static let impactCutoffHz = 4.0

    let rateHz: Double
    private let window: Int
    private let hop: Int
    /// The last `window` ticks of every per-tick series, one plane each (`Plane`).
    private var history: RingPlanes
    /// The series kept per tick.
    private enum Plane {
        /// The gait signal, |specific force| − 1 g.
        static let gait = 0
        /// |low-passed specific force|, g. Less 1 g it is the level: the body's vertical motion
        /// without the road's vibration (`levelScratch`).
        static let length = 1
        /// The low-passed specific force in the device frame, g, per axis. Divided by `length` it
        /// is the tilt (`detrendTilt`): per window and only when a rule asks for the tilt, not per tick.
        static let x = 2, y = 3, z = 4
        static let count = 5
        // The impact band is not kept per tick: the window reads only its sums (`HopSums`).
    }
    private var smoothed: LowPass3
    /// Second-order Butterworth high-pass at `impactCutoffHz`: the impact band.
    private var highPass: Biquad
    private var sinceHop = 0
    /// The current hop's ticks (specific force x, y, z and the gait signal, g), not yet filtered,
    /// in the first `hop` places. Held inline, not in an array: a store into an array checks
    /// that the storage is not shared first (a call of `swift_isUniquelyReferenced` per tick, 12
    /// instructions per 25 Hz sample in the callee alone; callgrind, session 23).
    /// Its 100 places are a 1 s hop at 100 Hz, twice the pedometer's internal rate
    /// (`Pedometer.internalRateHz`, 50 Hz; the tests also run the analyser at 100 Hz).
    private var pending = InlineArray<100, SIMD4<Double>>(repeating: .zero)
    /// The window's centred gait signal (`scratch`) and centred level (`levelScratch`), g, and
    /// their running sums of squares: `…Squares[k]` = Σ x[i]² for i < k, added in index order
    /// (`prefixSquares`), so every lag's two energies are two look-ups (`correlation`).
    private var scratch: [Double]
    private var levelScratch: [Double]
    private var scratchSquares: [Double]
    private var levelSquares: [Double]
    /// The window's tilt less its straight-line trend (`detrendTilt`), per axis and tick, and the
    /// running sums of its squared lengths, as above.
    private var residuals: (x: [Double], y: [Double], z: [Double])
    private var residualSquares: [Double]
    /// Σ x and Σ x² per hop of the gait signal, the level and the impact band (`HopSums`), the
    /// last `window / hop` hops (a window is whole hops: `init`), oldest first from `hopsDone`.
    private var hopSums: [HopSums]
    /// Hops filtered since the latest reset.
    private var hopsDone = 0
    /// The window's |low-passed specific force| (`Plane.length`), for the tilt.
    private var lengthScratch: [Double]
    /// The searched series in single precision (`strongestRepeat`), then zeros (`LagProducts.add`, `oneLag`).
    private var singles: [Float]
    /// The searches' lagged products per lag, in eight partial sums.
    private var lagSums: [SIMD8<Float>]
    /// Σ x and Σ x² of the latest window's gait signal (`analyse`): the step counter's window over
    /// the same ticks has the same sums (`StepCounter.gaitTotals`).
    private(set) var gaitTotals = WindowTotals()
    /// `residuals` hold the current window's tilt (`detrendTilt` ran for it).
    private var tiltReady = false
    /// Σ (k − centre)² over the window's tick indices k (`detrendTilt`'s least-squares slope).
    private let tiltSpread: Double
    /// The lags searched, ticks: one crank revolution in `PedallingWindow.Limit.crankBand` and one
    /// pedal stroke in `SeatedRhythm.Limit.strokeBand` (`lags(_:)`), found once here instead of
    /// per window (two divisions, a `ceil` and a `floor` each; callgrind, session 26).
    private let crankLags: ClosedRange<Int>
    private let strokeLags: ClosedRange<Int>

    init(rateHz: Double) {
        self.rateHz = rateHz
        hop = Int(rateHz.rounded())
        crankLags = Self.lags(PedallingWindow.Limit.crankBand, rateHz: rateHz)
        strokeLags = Self.lags(SeatedRhythm.Limit.strokeBand, rateHz: rateHz)
        window = Int(BoutRules().windowSeconds) * hop   // the step counter's analysis window
        history = RingPlanes(planes: Plane.count, minimumCapacity: window)
        smoothed = LowPass3(timeConstant: 1 / (2 * Double.pi * Self.tiltCutoffHz), interval: 1 / rateHz)
        highPass = Biquad(highPassHz: Self.impactCutoffHz, rateHz: rateHz)
        precondition(hop <= pending.count, "PedallingAnalyser: a rate above \(pending.count) Hz (a hop longer than `pending` holds)")
        scratch = [Double](repeating: 0, count: window)
        levelScratch = scratch
        scratchSquares = [Double](repeating: 0, count: window + 1)
        levelSquares = scratchSquares
        residuals = (scratch, scratch, scratch)
        residualSquares = scratchSquares
        precondition(window % hop == 0, "PedallingAnalyser: the window is whole hops")
        hopSums = [HopSums](repeating: HopSums(), count: window / hop)
        lengthScratch = scratch
        singles = [Float](repeating: 0, count: window + LagProducts.padding)
        // The longest lag searched: the crank band's lowest frequency (the stroke band's is higher).
        lagSums = [SIMD8<Float>](repeating: .zero, count: crankLags.upperBound + 1)
        let centre = Double(window - 1) / 2
        tiltSpread = (0..<window).reduce(0.0) { $0 + (Double($1) - centre) * (Double($1) - centre) }
    }

    /// The lags of a band of frequencies (Hz) at `rateHz`, ticks: from the period of its highest
    /// frequency, rounded up, to that of its lowest, rounded down.
    private static func lags(_ band: ClosedRange<Double>, rateHz: Double) -> ClosedRange<Int> {
        Int((rateHz / band.upperBound).rounded(.up))...Int((rateHz / band.lowerBound).rounded(.down))
    }

    /// Forgets the history (a gap in the samples).
    mutating func reset() {
        history.removeAll()
        smoothed.reset()
        highPass.reset()
        sinceHop = 0
        hopsDone = 0
    }

    /// The thigh's pitch is followed below this frequency, Hz (the crank's fundamental is ≤ 1.65 Hz).
    ///
    /// The analysis stays at the pedometer's 50 Hz: this one-pole low-pass still passes 14 % of the
    /// amplitude at 21.7 Hz, which analysing at 25 Hz would fold onto 3.3 Hz (the stroke band's
    /// top), and the crank search reads the unfiltered gait signal. Halving the rate without
    /// aliasing takes a new low-pass that passes 0 to 3.3 Hz and removes 21.7 Hz and up (e.g. a
    /// fifth-order Butterworth at 6 Hz: −0.01 dB at 3.3 Hz, −56 dB at 21.7 Hz) and thresholds
    /// measured again on its signals (docs/activity.md).
    static let tiltCutoffHz = 3.0

    /// Feeds one tick of specific force (g, device frame). Returns a window's analysis once per
    /// hop when the window is full.
    mutating func add(_ acceleration: Vector3) -> PedallingWindow? {
        add(acceleration, gait: length(acceleration) - 1)
    }

    /// The same, with the tick's gait signal |specific force| − 1 g already computed (the
    /// pedometer's `GravityEstimator` has it: one square root per tick instead of two).
    ///
    /// A tick is only stored here; its filters run once per hop, over the hop's ticks in one loop
    /// (`filterHop`): the same values, without the filters' state going to memory and back
    /// between the pedometer's other stages on every tick.
    @inline(__always)
    mutating func add(_ acceleration: Vector3, gait value: Double) -> PedallingWindow? {
        let i = sinceHop
        pending[i] = SIMD4(acceleration.x, acceleration.y, acceleration.z, value)
        sinceHop += 1
        guard sinceHop >= hop else { return nil }
        filterHop()
        sinceHop = 0
        guard history.count >= window else { return nil }
        return analyse()
    }

    /// Ticks up to and including the next one at which `add` completes a hop (at least 1).
    var ticksToHop: Int { hop - sinceHop }

    /// Stores `n` ticks (fewer than `ticksToHop`), each tick's specific force (g) in lanes 0–2
    /// of `tick(i)` and its gait signal in lane 3: the same as `n` calls of `add`, none of which
    /// completes a hop.
    @inline(__always) mutating func store(count n: Int, _ tick: (Int) -> SIMD4<Double>) {
        precondition(n < ticksToHop, "PedallingAnalyser.store: a hop's tick goes through add")
        var i = sinceHop
        for k in 0..<n { pending[i] = tick(k); i &+= 1 }
        sinceHop = i
    }

    /// Runs the low-pass and the high-pass over the hop's `pending` ticks, in order, storing
    /// each tick's planes (`Plane`) straight into `history`, and keeps the hop's sums
    /// (`HopSums`). The filters' state and the sums stay in local variables (registers) for the
    /// whole loop.
    ///
    /// Two loops over the hop, one per filter: the low-pass with its planes and the level's
    /// sums, then the high-pass with the gait plane and the gait signal's and the impact band's
    /// sums. Each value and each sum is computed as in one loop (the same operations on the same
    /// values, every lane's sum added in tick order); together the two filters' state, their
    /// coefficients and the six sums did not fit the sixteen SSE registers, and the spills cost
    /// more than a second loop.
    private mutating func filterHop() {
        var smoothed = self.smoothed, highPass = self.highPass
        let hop = self.hop
        var levelSum = 0.0, levelSquares = 0.0
        var gait = SIMD2<Double>(), gaitSquares = SIMD2<Double>()   // lanes: gait signal, impact band
        pending.span.withUnsafeBufferPointer { ticks in
            history.append(count: hop) { base, capacity, first in
                // The hop's slots in two runs, before and after the ring's wrap: tick i of a run
                // at `slots + i` in plane 0, no index masked per tick.
                let start = first & (capacity &- 1), head = min(hop, capacity &- start)
                for run in 0..<2 {
                    let from = run == 0 ? 0 : head, n = run == 0 ? head : hop &- head
                    let slots = base + (run == 0 ? start : 0), inputs = ticks.baseAddress! + from
                    smoothed.update(count: n, { i in let tick = inputs[i]; return Vector3(tick[0], tick[1], tick[2]) }) { i, xy, z in
                        let squares = xy * xy
                        let size = ((squares[0] + squares[1]) + z * z).squareRoot()   // `length`: the lanes' sum, in lane order
                        let at = slots + i
                        at[Plane.length &* capacity] = size
                        at[Plane.x &* capacity] = xy[0]
                        at[Plane.y &* capacity] = xy[1]
                        at[Plane.z &* capacity] = z
                        let level = size - 1
                        levelSum += level
                        levelSquares += level * level
                    }
                    let gaitSlots = slots + Plane.gait &* capacity
                    highPass.update(count: n, { inputs[$0][3] }) { i, value, impact in
                        gaitSlots[i] = value
                        let lanes = SIMD2(value, impact)
                        gait += lanes
                        gaitSquares += lanes * lanes
                    }
                }
            }
        }
        self.smoothed = smoothed
        self.highPass = highPass
        hopSums[hopsDone % hopSums.count] = HopSums(sums: SIMD4(gait[0], levelSum, gait[1], 0),
                                                    squares: SIMD4(gaitSquares[0], levelSquares, gaitSquares[1], 0))
        hopsDone += 1
    }

    /// The window's sums: its hops' (`hopSums`), oldest first. `mutating` although it changes
    /// nothing: called from `analyse`, a plain method took a copy of the whole analyser first
    /// (a 352-byte `memcpy` per window; callgrind, session 21).
    private mutating func windowSums() -> HopSums {
        var total = HopSums()
        let count = hopSums.count
        hopSums.withUnsafeBufferPointer { hops in
            // The oldest hop's slot once, then the next slot by a wrap, not a division per hop.
            var slot = hopsDone % count
            for _ in 0..<count {
                let hop = hops[slot]
                total.sums += hop.sums
                total.squares += hop.squares
                slot = slot &+ 1 == count ? 0 : slot &+ 1
            }
        }
        return total
    }

    /// Measures the window that ends at the newest tick.
    ///
    /// Each figure is measured only when the verdicts (`PedallingWindow.isPedalling`,
    /// `mayBePedalling`, `isRideVibration`, `SeatedRhythm.isPedalling`) can still depend on it:
    /// the lag searches and the tilt cost most of the pedometer's time, and most windows (walks,
    /// rides in a vehicle, standing) fail a cheaper bound first (strength, impact share, stroke
    /// rate). The rules asked are the verdicts' own (`mayPedal`, `rhythmFits`…), so a figure is
    /// skipped exactly where every verdict is the same without it; skipped figures stay 0 (the
    /// tuning traces print them as "-", `Pedometer.lastPedalling`).
    private mutating func analyse() -> PedallingWindow {
        let start = history.count - window
        tiltReady = false
        // Means and variances from the hops' sums; a series is copied out of its ring and
        // centred only for a search.
        let sums = windowSums()
        gaitTotals = WindowTotals(end: history.count, count: window, sums: (sums.sums[0], sums.squares[0]))
        let (mean, variance) = gaitTotals.moments
        let (levelMean, levelVariance) = WindowTotals(end: history.count, count: window, sums: (sums.sums[1], sums.squares[1])).moments
        var result = PedallingWindow(deviation: variance.squareRoot())
        result.seated = seatedRhythm(deviation: levelVariance.squareRoot(), mean: levelMean, start: start)
        guard result.deviation >= PedallingWindow.Limit.minimumDeviation else { return result }
        let (_, impactVariance) = WindowTotals(end: history.count, count: window, sums: (sums.sums[2], sums.squares[2])).moments
        result.impactShare = impactVariance / variance
        guard result.mayPedal else { return result }
        history.copy(plane: Plane.gait, from: start, count: window, into: &scratch, less: mean)
        Self.prefixSquaresAndSingles(scratch, count: window, into: &scratchSquares, singles: &singles)
        // Strongest repeat in the crank band.
        let shortest = crankLags.lowerBound
        let (bestLag0, best0) = strongestRepeat(scratch, squares: scratchSquares, count: window, lags: crankLags, none: 0)
        var bestLag = bestLag0, best = best0
        var half = halfCorrelation(bestLag)
        // Octave: when half the lag repeats as well (≥ 0.7), the period is that half. A crank
        // near the band's top also repeats every two revolutions, inside the band.
        if half >= 0.7, bestLag / 2 >= shortest - 1 {
            bestLag /= 2
            best = correlation(lag: bestLag)
            half = halfCorrelation(bestLag)
        }
        result.crankFrequency = rateHz / Double(bestLag)
        result.regularity = best
        result.halfPeriodCorrelation = half
        guard result.looksLikePedalling else { return result }
        detrendTilt(start: start)
        result.tiltCorrelation = tiltCorrelation(lag: bestLag)
        return result
    }

    /// The seated rider's rhythm (`SeatedRhythm`): the strongest repeat of the low-passed magnitude
    /// in the pedal-stroke band, and the tilt's correlation one revolution (two strokes) and one
    /// stroke later; each only while the rhythm can still pass (`SeatedRhythm.mayPedal`,
    /// `rhythmFits`).
    /// The window starts at tick `start`; its level's mean is `mean` and deviation `deviation`
    /// (from the hops' sums). The level is copied into `levelScratch` and centred only when searched.
    private mutating func seatedRhythm(deviation: Double, mean: Double, start: Int) -> SeatedRhythm {
        var result = SeatedRhythm(deviation: deviation)
        let lags = strokeLags
        guard result.deviation > 0, 2 * lags.upperBound < window, result.mayPedal else { return result }
        // The level: lengths less 1 g.
        history.copy(plane: Plane.length, from: start, count: window, into: &levelScratch, less: 1, then: mean)
        Self.prefixSquaresAndSingles(levelScratch, count: window, into: &levelSquares, singles: &singles)
        let (bestLag, best) = strongestRepeat(levelScratch, squares: levelSquares, count: window, lags: lags, none: lags.lowerBound)
        result.strokeFrequency = rateHz / Double(bestLag)
        result.strokeRegularity = best
        guard result.rhythmFits else { return result }
        detrendTilt(start: start)
        result.rockPerRevolution = tiltCorrelation(lag: 2 * bestLag)
        result.rockPerStroke = tiltCorrelation(lag: bestLag)
        return result
    }

    /// Running sums of squares of the first `count` values of a centred series `x`
    /// (`WindowSums.prefixSquares`), and the values in single precision into `singles` for
    /// `strongestRepeat`'s search: one pass over the series instead of two.
    private static func prefixSquaresAndSingles(_ x: [Double], count: Int, into squares: inout [Double], singles: inout [Float]) {
        precondition(count <= x.count && count + LagProducts.padding <= singles.count && count < squares.count,
                     "PedallingAnalyser: series longer than the search storage")
        x.withUnsafeBufferPointer { x in
            singles.withUnsafeMutableBufferPointer { singles in
                squares.withUnsafeMutableBufferPointer { squares in
                    // `WindowSums.prefixSums` of x², the same additions in the same order, four
                    // values per pass loaded and converted as one vector.
                    let source = UnsafeRawPointer(x.baseAddress!), target = UnsafeMutableRawPointer(singles.baseAddress!)
                    let out = squares.baseAddress!
                    var total = 0.0
                    out[0] = 0
                    var i = 0
                    while i &+ 4 <= count {
                        let v = source.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self)
                        target.storeBytes(of: SIMD4<Float>(v), toByteOffset: i &* 4, as: SIMD4<Float>.self)
                        let square = v * v
                        let a = square[0], b = square[1], c = square[2], d = square[3]
                        let ab = a + b
                        out[i &+ 1] = total + a
                        out[i &+ 2] = total + ab
                        out[i &+ 3] = total + (ab + c)
                        total += ab + (c + d)
                        out[i &+ 4] = total
                        i &+= 4
                    }
                    while i < count { singles[i] = Float(x[i]); total += x[i] * x[i]; out[i &+ 1] = total; i &+= 1 }
                }
            }
        }
    }

    /// Normalised autocorrelation (Pearson over the overlap) at `lag` of a centred series of
    /// `count` values, from the sum of its lagged products `xy` and its running sums of squares:
    /// the overlap's first part is x[0..<count−lag] (energy `squares[count − lag]`), its second
    /// x[lag..<count] (energy `squares[count] − squares[lag]`).
    @inline(__always)
    private static func normalised(_ xy: Double, squares: UnsafeBufferPointer<Double>, count: Int, lag: Int) -> Double {
        let norm = (squares[count - lag] * (squares[count] - squares[lag])).squareRoot()
        return norm > 0 ? xy / norm : 0
    }

    /// Normalised autocorrelation of the first `count` values of a centred series at `lag`
    /// (`normalised`; `squares` from `prefixSquares`).
    private static func correlation(_ x: [Double], squares: [Double], count: Int, lag: Int) -> Double {
        precondition(count <= x.count, "PedallingAnalyser: series shorter than its count")
        return x.withUnsafeBufferPointer { x in
            squares.withUnsafeBufferPointer { squares in
                normalised(WindowSums.laggedProducts(x, count: count, lag: lag), squares: squares, count: count, lag: lag)
            }
        }
    }

    /// The lag in `lags` with the highest `correlation` (the first of equals; `none` when every
    /// correlation is NaN) and that correlation. `singles` holds `x` in single precision
    /// (`prefixSquaresAndSingles`).
    ///
    /// The energies come from the running sums of squares (`normalised`); only the lagged
    /// products are summed per lag, in single precision (`LagProducts.add`: eight products per
    /// instruction pair, five lags sharing each load; these sums were most of the pedometer's
    /// time). Their relative error (about 1e-7) only matters where two lags tie that closely; the
    /// chosen lag's correlation is then summed again in double precision, so the figure the
    /// verdicts compare is the double-precision one.
    private mutating func strongestRepeat(_ x: [Double], squares: [Double], count: Int, lags: ClosedRange<Int>,
                                          none: Int) -> (lag: Int, correlation: Double) {
        precondition(count + LagProducts.padding <= singles.count && lags.upperBound < lagSums.count,
                     "PedallingAnalyser: lags beyond the search storage")
        // `LagProducts.add` sums five lags per pass; a last pass for one or two lags (the stroke
        // band's 16 lags and the crank band's 32 at 50 Hz) costs a pass of five: those lags are
        // summed one by one (`oneLag`), with the same sums.
        let passed = lags.count > 2 ? lags.count - lags.count % 5 : 0
        let alone = lags.count - passed <= 2 ? lags.count - passed : 0
        singles.withUnsafeMutableBufferPointer { singles in
            lagSums.withUnsafeMutableBufferPointer { sums in
                let x = singles.baseAddress!
                if alone < lags.count {
                    LagProducts.add(x, count: count, from: 0, to: count,
                                    lags: lags.lowerBound...(lags.upperBound - alone), into: sums, replacing: true)
                }
                for lag in (lags.upperBound - alone + 1)..<(lags.upperBound + 1) { sums[lag] = Self.oneLag(x, count: count, lag: lag) }
            }
        }
        var bestLag = none, best = -Double.infinity
        lagSums.withUnsafeBufferPointer { sums in
            squares.withUnsafeBufferPointer { squares in
                for lag in lags {
                    let r = Self.normalised(Double(LagProducts.total(sums[lag])), squares: squares, count: count, lag: lag)
                    if r > best { best = r; bestLag = lag }
                }
            }
        }
        guard best > -Double.infinity else { return (bestLag, best) }
        return (bestLag, Self.correlation(x, squares: squares, count: count, lag: bestLag))
    }

    /// Σ x[i]·x[i + lag] for i in 0..<(n − lag) in eight partial sums, as a pass of
    /// `LagProducts.add` over the whole series (from 0 to n) sums one of its lags, bit for bit:
    /// lane k adds x[i + k]·x[i + k + lag] for the blocks of eight i = 0, 8, 16… in order. The pass
    /// runs its blocks to its shortest lag's end and zeroes the last block's lanes from n on; the
    /// products it adds beyond this lag's end or from n on are of x's zeros at n and after
    /// (`LagProducts.padding`, `singles`), each ±0, and adding ±0 to a sum leaves it as it is (a
    /// sum that starts at +0 never becomes −0).
    @inline(__always)
    static func oneLag(_ x: UnsafePointer<Float>, count n: Int, lag: Int) -> SIMD8<Float> {
        let early = UnsafeRawPointer(x), late = UnsafeRawPointer(x + lag)
        var sum = SIMD8<Float>()
        // Offsets below 4·(n + padding), a few kilobytes: no overflow to check.
        let stop = (n &- lag) &* 4
        var offset = 0
        while offset < stop {
            sum += early.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * late.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            offset &+= 32
        }
        return sum
    }

    /// The tilt of the window starting at tick `start` (direction of the low-passed specific
    /// force: the vector over its length, per tick) less each axis's straight-line trend (a turn
    /// on a landing or a bend in the road drifts the direction slowly; the leg's swing is what is
    /// compared) into `residuals`: at most once per window, for every `tiltCorrelation`.
    private mutating func detrendTilt(start: Int) {
        guard !tiltReady else { return }
        tiltReady = true
        history.copy(plane: Plane.x, from: start, count: window, into: &residuals.x)
        history.copy(plane: Plane.y, from: start, count: window, into: &residuals.y)
        history.copy(plane: Plane.z, from: start, count: window, into: &residuals.z)
        history.copy(plane: Plane.length, from: start, count: window, into: &lengthScratch)
        let window = self.window
        lengthScratch.withUnsafeBufferPointer { length in
            residuals.x.withUnsafeMutableBufferPointer { x in
                residuals.y.withUnsafeMutableBufferPointer { y in
                    residuals.z.withUnsafeMutableBufferPointer { z in
                        for i in 0..<window {
                            let unit = Vector3(x[i], y[i], z[i]) / max(length[i], 1e-9)
                            x[i] = unit.x
                            y[i] = unit.y
                            z[i] = unit.z
                        }
                    }
                }
            }
        }
        Self.detrend(&residuals.x, count: window, spread: tiltSpread)
        Self.detrend(&residuals.y, count: window, spread: tiltSpread)
        Self.detrend(&residuals.z, count: window, spread: tiltSpread)
        residuals.x.withUnsafeBufferPointer { x in
            residuals.y.withUnsafeBufferPointer { y in
                residuals.z.withUnsafeBufferPointer { z in
                    residualSquares.withUnsafeMutableBufferPointer { squares in
                        WindowSums.prefixSums(count: window, into: squares) { x[$0] * x[$0] + y[$0] * y[$0] + z[$0] * z[$0] }
                    }
                }
            }
        }
    }

    /// Subtracts from `x[0..<count]` its least-squares line against the tick index k centred on
    /// the window (c = (count − 1)/2): x − mean − slope·(k − c), slope = Σ (x − mean)(k − c) /
    /// `spread`, spread = Σ (k − c)². Sums in four lanes (`WindowSums`).
    private static func detrend(_ x: inout [Double], count n: Int, spread: Double) {
        x.withUnsafeMutableBufferPointer { x in
            let raw = UnsafeMutableRawPointer(x.baseAddress!)
            let mean = SIMD4<Double>(repeating: WindowSums.sum(UnsafeBufferPointer(x), count: n) / Double(n))
            let centre = Double(n - 1) / 2
            let firstOffsets = SIMD4<Double>(0, 1, 2, 3) - centre
            var lanes = SIMD4<Double>()
            var i = 0
            while i + 4 <= n {
                let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
                lanes += (v - mean) * (firstOffsets + Double(i))
                i += 4
            }
            var moment = lanes.sum()
            for k in i..<n { moment += (x[k] - mean[0]) * (Double(k) - centre) }
            let slope = SIMD4<Double>(repeating: moment / spread)
            i = 0
            while i + 4 <= n {
                let v = raw.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
                raw.storeBytes(of: v - mean - slope * (firstOffsets + Double(i)), toByteOffset: i * 8, as: SIMD4<Double>.self)
                i += 4
            }
            for k in i..<n { x[k] = x[k] - mean[0] - slope[0] * (Double(k) - centre) }
        }
    }

    /// Normalised autocorrelation of the detrended direction vector (`detrendTilt`) at `lag` ticks:
    /// Σ a·b over the overlap, per axis.
    private func tiltCorrelation(lag: Int) -> Double {
        let window = self.window
        precondition(window <= residuals.x.count && window <= residuals.y.count && window <= residuals.z.count,
                     "PedallingAnalyser: tilt shorter than the window")
        let xy = residuals.x.withUnsafeBufferPointer { WindowSums.laggedProducts($0, count: window, lag: lag) }
            + residuals.y.withUnsafeBufferPointer { WindowSums.laggedProducts($0, count: window, lag: lag) }
            + residuals.z.withUnsafeBufferPointer { WindowSums.laggedProducts($0, count: window, lag: lag) }
        return residualSquares.withUnsafeBufferPointer { Self.normalised(xy, squares: $0, count: window, lag: lag) }
    }


    /// Autocorrelation at half of `lag` (the mean of the two neighbours for an odd lag).
    private func halfCorrelation(_ lag: Int) -> Double {
        lag % 2 == 0 ? correlation(lag: lag / 2) : 0.5 * (correlation(lag: lag / 2) + correlation(lag: lag / 2 + 1))
    }

    /// Normalised autocorrelation of the centred window at `lag` ticks (Pearson over the overlap).
    private func correlation(lag: Int) -> Double { Self.correlation(scratch, squares: scratchSquares, count: window, lag: lag) }
}

/// Σ x and Σ x² of one hop's (or a window's) gait signal, level and impact band (lanes 0, 1, 2;
/// lane 3 is unused), each tick's added in tick order (`PedallingAnalyser.filterHop`).
struct HopSums: Sendable {
    var sums = SIMD4<Double>(), squares = SIMD4<Double>()
}

/// A second-order Butterworth high-pass (Q = 1/√2, bilinear transform as in the RBJ audio EQ
/// cookbook), direct form I.
struct Biquad: Sendable {
    private let b0, b1, b2, a1, a2: Double
    private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(highPassHz f: Double, rateHz: Double) {
        let w = 2 * Double.pi * f / rateHz
        let alpha = sin(w) / (2 * 0.5.squareRoot())
        let c = cos(w)
        let a0 = 1 + alpha
        b0 = (1 + c) / 2 / a0
        b1 = -(1 + c) / a0
        b2 = (1 + c) / 2 / a0
        a1 = -2 * c / a0
        a2 = (1 - alpha) / a0
    }

    @inline(__always) mutating func update(_ x: Double) -> Double {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        x2 = x1; x1 = x; y2 = y1; y1 = y
        return y
    }

    /// `update` over `n` inputs in order, `input(i)` the i-th, handing `output(i, x, y)` each
    /// input and its output: the same values as `n` calls of `update`, with the state in locals
    /// and two inputs per pass, so that the state's shift from one input to the next is a change
    /// of names, not four register copies.
    @inline(__always) mutating func update(count n: Int, _ input: (Int) -> Double,
                                           _ output: (_ i: Int, _ x: Double, _ y: Double) -> Void) {
        let b0 = self.b0, b1 = self.b1, b2 = self.b2, a1 = self.a1, a2 = self.a2
        var x1 = self.x1, x2 = self.x2, y1 = self.y1, y2 = self.y2
        var i = 0
        while i &+ 2 <= n {
            let xa = input(i)
            let ya = b0 * xa + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            output(i, xa, ya)
            let xb = input(i &+ 1)
            let yb = b0 * xb + b1 * xa + b2 * x1 - a1 * ya - a2 * y1
            output(i &+ 1, xb, yb)
            x2 = xa; x1 = xb; y2 = ya; y1 = yb
            i &+= 2
        }
        if i < n {
            let x = input(i)
            let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
            output(i, x, y)
            x2 = x1; x1 = x; y2 = y1; y1 = y
        }
        self.x1 = x1; self.x2 = x2; self.y1 = y1; self.y2 = y2
    }

    mutating func reset() { x1 = 0; x2 = 0; y1 = 0; y2 = 0 }
}
