#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// A one-state Kalman filter on ground speed, weighting each reading by the error its receiver
/// reports (the activity seed smooths GPS speed with a fixed measurement noise; the fix's own
/// error is the better weight: a Doppler speed at ±0.3 m/s moves the estimate, a multipath jump
/// reported at ±4 m/s barely does).
///
/// State: speed v (m/s) with variance P (m²/s²). Between readings v is held and P grows by
/// `acceleration²·Δt` (a random walk whose step is a hard acceleration of about 1 m/s², the
/// order of a car pulling away or a cyclist sprinting; braking harder is followed within a few
/// readings). Update: K = P / (P + R), R = accuracy².
struct SpeedKalman: Sendable {
    /// Process noise: spectral density of the speed's random walk, m²/s³.
    static let acceleration = 1.0
    /// Error assumed when a receiver reports none, m/s: gpsd's default for a fix without an
    /// error estimate is of this order for consumer receivers (illustrative, documented).
    static let defaultAccuracy = 1.0
    private(set) var estimate: SmoothedSpeed?
    private var variance = 0.0

    /// Folds in one reading; returns the new estimate.
    @discardableResult
    mutating func update(_ reading: GroundSpeed) -> SmoothedSpeed {
        let r = pow(reading.accuracy ?? Self.defaultAccuracy, 2)
        guard var e = estimate, reading.time > e.time else {
            if let e = estimate, reading.time <= e.time { return e }   // out of order: ignored
            variance = r
            let first = SmoothedSpeed(metersPerSecond: reading.metersPerSecond, sigma: r.squareRoot(), time: reading.time)
            estimate = first
            return first
        }
        let predicted = variance + Self.acceleration * Self.acceleration * (reading.time - e.time)
        let gain = predicted / (predicted + r)
        e.metersPerSecond = max(0, e.metersPerSecond + gain * (reading.metersPerSecond - e.metersPerSecond))
        variance = (1 - gain) * predicted
        e.sigma = variance.squareRoot()
        e.time = reading.time
        estimate = e
        return e
    }

    /// The estimate at `time`, its uncertainty grown since the last reading.
    func predict(at time: Double) -> SmoothedSpeed? {
        guard var e = estimate else { return nil }
        let dt = max(0, time - e.time)
        e.sigma = (variance + Self.acceleration * Self.acceleration * dt).squareRoot()
        return e
    }

    /// Forgets the estimate (a long dropout: the next fix starts afresh).
    mutating func reset() { estimate = nil; variance = 0 }
}
