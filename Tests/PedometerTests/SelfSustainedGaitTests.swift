import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

/// `GaitGate.walksLikeSteps`: a window may open a walk on its regularity alone (without moving
/// the phone horizontally) only when it is skewed as steps are. A step's second harmonic is
/// locked in phase to its fundamental, so gait has a third moment; a bounce made of components
/// that all lie within an octave has none (x³ averages to zero unless one frequency is the sum
/// of two others), however regular a 4 s window of it looks.
@Suite struct SelfSustainedGaitTests {
    let rate = 50.0, n = 200   // one 4 s analysis window on the 50 Hz grid

    /// The gait of the simulator and the docs, sin φ + 0.35 sin(2φ − 1.2): skewness +0.58 over
    /// whole steps (+0.48 over the 5.6 steps of a 4 s window at 1.4 steps/s); it opens at 0.1 g
    /// and more, either sign (the sign is the placement's).
    @Test(arguments: [1.4, 1.8])
    func aStepWithItsLockedHarmonicStartsAWalk(cadence: Double) throws {
        let gate = GaitGate()
        for sign in [1.0, -1.0] {
            let x = (0..<n).map { i -> Double in
                let phi = 2 * Double.pi * cadence * Double(i) / rate
                return sign * 0.15 * (sin(phi) + 0.35 * sin(2 * phi - 1.2))
            }
            var estimator = CadenceEstimator(rateHz: rate, windowSamples: n)
            let reading = estimator.estimate(x, count: n)
            let estimate = try #require(reading)
            let shape = GaitShape.measure(x, count: n, rateHz: rate, cadence: estimate.cadence)
            #expect(gate.walksLikeSteps(gaitDeviation: deviation(x), regularity: estimate.regularity, skewness: shape.skewness),
                    "cadence \(cadence) sign \(sign): regularity \(estimate.regularity), skewness \(shape.skewness)")
        }
    }

    /// A suspension's bounce: twelve tones of random size and phase, log-uniform over 1.2-2 Hz
    /// (less than an octave, as the simulated city bus's), 0.12 g RMS. Over 180 s of twenty
    /// such buses, hundreds of windows are as regular as a walk (≥ `vehicleWalkRegularity`).
    /// Their skewness is 0 but for a 4 s window's sampling spread (99th percentile 0.12 over
    /// forty buses, when this was written), so at most 1 in 100 may open a walk.
    @Test func aBounceWithinAnOctaveDoesNot() {
        let gate = GaitGate()
        var random = Xoshiro256StarStar(seed: 40)
        var regular = 0, opening = 0
        for _ in 0..<20 {
            let tones = (0..<12).map { _ in
                (hz: exp(random.uniform(log(1.2)...log(2.0))), size: random.uniform(0.3...1), phase: random.uniform(0...(2 * .pi)))
            }
            let power = tones.reduce(0) { $0 + $1.size * $1.size / 2 }
            let scale = 0.12 / power.squareRoot()
            let signal = (0..<Int(180 * rate)).map { i in
                tones.reduce(0) { $0 + scale * $1.size * sin(2 * .pi * $1.hz * Double(i) / rate + $1.phase) }
            }
            var estimator = CadenceEstimator(rateHz: rate, windowSamples: n)
            for start in stride(from: 0, to: signal.count - n, by: Int(rate / 2)) {
                let x = Array(signal[start..<(start + n)])
                guard let estimate = estimator.estimate(x, count: n), estimate.regularity >= gate.vehicleWalkRegularity,
                      deviation(x) >= gate.vibrationDeviation else { continue }
                regular += 1
                let shape = GaitShape.measure(x, count: n, rateHz: rate, cadence: estimate.cadence)
                if gate.walksLikeSteps(gaitDeviation: deviation(x), regularity: estimate.regularity, skewness: shape.skewness) { opening += 1 }
            }
        }
        #expect(regular >= 100, "only \(regular) windows of the bounce were regular enough to test the rule")
        #expect(opening * 100 <= regular, "\(opening) of \(regular) regular windows would open a walk")
    }

    func deviation(_ x: [Double]) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        return (x.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(x.count)).squareRoot()
    }
}
