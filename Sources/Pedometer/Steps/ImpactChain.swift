/// Short walks between pauses, counted impact by impact (issue 14: "a walk of 4 or more steps
/// between pauses counts in full", down to 0.6 steps/s and with intervals of 0.3 to 2 s).
///
/// The rhythm stage needs two repeats in a 4 s window; a walk of four slow or irregular steps
/// has none. Such a walk is still four foot strikes in a row out of stillness and back into
/// it: impacts (local maxima of the gait signal) spaced like steps, each standing well above
/// the stillness before the first of them, and followed by stillness again. A vehicle's bumps
/// and rail joints come out of continuous engine and road vibration, not out of stillness, and
/// a ride adds no chain at all once the activity is `vehicle` (`StepCounter`).
///
/// Impacts are found as the ticks arrive (`observe`), `halfWidth` ticks late; a chain is judged
/// once it is over (`completed`): no impact for `ChainRules.longestInterval`.
struct ImpactChain: Sendable {
    struct Impact: Sendable {
        /// Absolute tick of the peak.
        var tick: Int
        /// Height of the peak above the lowest value within `halfWidth` of it, g.
        var height: Double
        /// Standard deviation of the gait signal over `stillSeconds`, ending `initiationSeconds`
        /// before the rise, g.
        var before: Double
    }

    let rules: ChainRules
    /// A peak is the highest value within this many ticks either side (half the shortest interval).
    let halfWidth: Int
    let longestTicks: Int
    let longestChainTicks: Int
    let shortestTicks: Int
    /// `ChainRules.reboundSeconds` in ticks.
    let reboundTicks: Int
    /// Recent impacts, oldest first (at most `capacity`).
    private(set) var impacts: [Impact] = []
    private let capacity = 32

    /// Ticks over which stillness is judged (`ChainRules.stillSeconds`), and how long before a
    /// strike it ends (`ChainRules.initiationSeconds`).
    let quietTicks: Int
    let initiationTicks: Int
    /// Ticks `observe` looks back over from the newest: the peak's two sides and the stillness
    /// before its rise (`1 + 2·halfWidth + initiationTicks + quietTicks`).
    private let lookBack: Int

    /// Standard deviation of `x[from..<from+count]`, g.
    static func deviation(_ x: RingBuffer, from: Int, count: Int) -> Double {
        var s = 0.0, s2 = 0.0
        for k in from..<(from + count) { s += x[k]; s2 += x[k] * x[k] }
        let mean = s / Double(count)
        return max(0, s2 / Double(count) - mean * mean).squareRoot()
    }

    init(rules: ChainRules, rateHz: Double) {
        quietTicks = Int((rules.stillSeconds * rateHz).rounded())
        initiationTicks = Int((rules.initiationSeconds * rateHz).rounded())
        self.rules = rules
        shortestTicks = Int((rules.shortestInterval * rateHz).rounded())
        longestTicks = Int((rules.longestInterval * rateHz).rounded())
        reboundTicks = Int((rules.reboundSeconds * rateHz).rounded())
        longestChainTicks = Int((rules.longestChain * rateHz).rounded())
        halfWidth = max(1, shortestTicks / 2)
        lookBack = 1 + 2 * halfWidth + initiationTicks + quietTicks
        impacts.reserveCapacity(capacity)
    }

    mutating func reset() { impacts.removeAll(keepingCapacity: true) }

    /// Looks at the ticks `gait` gained after it held `seen` of them, in order: for each count c
    /// from seen + 1 through `gait.count`, tick c − 1 − halfWidth as the ring stood once tick
    /// c − 1 had arrived (the step counter hands a hop's ticks over at once, `observeImpacts`).
    mutating func observe(_ gait: RingBuffer, after seen: Int) {
        let n = gait.count
        // Every tick looked at is still held: the oldest, c − lookBack, is at least 0 (counts
        // below `lookBack` are skipped) and at least n − capacity (checked for the first c).
        guard lookBack <= gait.capacity else { return }
        var c = max(seen, lookBack - 1)
        guard c < n else { return }
        precondition(n - (c + 1) <= gait.capacity - lookBack, "ImpactChain.observe: tick \(c) is no longer held")
        let minimum = rules.minimumHeight
        // The plane read through one pointer for the hop's ticks, not the ring's subscript per
        // value (callgrind, session 25).
        gait.withUnsafeValues { v, mask in
            while c < n {
                c += 1
                // `look`'s first test, here: most ticks are below the height and end there.
                guard v[(c &- 1 &- halfWidth) & mask] >= minimum else { continue }
                look(gait, v, mask: mask, count: c)
            }
        }
    }

    /// Tick `count − 1 − halfWidth` of `gait` as it stood once tick `count − 1` had arrived, a tick
    /// `observe` found at least `rules.minimumHeight` high; `v` and `mask` are `gait`'s values
    /// (`RingBuffer.withUnsafeValues`).
    @inline(__always)
    private mutating func look(_ gait: RingBuffer, _ v: UnsafePointer<Double>, mask: Int, count: Int) {
        let i = count - 1 - halfWidth
        // At least `rules.minimumHeight`: `observe` tests that before it calls.
        let peak = v[i & mask]
        // A tick beside a higher or equal one is no peak: its two neighbours first (halfWidth ≥ 1),
        // where most ticks above the height end (a rise or a fall), before the whole
        // neighbourhood (callgrind, session 25).
        guard v[(i &+ 1) & mask] < peak, v[(i &- 1) & mask] < peak else { return }
        var trough = peak
        // Ticks i − halfWidth ... i + halfWidth but i, held (`observe`'s precondition): indices
        // of a ring of a few thousand ticks, no overflow to check.
        var k = i &- halfWidth
        while k <= i &+ halfWidth {
            if k != i {
                let x = v[k & mask]
                if x >= peak { return }
                trough = min(trough, x)
            }
            k &+= 1
        }
        // Height above the trough beside it: a sensor's scale error offsets |a| − 1 g by a few
        // hundredths of a g (0.03 g on some real-dev walks while standing), the trough does not.
        let height = peak - trough
        guard height >= rules.minimumHeight else { return }
        let impact = Impact(tick: i, height: height, before: Self.deviation(gait, from: i - halfWidth - initiationTicks - quietTicks, count: quietTicks))
        // Two peaks closer than two steps can be are one strike (its echo): keep the higher.
        if let last = impacts.last, i - last.tick < shortestTicks {
            if height > last.height { impacts[impacts.count - 1] = Impact(tick: i, height: height, before: last.before) }
            return
        }
        if impacts.count == capacity {
            // The oldest forgotten: the others moved down one place in one block move, and the
            // newest written over the last place (`removeFirst` and `append` went through the
            // array's general range replacement, about 200 instructions; callgrind, session 21).
            impacts.withUnsafeMutableBufferPointer { p in
                p.baseAddress!.update(from: p.baseAddress! + 1, count: p.count - 1)
                p[p.count - 1] = impact
            }
        } else {
            impacts.append(impact)
        }
    }

    /// A finished chain of impacts after tick `floor`: at least `minimumImpacts` in a row,
    /// spaced `shortestInterval` to `longestInterval`, out of stillness and back into it (the
    /// newest `stillSeconds` of `gait`), and nothing after it for `longestInterval` (or the
    /// stream ended). Returns the chain's ticks, less one weak impact at either end but a soft
    /// closing strike (`ChainRules.closingFraction`; nil when none), and forgets every impact up to its end either way once it is over. Allocates only
    /// for a chain that passed the cheap tests.
    mutating func completed(after floor: Int, in gait: RingBuffer, streamEnded: Bool = false) -> [Int]? {
        let now = gait.count - 1
        impacts.removeAll { $0.tick < floor }
        guard let last = impacts.last, streamEnded || now - last.tick > longestTicks else { return nil }
        defer { impacts.removeAll(keepingCapacity: true) }
        return judged(impacts[chainStart(endingAt: impacts.count - 1)...], in: gait, stillFrom: gait.count - quietTicks)
    }

    /// The chain of impacts after tick `floor` that ends before tick `end`, where a still second
    /// begins (a bout closed at a pause, `IrregularBout`): its strikes by the same rules as
    /// `completed`, the stillness after it read from `end` on. Forgets nothing.
    /// `longest` (ticks) bounds its span from first to last strike, `longestChainTicks` unless given.
    func strikes(after floor: Int, before end: Int, in gait: RingBuffer, longest: Int? = nil) -> [Int]? {
        guard end + quietTicks <= gait.count, end >= gait.oldestIndex,
              let lastIndex = impacts.lastIndex(where: { $0.tick < end }) else { return nil }
        let first = chainStart(endingAt: lastIndex)
        guard impacts[first].tick >= floor else { return nil }
        return judged(impacts[first...lastIndex], in: gait, stillFrom: end, longest: longest ?? longestChainTicks)
    }

    /// A walk's first strike out of stillness, before the strike at `anchor` (a step the walk
    /// counts), when `HeelStrikes` asked more spacing of it than a step needs: the impact just
    /// before `anchor`'s, at or after `floor` and before `latest`, when the gait signal was still
    /// (`ChainRules.stillDeviation`) over the second before its rise, as `completed` asks of a
    /// chain's first strike. It strikes out of standing, so it is no echo or second peak of an
    /// earlier strike (what the spacing in bout periods guards against), and two impacts are
    /// already at least `ChainRules.shortestInterval` apart (the least step interval). It must lie
    /// more than the loading response (`ChainRules.reboundSeconds`, 0.45 s) before `anchor`, or
    /// the two may be one strike and its second peak (real-dev s02/s03, tuned: impacts 0.30 to
    /// 0.42 s after a strike with no step in the truth; the simulator's stairs, tuned seed 2,
    /// 100 Hz: two impacts 0.30 s apart where the walk's first step is, counted as two). Nil when
    /// there is none.
    func strikeOutOfStillness(before anchor: Int, floor: Int, latest: Int) -> Int? {
        guard let at = impacts.lastIndex(where: { abs($0.tick - anchor) <= halfWidth }), at > 0 else { return nil }
        let candidate = impacts[at - 1]
        guard candidate.tick >= floor, candidate.tick < latest, candidate.before <= rules.stillDeviation,
              anchor - candidate.tick > reboundTicks else { return nil }
        return candidate.tick
    }

    /// Index of the first impact of the chain ending at `impacts[last]`: walks back while the
    /// spacing is a step's.
    private func chainStart(endingAt last: Int) -> Int {
        var first = last
        while first > 0, impacts[first].tick - impacts[first - 1].tick <= longestTicks { first -= 1 }
        return first
    }

    /// The strikes of `chain` (oldest first) when it passes the rules, the stillness after it read
    /// over `quietTicks` from tick `stillFrom`.
    private func judged(_ chain: ArraySlice<Impact>, in gait: RingBuffer, stillFrom: Int, longest: Int? = nil) -> [Int]? {
        guard let start = chain.first, let last = chain.last,
              chain.count >= rules.minimumImpacts, last.tick - start.tick <= longest ?? longestChainTicks else { return nil }
        // Out of stillness and back into it.
        guard start.before <= rules.stillDeviation,
              Self.deviation(gait, from: stillFrom, count: quietTicks) <= rules.stillDeviation else { return nil }
        let heights = chain.map(\.height).sorted()
        let median = heights[heights.count / 2]
        // Foot strikes, not a weight shift: a walk's typical strike is strong.
        guard median >= rules.minimumMedianHeight else { return nil }
        // A walk's edges are soft: the settle after its last step, or the soft foot-fall that
        // opens or closes it, is no step of its kind. One weak impact at each end is left out.
        let weakest = rules.weakestFraction * median
        // A strike's rebound is part of it: a weak impact within the loading response after a
        // strike (`ChainRules.reboundSeconds`) is left out, not a weak step that refuses the chain.
        var steps: ArraySlice<Impact> = []
        for impact in chain {
            if let strike = steps.last, strike.height >= weakest, impact.height < weakest,
               impact.tick - strike.tick <= reboundTicks { continue }
            steps.append(impact)
        }
        if let head = steps.first, head.height < weakest { steps = steps.dropFirst() }
        // The last strike into a stand is soft but a step (`ChainRules.closingFraction`): kept when
        // it comes a step after a strike of the walk's kind, later than that strike's rebound. A
        // weaker impact, or one within the rebound (the settle), is the one weak end left out.
        if let tail = steps.last, tail.height < weakest, !isClosingStep(steps, median: median) { steps = steps.dropLast() }
        let closing = steps.last.map { $0.height < weakest } == true && isClosingStep(steps, median: median)
        // Every strike of one walk is of a kind: none far below the walk's typical strike.
        guard steps.count >= rules.minimumImpacts,
              steps.dropLast(closing ? 1 : 0).allSatisfy({ $0.height >= weakest }) else { return nil }
        return steps.map(\.tick)
    }

    /// Whether the last of `steps` (oldest first) is a walk's soft closing strike: at least
    /// `ChainRules.closingFraction` × `median` (g), after a strike of at least `weakestFraction` ×
    /// `median` by more than `reboundTicks`.
    private func isClosingStep(_ steps: ArraySlice<Impact>, median: Double) -> Bool {
        guard steps.count >= 2, let tail = steps.last else { return false }
        let before = steps[steps.endIndex - 2]
        return tail.height >= rules.closingFraction * median && before.height >= rules.weakestFraction * median
            && tail.tick - before.tick > reboundTicks
    }
}
