/// The deadlines of a reader that polls a chip's data registers (no FIFO, no IIO buffer): one
/// read per period on an absolute grid, so the schedule never drifts with the reads' own time.
///
/// A data register holds one sample: a period that passes without a read is a sample the chip
/// made and nobody saw. When a read comes back late by whole periods (a starved CPU, a slow bus or
/// iiod link), the schedule skips them rather than bursting to catch up (a burst would read the
/// same register values again), and counts them: `SampleLosses.missedPolls`. A read late by less
/// than one period is jitter, not a loss: it still serves its own period.
struct PollSchedule {
    /// Seconds between reads.
    let period: Double
    /// The next read's deadline, s on the reader's clock.
    private(set) var next: Double
    /// Periods behind beyond which the clock is taken to have jumped: 10⁹ periods is 35 hours
    /// even at the fastest polled rate (8 kHz) and still converts to an Int exactly.
    static let jumpPeriods = 1e9

    init(period: Double, start: Double) {
        self.period = period
        next = start
    }

    /// After the read of the current period, done at `now` (s): moves to the next deadline that
    /// has not passed by a whole period yet and returns how many deadlines were passed without a
    /// read.
    mutating func advance(now: Double) -> Int {
        next += period
        let behind = ((now - next) / period).rounded(.down)
        // Range-checked before the conversion: a clock that jumped (or a NaN) counts nothing.
        guard behind >= 1, behind < Self.jumpPeriods else {
            if !(behind < Self.jumpPeriods) { next = now }
            return 0
        }
        next += behind * period
        return Int(behind)
    }
}
