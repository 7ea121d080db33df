import Foundation
import Testing
@testable import Pedometer

/// Thigh pedalling as physics gives it: the knee rises and falls once per crank revolution (±0.17 m
/// at the knee, half of it mid-thigh), while the thigh pitches ±20° about 45°. No heel strikes.
private func pedalling(seconds: Double, crankHz: Double = 1.2, rateHz: Double = 100, start: Double = 0) -> [MotionSample] {
    let w = 2 * Double.pi * crankHz
    return (0..<Int(seconds * rateHz)).map { i in
        let t = Double(i) / rateHz
        let vertical = 0.085 * w * w * sin(w * t) / 9.80665          // g, mid-thigh
        let pitch = (45 + 20 * sin(w * t + 0.5)) * Double.pi / 180
        let f = 1 + vertical                                          // specific force, world up
        return MotionSample(time: start + t, acceleration: Vector3(f * sin(pitch), 0, f * cos(pitch)))
    }
}

@Suite struct CyclingTests {
    @Test func pedallingInAPocketAddsNoStepsAndReadsCycling() {
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        for s in pedalling(seconds: 120) { pedometer.process(s, into: &events) }
        #expect(pedometer.snapshot.activity == .cycling)
        pedometer.finish(into: &events)
        #expect(pedometer.snapshot.steps == 0)
    }

    @Test func theWindowMeasuresACrankAndNoImpacts() {
        var analyser = PedallingAnalyser(rateHz: 50)
        var last: PedallingWindow?
        for s in pedalling(seconds: 8, rateHz: 50) {
            if let w = analyser.add(s.acceleration!) { last = w }
        }
        let w = try! #require(last)
        #expect(abs(w.crankFrequency - 1.2) < 0.1)
        #expect(w.halfPeriodCorrelation < -0.8)     // one leg: opposite half a revolution later
        #expect(w.impactShare < 0.05)               // a smooth rotation, nothing above 4 Hz
        #expect(w.isPedalling)
    }

    @Test func kalmanWeighsEachFixByItsError() {
        var k = SpeedKalman()
        k.update(GroundSpeed(time: 0, metersPerSecond: 5, accuracy: 0.3))
        // A multipath jump reported at ±4 m/s barely moves a good estimate…
        let jumped = k.update(GroundSpeed(time: 1, metersPerSecond: 12, accuracy: 4))
        #expect(jumped.metersPerSecond < 5.6)
        // …while a precise fix moves it most of the way.
        let precise = k.update(GroundSpeed(time: 2, metersPerSecond: 3, accuracy: 0.2))
        #expect(precise.metersPerSecond < 3.8)
    }

    @Test func theVoteFollowsTheSeedScenarios() {
        func decide(_ imu: ActivityClass, cadence: Double?, speed: Double?) -> ActivityClass {
            var vote = ActivityVote()
            if let speed { vote.observe(GroundSpeed(time: 9.5, metersPerSecond: speed, accuracy: 0.3)) }
            return vote.decide(imu: (imu, .medium), cadence: cadence, time: 10).0
        }
        #expect(decide(.walking, cadence: 1.7, speed: 0) == .walking)        // treadmill: steps count
        #expect(decide(.vehicle, cadence: nil, speed: 0.8) == .vehicle)      // traffic jam
        #expect(decide(.vehicle, cadence: nil, speed: 30.5) == .vehicle)     // motorway
        #expect(decide(.running, cadence: 2.8, speed: 4.5) == .running)      // running for a bus
        #expect(decide(.stationary, cadence: nil, speed: 0) == .stationary)  // then standing
        #expect(decide(.cycling, cadence: nil, speed: 6) == .cycling)        // cycling at road speed
        #expect(decide(.stationary, cadence: nil, speed: 20) == .vehicle)    // a smooth car
    }

    @Test func withoutAFixTheIMUDecidesAtLowerConfidence() {
        var vote = ActivityVote()
        #expect(vote.decide(imu: (.walking, .high), cadence: 1.6, time: 10) == (.walking, .high))
        vote.observe(GroundSpeed(time: 0, metersPerSecond: 1.4, accuracy: 0.3))
        // Car park: the receiver was seen, the fix is gone.
        #expect(vote.decide(imu: (.walking, .high), cadence: 1.6, time: 60) == (.walking, .medium))
    }

    @Test func aRecordingsGroundSpeedReachesTheVote() {
        // A replayed gnss_speed column (held on every row between fixes) feeds the Kalman filter.
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true, gnssSpeed: true))
        var events: [PedometerEvent] = []
        for i in 0..<1000 {
            pedometer.process(MotionSample(time: Double(i) / 100, acceleration: Vector3(0, 0, 1), gnssSpeed: 7.5), into: &events)
        }
        let speed = try! #require(pedometer.groundSpeed)
        #expect(abs(speed.metersPerSecond - 7.5) < 1e-9)
        // Held values are one reading a second, not one a sample: the filter stays near a single
        // reading's error (1 m/s assumed without an accuracy), not 1 / sqrt(1000) of it.
        #expect(speed.sigma > 0.2)
    }
}
