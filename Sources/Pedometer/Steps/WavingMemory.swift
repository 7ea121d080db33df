/// Remembers the rhythm of the last pure-sine window (a waved phone), so that the windows that
/// straddle the waving and a walk right after it cannot start the walk at the waving's rhythm.
///
/// Within a window's length after a pure sinusoid, a window at that same rhythm still holds the
/// waving, diluted by the walk that follows: starting a bout there takes the waving's cadence and
/// back-fills steps into it (the synthetic day's walk after waving read one step high). Only a
/// pure sine counts: gait windows that narrowly fail the harmonic test (oxford walks, mid-walk)
/// must not block the rest of the walk.
struct WavingMemory: Sendable {
    /// Cadences within this fraction are the same rhythm: window-to-window jitter of a steady
    /// rhythm is about 1% (the simulator's waving reads 1.992 to 2.034 steps/s).
    static let sameRhythm = 0.05

    /// Rhythm of the last pure-sine window, steps/s; the tick index where that window ended.
    private var cadence: Double?
    private var until = 0

    /// Notes a window judged a pure sine at `cadence`, ending at tick `end`.
    mutating func noteSine(cadence: Double, end: Int) {
        self.cadence = cadence
        until = end
    }

    /// Is a gait window at `cadence` ending at tick `end` (of `window` ticks) still the waving?
    func isWaving(cadence candidate: Double, end: Int, window: Int) -> Bool {
        guard let cadence, end - until < window else { return false }
        return abs(candidate / cadence - 1) < Self.sameRhythm
    }

    /// Did a pure-sine window end within `window` ticks before `end`?
    func wavedRecently(end: Int, window: Int) -> Bool { cadence != nil && end - until < window }

    mutating func reset() { cadence = nil }
}
