/// A three-component vector in the device frame (x right edge, y top edge, z out of the screen).
/// Units are stated wherever a vector is stored: g for acceleration, rad/s for rotation rate.
public typealias Vector3 = SIMD3<Double>

/// One reading from whatever sensors a source has, taken at one instant.
///
/// Units and frames follow docs/CONTRACTS.md §1:
/// - `acceleration` is specific force in g (a device lying face-up reads (0, 0, +1) g, as Linux IIO
///   and Android report it; Core Motion's `CMAcceleration` has the opposite sign for gravity).
/// - `rotationRate` is in rad/s, right-hand rule about the device axes.
/// - `pressure` is absolute, in hPa. `temperature` is in °C.
/// - `gnssSpeed` is the ground speed from GPS in m/s (the `gnss_speed` column of a recording);
///   positions are never kept.
/// A `nil` field means "no reading from that sensor in this sample", never zero.
public struct MotionSample: Sendable, Equatable {
    /// Seconds on CLOCK_BOOTTIME for live sources; recording seconds for replays.
    public var time: Double
    /// Specific force in g, device frame.
    public var acceleration: Vector3?
    /// Angular rate in rad/s, device frame.
    public var rotationRate: Vector3?
    /// Absolute pressure in hPa.
    public var pressure: Double?
    /// Temperature in °C.
    public var temperature: Double?
    /// Ground speed from a GNSS fix in m/s; nil without a fix.
    public var gnssSpeed: Double?

    public init(time: Double, acceleration: Vector3? = nil, rotationRate: Vector3? = nil,
                pressure: Double? = nil, temperature: Double? = nil, gnssSpeed: Double? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.pressure = pressure
        self.temperature = temperature
        self.gnssSpeed = gnssSpeed
    }
}
