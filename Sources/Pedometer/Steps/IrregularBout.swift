/// A short irregular walk whose rhythm opened a bout but misread it (issue 14: "a walk of 4 or
/// more steps with intervals of 0.3 to 2 s counts in full").
///
/// The rhythm stage reads a walk's steps off its repeats: a walk whose steps come in pairs 0.3 s
/// apart repeats once per pair, and is counted at half its steps. When such a bout closes at a
/// pause, `ImpactChain` still holds its impacts: if one chain that passes the chain's own rules
/// (out of stillness, back into it, under `ChainRules.longestChain`, strikes of a kind) covers
/// the bout, and the rhythm disagrees with its strikes (`IrregularBoutRules`), the walk is counted
/// strike by strike instead, as a walk the rhythm never saw would be.
enum IrregularBout {
    /// Recounts the bout that closes at tick `pause`, opened when counting stood at `openedFrom`
    /// (every entry the ledger holds from then on is the bout's), whose first entry (its resume)
    /// is at tick `start`, at `cadence` (steps/s). Entries already committed stay; the chain's
    /// strikes after them replace the rest. When nothing of the bout was committed (the
    /// pedometer holds a bout that may be recounted, `StepCounter.recountableFrom`), every strike
    /// after its opening counts, the ones before its first step too. Returns the tick of the last
    /// strike counted, nil when the bout's count stands.
    static func recount(_ ledger: inout StepLedger, chain: ImpactChain, rules: IrregularBoutRules, from openedFrom: Int,
                        start: Int, pause: Int, cadence: Double, gait: RingBuffer, origin: Double) -> Int? {
        guard cadence > 0, let ticks = chain.strikes(after: openedFrom, before: pause, in: gait),
              let first = ticks.first, let last = ticks.last, last > first else { return nil }
        let span = Double(last - first) / ledger.rateHz
        guard Double(ticks.count - 1) >= rules.minimumDisagreement * cadence * span else { return nil }
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
        ledger.retract(from: cut)
        let strikeCadence = Double(ticks.count - 1) / span
        // The bout's resume went with it unless it was committed: it comes back at the first strike.
        if ledger.resumeRetracted { ledger.note(.resume(time: time(head))) }
        // Walked time as `ImpactChain`'s walks count it: one step period per step.
        ledger.strikes(kept, cadence: strikeCadence, origin: origin)
        return last
    }
}
