/// A fixed number of equal time bins starting at `origin`.
///
/// When the end of the plotted span is known (`--to`), the bins are laid over it once. When it is
/// not (a recording read as a stream, with no way to know its length before the end), the grid
/// starts fine and, whenever a sample falls past its last bin, merges neighbouring pairs and doubles
/// the bin width. Either way memory is `capacity` bins whatever the recording's length, and once
/// it has doubled the data fills at least `capacity / 2` bins, so with `capacity` = 4 × the plot's
/// pixel columns every column gets two or more bins (a bin lands in the column holding its centre:
/// at most a quarter of a column off).
struct TimeGrid: Sendable {
    let origin: Double
    let capacity: Int
    /// Bin width, s.
    private(set) var binSeconds: Double
    /// Exclusive end of the plotted span when known ahead; nil = grow as data comes.
    let fixedEnd: Double?
    var bins: [TimeBin]

    /// First bin width of a growing grid, s: 1 ms, the sample period at the fastest rate recordings
    /// have (1 kHz, docs/CONTRACTS.md §2). With 4 bins per column, any recording longer than
    /// `capacity` ms (4.5 s at 1200 px) has doubled at least once and so has two or more bins per
    /// column; a shorter one has bins of 1 ms, finer than its samples.
    static let initialBinSeconds = 0.001

    init(origin: Double, end: Double?, capacity: Int) {
        precondition(capacity >= 2 && capacity % 2 == 0, "capacity must be even")
        self.origin = origin
        self.capacity = capacity
        fixedEnd = end
        if let end { binSeconds = Swift.max(end - origin, 1e-6) / Double(capacity) } else { binSeconds = Self.initialBinSeconds }
        bins = Array(repeating: TimeBin(), count: capacity)
    }

    /// End of the time the bins cover, s.
    var coveredEnd: Double { origin + binSeconds * Double(capacity) }

    /// The bin holding time `t`, growing a grid of unknown end to reach it; nil outside the span.
    mutating func index(for t: Double) -> Int? {
        guard t.isFinite, t >= origin else { return nil }
        if let fixedEnd, t >= fixedEnd { return nil }
        var i = (t - origin) / binSeconds
        while i >= Double(capacity) {
            guard fixedEnd == nil else { return capacity - 1 }   // rounding at the fixed end
            doubleBinWidth()
            i = (t - origin) / binSeconds
        }
        return Swift.min(Int(i), capacity - 1)
    }

    /// Calls `body` with each bin overlapping [a, b) and the seconds of the overlap. Time outside
    /// the span is clipped; a growing grid grows to cover `b`.
    mutating func spread(from a: Double, to b: Double, _ body: (inout TimeBin, Double) -> Void) {
        guard a.isFinite, b.isFinite, b > a else { return }
        let lo = Swift.max(a, origin)
        var hi = b
        if let fixedEnd { hi = Swift.min(hi, fixedEnd) } else { _ = index(for: b.nextDown) }
        guard hi > lo else { return }
        var i = Swift.min(Int((lo - origin) / binSeconds), capacity - 1)
        while i < capacity {
            let binStart = origin + Double(i) * binSeconds, binEnd = binStart + binSeconds
            let overlap = Swift.min(hi, binEnd) - Swift.max(lo, binStart)
            if overlap > 0 { body(&bins[i], overlap) }
            if binEnd >= hi { break }
            i += 1
        }
    }

    /// Merges pairs of neighbouring bins; the second half of the grid becomes empty.
    private mutating func doubleBinWidth() {
        let half = capacity / 2
        for i in 0..<half {
            var merged = bins[2 * i]
            merged.merge(bins[2 * i + 1])
            bins[i] = merged
        }
        for i in half..<capacity { bins[i] = TimeBin() }
        binSeconds *= 2
    }

    /// Centre time of bin `i`, s.
    func centre(of i: Int) -> Double { origin + (Double(i) + 0.5) * binSeconds }

    /// The bins folded into `count` equal columns over [from, to): a bin goes to the column holding
    /// its centre. This is the per-pixel-column envelope the SVG draws.
    func columns(_ count: Int, from: Double, to: Double) -> [TimeBin] {
        var out = Array(repeating: TimeBin(), count: count)
        let span = to - from
        guard span > 0 else { return out }
        for i in 0..<capacity {
            let c = centre(of: i)
            // A bin starting at or before `to` belongs to the plot (the last sample sits exactly at `to`).
            guard c >= from, c - binSeconds / 2 <= to else { continue }
            let column = Swift.min(count - 1, Swift.max(0, Int((c - from) / span * Double(count))))
            out[column].merge(bins[i])
        }
        return out
    }
}
