import Foundation
import Testing
@testable import IMUSimulation

/// The other vehicles (`Segment.Kind.ride`): named in compositions, labelled vehicle, no steps,
/// and each shaking as its model says.
@Suite struct VehicleTests {
    @Test func everyVehicleParsesAndIsARideWithoutSteps() throws {
        for vehicle in Segment.Vehicle.allCases {
            let scenario = try Scenario.resolve("\(vehicle.rawValue):60/pocket")
            #expect(scenario.segments.first?.kind == .ride(vehicle))
            #expect(Segment(.ride(vehicle)).kindName == vehicle.rawValue)
            let sim = Simulator(scenario: scenario, options: options { $0.seed = 3 })
            #expect(sim.truth.steps == 0)
            #expect(sim.truth.segments.map(\.activity) == ["vehicle"])
        }
    }

    /// The specific force stays near 1 g: a ride shakes by tenths of a g at most (the vehicles'
    /// bands add up to under 0.1 g RMS, bumps and joints to 0.35 g), never like a walk's impacts
    /// of 0.5 g and more; and it does shake (above a phone at rest's 0.005 g of sensor noise).
    @Test(arguments: Segment.Vehicle.allCases)
    func aRideShakesByTenthsOfAG(vehicle: Segment.Vehicle) {
        let sim = Simulator(scenario: Scenario(name: "r", segments: [Segment(.ride(vehicle), seconds: 120, holding: .inHand)]),
                            options: options { $0.seed = 2; $0.sampleRateHz = 100 })
        let (samples, _) = Simulator.generate(sim.scenario, options: sim.options)
        let deviations = samples.compactMap { s in s.acceleration.map { ($0 * $0).sum().squareRoot() - 1 } }
        let mean = deviations.reduce(0, +) / Double(deviations.count)
        let rms = (deviations.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(deviations.count)).squareRoot()
        #expect(rms > 0.01 && rms < 0.15, "\(vehicle): \(rms) g RMS")
        #expect(deviations.map(abs).max()! < 0.6, "\(vehicle): peak \(deviations.map(abs).max()!) g")
    }
}
