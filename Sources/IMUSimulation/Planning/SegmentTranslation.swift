#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a planned segment moves the device: acceleration, altitude, vibration.
extension PlannedSegment {
    /// Strength factor of step `k`, 0.9…1.1: a hash of the step number, so it needs no memory.
    @inline(__always) func stepStrength(_ k: Int) -> Double {
        var mixer = SplitMix64(seed: stepSeed ^ UInt64(bitPattern: Int64(k)))
        return 0.9 + 0.2 * Double(mixer.next() >> 11) * 0x1.0p-53
    }

    /// Seconds a gait takes to reach its walking speed from rest (and to stop).
    static let gaitSpeedRampSeconds = 1.5

    /// How long before a transition's end the device knocks on the table, s.
    static let knockBeforeEnd = 0.08

    /// Acceleration (world, g), altitude and roughness at segment time τ.
    func translation(_ tau: Double) -> MotionState {
        var body = Vector3.zero          // acceleration in the body frame (x forward, y left, z up), g
        var altitude = altitudeStart
        var roughness = 0.0
        let g = Units.standardGravity
        let turn = heading.heading(at: tau)
        switch segment.kind {
        case .stroll, .walk, .run, .stairsUp, .stairsDown:
            (body, roughness) = gaitAcceleration(tau, turnRate: turn.rate)
            altitude += stairHeight(tau)
        case .wave:
            // Defined by position, so the hand ends where it started, at rest.
            let envelope = Easing.envelopeDerivatives(tau, duration: duration, ramp: Self.waveRampSeconds)
            body.z = Easing.oscillation(amplitude: segment.amplitude, omega: 2 * .pi * segment.cadence, phase: 0,
                                        tau: tau, envelope: envelope)
        case .bus, .ride:
            (body, roughness) = busAcceleration(tau, turnRate: turn.rate)
        case .elevatorUp, .elevatorDown:
            let ride = elevator!.motion(at: tau)
            altitude += ride.height
            body.z = ride.acceleration / g
        case .transition:
            // Lifted and set down: h = L·64u³(1−u)³, zero velocity and acceleration at both ends.
            let u = min(1, max(0, tau / duration))
            let v = u - u * u
            altitude += Self.transitionLiftMeters * 64 * v * v * v
            let second = 6 * v * ((1 - 2 * u) * (1 - 2 * u) - v)     // d²(v³)/du²
            body.z = Self.transitionLiftMeters * 64 * second / (duration * duration) / g
            // Set down with a small knock just before the end: ±0.15 g within ~30 ms (illustrative),
            // shaped as the derivative of a Gaussian so that it adds no net velocity.
            let knock = (tau - (duration - Self.knockBeforeEnd)) / 0.01
            body.z += 0.15 / 0.858 * 2 * knock * exp(-knock * knock)      // 0.858 = max of 2x·e^(−x²)
        case .still, .face:
            break
        }
        if segment.shake > 0 {
            // Shaken in place: by position, like the wave, on three axes at their own frequencies.
            let envelope = Easing.envelopeDerivatives(tau, duration: duration, ramp: 0.5)
            for axis in 0..<3 {
                body[axis] += Easing.oscillation(amplitude: segment.shake, omega: 2 * .pi * shakeFrequencies[axis],
                                                 phase: Double(axis), tau: tau, envelope: envelope)
            }
        }
        let world = Quaternion.rotationZ(headingStart + turn.angle).rotate(body)
        return MotionState(acceleration: world, altitude: altitude, roughness: roughness)
    }
}
