/// What was measured while the device rested still on one face.
public struct FaceCapture: Sendable, Equatable {
    public var face: Face
    /// Accelerometer readings, g.
    public var acceleration: AxisStatistics
    /// Gyroscope readings, rad/s (count 0 when the source has no gyroscope).
    public var rotationRate: AxisStatistics
    /// First and last sample time, seconds.
    public var start: Double
    public var end: Double

    public init(face: Face, acceleration: AxisStatistics, rotationRate: AxisStatistics, start: Double, end: Double) {
        self.face = face
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.start = start
        self.end = end
    }

    public var seconds: Double { end - start }
}
