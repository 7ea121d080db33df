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
struct CadenceEstimator: Sendable {
    let rateHz: Double
    /// Shortest step period, s: 4 steps/s is faster than sprinting cadence (about 3.5 steps/s).
    let minimumPeriod = 0.25
    /// Longest step period, s: 1 step/s is slower than any sustained walk.
    let maximumStepPeriod = 1.0
    /// Repeats longer than this, s, may be one slow step rather than a stride: walking strides
    /// last 0.9 to 1.25 s (1.6 to 2.2 steps/s, the oxford walks), so a longer repeat with no
    /// repeat at half of it is a step of a walk under 0.8 steps/s.
    let slowStepFrom = 1.25
    /// Longest step, s: 0.6 steps/s, the slowest gait counted (issue 14).
    let maximumSlowStepPeriod = 1.7
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
    private let maximumLag: Int

    /// `hopSamples`: ticks between consecutive windows (`estimate`'s `end`); nil sums every window
    /// whole.
    init(rateHz: Double, windowSamples: Int, hopSamples: Int? = nil) {
        self.rateHz = rateHz
        prefix = [Double](repeating: 0, count: windowSamples + 1)
        minimumLag = max(2, Int((minimumPeriod * rateHz).rounded(.down)))
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
    mutating func estimate(_ window: [Double], count n: Int, end: Int? = nil) -> CadenceEstimate? {
        let mean = window.withUnsafeBufferPointer { WindowSums.sum($0, count: n) } / Double(n)
        var energy = 0.0
        // Written through a pointer: element-wise array stores cost a uniqueness check each
        // (54 M runtime calls in the callgrind profile of the speed benchmark). Four values at a
        // time, with four energy sums, so each addition need not wait for the one before (see
        // `WindowSums`).
        precondition(n <= window.count && n + padding <= values.count, "CadenceEstimator: window longer than its storage")
        window.withUnsafeBufferPointer { window in
            values.withUnsafeMutableBufferPointer { values in
                let source = UnsafeRawPointer(window.baseAddress!)
                let m = SIMD4<Double>(repeating: mean)
                var lanes = SIMD4<Double>()
                var i = 0
                while i + 4 <= n {
                    let v = source.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self)
                    values[i] = Float(v[0])
                    values[i + 1] = Float(v[1])
                    values[i + 2] = Float(v[2])
                    values[i + 3] = Float(v[3])
                    let x = v - m
                    lanes += x * x
                    i += 4
                }
                var sum = lanes.sum()
                while i < n {
                    values[i] = Float(window[i])
                    let x = window[i] - mean
                    sum += x * x
                    i += 1
                }
                energy = sum
                // A trimmed window leaves an earlier window's values after its end.
                for k in n..<Swift.max(n, Swift.min(values.count - padding, n + padding)) { values[k] = 0 }
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
        window.withUnsafeBufferPointer { x in
            prefix.withUnsafeMutableBufferPointer { WindowSums.prefixSums(count: n, into: $0) { x[$0] } }
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
        return estimate(n: n, maximumLag: maximumLag)
    }

    /// The cadence from `correlation` over lags `minimumLag`...`maximumLag` (and one either side).
    private func estimate(n: Int, maximumLag: Int) -> CadenceEstimate? {
        // Strongest local maximum over the whole range.
        var best = -1
        var bestValue = -Double.infinity
        for lag in minimumLag...maximumLag where isPeak(lag) && correlation[lag] > bestValue {
            best = lag
            bestValue = correlation[lag]
        }
        guard best > 0 else { return nil }
        // A signal that repeats every P also repeats every 2P, 3P…: take the shortest lag whose
        // peak is nearly as strong as the strongest (within `multipleTolerance`).
        for lag in minimumLag..<best where isPeak(lag) && correlation[lag] >= Self.multipleTolerance * bestValue {
            best = lag
            break
        }
        let strongest = correlation[best]
        let lag = refinedLag(best)
        // Correlation around half the repeat: high when each repeat holds two similar steps,
        // strongly negative when it is one smooth swing (a bus sway read as a stride).
        let half = Double(best) / 2
        let from = max(minimumLag - 1, Int((half * 0.85).rounded(.down)))
        let to = max(from, Int((half * 1.15).rounded(.up)))
        var halfRepeat = -1.0
        for l in from...to { halfRepeat = max(halfRepeat, correlation[l]) }
        // A repeat between `slowStepFrom` and `maximumSlowStepPeriod` with no repeat at half of
        // it is one slow step (0.6 to 0.8 steps/s), not a stride of two.
        let hasHalfPeak = from >= minimumLag
            && (from...to).contains { isPeak($0) && correlation[$0] > max(Self.halfPeakMinimum, 0.3 * strongest) }
        if lag / rateHz > slowStepFrom, lag / rateHz <= maximumSlowStepPeriod, !hasHalfPeak {
            return CadenceEstimate(cadence: rateHz / lag, regularity: strongest,
                                   halfRepeat: halfRepeat, wasStride: false)
        }
        // A repeat longer than the longest step is a stride: the step is half of it.
        if lag / rateHz > maximumStepPeriod {
            return CadenceEstimate(cadence: 2 * rateHz / lag, regularity: strongest,
                                   halfRepeat: halfRepeat, wasStride: true)
        }
        // A repeat that could be either (a slow step or a running stride) is a stride when the
        // signal also clearly repeats at half of it.
        if from >= minimumLag {
            for l in from...to where isPeak(l) && correlation[l] > max(Self.halfPeakMinimum, 0.3 * strongest) {
                return CadenceEstimate(cadence: 2 * rateHz / lag, regularity: strongest,
                                       halfRepeat: halfRepeat, wasStride: true)
            }
        }
        return CadenceEstimate(cadence: rateHz / lag, regularity: strongest,
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
        for lag in lags {
            let overlap = Double(n - lag)
            let centred = sums[lag] - mean * (prefix[n - lag] + (total - prefix[lag])) + overlap * mean * mean
            // N/(N − ℓ) from a table for a whole window (a division per lag was a tenth of the estimate's time).
            r[lag] = centred * scale * (n == overlapReciprocals.count - 1 ? overlapReciprocals[lag] : 1 / overlap)
        }
    }
    /// A peak at a shorter lag with this fraction of the strongest correlation is the fundamental.
    static let multipleTolerance = 0.85
    /// Minimum correlation at half the strongest lag for it to count as the step.
    static let halfPeakMinimum = 0.25

    @inline(__always) private func isPeak(_ lag: Int) -> Bool {
        correlation[lag] >= correlation[lag - 1] && correlation[lag] > correlation[lag + 1]
    }

    /// Sub-sample lag from a parabola through the peak and its two neighbours.
    private func refinedLag(_ lag: Int) -> Double {
        let a = correlation[lag - 1], b = correlation[lag], c = correlation[lag + 1]
        let denominator = a - 2 * b + c
        guard abs(denominator) > 1e-12 else { return Double(lag) }
        let shift = 0.5 * (a - c) / denominator
        return Double(lag) + max(-0.5, min(0.5, shift))
    }
}
