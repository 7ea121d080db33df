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
    /// The next window's second run [H, 2H), per lag ℓ ≤ N − 3H, as it will sum it: it is this
    /// window's [2H, 3H), whose products are all inside this window for those lags, and this
    /// window's third run adds the same blocks of eight in the same order up to its block that
    /// crosses 3H (`five(…, snapshotAt:…)`). Read only by the next window one hop later (`reuse`).
    private var nextSecond: [SIMD8<Float>]
    /// Absolute tick index one past the end of that window; nil when none is kept (a gap, or the
    /// latest window was trimmed).
    private var secondHopEnd: Int?

    init(hop: Int, window: Int, maximumLag: Int) {
        self.hop = hop
        self.window = window
        secondHop = [SIMD8<Float>](repeating: .zero, count: maximumLag + 1)
        lanes = secondHop
        nextSecond = secondHop
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
                nextSecond.withUnsafeMutableBufferPointer { next in
                    guard whole else {
                        Self.add(x, count: n, from: 0, to: n, lags: lags, into: lanes, replacing: true)
                        for lag in lags { sums[lag] = Double(Self.total(lanes[lag])) }
                        return
                    }
                    // With `reuse`, this window's first hop is the previous window's second, still in
                    // `kept`, and its second hop is in `next` for the shorter lags. Two copies of the
                    // pass, each with `reuse` a constant: no test of it per lag.
                    if reuse {
                        Self.addKeptAndRest(x, count: n, hop: hop, lags: lags, reuse: true, lanes: lanes, kept: kept,
                                            next: next, totals: sums)
                    } else {
                        Self.add(x, count: n, from: 0, to: hop, lags: lags, into: lanes, replacing: true)
                        Self.addKeptAndRest(x, count: n, hop: hop, lags: lags, reuse: false, lanes: lanes, kept: kept,
                                            next: next, totals: sums)
                    }
                }
            }
        }
    }

    /// The second and third runs of a whole window, five lags per pass: the second run's sums go
    /// to `kept` (for the next window) and are added to the first run's, the third run's are added
    /// to that, and the lanes' total goes to `totals[ℓ]`. The first run's sums are in `lanes`, or
    /// with `reuse` still in `kept` (the previous window's second run), to which the products the
    /// previous window could not hold (j = i + ℓ ≥ its end) are added first. The same additions in
    /// the same order as before, when the first run was copied out of `kept` and `lanes += kept`
    /// and the totals were loops over the lags of their own: totals[ℓ] = total(third + (first + second)).
    ///
    /// A pass of five lags ℓ…ℓ + 4 ≤ n − 3H also leaves the next window's second run in `next`
    /// (`nextSecond`), and with `reuse` takes its own second run from there instead of summing it:
    /// the same sums, bit for bit (a masked lane's product is a zero either way).
    @inline(__always)
    private static func addKeptAndRest(_ x: UnsafePointer<Float>, count n: Int, hop: Int, lags: ClosedRange<Int>,
                                       reuse: Bool, lanes: UnsafeMutableBufferPointer<SIMD8<Float>>,
                                       kept: UnsafeMutableBufferPointer<SIMD8<Float>>,
                                       next: UnsafeMutableBufferPointer<SIMD8<Float>>,
                                       totals: UnsafeMutableBufferPointer<Double>) {
        let second = Run(from: hop, to: 2 * hop), third = Run(from: 2 * hop, to: n)
        // Only a lag longer than n − 2H has products the previous window could not hold
        // (i + ℓ ≥ its end n − H for some i < H).
        let held = n &- 2 &* hop
        // The lags whose products over [2H, 3H) all lie inside the window, and the block of the
        // third run where the next window's second run has its last (masked) block.
        let ahead = Swift.min(n &- 3 &* hop, lags.upperBound), snapshotAt = third.from &+ (second.lastBlock &- second.from)
        var lag = lags.lowerBound
        while lag <= lags.upperBound {
            let block = Swift.min(5, lags.upperBound - lag + 1)
            let r: Pass, k: Pass
            if lag &+ 4 <= ahead {
                let at = next.baseAddress! + lag
                k = reuse ? (at[0], at[1], at[2], at[3], at[4])
                    : five(x, run: second, end: Swift.min(second.to, n - lag), lag: lag)
                r = five(x, run: third, end: Swift.min(third.to, n - lag), lag: lag, snapshotAt: snapshotAt, keep: second.keep, into: at)
            } else {
                k = five(x, run: second, end: Swift.min(second.to, n - lag), lag: lag)
                r = five(x, run: third, end: Swift.min(third.to, n - lag), lag: lag)
            }
            @inline(__always) func finish(_ l: Int, _ k: SIMD8<Float>, _ r: SIMD8<Float>) {
                var first = reuse ? kept[l] : lanes[l]
                if reuse, l > held {
                    // From max(0, n − ℓ − H), below H here. Indices below n: no overflow to check.
                    var i = Swift.max(0, n &- l &- hop)
                    while i < hop { first[0] += x[i] * x[i &+ l]; i &+= 1 }
                }
                kept[l] = k
                totals[l] = Double(total(r + (first + k)))
            }
            finish(lag, k.0, r.0)
            if block > 1 { finish(lag + 1, k.1, r.1) }
            if block > 2 { finish(lag + 2, k.2, r.2) }
            if block > 3 { finish(lag + 3, k.3, r.3) }
            if block > 4 { finish(lag + 4, k.4, r.4) }
            lag += 5
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
    /// precision. Five lags share each load of x[i..<i+8] (register blocking); where the run ends
    /// inside a block of eight (`to`), that shared load keeps only the ticks before `to`.
    @inline(__always)
    static func add(_ x: UnsafePointer<Float>, count n: Int, from: Int, to: Int, lags: ClosedRange<Int>,
                    into sums: UnsafeMutableBufferPointer<SIMD8<Float>>, replacing: Bool) {
        let run = Run(from: from, to: to)
        var lag = lags.lowerBound
        // Five lags per pass: ten SSE accumulators beside the shared load and the loads the
        // compiler shares between neighbouring lags (six lags' twelve did not fit the sixteen
        // registers: four went to the stack and back in every block, about 56 instructions per
        // 48 products against 40 per 40 now, one still spilled; callgrind, session 19). The pass
        // runs to the shortest lag's end; the longer lags' products beyond the window are 0.
        while lag <= lags.upperBound {
            var (s0, s1, s2, s3, s4) = five(x, run: run, end: Swift.min(to, n - lag), lag: lag)
            let block = Swift.min(5, lags.upperBound - lag + 1)
            if !replacing {
                s0 += sums[lag]
                if block > 1 { s1 += sums[lag + 1] }
                if block > 2 { s2 += sums[lag + 2] }
                if block > 3 { s3 += sums[lag + 3] }
                if block > 4 { s4 += sums[lag + 4] }
            }
            sums[lag] = s0
            if block > 1 { sums[lag + 1] = s1 }
            if block > 2 { sums[lag + 2] = s2 }
            if block > 3 { sums[lag + 3] = s3 }
            if block > 4 { sums[lag + 4] = s4 }
            lag += 5
        }
    }

    /// A run of first ticks i in from..<to, and its last block of eight (from `lastBlock` on),
    /// whose ticks at `to` and after count 0 (`keep`: 1 or 0 per lane).
    struct Run {
        let from: Int, to: Int, lastBlock: Int
        let keep: SIMD8<Float>
        @inline(__always) init(from: Int, to: Int) {
            self.from = from
            self.to = to
            lastBlock = from &+ (to &- from &- 1) / 8 &* 8
            var keep = SIMD8<Float>(repeating: 1)
            for k in 0..<8 where lastBlock &+ k >= to { keep[k] = 0 }
            self.keep = keep
        }
    }

    /// The five lags' eight partial sums of a pass (`five`).
    typealias Pass = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

    /// Σ x[i]·x[i + ℓ + d] for i in run.from..<end, d = 0…4, in eight partial sums each, blocks of
    /// eight i sharing one load; the run's last block (if `end` reaches it) keeps only its ticks
    /// before `run.to`. (Summing that block after the loop instead of testing for it in every
    /// pass compiled to more instructions in `PedallingAnalyser.strongestRepeat`.)
    /// `from` and `sums`: the run's blocks before `from` are already summed in `sums`.
    @inline(__always)
    private static func five(_ x: UnsafePointer<Float>, run: Run, end: Int, lag: Int, from: Int? = nil,
                             sums: Pass? = nil) -> Pass {
        @inline(__always) func load(_ i: Int) -> SIMD8<Float> { eight(x, at: i) }
        var (s0, s1, s2, s3, s4) = sums ?? (.zero, .zero, .zero, .zero, .zero)
        @inline(__always) func block(_ a: SIMD8<Float>, _ j: Int) {
            s0 += a * load(j)
            s1 += a * load(j &+ 1)
            s2 += a * load(j &+ 2)
            s3 += a * load(j &+ 3)
            s4 += a * load(j &+ 4)
        }
        var i = from ?? run.from
        while i < end {
            block(i == run.lastBlock ? load(i) * run.keep : load(i), i &+ lag)
            i &+= 8
        }
        return (s0, s1, s2, s3, s4)
    }

    /// `five` over a run that passes `at` (one of its block starts, before `end`), also storing in
    /// `next[0..<5]` each lag's sums as they stand before the block at `at`, plus that block with
    /// its ticks masked by `keep`: what another run whose last block is at `at` with that mask
    /// sums (`addKeptAndRest`), when its lagged ticks are the same.
    @inline(__always)
    private static func five(_ x: UnsafePointer<Float>, run: Run, end: Int, lag: Int, snapshotAt at: Int,
                             keep: SIMD8<Float>, into next: UnsafeMutablePointer<SIMD8<Float>>) -> Pass {
        // The blocks before `at` (none of them the run's last), then the masked block, then the rest.
        let before = five(x, run: run, end: at, lag: lag)
        @inline(__always) func load(_ i: Int) -> SIMD8<Float> { eight(x, at: i) }
        let masked = load(at) * keep, j = at &+ lag
        next[0] = before.0 + masked * load(j)
        next[1] = before.1 + masked * load(j &+ 1)
        next[2] = before.2 + masked * load(j &+ 2)
        next[3] = before.3 + masked * load(j &+ 3)
        next[4] = before.4 + masked * load(j &+ 4)
        return five(x, run: run, end: end, lag: lag, from: at, sums: before)
    }

    /// x[i ..< i + 8], unaligned. Indices stay below n + `padding` (a few hundred): no overflow
    /// to check.
    @inline(__always)
    private static func eight(_ x: UnsafePointer<Float>, at i: Int) -> SIMD8<Float> {
        UnsafeRawPointer(x).loadUnaligned(fromByteOffset: i &* MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
    }

    /// Zeros `add` needs after a run's n values: a pass of five lags reads up to x[n − 1 − ℓ + ℓ + 4 + 7],
    /// the last of eight values loaded for its fifth lag.
    static let padding = 4 + 8
}
