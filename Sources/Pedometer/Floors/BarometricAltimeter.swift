import Foundation

/// Pressure to altitude, with spikes and noise removed, in constant time per reading.
///
/// Altitude follows the international barometric formula (ICAO standard atmosphere):
/// h = 44330.8 m · (1 − (p / 1013.25 hPa)^0.190263). Only altitude *differences* matter here, so
/// the sea-level reference pressure need not be known.
///
/// A door slam is a pressure jump of up to about 1 hPa (8 m) lasting well under half a second. A
/// slew-rate limit of `maximumRate` (4 m/s, faster than stairs at about 0.5 m/s and ordinary
/// elevators at up to 2.5 m/s) lets through less than a metre of it; a 1 s low-pass then brings
/// it, and sensor noise (about 0.03 hPa, 0.25 m: τ = 1 s averages 25 readings at 25 Hz, so
/// 0.25 m / √(2·25) ≈ 0.04 m), down to centimetres.
struct BarometricAltimeter: Sendable {
    /// Fastest believable altitude change, m/s.
    static let maximumRate = 4.0
    /// Low-pass time constant, s.
    static let smoothing = 1.0
    /// Delay of the output behind a steady climb, s (the low-pass time constant).
    static let delay = smoothing

    private var limited = 0.0
    private(set) var altitude: Double?
    private var lastTime = 0.0

    /// Standard-atmosphere altitude in metres for `pressure` in hPa.
    static func altitude(pressure: Double) -> Double {
        44_330.8 * (1 - pow(pressure / 1013.25, 0.190263))
    }

    mutating func reset() {
        altitude = nil
    }

    /// Adds a pressure reading (hPa) taken at `time` (s); returns the filtered altitude (m).
    mutating func update(pressure: Double, time: Double) -> Double {
        let raw = Self.altitude(pressure: pressure)
        guard let previous = altitude else {
            limited = raw
            altitude = raw
            lastTime = time
            return raw
        }
        let dt = max(0, time - lastTime)
        let step = Self.maximumRate * dt
        limited += max(-step, min(step, raw - limited))
        let value = previous + (1 - exp(-dt / Self.smoothing)) * (limited - previous)
        altitude = value
        lastTime = time
        return value
    }
}
