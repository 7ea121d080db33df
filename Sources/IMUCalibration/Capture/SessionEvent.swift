/// What a six-position session tells the person doing it. Each notice is emitted once when it
/// starts to apply, not on every sample.
public enum SessionEvent: Sendable, Equatable {
    /// Put the device on `face` next (`number` of 6).
    case place(Face, number: Int)
    /// The device is moving; waiting for it to rest.
    case moving
    /// Resting, but not on a face: tilted `tiltDegrees` from the nearest axis.
    case notOnAFace(tiltDegrees: Double)
    /// Resting on a face other than the one asked for.
    case wrongFace(found: Face, expected: Face)
    /// Resting on a face that was already captured.
    case repeatedFace(Face, expected: Face?)
    /// Resting on the right face; capture starts after the settle time (or Enter).
    case settling(Face)
    /// Averaging: `progress` from 0 to 1.
    case capturing(Face, progress: Double)
    /// The device moved while averaging; that face's capture was thrown away.
    case motionDuringCapture(Face)
    case captured(FaceCapture)
    /// All six faces are captured.
    case finished
}

/// Tunables of a session, with where each default comes from.
public struct SessionSettings: Sendable, Equatable {
    /// Seconds averaged per face. 5 s at 100 Hz averages 500 readings: noise 0.003 g / √500 ≈ 0.00013 g
    /// per face mean, the seed article's 10 s figure at half the wait.
    public var captureSeconds: Double = 5
    /// Seconds the device must already be still before averaging starts (hand taken away, table settled).
    public var settleSeconds: Double = 1
    /// Length of the still-detection window, s.
    public var stillWindowSeconds: Double = 0.5
    /// Still limit on each accelerometer axis's standard deviation, g. A resting MPU-6050 shows
    /// ≈ 0.004 g (400 µg/√Hz at ≈ 100 Hz bandwidth, PS §6.2); a hand-held device 0.01–0.05 g.
    public var accelerationLimit: Double = 0.02
    /// Still limit on each gyroscope axis's standard deviation, rad/s (≈ 1.7 °/s; resting noise is
    /// ≈ 0.05 °/s, hand tremor several °/s).
    public var rotationLimit: Double = 0.03
    /// Largest tilt from an axis that still counts as resting on a face, degrees.
    public var maxTiltDegrees: Double = 20
    /// Largest change of the window mean from the capture mean during averaging, g: a slow push
    /// that keeps the spread low still moves the mean.
    public var captureDriftLimit: Double = 0.03
    /// Guided (true): faces must come in `Face.guidedOrder`. Recordings (false): any order.
    public var ordered: Bool = true

    public init() {}
}
