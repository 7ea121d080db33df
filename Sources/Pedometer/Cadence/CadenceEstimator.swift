/// The step period of a window, from its autocorrelation.
struct CadenceEstimate: Sendable, Equatable {
    /// Steps per second.
    var cadence: Double
    /// Normalised autocorrelation at the strongest repeat (the stride when `wasStride`): 1 for a
    /// perfectly repeating signal, about 0.9 for gait, low for bus sway and for standing still
    /// (pedometer seed).
    var regularity: Double
    /// Highest normalised autocorrelation around half the strongest repeat's lag.
    var halfRepeat: Double
    /// True when the strongest repeat was a stride (two steps) and the step was found at half of it.
    var wasStride: Bool
}

/// Cadence by autocorrelation, with parabolic sub-sample refinement and step-versus-stride
/// disambiguation.
///
/// r(ℓ) = N/(N−ℓ) · Σ xᵢ xᵢ₊ℓ / Σ xᵢ² with the mean removed (the pedometer seed's definition).
/// 1. The fundamental repeat is the shortest lag whose peak is nearly as strong as the strongest
///    (a signal repeating every P also repeats every 2P, 3P…).
/// 2. That repeat may be a stride: with the phone on one leg (a pocket) the two steps of a stride
///    differ, so the signal repeats every two steps (the accuracy notes measure −50% in pockets
///    without this check). A repeat longer than the longest step (1 s) is a stride; a shorter one
///    is a stride when r also peaks clearly near half of it (a running stride).
/// 3. The peak lag is refined below one sample with a parabola through its neighbours.
/// 4. Steps faster than a walk (above `fastestWalkingCadence`) are read only in a window that
///    moves like running (`runningDeviation`): in a weaker one no lag shorter than a walking
///    step is considered, as a repeat or as half of one, so a walk's half step (a strong second
///    harmonic) is never taken for a step (docs/steps.md, "Cadence range").
struct CadenceEstimator: Sendable {
    let rateHz: Double
    /// Shortest step period, s: 5.5 steps/s, above the fastest sprinting. Sprinters reach 4.5 to
    /// 5 steps/s at top speed, with 0.08 to 0.12 s of ground contact (Weyand et al. 2000, J Appl
    /// Physiol 89:1991, top-speed treadmill running of 33 runners; Salo et al. 2011, Med Sci
    /// Sports Exerc 43:1055, elite 100 m races); fast distance runners 3.3 to 3.7. At the internal
    /// 50 Hz a 5.5 steps/s step spans 9 samples, and a 5 steps/s run sampled at 25 Hz keeps 5
    /// samples a step.
    static let minimumPeriod = 0.18
    /// Fastest walking cadence, steps/s: people switch from walking to running at about 2 m/s,
    /// 2.5 to 3 steps/s; faster steps are running's. A reading above it needs `runningDeviation`.
    static let fastestWalkingCadence = 3.0
    /// Least deviation of the window (g, standard deviation of the gait signal) for a step faster
    /// than `fastestWalkingCadence`: running lands with 2 to 3 body weights once per step and
    /// flies in between, so the gait signal swings from about −1 g to +2 g (a half-sine push over
    /// a contact fraction d of the step has a deviation of √(π²/8d − 1) g: 1.0 to 1.4 g for d =
    /// 0.6 to 0.4), while walking lands with about 1.2 body weights. Half of running's 1 g:
    /// 90 % of the oxford walks' gait windows measure below 0.46 g (3331 windows, all placements)
    /// and the real-dev tuned part (s02, s03, lower back) at most 0.22 g; the simulator's runs at
    /// 2.5 to 5 steps/s measure 0.82 to 1.5 g (median per run, five placements, 25 and 100 Hz),
    /// and 0.8 g lost half the steps of runs on an armband, where half their windows are weaker.
    /// Pocket and purse walks reach 0.76 g: above 0.5 g a walk is kept at its cadence by the
    /// rhythm alone (its half step repeats less than its step), and no oxford window reads
    /// above 2.6 steps/s with the whole range. Windows where a run starts or stops are weaker
    /// (down to 0.34 g): inside a walk they are carried by `BoutRules.octaveBand`.
    static let runningDeviation = 0.5
    /// Longest step period, s: 1 step/s is slower than any sustained walk.
    let maximumStepPeriod = 1.0
    /// Repeats longer than this, s, may be one slow step rather than a stride: walking strides
    /// last 0.9 to 1.25 s (1.6 to 2.2 steps/s, the oxford walks), so a longer repeat with no
    /// repeat at half of it is a step of a walk under 0.8 steps/s.
    let slowStepFrom = 1.25
    /// Between `maximumStepPeriod` and `slowStepFrom` a repeat is a stride or one step of a walk
    /// at 0.8 to 1 steps/s. A stride holds two steps of one gait, alike, so the signal correlates
    /// positively at half of it (oxford pocket and purse strides: 1st percentile +0.09, −0.13 at
    /// worst); one step holds one fall and one heel strike, and half a step later the fall's
    /// fundamental is in opposite phase (the simulator's gait, sin φ + 0.35 sin(2φ − 1.2): −0.78;
    /// its slow daily-life walks at 0.8 and 1 steps/s, tuned seeds 1–3: −0.3 to −0.7). Below
    /// this correlation at half the repeat (a normalised autocorrelation): one step (the gate's
    /// `minimumStrideHalfRepeat`, below which it refuses a stride as one swing; the shape tests
    /// still refuse a smooth sway).
    static let unlikeHalves = -0.1
    /// Longest step, s: the slowest gait counted, 0.6 steps/s (issue 14), is 1.67 s per step on
    /// average, and single steps of a slow walk vary about it: the simulator's daily-life walk
    /// at 0.6 steps/s repeats every 1.71 to 1.76 s in a bag (tuned seed 3), where 1.7 s read it
    /// as a stride. The same margin as a walk's longest interval between steps
    /// (`HeelStrikes.longestInterval`, `ChainRules.longestInterval`): 2 s, 0.5 steps/s.
    static let maximumSlowStepPeriod = 2.0
    /// Longest stride considered, s (two of the longest steps, plus margin).
    let maximumStridePeriod = 2.2

    /// The window's raw values in single precision for the products (`LagProducts`), then
    /// `padding` zeros.
    private var values: [Float]
    private let padding: Int
    /// Running sums of the window's values, `prefix[k]` = Σ x[i] for i < k (the centring of the
    /// lagged products, `correlate`).
    private var prefix: [Double]
    /// The window's lagged products, per lag, and the part kept for the next window.
    private var products: LagProducts
    private var sums: [Double]
    /// 1/(N − ℓ) for a whole window of N = `windowSamples` values, per lag ℓ (N + 1 entries).
    private let overlapReciprocals: [Double]
    private var correlation: [Double]
    private let minimumLag: Int
    /// Shortest lag of a walking step (`fastestWalkingCadence`): the floor for a window that does
    /// not move like running.
    private let walkingMinimumLag: Int
    private let maximumLag: Int

    /// `hopSamples`: ticks between consecutive windows (`estimate`'s `end`); nil sums every window
    /// whole.
    init(rateHz: Double, windowSamples: Int, hopSamples: Int? = nil) {
        self.rateHz = rateHz
        prefix = [Double](repeating: 0, count: windowSamples + 1)
        minimumLag = max(2, Int((Self.minimumPeriod * rateHz).rounded(.down)))
        walkingMinimumLag = max(minimumLag, Int((rateHz / Self.fastestWalkingCadence).rounded(.down)))
        maximumLag = min(windowSamples / 2, Int((maximumStridePeriod * rateHz).rounded(.up)))
        padding = LagProducts.padding
        values = [Float](repeating: 0, count: windowSamples + padding)
        correlation = [Double](repeating: 0, count: maximumLag + 2)
        sums = correlation
        overlapReciprocals = (0...windowSamples).map { $0 < windowSamples ? 1 / Double(windowSamples - $0) : 0 }
        products = LagProducts(hop: hopSamples ?? windowSamples, window: windowSamples, maximumLag: maximumLag + 1)
    }

    /// Forgets the products kept from the previous window (a gap in the samples).
    mutating func forget() { products.forget() }

    /// Estimates the cadence of `window` (`count` values). Returns nil for a flat window. `end`:
    /// the absolute index one past the window's last tick when `window` holds a whole analysis
    /// window, nil for a part of one (`LagProducts` reuses a whole window's sums in the next).
    /// `mean`: the window's mean when the caller has it (Σ x / n, equal to `WindowSums.sum`'s but for rounding).
    mutating func estimate(_ window: [Double], count n: Int, end: Int? = nil, mean: Double? = nil) -> CadenceEstimate? {
        let mean = mean ?? window.withUnsafeBufferPointer { WindowSums.sum($0, count: n) } / Double(n)
        precondition(n <= window.count && n + padding <= values.count && n < prefix.count,
                     "CadenceEstimator: window longer than its storage")
        let energy = window.withUnsafeBufferPointer { window in
            values.withUnsafeMutableBufferPointer { values in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    Self.convert(window, count: n, mean: mean, into: values, padding: padding, prefix: prefix)
                }
            }
        }
        guard energy > 1e-12 else { return nil }
        // A trimmed window (a short walk between stops) holds fewer samples: lags up to half of it.
        let maximumLag = Swift.min(self.maximumLag, n / 2 - 1)
        guard maximumLag > minimumLag + 1 else { return nil }
        let lags = (minimumLag - 1)...(maximumLag + 1)
        values.withUnsafeBufferPointer { xs in
            sums.withUnsafeMutableBufferPointer { s in
                products.sums(xs.baseAddress!, count: n, end: end, lags: lags, into: s)
            }
        }
        prefix.withUnsafeBufferPointer { prefix in
            sums.withUnsafeBufferPointer { sums in
                overlapReciprocals.withUnsafeBufferPointer { reciprocals in
                    correlation.withUnsafeMutableBufferPointer { r in
                        Self.correlate(sums, prefix: prefix, count: n, mean: mean, energy: energy, lags: lags,
                                       overlapReciprocals: reciprocals, into: r)
                    }
                }
            }
        }
        // Fast steps only where the window moves like running (`runningDeviation`).
        let running = energy >= Self.runningDeviation * Self.runningDeviation * Double(n)
        return estimate(n: n, minimumLag: running ? minimumLag : min(walkingMinimumLag, maximumLag - 1), maximumLag: maximumLag)
    }

    /// One pass over the window's first `n` values `x` (mean `mean`): each in single precision into
    /// `values` for the lagged products (`LagProducts`), then up to `padding` zeros; the running
    /// sums `prefix[k]` = Σ x[i] for i < k (the centring, `correlate`); and the centred energy
    /// Σ (x − mean)², returned.
    ///
    /// Written through pointers: element-wise array stores cost a uniqueness check each (54 M
    /// runtime calls in the callgrind profile of the speed benchmark). Four values at a time, with
    /// four energy sums, so each addition need not wait for the one before (see `WindowSums`). The
    /// running sums are `WindowSums.prefixSums`' (the same additions in the same order, four
    /// values per pass), made in this pass instead of a second one over the window.
    static func convert(_ x: UnsafeBufferPointer<Double>, count n: Int, mean: Double,
                        into values: UnsafeMutableBufferPointer<Float>, padding: Int,
                        prefix: UnsafeMutableBufferPointer<Double>) -> Double {
        precondition(n <= x.count && n + padding <= values.count && n < prefix.count,
                     "CadenceEstimator.convert: window longer than its storage")
        let source = UnsafeRawPointer(x.baseAddress!), target = UnsafeMutableRawPointer(values.baseAddress!)
        let out = prefix.baseAddress!
        let m = SIMD4<Double>(repeating: mean)
        var lanes = SIMD4<Double>(), total = 0.0
        out[0] = 0
        var i = 0
        while i &+ 4 <= n {
            let v = source.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self)
            // Each lane rounded to single precision as `Float(_:)` rounds it, four in one store.
            target.storeBytes(of: SIMD4<Float>(v), toByteOffset: i &* 4, as: SIMD4<Float>.self)
            let c = v - m
            lanes += c * c
            let a = v[0], b = v[1], ab = a + b
            out[i &+ 1] = total + a
            out[i &+ 2] = total + ab
            out[i &+ 3] = total + (ab + v[2])
            total += ab + (v[2] + v[3])
            out[i &+ 4] = total
            i &+= 4
        }
        var sum = lanes.sum()
        while i < n {
            values[i] = Float(x[i])
            let c = x[i] - mean
            sum += c * c
            total += x[i]
            out[i &+ 1] = total
            i &+= 1
        }
        // A trimmed window leaves an earlier window's values after its end.
        for k in n..<Swift.max(n, Swift.min(values.count - padding, n + padding)) { values[k] = 0 }
        return sum
    }

    /// The cadence from `correlation` over lags `minimumLag`...`maximumLag` (and one either side).
    private func estimate(n: Int, minimumLag: Int, maximumLag: Int) -> CadenceEstimate? {
        // Every lag read is in `self.minimumLag − 1 ... maximumLag + 1`, inside `correlation`
        // (`init`): read through the buffer, without a bounds check per read (three per lag in
        // the peak tests).
        precondition(minimumLag >= 1 && self.minimumLag >= 1 && maximumLag + 1 < correlation.count,
                     "CadenceEstimator: lags outside the correlation")
        return correlation.withUnsafeBufferPointer { estimate(n: n, minimumLag: minimumLag, maximumLag: maximumLag, correlation: $0) }
    }

    @inline(__always)
    private func estimate(n: Int, minimumLag: Int, maximumLag: Int, correlation: UnsafeBufferPointer<Double>) -> CadenceEstimate? {
        // Lags are below the correlation's count (a few hundred): the neighbours and the loops'
        // steps wrap without an overflow check (three a lag before: 11 → 7 instructions a lag in
        // the search for the strongest; callgrind, session 26).
        @inline(__always) func isPeak(_ lag: Int) -> Bool {
            correlation[lag] >= correlation[lag &- 1] && correlation[lag] > correlation[lag &+ 1]
        }
        // Strongest local maximum over the whole range.
        var best = -1
        var bestValue = -Double.infinity
        var lag = minimumLag
        while lag <= maximumLag {
            if isPeak(lag) && correlation[lag] > bestValue {
                best = lag
                bestValue = correlation[lag]
            }
            lag &+= 1
        }
        guard best > 0 else { return nil }
        // A signal that repeats every P also repeats every 2P, 3P…: take the shortest lag whose
        // peak is nearly as strong as the strongest (within `multipleTolerance`).
        let nearlyStrongest = Self.multipleTolerance * bestValue
        lag = minimumLag
        while lag < best {
            if isPeak(lag) && correlation[lag] >= nearlyStrongest {
                best = lag
                break
            }
            lag &+= 1
        }
        let strongest = correlation[best]
        let refined = Self.refinedLag(best, correlation)
        // Correlation around half the repeat: high when each repeat holds two similar steps,
        // strongly negative when it is one smooth swing (a bus sway read as a stride). Searched
        // down to the shortest step considered: a 5 steps/s stride (0.4 s) has its step at 0.2 s.
        let half = Double(best) / 2
        let lower = Int((half * 0.85).rounded(.down)), to = Int((half * 1.15).rounded(.up))
        // Over every lag correlated (`self.minimumLag`), also below a walking window's floor: a run's
        // stride read as a step there is doubled inside its bout (`BoutRules.octaveBand`), and the
        // gate then asks how alike its two steps are.
        var halfRepeat = -1.0
        for l in max(self.minimumLag - 1, lower)...max(self.minimumLag - 1, lower, to) { halfRepeat = max(halfRepeat, correlation[l]) }
        // A step at half the repeat: a clear peak there.
        let hasHalfPeak = to >= minimumLag
            && (max(minimumLag, lower)...to).contains { isPeak($0) && correlation[$0] > max(Self.halfPeakMinimum, 0.3 * strongest) }
        // A repeat between `slowStepFrom` and `maximumSlowStepPeriod` with no repeat at half of
        // it is one slow step (0.5 to 0.8 steps/s), not a stride of two; so is a shorter one
        // over `maximumStepPeriod` whose halves are unlike (`unlikeHalves`: 0.8 to 1 steps/s).
        let period = refined / rateHz
        if period > maximumStepPeriod, period <= Self.maximumSlowStepPeriod, !hasHalfPeak,
           period > slowStepFrom || halfRepeat < Self.unlikeHalves {
            return CadenceEstimate(cadence: rateHz / refined, regularity: strongest,
                                   halfRepeat: halfRepeat, wasStride: false)
        }
        // A repeat longer than the longest step is a stride: the step is half of it. A repeat
        // that could be either (a slow step or a running stride) is a stride when the signal
        // also clearly repeats at half of it.
        if refined / rateHz > maximumStepPeriod || hasHalfPeak {
            return CadenceEstimate(cadence: 2 * rateHz / refined, regularity: strongest,
                                   halfRepeat: halfRepeat, wasStride: true)
        }
        return CadenceEstimate(cadence: rateHz / refined, regularity: strongest,
                               halfRepeat: halfRepeat, wasStride: false)
    }

    /// r(ℓ) for every ℓ in `lags` into `r[ℓ]`, from the raw lagged products `sums[ℓ]`
    /// (`LagProducts`) of a window of `n` values with mean `mean`, running sums `prefix` and
    /// centred energy `energy`.
    ///
    /// Σ (x[i] − m)(x[i+ℓ] − m) over i < n − ℓ is Σ x[i]·x[i+ℓ] − m·(Σ x[i<n−ℓ] + Σ x[i≥ℓ]) + (n − ℓ)·m²:
    /// the centring in double precision on the single-precision sums. The gait signal's mean is
    /// a few hundredths of a g against a deviation of at least 0.065 g (`GaitGate`) where the
    /// estimate is asked for, so the raw sums are of the centred ones' size.
    @inline(__always)
    private static func correlate(_ sums: UnsafeBufferPointer<Double>, prefix: UnsafeBufferPointer<Double>, count n: Int,
                                  mean: Double, energy: Double, lags: ClosedRange<Int>,
                                  overlapReciprocals: UnsafeBufferPointer<Double>, into r: UnsafeMutableBufferPointer<Double>) {
        let total = prefix[n], scale = Double(n) / energy
        @inline(__always) func centred(_ lag: Int) -> Double {
            sums[lag] - mean * (prefix[n - lag] + (total - prefix[lag])) + Double(n - lag) * mean * mean
        }
        // N/(N − ℓ) from a table for a whole window (a division per lag was a tenth of the
        // estimate's time); a trimmed window divides. Two loops: the choice is made once.
        if n == overlapReciprocals.count - 1 {
            // Two lags per pass in two-lane vectors: each lane does the same operations in the same
            // order as `centred(lag) * scale * overlapReciprocals[lag]` (the same values, bit for
            // bit) in about half the instructions (callgrind, session 19: 23 a lag before).
            //
            // Each pair of neighbouring values is read and written as one vector (`pair`), and the
            // overlaps N − ℓ, N − ℓ − 1 are counted down by 2 (whole numbers, exact in a double:
            // the same values as converting N − ℓ each pass) instead of converted from the lag:
            // 30 → 22 instructions a pass (callgrind, session 26).
            let m = SIMD2(repeating: mean), totals = SIMD2(repeating: total), two = SIMD2<Double>(repeating: 2)
            let p = UnsafeRawPointer(prefix.baseAddress!), s = UnsafeRawPointer(sums.baseAddress!)
            let reciprocal = UnsafeRawPointer(overlapReciprocals.baseAddress!), out = UnsafeMutableRawPointer(r.baseAddress!)
            @inline(__always) func pair(_ values: UnsafeRawPointer, _ index: Int) -> SIMD2<Double> {
                values.loadUnaligned(fromByteOffset: index &* 8, as: SIMD2<Double>.self)
            }
            var lag = lags.lowerBound
            var overlap = SIMD2(repeating: Double(n &- lag)) - SIMD2<Double>(0, 1)
            while lag < lags.upperBound {
                // prefix[n − ℓ − 1], prefix[n − ℓ] in one load, then swapped.
                let reversed = pair(p, n &- lag &- 1), below = SIMD2(reversed[1], reversed[0])
                let c = pair(s, lag) - m * (below + (totals - pair(p, lag))) + overlap * m * m
                let v = c * scale * pair(reciprocal, lag)
                out.storeBytes(of: v, toByteOffset: lag &* 8, as: SIMD2<Double>.self)
                overlap -= two
                lag &+= 2
            }
            if lag == lags.upperBound { r[lag] = centred(lag) * scale * overlapReciprocals[lag] }
        } else {
            for lag in lags { r[lag] = centred(lag) * scale * (1 / Double(n - lag)) }
        }
    }
    /// A peak at a shorter lag with this fraction of the strongest correlation is the fundamental.
    static let multipleTolerance = 0.85
    /// Minimum correlation at half the strongest lag for it to count as the step.
    static let halfPeakMinimum = 0.25

    /// Sub-sample lag from a parabola through the peak and its two neighbours.
    private static func refinedLag(_ lag: Int, _ correlation: UnsafeBufferPointer<Double>) -> Double {
        let a = correlation[lag - 1], b = correlation[lag], c = correlation[lag + 1]
        let denominator = a - 2 * b + c
        guard abs(denominator) > 1e-12 else { return Double(lag) }
        let shift = 0.5 * (a - c) / denominator
        return Double(lag) + max(-0.5, min(0.5, shift))
    }
}
