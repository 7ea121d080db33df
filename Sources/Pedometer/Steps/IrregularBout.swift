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
    /// (every entry the ledger holds from then on is the bout's) at `cadence` (steps/s). Entries
    /// already committed stay; the chain's strikes after them replace the rest. Returns the tick
    /// of the last strike counted, nil when the bout's count stands.
    static func recount(_ ledger: inout StepLedger, chain: ImpactChain, rules: IrregularBoutRules, from openedFrom: Int,
                        pause: Int, cadence: Double, gait: RingBuffer, origin: Double) -> Int? {
        guard cadence > 0, let ticks = chain.strikes(after: openedFrom, before: pause, in: gait),
              let first = ticks.first, let last = ticks.last, last > first else { return nil }
        let span = Double(last - first) / ledger.rateHz
        guard Double(ticks.count - 1) >= rules.minimumDisagreement * cadence * span else { return nil }
        let interval = ledger.interval, committed = ledger.committedThrough
        func time(_ tick: Int) -> Double { origin + Double(tick) * interval }
        // What is committed stays: the strikes after it replace the bout's pending steps.
        let kept = ticks.filter { time($0) > committed }
        guard let head = kept.first else { return nil }
        let cut = max(time(openedFrom), committed)
        // The chain covers the bout: no pending step of it comes before the chain's first strike
        // (less half the shortest interval between two steps, `ChainRules.shortestInterval`).
        guard ledger.pendingSteps(from: cut, to: time(first) - chain.rules.shortestInterval / 2) == 0 else { return nil }
        ledger.retract(from: cut)
        let strikeCadence = Double(ticks.count - 1) / span
        // The bout's resume went with it unless it was committed.
        if time(openedFrom) > committed { ledger.note(.resume(time: time(head))) }
        // Walked time as `ImpactChain`'s walks count it: one step period per step.
        ledger.strikes(kept, cadence: strikeCadence, origin: origin)
        return last
    }
}
