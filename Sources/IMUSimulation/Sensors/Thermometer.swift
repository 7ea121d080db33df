#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The die temperature of the simulated IMU: it warms by 2 °C over the first ~15 minutes after
/// power-on (time constant 900 s; illustrative), read with 0.01 °C noise.
enum Thermometer {
    static let warmUpCelsius = 2.0
    static let warmUpSeconds = 900.0
    static let noiseCelsius = 0.01

    static func temperature(at t: Double, ambient: Double) -> Double {
        ambient + warmUpCelsius * (1 - exp(-t / warmUpSeconds))
    }
}
