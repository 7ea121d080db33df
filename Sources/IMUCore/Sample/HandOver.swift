/// How often samples go from a source to the pipeline: the one decision behind every batch's
/// length (docs/power.md, "One hand-over cadence").
///
/// Every source hands its samples over in batches of `seconds` of sample time: an IIO buffer
/// block, the reads a polled IIO device gathers, the I²C poller's FIFO drains (a FIFO that holds
/// less is drained at its watermark, and its reads gathered until a hand-over is full), and a
/// recording or the simulator played in real time. The consumers (`imu-steps`' pipeline, the
/// daemon's sensor supervisor) pass each batch on as it comes and decide nothing about it.
public enum HandOver {
    /// Seconds of samples per hand-over. Each hand-over wakes the capture thread, one thread of
    /// the Swift pool that takes the batch, and in the daemon the engine and the D-Bus thread:
    /// at 1 s that is about 4 wake-ups a second of the ≤ 10 allowed (issues #11, #16), where
    /// 0.5 s measured 11–12/s in all (imu-bench-power). Longer would only delay what users see:
    /// steps and the live display follow within one hand-over (the display redraws at most twice
    /// a second, so once per hand-over here), and a SIGKILL of the daemon loses at most this on
    /// top of its `commit_seconds`. Ground speed from gpsd is interleaved among a batch's samples
    /// by time (`GroundSpeedInput`), so the length of a hand-over does not make it stale.
    public static let seconds = 1.0

    /// Samples in one hand-over at `rateHz` (at least one).
    public static func samples(atHz rateHz: Double) -> Int {
        max(1, Int((rateHz * seconds).rounded()))
    }
}
