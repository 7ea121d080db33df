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

    init(duration: Double, random: inout Xoshiro256StarStar) {
        vertical = BandNoise(band: 0.7...2, count: 12, rms: 0.04, random: &random)
        rumble = BandNoise(band: 5...20, count: 10, rms: 0.03, random: &random)
        lateral = BandNoise(band: 0.3...1.5, count: 12, rms: 0.03, random: &random)
        surge = BandNoise(band: 0.2...1, count: 8, rms: 0.015, random: &random)
        roll = BandNoise(band: 0.3...1.2, count: 8, rms: Double.pi / 180, random: &random)
        bumps = BumpTrain(duration: duration, meanInterval: 10, amplitude: 0.1...0.35, band: 1.5...3, random: &random)
    }

    /// Share of the vibration present at `speed` (m/s) when the ride's top speed is `top`.
    static func intensity(speed: Double, top: Double) -> Double { 0.3 + 0.7 * speed / top }
}
