import Testing
@testable import IMUSimulation

@Suite struct MotionProfileTests {
    @Test func bandNoiseHasItsRMS() {
        var random = Xoshiro256StarStar(seed: 9)
        let noise = BandNoise(band: 0.5...3, count: 16, rms: 0.06, random: &random)
        let values = stride(from: 0.0, to: 600, by: 0.01).map { noise.value(at: $0) }
        let rms = (values.map { $0 * $0 }.reduce(0, +) / Double(values.count)).squareRoot()
        #expect(abs(rms - 0.06) < 0.006)
    }

    @Test func bumpsArriveAtTheirMeanRate() {
        var random = Xoshiro256StarStar(seed: 4)
        let train = BumpTrain(duration: 10_000, meanInterval: 10, amplitude: 0.1...0.3, band: 1.5...3, random: &random)
        #expect(abs(train.bumps.count - 1000) < 100)       // Poisson: σ = √1000 ≈ 32
        #expect(train.value(at: -1).acceleration == 0)
        let first = train.bumps[0].time
        #expect(abs(train.value(at: first + 0.1).acceleration) > 0)
    }

    @Test func busStartsAndEndsAtRestWithinLimits() {
        for seed in UInt64(1)...20 {
            var random = Xoshiro256StarStar(seed: seed)
            var turns: [HeadingProfile.Turn] = []
            let bus = BusProfile(duration: 300, random: &random, turns: &turns)
            #expect(bus.motion(at: 0).speed == 0)
            #expect(abs(bus.motion(at: 300).speed) < 1e-9)
            let speeds = stride(from: 0.0, through: 300, by: 0.1).map { bus.motion(at: $0) }
            #expect(speeds.allSatisfy { $0.speed >= -1e-9 && $0.speed <= 13 })
            #expect(speeds.allSatisfy { abs($0.acceleration) < 13.0 / 5 * 2 + 1e-9 })   // ≤ 2·v/T, T ≥ 5 s
            #expect(speeds.contains { $0.speed == 0 && $0.acceleration == 0 })            // it stops somewhere
            // Turns happen only while cruising at constant speed.
            for turn in turns {
                let a = bus.motion(at: turn.start), b = bus.motion(at: turn.start + turn.duration)
                #expect(a.acceleration == 0 && b.acceleration == 0 && a.speed == b.speed && a.speed > 0)
            }
        }
    }

    @Test func elevatorRideIsSmooth() {
        let ride = ElevatorProfile(rideStart: 4, rideSeconds: 11.25, heightChange: 9)
        #expect(ride.motion(at: 0).height == 0 && ride.motion(at: 4).acceleration == 0)
        #expect(abs(ride.motion(at: 15.25).height - 9) < 1e-12)
        // Peak acceleration of a minimum-jerk move: 5.77·H/T².
        let peak = stride(from: 4.0, through: 15.25, by: 0.01).map { abs(ride.motion(at: $0).acceleration) }.max()!
        #expect(abs(peak - 5.7735 * 9 / (11.25 * 11.25)) < 0.01)
    }
}
