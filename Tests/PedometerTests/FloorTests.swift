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

    /// Feeds `seconds` one-second walked stretches climbing `speed` m/s, from `time`.
    private func walk(_ counter: inout FloorCounter, speed: Double, seconds: Int, from time: inout Double,
                      into events: inout [PedometerEvent]) {
        for _ in 0..<seconds {
            time += 1
            counter.addWalked(change: speed, duration: 1, time: time, into: &events)
        }
    }

    @Test func stairTripsCountWholeFloors() {
        var counter = FloorCounter(floorHeight: 3)
        var events: [PedometerEvent] = []
        var t = 0.0
        walk(&counter, speed: 0.2, seconds: 15, from: &t, into: &events)     // one 3 m flight up
        t += 10                                                               // a pause on the landing
        walk(&counter, speed: -0.25, seconds: 24, from: &t, into: &events)   // two flights down, 6 m
        counter.finish()
        #expect(counter.ascended == 1 && counter.descended == 2)
        #expect(floors(events) == [.up, .down, .down])
    }

    @Test func lowFloorsCountAndHalfFlightsDoNot() {
        // A 2.7 m residential floor of which a tenth falls outside walked time: 2.43 m credited.
        var low = FloorCounter(floorHeight: 3)
        var events: [PedometerEvent] = []
        var t = 0.0
        walk(&low, speed: 0.243, seconds: 10, from: &t, into: &events)
        #expect(low.ascended == 1)
        // Half a flight (a split level, 1.5 m) is not a floor.
        var half = FloorCounter(floorHeight: 3)
        t = 0
        walk(&half, speed: 0.25, seconds: 6, from: &t, into: &events)
        half.finish()
        #expect(half.ascended == 0)
    }

    @Test func weatherDriftOnALongWalkAddsNoFloor() {
        // 1 hPa/h ≈ 8.3 m/h, walked for two hours.
        var flat = FloorCounter(floorHeight: 3)
        var events: [PedometerEvent] = []
        var t = 0.0
        walk(&flat, speed: 8.3 / 3600, seconds: 7200, from: &t, into: &events)
        #expect(flat.ascended == 0 && events.isEmpty)
    }

    @Test func climbFasterThanAnyoneCanIsRefused() {
        var counter = FloorCounter(floorHeight: 3)
        var events: [PedometerEvent] = []
        var t = 0.0
        walk(&counter, speed: 0.2, seconds: 5, from: &t, into: &events)     // a trip has begun
        t += 1
        counter.addWalked(change: 830, duration: 1, time: t, into: &events) // −100 hPa in a second
        walk(&counter, speed: 0, seconds: 5, from: &t, into: &events)
        #expect(counter.implausibleClimbs == 1)
        #expect(counter.ascended == 0 && events.isEmpty)
    }

    @Test func aLastingPressureStepCountsNoFloors() {
        // A faulty barometer drops by 100 hPa halfway through a level walk and stays there.
        var sim = simulate("walk")
        let half = sim.samples[sim.samples.count / 2].time
        for i in sim.samples.indices where sim.samples[i].time >= half {
            if let p = sim.samples[i].pressure { sim.samples[i].pressure = p - 100 }
        }
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(floors(events).isEmpty)
        #expect(snapshot.floorsAscended == 0 && snapshot.floorsDescended == 0)
        #expect(relativeError(snapshot.steps, sim.truth.steps) < 0.05)
    }

    @Test func aLastingStepMovesTheAltitudeAtOnce() {
        var altimeter = BarometricAltimeter()
        var h = 0.0
        for i in 0..<100 { h = altimeter.update(pressure: 1000, time: Double(i) / 25) }
        let before = h
        for i in 100..<150 { h = altimeter.update(pressure: 900, time: Double(i) / 25) }
        // 2 s after the step the altitude has moved by the whole step, not by 2 s × 4 m/s.
        let expected = BarometricAltimeter.altitude(pressure: 900) - BarometricAltimeter.altitude(pressure: 1000)
        #expect(abs((h - before) - expected) < 1, "moved \(h - before) m of \(expected) m")
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
