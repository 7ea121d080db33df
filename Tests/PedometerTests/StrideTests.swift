import Testing
@testable import Pedometer

@Suite struct StrideTests {
    @Test func heightModelIsAboutFortyPercentOfHeightAtAWalk() {
        let model = StrideModel(height: 1.75)
        #expect(abs(model.stride(cadence: 1.8) - 0.415 * 1.75) < 1e-9)
        #expect(model.stride(cadence: 2.8) > model.stride(cadence: 1.6))
        #expect(StrideModel(height: 1.5).stride(cadence: 1.8) < model.stride(cadence: 1.8))
    }

    @Test func calibrationGoesThroughBothPaces() throws {
        let model = try #require(StrideModel(calibratedFrom: (1.8, 0.72), (2.0, 0.82)))
        #expect(abs(model.stride(cadence: 1.8) - 0.72) < 1e-12)
        #expect(abs(model.stride(cadence: 2.0) - 0.82) < 1e-12)
        // Seed figures: the line stays within about 6% at a run (2.8 steps/s, 1.15 m).
        #expect(abs(model.stride(cadence: 2.8) / 1.15 - 1) < 0.07)
        #expect(StrideModel(calibratedFrom: (1.8, 0.7), (1.8, 0.8)) == nil)
        #expect(StrideModel(calibratedFrom: (1.8, -0.7), (2.0, 0.8)) == nil)
    }

    @Test func distanceAndPaceFollowTheCalibratedModel() throws {
        let sim = simulate("walk")
        var configuration = PedometerConfiguration()
        configuration.strideCalibration = StrideModel(intercept: 0.7, slope: 0)   // 0.7 m per step
        let (_, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities, configuration: configuration)
        #expect(abs(snapshot.distanceMeters - 0.7 * Double(snapshot.steps)) < 1e-6)
        let pace = try #require(snapshot.averageActivePace)
        #expect(abs(pace - snapshot.activeDuration / snapshot.distanceMeters) < 1e-9)
        #expect(snapshot.currentCadence == nil, "no live cadence after finish()")
    }
}
