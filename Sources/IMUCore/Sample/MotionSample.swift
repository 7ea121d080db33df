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
///
/// Storage: the readings are kept as plain `Double`s with one byte of presence bits, 88 bytes a
/// sample; stored as optionals of 3-vectors they took 160 (each `Vector3?` is 33 bytes padded to
/// 48), and the pipeline streams millions of samples (`Pedometer.process(contentsOf:)`). An
/// absent reading's storage is zero, so equality is that of the optionals.
public struct MotionSample: Sendable, Equatable {
    /// Seconds on CLOCK_BOOTTIME for live sources; recording seconds for replays.
    public var time: Double
    @usableFromInline var ax = 0.0, ay = 0.0, az = 0.0
    @usableFromInline var gx = 0.0, gy = 0.0, gz = 0.0
    @usableFromInline var storedPressure = 0.0, storedTemperature = 0.0, storedGNSSSpeed = 0.0
    /// Which readings are present (`Present`).
    @usableFromInline var present: UInt8 = 0

    @usableFromInline enum Present {
        @usableFromInline static let acceleration: UInt8 = 1, rotationRate: UInt8 = 2, pressure: UInt8 = 4
        @usableFromInline static let temperature: UInt8 = 8, gnssSpeed: UInt8 = 16
    }

    /// Specific force in g, device frame.
    @inlinable public var acceleration: Vector3? {
        get { present & Present.acceleration != 0 ? Vector3(ax, ay, az) : nil }
        set { let v = Self.mark(newValue, Present.acceleration, &present) ?? .zero; (ax, ay, az) = (v.x, v.y, v.z) }
    }
    /// Angular rate in rad/s, device frame.
    @inlinable public var rotationRate: Vector3? {
        get { present & Present.rotationRate != 0 ? Vector3(gx, gy, gz) : nil }
        set { let v = Self.mark(newValue, Present.rotationRate, &present) ?? .zero; (gx, gy, gz) = (v.x, v.y, v.z) }
    }
    /// Absolute pressure in hPa.
    @inlinable public var pressure: Double? {
        get { present & Present.pressure != 0 ? storedPressure : nil }
        set { storedPressure = Self.mark(newValue, Present.pressure, &present) ?? 0 }
    }
    /// Temperature in °C.
    @inlinable public var temperature: Double? {
        get { present & Present.temperature != 0 ? storedTemperature : nil }
        set { storedTemperature = Self.mark(newValue, Present.temperature, &present) ?? 0 }
    }
    /// Ground speed from a GNSS fix in m/s; nil without a fix.
    @inlinable public var gnssSpeed: Double? {
        get { present & Present.gnssSpeed != 0 ? storedGNSSSpeed : nil }
        set { storedGNSSSpeed = Self.mark(newValue, Present.gnssSpeed, &present) ?? 0 }
    }

    /// Sets or clears `bit` in `present` for `value`; returns `value` (its storage is zero when nil).
    @inlinable static func mark<T>(_ value: T?, _ bit: UInt8, _ present: inout UInt8) -> T? {
        present = value == nil ? present & ~bit : present | bit
        return value
    }

    @inlinable
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
