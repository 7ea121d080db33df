/// Decides whether a device is at rest from the spread of its recent readings.
///
/// Still = over the last `windowSeconds`, every axis's standard deviation is below the limits.
/// Spread rather than magnitude is used for the gyroscope because an uncalibrated gyro reads its
/// bias at rest, which can be ±20 °/s (MPU-6050 PS §6.1, ZRO tolerance).
public struct StillDetector: Sendable {
    public var windowSeconds: Double
    /// Largest per-axis standard deviation of acceleration at rest, g.
    public var accelerationLimit: Double
    /// Largest per-axis standard deviation of rotation rate at rest, rad/s.
    public var rotationLimit: Double

    private var times: [Double] = []
    private var accelerations: [Vector3] = []
    private var rotations: [Vector3?] = []
    private var head = 0   // index of the oldest sample still in the window

    /// Fewest samples that make a verdict (5: at 25 Hz a 0.5 s window holds 12).
    static let minimumSamples = 5

    public init(windowSeconds: Double, accelerationLimit: Double, rotationLimit: Double) {
        self.windowSeconds = windowSeconds
        self.accelerationLimit = accelerationLimit
        self.rotationLimit = rotationLimit
    }

    public mutating func add(time: Double, acceleration: Vector3, rotationRate: Vector3?) {
        times.append(time)
        accelerations.append(acceleration)
        rotations.append(rotationRate)
        // Keep the newest sample at or before the window's start too, so the window spans its full
        // length even when samples arrive with gaps (a slow bus, a loaded iiod link).
        while head + 1 < times.count && time - times[head + 1] >= windowSeconds { head += 1 }
        // Compact now and then so memory stays bounded by the window.
        if head > 1024 {
            times.removeFirst(head); accelerations.removeFirst(head); rotations.removeFirst(head)
            head = 0
        }
    }

    public mutating func reset() {
        times.removeAll(keepingCapacity: true)
        accelerations.removeAll(keepingCapacity: true)
        rotations.removeAll(keepingCapacity: true)
        head = 0
    }

    /// True once the window spans its full length with enough samples to judge.
    public var hasVerdict: Bool {
        guard let last = times.last, times.count - head >= Self.minimumSamples else { return false }
        return last - times[head] >= windowSeconds
    }

    public var accelerationStatistics: AxisStatistics {
        var s = AxisStatistics()
        for i in head..<accelerations.count { s.add(accelerations[i]) }
        return s
    }

    public var rotationStatistics: AxisStatistics {
        var s = AxisStatistics()
        for i in head..<rotations.count { if let r = rotations[i] { s.add(r) } }
        return s
    }

    /// Still (true) or moving (false), judged on the current window; nil until `hasVerdict`, so
    /// too few samples never count as motion.
    public var isStill: Bool? {
        guard hasVerdict else { return nil }
        let a = accelerationStatistics.standardDeviation
        guard a.max() <= accelerationLimit else { return false }
        let r = rotationStatistics
        return r.count < 2 || r.standardDeviation.max() <= rotationLimit
    }
}
