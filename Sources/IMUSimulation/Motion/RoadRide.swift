#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A road vehicle's vertical ride from physics rather than from chosen bands: a random road
/// profile (ISO 8608) under a quarter-vehicle (sprung body on its suspension, wheel on its tyre),
/// as ride-comfort studies of city buses model it (e.g. Nguyen et al., "An experimental
/// comparison of mathematical heavy-duty city bus models to evaluate passenger ride comfort
/// induced by road roughness", Mathematical and Computer Modelling of Dynamical Systems 27,
/// 2021). Used by the coach (`Segment.Vehicle.coach`), whose figures were chosen apart from the
/// city bus's and were not fitted to any recording or tuned against the step counter.
enum RoadRide {
    /// ISO 8608 reference spatial frequency, cycles/m, and waviness: the road's elevation PSD is
    /// Gd(n0)·(n/n0)^−2.
    static let referenceFrequency = 0.1
    /// ISO 8608 road classes, Gd(n0) in m³ (geometric means of the classes): A 16, B 64, C 256 × 10⁻⁶.
    static let classB = 64e-6, classC = 256e-6

    /// One-sided PSD of the road's elevation under a wheel at `speed` m/s, m²/Hz at temporal
    /// frequency `f` Hz: G(n)/v with n = f/v, which for waviness 2 is Gd·n0²·v/f².
    static func elevation(_ f: Double, roughness gd: Double, speed: Double) -> Double {
        gd * referenceFrequency * referenceFrequency * speed / (f * f)
    }

    /// |H|² of a base-excited oscillator at `f` (natural frequency `natural` Hz, damping ratio
    /// `damping`): (1 + (2ζr)²) / ((1 − r²)² + (2ζr)²), r = f/natural.
    static func transmissibility(_ f: Double, natural: Double, damping: Double) -> Double {
        let r = f / natural, c = 2 * damping * r
        return (1 + c * c) / ((1 - r * r) * (1 - r * r) + c * c)
    }

    /// One-sided PSD of the body's vertical acceleration, g²/Hz: the elevation, differentiated
    /// twice ((2πf)⁴), through the body's bounce mode, with the tyre's filtering above the wheel
    /// hop (a fourth-order roll-off from `wheelHop` Hz).
    static func bodyAcceleration(_ f: Double, roughness gd: Double, speed: Double, natural: Double, damping: Double,
                                 wheelHop: Double) -> Double {
        let w = 2 * Double.pi * f
        let g = Units.standardGravity
        let hop = f / wheelHop
        return w * w * w * w * elevation(f, roughness: gd, speed: speed) * transmissibility(f, natural: natural, damping: damping)
            / (1 + hop * hop * hop * hop) / (g * g)
    }

    /// The coach's body (`Segment.Vehicle.coach`) on a road of roughness `gd` at 10 m/s, g²/Hz:
    /// bounce at 1.0 Hz, damping ratio 0.25, wheel hop at 10 Hz (`BusVibration.init(vehicle:…)`).
    static func coachBody(_ f: Double, roughness gd: Double) -> Double {
        bodyAcceleration(f, roughness: gd, speed: 10, natural: 1.0, damping: 0.25, wheelHop: 10)
    }
}
