/// The outline of a min/max envelope over pixel columns: along the maxima left to right, back
/// along the minima. Runs of empty columns shorter than `bridge` columns are drawn across (a
/// sensor slower than the pixels leaves empty columns that are no gap); longer ones break the
/// outline, so a real gap in the recording shows as a gap.
enum EnvelopePath {
    static func outline(_ extents: [Extent], left: Double, bridge: Double, y: (Double) -> Double) -> String {
        var d = ""
        var run: [(Int, Extent)] = []
        var emptySince: Int?
        func flush() {
            guard !run.isEmpty else { return }
            var first = true
            for (c, e) in run {
                d += (first ? "M" : "L") + "\(Number.px(left + Double(c) + 0.5)) \(Number.px(y(e.max)))"
                first = false
            }
            for (c, e) in run.reversed() { d += "L\(Number.px(left + Double(c) + 0.5)) \(Number.px(y(e.min)))" }
            d += "Z"
            run.removeAll(keepingCapacity: true)
        }
        for (c, e) in extents.enumerated() {
            if e.isEmpty {
                if emptySince == nil { emptySince = c }
                continue
            }
            if let since = emptySince, Double(c - since) > bridge { flush() }
            emptySince = nil
            run.append((c, e))
        }
        flush()
        return d
    }

    /// Runs of columns where `include` holds: (first column, column count).
    static func runs(_ count: Int, _ include: (Int) -> Bool) -> [(start: Int, length: Int)] {
        var out: [(Int, Int)] = []
        var start: Int?
        for c in 0...count {
            let inside = c < count && include(c)
            if inside, start == nil { start = c }
            if !inside, let s = start { out.append((s, c - s)); start = nil }
        }
        return out
    }
}
