import IMULocation
import Pedometer

/// Feeds gpsd's ground speed to the pedometer, batch by batch, and asks gpsd for reports only
/// while the pedometer's activity needs them (`GPSDemand`, docs/gps.md "Power").
///
/// A reading is stamped on the samples' clock: the batch's last sample time less the reading's
/// age on `BootClock`, so a replay paced in real time (`--realtime`) or the simulator pairs with
/// a live gpsd as a sensor does.
public struct GroundSpeedInput: Sendable {
    public let feed: GPSSpeedFeed
    private var demand = GPSDemand()
    private var seen = 0
    private var lastStamp = -Double.infinity
    /// Readings given to the pedometer (for the summary).
    public private(set) var used = 0

    public init(feed: GPSSpeedFeed) { self.feed = feed }

    /// Reads gpsd at `address` (as `GPSSelection.setting` gives it) from now on; lines about
    /// gpsd's state go to `notify`. For the step service; tools build theirs from their flags.
    public static func started(address: String, notify: @escaping @Sendable (String) -> Void) -> GroundSpeedInput? {
        guard let a = try? GPSDClient.address(address) else { return nil }
        let feed = GPSSpeedFeed(host: a.host, port: a.port,
                                settings: "check the address (gps = HOST:PORT in the config file), or set gps = no", notify: notify)
        feed.start()
        return GroundSpeedInput(feed: feed)
    }

    /// Whether gpsd answers now: ground speed is a capability while it does.
    public var isAvailable: Bool { feed.status.connection == .connected }

    /// Runs `batch` through `pedometer` with gpsd's readings placed among its samples
    /// (`Pedometer.process(contentsOf:speeds:into:)`), then updates the demand. A batch arrives
    /// after its span (`HandOver.seconds`), and the readings of that span are waiting by then:
    /// each goes in at its own time (with only the newest reading after the batch, windows late in
    /// the next batch were judged by a reading up to 3 s old, `ActivityVote.freshness`, and fell
    /// back to the IMU).
    public mutating func process(_ batch: [MotionSample], pedometer: inout Pedometer, into events: inout [PedometerEvent]) {
        guard let last = batch.last?.time else { return }
        let readings = newReadings(endingAt: last)
        pedometer.process(contentsOf: batch, speeds: readings, into: &events)
        used += readings.count
        let snapshot = pedometer.snapshot
        feed.setWanted(demand.update(time: snapshot.time, activity: snapshot.activity, confidence: snapshot.confidence))
    }

    /// gpsd's readings since the last call, stamped on the samples' clock for a batch that ends at
    /// sample time `last`: `last` less each reading's age on `BootClock` (at most the freshness),
    /// strictly increasing. The readings of a batch's span are waiting when the batch arrives.
    public mutating func newReadings(endingAt last: Double) -> [GroundSpeed] {
        let now = BootClock.nowSeconds()
        var readings: [GroundSpeed] = []
        for reading in feed.newReadings(after: &seen) {
            let age = min(max(0, now - reading.time), GPSSpeedFeed.freshness)
            let stamp = max(lastStamp, last - age)
            guard stamp > lastStamp else { continue }
            lastStamp = stamp
            readings.append(GroundSpeed(time: stamp, metersPerSecond: reading.metersPerSecond, accuracy: reading.accuracy))
        }
        return readings
    }

    /// Seconds of sample time with reports requested from gpsd.
    public var requestedSeconds: Double { demand.onSeconds }
}
