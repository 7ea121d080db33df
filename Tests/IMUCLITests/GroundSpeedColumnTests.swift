import Pedometer
import Testing
@testable import IMUCLI

/// imu-record's `gnss_speed` column (`GroundSpeedColumn.place`, without gpsd): a reading holds
/// from its own time on while fresh (`GPSSpeedFeed.freshness`, 3 s), as the live fusion uses it;
/// never on rows before it.
@Suite struct GroundSpeedColumnTests {
    static func rows(_ times: [Double]) -> [MotionSample] {
        times.map { MotionSample(time: $0, acceleration: Vector3(0, 0, 1)) }
    }

    @Test func aReadingHoldsFromItsTimeWhileFresh() {
        var pending = [GroundSpeed(time: 1.0, metersPerSecond: 5), GroundSpeed(time: 2.0, metersPerSecond: 6)]
        var current: GroundSpeed?
        var batch = Self.rows([0.5, 1.0, 1.5, 2.5, 4.9, 5.1])
        GroundSpeedColumn.place(&pending, current: &current, into: &batch)
        // Before the first fix: empty. From each reading's time on: its speed. 3 s after the
        // last one (5.0): empty again.
        #expect(batch.map(\.gnssSpeed) == [nil, 5, 5, 6, 6, nil])
    }

    /// A reading placed in one batch carries on into the next, and one that the next batch's rows
    /// have not reached yet waits for them.
    @Test func readingsCarryAcrossBatches() {
        var pending = [GroundSpeed(time: 0.25, metersPerSecond: 2), GroundSpeed(time: 1.2, metersPerSecond: 3)]
        var current: GroundSpeed?
        var first = Self.rows([0, 0.5, 1.0])
        GroundSpeedColumn.place(&pending, current: &current, into: &first)
        #expect(first.map(\.gnssSpeed) == [nil, 2, 2])
        #expect(pending.map(\.time) == [1.2] && current?.time == 0.25, "the reading not reached yet waits")
        var second = Self.rows([1.1, 1.2, 1.5])
        GroundSpeedColumn.place(&pending, current: &current, into: &second)
        #expect(second.map(\.gnssSpeed) == [2, 3, 3])
        #expect(pending.isEmpty && current?.time == 1.2)
    }

    /// With gpsd, the column is gpsd's: a value the source carried is replaced, or emptied
    /// without a fresh reading.
    @Test func theSourcesOwnValueIsReplaced() {
        var pending: [GroundSpeed] = []
        var current: GroundSpeed?
        var batch = [MotionSample(time: 1, acceleration: Vector3(0, 0, 1), gnssSpeed: 9)]
        GroundSpeedColumn.place(&pending, current: &current, into: &batch)
        #expect(batch[0].gnssSpeed == nil)
    }
}
