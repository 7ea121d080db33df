import Foundation
import IMUCalibration

/// A flawed accelerometer + gyroscope for fit tests, independent of the simulator:
/// raw = S · (M · truth) + b + noise (the model docs/CONTRACTS.md §5 inverts), with a seeded
/// generator so every run sees the same numbers.
struct SyntheticSensor {
    var scale = Vector3(1.002, 0.997, 1.005)
    var bias = Vector3(0.004, -0.006, 0.010)
    var misalignment = Matrix3.identity
    var noise = 0.003
    var gyroBias = Vector3(0.002, -0.001, 0.003)
    var gyroNoise = 0.002
    var rate = 100.0
    var random = SplitMix(seed: 7)

    /// `seconds` of readings at rest on `face`, starting at `start`.
    mutating func rest(on face: Face, seconds: Double, start: Double) -> [MotionSample] {
        rest(gravity: face.gravity, seconds: seconds, start: start)
    }

    mutating func rest(gravity: Vector3, seconds: Double, start: Double) -> [MotionSample] {
        (0..<Int(seconds * rate)).map { i in
            let a = scale * misalignment.apply(gravity) + bias + random.gaussianVector() * noise
            let r = gyroBias + random.gaussianVector() * gyroNoise
            return MotionSample(time: start + Double(i) / rate, acceleration: a, rotationRate: r)
        }
    }

    /// `seconds` of being turned by hand: large, changing readings.
    mutating func handling(seconds: Double, start: Double) -> [MotionSample] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            let a = Vector3(0.7 * sin(5 * t), 0.7 * cos(3 * t), 0.5) + random.gaussianVector() * 0.05
            return MotionSample(time: start + t, acceleration: a, rotationRate: Vector3(2 * sin(4 * t), 1, -1))
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014) with Box–Muller normals: small, seeded, deterministic.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }
    mutating func gaussian() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
    }
    mutating func gaussianVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
}
