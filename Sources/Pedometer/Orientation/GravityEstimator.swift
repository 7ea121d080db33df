/// Which way is down, and the user's own acceleration split into vertical and horizontal parts.
struct UserAcceleration: Sendable {
    /// Along gravity, g; positive means accelerating upwards (specific force exceeds 1 g).
    var vertical: Double
    /// Magnitude of the specific force minus 1 g: the gait signal. It needs no orientation at
    /// all, so a phone swinging in a pocket, where a low-pass gravity estimate swings with the
    /// thigh, reads the same as one held still in the hand. On the oxford recordings (no gyro)
    /// counting on it measured 4.8% MAPE against 5.6% on the low-pass vertical projection at the
    /// same stage of development; with the gyro's true vertical, the simulator's run read −11.6%
    /// and its short walks −4.0% against +0.8% and −0.7% on the magnitude (the
    /// cause of the run's loss was not investigated further).
    var magnitude: Double
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
///
/// The quaternion filter runs on pairs of ticks (25 Hz at the 50 Hz internal rate), on their mean
/// acceleration and rotation; the first tick of each pair turns the last "up" by its own gyro
/// reading alone (du/dt = u × ω in the device frame). Gravity's direction changes on the time
/// scale of seconds, and the filter was the largest per-tick cost: at 25 Hz input the whole core
/// ran 4.9 million samples/s with it on every tick and 5.5 with it on every other one. The
/// stillness detector still sees every tick: on pair means (half the noise variance) it took
/// the simulator's bus ride for rest and learned a wrong gyro bias (tilt error after the
/// following run: 0.10 g of apparent horizontal acceleration instead of 0.05).
struct GravityEstimator: Sendable {
    /// Fixed processing interval (one tick), s.
    let interval: Double
    /// Update interval of the quaternion filter: two ticks, s.
    private let filterInterval: Double
    /// Complementary-filter gain, 1/s: time constant 2 s, longer than a step (0.3 to 1 s) so gait
    /// does not tilt the estimate, short enough to follow a phone being turned over.
    private let correctionGain = 0.5
    /// Accelerometer-only gravity estimate: 1 s low-pass, the choice the accuracy notes measured.
    private var accelerationLowPass: LowPass3
    private var orientation = Quaternion.identity
    private var orientationPrimed = false
    private var renormaliseCountdown = 0
    /// "Up" in the device frame from the current orientation.
    private var predictedUp = Vector3(0, 0, 1)
    /// Gyro bias in rad/s, learned at rest.
    private(set) var gyroBias = Vector3.zero
    private var stillness: StillnessDetector
    /// The first tick of the current pair, held until its second arrives.
    private var heldAcceleration = Vector3.zero
    private var heldRotation = Vector3.zero
    private var holding = false

    init(interval: Double) {
        self.interval = interval
        filterInterval = 2 * interval
        accelerationLowPass = LowPass3(timeConstant: 1.0, interval: interval)
        stillness = StillnessDetector(interval: interval)
    }

    mutating func reset() {
        accelerationLowPass.reset()
        orientationPrimed = false
        holding = false
        stillness.reset()
    }

    @inline(__always) mutating func update(acceleration a: Vector3, rotationRate: Vector3?) -> UserAcceleration {
        let squared = dot(a, a)
        let norm = squared.squareRoot()
        let up: Vector3
        if let w = rotationRate {
            up = updateWithGyro(a, w, norm: norm, squared: squared)
        } else {
            let g = accelerationLowPass.update(a)
            let n = length(g)
            up = n > 1e-6 ? g / n : Vector3(0, 0, 1)
        }
        let along = dot(a, up)
        // |a − (a·up) up| = √(|a|² − (a·up)²) for a unit `up`.
        let horizontal = max(0, squared - along * along).squareRoot()
        return UserAcceleration(vertical: along - 1, magnitude: norm - 1, horizontal: horizontal, up: up)
    }

    private mutating func updateWithGyro(_ a: Vector3, _ w: Vector3, norm: Double, squared: Double) -> Vector3 {
        if !orientationPrimed {
            // World z is "up"; start with the rotation taking the measured up onto it.
            let measuredUp = norm > 1e-6 ? a * (1 / norm) : Vector3(0, 0, 1)
            orientation = Quaternion.rotation(from: measuredUp, to: Vector3(0, 0, 1))
            predictedUp = measuredUp
            orientationPrimed = true
            holding = false
            return predictedUp
        }
        if let bias = stillness.update(acceleration: a, rotationRate: w, squaredNorm: squared) { gyroBias = bias }
        guard holding else {
            // First tick of a pair: hold it; "up" turns by this tick's rotation alone, to second
            // order (Rodrigues' formula to θ²), with one Newton step back to unit length.
            heldAcceleration = a
            heldRotation = w
            holding = true
            let angle = (w - gyroBias) * interval
            let turn = cross(predictedUp, angle)
            let u = predictedUp + turn + 0.5 * cross(turn, angle)
            return u * (1.5 - 0.5 * dot(u, u))
        }
        holding = false
        // Two-sample coning correction: turning by θ₁ then θ₂ about different axes is not a turn
        // by θ₁ + θ₂; for a rate varying linearly over the pair the rotation vector is
        // θ₁ + θ₂ + ⅔ θ₁ × θ₂ (Savage, "Strapdown inertial navigation integration algorithm
        // design", J. Guidance 21(1), 1998). One cross product; on the simulator's armband run it
        // trims the tilt left afterwards only slightly (0.046 → 0.045 g), but a phone turned about
        // a wandering axis needs it.
        let coning = (2.0 / 3.0) * interval * cross(heldRotation - gyroBias, w - gyroBias)
        return updatePair(acceleration: (heldAcceleration + a) * 0.5, rotationRate: (heldRotation + w) * 0.5,
                          coning: coning)
    }

    /// One step of the quaternion filter over `filterInterval`, on a pair's mean readings;
    /// `coning` (rad/s) is added to the rate to account for the pair's change of axis.
    private mutating func updatePair(acceleration a: Vector3, rotationRate w: Vector3, coning: Vector3) -> Vector3 {
        let squared = dot(a, a)
        let norm = squared.squareRoot()
        let measuredUp = norm > 1e-6 ? a * (1 / norm) : Vector3(0, 0, 1)
        // `predictedUp` is the up of the orientation before this pair, compared with the accelerometer's.
        // Trust the accelerometer less when it is far from 1 g (the user is accelerating).
        let trust = max(0, 1 - abs(norm - 1) * 4)   // zero beyond ±0.25 g from 1 g
        let error = cross(measuredUp, predictedUp) * trust
        let corrected = (w - gyroBias) + coning + correctionGain * error
        orientation = orientation * Quaternion.exponential(corrected * filterInterval)
        // The exponential is unit to ~1e-10 and each product adds rounding of ~1e-16, so
        // renormalising every 32nd update (1.3 s) keeps |q| within 1e-9 of 1 at a fraction of the cost.
        renormaliseCountdown -= 1
        if renormaliseCountdown <= 0 { orientation = orientation.normalized; renormaliseCountdown = 32 }
        predictedUp = orientation.worldUpInDevice
        return predictedUp
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
    /// `squaredNorm` is |a|² (g²), computed by the caller anyway.
    mutating func update(acceleration a: Vector3, rotationRate w: Vector3, squaredNorm: Double) -> Vector3? {
        let mean = accelerationMean.update(a)
        let da = a - mean, dw = w - rotationMean.value
        // Compared squared: |a − mean| < 0.02 g, ||a| − 1| < 0.05 g (0.95² < |a|² < 1.05²), |ω − mean| < 0.05 rad/s.
        let steady = dot(da, da) < 0.0004 && squaredNorm > 0.9025 && squaredNorm < 1.1025 && dot(dw, dw) < 0.0025
        if steady { run += 1 } else { run = 0; rotationMean.reset() }
        let bias = rotationMean.update(w)
        return run >= needed ? bias : nil
    }
}
