#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body's acceleration while walking, running or climbing, in the body frame (x forward,
/// y left, z up), in g.
///
/// Every oscillating term is defined through its velocity, m(τ)·V(φ)/ω, and differentiated exactly
/// (m·f(φ) + m′·V(φ)/ω), so fading in and out, per-step strength changes and the limp all integrate
/// back to rest: the body bounces about a fixed height instead of drifting (see `PeriodicShape`).
extension PlannedSegment {
    func gaitAcceleration(_ tau: Double, turnRate: Double) -> (body: Vector3, roughness: Double) {
        let gait = gait!
        let phi = gait.phase(tau)
        let omega = 2 * Double.pi * gait.cadence(at: tau)          // dφ/dτ, rad/s
        let fade = Easing.envelopeDerivatives(tau, duration: duration, ramp: Self.rampSeconds)
        let a = segment.amplitude

        // No two steps are alike: each step's strength varies by ±10% (smoothly from one step to the
        // next), left and right steps differ by ±6%, and in a pocket the near foot's strike is
        // stronger by ±asymmetry (illustrative figures). Steps fall at φ = 2πk, so cos((φ − 0.3)/2)
        // is +1 and −1 on alternate heel strikes.
        let cycles = phi / (2 * Double.pi)
        let step = cycles.rounded(.down)
        let s0 = stepStrength(Int(step)), s1 = stepStrength(Int(step) + 1)
        let blend = Easing.minimumJerk(cycles - step)
        let strength = s0 + (s1 - s0) * blend
        let strengthRate = (s1 - s0) * Easing.minimumJerkRate(cycles - step) * omega / (2 * Double.pi)
        let half = (phi - 0.3) / 2
        let limp = 1 + 0.06 * cos(half), limpRate = -0.03 * sin(half) * omega
        let near = 1 + sway.asymmetry * cos(half), nearRate = -sway.asymmetry / 2 * sin(half) * omega
        let heel = segment.heelStrike * sway.impact

        // Vertical: a bounce once per step plus the heel strike with its ringing. The walking bounce
        // peaks a quarter step after contact (the body's lowest point, at the end of double
        // support); its second harmonic's phase (−1.2 rad) makes the peak sharp and the mid-stance
        // trough broad, positively skewed as real vertical acceleration is (the seed article's
        // terms and sizes; its phase, +0.7, gives the opposite skew). Running pushes off in a
        // half-sine and flies the rest of the step.
        let bounceModulation = fade.value * strength * limp
        let bounceModulationRate = fade.rate * strength * limp + fade.value * strengthRate * limp
            + fade.value * strength * limpRate
        let bounce: Double, bounceVelocity: Double
        if segment.kind == .run {
            bounce = GaitShapes.runningPush.value(phi)
            bounceVelocity = GaitShapes.runningPush.antiderivative(phi)
        } else {
            let h = segment.secondHarmonic
            bounce = sin(phi) + h * sin(2 * phi - 1.2)
            bounceVelocity = -cos(phi) - h / 2 * cos(2 * phi - 1.2)
        }
        var impactModulation = bounceModulation * near * heel
        var impactModulationRate = (bounceModulationRate * near + bounceModulation * nearRate) * heel
        var impact = GaitShapes.spike.value(phi) + GaitShapes.ring.value(phi)
        var impactVelocity = GaitShapes.spike.antiderivative(phi) + GaitShapes.ring.antiderivative(phi)
        if let trunk = sway.trunk {
            // On the trunk: a wider impact, each strike its own size (blended across the step as
            // the strength is, so the spike at φ = 2πk + 0.3 takes strike k's), softer at first.
            impact = GaitShapes.trunkSpike.value(phi) + GaitShapes.ring.value(phi)
            impactVelocity = GaitShapes.trunkSpike.antiderivative(phi) + GaitShapes.ring.antiderivative(phi)
            let f0 = trunk.strikeFactor(Int(step), seed: stepSeed), f1 = trunk.strikeFactor(Int(step) + 1, seed: stepSeed)
            let onset = trunk.onset(tau, ramp: min(Self.gaitSpeedRampSeconds, duration / 3))
            let factor = (f0 + (f1 - f0) * blend) * onset.value
            let factorRate = (f1 - f0) * Easing.minimumJerkRate(cycles - step) * omega / (2 * Double.pi) * onset.value
                + (f0 + (f1 - f0) * blend) * onset.rate
            impactModulationRate = impactModulationRate * factor + impactModulation * factorRate
            impactModulation *= factor
        }
        let vertical = bounceModulation * bounce + bounceModulationRate * bounceVelocity / omega
            + impactModulation * impact + impactModulationRate * impactVelocity / omega

        // Forward surge once per step (braking at heel strike); lateral sway once per stride.
        let surgeModulation = fade.value * strength
        let surgeModulationRate = fade.rate * strength + fade.value * strengthRate
        let surge = -0.4 * cos(phi + 0.3) + 0.25 * GaitShapes.spike.value(phi)
        let surgeVelocity = -0.4 * sin(phi + 0.3) + 0.25 * GaitShapes.spike.antiderivative(phi)
        var forward = surgeModulation * surge + surgeModulationRate * surgeVelocity / omega
        let sideways = phi / 2 + phases[1]
        var lateral = fade.value * 0.3 * sin(sideways) + fade.rate * (-0.6 * cos(sideways)) / omega
        if let trunk = sway.trunk {
            // The strike's jolts: braking fore-aft, and sideways, whose side cos(half) flips from
            // one strike to the next (±1 at each spike).
            forward -= trunk.brake * (impactModulation * impact + impactModulationRate * impactVelocity / omega)
            let side = cos(half), sideRate = -sin(half) * omega / 2
            let push = trunk.sideways * impactModulation * side
            let pushRate = trunk.sideways * (impactModulationRate * side + impactModulation * sideRate)
            lateral += push * impact + pushRate * impactVelocity / omega
        }

        var body = a * Vector3(forward, lateral, vertical)
        // The body frame turns with the heading, carrying the surge and sway velocities round with
        // it: ψ′ẑ × v (velocities in g·s).
        let surgeSpeed = a * surgeModulation * surgeVelocity / omega
        let swaySpeed = a * fade.value * (-0.6 * cos(sideways)) / omega
        body.x -= turnRate * swaySpeed
        body.y += turnRate * surgeSpeed

        // Getting going and stopping: the walking speed rises from rest over the first 1.5 s and
        // falls back over the last (two to three steps each way, peaking near 0.15 g; illustrative).
        // A walk too short for that never reaches full speed, so the push stays as gentle.
        let g = Units.standardGravity
        let ramp = min(Self.gaitSpeedRampSeconds, duration / 3)
        let cruise = gait.cadence * segment.stepLengthMeters * ramp / Self.gaitSpeedRampSeconds
        let rising = Easing.minimumJerk(tau / ramp), falling = Easing.minimumJerk((duration - tau) / ramp)
        let speedChange = cruise * (Easing.minimumJerkRate(tau / ramp) * falling
                                    - rising * Easing.minimumJerkRate((duration - tau) / ramp)) / ramp
        body.x += speedChange / g
        body.y += cruise * rising * falling * turnRate / g          // centripetal acceleration in turns
        if stairs != nil { body.z += climbAcceleration(tau) / g }
        // Irregular body motion on top of the rhythm: 0.02 g, the pedometer seed article's figure.
        return (body, 0.02 * fade.value)
    }

    /// Height climbed on stairs (m, signed) at segment time τ.
    func stairHeight(_ tau: Double) -> Double {
        guard let stairs, let gait else { return 0 }
        let height = stairs.height(afterSteps: (gait.phase(tau) - gait.initialPhase) / (2 * Double.pi))
        return altitudeChange > 0 ? height : -height
    }

    /// Vertical acceleration of the climb itself (m/s²): the second central difference of the
    /// stair height over ±1 ms (rounding ≈ ε·10 m/10⁻⁶ s² ≈ 10⁻⁹ m/s²; the rounded corners of the
    /// height profile are quadratic, which the difference reproduces exactly).
    func climbAcceleration(_ tau: Double) -> Double {
        let h = 1e-3
        return (stairHeight(tau - h) - 2 * stairHeight(tau) + stairHeight(tau + h)) / (h * h)
    }
}
