/// How a bus shakes its passengers, apart from speeding up, braking and turning (`BusProfile`).
/// All figures are illustrative for a city bus at speed; at a standstill only 30% remains (idling
/// engine, passengers moving). The pedometer seed article's bus sways 0.12 g at 0.7 Hz with 0.05 g
/// of noise; here the same energy is spread over bands, so no single rhythm stands out.
struct BusVibration: Sendable {
    /// Vertical body bounce, g: 0.06 g RMS over 0.5–3 Hz (suspension bounce is ~1–1.5 Hz).
    var vertical: BandNoise
    /// Lateral sway, g: 0.03 g RMS over 0.3–1.5 Hz.
    var lateral: BandNoise
    /// Fore-aft surge from the driver's throttle, g: 0.015 g RMS over 0.2–1 Hz.
    var surge: BandNoise
    /// Body roll, radians: 1° RMS over 0.3–1.2 Hz.
    var roll: BandNoise
    /// Potholes and joints: one every 10 s on average, 0.1–0.35 g, ringing at 1.5–3 Hz.
    var bumps: BumpTrain

    init(duration: Double, random: inout Xoshiro256StarStar) {
        vertical = BandNoise(band: 0.5...3, count: 16, rms: 0.06, random: &random)
        lateral = BandNoise(band: 0.3...1.5, count: 12, rms: 0.03, random: &random)
        surge = BandNoise(band: 0.2...1, count: 8, rms: 0.015, random: &random)
        roll = BandNoise(band: 0.3...1.2, count: 8, rms: Double.pi / 180, random: &random)
        bumps = BumpTrain(duration: duration, meanInterval: 10, amplitude: 0.1...0.35, band: 1.5...3, random: &random)
    }

    /// Share of the vibration present at `speed` (m/s) when the ride's top speed is `top`.
    static func intensity(speed: Double, top: Double) -> Double { 0.3 + 0.7 * speed / top }
}
