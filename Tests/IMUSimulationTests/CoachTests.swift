import Foundation
import Testing
@testable import IMUSimulation

/// The coach (`Segment.Vehicle.coach`): a bus from physics, a random road under a suspension.
@Suite struct CoachTests {
    /// The distance the engine's phase follows is the integral of the speed profile: compared
    /// with a 1 ms trapezoid sum of `motion(at:).speed` over a whole ride.
    @Test func distanceIsTheIntegralOfTheSpeed() {
        var random = Xoshiro256StarStar(seed: 5)
        var turns: [HeadingProfile.Turn] = []
        let profile = BusProfile(duration: 180, habits: .coach, random: &random, turns: &turns)
        let dt = 0.001
        var sum = 0.0, previous = profile.motion(at: 0).speed
        for i in 1...180_000 {
            let t = Double(i) * dt
            let v = profile.motion(at: t).speed
            sum += (previous + v) / 2 * dt
            previous = v
            if i % 30_000 == 0 {
                // The trapezoid's error over a smooth profile is far below a millimetre per second.
                #expect(abs(profile.distance(at: t) - sum) < 0.01, "at \(t) s: \(profile.distance(at: t)) m against \(sum) m")
            }
        }
        #expect(sum > 500, "a 3 min ride at 29-54 km/h covers more than 500 m, got \(sum)")
    }

    /// A spectrum-shaped noise carries the PSD's variance: the coach's body on an ISO 8608 class
    /// B road at 10 m/s, integrated over 0.3-6 Hz, against the RMS of 600 s of its samples.
    @Test func shapedNoiseCarriesThePowerOfItsSpectrum() {
        let psd = { (f: Double) in RoadRide.coachBody(f, roughness: RoadRide.classB) }
        var expected = 0.0, f = 0.3
        while f < 6 { expected += psd(f) * f * 0.001; f *= 1.001 }
        var random = Xoshiro256StarStar(seed: 9)
        let noise = BandNoise(spectrum: psd, band: 0.3...6, count: 48, random: &random)
        let n = 60_000
        let rms = ((0..<n).map { i -> Double in let x = noise.value(at: Double(i) / 100); return x * x }.reduce(0, +) / Double(n)).squareRoot()
        // Each bin's sinusoid sits at a random frequency inside it, where the PSD differs from
        // its mean over the bin by a few per cent (the bins are 6 % wide).
        #expect(abs(rms / expected.squareRoot() - 1) < 0.1, "\(rms) g RMS against \(expected.squareRoot()) g")
        // ISO 8608 class B under a 1 Hz, ζ 0.25 suspension: a few hundredths of a g.
        #expect(expected.squareRoot() > 0.015 && expected.squareRoot() < 0.035)
    }
}
