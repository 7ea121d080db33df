/// Timestamps for a FIFO batch: the newest reading is stamped with CLOCK_BOOTTIME at read time and
/// the older ones are spread back at the measured output rate. The chip's oscillator differs from
/// the datasheet's rate by up to a few percent, so the rate is measured from readings per second
/// of boot clock once enough time has passed.
public struct FIFOTimestamper: Sendable {
    /// The configured output rate in Hz, used until a measurement exists.
    public let nominalRateHz: Double
    /// Measure only over at least this long (s), so one late read does not skew the rate.
    public var minimumSpanSeconds = 2.0
    /// The least time between two samples, s: 1 µs, the resolution of a recording's `t` column
    /// (RecordingColumn.t, 6 decimals) and far below any sample period (125 µs at 8 kHz), so
    /// times stay strictly increasing (CONTRACTS §2) and distinct when written.
    static let minimumStepSeconds = 1e-6
    private var firstReadNs: Int64?
    private var readingsSinceFirst = 0
    private var lastTime: Double?

    public init(nominalRateHz: Double) { self.nominalRateHz = nominalRateHz }

    /// The rate used for spreading, in Hz: measured when possible, else nominal. A measurement
    /// more than 20 % off nominal (a FIFO reset or overflow in the span) is ignored.
    public var rateHz: Double {
        guard let first = firstReadNs, let lastNs = lastReadNs else { return nominalRateHz }
        let span = Units.seconds(fromNanoseconds: lastNs - first)
        guard span >= minimumSpanSeconds, readingsSinceFirst > 0 else { return nominalRateHz }
        let measured = Double(readingsSinceFirst) / span
        return abs(measured / nominalRateHz - 1) < 0.2 ? measured : nominalRateHz
    }
    private var lastReadNs: Int64?

    /// Times (s, boot clock) for `count` readings drained at `readNs`, oldest first, strictly
    /// increasing and after every time returned before.
    public mutating func times(count: Int, readNs: Int64) -> [Double] {
        guard count > 0 else { return [] }
        if firstReadNs == nil {
            firstReadNs = readNs   // readings drained at the first read pre-date the span
        } else {
            readingsSinceFirst += count
        }
        lastReadNs = readNs
        let period = 1 / rateHz
        let now = BootClock.seconds(fromNanoseconds: readNs)
        var out = (0..<count).map { now - Double(count - 1 - $0) * period }
        if let last = lastTime, out[0] <= last {
            // Overlap with the previous batch (jitter in the read time): squeeze into the gap.
            let step = (now - last) / Double(count)
            out = (0..<count).map { last + Double($0 + 1) * max(step, Self.minimumStepSeconds) }
        }
        lastTime = out[count - 1]
        return out
    }
}
