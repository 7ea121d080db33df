import Synchronization

/// Samples a source lost before the pipeline saw them, by cause (docs/ARCHITECTURE.md, "Capture").
/// Every figure is counted where the loss happens; tools print them at the end of a run.
public struct SampleLosses: Sendable, Equatable {
    /// Sample sets lost to a chip FIFO that overflowed. Estimated from the output rate and the
    /// time the FIFO was left alone, since the chip does not say how many it overwrote.
    public var bufferOverflow = 0
    /// Trigger periods without a scan in a buffered IIO capture: gaps in the kernel's timestamps
    /// (`ScanGapCounter`). The gap is what is measured, not its cause: the kernel dropping scans
    /// from a full buffer (a reader stalled longer than the buffer lasts) and a trigger that
    /// skipped periods (an hrtimer in a starved guest) leave the same trace in the stamps.
    public var periodsWithoutScan = 0
    /// Samples dropped because their time did not increase (CONTRACTS §2: strictly increasing).
    public var nonIncreasingTime = 0
    /// Samples dropped by the bounded hand-over buffer because the consumer fell behind.
    public var stalledConsumer = 0
    /// Samples a polled reader (data registers, no FIFO or IIO buffer) missed: read periods that
    /// passed without a read because the reads were late (a starved CPU, a slow bus or iiod link),
    /// so the chip overwrote its one sample unseen (`PollSchedule`).
    public var missedPolls = 0
    /// Optional sensors that stopped mid-run, each with the reason ("barometer bmp280 on
    /// /dev/i2c-1 @0x76 stopped answering"): what they measured (floors) stops, the rest goes on.
    public var lostSensors: [String] = []
    /// Barometer readings left out because their pressure or temperature lay outside
    /// `RecordingLimits` (250–1300 hPa, −100…150 °C): output registers read mid-update (reported
    /// for the ST LPS22HB) or a failing sensor. The sample they rode on carries no pressure; it
    /// is not lost, so this is not part of `total`.
    public var outOfRangePressure = 0

    public init() {}

    /// All samples lost.
    public var total: Int { bufferOverflow + periodsWithoutScan + nonIncreasingTime + stalledConsumer + missedPolls }

    /// What was counted after `earlier`, an older snapshot of the same counter: a long-running
    /// reader (imu-stepd) hands each growth on once, whatever order the reports arrive in.
    public func since(_ earlier: SampleLosses) -> SampleLosses {
        var d = SampleLosses()
        d.bufferOverflow = bufferOverflow - earlier.bufferOverflow
        d.periodsWithoutScan = periodsWithoutScan - earlier.periodsWithoutScan
        d.nonIncreasingTime = nonIncreasingTime - earlier.nonIncreasingTime
        d.stalledConsumer = stalledConsumer - earlier.stalledConsumer
        d.missedPolls = missedPolls - earlier.missedPolls
        d.outOfRangePressure = outOfRangePressure - earlier.outOfRangePressure
        d.lostSensors = Array(lostSensors.dropFirst(earlier.lostSensors.count))
        return d
    }

    /// Adds the counts of `b` (the losses of several sources, or of one source's reports).
    public static func += (a: inout SampleLosses, b: SampleLosses) {
        a.bufferOverflow += b.bufferOverflow
        a.periodsWithoutScan += b.periodsWithoutScan
        a.nonIncreasingTime += b.nonIncreasingTime
        a.stalledConsumer += b.stalledConsumer
        a.missedPolls += b.missedPolls
        a.outOfRangePressure += b.outOfRangePressure
        a.lostSensors += b.lostSensors
    }

    /// "dropped 0" or "dropped 12 (buffer overflow 10, stalled consumer 2)".
    public var summary: String {
        let parts = [("buffer overflow", bufferOverflow), ("trigger periods without a scan", periodsWithoutScan),
                     ("time not increasing", nonIncreasingTime),
                     ("stalled consumer", stalledConsumer), ("missed polls", missedPolls)].filter { $0.1 > 0 }
        let dropped = parts.isEmpty ? "dropped 0"
            : "dropped \(total) (" + parts.map { "\($0.0) \($0.1)" }.joined(separator: ", ") + ")"
        return dropped + (outOfRangePressure > 0 ? ", \(Self.pressureNote(outOfRangePressure))" : "")
    }

    /// "3 pressure readings outside 250–1300 hPa left out", from the limits themselves.
    public static func pressureNote(_ count: Int) -> String {
        let p = RecordingLimits.pressure
        return "\(counted(count, "pressure reading")) outside \(Int(p.lowerBound))–\(Int(p.upperBound)) hPa left out"
    }
}

/// The running loss counts of one source: written by its capture thread, read by the tool at
/// any time.
public final class LossCounter: Sendable {
    private let state = Mutex(SampleLosses())

    public init() {}

    public var snapshot: SampleLosses { state.withLock { $0 } }

    public func add(bufferOverflow n: Int) { if n > 0 { state.withLock { $0.bufferOverflow += n } } }
    public func add(periodsWithoutScan n: Int) { if n > 0 { state.withLock { $0.periodsWithoutScan += n } } }
    public func add(nonIncreasingTime n: Int) { if n > 0 { state.withLock { $0.nonIncreasingTime += n } } }
    public func add(stalledConsumer n: Int) { if n > 0 { state.withLock { $0.stalledConsumer += n } } }
    public func add(missedPolls n: Int) { if n > 0 { state.withLock { $0.missedPolls += n } } }
    public func add(outOfRangePressure n: Int) { if n > 0 { state.withLock { $0.outOfRangePressure += n } } }
    public func lost(sensor reason: String) { state.withLock { $0.lostSensors.append(reason) } }
}

extension SampleSource {
    /// Sources that read at the consumer's pace (a file, the simulator) cannot lose samples on
    /// the way: nothing is ever counted for them.
    public var losses: SampleLosses { SampleLosses() }
}
