#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

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
    /// A reading this far from the slew-limited altitude is a lasting pressure step that no
    /// motion explains (a faulty sensor, a replaced one, a pressurised cabin), m: three seconds at
    /// `maximumRate`, beyond a door slam's 1 hPa (8 m). The altitude jumps to it at once instead
    /// of ramping through hundreds of metres for minutes; the floor counter refuses the jump as
    /// faster than anyone climbs.
    static let stepThreshold = 3 * maximumRate

    private var limited = 0.0
    /// Linearisation of the formula around a reference pressure (hPa), re-centred whenever the
    /// pressure moves 5 hPa away: within ±5 hPa the neglected curvature is under 0.2% of the
    /// altitude difference (0.08 m over 40 m), and no `pow` is needed per reading.
    private var referencePressure = Double.nan
    private var referenceAltitude = 0.0
    private var slope = 0.0               // m per hPa at the reference
    private(set) var altitude: Double?
    private var lastTime = 0.0
    /// The last two intervals (s) for which 1 − e^(−dt/τ) was computed, newest first, and those
    /// coefficients (`coefficient(interval:)`).
    private var smoothingIntervals = (Double.nan, Double.nan)
    private var smoothingAlphas = (0.0, 0.0)

    /// Standard-atmosphere altitude in metres for `pressure` in hPa.
    static func altitude(pressure: Double) -> Double {
        44_330.8 * (1 - pow(pressure / 1013.25, 0.190263))
    }

    mutating func reset() {
        altitude = nil
    }

    /// dh/dp of the standard-atmosphere formula at `pressure`, m/hPa (negative).
    static func slope(pressure: Double) -> Double {
        -44_330.8 * 0.190263 / 1013.25 * pow(pressure / 1013.25, 0.190263 - 1)
    }

    /// The low-pass coefficient 1 − e^(−dt/τ) for an interval `dt` (s) between readings. Readings
    /// arrive at a steady rate, but the pedometer's tick times are origin + index · interval, so
    /// the difference of two of them takes a few values that differ in their last bits, two of
    /// them alternating for long stretches: the last two are kept, and `exp` (one call per
    /// reading before any reuse, 0.7 % of the core's instructions) runs only for another.
    @inline(__always)
    private mutating func coefficient(interval dt: Double) -> Double {
        if dt == smoothingIntervals.0 { return smoothingAlphas.0 }
        if dt == smoothingIntervals.1 {
            swap(&smoothingIntervals.0, &smoothingIntervals.1)
            swap(&smoothingAlphas.0, &smoothingAlphas.1)
            return smoothingAlphas.0
        }
        smoothingIntervals = (dt, smoothingIntervals.0)
        smoothingAlphas = (1 - exp(-dt / Self.smoothing), smoothingAlphas.0)
        return smoothingAlphas.0
    }

    /// The altitude for each of a batch's ticks `from..<to` (`TickBatch.level`: the tick's pressure
    /// reading in hPa, NaN when none arrived, replaced by the altitude in m), `update` on each
    /// reading in tick order; a tick without one keeps the altitude before it, `altitude` (m) for
    /// the first. Returns the altitude after the last tick.
    ///
    /// One call per run of ticks (`Pedometer.take`), in a loop of its own: called per reading
    /// from the gravity loop, the call made that loop keep its filter's state on the stack
    /// (every vector register is the callee's to clobber) (callgrind, session 26).
    @inline(never)
    mutating func fill(_ ticks: inout TickBatch, from: Int, to: Int, altitude: Double) -> Double {
        var altitude = altitude
        for i in from..<to {
            let p = ticks.level[i]
            if !p.isNaN { altitude = update(pressure: p, time: ticks.samples[i][3]) }
            ticks.level[i] = altitude
        }
        return altitude
    }

    /// Adds a pressure reading (hPa) taken at `time` (s); returns the filtered altitude (m).
    @inline(__always)
    mutating func update(pressure: Double, time: Double) -> Double {
        if !(abs(pressure - referencePressure) <= 5) {
            referencePressure = pressure
            referenceAltitude = Self.altitude(pressure: pressure)
            slope = Self.slope(pressure: pressure)
        }
        let raw = referenceAltitude + slope * (pressure - referencePressure)
        guard let previous = altitude else {
            limited = raw
            altitude = raw
            lastTime = time
            return raw
        }
        let dt = max(0, time - lastTime)
        if abs(raw - limited) > Self.stepThreshold {
            limited = raw
            altitude = raw
            lastTime = time
            return raw
        }
        let step = Self.maximumRate * dt
        limited += max(-step, min(step, raw - limited))
        let value = previous + coefficient(interval: dt) * (limited - previous)
        altitude = value
        lastTime = time
        return value
    }
}
