import Foundation
import Testing
@testable import IMUSimulation

/// A reading is the true motion averaged over its sample period, as a MEMS sensor's digital
/// low-pass delivers it (`Simulator.sample(at:)`), not the motion at one instant: at 20 Hz a 22 Hz
/// engine must not appear at 2 Hz, among the cadences of walking.
@Suite struct SensorFilterTests {
    /// Mean of the true specific force over `period` centred on `t`, from `points` instants.
    func trueMean(_ sim: Simulator, at t: Double, period: Double, points: Int = 200) -> Vector3 {
        var sum = Vector3.zero
        for k in 0..<points {
            let start = sim.options.startTime
            let instant = min(max(t + ((Double(k) + 0.5) / Double(points) - 0.5) * period, start), start + sim.duration)
            sum += sim.motion(at: instant).specificForce
        }
        return sum / Double(points)
    }

    /// Waving (a smooth 2 Hz swing of 0.6 g, no broadband vibration) at 20 Hz with a perfect
    /// sensor: each reading is the period's mean. The mean of a 2 Hz sine over 0.05 s is
    /// sinc(0.1) ≈ 0.984 of its peak, so readings at the swing's peaks differ from the instant by
    /// about 0.01 g, which the test must see. Six instants (h = 1/120 s) against two hundred differ
    /// by the midpoint rule's error, about (ωh)²/24 of the swing: 3·10⁻⁴ g for 0.6 g at 2 Hz.
    @Test func aSlowReadingIsThePeriodsMean() {
        let scenario = Scenario(name: "w", segments: [Segment(.still, seconds: 2), Segment(.wave, seconds: 10), Segment(.still, seconds: 2)])
        let rate = 20.0
        let o = idealOptions { $0.sampleRateHz = rate; $0.includeGyroscope = false; $0.barometerRateHz = nil }
        let sim = Simulator(scenario: scenario, options: o)
        let samples = Simulator.generate(scenario, options: o).samples
        var worstMean = 0.0, largestInstant = 0.0
        for s in samples {
            let reading = s.acceleration!
            worstMean = max(worstMean, norm(reading - trueMean(sim, at: s.time, period: 1 / rate)))
            largestInstant = max(largestInstant, norm(reading - sim.motion(at: s.time).specificForce))
        }
        #expect(worstMean < 0.001, "a reading differs from its period's mean by \(worstMean) g")
        #expect(largestInstant > 0.005, "readings equal the instants (largest difference \(largestInstant) g): no averaging")
    }

    /// From 120 Hz up (twice the fastest simulated motion, the metro's 60 Hz rumble) a reading is
    /// the motion at its instant, as it always was.
    @Test func aFastReadingIsTheInstant() {
        let scenario = Scenario(name: "w", segments: [Segment(.wave, seconds: 5)])
        let o = idealOptions { $0.sampleRateHz = 200; $0.includeGyroscope = false; $0.barometerRateHz = nil }
        let sim = Simulator(scenario: scenario, options: o)
        for s in Simulator.generate(scenario, options: o).samples {
            #expect(norm(s.acceleration! - sim.motion(at: s.time).specificForce) < 1e-9)
        }
    }
}
