/// The lagged products Σ x[i]·x[i + ℓ] of a window (`CadenceEstimator`), with the part a window
/// shares with the one a hop before it reused instead of summed again.
///
/// A window of N ticks (whole hops of H ticks) is summed in three runs of i: [0, H), [H, 2H) and
/// [2H, N − ℓ). The next window, one hop later, starts at this one's tick H: its first run is this
/// window's second (the same ticks and lags, so the same products), kept here (`secondHop`).
/// Every product whose later tick j = i + ℓ is still inside the window is counted; a lag longer
/// than N − 2H leaves products of the second run beyond the window's end, and the next window
/// adds them (`addMissing`). So a window that follows a whole window of the same segment by one
/// hop sums about 150 − ℓ products per lag instead of 200 − ℓ (4 s windows at 50 Hz, 1 s hop): a
/// third fewer over the cadence lags 11 to 100.
///
/// The products are of the raw values (the window's mean is not removed: it changes from window to
/// window, the products of a tick pair do not); `CadenceEstimator` centres the sums afterwards.
/// Each run adds in eight single-precision lanes (as the estimator summed its whole window
/// before), the runs' lanes are added, and the eight lanes of a lag are added last.
struct LagProducts: Sendable {
    /// Ticks per hop, and per window (a whole number of hops, at least two).
    let hop: Int
    let window: Int
    /// Σ x[i]·x[i + ℓ] for i in [H, 2H) of the latest whole window, per lag ℓ, in eight partial
    /// sums (lanes; 0 where not summed).
    private var secondHop: [SIMD8<Float>]
    /// The current window's partial sums per lag.
    private var lanes: [SIMD8<Float>]
    /// Absolute tick index one past the end of that window; nil when none is kept (a gap, or the
    /// latest window was trimmed).
    private var secondHopEnd: Int?

    init(hop: Int, window: Int, maximumLag: Int) {
        self.hop = hop
        self.window = window
        secondHop = [SIMD8<Float>](repeating: .zero, count: maximumLag + 1)
        lanes = secondHop
    }

    /// Forgets the kept run (a gap: absolute tick indices start again at 0).
    mutating func forget() { secondHopEnd = nil }

    /// Σ x[i]·x[i + ℓ] for i in 0..<(n − ℓ), each ℓ in `lags`, into `sums[ℓ]`. `end` is the absolute
    /// index one past the window's last tick when `x` holds a whole window (`n == window`), nil for
    /// a part of one (a trimmed window: summed in one run and not kept).
    mutating func sums(_ x: UnsafePointer<Float>, count n: Int, end: Int?, lags: ClosedRange<Int>,
                       into sums: UnsafeMutableBufferPointer<Double>) {
        precondition(lags.lowerBound >= 1 && lags.upperBound < secondHop.count && lags.upperBound < n,
                     "LagProducts: lags outside the window")
        let hop = self.hop, whole = end != nil && n == window && 2 * hop <= n
        let reuse = whole && secondHopEnd != nil && secondHopEnd == end.map { $0 - hop }
        secondHopEnd = whole ? end : nil
        lanes.withUnsafeMutableBufferPointer { lanes in
            secondHop.withUnsafeMutableBufferPointer { kept in
                guard whole else {
                    Self.add(x, count: n, from: 0, to: n, lags: lags, into: lanes, replacing: true)
                    return
                }
                if reuse {
                    // This window's first hop is the previous window's second.
                    for lag in lags {
                        lanes[lag] = kept[lag]
                        // Products the previous window could not hold: j = i + ℓ ≥ its end.
                        let first = max(0, n - lag - hop)
                        guard first < hop else { continue }
                        for i in first..<hop { lanes[lag][0] += x[i] * x[i + lag] }
                    }
                } else {
                    Self.add(x, count: n, from: 0, to: hop, lags: lags, into: lanes, replacing: true)
                }
                Self.add(x, count: n, from: hop, to: 2 * hop, lags: lags, into: kept, replacing: true)
                for lag in lags { lanes[lag] += kept[lag] }
                Self.add(x, count: n, from: 2 * hop, to: n, lags: lags, into: lanes, replacing: false)
            }
            for lag in lags { sums[lag] = Double(Self.total(lanes[lag])) }
        }
    }

    /// The sum of the eight lanes, pairwise.
    @inline(__always)
    static func total(_ v: SIMD8<Float>) -> Float {
        let four = v.lowHalf + v.highHalf
        let two = four.lowHalf + four.highHalf
        return two[0] + two[1]
    }

    /// Adds Σ x[i]·x[i + ℓ] for i in from..<min(to, n − ℓ) to `sums[ℓ]` (eight partial sums), each
    /// ℓ in `lags`; `replacing`: stores them instead (`sums[ℓ]` need not be set before).
    /// `x` must hold `padding` zeros from index n on: a product
    /// whose later tick lies beyond the window is then 0, and no lag needs a scalar tail of its own.
    ///
    /// The products are taken in single precision, eight at a time: a run holds at most a few
    /// hundred products of values below a few g, so its relative error (about 1e-6) is far below
    /// the differences the peak tests compare, and each instruction does twice the work of double
    /// precision. Six lags share each load of x[i..<i+8] (register blocking); where the run ends
    /// inside a block of eight (`to`), that shared load keeps only the ticks before `to`.
    @inline(__always)
    static func add(_ x: UnsafePointer<Float>, count n: Int, from: Int, to: Int, lags: ClosedRange<Int>,
                    into sums: UnsafeMutableBufferPointer<SIMD8<Float>>, replacing: Bool) {
        let raw = UnsafeRawPointer(x)
        // Indices stay below n + `padding` (a few hundred): no overflow to check.
        @inline(__always) func load(_ i: Int) -> SIMD8<Float> {
            raw.loadUnaligned(fromByteOffset: i &* MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
        }
        // The last block of eight of the run: its ticks at `to` and after count 0 (1 or 0 per lane).
        let lastBlock = from &+ (to &- from &- 1) / 8 &* 8
        var keep = SIMD8<Float>(repeating: 1)
        for k in 0..<8 where lastBlock &+ k >= to { keep[k] = 0 }
        var lag = lags.lowerBound
        // Six lags per pass (twelve SSE accumulators plus the shared load fit the sixteen registers).
        // The pass runs to the shortest lag's end; the longer lags' products beyond the window are 0.
        while lag <= lags.upperBound {
            var s0 = SIMD8<Float>(), s1 = SIMD8<Float>(), s2 = SIMD8<Float>()
            var s3 = SIMD8<Float>(), s4 = SIMD8<Float>(), s5 = SIMD8<Float>()
            var i = from
            let end = Swift.min(to, n - lag)
            let block = Swift.min(6, lags.upperBound - lag + 1)
            while i < end {
                let a = i == lastBlock ? load(i) * keep : load(i)
                let j = i &+ lag
                s0 += a * load(j)
                s1 += a * load(j &+ 1)
                s2 += a * load(j &+ 2)
                s3 += a * load(j &+ 3)
                s4 += a * load(j &+ 4)
                s5 += a * load(j &+ 5)
                i &+= 8
            }
            if !replacing {
                s0 += sums[lag]
                if block > 1 { s1 += sums[lag + 1] }
                if block > 2 { s2 += sums[lag + 2] }
                if block > 3 { s3 += sums[lag + 3] }
                if block > 4 { s4 += sums[lag + 4] }
                if block > 5 { s5 += sums[lag + 5] }
            }
            sums[lag] = s0
            if block > 1 { sums[lag + 1] = s1 }
            if block > 2 { sums[lag + 2] = s2 }
            if block > 3 { sums[lag + 3] = s3 }
            if block > 4 { sums[lag + 4] = s4 }
            if block > 5 { sums[lag + 5] = s5 }
            lag += 6
        }
    }

    /// Zeros `add` needs after a run's n values: a pass of six lags reads up to x[n − 1 − ℓ + ℓ + 5 + 7],
    /// the last of eight values loaded for its sixth lag.
    static let padding = 5 + 8
}
