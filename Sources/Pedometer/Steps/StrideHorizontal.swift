/// How much the phone's horizontal motion varies *within* each stride: the part of it at the gait's
/// rhythm. A step brakes and pushes the trunk fore-aft and sways it sideways, so the size of the
/// horizontal acceleration repeats with every stride (two steps) and averages out over one; a
/// vehicle braking, pulling away or leaning through a curve changes it over seconds, slower than a
/// stride, which a stride's mean follows (docs/steps.md, `GaitGate.coupledStartHorizontal`).
enum StrideHorizontal {
    /// Standard deviation, g, of `horizontal` (the size of the horizontal acceleration) about its
    /// own mean over each whole stride of `strideTicks`, pooled over the strides that fit in ticks
    /// `end - count..<end`, counted back from `end` (the oldest part shorter than a stride is left
    /// out; a stride longer than the window is the whole window). A walk's horizontal motion is at
    /// its rhythm, so this is nearly its whole deviation; a slow surge adds only its change within
    /// one stride. Two passes over at most one window (200 ticks at 50 Hz).
    static func deviation(_ horizontal: RingBuffer, end: Int, count n: Int, strideTicks: Int) -> Double {
        guard n > 1 else { return 0 }
        let length = min(max(strideTicks, 2), n)
        let strides = n / length
        var squares = 0.0
        for s in 0..<strides {
            let first = end - (s + 1) * length
            var sum = 0.0
            for i in first..<(first + length) { sum += horizontal[i] }
            let mean = sum / Double(length)
            for i in first..<(first + length) { let d = horizontal[i] - mean; squares += d * d }
        }
        return (squares / Double(strides * length)).squareRoot()
    }
}
