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

    /// The centred window in single precision for the products (see `correlate`).
    private var centred: [Float]
    private var correlation: [Double]
    private let minimumLag: Int
    private let maximumLag: Int

    init(rateHz: Double, windowSamples: Int) {
        self.rateHz = rateHz
        centred = [Float](repeating: 0, count: windowSamples)
        minimumLag = max(2, Int((minimumPeriod * rateHz).rounded(.down)))
        maximumLag = min(windowSamples / 2, Int((maximumStridePeriod * rateHz).rounded(.up)))
        correlation = [Double](repeating: 0, count: maximumLag + 2)
    }

    /// Estimates the cadence of `window` (`count` values). Returns nil for a flat window.
    mutating func estimate(_ window: [Double], count n: Int) -> CadenceEstimate? {
        let mean = window.withUnsafeBufferPointer { WindowSums.sum($0, count: n) } / Double(n)
        var energy = 0.0
        // Written through a pointer: element-wise array stores cost a uniqueness check each
        // (54 M runtime calls in the callgrind profile of the speed benchmark). Four values at a
        // time, with four energy sums, so each addition need not wait for the one before (see
        // `WindowSums`).
        precondition(n <= window.count && n <= centred.count, "CadenceEstimator: window longer than its storage")
        window.withUnsafeBufferPointer { window in
            centred.withUnsafeMutableBufferPointer { centred in
                let source = UnsafeRawPointer(window.baseAddress!)
                let m = SIMD4<Double>(repeating: mean)
                var lanes = SIMD4<Double>()
                var i = 0
                while i + 4 <= n {
                    let x = source.loadUnaligned(fromByteOffset: i * 8, as: SIMD4<Double>.self) - m
                    centred[i] = Float(x[0])
                    centred[i + 1] = Float(x[1])
                    centred[i + 2] = Float(x[2])
                    centred[i + 3] = Float(x[3])
                    lanes += x * x
                    i += 4
                }
                var sum = lanes.sum()
                while i < n {
                    let x = window[i] - mean
                    centred[i] = Float(x)
                    sum += x * x
                    i += 1
                }
                energy = sum
            }
        }
        guard energy > 1e-12 else { return nil }
        // A trimmed window (a short walk between stops) holds fewer samples: lags up to half of it.
        let maximumLag = Swift.min(self.maximumLag, n / 2 - 1)
        guard maximumLag > minimumLag + 1 else { return nil }
        let lo = minimumLag - 1, hi = maximumLag + 1
        centred.withUnsafeBufferPointer { xs in
            correlation.withUnsafeMutableBufferPointer { r in
                guard let x = xs.baseAddress else { return }
                Self.correlate(x, count: n, energy: energy, lags: lo...hi, into: r)
            }
        }
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

    /// r(ℓ) for every ℓ in `lags` into `r[ℓ]`, from the centred `x[0..<n]` of total `energy`.
    ///
    /// This is most of the analysis cost (callgrind: about 60% of `Pedometer.process` at 25 Hz
    /// input). The products are taken in single precision, eight at a time: a sum holds at most
    /// a few hundred products of values below a few g, so its relative error (about 1e-6) is far
    /// below the differences the peak tests compare, and each instruction does twice the work.
    /// Six lags share each load of x[i..<i+8] (register blocking).
    @inline(__always)
    private static func correlate(_ x: UnsafePointer<Float>, count n: Int, energy: Double,
                                  lags: ClosedRange<Int>, into r: UnsafeMutableBufferPointer<Double>) {
        let raw = UnsafeRawPointer(x)
        let size = MemoryLayout<Float>.stride
        @inline(__always) func load(_ i: Int) -> SIMD8<Float> {
            raw.loadUnaligned(fromByteOffset: i * size, as: SIMD8<Float>.self)
        }
        /// Completes Σ x[i]·x[i+lag] from index `i` with the partial lanes `sum8`, normalised.
        @inline(__always) func finish(_ sum8: SIMD8<Float>, from start: Int, lag: Int) -> Double {
            var sum8 = sum8
            var i = start
            let end = n - lag
            while i + 8 <= end {
                sum8 += load(i) * load(i + lag)
                i += 8
            }
            var sum = sum8.sum()
            while i < end {
                sum += x[i] * x[i + lag]
                i += 1
            }
            return Double(sum) / energy * Double(n) / Double(end)
        }
        var lag = lags.lowerBound
        // Six lags per pass (twelve SSE accumulators plus the shared load fit the sixteen
        // registers). Each lag's lanes still add the same products in the same order as
        // `finish` alone would (8-sample chunks from i = 0), so the sums do not depend on the
        // blocking: the benchmark outputs are bit-for-bit those of four lags per pass.
        while lag + 5 <= lags.upperBound {
            var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>()
            var s3 = SIMD8<Float>(), s4 = SIMD8<Float>(), s5 = SIMD8<Float>()
            var i = 0
            let jointEnd = n - (lag + 5)    // all six lags still have eight products here
            while i + 8 <= jointEnd {
                let a = load(i)
                s0 += a * load(i + lag)
                s1 += a * load(i + lag + 1)
                s2 += a * load(i + lag + 2)
                s3 += a * load(i + lag + 3)
                s4 += a * load(i + lag + 4)
                s5 += a * load(i + lag + 5)
                i += 8
            }
            r[lag] = finish(s0, from: i, lag: lag)
            r[lag + 1] = finish(s1, from: i, lag: lag + 1)
            r[lag + 2] = finish(s2, from: i, lag: lag + 2)
            r[lag + 3] = finish(s3, from: i, lag: lag + 3)
            r[lag + 4] = finish(s4, from: i, lag: lag + 4)
            r[lag + 5] = finish(s5, from: i, lag: lag + 5)
            lag += 6
        }
        while lag <= lags.upperBound {
            r[lag] = finish(SIMD8<Float>(), from: 0, lag: lag)
            lag += 1
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
