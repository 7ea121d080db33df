import Foundation

/// Pressure to altitude, with spikes and noise removed.
///
/// Altitude follows the international barometric formula (ICAO standard atmosphere):
/// h = 44330.8 m · (1 − (p / 1013.25 hPa)^0.190263). Only altitude *differences* matter here, so
/// the sea-level reference pressure need not be known. A running median over 1 s removes door-slam
/// spikes (a pressure jump of up to about 1 hPa lasting well under half a second); a 2 s low-pass
/// then brings sensor noise (about 0.03 hPa, 0.25 m) down to a few centimetres.
struct BarometricAltimeter: Sendable {
    /// Median span, s.
    private let medianSpan = 1.0
    /// Low-pass time constant, s.
    private let smoothing = 2.0
    private var readings: [Double] = []      // raw altitudes of the median span, oldest first
    private var times: [Double] = []
    private var sorted: [Double] = []
    private(set) var altitude: Double?
    private var lastTime = 0.0

    init() {
        readings.reserveCapacity(64)
        times.reserveCapacity(64)
        sorted.reserveCapacity(64)
    }

    /// Standard-atmosphere altitude in metres for `pressure` in hPa.
    static func altitude(pressure: Double) -> Double {
        44_330.8 * (1 - pow(pressure / 1013.25, 0.190263))
    }

    mutating func reset() {
        readings.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        altitude = nil
    }

    /// Adds a pressure reading (hPa) taken at `time` (s); returns the filtered altitude (m).
    mutating func update(pressure: Double, time: Double) -> Double {
        let raw = Self.altitude(pressure: pressure)
        readings.append(raw)
        times.append(time)
        // Keep at most 1 s (and at most 63 readings) of history.
        var drop = 0
        while drop < times.count - 1, time - times[drop] > medianSpan { drop += 1 }
        drop = max(drop, readings.count - 63)
        if drop > 0 {
            readings.removeFirst(drop)
            times.removeFirst(drop)
        }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: readings)
        sorted.sort()
        let median = sorted[sorted.count / 2]
        if let previous = altitude {
            let alpha = 1 - exp(-max(0, time - lastTime) / smoothing)
            altitude = previous + alpha * (median - previous)
        } else {
            altitude = median
        }
        lastTime = time
        return altitude!
    }
}
