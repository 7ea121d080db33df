/// One ground-speed reading from a GNSS receiver: speed over ground only. IMUKit never takes a
/// position (docs/activity.md, "Privacy").
public struct GroundSpeed: Sendable, Equatable {
    /// Time of the fix on the samples' clock, s.
    public var time: Double
    /// Speed over ground, m/s (≥ 0).
    public var metersPerSecond: Double
    /// One-sigma error of the speed, m/s, as the receiver reports it; nil when it reports none.
    public var accuracy: Double?

    public init(time: Double, metersPerSecond: Double, accuracy: Double? = nil) {
        self.time = time
        self.metersPerSecond = metersPerSecond
        self.accuracy = accuracy
    }

    /// The fastest ground speed the activity vote uses, m/s: faster than any land vehicle in
    /// service (the fastest trains in service run at 120 m/s, 430 km/h); beyond it a reading is a
    /// receiver in an aircraft or a bad fix, and is ignored and counted (`ActivityVote.ignoredReadings`).
    public static let fastestLandSpeed = 150.0

    /// A reading worth using: finite, not negative, not faster than any land vehicle
    /// (`fastestLandSpeed`), with a finite, non-negative accuracy when there is one.
    public var isPlausible: Bool {
        time.isFinite && metersPerSecond.isFinite && (0...Self.fastestLandSpeed).contains(metersPerSecond)
            && (accuracy.map { $0.isFinite && $0 >= 0 } ?? true)
    }
}

/// The Kalman-smoothed ground speed.
public struct SmoothedSpeed: Sendable, Equatable {
    /// Estimated speed, m/s.
    public var metersPerSecond: Double
    /// One-sigma uncertainty of the estimate, m/s.
    public var sigma: Double
    /// Time of the last reading that went into it, s.
    public var time: Double
}
