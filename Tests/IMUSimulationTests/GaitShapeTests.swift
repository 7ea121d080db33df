import Testing
@testable import IMUSimulation

/// The motion looks like what it claims to be, whatever the holding.
@Suite struct GaitShapeTests {
    /// Lag (s) of the highest autocorrelation of |a| between `minLag` and `maxLag` seconds, and its value.
    func periodicity(_ samples: [MotionSample], rate: Double, minLag: Double = 0.25, maxLag: Double = 1.0) -> (lag: Double, r: Double) {
        let x = samples.map { norm($0.acceleration!) }
        let mean = x.reduce(0, +) / Double(x.count)
        let d = x.map { $0 - mean }
        let energy = d.map { $0 * $0 }.reduce(0, +)
        var best = (lag: 0.0, r: -1.0)
        for lag in Int(minLag * rate)...Int(maxLag * rate) {
            var sum = 0.0
            for i in 0..<(d.count - lag) { sum += d[i] * d[i + lag] }
            let r = sum / energy * Double(d.count) / Double(d.count - lag)
            if r > best.r { best = (Double(lag) / rate, r) }
        }
        return best
    }

    func skewness(_ samples: [MotionSample]) -> Double {
        let x = samples.map { norm($0.acceleration!) }
        let n = Double(x.count), mean = x.reduce(0, +) / n
        let m2 = x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / n
        let m3 = x.map { ($0 - mean) * ($0 - mean) * ($0 - mean) }.reduce(0, +) / n
        return m3 / (m2 * m2.squareRoot())
    }

    @Test(arguments: [DeviceHolding.faceUp, .inHand, .armband])
    func walkingBouncesOncePerStepOnTheBody(holding: DeviceHolding) {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 30, cadence: 1.8, holding: holding)])
        let samples = Simulator.generate(walk, options: options { $0.sampleRateHz = 50 }).samples
        let p = periodicity(samples, rate: 50)
        // The step period is 1/1.8 = 0.556 s (±5% wander).
        #expect(abs(p.lag - 1 / 1.8) < 0.04, "\(holding): lag \(p.lag)")
        #expect(p.r > 0.8, "\(holding): r \(p.r)")
    }

    /// In a pocket or bag the near foot's heel strike dominates, so the signal repeats per stride
    /// as much as per step (as in the Oxford recordings), but it is still rhythmic.
    @Test(arguments: [DeviceHolding.frontPocket, .backPocket, .bag])
    func pocketsRepeatPerStepOrStride(holding: DeviceHolding) {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 30, cadence: 1.8, holding: holding)])
        let samples = Simulator.generate(walk, options: options { $0.sampleRateHz = 200 }).samples
        let p = periodicity(samples, rate: 200, maxLag: 1.3)
        let step = 1 / 1.8
        #expect(abs(p.lag - step) < 0.04 || abs(p.lag - 2 * step) < 0.08, "\(holding): lag \(p.lag)")
        #expect(p.r > 0.4, "\(holding): r \(p.r)")
        #expect(skewness(samples) > 0.5, "\(holding): impacts make |a| lopsided")
    }

    @Test func waveIsSmoothAndWalkingIsNot() {
        let wave = Simulator.generate(Scenario(name: "w", segments: [Segment(.wave, seconds: 15)]), options: .init()).samples
        let walk = Simulator.generate(Scenario(name: "w", segments: [Segment(.walk, seconds: 15, holding: .inHand)]), options: .init()).samples
        let waveP = periodicity(wave, rate: 100)
        #expect(abs(waveP.lag - 0.5) < 0.02)          // 2 Hz
        #expect(waveP.r > 0.9)
        #expect(skewness(walk) > skewness(wave) + 0.3) // heel strikes make walking lopsided
    }

    /// A bus shakes without a steady rhythm (the seed article's rhythm check rejects it); walking has one.
    @Test(arguments: [UInt64(1), 2, 3])
    func busHasNoSteadyRhythm(seed: UInt64) {
        let samples = Simulator.generate(scenario("bus"), options: options { $0.seed = seed; $0.sampleRateHz = 50 }).samples
        let p = periodicity(samples, rate: 50, maxLag: 1.6)
        #expect(p.r < 0.4, "seed \(seed): r \(p.r) at \(p.lag) s")
    }

    @Test func pocketSwingsWithTheThigh() {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 20, holding: .frontPocket)])
        let samples = Simulator.generate(walk, options: idealOptions()).samples
        // ±20° thigh swing at the stride rate (0.9 Hz): peak pitch rate ≈ 0.35 rad × 2π × 0.9 ≈ 2 rad/s.
        let peak = samples.map { norm($0.rotationRate!) }.max()!
        #expect(peak > 1.2 && peak < 4)
        let hand = Simulator.generate(Scenario(name: "h", segments: [Segment(.walk, seconds: 20, holding: .inHand)]),
                                      options: idealOptions()).samples
        #expect(hand.map { norm($0.rotationRate!) }.max()! < peak / 2)
    }

    @Test func quantisationAndClipping() {
        var o = SimulationOptions.ideal
        o.accelerometer = SensorErrorModel(range: 2, resolution: 1.0 / 16384)   // MPU-6050 at ±2 g
        let samples = Simulator.generate(scenario("run"), options: o).samples
        let values = samples.flatMap { [$0.acceleration!.x, $0.acceleration!.y, $0.acceleration!.z] }
        #expect(values.allSatisfy { abs($0) <= 2 })
        #expect(values.contains { abs($0) == 2 })      // a run exceeds 2 g at heel strike
        #expect(values.allSatisfy { ($0 * 16384).rounded() == $0 * 16384 })
    }

    @Test func sampleRateErrorShowsInTimestamps() {
        let o = idealOptions { $0.sampleRateHz = 100; $0.sampleRateError = 0.02 }
        let samples = Simulator.generate(scenario("still"), options: o).samples
        #expect(samples.count == 6120)
        #expect(abs((samples[1].time - samples[0].time) - 1 / 102) < 1e-9)
        #expect(throws: SimulationError.self) { try options { $0.sampleRateError = 0.5 }.validate() }
    }
}

@Suite struct GaitBalanceTests {
    /// The gait's world acceleration averages to zero over whole steps, so a walker neither rises
    /// nor sinks: the mean specific force of a long walk is gravity.
    @Test(arguments: [DeviceHolding.inHand, .frontPocket, .backPocket, .lowerBack])
    func walkingAveragesToGravity(holding: DeviceHolding) {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 300, holding: holding)])
        let o = idealOptions { $0.sampleRateHz = 200 }
        let sim = Simulator(scenario: walk, options: o)
        let samples = Simulator.generate(walk, options: o).samples
        var verticalSum = 0.0
        for s in samples {
            verticalSum += sim.attitude(at: s.time).rotate(s.acceleration!).z
        }
        #expect(abs(verticalSum / Double(samples.count) - 1) < 0.003, "\(holding)")
    }
}

extension GaitBalanceTests {
    /// Integrating the true horizontal acceleration gives the walker's speed: up to the walking
    /// speed after the start, back to rest at the end.
    @Test func forwardAccelerationIntegratesToWalkingSpeed() {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 30, holding: .inHand)])
        let sim = Simulator(scenario: walk, options: idealOptions())
        let dt = 0.001
        var velocity = Vector3.zero
        var speeds: [Double] = []
        for t in stride(from: sim.truth.startTime, to: sim.truth.endTime, by: dt) {
            velocity += sim.motion(at: t).acceleration * Units.standardGravity * dt
            speeds.append((velocity.x * velocity.x + velocity.y * velocity.y).squareRoot())
        }
        let cruise = 1.8 * (0.45 + 0.14 * 1.8)       // cadence × step length, m/s
        let middle = speeds[10_000..<20_000]
        #expect(abs(middle.reduce(0, +) / Double(middle.count) - cruise) < 0.15)
        // At rest again, apart from the sway that every step adds and takes away (lateral 0.075 g at
        // the stride rate is ±0.13 m/s of velocity).
        #expect(speeds.last! < 0.25)
    }
}

extension GaitBalanceTests {
    /// A waved phone goes up and down but ends where it started, at rest.
    @Test func wavingReturnsTheHandToRest() {
        let wave = Scenario(name: "w", segments: [Segment(.wave, seconds: 15)])
        let sim = Simulator(scenario: wave, options: idealOptions())
        let dt = 0.0005
        var velocity = 0.0, height = 0.0, highest = 0.0
        for t in stride(from: sim.truth.startTime, to: sim.truth.endTime, by: dt) {
            velocity += sim.motion(at: t).acceleration.z * Units.standardGravity * dt
            height += velocity * dt
            highest = max(highest, abs(height))
        }
        // 0.6 g at 2 Hz is a ±3.7 cm wave.
        #expect(abs(highest - 0.6 * Units.standardGravity / ((4 * .pi) * (4 * .pi))) < 0.005)
        #expect(abs(velocity) < 0.005)
        #expect(abs(height) < 0.005)
    }
}
