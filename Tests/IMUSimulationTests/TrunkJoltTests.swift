import Testing
@testable import IMUSimulation

/// The lower back (a phone on a belt over the sacrum) feels each heel strike as a sharp impact
/// with a fore-aft and sideways jolt at the same instant (`TrunkJolt`). Bounds: the spread of the
/// real-dev tuned part (s02, s03 lower-back, 10 slow walks) as scripts/lowerback-gait-stats.py
/// measures it (docs/accuracy.md, "The simulator's lower back"); the smooth model before it read
/// outside every one of them.
@Suite struct TrunkJoltTests {
    /// Device-frame readings of a steady lower-back walk (ideal sensors, 100 Hz): its middle 12 s.
    /// At this holding device x is the walker's right, y up, z backwards (`DeviceHolding.mount`).
    func walk(seed: UInt64, cadence: Double) -> [Vector3] {
        let s = Scenario(name: "w", segments: [
            Segment(.still, seconds: 5, holding: .lowerBack),
            Segment(.walk, seconds: 20, cadence: cadence, amplitude: 0.17, holding: .lowerBack),
            Segment(.still, seconds: 4, holding: .lowerBack),
        ])
        let samples = Simulator.generate(s, options: idealOptions { $0.seed = seed }).samples
        let start = samples.first?.time ?? 0
        return samples.filter { (9...21).contains($0.time - start) }.compactMap(\.acceleration)
    }

    func rms(_ x: [Double]) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        return (x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count)).squareRoot()
    }

    /// Pearson kurtosis (3 for a Gaussian, 1.5 for a sinusoid).
    func kurtosis(_ x: [Double]) -> Double {
        let mean = x.reduce(0, +) / Double(x.count)
        let m2 = x.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(x.count)
        let m4 = x.map { let d = $0 - mean; return d * d * d * d }.reduce(0, +) / Double(x.count)
        return m4 / (m2 * m2)
    }

    func correlation(_ a: ArraySlice<Double>, _ b: ArraySlice<Double>) -> Double {
        let ma = a.reduce(0, +) / Double(a.count), mb = b.reduce(0, +) / Double(b.count)
        var ab = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) { ab += (x - ma) * (y - mb); aa += (x - ma) * (x - ma); bb += (y - mb) * (y - mb) }
        return ab / (aa * bb).squareRoot()
    }

    @Test(arguments: [(UInt64(1), 1.4), (2, 1.65), (3, 1.5)])
    func strikesAreSharpAndJoltTheTrunk(seed: UInt64, cadence: Double) throws {
        let a = walk(seed: seed, cadence: cadence)
        try #require(a.count == 1201, "12 s at 100 Hz")
        let gait = a.map { norm($0) - 1 }
        // |a| − 1 g peaks at each strike: real s02/s03 kurtosis 3.2–8.3 (the smooth model 1.8).
        #expect((3.2...8.3).contains(kurtosis(gait)), "kurtosis \(kurtosis(gait))")
        // Every axis moves: real RMS vertical 0.138–0.196 g, fore-aft 0.117–0.185 g, sideways
        // 0.104–0.150 g (the smooth model's fore-aft 0.055–0.060 g and sideways 0.069–0.072 g).
        #expect((0.138...0.196).contains(rms(a.map(\.y))), "vertical \(rms(a.map(\.y)))")
        #expect((0.117...0.185).contains(rms(a.map(\.z))), "fore-aft \(rms(a.map(\.z)))")
        #expect((0.104...0.150).contains(rms(a.map(\.x))), "sideways \(rms(a.map(\.x)))")
        // The horizontal size peaks with the vertical impact: the median over 4 s windows of
        // their correlation, real 0.445–0.722 (the smooth model −0.09–0.28).
        let horizontal = a.map { ($0.x * $0.x + $0.z * $0.z).squareRoot() }
        var couplings: [Double] = []
        for start in stride(from: 0, through: a.count - 400, by: 100) {
            couplings.append(correlation(gait[start..<(start + 400)], horizontal[start..<(start + 400)]))
        }
        let median = couplings.sorted()[couplings.count / 2]
        #expect((0.445...0.722).contains(median), "coupling \(median)")
    }

    /// Only the trunk carries the jolts: every other holding keeps the smooth model.
    @Test func onlyTheLowerBackJolts() {
        let others: [DeviceHolding] = [.faceUp, .inHand, .frontPocket, .backPocket, .bag, .armband, .custom(roll: 0.1, pitch: 0.2, yaw: 0.3)]
        for holding in others { #expect(holding.sway.trunk == nil, "\(holding)") }
        #expect(DeviceHolding.lowerBack.sway.trunk != nil)
    }

    /// The jolts are defined through their velocity, so a lower-back walk ends at rest: the
    /// true acceleration integrates back to a standstill (the sway's ±0.13 m/s aside, as for the
    /// hand in `GaitBalanceTests`).
    @Test func aJoltingWalkEndsAtRest() {
        let walk = Scenario(name: "w", segments: [Segment(.walk, seconds: 20, cadence: 1.5, amplitude: 0.17, holding: .lowerBack)])
        let sim = Simulator(scenario: walk, options: idealOptions())
        let dt = 0.0005
        var velocity = Vector3.zero
        for t in stride(from: sim.truth.startTime, to: sim.truth.endTime, by: dt) {
            velocity += sim.motion(at: t).acceleration * Units.standardGravity * dt
        }
        #expect(norm(velocity) < 0.25, "\(velocity)")
    }
}
