import Foundation

/// A value scale with "nice" labelled ticks (1, 2 or 5 × 10ⁿ apart).
struct ValueAxis {
    let low: Double
    let high: Double
    let step: Double

    /// Covers `low…high`, widened to at least `minimumSpan` around their middle, with about
    /// `ticks` labelled steps.
    init(low: Double, high: Double, minimumSpan: Double, ticks: Int = 4) {
        var lo = low, hi = high
        if !(lo.isFinite && hi.isFinite) || lo > hi { lo = 0; hi = minimumSpan }
        if hi - lo < minimumSpan {
            let mid = (lo + hi) / 2
            lo = mid - minimumSpan / 2
            hi = mid + minimumSpan / 2
        }
        let raw = (hi - lo) / Double(Swift.max(1, ticks))
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        self.step = step
        self.low = floor(lo / step) * step
        self.high = ceil(hi / step) * step
    }

    var ticks: [Double] {
        var out: [Double] = []
        var v = low
        while v <= high + step / 1000 { out.append(v); v += step }
        return out
    }

    /// The y coordinate of `value` in a panel spanning `top…top + height` (values grow upward).
    func y(_ value: Double, top: Double, height: Double) -> Double {
        top + height * (1 - (value - low) / (high - low))
    }
}
