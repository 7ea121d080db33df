/// The four kinds of IIO channel this project reads, with the kernel unit and the project unit
/// (docs/CONTRACTS.md §1). Kernel units: Documentation/ABI/testing/sysfs-bus-iio —
/// in_accel_*: m/s², in_anglvel_*: rad/s, in_pressure*: kPa, in_temp*: milli °C
/// (for in_temp_input and for in_temp_raw × scale alike).
public enum IIOQuantity: String, Sendable, CaseIterable {
    case acceleration
    case angularRate = "angular-rate"
    case pressure
    case temperature

    /// libiio channel-id stem: "accel" for accel_x, "anglvel", "pressure", "temp".
    public var channelStem: String {
        switch self {
        case .acceleration: "accel"
        case .angularRate: "anglvel"
        case .pressure: "pressure"
        case .temperature: "temp"
        }
    }

    public var isVector: Bool { self == .acceleration || self == .angularRate }

    /// Multiplies a value in the kernel's unit to give the project's unit.
    public var unitFactor: Double {
        switch self {
        case .acceleration: 1 / Units.standardGravity            // m/s² → g
        case .angularRate: 1                                     // rad/s → rad/s
        case .pressure: Units.hectopascalsPerKilopascal          // kPa → hPa
        case .temperature: Units.celsiusPerMillicelsius          // m°C → °C
        }
    }

    public var kernelUnit: String {
        switch self {
        case .acceleration: "m/s²"
        case .angularRate: "rad/s"
        case .pressure: "kPa"
        case .temperature: "m°C"
        }
    }

    public var projectUnit: String {
        switch self {
        case .acceleration: "g"
        case .angularRate: "rad/s"
        case .pressure: "hPa"
        case .temperature: "°C"
        }
    }

    /// Channel ids that carry this quantity: "accel_x", "accel_y", "accel_z" for vectors; the
    /// first of "pressure", "pressure0", … for scalars (the caller picks the one present).
    public var axisChannelIDs: [String] {
        isVector ? ["x", "y", "z"].map { "\(channelStem)_\($0)" } : [channelStem, channelStem + "0"]
    }
}

/// How one value is read and converted: `project = (raw + offset) × scale × unitFactor`, or
/// `input × unitFactor` for processed channels (`in_*_input` is already scaled: sysfs-bus-iio).
public struct IIOChannelConversion: Sendable, Equatable {
    /// libiio channel id.
    public var channel: String
    /// "raw" or "input": the attribute polled.
    public var attribute: String
    /// Added to the raw value before scaling (in_*_offset; 0 when absent).
    public var offset: Double
    /// Multiplies (raw + offset) to give the kernel unit (in_*_scale; 1 when absent or processed).
    public var scale: Double
    /// Kernel unit → project unit.
    public var unitFactor: Double

    @inlinable public func convert(_ value: Double) -> Double { (value + offset) * scale * unitFactor }
}
