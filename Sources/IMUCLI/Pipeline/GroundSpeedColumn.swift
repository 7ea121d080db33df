import IMULocation
import Pedometer

/// The `gnss_speed` column `imu-record` writes (docs/CONTRACTS.md §2): each row holds the newest
/// gpsd reading placed at or before its time, while that reading is fresh
/// (`GPSSpeedFeed.freshness`), and is empty otherwise. These are the readings the live fusion
/// uses at that sample (`GroundSpeedInput` places them the same way), so a replay of the file
/// reproduces it; a fix is never written on rows from before it arrived.
public struct GroundSpeedColumn: Sendable {
    private var input: GroundSpeedInput
    /// Placed readings the rows have not reached yet, oldest first.
    private var pending: [GroundSpeed] = []
    /// The newest reading the rows have reached.
    private var current: GroundSpeed?

    /// The column fed by `feed`.
    public init(feed: GPSSpeedFeed) { input = GroundSpeedInput(feed: feed) }

    /// Fills the column of `batch` from gpsd's readings of its span.
    public mutating func fill(_ batch: inout [MotionSample]) {
        guard let last = batch.last?.time else { return }
        pending += input.newReadings(endingAt: last)
        Self.place(&pending, current: &current, into: &batch)
    }

    /// Fills the column of `batch` (rows in increasing time) from `pending` (readings stamped on
    /// the samples' clock, increasing): each row takes the newest reading at or before it,
    /// starting from `current`, while fresh. The readings the rows reach leave `pending`; the
    /// newest of them becomes `current`, for the next batch.
    static func place(_ pending: inout [GroundSpeed], current: inout GroundSpeed?, into batch: inout [MotionSample]) {
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
