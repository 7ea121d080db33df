#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Smooth 0→1 profiles used to start and stop motions without jumps in acceleration or rate.
enum Easing {
    /// Minimum-jerk position profile 10u³ − 15u⁴ + 6u⁵ (Flash & Hogan 1985), u clamped to 0…1:
    /// zero velocity and acceleration at both ends.
    @inline(__always) static func minimumJerk(_ u: Double) -> Double {
        let t = min(1, max(0, u))
        return t * t * t * (10 + t * (-15 + 6 * t))
    }

    /// d/du of `minimumJerk` (0 outside 0…1).
    @inline(__always) static func minimumJerkRate(_ u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        let v = u * (1 - u)
        return 30 * v * v
    }

    /// d²/du² of `minimumJerk` (0 outside 0…1).
    @inline(__always) static func minimumJerkAcceleration(_ u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        return 60 * u - 180 * u * u + 120 * u * u * u
    }

    /// An envelope that rises from 0 to 1 over `ramp` seconds after 0 and falls back to 0 over
    /// the last `ramp` seconds before `duration` (minimum-jerk shaped). Motions that start and end
    /// at rest multiply by it so the device never jumps.
    @inline(__always) static func envelope(_ tau: Double, duration: Double, ramp: Double) -> Double {
        let r = min(ramp, duration / 2)
        guard r > 0 else { return 1 }
        return minimumJerk(tau / r) * minimumJerk((duration - tau) / r)
    }

    /// `envelope` with its first and second time derivatives (1/s, 1/s²), for motions defined by
    /// position so that their acceleration integrates back to rest.
    static func envelopeDerivatives(_ tau: Double, duration: Double, ramp: Double) -> (value: Double, rate: Double, acceleration: Double) {
        let r = min(ramp, duration / 2)
        guard r > 0 else { return (1, 0, 0) }
        let a = tau / r, b = (duration - tau) / r
        let m1 = minimumJerk(a), m2 = minimumJerk(b)
        let d1 = minimumJerkRate(a) / r, d2 = -minimumJerkRate(b) / r
        let s1 = minimumJerkAcceleration(a) / (r * r), s2 = minimumJerkAcceleration(b) / (r * r)
        return (m1 * m2, d1 * m2 + m1 * d2, s1 * m2 + 2 * d1 * d2 + m1 * s2)
    }

    /// Acceleration of an enveloped oscillation defined by its position, x = −(A/ω²)·e·sin(ωτ + φ):
    /// A·e·sin(ωτ + φ) − (A/ω²)·(e″·sin(ωτ + φ) + 2ω·e′·cos(ωτ + φ)). It starts and ends at rest, in
    /// place, where multiplying A·sin by the envelope alone would leave a drift of up to A/ω.
    @inline(__always) static func oscillation(amplitude a: Double, omega: Double, phase: Double, tau: Double,
                                              envelope: (value: Double, rate: Double, acceleration: Double)) -> Double {
        let sine = sin(omega * tau + phase), cosine = cos(omega * tau + phase)
        return a * envelope.value * sine - a / (omega * omega) * (envelope.acceleration * sine + 2 * omega * envelope.rate * cosine)
    }
}
