import Foundation
import Testing
@testable import Pedometer

@Suite struct CadenceTests {
    @Test(arguments: [1.4, 1.8, 2.2, 2.8, 3.3])
    func cadenceOfGaitWithinOneHundredthOfAStep(cadence: Double) throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let signal = gaitSignal(cadence: cadence, rate: 50, seconds: 4)
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(abs(estimate.cadence - cadence) < 0.01, "\(estimate.cadence)")
        #expect(estimate.regularity > 0.8)
    }

    /// With the phone on one leg, every other step looks different and the strongest repeat is
    /// the stride; the estimator must still report steps.
    @Test(arguments: [1.5, 1.9])
    func strideIsTakenForTwoSteps(cadence: Double) throws {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        let signal = gaitSignal(cadence: cadence, rate: 50, seconds: 4, strideAsymmetry: 0.6)
        let result = estimator.estimate(signal, count: 200)
        let estimate = try #require(result)
        #expect(abs(estimate.cadence - cadence) < 0.02, "\(estimate.cadence)")
    }

    @Test func flatWindowHasNoCadence() {
        var estimator = CadenceEstimator(rateHz: 50, windowSamples: 200)
        #expect(estimator.estimate([Double](repeating: 0.3, count: 200), count: 200) == nil)
    }

    @Test func shapeTellsGaitFromAWavedPhone() {
        let gait = gaitSignal(cadence: 2, rate: 50, seconds: 4)
        let wave = (0..<200).map { 0.6 * sin(2 * Double.pi * 2 * Double($0) / 50) }
        let gaitShape = GaitShape.measure(gait, count: 200, rateHz: 50, cadence: 2)
        let waveShape = GaitShape.measure(wave, count: 200, rateHz: 50, cadence: 2)
        #expect(waveShape.purity > 0.97 && waveShape.rmsFrequency < 2.1)
        #expect(gaitShape.purity < 0.97 && gaitShape.rmsFrequency > 1.06 * 2)
    }
}
