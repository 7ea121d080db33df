#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a planned segment turns the device.
extension PlannedSegment {
    /// Device → world rotation at segment time τ.
    func orientation(_ tau: Double) -> Quaternion {
        let heading = headingStart + heading.heading(at: tau).angle
        var body = Quaternion.identity   // body sway: pitch, roll, yaw in the body frame
        switch segment.kind {
        case .stroll, .walk, .run, .stairsUp, .stairsDown:
            body = gaitSway(tau)
        case .wave:
            // The wrist tips the phone ±15° in step with the wave (illustrative).
            let e = Easing.envelope(tau, duration: duration, ramp: Self.waveRampSeconds)
            body = .rotationY(e * 15 * .pi / 180 * sin(2 * .pi * segment.cadence * tau + 0.4))
        case .bus, .ride:
            // The bus body rolls on its suspension (`BusVibration.roll`) and pitches back ~0.5° per
            // m/s² of acceleration (illustrative).
            let e = Easing.envelope(tau, duration: duration, ramp: 1)
            let (speed, accel) = bus!.motion(at: tau)
            let k = BusVibration.intensity(speed: speed, top: bus!.topSpeed)
            let roll = e * k * busVibration!.roll.value(at: tau)
            let pitch = e * 0.5 * .pi / 180 * accel
            body = .rotationY(pitch) * .rotationX(roll) * handTremor(tau, envelope: e)
        case .elevatorUp, .elevatorDown:
            body = handTremor(tau, envelope: Easing.envelope(tau, duration: duration, ramp: 1))
        case .transition:
            // Hands do not turn a device about one clean axis: ±4° of wobble about a random axis
            // at ~0.8 Hz, zero at both ends (illustrative).
            let u = min(1, max(0, tau / duration))
            let wobble = sin(Double.pi * u) * sin(Double.pi * u) * 4 * .pi / 180 * sin(2 * .pi * 0.8 * tau + phases[0])
            body = Quaternion(axis: Vector3(cos(phases[1]), sin(phases[1]), cos(phases[2])), angle: wobble)
        case .still, .face:
            break
        }
        if segment.shake > 0 {
            // Rotational part of shaking: 3° per 0.3 g of shake (illustrative).
            let e = Easing.envelope(tau, duration: duration, ramp: 0.5)
            let angle = e * (segment.shake / 0.3) * 3 * .pi / 180 * sin(2 * .pi * shakeFrequencies[3] * tau)
            body = body * Quaternion(axis: Vector3(1, 0.5, 0.3), angle: angle)
        }
        return .rotationZ(heading) * body * mount(tau)
    }

    /// The device's swing in the body frame during a gait: pitch, roll and yaw about the pivot
    /// (hip, shoulder, wrist) it hangs from.
    @inline(__always) func gaitSway(_ tau: Double) -> Quaternion {
        let phi = gait!.phase(tau)
        let e = Easing.envelope(tau, duration: duration, ramp: Self.rampSeconds)
        let pitch = e * (sway.pitchStep * sin(phi + 0.5) + sway.pitchStride * sin(phi / 2 + phases[0]))
        let roll = e * sway.rollStride * sin(phi / 2 + phases[1])
        let yaw = e * sway.yawStride * sin(phi / 2 + phases[2])
        return .rotationY(pitch) * .rotationX(roll) * .rotationZ(yaw)
    }

    /// A person holding a device still is never perfectly still: ~0.5° of slow wobble (illustrative).
    func handTremor(_ tau: Double, envelope e: Double) -> Quaternion {
        let degree = Double.pi / 180
        return .rotationY(e * 0.5 * degree * sin(2 * .pi * 0.23 * tau + phases[1]))
            * .rotationX(e * 0.4 * degree * sin(2 * .pi * 0.31 * tau + phases[2]))
    }

    func mount(_ tau: Double) -> Quaternion {
        guard blendSeconds > 0, tau < blendSeconds else { return mountTo }
        return Quaternion.slerp(mountFrom, mountTo, Easing.minimumJerk(tau / blendSeconds))
    }
}
