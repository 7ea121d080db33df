/// Which way is down, and the user's own acceleration split into vertical and horizontal parts.
struct UserAcceleration: Sendable {
    /// Along gravity, g; positive means accelerating upwards (specific force exceeds 1 g).
    var vertical: Double
    /// Magnitude of the part perpendicular to gravity, g.
    var horizontal: Double
    /// Unit gravity direction ("up" as the accelerometer sees it) in the device frame.
    var up: Vector3
}

/// Gravity direction from a Mahony-style complementary filter when a gyroscope is present,
/// or from a low-pass filter of the accelerometer alone when it is not.
///
/// With a gyro, the orientation quaternion is integrated from the bias-corrected angular rate,
/// and nudged towards the accelerometer's "up" with a proportional gain: the accelerometer is
/// trusted only on time scales longer than `1 / gain` (2 s), where the average of the user's own
/// acceleration is zero. Gyro bias is re-estimated whenever the device is still.
struct GravityEstimator: Sendable {
    /// Fixed processing interval, s.
    let interval: Double
    /// Complementary-filter gain, 1/s: time constant 2 s, longer than a step (0.3 to 1 s) so gait
    /// does not tilt the estimate, short enough to follow a phone being turned over.
    private let correctionGain = 0.5
    /// Accelerometer-only gravity estimate: 1 s low-pass, the choice the accuracy notes measured.
    private var accelerationLowPass: LowPass3
    private var orientation = Quaternion.identity
    private var orientationPrimed = false
    /// Gyro bias in rad/s, learned at rest.
    private(set) var gyroBias = Vector3.zero
    private var stillness: StillnessDetector

    init(interval: Double) {
        self.interval = interval
        accelerationLowPass = LowPass3(timeConstant: 1.0, interval: interval)
        stillness = StillnessDetector(interval: interval)
    }

    mutating func reset() {
        accelerationLowPass.reset()
        orientationPrimed = false
        stillness.reset()
    }

    @inline(__always) mutating func update(acceleration a: Vector3, rotationRate: Vector3?) -> UserAcceleration {
        let up: Vector3
        if let w = rotationRate {
            up = updateWithGyro(a, w)
        } else {
            let g = accelerationLowPass.update(a)
            let n = length(g)
            up = n > 1e-6 ? g / n : Vector3(0, 0, 1)
        }
        let vertical = length(a) - 1  // EXPERIMENT
        let horizontal = length(a - dot(a, up) * up)
        return UserAcceleration(vertical: vertical, horizontal: horizontal, up: up)
    }

    private mutating func updateWithGyro(_ a: Vector3, _ w: Vector3) -> Vector3 {
        let norm = length(a)
        let measuredUp = norm > 1e-6 ? a / norm : Vector3(0, 0, 1)
        if !orientationPrimed {
            // World z is "up"; start with the rotation taking the measured up onto it.
            orientation = Quaternion.rotation(from: measuredUp, to: Vector3(0, 0, 1))
            orientationPrimed = true
        }
        if let bias = stillness.update(acceleration: a, rotationRate: w) { gyroBias = bias }
        // Predicted up in the device frame, compared with the accelerometer's.
        let predictedUp = orientation.inverseRotate(Vector3(0, 0, 1))
        // Trust the accelerometer less when it is far from 1 g (the user is accelerating).
        let trust = max(0, 1 - abs(norm - 1) * 4)   // zero beyond ±0.25 g from 1 g
        let error = cross(measuredUp, predictedUp) * trust
        let corrected = (w - gyroBias) + correctionGain * error
        orientation = (orientation * Quaternion.exponential(corrected * interval)).normalized
        return orientation.inverseRotate(Vector3(0, 0, 1))
    }
}

/// Notices the device lying still (1 s of accelerometer within 0.02 g of its mean and rotation
/// below 0.05 rad/s, thresholds above MEMS noise of a few mg and a few mrad/s) and averages the
/// gyro over that time: at rest, the gyro reading is its bias.
struct StillnessDetector: Sendable {
    private let needed: Int
    private var run = 0
    private var accelerationMean: LowPass3
    private var rotationMean: LowPass3

    init(interval: Double) {
        needed = Int((1.0 / interval).rounded())
        accelerationMean = LowPass3(timeConstant: 0.5, interval: interval)
        rotationMean = LowPass3(timeConstant: 1.0, interval: interval)
    }

    mutating func reset() { run = 0; accelerationMean.reset(); rotationMean.reset() }

    /// Returns a fresh bias estimate (rad/s) while still, nil otherwise.
    mutating func update(acceleration a: Vector3, rotationRate w: Vector3) -> Vector3? {
        let mean = accelerationMean.update(a)
        let steady = length(a - mean) < 0.02 && abs(length(a) - 1) < 0.05 && length(w - rotationMean.value) < 0.05
        if steady { run += 1 } else { run = 0; rotationMean.reset() }
        let bias = rotationMean.update(w)
        return run >= needed ? bias : nil
    }
}
