#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Nanoseconds per second (SI prefix nano, 10⁻⁹; `timespec.tv_nsec` counts up to it).
    /// CLOCK_BOOTTIME, IIO timestamps and capture deadlines are whole nanoseconds (Int64).
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000
    /// Nanoseconds per millisecond (SI), for poll(2)'s millisecond timeout.
    public static let nanosecondsPerMillisecond: Int64 = 1_000_000
    /// Milliseconds per second (SI), for libiio's millisecond timeout.
    public static let millisecondsPerSecond = 1000.0
    /// Microseconds per second (SI), for usleep(3).
    public static let microsecondsPerSecond = 1_000_000.0

    /// s → ns, unrounded (× 10⁹).
    @inlinable public static func nanoseconds(fromSeconds value: Double) -> Double { value * Double(nanosecondsPerSecond) }
    /// ns → s as one product (× 10⁻⁹), for spans and deadlines; `BootClock.seconds(fromNanoseconds:)`
    /// keeps the full precision of a large absolute reading.
    @inlinable public static func seconds(fromNanoseconds value: Int64) -> Double { Double(value) * 1e-9 }
    /// A `timespec` (clock_gettime) as whole nanoseconds.
    @inlinable public static func nanoseconds(of ts: timespec) -> Int64 { Int64(ts.tv_sec) * nanosecondsPerSecond + Int64(ts.tv_nsec) }

    /// m/s² → g.
    @inlinable public static func g(fromMetersPerSecondSquared value: Double) -> Double { value / standardGravity }
}
