/// Unit conversions used across layers. Each constant names its source.
public enum Units {
    /// Standard gravity in m/s² (CGPM 1901; also the definition IIO and Android use).
    public static let standardGravity = 9.80665
    /// hPa per kPa (IIO reports pressure in kPa: Documentation/ABI/testing/sysfs-bus-iio).
    public static let hectopascalsPerKilopascal = 10.0
    /// Pa per hPa.
    public static let pascalsPerHectopascal = 100.0
    /// IIO reports temperature in milli °C (sysfs-bus-iio, in_temp_raw).
    public static let celsiusPerMillicelsius = 0.001
    /// Degrees per radian.
    public static let degreesPerRadian = 180.0 / Double.pi

    /// m/s² → g.
    @inlinable public static func g(fromMetersPerSecondSquared value: Double) -> Double { value / standardGravity }
}
