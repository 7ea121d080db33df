/// The widest sensor values a recording may hold (docs/file-formats.md, "Plausible values").
/// Beyond them no sensor made the value: it is a unit mistake (m/s² for g, °/s for rad/s, Pa for
/// hPa), a corrupted line or a made-up number, and the reader refuses it with FILE:LINE before
/// anything downstream sums it or converts it to an integer. Each bound is the widest full scale
/// of the parts sold, with a quarter's room for a calibration that rescales and offsets the
/// reading (docs/calibration.md allows a scale 10 % off 1 and a bias of 0.5 g), or physics.
public enum RecordingLimits {
    /// |ax|, |ay|, |az| at most this, g: 500 g is the widest MEMS accelerometer full scale, ±400 g
    /// (ST H3LIS331DL, DocID023111: ±100/±200/±400 g; Analog Devices ADXL375 and ADXL377: ±200 g),
    /// plus a quarter. The chips IMUKit reads stop at ±16 g (MPU-6050, BMI160, LSM6DS, ICM-42688).
    public static var acceleration: Double { 500 }

    /// |gx|, |gy|, |gz| at most this, rad/s: 5000 °/s = 87.3 rad/s is the widest MEMS gyroscope
    /// full scale, ±4000 °/s (ST ISM330DHCX and LSM6DSV, NXP FXAS21002C), plus a quarter. The
    /// chips IMUKit reads stop at ±2000 °/s (34.9 rad/s). 5000 °/s is 87.27 rad/s; the bound is
    /// 87.3 as docs/CONTRACTS.md §2 writes it (|g| ≤ 87.3 rad/s): a recording holding 87.3 was refused.
    public static var rotationRate: Double { 87.3 }

    /// `p` within this, hPa: the widest range of the barometers IMUKit reads is 260–1260 hPa (ST
    /// LPS22HB, DocID027083; BMP280 300–1100, BMP388 300–1250, DPS310 300–1200 hPa), widened to
    /// 250–1300 hPa. 250 hPa is about 10 km up, above any summit on foot (Everest's is about
    /// 337 hPa); the highest sea-level pressure measured is 1084.8 hPa (Mongolia, 2001).
    public static var pressure: ClosedRange<Double> { 250...1300 }

    /// `temp` within this, °C: colder than any air measured on Earth (−89.2 °C, Vostok, 1983) and
    /// the 150 °C junction temperature beyond which silicon parts stop working (the chips' own
    /// operating range is −40…+85 °C).
    public static var temperature: ClosedRange<Double> { -100...150 }

    /// `gnss_speed` at most this, m/s: 1000 knots (514.4 m/s), above which GNSS receivers stop
    /// reporting (the COCOM export limit every civil receiver follows), rounded up.
    public static var groundSpeed: Double { 515 }

    /// Are these sample values within the limits? Fields without a reading hold 0 here (within
    /// every limit but the pressure's, which is checked only when `hasPressure`). The reader calls
    /// it for every sample: the limits are computed properties (constants folded into the code,
    /// where a `static let` of a computed value is a lazily initialised global checked at each use).
    @inline(__always)
    static func contains(ax: Double, ay: Double, az: Double, gx: Double, gy: Double, gz: Double,
                         p: Double, hasPressure: Bool, temp: Double, speed: Double) -> Bool {
        let a = acceleration, g = rotationRate, t = temperature, pa = pressure
        return abs(ax) <= a && abs(ay) <= a && abs(az) <= a && abs(gx) <= g && abs(gy) <= g && abs(gz) <= g
            && speed <= groundSpeed && temp >= t.lowerBound && temp <= t.upperBound
            && (!hasPressure || (p >= pa.lowerBound && p <= pa.upperBound))
    }

    /// What is wrong with `value` in `column`, and the fix; nil when it is within the limits.
    static func problem(_ column: RecordingColumn, _ value: Double, shown: String) -> (message: String, fix: String)? {
        switch column {
        case .ax, .ay, .az:
            guard abs(value) > acceleration else { return nil }
            return ("field '\(column.rawValue)' is \(shown) g, beyond ±500 g: no accelerometer measures that much "
                        + "(the widest full scale is ±400 g)",
                    "acceleration is in g (1 g = 9.80665 m/s²): divide m/s² by 9.80665; a value no unit explains is a corrupted line, to remove")
        case .gx, .gy, .gz:
            guard abs(value) > rotationRate else { return nil }
            return ("field '\(column.rawValue)' is \(shown) rad/s, beyond ±87.3 rad/s (5000 °/s): no gyroscope measures that much "
                        + "(the widest full scale is ±4000 °/s)",
                    "rotation rate is in rad/s: multiply °/s by 0.0174533 (π/180); a value no unit explains is a corrupted line, to remove")
        case .p:
            guard !pressure.contains(value) else { return nil }
            return ("field 'p' is \(shown) hPa, outside 250–1300 hPa: no barometer reads that (the widest range is 260–1260 hPa)",
                    "pressure is absolute, in hPa: divide Pa by 100, multiply kPa by 10; a value no unit explains is a corrupted line, to remove")
        case .temp:
            guard !temperature.contains(value) else { return nil }
            return ("field 'temp' is \(shown) °C, outside −100…150 °C: no sensor working reads that",
                    "temperature is in °C: from °F, (F − 32) / 1.8; from K, K − 273.15; a value no unit explains is a corrupted line, to remove")
        case .gnssSpeed:
            guard value > groundSpeed else { return nil }
            return ("field 'gnss_speed' is \(shown) m/s, beyond 515 m/s (1000 knots), above which GNSS receivers report no speed",
                    "ground speed is in m/s: divide km/h by 3.6, knots by 1.944; a value no unit explains is a corrupted line, to remove")
        case .t:
            return nil
        }
    }
}
