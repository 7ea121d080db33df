/// Counts scans missing from a run of kernel timestamps: the kernel drops new scans when its
/// IIO buffer is full and says nothing, so the only trace is a gap in the timestamps.
///
/// The period is the median interval of the latest block with at least three intervals (the
/// trigger's real rate, which may differ from the one asked for). A gap longer than
/// `gapPeriods` periods holds round(gap / period) − 1 missing scans.
struct ScanGapCounter {
    /// The hrtimer or a chip's data-ready jitter stays well below half a period.
    static let gapPeriods = 1.5
    private(set) var periodSeconds: Double?
    private var lastTime: Double?

    /// Scans missing before and within `times` (s, oldest first).
    mutating func missing(in times: [Double]) -> Int {
        guard !times.isEmpty else { return 0 }
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        if intervals.count >= 3 { periodSeconds = intervals[intervals.count / 2] }
        defer { lastTime = times.last }
        guard let period = periodSeconds else { return 0 }
        var previous = lastTime
        var missing = 0
        for t in times {
            if let p = previous, t - p > Self.gapPeriods * period {
                missing += Int(((t - p) / period).rounded()) - 1
            }
            previous = t
        }
        return missing
    }
}
