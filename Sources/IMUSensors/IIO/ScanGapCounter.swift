/// Counts scans missing from a run of kernel timestamps: the kernel drops new scans when its
/// IIO buffer is full and says nothing, so the only trace is a gap in the timestamps.
///
/// The period is the median interval of the latest block with at least three intervals (the
/// trigger's real rate, which may differ from the one asked for). At a gap longer than
/// `gapPeriods` periods, the scans missing are the periods from the scan before the gap to the
/// `lookahead`-th scan after it, less the scans received in between: a late tick followed by an
/// early one (a starved timer keeps its grid) then counts nothing, and only the two end points'
/// jitter, not every tick's, could shift the count.
struct ScanGapCounter {
    /// The hrtimer or a chip's data-ready jitter stays well below half a period.
    static let gapPeriods = 1.5
    /// Scans after a gap that settle where the grid is.
    static let lookahead = 8
    private(set) var periodSeconds: Double?
    /// Times not yet judged: the last judged one first, then those waiting for their lookahead.
    private var pending: [Double] = []

    /// Scans found missing with `times` (s, oldest first) added; a gap near the end of the
    /// stream is judged once `lookahead` more scans have arrived.
    mutating func missing(in times: [Double]) -> Int {
        guard !times.isEmpty else { return 0 }
        let intervals = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        if intervals.count >= 3 { periodSeconds = intervals[intervals.count / 2] }
        pending += times
        guard let period = periodSeconds else { pending = [pending[pending.count - 1]]; return 0 }
        var missing = 0
        var p = 1
        while p < pending.count {
            guard pending[p] - pending[p - 1] > Self.gapPeriods * period else { p += 1; continue }
            let end = p + Self.lookahead - 1
            guard end < pending.count else { break }   // wait for the scans after the gap
            let periods = Int(((pending[end] - pending[p - 1]) / period).rounded())
            missing += max(0, periods - Self.lookahead)
            p = end + 1
        }
        pending.removeFirst(p - 1)
        return missing
    }
}
