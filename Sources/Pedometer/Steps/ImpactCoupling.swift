/// Is a window's horizontal motion the steps' own? Each heel strike brakes the trunk fore-aft and
/// jolts it sideways at the instant it lifts it, so the size of the horizontal acceleration peaks
/// with the vertical impact, step after step, and the two signals correlate over a walking
/// window. A vehicle's body bounce (its suspension) and its sway and surge (the road's camber,
/// the driver's throttle) are excited separately and do not (docs/steps.md).
enum ImpactCoupling {
    /// Pearson correlation, −1 to 1, of the gait signal (|specific force| − 1 g) and the size of
    /// the horizontal acceleration over absolute ticks `start..<start + count` of the two rings
    /// (both still hold them). 0 when either is flat.
    static func correlation(gait: RingBuffer, horizontal: RingBuffer, from start: Int, count n: Int) -> Double {
        guard n > 1 else { return 0 }
        var sumG = 0.0, sumH = 0.0
        for i in start..<(start + n) { sumG += gait[i]; sumH += horizontal[i] }
        let meanG = sumG / Double(n), meanH = sumH / Double(n)
        var gh = 0.0, gg = 0.0, hh = 0.0
        for i in start..<(start + n) {
            let g = gait[i] - meanG, h = horizontal[i] - meanH
            gh += g * h; gg += g * g; hh += h * h
        }
        // Flat: a variance under 1e-12 g² (1 µg), far below any sensor's noise (as `GaitShape`).
        guard gg > 1e-12 * Double(n), hh > 1e-12 * Double(n) else { return 0 }
        return gh / (gg * hh).squareRoot()
    }
}
