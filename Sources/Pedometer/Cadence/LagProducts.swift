/// The lagged products Σ x[i]·x[i + ℓ] of a window (`CadenceEstimator`), each hop's share summed
/// once and kept for the windows after it.
///
/// A window of N ticks (whole hops of H ticks) holds its products grouped by the hop of their
/// earlier tick i: the window's sum for a lag ℓ is the sum of its hops' sums. Each hop's sum is
/// two chains, its even and its odd ticks i (counted from the hop's start), each a plain
/// sequential single-precision sum x[i]·x[i + ℓ] in increasing i over the products whose later
/// tick j = i + ℓ lies inside the window seen so far. The next window, one hop later, keeps the
/// hops it shares with this one: the products it lacks are exactly those whose later tick lies
/// in its newest hop, H per lag (4 700 products a window for the cadence lags 8 to 101 of 4 s
/// windows at 50 Hz with a 1 s hop, against 6 828 when a window kept only the run its
/// predecessor's block grid could hand over), and it adds them to the chains where they left off. So a chain holds the same sum, bit for bit,
/// whether its window was summed afresh or one hop after another (`chainSum` and the tests).
///
/// The window's sum of lag ℓ is the sum of its hops' two chains, the chains added in single
/// precision and the hops in double precision, oldest hop first. A chain adds at most ⌈H/2⌉
/// products (25 at 50 Hz and a 1 s hop), so the sum's rounding error is at most 26 single-precision
/// units (2⁻²⁴) of Σ |x[i]·x[i + ℓ]| (one rounding per product, per addition in its chain and for
/// the two chains' sum; Higham's bound for recursive summation), about 1.5e-6 of it. The eight
/// lanes of three runs before came to about 16 units (up to 12 products a lane and run, the runs
/// and then the lanes added): both far below the differences of normalised correlations the peak
/// tests compare, and every figure of `imu-bench-accuracy` and `imu-bench-activity` is the same.
///
/// The products are of the raw values (the window's mean is not removed: it changes from window to
/// window, the products of a tick pair do not); `CadenceEstimator` centres the sums afterwards.
///
/// Lags run across the lanes: a pass takes 16 consecutive lags ℓ₀…ℓ₀ + 15, broadcasts x[i] and
/// multiplies it with y[i + ℓ₀ …< i + ℓ₀ + 16] (two vectors of eight), so each lane's accumulator
/// is one lag's chain and no lanes are added per lag. y is the window's values for the later
/// ticks to add (the newest hop when the hops before are kept, every tick otherwise) and zero
/// elsewhere: a product whose later tick is not to be added is x[i]·0 = 0, and adding it changes
/// no sum (x + 0 = x), so a pass runs over one range of i for its 16 lags.
struct LagProducts: Sendable {
    /// Ticks per hop, and per window (a whole number of hops, at least two).
    let hop: Int
    let window: Int
    /// Lags per pass (two vectors of eight single-precision lanes: four accumulators with the
    /// two chains, eight SSE registers).
    static let passLags = 16
    /// Zeros `later` holds before the first later tick a pass reads, and after the window.
    private static let margin = passLags
    /// Lags per chain row: the longest lag and a whole pass beyond it.
    private let lagStride: Int
    /// Hop slots: one per hop of a window.
    private let slots: Int
    /// `chains[(2 · slot + c) · lagStride + ℓ]`: chain c (0 even, 1 odd ticks) of lag ℓ of the
    /// hop in `slot`. The window's hop h is in slot (`oldest` + h) mod `slots`.
    private var chains: [Float]
    /// The later ticks' values: `later[margin + j]` = x[j] for the ticks j to add, 0 elsewhere
    /// that a pass reads (from `margin` before the first to `margin` after the window).
    private var later: [Float]
    private var oldest = 0
    /// Absolute tick index one past the end of the kept window, and its lags; nil when none is
    /// kept (a gap, or the latest window was trimmed).
    private var keptEnd: Int?
    private var keptLags: ClosedRange<Int> = 0...0

    /// A hop or window below one tick is taken as one tick, so no setting divides by zero here.
    init(hop: Int, window: Int, maximumLag: Int) {
        let hop = Swift.max(1, hop), window = Swift.max(1, window)
        self.hop = hop
        self.window = window
        lagStride = Swift.max(0, maximumLag) + 1 + Self.passLags
        slots = (window + hop - 1) / hop
        chains = [Float](repeating: 0, count: 2 * slots * lagStride)
        later = [Float](repeating: 0, count: window + 2 * Self.margin)
    }

    /// Forgets the kept hops (a gap: absolute tick indices start again at 0).
    mutating func forget() { keptEnd = nil }

    /// Σ x[i]·x[i + ℓ] for i in 0..<(n − ℓ), each ℓ in `lags`, into `sums[ℓ]`. `end` is the absolute
    /// index one past the window's last tick when `x` holds a whole window (`n == window`), nil for
    /// a part of one (a trimmed window: summed afresh and not kept).
    mutating func sums(_ x: UnsafePointer<Float>, count n: Int, end: Int?, lags: ClosedRange<Int>,
                       into sums: UnsafeMutableBufferPointer<Double>) {
        precondition(lags.lowerBound >= 1 && lags.upperBound < lagStride - Self.passLags && lags.upperBound < n
                     && n <= window && lags.upperBound < sums.count,
                     "LagProducts: lags outside the window")
        let hop = self.hop, whole = end != nil && n == window && window % hop == 0 && 2 * hop <= n
        let reuse = whole && keptEnd != nil && keptEnd == end.map { $0 - hop } && keptLags == lags
        keptEnd = whole ? end : nil
        keptLags = lags
        let stride = lagStride, slots = self.slots, hops = (n + hop - 1) / hop
        if reuse { oldest = oldest + 1 == slots ? 0 : oldest + 1 } else { oldest = 0 }
        let oldest = self.oldest
        // The first later tick to add: the newest hop's, or every tick.
        let first = reuse ? n - hop : 0
        chains.withUnsafeMutableBufferPointer { chains in
            later.withUnsafeMutableBufferPointer { later in
                let c = chains.baseAddress!, y = later.baseAddress! + Self.margin
                if reuse {
                    // The newest hop's chains start empty; the others continue.
                    let newest = oldest == 0 ? slots - 1 : oldest - 1
                    (c + 2 * newest * stride).update(repeating: 0, count: 2 * stride)
                } else {
                    c.update(repeating: 0, count: 2 * slots * stride)
                }
                (y + first - Self.margin).update(repeating: 0, count: Self.margin)
                (y + first).update(from: x + first, count: n - first)
                (y + n).update(repeating: 0, count: Self.margin)
                var lag = lags.lowerBound
                while lag <= lags.upperBound {
                    // Every i whose product with a later tick to add is in this pass's lags.
                    var from = Swift.max(0, first - lag - (Self.passLags - 1))
                    // A hop's chains alternate from its first tick: start on an even one (the tick
                    // before `from` pairs only with zeros of `later`).
                    if (from - from / hop * hop) & 1 == 1 { from -= 1 }
                    Self.pass(x, y, lag: lag, from: from, to: n - lag, hop: hop, chains: c, stride: stride,
                              slots: slots, oldest: oldest)
                    lag += Self.passLags
                }
                Self.totals(c, stride: stride, slots: slots, oldest: oldest, hops: hops, lags: lags, into: sums)
            }
        }
    }

    /// Adds x[i]·y[i + ℓ] for i in from..<to to the chains of lags ℓ = `lag` …< `lag` + 16 of
    /// i's hop, hop by hop. `from` is an even tick of its hop (counted from the hop's start).
    @inline(__always)
    private static func pass(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, lag: Int, from: Int, to: Int,
                             hop: Int, chains: UnsafeMutablePointer<Float>, stride: Int, slots: Int, oldest: Int) {
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
        }
        @inline(__always) func store(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
        }
        var i = from, h = from / hop
        // Indices below the window plus its margins and the chains' size (a few thousand): no
        // overflow to check.
        while i < to {
            let end = Swift.min(to, (h &+ 1) &* hop)
            var slot = oldest &+ h
            if slot >= slots { slot &-= slots }
            let even = chains + (2 &* slot &* stride &+ lag), odd = even + stride
            var e0 = load(even), e1 = load(even + 8), o0 = load(odd), o1 = load(odd + 8)
            let row = y + lag
            while i &+ 1 < end {
                let a = SIMD8<Float>(repeating: x[i]), b = SIMD8<Float>(repeating: x[i &+ 1])
                let p = row + i
                e0 += a * load(p)
                e1 += a * load(p + 8)
                o0 += b * load(p + 1)
                o1 += b * load(p + 9)
                i &+= 2
            }
            if i < end {
                // The hop's (or the range's) last tick, an even one.
                let a = SIMD8<Float>(repeating: x[i]), p = row + i
                e0 += a * load(p)
                e1 += a * load(p + 8)
                i &+= 1
            }
            store(e0, even)
            store(e1, even + 8)
            store(o0, odd)
            store(o1, odd + 8)
            h &+= 1
        }
    }

    /// `sums[ℓ]` = Σ over the window's hops, oldest first, of the hop's two chains added in single
    /// precision, in double precision; eight lags at a time.
    @inline(__always)
    private static func totals(_ chains: UnsafeMutablePointer<Float>, stride: Int, slots: Int, oldest: Int, hops: Int,
                               lags: ClosedRange<Int>, into sums: UnsafeMutableBufferPointer<Double>) {
        let out = sums.baseAddress!
        @inline(__always) func row(_ h: Int) -> UnsafeRawPointer {
            var slot = oldest &+ h
            if slot >= slots { slot &-= slots }
            return UnsafeRawPointer(chains + 2 &* slot &* stride)
        }
        @inline(__always) func pair(_ even: UnsafeRawPointer, _ lag: Int) -> SIMD8<Double> {
            SIMD8<Double>(even.loadUnaligned(fromByteOffset: lag &* 4, as: SIMD8<Float>.self)
                          + even.loadUnaligned(fromByteOffset: (stride &+ lag) &* 4, as: SIMD8<Float>.self))
        }
        // A window of four hops (the estimator's 4 s at a 1 s hop): the hops' rows found once, not
        // per group of lags (callgrind, session 22: 24 instructions a hop and group in the loop).
        let four = hops == 4 ? (row(0), row(1), row(2), row(3)) : nil
        var lag = lags.lowerBound
        while lag <= lags.upperBound {
            var total = SIMD8<Double>()
            if let four {
                total = ((total + pair(four.0, lag)) + pair(four.1, lag) + pair(four.2, lag)) + pair(four.3, lag)
            } else {
                for h in 0..<hops { total += pair(row(h), lag) }
            }
            if lag &+ 8 <= lags.upperBound &+ 1 {
                UnsafeMutableRawPointer(out + lag).storeBytes(of: total, as: SIMD8<Double>.self)
            } else {
                for k in 0..<(lags.upperBound &+ 1 &- lag) { out[lag &+ k] = total[k] }
            }
            lag &+= 8
        }
    }

    /// Chain c (0: the even ticks of the hop, 1: the odd ones) of lag ℓ of the latest window's hop
    /// h (0 its oldest), as kept.
    func chainSum(hop h: Int, chain c: Int, lag: Int) -> Float {
        var slot = oldest + h
        if slot >= slots { slot -= slots }
        return chains[(2 * slot + c) * lagStride + lag]
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
    @inline(__always)
    private static func five(_ x: UnsafePointer<Float>, run: Run, end: Int, lag: Int) -> Pass {
        @inline(__always) func load(_ i: Int) -> SIMD8<Float> { eight(x, at: i) }
        var (s0, s1, s2, s3, s4) = (SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero, SIMD8<Float>.zero)
        @inline(__always) func block(_ a: SIMD8<Float>, _ j: Int) {
            s0 += a * load(j)
            s1 += a * load(j &+ 1)
            s2 += a * load(j &+ 2)
            s3 += a * load(j &+ 3)
            s4 += a * load(j &+ 4)
        }
        var i = run.from
        while i < end {
            block(i == run.lastBlock ? load(i) * run.keep : load(i), i &+ lag)
            i &+= 8
        }
        return (s0, s1, s2, s3, s4)
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
