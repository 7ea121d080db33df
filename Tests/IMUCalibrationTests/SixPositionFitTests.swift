import Testing
import Foundation
@testable import IMUCalibration

@Suite struct SixPositionFitTests {
    /// Captures every face of `sensor` for `seconds` each, as the session would.
    func captures(_ sensor: inout SyntheticSensor, seconds: Double = 10) -> [Face: FaceCapture] {
        var result: [Face: FaceCapture] = [:]
        var t = 0.0
        for face in Face.guidedOrder {
            var acc = AxisStatistics(), rot = AxisStatistics(), halves = [AxisStatistics(), AxisStatistics()]
            let samples = sensor.rest(on: face, seconds: seconds, start: t)
            for (i, s) in samples.enumerated() {
                acc.add(s.acceleration!); rot.add(s.rotationRate!)
                halves[i < samples.count / 2 ? 0 : 1].add(s.acceleration!)
            }
            result[face] = FaceCapture(face: face, acceleration: acc, rotationRate: rot, start: t, end: samples.last!.time,
                                       halves: (halves[0], halves[1]))
            t += seconds + 5
        }
        return result
    }

    @Test func recoversSeedBiasAndScale() throws {
        // The raw-sensor seed article's flawed sensor, 10 s per face at 100 Hz.
        var sensor = SyntheticSensor()
        let caps = captures(&sensor)
        let c = try SixPositionFit.fit(caps, key: "k", sourceName: "s", created: "now")
        #expect(simdLength(c.accelerometerBias - sensor.bias) < 0.0005)
        #expect(simdLength(c.accelerometerScale - sensor.scale) < 0.0005)
        #expect(c.misalignment.largestOffDiagonal < 0.001)
        #expect(simdLength(c.gyroscopeBias! - sensor.gyroBias) < 0.0002)
        // |g| before is off by the bias and scale (≈ 0.005 g); after (cross-validated), by noise
        // only: 0.003 g / √500 per half-face mean, so a few 1e-4 g but never the in-sample ≈ 0.
        #expect(c.quality.gravityErrorBefore > 0.003)
        #expect(c.quality.gravityErrorAfter < 0.0005)
        #expect(c.quality.gravityErrorAfter > 0.00001)
        #expect(SixPositionFit.inSampleError(c, caps) < c.quality.gravityErrorAfter / 100)
        #expect(abs(c.quality.faceUpNormAfter - 1) < abs(c.quality.faceUpNormBefore - 1))
        // Noise per axis is measured, not assumed: the model's 0.003 g within 10 %.
        for i in 0..<3 { #expect(abs(c.quality.accelerometerNoise[i] - 0.003) < 0.0003) }
        #expect(abs(c.quality.gyroscopeNoise!.x - 0.002) < 0.0002)
    }

    @Test func recoversMisalignment() throws {
        var sensor = SyntheticSensor()
        sensor.misalignment = Matrix3(rows: Vector3(1, 0.01, -0.02), Vector3(0.015, 1, 0.005), Vector3(-0.01, 0.02, 1))
        let c = try SixPositionFit.fit(captures(&sensor), key: "k", sourceName: "s", created: "now")
        #expect(simdLength(c.accelerometerBias - sensor.bias) < 0.0005)
        #expect(simdLength(c.accelerometerScale - sensor.scale) < 0.0005)
        for r in 0..<3 { for col in 0..<3 { #expect(abs(c.misalignment[r, col] - sensor.misalignment[r, col]) < 0.0005) } }
        // A reading at an arbitrary attitude comes back as the truth.
        let truth = Vector3(0.3, -0.5, 0.81)
        let raw = sensor.scale * sensor.misalignment.apply(truth) + sensor.bias
        #expect(simdLength(c.correct(acceleration: raw) - truth) < 0.001)
        // Without the misalignment term the same reading would be off by ≈ 0.02 g.
        #expect(simdLength((raw - c.accelerometerBias) / c.accelerometerScale - truth) > 0.01)
    }

    @Test func missingFaceIsNamed() {
        var sensor = SyntheticSensor()
        var caps = captures(&sensor, seconds: 1)
        caps[.yDown] = nil
        #expect(throws: CalibrationError.missingFaces([.yDown])) {
            try SixPositionFit.fit(caps, key: "k", sourceName: "s", created: "now")
        }
    }

    @Test func swappedFacesAreRejected() {
        var sensor = SyntheticSensor()
        var caps = captures(&sensor, seconds: 1)
        (caps[.xUp], caps[.xDown]) = (caps[.xDown], caps[.xUp])
        #expect(throws: CalibrationError.self) {
            try SixPositionFit.fit(caps, key: "k", sourceName: "s", created: "now")
        }
    }

    @Test func gyroBiasAbsentWithoutGyroscope() throws {
        var sensor = SyntheticSensor()
        var caps = captures(&sensor, seconds: 1)
        for f in Face.allCases { caps[f]!.rotationRate = AxisStatistics() }
        let c = try SixPositionFit.fit(caps, key: "k", sourceName: "s", created: "now")
        #expect(c.gyroscopeBias == nil)
        #expect(c.quality.gyroscopeNoise == nil)
    }
}

func simdLength(_ v: Vector3) -> Double { (v * v).sum().squareRoot() }
