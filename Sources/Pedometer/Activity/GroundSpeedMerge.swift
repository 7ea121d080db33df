// MARK: ground speed among a batch's samples (issue 15)
extension Pedometer {
    /// Feeds a batch of samples in order with the ground-speed readings of its span: each reading
    /// is observed before the first sample at or after its time, so the vote's speed is as fresh
    /// inside the batch as a feed sample by sample would make it (a batch arrives after its span,
    /// `HandOver.seconds`, and its readings are waiting by then). Readings later than the batch's
    /// last sample are observed after it. `speeds` must be in time order. The one place where
    /// readings and samples are merged: `GroundSpeedInput` (tools, daemon) and the benchmarks.
    public mutating func process(contentsOf batch: [MotionSample], speeds: [GroundSpeed], into events: inout [PedometerEvent]) {
        guard !speeds.isEmpty else { return process(contentsOf: batch, into: &events) }
        var next = 0
        batch.withUnsafeBufferPointer { samples in
            for i in samples.indices {
                while next < speeds.count, speeds[next].time <= samples[i].time {
                    observe(speeds[next])
                    next += 1
                }
                process(samples[i], into: &events)
            }
        }
        for reading in speeds[next...] { observe(reading) }
    }
}
