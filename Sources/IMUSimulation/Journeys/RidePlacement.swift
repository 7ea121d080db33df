#if canImport(Glibc)
import Glibc
#else
import Foundation
#endif

/// Where a device rides on a bicycle, and what it feels there (docs/activity.md, "Simulated rides").
///
/// Every placement feels the crank's rhythm and the road, in different measure:
/// - trouser pocket: the thigh. The knee rises and falls a crank length (±0.17 m) once per
///   revolution, half of it at mid-thigh, and the thigh pitches ±20° about 45°; the body damps
///   the road to a few hundredths of a g.
/// - jersey pocket: the lower back, leaning 50° forward, rocking ±3° sideways at the crank
///   frequency and bobbing 2 mm once per pedal stroke; the saddle passes on about 0.05 g of road.
/// - bag: a backpack, leaning 40°, rocking ±4°, bouncing 4 mm on its straps on each pedal stroke.
/// - handlebar: flat on the bars, which the rider rocks ±2° at the crank frequency; no body
///   damps the road: 0.25 g of broadband vibration, as the real handlebar rides measure (0.2 to
///   0.4 g, median per ride).
/// Every placement also feels the bicycle surge with each pedal stroke: the legs' torque peaks
/// with the cranks level and vanishes at the dead centres, so the propulsive force swings about
/// its mean twice per revolution. 150 W at 6 m/s is a mean force of 25 N; swinging ±25 N on
/// 85 kg of rider and bicycle, that is ±0.03 g fore and aft (`surge`).
/// The figures are illustrative, chosen from the physics above and the real rides' order of
/// magnitude; they are not fitted to any recording.
public enum RidePlacement: String, Sendable, CaseIterable {
    case trouserPocket = "trouser-pocket"
    case jerseyPocket = "jersey-pocket"
    case bag
    case handlebar

    struct Figures {
        /// Vertical travel of the device, m (amplitude), once per revolution.
        var travel: Double
        /// Mean pitch from horizontal, rad, and its swing with the crank, rad.
        var pitch: Double, pitchSwing: Double
        /// Sideways rock with the crank, rad.
        var roll: Double
        /// Vertical bob per pedal stroke (twice per revolution), m.
        var bob: Double
        /// Broadband road vibration, g (standard deviation per axis).
        var vibration: Double
    }

    var figures: Figures {
        let degree = Double.pi / 180
        switch self {
        case .trouserPocket: return Figures(travel: 0.085, pitch: 45 * degree, pitchSwing: 20 * degree, roll: 0, bob: 0, vibration: 0.03)
        case .jerseyPocket: return Figures(travel: 0, pitch: 50 * degree, pitchSwing: 0, roll: 3 * degree, bob: 0.002, vibration: 0.05)
        case .bag: return Figures(travel: 0, pitch: 40 * degree, pitchSwing: 0, roll: 4 * degree, bob: 0.004, vibration: 0.05)
        case .handlebar: return Figures(travel: 0, pitch: 0, pitchSwing: 0, roll: 2 * degree, bob: 0, vibration: 0.25)
        }
    }

    /// Fore-aft surge of the whole bicycle per pedal stroke, g (amplitude; see above).
    static let surge = 0.03

    /// Specific force in the device frame, g, at crank phase `phase` (rad) and crank rate `omega`
    /// (rad/s), before road vibration and sensor errors.
    func specificForce(phase: Double, omega: Double) -> Vector3 {
        let f = figures
        let g = 9.80665
        let vertical = (f.travel * omega * omega * sin(phase) + f.bob * 4 * omega * omega * sin(2 * phase)) / g
        let forward = Self.surge * -cos(2 * phase)   // torque peaks with the cranks level
        let world = Vector3(forward, 0, 1 + vertical)
        let attitude = Quaternion.rotationX(f.roll * sin(phase)) * Quaternion.rotationY(f.pitch + f.pitchSwing * sin(phase + 0.5))
        return attitude.inverseRotate(world)
    }
}
