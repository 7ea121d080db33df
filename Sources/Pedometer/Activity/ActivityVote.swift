/// Fuses the IMU's view with ground speed by a weighted vote, as the activity seed does, once per
/// analysis window; `ActivitySegmenter` then adds the hysteresis.
///
/// Voters (weights in brackets):
/// - The IMU label (3; 2 for stationary, 0 for unknown): `ActivityClassifier`, or cycling from
///   `CyclingDetector`. It plays the seed's motion coprocessor, which the seed trusts at 3 for
///   cycling; accelerometer variance is already inside it (stationary, vehicle vibration).
/// - The step counter's cadence (2): running above 2.4 steps/s, walking in any bout.
/// - Ground speed, Kalman-smoothed, while a fix is fresh and its uncertainty below
///   `maximumSigma`:
///   - faster than `vehicleSpeed` (12 m/s, 43 km/h: beyond riding in traffic): vehicle (3);
///   - `drivingSpeed` to 12 m/s (6 m/s, the seed's driving threshold): vehicle (2) and
///     cycling (1): a car in town, or a bicycle on the road (the seed's scenario G pedals at
///     6 m/s; road cyclists ride at 8 to 10 m/s);
///   - 2.2 to 6 m/s without steps: cycling (2) and vehicle (1), the speed of a commuter's
///     bicycle (15 to 22 km/h) or of a car in slow traffic.
///   Between 2.2 and 12 m/s speed alone cannot tell a bicycle from a car, so it never outvotes
///   the IMU's pedalling (cycling, 3) or vibration (vehicle, 3): it only adds to the margin.
///   - 0.5 to 2.2 m/s without steps: vehicle (1), a crawling car (the seed's traffic jam);
///   - below 0.5 m/s without steps: stationary (2).
///   With steps, ground speed votes for them (walking below 2.2 m/s, running above): it never
///   outvotes steps, so a treadmill (ground speed 0) and a walk along a moving train count.
/// The winner needs a margin over the runner-up; confidence is high at a margin of 4 or more,
/// medium at 2 or more, low below. When a receiver has been seen but has no fresh fix (an
/// underground car park), the IMU decides alone and its confidence drops one level.
struct ActivityVote: Sendable {
    static let vehicleSpeed = 12.0      // m/s
    static let drivingSpeed = 6.0       // m/s
    static let walkingSpeedMax = 2.2    // m/s (the seed's walking/running boundary)
    static let stillSpeed = 0.5         // m/s: below GNSS Doppler noise of a pedestrian fix plus margin
    /// A fix older than this is stale, s: gpsd reports at 1 Hz; three missed reports is a dropout.
    static let freshness = 3.0
    /// An estimate more uncertain than this cannot tell walking from riding, m/s.
    static let maximumSigma = 1.5

    private var filter = SpeedKalman()
    private(set) var hasReceiver = false
    /// Readings ignored as implausible (`GroundSpeed.isPlausible`), and the fastest of them, m/s
    /// (nil when none was a finite speed): a recording's `gnss_speed` may hold up to 515 m/s
    /// (docs/file-formats.md), which the vote does not use; the tools say how many.
    private(set) var ignoredReadings = 0
    private(set) var fastestIgnored: Double?

    mutating func observe(_ reading: GroundSpeed) {
        guard reading.isPlausible else {
            ignoredReadings += 1
            if reading.metersPerSecond.isFinite { fastestIgnored = Swift.max(fastestIgnored ?? reading.metersPerSecond, reading.metersPerSecond) }
            return
        }
        hasReceiver = true
        if let e = filter.estimate, reading.time - e.time > 10 * Self.freshness { filter.reset() }
        filter.update(reading)
    }

    /// The smoothed speed at `time` when fresh.
    func speed(at time: Double) -> SmoothedSpeed? {
        guard let e = filter.predict(at: time), time - e.time <= Self.freshness else { return nil }
        return e
    }

    /// A fresh, certain enough ground speed above any walk's (`walkingSpeedMax`) at `time`.
    func beyondWalking(at time: Double) -> Bool {
        guard let speed = speed(at: time), speed.sigma <= Self.maximumSigma else { return false }
        return speed.metersPerSecond > Self.walkingSpeedMax
    }

    func decide(imu: (ActivityClass, ActivityConfidence), cadence: Double?, time: Double)
        -> (ActivityClass, ActivityConfidence) {
        guard let speed = speed(at: time), speed.sigma <= Self.maximumSigma else {
            guard hasReceiver else { return imu }
            return (imu.0, imu.1 == .high ? .medium : .low)
        }
        var votes = [Int](repeating: 0, count: ActivityClass.allCases.count)
        func add(_ c: ActivityClass, _ w: Int) { votes[Self.index(c)] += w }
        switch imu.0 {
        case .stationary: add(.stationary, 2)
        case .unknown: break
        default: add(imu.0, 3)
        }
        if let cadence {
            add(cadence > GaitGate.runningCadence ? .running : .walking, 2)
        }
        let v = speed.metersPerSecond
        if cadence != nil {
            add(v > Self.walkingSpeedMax ? .running : .walking, 1)
        } else if v > Self.vehicleSpeed {
            add(.vehicle, 3)
        } else if v > Self.drivingSpeed {
            add(.vehicle, 2)
            add(.cycling, 1)
        } else if v > Self.walkingSpeedMax {
            add(.cycling, 2)
            add(.vehicle, 1)
        } else if v > Self.stillSpeed {
            add(.vehicle, 1)
        } else {
            add(.stationary, 2)
        }
        var ranked = ActivityClass.allCases.map { ($0, votes[Self.index($0)]) }
        ranked.sort { $0.1 > $1.1 }
        let (winner, score) = ranked[0]
        let margin = score - ranked[1].1
        guard score > 0, margin > 0 else { return (imu.0, .low) }
        return (winner, margin >= 4 ? .high : margin >= 2 ? .medium : .low)
    }

    private static func index(_ c: ActivityClass) -> Int { ActivityClass.allCases.firstIndex(of: c)! }
}
