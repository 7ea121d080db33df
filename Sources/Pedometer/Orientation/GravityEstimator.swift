/// The user's own acceleration, split the two ways the pedometer uses it.
struct UserAcceleration: Sendable {
    /// Magnitude of the specific force minus 1 g: the gait signal. It needs no orientation at
    /// all, so a phone swinging in a pocket, where a low-pass gravity estimate swings with the
    /// thigh, reads the same as one held still in the hand. On the oxford recordings (no gyro)
    /// counting on it measured 4.8% MAPE against 5.6% on the low-pass vertical projection at the
    /// same stage of development.
    var magnitude: Double
    /// Magnitude of the part perpendicular to gravity, g: the fore-aft and sideways motion that
    /// tells a walk from a vehicle's vertical bounce (`GaitGate.vehicleWalkHorizontal`) and
    /// feeds the activity labels.
    var horizontal: Double
}

/// Gravity from the accelerometer alone: a 1 s low-pass of the specific force (the choice the
/// accuracy notes measured), and the user's acceleration around it.
///
/// There was a gyro-aided (Mahony-style quaternion) filter here too. Measured by
/// `imu-bench-accuracy --only orientation` on every recording with a gyroscope (15 real-dev
/// lower-back walks, a car ride, 18 simulator scenarios): it changed no step count, changed the
/// activity label in 15 of 3417 s (the boarding of the synthetic day's bus, a few seconds
/// earlier or later), and cost the core 1.2 to 1.7 times its time. It was removed (docs/steps.md).
struct GravityEstimator: Sendable {
    /// Low-pass time constant, s: longer than a step (0.3 to 1 s), so gait does not tilt the
    /// estimate; short enough to follow a phone turned over within a few seconds.
    static let timeConstant = 1.0
    private var lowPass: LowPass3

    init(interval: Double) {
        lowPass = LowPass3(timeConstant: Self.timeConstant, interval: interval)
    }

    mutating func reset() { lowPass.reset() }

    @inline(__always) mutating func update(acceleration a: Vector3) -> UserAcceleration {
        let squared = dot(a, a)
        let g = lowPass.update(a)
        // |a − (a·up) up| = √(|a|² − (a·up)²) for the unit `up` = g/|g|, and (a·up)² = (a·g)²/|g|²:
        // no square root and one division instead of three per tick. Below |g| = 10⁻⁶ g
        // (a free fall) `up` is the device's z axis.
        let gg = dot(g, g)
        let along = dot(a, g)
        let alongSquared = gg > 1e-12 ? along * along / gg : a.z * a.z
        let horizontal = max(0, squared - alongSquared).squareRoot()
        return UserAcceleration(magnitude: squared.squareRoot() - 1, horizontal: horizontal)
    }
}
