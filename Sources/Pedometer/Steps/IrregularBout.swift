/// A short irregular walk whose rhythm opened a bout but misread it (issue 14: "a walk of 4 or
/// more steps with intervals of 0.3 to 2 s counts in full").
///
/// The rhythm stage reads a walk's steps off its repeats: a walk whose steps come in pairs 0.3 s
/// apart repeats once per pair, and is counted at half its steps. When such a bout closes at a
/// pause, `ImpactChain` still holds its impacts: if one chain that passes the chain's own rules
/// (out of stillness, back into it, under `ChainRules.longestChain`, strikes of a kind) covers
/// the bout, and the rhythm disagrees with its strikes (`IrregularBoutRules`), the walk is counted
/// strike by strike instead, as a walk the rhythm never saw would be.
///
/// The rhythm it is judged against is the bout's cadence, the median of what its gait windows
/// read (`BoutCadences`), not the latest window's: the window that sees the pause holds a second
/// of stillness or more, so its repeat is read off the walk's last steps alone (issue 14, session
/// 21: tuned seed 1's 5th walk at 100 Hz, 8 steps 0.3 to 1.7 s apart, read 0.62 steps/s in the
/// windows that opened and counted it, and 1.86 in the one that saw the pause, the interval of its
/// last two steps; judged at 1.86 the chain of its 8 strikes agreed with it, 0.67, and the walk
/// kept the rhythm's 5).
enum IrregularBout {
    /// Recounts the bout that closes at tick `pause`, opened when counting stood at `openedFrom`
    /// (every entry the ledger holds from then on is the bout's), whose first entry (its resume)
    /// is at tick `start`, at `cadence` (steps/s: the bout's, `BoutCadences.median`). Entries
    /// already committed stay; the chain's strikes after them replace the rest, when they are at
    /// least `IrregularBoutRules.minimumGain` more than the bout's pending steps, or exactly one
    /// more, a strike the rhythm passed over (`passedOver`). When nothing of the bout was committed (the
    /// pedometer holds a bout that may be recounted, `StepCounter.recountableFrom`), every strike
    /// after its opening counts, the ones before its first step too. Returns the tick of the last
    /// strike counted, nil when the bout's count stands.
    static func recount(_ ledger: inout StepLedger, chain: ImpactChain, rules: IrregularBoutRules, from openedFrom: Int,
                        start: Int, pause: Int, cadence: Double, gait: RingBuffer, origin: Double) -> Int? {
        guard cadence > 0, let ticks = chain.strikes(after: openedFrom, before: pause, in: gait,
                                                      longest: Int((rules.longestChain * ledger.rateHz).rounded())),
              let first = ticks.first, let last = ticks.last, last > first else { return nil }
        let span = Double(last - first) / ledger.rateHz
        let disagrees = Double(ticks.count - 1) >= rules.minimumDisagreement * cadence * span
        let interval = ledger.interval, committed = ledger.committedThrough
        func time(_ tick: Int) -> Double { origin + Double(tick) * interval }
        // What is committed stays: the strikes after it replace the bout's pending steps.
        // Nothing of the bout is committed while its resume, its first entry, is still pending
        // (commits go in the order counted), even where commits went past its start before it
        // opened (a walk back-filled when its rhythm showed late).
        let whole = ledger.isPending(.resume(time: time(start)))
        let counted = whole ? -Double.infinity : committed
        let kept = ticks.filter { time($0) > counted }
        guard let head = kept.first else { return nil }
        let cut = whole ? time(openedFrom) : max(time(openedFrom), committed)
        // The chain covers the bout: no pending step of it comes before the chain's first strike
        // (less half the shortest interval between two steps, `ChainRules.shortestInterval`).
        guard ledger.pendingSteps(from: cut, to: time(first) - chain.rules.shortestInterval / 2) == 0 else { return nil }
        // The strikes change the count by more than one impact's doubt (`IrregularBoutRules.minimumGain`),
        // or by one strike the rhythm passed over between two of its steps (`passedOver`).
        let steps = ledger.pendingStepTimes(from: cut, to: time(pause) + interval)
        let gain = kept.count - steps.count
        guard disagrees && gain >= rules.minimumGain
            || gain == 1 && passedOver(kept, steps: steps, cadence: cadence, rebound: chain.reboundTicks, gait: gait, time: time) else { return nil }
        ledger.retract(from: cut)
        let strikeCadence = Double(ticks.count - 1) / span
        // The bout's resume went with it unless it was committed: it comes back at the first strike.
        if ledger.resumeRetracted { ledger.note(.resume(time: time(head))) }
        // Walked time as `ImpactChain`'s walks count it: one step period per step.
        ledger.strikes(kept, cadence: strikeCadence, origin: origin)
        return last
    }
}

extension IrregularBout {
    /// Is exactly one of `strikes` (ticks, oldest first) a step the rhythm passed over, every
    /// other strike a step it counted (`steps`, s, one fewer)? Cadence × time counts an irregular
    /// walk's steps on average and can fall a step behind where one interval is much shorter than
    /// its neighbours (issue 14, session 22: the simulator's lower-back daily life, tuned seed 1,
    /// its 6th walk, 11 steps 0.5 to 0.9 s apart, read at 1.16 steps/s: a strike of 0.60 g, 0.68 s
    /// after a counted step and 0.52 s before the next, lay 1.2 s between two counted steps and
    /// was not counted; 10 of 11 at 100 and 25 Hz, a ratio of 1.09, which
    /// `IrregularBoutRules.minimumDisagreement` cannot tell from a rhythm that read the walk
    /// right). It is, when
    /// - every counted step lies within a quarter step of its own strike (the reach by which the
    ///   ledger snaps a step onto the highest sample, `StepLedger`), in order, so the rhythm's
    ///   steps are the chain's strikes less one;
    /// - that one lies between two counted steps, not before the first or after the last: a walk's
    ///   edges hold impacts that are no step (the trunk rising as the swing foot leaves the ground
    ///   before a first strike, its settling after a last one; real-dev s02/s03, tuned), and the
    ///   rhythm's back-fill and tail chain judge those;
    /// - it lies more than the loading response (`ChainRules.reboundSeconds`) after the strike
    ///   before it, where a strike's own second peak can come;
    /// - it rises at least as high as the weaker of the two strikes around it: the rhythm passed
    ///   over a strike of the walk's kind, while an impact inside a step (the phone knocked as it
    ///   is handled) is weaker than the strikes around it (the simulator's daily life, tuned seeds
    ///   2 and 3 at 100 Hz, 5th walk: 0.08 g 0.46 s after a 0.61 g strike, next 0.21 g; 0.16 g
    ///   0.30 s after a 0.31 g strike, next 0.18 g: one impact more than the walk's 5 steps).
    static func passedOver(_ strikes: [Int], steps: [Double], cadence: Double, rebound: Int, gait: RingBuffer,
                           time: (Int) -> Double) -> Bool {
        guard strikes.count == steps.count + 1, steps.count >= 2, cadence > 0 else { return false }
        let reach = 0.25 / max(cadence, 0.5)
        var missed: Int?
        var k = 0
        for (index, strike) in strikes.enumerated() {
            if k < steps.count, abs(steps[k] - time(strike)) <= reach {
                k += 1
            } else {
                guard missed == nil else { return false }
                missed = index
            }
        }
        guard k == steps.count, let m = missed, m > 0, m < strikes.count - 1 else { return false }
        let before = strikes[m - 1], at = strikes[m], after = strikes[m + 1]
        return at - before > rebound && gait[at] >= min(gait[before], gait[after])
    }
}

/// The cadences (steps/s) the open bout's gait windows read, newest last: the rhythm that
/// `IrregularBout` judges a closing bout's strikes against. Bounded: only the windows that can
/// have read part of one chain are kept (`ChainRules.longestChain` plus a window), so a long walk
/// keeps a fixed amount, and nothing is allocated per window.
struct BoutCadences: Sendable {
    private var readings: [Double]
    private var next = 0
    private(set) var count = 0

    /// Keeps the newest `capacity` readings.
    init(capacity: Int) { readings = [Double](repeating: 0, count: max(1, capacity)) }

    /// A new bout: forgets every reading.
    mutating func reset() { count = 0; next = 0 }

    mutating func append(_ cadence: Double) {
        readings[next] = cadence
        next = (next + 1) % readings.count
        count = min(count + 1, readings.count)
    }

    /// The median reading (the upper one of an even count, as `ImpactChain` takes a median), nil
    /// with none: the rhythm most of the bout's windows read, whichever single window misread a
    /// pair of steps as one or, holding the pause, read only the last steps' interval.
    var median: Double? {
        guard count > 0 else { return nil }
        let sorted = readings.prefix(count).sorted()
        return sorted[count / 2]
    }
}
