import Testing
@testable import IMUSimulation

@Suite struct PhysicsTests {
    @Test func stillFaceUpReadsPlusOneG() {
        let ideal = Simulator.generate(scenario("still"), options: idealOptions()).samples
        for s in ideal.prefix(500) {
            #expect(norm(s.acceleration! - Vector3(0, 0, 1)) < 1e-9)
            #expect(norm(s.rotationRate!) < 1e-9)
        }
        // With the default sensor errors the mean is S·(0,0,1) + b, and the model's correction undoes it.
        let o = SimulationOptions()
        let noisy = Simulator.generate(scenario("still"), options: o).samples
        let mean = meanAcceleration(noisy, in: 0...1e9)
        #expect(norm(mean - (o.accelerometer.scale * Vector3(0, 0, 1) + o.accelerometer.bias)) < 0.0005)
        #expect(norm(o.accelerometer.correct(mean) - Vector3(0, 0, 1)) < 0.0005)
    }

    @Test(arguments: [DeviceHolding.faceUp, .inHand, .frontPocket, .backPocket, .bag, .armband, .lowerBack,
                      .custom(roll: 0.3, pitch: -1.1, yaw: 2.0)])
    func stillReadsOneGInAnyHolding(holding: DeviceHolding) {
        let samples = Simulator.generate(Scenario(name: "still", segments: [Segment(.still, seconds: 5)]),
                                         options: idealOptions { $0.holding = holding }).samples
        let mean = meanAcceleration(samples, in: 0...1e9)
        #expect(abs(norm(mean) - 1) < 1e-9)
        // And the reading is gravity seen through the holding's rotation.
        let expected = holding.mount.inverseRotate(Vector3(0, 0, 1))
        #expect(norm(mean - expected) < 1e-9)
    }

    @Test func holdingsAreDistinctOrientations() {
        let all: [DeviceHolding] = [.faceUp, .inHand, .frontPocket, .backPocket, .bag, .armband, .lowerBack]
        for (i, a) in all.enumerated() {
            for b in all[(i + 1)...] { #expect(a.mount.angle(to: b.mount) > 0.3, "\(a) vs \(b)") }
        }
        #expect(DeviceHolding.custom(roll: 0, pitch: 0, yaw: 0).mount.angle(to: DeviceHolding.faceUp.mount) < 1e-12)
        // Pocket: the top edge points down, so a still device reads −1 g on y.
        #expect(DeviceHolding.frontPocket.mount.inverseRotate(Vector3(0, 0, 1)).y < -0.95)
    }

    /// Integrates the gyroscope with quaternions and compares with the true attitude.
    func integrationError(_ scenario: Scenario, rate: Double) -> (worstDegrees: Double, checked: Int) {
        let o = idealOptions { $0.sampleRateHz = rate }
        let sim = Simulator(scenario: scenario, options: o)
        let samples = Simulator.generate(scenario, options: o).samples
        var q = sim.attitude(at: samples[0].time)
        var worst = 0.0, checked = 0
        for k in 1..<samples.count {
            let dt = samples[k].time - samples[k - 1].time
            let omega = (samples[k].rotationRate! + samples[k - 1].rotationRate!) / 2   // trapezoid
            q = (q * Quaternion(rotationVector: omega * dt)).normalized
            if k % Int(rate) == 0 {
                worst = max(worst, q.angle(to: sim.attitude(at: samples[k].time)) * 180 / .pi)
                checked += 1
            }
        }
        return (worst, checked)
    }

    @Test func gyroIntegratesToTheTrueAttitudeOverSixPositions() {
        let result = integrationError(.sixPosition(secondsPerFace: 2, transitionSeconds: 2), rate: 400)
        #expect(result.checked > 15)
        #expect(result.worstDegrees < 0.05)
    }

    @Test func gyroIntegratesToTheTrueAttitudeWhileWalkingInAPocket() {
        let walk = Scenario(name: "w", segments: [Segment(.still, seconds: 2, holding: .faceUp),
                                                  Segment(.walk, seconds: 40, holding: .frontPocket),
                                                  Segment(.stairsUp(floors: 1), holding: .backPocket),
                                                  Segment(.bus, seconds: 40)])
        let result = integrationError(walk, rate: 500)
        #expect(result.worstDegrees < 0.2)
    }

    @Test func restingFacesReadTheirUpAxis() {
        let scenario = Scenario.sixPosition(secondsPerFace: 3, transitionSeconds: 2)
        let (samples, truth) = Simulator.generate(scenario, options: idealOptions())
        #expect(truth.faces.map(\.face) == FaceUp.allCases)
        for face in truth.faces {
            let mean = meanAcceleration(samples, in: (face.start + 0.1)...(face.end - 0.1))
            #expect(norm(mean - face.face.upAxis) < 1e-9, "\(face.face)")
        }
        // During transitions the device turns: the gyro sees it.
        let moving = samples.filter { s in !truth.faces.contains { ($0.start...$0.end).contains(s.time) } }
        #expect(moving.map { norm($0.rotationRate!) }.max()! > 0.5)
    }

    @Test func sixPositionOrderAndShaking() {
        let order: [FaceUp] = [.zUp, .zUp, .xDown]
        let (samples, truth) = Simulator.generate(.sixPosition(secondsPerFace: 4, order: order, shakeFace: 1),
                                                  options: idealOptions())
        #expect(truth.faces.map(\.face) == order)
        #expect(truth.faces.map(\.shaken) == [false, true, false])
        func spread(_ face: FaceTruth) -> Double {
            // A reading averages the motion over its period (10 ms at 100 Hz), half of it after its time.
            let rates = samples.filter { (face.start...(face.end - 0.005)).contains($0.time) }.map { norm($0.rotationRate!) }
            return rates.max()!
        }
        #expect(spread(truth.faces[0]) < 1e-5)   // the boundary sample sees the next turn begin
        #expect(spread(truth.faces[1]) > 0.2)
        #expect(truth.segments.contains { $0.activity == "unknown" })
    }

    @Test func sensorModelCorrectionRecoversTruth() {
        var model = SensorErrorModel.typicalAccelerometer
        model.misalignment = SensorErrorModel.crossAxis(0.02)
        model.noise = 0
        let truth = Vector3(0.3, -0.7, 0.64)
        let raw = model.distort(truth)
        #expect(norm(raw - truth) > 0.01)
        #expect(norm(model.correct(raw) - truth) < 1e-12)
        var singular = model
        singular.misalignment = [[1, 0, 0], [1, 0, 0], [0, 0, 1]]
        #expect(!singular.isValid)
        #expect(model.isValid)
    }

    @Test func sensorNoiseHasTheConfiguredSpread() {
        let o = options { $0.accelerometer = SensorErrorModel(noise: 0.003); $0.gyroscope = SensorErrorModel(noise: 0.002) }
        let samples = Simulator.generate(scenario("still"), options: o).samples
        let ax = samples.map { $0.acceleration!.x }, gz = samples.map { $0.rotationRate!.z }
        func sd(_ v: [Double]) -> Double {
            let m = v.reduce(0, +) / Double(v.count)
            return (v.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(v.count)).squareRoot()
        }
        #expect(abs(sd(ax) - 0.003) < 0.0002)
        #expect(abs(sd(gz) - 0.002) < 0.0001)
    }
}

@Suite struct SensorDriftTests {
    @Test func biasWandersWithRandomWalkAndTemperature() {
        let still = Scenario(name: "s", segments: [Segment(.still, seconds: 1800)])
        var o = SimulationOptions.ideal
        o.sampleRateHz = 25
        o.gyroscope.biasRandomWalk = 0.001          // rad/s per √s
        o.accelerometer.biasPerCelsius = Vector3(0, 0, 0.001)   // g per °C
        o.includeTemperature = true
        let samples = Simulator.generate(still, options: o).samples
        // Random walk: after 1800 s the bias has wandered by ~0.001·√1800 ≈ 0.04 rad/s per axis.
        let last = samples.suffix(25).map { $0.rotationRate! }.reduce(.zero, +) / 25
        #expect(norm(last) > 0.005 && norm(last) < 0.3)
        #expect(norm(samples[0].rotationRate!) < 0.001)
        // Temperature: the die warms by 2·(1 − e^(−2)) ≈ 1.73 °C in 30 min, so z reads ~1.73 mg more.
        let warm = samples.last!.acceleration!.z - samples.first!.acceleration!.z
        #expect(abs(warm - 0.001 * (samples.last!.temperature! - samples.first!.temperature!)) < 1e-4)
        #expect(warm > 0.0015)
    }

    @Test func emptyScenarioYieldsNothing() {
        var sim = Simulator(scenario: Scenario(name: "empty", segments: []))
        #expect(sim.next() == nil)
        #expect(sim.truth.steps == 0 && sim.duration == 0)
        #expect(sim.attitude(at: 0) == .identity)
        var nan = Simulator(scenario: Scenario(name: "nan", segments: [Segment(.walk, seconds: .nan), Segment(.still, seconds: 1)]))
        #expect(nan.duration == 1)
        #expect(nan.next() != nil)
    }
}

@Suite struct TrueMotionTests {
    /// At 200 Hz a reading is the motion at its instant (below 120 Hz it is the mean over its
    /// period: `SensorFilterTests`).
    @Test func perfectSensorsReadTheTrueMotion() {
        let o = idealOptions { $0.sampleRateHz = 200 }
        let six = Scenario.sixPosition(secondsPerFace: 2, transitionSeconds: 2)
        let sim = Simulator(scenario: six, options: o)
        for s in Simulator.generate(six, options: o).samples {
            let m = sim.motion(at: s.time)
            // Times pass through startTime + t and back, so allow for that rounding.
            #expect(norm(s.acceleration! - m.specificForce) < 1e-9)
            #expect(norm(s.rotationRate! - m.rotationRate) < 1e-9)
            #expect(norm(m.up - m.attitude.inverseRotate(Vector3(0, 0, 1))) < 1e-12)
        }
        let walk = scenario("demo")
        let walker = Simulator(scenario: walk, options: o)
        let samples = Simulator.generate(walk, options: o).samples
        for s in samples.prefix(6000) { #expect(norm(s.rotationRate! - walker.motion(at: s.time).rotationRate) < 1e-9) }
        // The altitude the truth reports is the one the barometer reads.
        for s in samples[12000...] where s.pressure != nil {
            #expect(abs(Barometer.altitude(pressure: s.pressure!) - walker.motion(at: s.time).altitude) < 1e-6)
        }
    }
}
