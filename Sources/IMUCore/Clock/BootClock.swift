#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CLOCK_BOOTTIME: monotonic and counting time spent in suspend, the clock IIO uses when
/// `current_timestamp_clock` is `boottime`. Nanosecond integers are kept where precision matters.
public enum BootClock {
    /// Nanoseconds since boot, including suspend.
    public static func nowNanoseconds() -> Int64 {
        var ts = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_BOOTTIME, &ts)
        #else
        clock_gettime(CLOCK_MONOTONIC, &ts)
        #endif
        return Units.nanoseconds(of: ts)
    }

    /// Seconds since boot, including suspend.
    public static func nowSeconds() -> Double { seconds(fromNanoseconds: nowNanoseconds()) }

    /// Converts nanoseconds to seconds without losing the integer part's precision.
    @inlinable public static func seconds(fromNanoseconds ns: Int64) -> Double {
        Double(ns / Units.nanosecondsPerSecond) + Units.seconds(fromNanoseconds: ns % Units.nanosecondsPerSecond)
    }
}
