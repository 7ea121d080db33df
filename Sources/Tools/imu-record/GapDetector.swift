/// Finds gaps in a sample stream from its timestamps alone: an interval longer than twice the
/// median of the recent intervals (a sensor at 100 Hz that skips one sample shows 20 ms).
struct GapDetector {
    struct Gap: Equatable {
        /// Time of the sample after the gap, s.
        var time: Double
        /// Length of the gap, s.
        var seconds: Double
        /// Samples that would have fitted in it at the median rate.
        var missingSamples: Int
    }

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
        if let m = median, m > 0, dt > 2 * m {
            // In Double first: a gap of years over a µs median must not overflow Int.
            let missing = min((dt / m).rounded() - 1, Double(Int.max / 2))
            found = Gap(time: t, seconds: dt, missingSamples: max(1, Int(missing)))
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

    /// Samples per second over the whole stream.
    var achievedRate: Double? {
        guard let f = first, let l = last, l > f, count > 1 else { return nil }
        return Double(count - 1) / (l - f)
    }
}
