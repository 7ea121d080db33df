/// Per-step detection at a walk's edges: each foot strike is an impact, a local maximum of the
/// gait signal (|specific force| − 1 g). Cadence × time counts the steady middle of a walk; the
/// first steps from standing and the last ones before stopping are too few and too irregular
/// for a cadence, so they are counted one by one here, chaining from a counted step to the
/// next impact before or after it.
///
/// A neighbour is a step when it lies between `minimumSpacing` step periods and `longestInterval`
/// seconds from the step it chains from, is a local maximum over half a step either side, and
/// rises above `heightFraction` of the bout's RMS amplitude (and `minimumHeight`).
struct HeelStrikes: Sendable {
    /// Least spacing, in bout step periods: a strike's echo and a pocket's second peak per step
    /// come within half a step; irregular steps in turns and stops come down to about 0.6
    /// (real-dev lower-back walks: intervals 0.35 to 1.2 s around a 0.6 s period).
    var minimumSpacing = 0.6
    /// Longest interval between two steps of one walk, s: the slowest gait counted (0.6 steps/s
    /// is 1.7 s per step) with a margin; a pause longer than 2 s ends a walk.
    var longestInterval = 2.0
    /// Longest interval, in bout step periods: the first and last steps of a walk are slower than
    /// its steady ones, by up to about 1.5 periods on the real-dev lower-back walks (tuned part);
    /// handling before and after a walk (a phone put into a purse) is not at the walk's rhythm.
    var longestSpacing = 1.7
    /// Steps counted one by one before the first step the rhythm finds: one stride. The onset
    /// search (`BoutEdges.onset`) finds where strides begin to repeat, which misses at most the
    /// first stride from standing.
    var maximumBefore = 2
    /// Steps counted one by one after the last step the rhythm credits. The rhythm stops where
    /// the last stride still repeats the one before (`BoutEdges.offset`), and a stop takes a
    /// stride or so of slowing steps: on the real-dev tuned part 2, 3 and 4 read 6.24%, 5.45%
    /// and 5.45% MAPE; 3 adds fewer steps to handling after a walk.
    var maximumAfter = 3
    /// Least height of a strike, as a fraction of the bout's RMS gait amplitude: the first and
    /// last steps of a walk are softer than the steady ones (real-dev lower-back walks, tuned
    /// part: 0.6, 0.8 and 1.0 read 5.54%, 5.45% and 6.97% MAPE there, and oxford 1.30%, 1.18%, 1.16%).
    var heightFraction = 0.8
    /// Least height of a walk's closing step, the last strike chained before a pause, as a
    /// fraction of the bout's RMS gait amplitude: the trunk brakes over the last stride and the
    /// closing step lands it into the stand at about half the walking speed, so its impact is
    /// about half a walking step's. Measured on the real-dev lower-back walks (tuned part, s02 and
    /// s03, the |a| − 1 g peak of the trial's last strike): 0.51 to 0.92 × the walk's RMS (s02_t1
    /// 0.09 g of 0.177 g, s02_t2 0.14 of 0.195, s03_t5 0.15 of 0.163), below `heightFraction` on
    /// s02_t1 and s02_t2, whose short walks each lost that step; the settle after a stop's last
    /// strike peaks at 0.23 to 0.35 × (0.04 to 0.06 g), and 0.23 to 0.43 s after that strike,
    /// mostly inside `minimumSpacing` (docs/steps.md, session 25).
    var closingFraction = 0.5
    /// Closing steps at most, chained at `closingFraction`: the last stride, over which the trunk
    /// brakes (s02_t1's last two strikes peak at 0.13 and 0.09 g, 0.73 and 0.51 × its 0.177 g RMS).
    var closingSteps = 2
    /// Least height of a strike, g: a phone held still or lying moves under 0.012 g
    /// (`ActivityClassifier.stillDeviation`); breathing and sway stay below about 0.03 g.
    var minimumHeight = 0.05

    /// Strikes before `reference` (a step or the expected first step), latest first, not
    /// earlier than `floor`. `period` is the bout's step period in ticks, `level` its RMS, g.
    func before(_ reference: Int, floor: Int, period: Int, level: Double, rateHz: Double, in x: RingBuffer) -> [Int] {
        chain(from: reference, direction: -1, limit: max(floor, x.oldestIndex + max(1, period / 2)), count: maximumBefore,
              fraction: heightFraction, period: period, level: level, rateHz: rateHz, in: x)
    }

    /// Strikes after `reference` (a counted step), earliest first, before `ceiling`: at most
    /// `maximumAfter`, or at most `count` when given (a walk closing at a pause,
    /// `BoutRules.strikesBeforePause`).
    /// Before a pause (`count` given) the chain's last link may be the walk's softer closing
    /// steps (`closingFraction`): up to `closingSteps` strikes after the last one of full height.
    func after(_ reference: Int, ceiling: Int, count: Int? = nil, period: Int, level: Double, rateHz: Double,
               in x: RingBuffer) -> [Int] {
        let limit = min(ceiling, x.count - 1 - max(1, period / 2))
        var out = chain(from: reference, direction: 1, limit: limit, count: count ?? maximumAfter, fraction: heightFraction,
                        period: period, level: level, rateHz: rateHz, in: x)
        guard let count, out.count < count else { return out }
        out += chain(from: out.last ?? reference, direction: 1, limit: limit, count: min(closingSteps, count - out.count), fraction: closingFraction,
                     period: period, level: level, rateHz: rateHz, in: x)
        return out
    }

    /// Up to `count` strikes chained from `reference` in `direction` (±1), not beyond `limit`,
    /// each at least `fraction` × `level` high.
    private func chain(from reference: Int, direction: Int, limit: Int, count: Int, fraction: Double, period: Int,
                       level: Double, rateHz: Double, in x: RingBuffer) -> [Int] {
        let threshold = max(minimumHeight, fraction * level)
        let longest = min(Int(longestInterval * rateHz), Int(longestSpacing * Double(period)))
        let shortest = max(1, Int(minimumSpacing * Double(period)))
        let half = max(1, period / 2)
        var out: [Int] = []
        var current = reference
        while out.count < count {
            var found: Int?
            var distance = shortest
            while distance <= longest, (current + direction * distance - limit) * direction <= 0 {
                let i = current + direction * distance
                if x[i] >= threshold, isLocalMaximum(i, half: half, in: x) { found = i; break }
                distance += 1
            }
            guard let found else { return out }
            out.append(found)
            current = found
        }
        return out
    }

    /// Is `x[i]` the highest value within `half` ticks either side?
    private func isLocalMaximum(_ i: Int, half: Int, in x: RingBuffer) -> Bool {
        let v = x[i]
        for k in (i - half)...(i + half) where k != i && x[k] > v { return false }
        return true
    }
}
