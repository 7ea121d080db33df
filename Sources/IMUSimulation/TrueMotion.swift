/// What the device really did at one instant: the quantities the sensors measure, before any
/// sensor error (for checking orientation filters, vertical-acceleration extraction, altimeters).
public struct TrueMotion: Sendable, Equatable {
    /// Device → world rotation (world: x east, y north, z up).
    public var attitude: Quaternion
    /// Angular velocity in the device frame, rad/s (what a perfect gyroscope reads).
    public var rotationRate: Vector3
    /// Acceleration of the device in the world frame, g, gravity not included.
    public var acceleration: Vector3
    /// Altitude above sea level, m.
    public var altitude: Double

    /// Specific force in the device frame, g (what a perfect accelerometer reads, before vibration).
    public var specificForce: Vector3 { attitude.inverseRotate(acceleration + Vector3(0, 0, 1)) }
    /// The device-frame unit vector pointing up (a perfect gravity estimate).
    public var up: Vector3 { attitude.inverseRotate(Vector3(0, 0, 1)) }
}
