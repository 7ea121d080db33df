#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a bus shakes its passengers, apart from speeding up, braking and turning (`BusProfile`).
/// Figures are illustrative for a city bus at speed; at a standstill only 30% remains (idling
/// engine, passengers moving). The pedometer seed article's bus sways 0.12 g at 0.7 Hz with 0.05 g
/// of noise; here that energy is spread over bands, so no single rhythm stands out. The
/// walking-vs-driving seed article puts road rumble at ~5–20 Hz and engine vibration at ~10–100 Hz,
/// above the 1.4–2.5 Hz of walking.
struct BusVibration: Sendable {
    /// Vertical body bounce, g: 0.04 g RMS over 0.7–2 Hz (suspension bounce is ~1–1.5 Hz).
    var vertical: BandNoise
    /// Vertical road rumble, g: 0.03 g RMS over 5–20 Hz.
    var rumble: BandNoise
    /// Lateral sway, g: 0.03 g RMS over 0.3–1.5 Hz.
    var lateral: BandNoise
    /// Fore-aft surge from the driver's throttle, g: 0.015 g RMS over 0.2–1 Hz.
    var surge: BandNoise
    /// Body roll, radians: 1° RMS over 0.3–1.2 Hz.
    var roll: BandNoise
    /// Potholes and joints: one every 10 s on average, 0.1–0.35 g, ringing at 1.5–3 Hz.
    var bumps: BumpTrain
    /// Engine (or traction motor) vibration: frequency, Hz, and amplitude, g. A diesel bus
    /// idles near 28 Hz at about 0.01 g (illustrative).
    var engineHz = 28.0
    var engineG = 0.01
    /// The engine's vibration frequency at the ride's top speed, Hz, when it rises with speed
    /// from `engineHz` (the coach); nil: constant.
    var engineTopHz: Double? = nil

    init(duration: Double, random: inout Xoshiro256StarStar) {
        vertical = BandNoise(band: 0.7...2, count: 12, rms: 0.04, random: &random)
        rumble = BandNoise(band: 5...20, count: 10, rms: 0.03, random: &random)
        lateral = BandNoise(band: 0.3...1.5, count: 12, rms: 0.03, random: &random)
        surge = BandNoise(band: 0.2...1, count: 8, rms: 0.015, random: &random)
        roll = BandNoise(band: 0.3...1.2, count: 8, rms: Double.pi / 180, random: &random)
        bumps = BumpTrain(duration: duration, meanInterval: 10, amplitude: 0.1...0.35, band: 1.5...3, random: &random)
    }

    /// Another vehicle's shaking. Figures are illustrative (vehicle-dynamics textbooks put body
    /// bounce at 1–1.5 Hz for cars and soft buses, wheel hop at 10–15 Hz, and rail joints every
    /// 12–25 m); they are chosen to differ from the default bus, not fitted to any recording.
    init(vehicle: Segment.Vehicle, duration: Double, random: inout Xoshiro256StarStar) {
        switch vehicle {
        case .cityBus:
            // Soft air suspension: more bounce, right in the walking band; less rumble.
            vertical = BandNoise(band: 1.2...2, count: 12, rms: 0.06, random: &random)
            rumble = BandNoise(band: 8...30, count: 10, rms: 0.02, random: &random)
            lateral = BandNoise(band: 0.5...1.5, count: 12, rms: 0.04, random: &random)
            surge = BandNoise(band: 0.2...1, count: 8, rms: 0.02, random: &random)
            roll = BandNoise(band: 0.3...1.2, count: 8, rms: 1.5 * Double.pi / 180, random: &random)
            bumps = BumpTrain(duration: duration, meanInterval: 6, amplitude: 0.1...0.3, band: 1.2...2, random: &random)
            engineHz = 22; engineG = 0.015
        case .tram:
            // Rail joints: a sharp knock every 1–3 s, ringing fast; smooth bounce, squealing rumble.
            vertical = BandNoise(band: 0.8...1.8, count: 12, rms: 0.025, random: &random)
            rumble = BandNoise(band: 10...40, count: 10, rms: 0.03, random: &random)
            lateral = BandNoise(band: 0.4...1.5, count: 12, rms: 0.03, random: &random)
            surge = BandNoise(band: 0.2...1, count: 8, rms: 0.015, random: &random)
            roll = BandNoise(band: 0.3...1.2, count: 8, rms: 0.5 * Double.pi / 180, random: &random)
            bumps = BumpTrain(duration: duration, meanInterval: 1.8, amplitude: 0.05...0.15, band: 4...8, random: &random)
            engineHz = 45; engineG = 0.008
        case .metro:
            // Smooth track, strong traction surges, high-frequency rumble in a tunnel.
            vertical = BandNoise(band: 0.8...2, count: 12, rms: 0.02, random: &random)
            rumble = BandNoise(band: 20...60, count: 10, rms: 0.04, random: &random)
            lateral = BandNoise(band: 0.5...2, count: 12, rms: 0.03, random: &random)
            surge = BandNoise(band: 0.2...1, count: 8, rms: 0.03, random: &random)
            roll = BandNoise(band: 0.3...1.2, count: 8, rms: 0.5 * Double.pi / 180, random: &random)
            bumps = BumpTrain(duration: duration, meanInterval: 3, amplitude: 0.03...0.1, band: 3...6, random: &random)
            engineHz = 55; engineG = 0.01
        case .car:
            // Firm suspension, engine in the cabin, road texture.
            vertical = BandNoise(band: 1.2...1.8, count: 12, rms: 0.04, random: &random)
            rumble = BandNoise(band: 10...25, count: 10, rms: 0.03, random: &random)
            lateral = BandNoise(band: 0.3...1.5, count: 12, rms: 0.04, random: &random)
            surge = BandNoise(band: 0.2...1, count: 8, rms: 0.02, random: &random)
            roll = BandNoise(band: 0.5...1.5, count: 8, rms: 1 * Double.pi / 180, random: &random)
            bumps = BumpTrain(duration: duration, meanInterval: 8, amplitude: 0.1...0.3, band: 1.2...2.5, random: &random)
            engineHz = 30; engineG = 0.02
        case .coach:
            // Physics, with figures chosen apart from the other vehicles (`RoadRide`): an air
            // suspension's body bounce at 1.0 Hz with damping ratio 0.25 and the wheel hop at
            // 10 Hz (the textbook ranges for road vehicles: ride 1-1.5 Hz, damping 0.2-0.4,
            // wheel hop 10-12 Hz; an air-sprung bus sits at the low end), on a road between
            // ISO 8608 classes B and C, at 10 m/s (the ride's shaking scales with speed,
            // `intensity`). At class B that is 0.023 g RMS below 6 Hz and 0.012 g above, at C
            // 0.045 and 0.024 g.
            let roughness = RoadRide.classB * pow(RoadRide.classC / RoadRide.classB, random.uniform())
            vertical = BandNoise(spectrum: { RoadRide.coachBody($0, roughness: roughness) }, band: 0.3...6, count: 48, random: &random)
            rumble = BandNoise(spectrum: { RoadRide.coachBody($0, roughness: roughness) }, band: 6...40, count: 32, random: &random)
            // Sideways: the body's roll and sway mode, lower and softer than its bounce (0.4-1 Hz,
            // 0.025 g RMS; illustrative); the driver's throttle slower still.
            lateral = BandNoise(band: 0.4...1, count: 16, rms: 0.025, random: &random)
            surge = BandNoise(band: 0.1...0.6, count: 8, rms: 0.015, random: &random)
            roll = BandNoise(band: 0.4...1, count: 8, rms: 0.8 * Double.pi / 180, random: &random)
            // Potholes and manhole covers: one every 15 s on average, ringing at the bounce.
            bumps = BumpTrain(duration: duration, meanInterval: 15, amplitude: 0.05...0.15, band: 0.9...1.1, random: &random)
            // A six-cylinder four-stroke diesel fires three times per crank turn: 30 Hz at a
            // 600 rpm idle, 90 Hz at 1800 rpm (top speed); 0.012 g at the floor (illustrative).
            engineHz = 30; engineTopHz = 90; engineG = 0.012
        }
    }

    /// Share of the vibration present at `speed` (m/s) when the ride's top speed is `top`.
    static func intensity(speed: Double, top: Double) -> Double { 0.3 + 0.7 * speed / top }
}
