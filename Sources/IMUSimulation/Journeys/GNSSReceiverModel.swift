/// One report of a simulated GNSS receiver: speed over ground and its one-sigma error.
public struct GNSSFix: Sendable, Equatable {
    /// Samples' clock, s.
    public var time: Double
    /// Speed over ground, m/s.
    public var speed: Double
    /// One-sigma error the receiver reports, m/s.
    public var accuracy: Double

    public init(time: Double, speed: Double, accuracy: Double) {
        self.time = time
        self.speed = speed
        self.accuracy = accuracy
    }
}

/// A consumer receiver's speed reports (illustrative figures, from the activity seed):
/// - one report a second with Doppler noise of `noise` (the seed: ±0.3 m/s at pedestrian speeds);
/// - a report missed now and then (`missRate`);
/// - multipath: now and then a reading off by several m/s (`multipathRate`, `multipathError`),
///   which the receiver reports with a matching large error (the Kalman filter weighs it down);
/// - no reports at all where a leg has no fix, and after it a cold start of `reacquireSeconds`
///   (the seed: 30 to 90 s from cold; a warm receiver after a car park is quicker).
public struct GNSSReceiverModel: Sendable {
    public var noise = 0.3
    public var missRate = 0.05
    public var multipathRate = 0.02
    public var multipathError = 4.0
    public var reacquireSeconds = 10.0
    private var lostAt: Double?

    public init() {}

    func fixes(speed: Double, hasFix: Bool, from start: Double, seconds: Double,
               random: inout Xoshiro256StarStar) -> [GNSSFix] {
        guard hasFix else { return [] }
        var result: [GNSSFix] = []
        var t = start + random.uniform(0...1)
        while t < start + seconds {
            defer { t += 1 }
            if random.uniform() < missRate { continue }
            var reading = speed + noise * random.gaussian()
            var accuracy = noise
            if random.uniform() < multipathRate {
                reading += multipathError * (random.uniform() < 0.5 ? -1 : 1)
                accuracy = multipathError
            }
            result.append(GNSSFix(time: t, speed: max(0, reading), accuracy: accuracy))
        }
        return result
    }
}
