/// Where a walk starts and ends, to within about a step.
///
/// Energy alone marks the phone being handled (taken out of a pouch, put into a pocket) as
/// walking. Gait also *repeats*: the signal over one stride looks like the stride before it. So
/// an edge is where the local correlation at the stride lag crosses `minimumCorrelation`
/// (`BoutRules.edgeCorrelation`) and the
/// motion energy is still a fair share of the bout's (`isStrong`), so a bus's sway right after a
/// walk, periodic as it is, does not extend the walk.
enum BoutEdges {
    /// Pearson correlation of `x[a..<a+w]` with `x[a+lag..<a+lag+w]`.
    static func correlation(_ x: RingBuffer, start a: Int, length w: Int, lag: Int) -> Double {
        var s1 = 0.0, s2 = 0.0, s11 = 0.0, s22 = 0.0, s12 = 0.0
        for k in a..<(a + w) {
            let u = x[k], v = x[k + lag]
            s1 += u; s2 += v; s11 += u * u; s22 += v * v; s12 += u * v
        }
        let n = Double(w)
        let cov = s12 - s1 * s2 / n
        let var1 = s11 - s1 * s1 / n, var2 = s22 - s2 * s2 / n
        guard var1 > 1e-12, var2 > 1e-12 else { return 0 }
        return cov / (var1 * var2).squareRoot()
    }

    /// First tick in `from..<to` from which the next stride repeats the one after it (or, in
    /// the last two strides, where the energy rises). Returns `to` when none does.
    static func onset(_ x: RingBuffer, from: Int, to: Int, stride: Int, minimumCorrelation: Double,
                      isStrong: (Int) -> Bool) -> Int {
        guard stride > 0 else { return from }
        let last = min(to, x.count - 2 * stride)
        var a = max(from, x.oldestIndex)
        while a < last {
            if isStrong(a), correlation(x, start: a, length: stride, lag: stride) >= minimumCorrelation { return a }
            a += 1
        }
        // Too close to the newest tick for two whole strides: the walk began within the last
        // two strides, where only the energy can tell.
        a = max(from, last)
        while a < to {
            if isStrong(a) { return a }
            a += 1
        }
        return max(from, to)
    }

    /// One past the last tick in `from..<to` up to which the last stride repeats the one before it.
    /// Returns `from` when none does.
    static func offset(_ x: RingBuffer, from: Int, to: Int, stride: Int, minimumCorrelation: Double,
                       isStrong: (Int) -> Bool) -> Int {
        guard stride > 0 else { return from }
        var end = min(to, x.count)
        let first = max(from, x.oldestIndex + 2 * stride)
        while end > first {
            if isStrong(end - 1), correlation(x, start: end - 2 * stride, length: stride, lag: stride) >= minimumCorrelation { return end }
            end -= 1
        }
        return from
    }

    /// First tick in `from...to − ticks` from which `x` stays within `deviation` (standard
    /// deviation, g) for `ticks` ticks: the phone is still there. Nil when it never is.
    static func pause(_ x: RingBuffer, from: Int, to: Int, ticks: Int, deviation: Double) -> Int? {
        let a = max(from, x.oldestIndex)
        guard ticks > 0, to - a >= ticks else { return nil }
        let n = Double(ticks), limit = deviation * deviation
        var s = 0.0, s2 = 0.0
        for k in a..<(a + ticks) { s += x[k]; s2 += x[k] * x[k] }
        // A box from `start` is followed by the next while start + ticks < to: one comparison per
        // tick with a bound found once (the indices stay below `to`: no overflow to check).
        let last = to &- ticks
        var start = a
        while true {
            let mean = s / n
            if s2 / n - mean * mean <= limit { return start }
            guard start < last else { return nil }
            let old = x[start], new = x[start &+ ticks]
            s += new - old
            s2 += new * new - old * old
            start &+= 1
        }
    }
}
