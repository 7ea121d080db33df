import Testing
@testable import IMUSimulation

/// The accelerometer's truth is a real motion: integrated twice it brings the device back to rest,
/// and on stairs or in an elevator it climbs exactly what the barometer sees.
@Suite struct DriftTests {
    /// Integrates the true world acceleration (trapezoid, 1 ms): final velocity and displacement.
    func integrate(_ scenario: Scenario, holding: DeviceHolding? = nil) -> (velocity: Vector3, displacement: Vector3, climb: Double) {
        let o = idealOptions { $0.holding = holding }
        let sim = Simulator(scenario: scenario, options: o)
        let dt = 0.001
        var velocity = Vector3.zero, position = Vector3.zero
        var previous = sim.motion(at: sim.truth.startTime).acceleration * Units.standardGravity
        for t in stride(from: sim.truth.startTime + dt, through: sim.truth.endTime, by: dt) {
            let a = sim.motion(at: t).acceleration * Units.standardGravity
            let v = velocity + (a + previous) / 2 * dt
            position += (velocity + v) / 2 * dt
            velocity = v
            previous = a
        }
        let climb = sim.altitude(at: sim.truth.endTime) - sim.altitude(at: sim.truth.startTime)
        return (velocity, position, climb)
    }

    @Test(arguments: [("walk", DeviceHolding.frontPocket), ("run", .armband), ("stroll", .bag), ("bus", .inHand),
                      ("wave", .inHand), ("elevator", .inHand), ("stairs-up", .backPocket), ("stairs-down", .inHand)])
    func motionEndsAtRest(name: String, holding: DeviceHolding) {
        var scenario = Scenario.named(name)!
        scenario.segments = scenario.segments.map { var s = $0; s.seconds = min(s.seconds, 60); return s }
        let result = integrate(scenario, holding: holding)
        #expect(norm(result.velocity) < 0.02, "\(name): ends moving at \(result.velocity) m/s")
        // Vertically the device goes exactly where the altitude (and so the barometer) says.
        #expect(abs(result.displacement.z - result.climb) < 0.1, "\(name): rose \(result.displacement.z) m, altitude \(result.climb) m")
    }

    @Test func sixPositionSessionStaysOnTheTable() {
        let result = integrate(.sixPosition(secondsPerFace: 2, transitionSeconds: 2))
        #expect(norm(result.velocity) < 0.005)
        #expect(norm(result.displacement) < 0.02)
    }
}
