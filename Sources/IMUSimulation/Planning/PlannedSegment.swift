#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the device is and how it moves at one instant, before any sensor error.
struct MotionState {
    /// Acceleration of the device in the world frame, g (gravity not included).
    var acceleration: Vector3
    /// Altitude above sea level, m.
    var altitude: Double
    /// Standard deviation (g) of broadband vibration to add on top (road roughness), per sample.
    var roughness: Double
}

/// A scenario segment with every random choice already made: its motion is a pure function of time.
struct PlannedSegment: Sendable {
    var segment: Segment
    /// Start, s from the scenario start.
    var start: Double
    var duration: Double
    var end: Double { start + duration }

    /// Device → body rotation at the start of the blend and after it.
    var mountFrom: Quaternion
    var mountTo: Quaternion
    /// Seconds at the segment start over which the mount turns from `mountFrom` to `mountTo` (0 = none).
    var blendSeconds: Double

    /// Heading at the segment start, radians (counter-clockwise from east).
    var headingStart: Double
    var heading: HeadingProfile

    /// Altitude at the segment start, m.
    var altitudeStart: Double
    /// Altitude change over the segment, m.
    var altitudeChange: Double

    var gait: GaitPhase?
    /// Phase of the gait at the end of the segment, radians.
    var finalPhase: Double = 0
    var sway = SwayAmplitudes(pitchStep: 0, pitchStride: 0, rollStride: 0, yawStride: 0)
    var bus: BusProfile?
    var elevator: ElevatorProfile?
    /// Random phases (radians) for oscillations that must not line up between segments.
    var phases: [Double] = []
    /// Frequencies (Hz) of the injected shaking, one per world axis plus one for rotation.
    var shakeFrequencies: [Double] = []

    /// Seconds over which gaits, waving and rides fade in and out: the first and last step are gentler.
    static let rampSeconds = 0.4
    /// Lift of the device during a transition, m (picked up a hand's height, illustrative).
    static let transitionLiftMeters = 0.08

    // MARK: Orientation

    /// Device → world rotation at segment time τ.
    func orientation(_ tau: Double) -> Quaternion {
        let heading = headingStart + heading.heading(at: tau).angle
        var body = Quaternion.identity   // body sway: pitch, roll, yaw in the body frame
        switch segment.kind {
        case .stroll, .walk, .run, .stairsUp, .stairsDown:
            let phi = gait!.phase(tau)
            let e = Easing.envelope(tau, duration: duration, ramp: Self.rampSeconds)
            let pitch = e * (sway.pitchStep * sin(phi + 0.5) + sway.pitchStride * sin(phi / 2 + phases[0]))
            let roll = e * sway.rollStride * sin(phi / 2 + phases[1])
            let yaw = e * sway.yawStride * sin(phi / 2 + phases[2])
            body = .rotationY(pitch) * .rotationX(roll) * .rotationZ(yaw)
        case .wave:
            // The wrist tips the phone ±15° in step with the wave (illustrative).
            let e = Easing.envelope(tau, duration: duration, ramp: Self.rampSeconds)
            body = .rotationY(e * 15 * .pi / 180 * sin(2 * .pi * segment.cadence * tau + 0.4))
        case .bus:
            // The bus body rolls on its suspension at ~0.7 Hz (the seed article's sway frequency),
            // ±1.5° at speed, and pitches back ~0.5° per m/s² of acceleration (illustrative).
            let e = Easing.envelope(tau, duration: duration, ramp: 1)
            let (speed, accel) = bus!.motion(at: tau)
            let k = 0.3 + 0.7 * speed / bus!.topSpeed
            let roll = e * k * 1.5 * .pi / 180 * sin(2 * .pi * 0.7 * tau + phases[0])
            let pitch = e * 0.5 * .pi / 180 * accel
            body = .rotationY(pitch) * .rotationX(roll) * handTremor(tau, envelope: e)
        case .elevatorUp, .elevatorDown:
            body = handTremor(tau, envelope: Easing.envelope(tau, duration: duration, ramp: 1))
        case .still, .face, .transition:
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

    /// A person holding a device still is never perfectly still: ~0.5° of slow wobble (illustrative).
    private func handTremor(_ tau: Double, envelope e: Double) -> Quaternion {
        let degree = Double.pi / 180
        return .rotationY(e * 0.5 * degree * sin(2 * .pi * 0.23 * tau + phases[1]))
            * .rotationX(e * 0.4 * degree * sin(2 * .pi * 0.31 * tau + phases[2]))
    }

    private func mount(_ tau: Double) -> Quaternion {
        guard blendSeconds > 0, tau < blendSeconds else { return mountTo }
        return Quaternion.slerp(mountFrom, mountTo, Easing.minimumJerk(tau / blendSeconds))
    }

    // MARK: Translation

    /// Acceleration (world, g), altitude and roughness at segment time τ.
    func translation(_ tau: Double) -> MotionState {
        var body = Vector3.zero          // acceleration in the body frame (x forward, y left, z up), g
        var altitude = altitudeStart
        var roughness = 0.0
        let g = Units.standardGravity
        let turn = heading.heading(at: tau)
        switch segment.kind {
        case .stroll, .walk, .run, .stairsUp, .stairsDown:
            let gait = gait!
            let phi = gait.phase(tau)
            let e = Easing.envelope(tau, duration: duration, ramp: Self.rampSeconds)
            let a = segment.amplitude
            // Vertical bounce once per step: fundamental, a harmonic and a heel-strike spike
            // 0.3 rad after the step (the seed article's shape), minus the spike's mean so the
            // body does not drift upward.
            let cycle = phi - 2 * Double.pi * (phi / (2 * Double.pi)).rounded(.down)
            let spike = exp(-((cycle - 0.3) / 0.15) * ((cycle - 0.3) / 0.15))
            let spikeMean = 0.15 * Double.pi.squareRoot() / (2 * Double.pi)   // ∫exp(−(x/0.15)²)dx / 2π
            let vertical = sin(phi) + 0.35 * sin(2 * phi + 0.7) + 0.8 * (spike - spikeMean)
            // Forward surge once per step (braking at heel strike), lateral sway once per stride.
            let forward = -0.4 * cos(phi + 0.3) + 0.25 * (spike - spikeMean)
            let lateral = 0.3 * sin(phi / 2 + phases[1])
            let speed = gait.cadence(at: tau) * segment.stepLengthMeters
            body = e * a * Vector3(forward, lateral, vertical)
            body.y += speed * turn.rate / g                     // centripetal acceleration in turns
            if altitudeChange != 0 {
                altitude += altitudeChange * (phi - gait.initialPhase) / (finalPhase - gait.initialPhase)
            }
        case .wave:
            let e = Easing.envelope(tau, duration: duration, ramp: Self.rampSeconds)
            body.z = e * segment.amplitude * sin(2 * .pi * segment.cadence * tau)
        case .bus:
            let bus = bus!
            let e = Easing.envelope(tau, duration: duration, ramp: 1)
            let (speed, accel) = bus.motion(at: tau)
            let k = 0.3 + 0.7 * speed / bus.topSpeed
            // Suspension sway at 0.7 Hz (vertical 0.08 g, lateral 0.04 g at speed), road bumps at
            // 1.3 and 2.1 Hz, and a 28 Hz diesel idle vibration of 0.01 g (illustrative figures).
            let sway = 2 * Double.pi * 0.7 * tau
            body.x = accel / g
            body.y = speed * turn.rate / g + e * k * 0.04 * sin(sway + phases[0])
            body.z = e * (k * 0.08 * sin(sway + phases[1])
                          + k * 0.03 * (sin(2 * .pi * 1.3 * tau + phases[2]) + sin(2 * .pi * 2.1 * tau + phases[3]))
                          + 0.01 * sin(2 * .pi * 28 * tau))
            roughness = 0.02 * speed / bus.topSpeed      // broadband road vibration, g
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
        case .still, .face:
            break
        }
        if segment.shake > 0 {
            let e = Easing.envelope(tau, duration: duration, ramp: 0.5)
            body += e * segment.shake * Vector3(sin(2 * .pi * shakeFrequencies[0] * tau),
                                                sin(2 * .pi * shakeFrequencies[1] * tau + 1),
                                                sin(2 * .pi * shakeFrequencies[2] * tau + 2))
        }
        let world = Quaternion.rotationZ(headingStart + turn.angle).rotate(body)
        return MotionState(acceleration: world, altitude: altitude, roughness: roughness)
    }
}
