import Testing
import Foundation
import IMUSimulation
@testable import IMUCalibration

@Suite struct CalibratedSourceTests {
    @Test func samplesArriveCorrected() async throws {
        // A still device on a flawed sensor, corrected with that sensor's own calibration.
        var options = SimulationOptions()
        options.accelerometer = SensorErrorModel(scale: Vector3(1.02, 0.98, 1.03), bias: Vector3(0.05, -0.04, 0.06),
                                                 misalignment: SensorErrorModel.crossAxis(0.02), noise: 0.001)
        options.gyroscope = SensorErrorModel(bias: Vector3(0.02, 0.01, -0.03), noise: 0.0005)
        let source = SimulatedSource(scenario: Scenario(name: "rest", segments: [Segment(.still, seconds: 5)]),
                                     options: options, speed: .infinity)
        let m = options.accelerometer.misalignment
        let calibration = Calibration(key: source.info.calibrationKey, sourceName: "t", created: "t",
                                      accelerometerBias: options.accelerometer.bias, accelerometerScale: options.accelerometer.scale,
                                      misalignment: Matrix3(m)!, gyroscopeBias: options.gyroscope.bias)
        var raw = AxisStatistics(), corrected = AxisStatistics(), gyro = AxisStatistics()
        for try await batch in source.batches() { for s in batch { raw.add(s.acceleration!) } }
        for try await batch in CalibratedSource(source, calibration: calibration).batches() {
            for s in batch { corrected.add(s.acceleration!); gyro.add(s.rotationRate!) }
        }
        #expect(raw.count == corrected.count && raw.count > 400)
        let gravity = corrected.mean   // |g| is 1 whatever the attitude
        #expect(simdLength(gravity) > 0.999 && simdLength(gravity) < 1.001)
        #expect(abs(simdLength(raw.mean) - 1) > 0.02)   // the raw readings were visibly off
        #expect(simdLength(gyro.mean) < 0.001)
    }

    @Test func savedCalibrationIsFoundByKeyAndAnnounced() throws {
        let dir = NSTemporaryDirectory() + "imukit-saved-\(UUID().uuidString)"
        let store = CalibrationStore(userDirectory: dir)
        let source = SimulatedSource(scenario: Scenario.named("still")!)
        var (wrapped, message) = try SavedCalibration.apply(to: source, store: store)
        #expect(message == nil && !(wrapped is CalibratedSource))
        let path = try store.save(Calibration(key: "sim:still", sourceName: "s", created: "t", accelerometerBias: .zero,
                                              accelerometerScale: Vector3(1, 1, 1), gyroscopeBias: nil))
        (wrapped, message) = try SavedCalibration.apply(to: source, store: store)
        #expect(message == "using calibration for sim:still from \(path)")
        #expect(wrapped is CalibratedSource)
    }
}
