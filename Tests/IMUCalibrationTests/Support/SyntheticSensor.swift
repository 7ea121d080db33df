import Foundation
import IMUCalibration
import IMUSimulation

/// A flawed accelerometer + gyroscope for fit tests, independent of the simulator's motion model:
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
    /// The simulator's seeded generator: the same numbers on every run.
    var random = Xoshiro256StarStar(seed: 7)

    /// `seconds` of readings at rest on `face`, starting at `start`.
    mutating func rest(on face: Face, seconds: Double, start: Double) -> [MotionSample] {
        rest(gravity: face.gravity, seconds: seconds, start: start)
    }

    mutating func rest(gravity: Vector3, seconds: Double, start: Double) -> [MotionSample] {
        (0..<Int(seconds * rate)).map { i in
            let a = scale * misalignment.apply(gravity) + bias + random.gaussian3() * noise
            let r = gyroBias + random.gaussian3() * gyroNoise
            return MotionSample(time: start + Double(i) / rate, acceleration: a, rotationRate: r)
        }
    }

    /// `seconds` of being turned by hand: large, changing readings.
    mutating func handling(seconds: Double, start: Double) -> [MotionSample] {
        (0..<Int(seconds * rate)).map { i in
            let t = Double(i) / rate
            let a = Vector3(0.7 * sin(5 * t), 0.7 * cos(3 * t), 0.5) + random.gaussian3() * 0.05
            return MotionSample(time: start + t, acceleration: a, rotationRate: Vector3(2 * sin(4 * t), 1, -1))
        }
    }
}
