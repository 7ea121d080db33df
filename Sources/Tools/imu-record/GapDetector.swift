/// Finds gaps in a sample stream from its timestamps alone: an interval longer than twice the
/// median of the recent intervals (a sensor at 100 Hz that skips one sample shows 20 ms).
struct GapDetector {
    struct Gap: Equatable {
        /// Time of the sample after the gap, s.
        var time: Double
        /// Length of the gap, s.
        var seconds: Double
        /// Samples that would have fitted in it at the median rate (at the shortest interval seen,
        /// before there is a median); nil for a gap before the second interval, with no rate to go by.
        var missingSamples: Int?
    }

    /// Before the median exists (the first `warmUp` intervals), an interval longer than this is a
    /// gap: twice the period of the slowest rate any source is asked for (`--rate` takes 1 Hz and
    /// up). A 317-year jump between the first samples was "gaps 0", the median not yet known.
    static let longestIntervalBeforeMedian = 2.0

    /// Intervals kept for the median: 256 ≈ 2.5 s at 100 Hz, long enough to ignore jitter,
    /// short enough to follow a rate change.
    static let window = 256
    /// Intervals seen before judging (the median of fewer is not a rate yet).
    static let warmUp = 16
    /// The median is recomputed every this many samples (sorting 256 numbers per sample would be waste).
    static let medianEvery = 64

    private var previous: Double?
    private var intervals: [Double] = []
    private var next = 0
    private var sinceMedian = 0
    private(set) var median: Double?
    private(set) var gaps: [Gap] = []
    private(set) var count = 0
    private(set) var first: Double?
    private(set) var last: Double?

    /// Adds a timestamp; returns the gap it closes, if any.
    mutating func add(_ t: Double) -> Gap? {
        count += 1
        if first == nil { first = t }
        last = t
        defer { previous = t }
        guard let p = previous else { return nil }
        let dt = t - p
        var found: Gap?
        let known = median.flatMap { $0 > 0 ? $0 : nil }
        if let m = known, dt > 2 * m {
            found = Gap(time: t, seconds: dt, missingSamples: Self.missing(dt, period: m))
            gaps.append(found!)
        } else if known == nil, dt > Self.longestIntervalBeforeMedian {
            found = Gap(time: t, seconds: dt, missingSamples: intervals.min().flatMap { $0 > 0 ? Self.missing(dt, period: $0) : nil })
            gaps.append(found!)
        } else {
            // Gaps stay out of the median so a long one does not hide the next.
            if intervals.count < Self.window { intervals.append(dt) } else { intervals[next] = dt; next = (next + 1) % Self.window }
        }
        sinceMedian += 1
        if intervals.count >= Self.warmUp && (median == nil || sinceMedian >= Self.medianEvery) {
            let sorted = intervals.sorted()
            median = sorted[sorted.count / 2]
            sinceMedian = 0
        }
        return found
    }

    /// Samples that fit in `dt` at `period`, at least 1. In Double first, range-checked before the
    /// integer conversion: a gap of years over a µs period must not overflow Int.
    static func missing(_ dt: Double, period: Double) -> Int {
        let n = (dt / period).rounded() - 1
        return n.isFinite ? max(1, Int(min(n, Double(Int.max / 2)))) : Int.max / 2
    }

    /// Samples per second over the whole stream.
    var achievedRate: Double? {
        guard let f = first, let l = last, l > f, count > 1 else { return nil }
        return Double(count - 1) / (l - f)
    }
}
