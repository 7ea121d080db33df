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
    static let gaitSpeedRampSeconds = 1.0

    /// How long before a transition's end the device knocks on the table, s.
    static let knockBeforeEnd = 0.08

    /// Share of a running step during which the foot is on the ground.
    static let runningContactFraction = 0.4

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
            // Vertical bounce once per step: fundamental, a second harmonic and a heel-strike spike
            // 0.3 rad after foot contact (the seed article's terms and sizes), minus the spike's mean
            // so the body does not drift upward. The bounce peaks a quarter step after contact (the
            // body's lowest point, at the end of double support). The harmonic's phase (−1.2 rad) makes
            // the peak sharp and the mid-stance trough broad, so the signal is positively skewed as
            // real vertical acceleration is; the seed's phase (+0.7) gives the opposite skew.
            let heel = segment.heelStrike * sway.impact
            let cycles = phi / (2 * Double.pi)
            let step = cycles.rounded(.down)
            let cycle = phi - 2 * Double.pi * step
            let spike = exp(-((cycle - 0.3) / 0.15) * ((cycle - 0.3) / 0.15))
            let spikeMean = 0.15 * Double.pi.squareRoot() / (2 * Double.pi)   // ∫exp(−(x/0.15)²)dx / 2π
            // No two steps are alike: each step's strength varies by ±10% (smoothly from one step to
            // the next), and left and right steps differ by ±6% (illustrative figures).
            let fraction = Easing.minimumJerk(cycles - step)
            let strength = stepStrength(Int(step)) * (1 - fraction) + stepStrength(Int(step) + 1) * fraction
            let limp = 1 + 0.06 * cos((phi - 0.3) / 2)
            // The pocket's own leg lands harder: ±asymmetry on alternate spikes (steps are at 2πk, so
            // cos((φ − 0.3)/2) is +1 and −1 on alternate spikes).
            let nearFoot = 1 + sway.asymmetry * cos((phi - 0.3) / 2)
            // Soft tissue and clothing ring after the impact: ~14 Hz at a walk (8 per radian of
            // step phase), dying away in ~45 ms (0.5 rad), half the spike's size (illustrative).
            let sinceStrike = cycle - 0.3
            let ring = sinceStrike > 0 ? 0.5 * exp(-sinceStrike / 0.5) * sin(8 * sinceStrike) : 0
            let ringMean = 0.5 * 8 / (8 * 8 + 1 / (0.5 * 0.5)) / (2 * Double.pi)  // ∫e^(−x/τ)sin(ωx)dx = ω/(ω²+τ⁻²)
            let impact = heel * nearFoot * (spike - spikeMean + ring - ringMean)
            let bounce: Double
            if segment.kind == .run {
                // Running: a half-sine push while the foot is on the ground (40% of the step; contact
                // is ~0.13–0.15 s of a 0.36 s step at 2.8 steps/s), free flight the rest of the time.
                // Scaled so the flight sits `amplitude` g below gravity's 1 g (a = −1 g would be
                // free fall); its mean is zero like every other gait term.
                let duty = Self.runningContactFraction
                let pulse = cycle < 2 * Double.pi * duty ? sin(cycle / (2 * duty)) : 0
                let pulseMean = 2 * duty / Double.pi
                bounce = (pulse - pulseMean) / pulseMean
            } else {
                bounce = sin(phi) + 0.35 * sin(2 * phi - 1.2)
            }
            let vertical = (bounce + impact) * strength * limp
            // Forward surge once per step (braking at heel strike), lateral sway once per stride.
            let forward = (-0.4 * cos(phi + 0.3) + 0.25 * (spike - spikeMean)) * strength
            let lateral = 0.3 * sin(phi / 2 + phases[1])
            // Getting going and stopping: the walking speed rises from rest over the first second
            // and falls back over the last (about two steps each way; illustrative), so the forward
            // acceleration integrates to the walker's real velocity.
            let ramp = min(Self.gaitSpeedRampSeconds, duration / 4)
            let cruise = gait.cadence * segment.stepLengthMeters
            let rising = Easing.minimumJerk(tau / ramp), falling = Easing.minimumJerk((duration - tau) / ramp)
            let speed = cruise * rising * falling
            let speedChange = cruise * (Easing.minimumJerkRate(tau / ramp) * falling
                                        - rising * Easing.minimumJerkRate((duration - tau) / ramp)) / ramp
            // Irregular body motion on top of the rhythm: 0.02 g, the pedometer seed article's figure.
            roughness = 0.02 * e
            body = e * a * Vector3(forward, lateral, vertical)
            body.x += speedChange / g
            body.y += speed * turn.rate / g                     // centripetal acceleration in turns
            if let stairs {
                let height = stairs.height(afterSteps: (phi - gait.initialPhase) / (2 * Double.pi))
                altitude += altitudeChange > 0 ? height : -height
            }
        case .wave:
            // Defined by position, so the hand ends where it started, at rest.
            let envelope = Easing.envelopeDerivatives(tau, duration: duration, ramp: Self.rampSeconds)
            body.z = Easing.oscillation(amplitude: segment.amplitude, omega: 2 * .pi * segment.cadence, phase: 0,
                                        tau: tau, envelope: envelope)
        case .bus:
            let bus = bus!
            let e = Easing.envelope(tau, duration: duration, ramp: 1)
            let (speed, accel) = bus.motion(at: tau)
            let shaking = busVibration!
            let k = BusVibration.intensity(speed: speed, top: bus.topSpeed)
            body.x = accel / g + e * k * shaking.surge.value(at: tau)
            body.y = speed * turn.rate / g + e * k * shaking.lateral.value(at: tau)
            // Rumble and bumps scale with speed only (none at a standstill); 28 Hz diesel vibration of 0.01 g.
            let moving = speed / bus.topSpeed
            body.z = e * (k * shaking.vertical.value(at: tau) + moving * (shaking.rumble.value(at: tau) + shaking.bumps.value(at: tau))
                          + 0.01 * sin(2 * .pi * 28 * tau))
            // Broadband vibration, g: 0.005 idling, rising to 0.03 at speed (illustrative; the seed's
            // bus adds 0.05 g of noise to its vertical signal).
            roughness = e * (0.005 + 0.025 * speed / bus.topSpeed)
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
            // Set down with a small knock just before the end: 0.15 g for ~20 ms (illustrative).
            let knock = (tau - (duration - Self.knockBeforeEnd)) / 0.01
            body.z += 0.15 * exp(-knock * knock)
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
