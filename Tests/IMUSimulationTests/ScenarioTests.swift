import Foundation
import Testing
@testable import IMUSimulation

@Suite struct ScenarioTests {
    @Test func everyNamedScenarioExistsAndRuns() {
        for name in Scenario.allNames {
            let s = Scenario.named(name)
            #expect(s != nil, "\(name)")
            #expect(s?.name == name)
            #expect((s?.seconds ?? 0) > 0)
        }
        #expect(Scenario.named("jog") == nil)
    }

    @Test(arguments: [("walk", 1.8), ("stroll", 1.6), ("run", 2.8)])
    func stepCountMatchesDurationTimesCadence(name: String, cadence: Double) {
        for seed in UInt64(1)...5 {
            let sim = Simulator(scenario: scenario(name), options: options { $0.seed = seed })
            let expected = sim.duration * cadence
            #expect(abs(Double(sim.truth.steps) - expected) < 0.04 * expected, "\(name) seed \(seed): \(sim.truth.steps)")
            let gaps = zip(sim.truth.stepTimes.dropFirst(), sim.truth.stepTimes).map { $0 - $1 }
            #expect(gaps.allSatisfy { $0 > 0.9 / (cadence * 1.05) && $0 < 1.1 / (cadence * 0.95) })
        }
    }

    @Test func seedLikeDay() {
        let sim = Simulator(scenario: scenario("day"), options: options { $0.seed = 8; $0.sampleRateHz = 50 })
        // The seed article's segments add up to 385 s (it states 485 s, which its own list contradicts);
        // its 563 steps match the segments (120·1.8 + 90·2.8 + 60·1.6 = 564), so the segments are kept.
        #expect(abs(sim.duration - 385) < 1e-9)
        #expect((400..<700).contains(sim.truth.steps))
        #expect(sim.truth.segments.map(\.activity) == ["stationary", "walking", "vehicle", "running", "stationary", "unknown", "walking"])
        #expect(sim.truth.floors.isEmpty)
        // Steps only inside walking/running stretches.
        for t in sim.truth.stepTimes {
            let segment = sim.truth.segments.first { ($0.start...$0.end).contains(t) }
            #expect(segment?.activity == "walking" || segment?.activity == "running")
        }
    }

    @Test func extendedDayHasFloorsOnFootOnly() {
        let sim = Simulator(scenario: scenario("day-extended"), options: .init())
        #expect(sim.truth.floorsAscended == 3)
        #expect(sim.truth.floorsDescended == 2)
        #expect(sim.truth.duration > 485)
        #expect(sim.truth.floors.map(\.time) == sim.truth.floors.map(\.time).sorted())
    }

    @Test func stairsChangePressureByAFloorPerThreeMetres() {
        for (name, sign) in [("stairs-up", -1.0), ("stairs-down", 1.0)] {
            let (samples, truth) = Simulator.generate(scenario(name), options: options { $0.weatherDriftHPaPerHour = 0 })
            let before = meanPressure(samples, in: truth.startTime...(truth.startTime + 4))
            let after = meanPressure(samples, in: (truth.endTime - 4)...truth.endTime)
            // ≈ 0.36 hPa per 3 m floor near sea level; 3 floors.
            let perFloor = Barometer.pressure(altitude: 100) - Barometer.pressure(altitude: 103)
            #expect(abs(perFloor - 0.36) < 0.01)
            #expect(abs((after - before) - sign * 3 * perFloor) < 0.03, "\(name)")
            #expect(truth.floors.count == 3)
            #expect(truth.floors.allSatisfy { $0.up == (sign < 0) })
            // 3 floors of 0.17 m risers (53 steps) and 5 landings of 2 steps: about 63 steps.
            #expect(abs(truth.steps - 63) <= 2)
        }
    }

    @Test func elevatorChangesPressureWithoutSteps() {
        let o = options { $0.weatherDriftHPaPerHour = 0 }
        let sim = Simulator(scenario: scenario("elevator"), options: o)
        let samples = Simulator.generate(scenario("elevator"), options: o).samples
        #expect(sim.truth.steps == 0)
        #expect(sim.truth.floors.isEmpty)
        let top = sim.scenario.segments[0].seconds + o.startTime
        let start = meanPressure(samples, in: o.startTime...(o.startTime + 3))
        let high = meanPressure(samples, in: (top - 3)...(top + 3))
        #expect(abs((start - high) - (Barometer.pressure(altitude: 100) - Barometer.pressure(altitude: 112))) < 0.03)
        #expect(abs(sim.altitude(at: o.startTime + sim.scenario.segments[0].seconds) - 112) < 1e-9)
        #expect(sim.truth.segments.map(\.activity) == ["stationary"])
    }

    @Test func busAndWaveHaveNoSteps() {
        for name in ["bus", "wave"] {
            let (samples, truth) = Simulator.generate(scenario(name), options: .init())
            #expect(truth.steps == 0)
            let z = samples.map { norm($0.acceleration!) }
            #expect(z.max()! - z.min()! > 0.1, "\(name) moves")
        }
        #expect(Simulator(scenario: scenario("bus")).truth.segments.map(\.activity) == ["vehicle"])
    }

    @Test func busBrakesAndAccelerates() {
        // Forward specific force in the body frame: positive when speeding up, negative when braking.
        let o = idealOptions { $0.holding = .faceUp }
        let samples = Simulator.generate(scenario("bus"), options: o).samples
        // Face-up with top edge forward: device y is forward.
        let ys = samples.map { $0.acceleration!.y }
        #expect(ys.max()! > 0.05)
        #expect(ys.min()! < -0.05)
    }
}

@Suite struct ScenarioTextTests {
    @Test func composesSegments() throws {
        let s = try Scenario.resolve("still:20, walk:60@1.7*0.3/hand,stairs-up:2/pocket,elevator-down:2,face-z:5,wave")
        #expect(s.segments.count == 6)
        #expect(s.segments[1] == Segment(.walk, seconds: 60, cadence: 1.7, amplitude: 0.3, holding: .inHand))
        #expect(s.segments[2].kind == .stairsUp(floors: 2) && s.segments[2].holding == .frontPocket)
        #expect(s.segments[4].kind == .face(.zDown))
        #expect(s.segments[5].seconds == 15)
        let sim = Simulator(scenario: s)
        #expect(sim.truth.floorsAscended == 2 && sim.truth.floorsDescended == 0)
        #expect(try Scenario.resolve("walk") == Scenario.named("walk"))
        #expect(abs(try Scenario.resolve("hour").seconds - 3600) < 1e-9)
    }

    @Test(arguments: ["jog:10", "walk:-3", "walk:ten", "stairs-up:1.5", "walk/hat", "nothing", "", "walk@0"])
    func rejectsBadItems(text: String) {
        #expect(throws: SimulationError.self) { _ = try Scenario.resolve(text) }
    }
}

@Suite struct GaitTruthTests {
    @Test func gaitStretchesCarryPaceAndDistance() {
        let truth = Simulator(scenario: scenario("day-extended")).truth
        #expect(truth.gaits.map(\.kind) == ["walk", "run", "walk", "walk", "stairs-up", "walk", "walk", "stairs-down", "walk"])
        #expect(truth.gaits.map(\.steps).reduce(0, +) == truth.steps)
        #expect(abs(truth.gaits.map(\.distanceMeters).reduce(0, +) - truth.distanceMeters) < 1e-6)
        let run = truth.gaits[1]
        #expect(abs(run.cadence - 2.8) < 0.15)
        #expect(run.stepLengthMeters > truth.gaits[0].stepLengthMeters)
        for (name, segment) in zip(Scenario.segmentKindNames, [Segment.Kind.still, .stroll, .walk, .run, .bus, .wave]) {
            #expect(Segment(segment).kindName == name)
        }
    }
}

@Suite struct CommuteTests {
    @Test func commuteMatchesTheSeedTimeline() {
        let truth = Simulator(scenario: scenario("commute"), options: options { $0.startTime = 0 }).truth
        #expect(truth.segments.map(\.activity) == ["walking", "stationary", "vehicle", "walking"])
        #expect(truth.segments.map(\.start) == [0, 300, 420, 1500])
        #expect(truth.endTime == 1800)
    }
}

@Suite struct LongScenarioTests {
    /// A whole day is planned up front (truth included) without generating its samples, and the
    /// stream can start anywhere in it at once.
    @Test func dayLongWalkPlansQuickly() {
        let day = Scenario(name: "24h", segments: Array(repeating: Segment(.walk, seconds: 3600), count: 24))
        var sim = Simulator(scenario: day)
        #expect(sim.duration == 86_400)
        #expect(abs(Double(sim.truth.steps) - 86_400 * 1.8) < 0.01 * 86_400 * 1.8)
        #expect(sim.nominalSampleCount == 8_640_000)
        #expect(sim.next() != nil)
    }
}

@Suite struct SummaryTests {
    @Test func summaryReadsBackAsTheSameScenario() throws {
        for name in Scenario.allNames {
            let s = Scenario.named(name)!
            let items = s.summary.split(separator: "(")[0].replacingOccurrences(of: " ", with: "")
            let back = try Scenario.resolve(items.trimmingCharacters(in: .punctuationCharacters))
            #expect(back.segments.map(\.kind) == s.segments.map(\.kind), "\(name)")
            #expect(abs(back.seconds - s.seconds) < 0.5 * Double(s.segments.count), "\(name)")
        }
        #expect(Scenario.named("day")!.summary.hasPrefix("still:20/face-up, walk:120@1.8/hand, bus:60/hand"))
        #expect(Scenario.named("day")!.summary.hasSuffix("(385 s)"))
    }
}

@Suite struct StairTests {
    @Test func floorsAreCrossedWhenTheAltitudeSaysSo() {
        let sim = Simulator(scenario: scenario("stairs-up"), options: idealOptions())
        let base = sim.altitude(at: sim.truth.startTime)
        for (k, floor) in sim.truth.floors.enumerated() {
            #expect(abs(sim.altitude(at: floor.time) - (base + 3 * Double(k + 1))) < 1e-6)
            #expect(sim.altitude(at: floor.time - 0.3) < base + 3 * Double(k + 1))
        }
    }

    @Test func landingsAreFlatAndTurnTheWalkerRound() {
        let sim = Simulator(scenario: scenario("stairs-up"), options: idealOptions())
        // Sample the altitude every 50 ms over the climb: the flat stretches are the landings.
        let start = sim.truth.startTime + 5, end = sim.truth.floors.last!.time
        var flat = 0.0, previous = sim.altitude(at: start)
        for t in stride(from: start + 0.05, to: end, by: 0.05) {
            let h = sim.altitude(at: t)
            if abs(h - previous) < 1e-9 { flat += 0.05 }
            previous = h
        }
        // 5 landings of 2 steps at 1.6 steps/s ≈ 6 s flat in a ~33 s climb.
        #expect(flat > 4 && flat < 8, "flat \(flat) s")
        // Each of the 5 landings turns the walker round: the device's horizontal facing (its screen
        // normal, pointing forward in a front pocket) turns by 5 × 180° in all.
        var total = 0.0
        var last: Double?
        for t in stride(from: start, to: end + 1, by: 0.02) {
            let facing = sim.attitude(at: t).rotate(Vector3(0, 0, 1))
            let angle = atan2(facing.y, facing.x)
            if let last { total += remainder(angle - last, 2 * .pi) }
            last = angle
        }
        #expect(abs(total - 5 * .pi) < 0.5, "turned \(total) rad")
    }
}

extension StairTests {
    @Test func risersAreAboutSeventeenCentimetres() {
        let layout = StairLayout(floors: 3, steps: (Segment(.stairsUp(floors: 3)).seconds * 1.6))
        #expect(abs(StairLayout.flightHeight / layout.risersPerFlight - Segment.stairRiseMeters) < 0.005)
        #expect(layout.landingSteps == 2)
        let cramped = StairLayout(floors: 2, steps: 8)
        #expect(cramped.landingSteps == 0)
        #expect(abs(cramped.height(afterSteps: 8) - 6) < 1e-12)
    }
}

@Suite struct CorpusTests {
    @Test func standardCorpusIsValidAndLabelled() throws {
        let cases = SimulationCorpus.standard(seeds: [1, 2])
        #expect(cases.count == 2 * (5 * 3 + 10 + 3))
        #expect(Set(cases.map(\.name)).count == cases.count)
        for c in cases {
            try c.options.validate()
            #expect(c.scenario.seconds > 0)
        }
    }
}
