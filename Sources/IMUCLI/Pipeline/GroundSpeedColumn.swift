import IMULocation
import Pedometer

/// The `gnss_speed` column `imu-record` writes (docs/CONTRACTS.md §2): each row holds the newest
/// gpsd reading placed at or before its time, while that reading is fresh
/// (`GPSSpeedFeed.freshness`), and is empty otherwise. These are the readings the live fusion
/// uses at that sample (`GroundSpeedInput` places them the same way), so a replay of the file
/// reproduces it; a fix is never written on rows from before it arrived.
public struct GroundSpeedColumn: Sendable {
    private var input: GroundSpeedInput?
    /// Placed readings the rows have not reached yet, oldest first.
    private var pending: [GroundSpeed] = []
    /// The newest reading the rows have reached.
    private var current: GroundSpeed?

    /// The column fed by `feed`.
    public init(feed: GPSSpeedFeed) { input = GroundSpeedInput(feed: feed) }

    /// A column fed only through `place` (tests).
    init() {}

    /// Fills the column of `batch` from gpsd's readings of its span.
    public mutating func fill(_ batch: inout [MotionSample]) {
        guard let last = batch.last?.time, var input else { return }
        let readings = input.newReadings(endingAt: last)
        self.input = input
        place(readings, into: &batch)
    }

    /// Fills the column of `batch` from `readings` (stamped on the samples' clock, increasing).
    mutating func place(_ readings: [GroundSpeed], into batch: inout [MotionSample]) {
        pending += readings
        var reached = 0
        for k in batch.indices {
            let t = batch[k].time
            while reached < pending.count, pending[reached].time <= t {
                current = pending[reached]
                reached += 1
            }
            batch[k].gnssSpeed = current.flatMap { t - $0.time <= GPSSpeedFeed.freshness ? $0.metersPerSecond : nil }
        }
        pending.removeFirst(reached)
    }
}
