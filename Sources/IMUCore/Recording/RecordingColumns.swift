/// The columns a recording knows (docs/CONTRACTS.md §2). Unknown columns are ignored on read.
public enum RecordingColumn: String, CaseIterable, Sendable {
    case t, ax, ay, az, gx, gy, gz, p, temp
    /// Ground speed from GPS, m/s; empty without a fix. Positions are never recorded.
    case gnssSpeed = "gnss_speed"

    /// Decimal places written for each column, chosen below each sensor's noise floor:
    /// 1 µs for time, 10 µg for acceleration, 10 µrad/s for rotation, 0.01 Pa for pressure, 1 m°C,
    /// 1 mm/s for GNSS speed (receivers quote Doppler speed to about 0.05 m/s).
    public var decimals: Int {
        switch self {
        case .t: return 6
        case .ax, .ay, .az, .gx, .gy, .gz: return 5
        case .p: return 4
        case .temp, .gnssSpeed: return 3
        }
    }

    /// The columns needed to store what a source with these capabilities measures.
    public static func columns(for capabilities: SensorCapabilities) -> [RecordingColumn] {
        var columns: [RecordingColumn] = [.t]
        if capabilities.accelerometer { columns += [.ax, .ay, .az] }
        if capabilities.gyroscope { columns += [.gx, .gy, .gz] }
        if capabilities.barometer { columns.append(.p) }
        if capabilities.thermometer { columns.append(.temp) }
        if capabilities.gnssSpeed { columns.append(.gnssSpeed) }
        return columns
    }
}
