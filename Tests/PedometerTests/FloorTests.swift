import Foundation
import Testing
@testable import Pedometer

@Suite struct FloorTests {
    @Test func barometricFormulaGivesAboutEightMetresPerHectopascal() {
        let dh = BarometricAltimeter.altitude(pressure: 1012.25) - BarometricAltimeter.altitude(pressure: 1013.25)
        #expect(dh > 8.0 && dh < 8.7)
    }

    @Test func linearisedAltitudeFollowsTheFormula() {
        var altimeter = BarometricAltimeter()
        var worst = 0.0
        var t = 0.0
        // A slow climb over 12 hPa (about 100 m): re-centred twice on the way.
        for step in 0...1200 {
            let p = 1000 - Double(step) * 0.01
            var h = 0.0
            for _ in 0..<10 { h = altimeter.update(pressure: p, time: t); t += 1 }   // settle
            let exact = BarometricAltimeter.altitude(pressure: p)
            worst = max(worst, abs(h - exact))
        }
        #expect(worst < 0.1, "worst \(worst) m")
    }

    @Test func doorSlamSpikeIsRemoved() {
        var altimeter = BarometricAltimeter()
        var worst = 0.0
        for i in 0..<250 {   // 10 s at 25 Hz
            let t = Double(i) / 25
            let spike = (t >= 5 && t < 5.2) ? 1.0 : 0   // +1 hPa for 0.2 s
            let h = altimeter.update(pressure: 1000 + spike, time: t)
            worst = max(worst, abs(h - BarometricAltimeter.altitude(pressure: 1000)))
        }
        #expect(worst < 0.5, "spike moved the altitude by \(worst) m")
    }

    @Test func floorsCountOnlyWalkedClimb() {
        var counter = FloorCounter(floorHeight: 3)
        var events: [PedometerEvent] = []
        counter.addWalked(change: 3.1, duration: 15, time: 1, into: &events)
        counter.addWalked(change: 2.9, duration: 15, time: 2, into: &events)
        counter.addWalked(change: -6.0, duration: 30, time: 3, into: &events)
        #expect(counter.ascended == 2 && counter.descended == 2)
        #expect(floors(events) == [.up, .up, .down, .down])
        // A long flat walk with weather drift (0.5 hPa/h ≈ 4 m/h) adds no floor.
        var flat = FloorCounter(floorHeight: 3)
        for _ in 0..<3600 { flat.addWalked(change: 4.2 / 3600, duration: 1, time: 0, into: &events) }
        #expect(flat.ascended == 0)
    }

    @Test(arguments: [("stairs-up", 3, 0), ("stairs-down", 0, 3), ("demo", 1, 1)])
    func stairsCountFloors(name: String, up: Int, down: Int) {
        let sim = simulate(name) { $0.doorSlams = [2]; $0.doorSlamHPa = 0.5 }
        #expect(sim.truth.floorsAscended == up && sim.truth.floorsDescended == down)
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.floorsAscended == up && snapshot.floorsDescended == down)
        #expect(floors(events).count == up + down)
    }

    @Test func absurdFloorHeightNeitherLoopsNorCrashes() {
        var counter = FloorCounter(floorHeight: 0)
        var events: [PedometerEvent] = []
        counter.addWalked(change: 3.5, duration: 10, time: 0, into: &events)
        #expect(counter.ascended == 3)   // taken as 1 m floors
        var nan = FloorCounter(floorHeight: .nan)
        nan.addWalked(change: 3.5, duration: 10, time: 0, into: &events)
        #expect(nan.ascended == 1)
    }

    @Test func elevatorCountsNoFloors() {
        let sim = simulate("elevator")
        let (_, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.floorsAscended == 0 && snapshot.floorsDescended == 0)
        #expect(snapshot.steps == 0)
    }

    @Test func withoutBarometerFloorsAreUnavailable() {
        let sim = simulate("stairs-up") { $0.barometerRateHz = nil }
        #expect(!Pedometer.capabilities(for: sim.options.capabilities).isFloorCountingAvailable)
        let (_, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.floorsAscended == 0)
        #expect(relativeError(snapshot.steps, sim.truth.steps) < 0.05)
    }
}
