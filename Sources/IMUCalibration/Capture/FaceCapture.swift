/// What was measured while the device rested still on one face.
public struct FaceCapture: Sendable, Equatable {
    public var face: Face
    /// Accelerometer readings, g.
    public var acceleration: AxisStatistics
    /// Gyroscope readings, rad/s (count 0 when the source has no gyroscope).
    public var rotationRate: AxisStatistics
    /// The accelerometer readings of the first and second half of the capture, kept apart so the
    /// quality figures can be measured on readings the fit did not use (two-fold cross-validation).
    public var halves: (first: AxisStatistics, second: AxisStatistics)?
    /// First and last sample time, seconds.
    public var start: Double
    public var end: Double

    public init(face: Face, acceleration: AxisStatistics, rotationRate: AxisStatistics, start: Double, end: Double,
                halves: (first: AxisStatistics, second: AxisStatistics)? = nil) {
        self.face = face
        self.halves = halves
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.start = start
        self.end = end
    }

    public var seconds: Double { end - start }

    public static func == (a: FaceCapture, b: FaceCapture) -> Bool {
        a.face == b.face && a.acceleration == b.acceleration && a.rotationRate == b.rotationRate
            && a.start == b.start && a.end == b.end && a.halves?.first == b.halves?.first && a.halves?.second == b.halves?.second
    }
}
