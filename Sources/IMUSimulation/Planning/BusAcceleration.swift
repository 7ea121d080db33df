/// A bus passenger's acceleration in the body frame (x forward, y left, z up), in g: speeding up,
/// braking and turning (`BusProfile`) plus the ride's shaking (`BusVibration`). Like the gait, each
/// modulated vibration is defined through its velocity, so nothing drifts.
extension PlannedSegment {
    func busAcceleration(_ tau: Double, turnRate: Double) -> (body: Vector3, roughness: Double) {
        let bus = bus!, shaking = busVibration!
        let g = Units.standardGravity
        let fade = Easing.envelopeDerivatives(tau, duration: duration, ramp: 1)
        let (speed, accel) = bus.motion(at: tau)
        // Shaking grows with speed: 30% at a standstill (`BusVibration.intensity`), all of it at
        // top speed; rumble and bumps need the wheels turning.
        let moving = speed / bus.topSpeed, movingRate = accel / bus.topSpeed
        let k = BusVibration.intensity(speed: speed, top: bus.topSpeed), kRate = 0.7 * movingRate
        let m = fade.value * k, mRate = fade.rate * k + fade.value * kRate
        let wheels = fade.value * moving, wheelsRate = fade.rate * moving + fade.value * movingRate

        let bounce = shaking.vertical.valueAndIntegral(at: tau)
        let rumble = shaking.rumble.valueAndIntegral(at: tau)
        let bumps = shaking.bumps.value(at: tau)
        let lateral = shaking.lateral.valueAndIntegral(at: tau)
        let surge = shaking.surge.valueAndIntegral(at: tau)
        var body = Vector3.zero
        body.z = m * bounce.value + mRate * bounce.integral
            + wheels * (rumble.value + bumps.acceleration) + wheelsRate * (rumble.integral + bumps.velocity)
        if let topHz = shaking.engineTopHz {
            // An engine whose firing frequency rises with speed (`BusVibration.engineTopHz`): its
            // phase is the integral of the frequency, idle plus a share of the distance covered.
            let rise = (topHz - shaking.engineHz) / bus.topSpeed
            let angle = 2 * Double.pi * (shaking.engineHz * tau + rise * bus.distance(at: tau))
            let omega = 2 * Double.pi * (shaking.engineHz + rise * speed)
            body.z += Easing.oscillation(amplitude: shaking.engineG, omega: omega, phase: angle - omega * tau, tau: tau, envelope: fade)
        } else {
            // Engine vibration (`BusVibration.engine`).
            body.z += Easing.oscillation(amplitude: shaking.engineG, omega: 2 * .pi * shaking.engineHz, phase: 0, tau: tau, envelope: fade)
        }
        let swaySpeed = m * lateral.integral, surgeSpeed = m * surge.integral          // g·s
        body.x = accel / g + m * surge.value + mRate * surge.integral - turnRate * swaySpeed
        // Centripetal acceleration in turns, for the bus's speed and the sway riding on it.
        body.y = m * lateral.value + mRate * lateral.integral + turnRate * (speed / g + surgeSpeed)
        // Broadband vibration, g: 0.005 idling, rising to 0.03 at speed (illustrative; the seed's
        // bus adds 0.05 g of noise to its vertical signal).
        return (body, fade.value * (0.005 + 0.025 * moving))
    }
}
