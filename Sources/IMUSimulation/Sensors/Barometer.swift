#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pressure from altitude by the international barometric formula (ICAO standard atmosphere,
/// troposphere): p = 1013.25 · (1 − 2.25577·10⁻⁵ · h)^5.25588 hPa, h in metres.
/// Near sea level that is ≈ 0.12 hPa per metre, ≈ 0.36 hPa per 3 m floor.
public enum Barometer {
    /// Standard sea-level pressure, hPa.
    public static let seaLevelHPa = 1013.25

    /// Pressure in hPa at altitude `meters` in the standard atmosphere.
    public static func pressure(altitude meters: Double) -> Double {
        seaLevelHPa * pow(1 - 2.25577e-5 * meters, 5.25588)
    }

    /// Altitude in metres for pressure `hPa` (inverse of `pressure(altitude:)`).
    public static func altitude(pressure hPa: Double) -> Double {
        (1 - pow(hPa / seaLevelHPa, 1 / 5.25588)) / 2.25577e-5
    }
}

/// Things that change the barometer's reading without any change of altitude.
struct PressureDisturbances: Sendable {
    /// Weather: a steady drift, hPa per hour.
    var driftHPaPerHour: Double
    /// Door slams: instants (s from the scenario start) of a sudden pressure step that decays.
    var doorSlams: [Double]
    /// Peak of a door slam's pressure pulse, hPa.
    var doorSlamHPa: Double
    /// Decay time constant of a slam's pulse, s (illustrative: a room equalises in under a second).
    static let slamDecaySeconds = 0.3

    /// Offset in hPa at scenario time t (s).
    func offset(at t: Double) -> Double {
        var p = driftHPaPerHour * t / 3600
        for slam in doorSlams where t >= slam && t < slam + 10 * Self.slamDecaySeconds {
            p += doorSlamHPa * exp(-(t - slam) / Self.slamDecaySeconds)
        }
        return p
    }
}
