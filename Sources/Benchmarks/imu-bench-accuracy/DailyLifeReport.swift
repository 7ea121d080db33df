import Foundation
import IMUSimulation
import Pedometer

/// The simulator's daily-life sets (issue 14): short, slow and irregular walks between pauses,
/// and rides in five vehicles with the phone in five places. Seeds 1-3 are the tuned part,
/// seeds 4-6 the held-out part (named here; the headline is the held-out figure).
enum DailyLifeReport {
    static let tunedSeeds: [UInt64] = [1, 2, 3]
    static let heldOutSeeds: [UInt64] = [4, 5, 6]
    /// Rides: seed 2 was the held-out seed until its city bus (355 false steps) was looked at
    /// to find the horizontal rule (`GaitGate.walkStartHorizontal`); it is tuned on now, and seed
    /// 3 is held out. Seeds 7 and 8 were added to the tuned part to study the city bus's false
    /// walks without looking at seed 3 (issue 14, session 3).
    static let tunedRideSeeds: [UInt64] = [1, 2, 7, 8]
    static let heldOutRideSeed: UInt64 = 3
    /// The city bus on twelve more seeds, a check of what the five seeds above do not show
    /// (issue 14, session 4). Seen once the simulator's sensor averaged over each sample period
    /// (`Simulator.sample`), before which seed 8's 20 Hz rides had aliased the bus's engine into
    /// the walking band; nothing was tuned on them.
    static let cityBusCheckSeeds: [UInt64] = Array(9...20)
    /// The city bus's tuning seeds (issue 14, session 5): the false walks on these were studied to
    /// find the weak-start coupling rule (`GaitGate.minimumImpactCoupling`); the check seeds above
    /// were not looked at for it, only their total printed.
    static let cityBusTunedSeeds: [UInt64] = Array(21...40)

    /// Walks of 4 to 20 steps at 0.6 to 2 steps/s between pauses of 1.5 to 6 s, in the hand, the
    /// pockets and a bag: (steps, cadence steps/s, bounce g, pause s) per walk.
    static let walks: [(steps: Double, cadence: Double, amplitude: Double, pause: Double)] = [
        (4, 1.2, 0.18, 3), (12, 1.5, 0.2, 2), (6, 0.8, 0.12, 4), (20, 1.8, 0.25, 1.5),
        (5, 0.6, 0.1, 5), (8, 1.0, 0.15, 2.5), (15, 2.0, 0.25, 3), (4, 0.7, 0.12, 6),
        (10, 1.3, 0.18, 2), (7, 1.1, 0.15, 4),
    ]

    static func scenario(holdingOffset: Int = 0) -> Scenario {
        let holdings: [DeviceHolding] = [.inHand, .frontPocket, .backPocket, .bag]
        var segments = [Segment(.still, seconds: 5, holding: .inHand)]
        for (i, w) in walks.enumerated() {
            let holding = holdings[(i + holdingOffset) % holdings.count]
            segments.append(Segment(.walk, seconds: w.steps / w.cadence, cadence: w.cadence, amplitude: w.amplitude, holding: holding))
            segments.append(Segment(.still, seconds: w.pause, holding: holding))
        }
        return Scenario(name: "daily-life", segments: segments)
    }

    static func run() {
        dailyLife()
        LowerBackDailyLifeReport.run()
        rides()
    }

    static func dailyLife() {
        print("== simulated daily life: 10 walks of 4-20 steps at 0.6-2 steps/s between 1.5-6 s pauses, hand/pockets/bag, 100 and 25 Hz")
        walkSet(headline: "simulated daily life", tuned: tunedSeeds, heldOut: heldOutSeeds) { scenario(holdingOffset: Int($0)) }
    }

    /// Counts a set of simulated walks between pauses on its held-out and tuned seeds, 100 and
    /// 25 Hz, beside the seed baseline: one line per seed and rate, the held-out total as the
    /// headline `headline`, the tuned total after it.
    static func walkSet(headline: String, tuned tunedSeeds: [UInt64], heldOut heldOutSeeds: [UInt64], scenario: (UInt64) -> Scenario) {
        print("   split: tuned on seeds \(tunedSeeds.map(String.init).joined(separator: ",")); held out \(heldOutSeeds.map(String.init).joined(separator: ","))")
        func part(_ seeds: [UInt64]) -> (truth: Int, counted: Int, seed: Int) {
            var truth = 0, counted = 0, seedCount = 0
            for seed in seeds {
                for rate in [100.0, 25.0] {
                    var options = SimulationOptions()
                    options.seed = seed
                    options.sampleRateHz = rate
                    let (samples, t) = Simulator.generate(scenario(seed), options: options)
                    let steps = count(samples, capabilities: options.capabilities).snapshot.steps
                    let baseline = SeedBaseline.count(samples)
                    truth += t.steps; counted += steps; seedCount += baseline
                    print(String(format: "seed %d %3.0f Hz: truth %d counted %d (%+.1f%%)  seed² %d", seed, rate, t.steps, steps,
                                 Double(steps - t.steps) / Double(t.steps) * 100, baseline))
                }
            }
            return (truth, counted, seedCount)
        }
        let held = part(heldOutSeeds)
        let tuned = part(tunedSeeds)
        func line(_ label: String, _ p: (truth: Int, counted: Int, seed: Int)) -> String {
            String(format: "%@: truth %d counted %d (%+.2f%%)  | seed² %d (%+.1f%%)  (target ±3%%)", label, p.truth, p.counted,
                         Double(p.counted - p.truth) / Double(p.truth) * 100, p.seed, Double(p.seed - p.truth) / Double(p.truth) * 100)
        }
        Headline.say(headline, line("held out", held))
        print(line("tuned part       ", tuned))
    }

    /// Five vehicles, five placements, 20 to 200 Hz, accelerometer only: 3 min rides with no
    /// walking, then a 40 s walk off: false steps in the ride, seconds labelled walking or running
    /// in it, and the walk off's count.
    static func rides() {
        // The coach is a check of its own (`coach`), nothing tuned on it.
        let vehicles: [(String, Segment.Kind)] = [("bus", .bus)]
            + Segment.Vehicle.allCases.filter { $0 != .coach }.map { ($0.rawValue, .ride($0)) }
        // A windshield or handlebar mount holds the phone upright, screen to the driver.
        let mount = DeviceHolding.custom(roll: 0, pitch: -80 * .pi / 180, yaw: 0)
        let placements: [(String, DeviceHolding)] = [("hand", .inHand), ("pocket", .frontPocket), ("bag", .bag),
                                                     ("mount", mount), ("seat", .faceUp)]
        print("== simulated rides: 5 vehicles x 5 placements x 20/50/200 Hz, accelerometer only, 180 s ride then a 40 s walk off (phone in the hand when it was mounted or on the seat)")
        print("   split: tuned on seeds \(tunedRideSeeds.map(String.init).joined(separator: ", ")), held out seed \(heldOutRideSeed)")
        print("vehicle    placement  false steps (seed \((tunedRideSeeds + [heldOutRideSeed]).map(String.init).joined(separator: " / ")))  walk/run labelled s in rides  walk off counted/truth (50 Hz)")
        var falseBySeed: [UInt64: Int] = [:]
        var labelled = 0.0, walkTruth = 0, walkCounted = 0, seedFalse = 0
        for (name, kind) in vehicles {
            for (placeName, holding) in placements {
                var perSeed: [Int] = []
                var seconds = 0.0
                var walkText = ""
                for seed in tunedRideSeeds + [heldOutRideSeed] {
                    var falseSteps = 0
                    for rate in rideRates {
                        let (samples, truth, events, rideEnd) = ride(kind, holding: holding, mount: mount, seed: seed, rate: rate)
                        let steps = events.compactMap { if case .step(let t) = $0 { t } else { nil } }
                        falseSteps += steps.filter { $0 < rideEnd }.count
                        seedFalse += SeedBaseline.count(samples.filter { $0.time < rideEnd })
                        for case .activity(let segment) in events where segment.activity == .walking || segment.activity == .running {
                            seconds += max(0, min(segment.end, rideEnd - 2) - segment.start)
                        }
                        let walked = steps.filter { $0 >= rideEnd }.count
                        let real = truth.stepTimes.filter { $0 >= rideEnd }.count
                        walkTruth += real; walkCounted += walked
                        if rate == 50 { walkText += "\(walked)/\(real) " }
                    }
                    perSeed.append(falseSteps)
                    falseBySeed[seed, default: 0] += falseSteps
                }
                labelled += seconds
                print(name.padding(toLength: 10, withPad: " ", startingAt: 0), placeName.padding(toLength: 10, withPad: " ", startingAt: 0),
                      perSeed.map { String(format: "%3d", $0) }.joined(separator: " / "), String(format: "%20.0f", seconds), "           ", walkText)
            }
        }
        let tunedFalse = tunedRideSeeds.map { falseBySeed[$0] ?? 0 }.reduce(0, +)
        let rides = vehicles.count * placements.count * rideRates.count
        Headline.say("simulated rides", String(format: "held out (seed %d): %d false steps in %d rides; tuned (seeds %@): %d in %d; walk/run labelled in rides %.0f s; walks off: truth %d counted %d (%+.1f%%) | seed² %d false steps in all %d rides",
                     Int(heldOutRideSeed), falseBySeed[heldOutRideSeed] ?? 0, rides,
                     tunedRideSeeds.map(String.init).joined(separator: ", "), tunedFalse, rides * tunedRideSeeds.count,
                     labelled, walkTruth, walkCounted,
                     Double(walkCounted - walkTruth) / Double(max(walkTruth, 1)) * 100, seedFalse, rides * (tunedRideSeeds.count + 1)))
        cityBus(seeds: cityBusTunedSeeds, label: "tuning seeds", placements: placements, mount: mount)
        cityBus(seeds: cityBusCheckSeeds, label: "check seeds", placements: placements, mount: mount)
        coach(placements: placements, mount: mount)
    }

    /// The coach's seeds (issue 14, session 6): a bus built from physics apart from the city
    /// bus's figures (`Segment.Vehicle.coach`, `RoadRide`), added after the step counter's rules
    /// were set and never tuned on.
    static let coachSeeds: [UInt64] = Array(1...10)

    /// The coach on `coachSeeds`: false steps per seed over five placements and three rates, and
    /// the walks off it.
    static func coach(placements: [(String, DeviceHolding)], mount: DeviceHolding) {
        var perSeed: [String] = []
        var total = 0, rides = 0, withSteps = 0, walkTruth = 0, walkCounted = 0
        var labelled = 0.0
        for seed in coachSeeds {
            var falseSteps = 0
            for (_, holding) in placements {
                for rate in rideRates {
                    let (_, truth, events, rideEnd) = ride(.ride(.coach), holding: holding, mount: mount, seed: seed, rate: rate)
                    let steps = events.compactMap { if case .step(let t) = $0 { t } else { nil } }
                    let n = steps.filter { $0 < rideEnd }.count
                    falseSteps += n
                    rides += 1
                    if n > 0 { withSteps += 1 }
                    walkCounted += steps.filter { $0 >= rideEnd }.count
                    walkTruth += truth.stepTimes.filter { $0 >= rideEnd }.count
                    for case .activity(let segment) in events where segment.activity == .walking || segment.activity == .running {
                        labelled += max(0, min(segment.end, rideEnd - 2) - segment.start)
                    }
                }
            }
            total += falseSteps
            perSeed.append("\(seed): \(falseSteps)")
        }
        print("coach (ISO 8608 road under a 1 Hz air suspension, engine firing 30-90 Hz; never tuned on), false steps per seed over 5 placements x 3 rates:",
              perSeed.joined(separator: ", "))
        print(String(format: "figure: simulated coach, seeds %d-%d (not tuned on): %d false steps in %d rides (%d rides with any); walk/run labelled in rides %.0f s; walks off: truth %d counted %d (%+.1f%%)",
                     Int(coachSeeds.first!), Int(coachSeeds.last!), total, rides, withSteps, labelled, walkTruth, walkCounted,
                     Double(walkCounted - walkTruth) / Double(max(walkTruth, 1)) * 100))
    }

    /// Sample rates of the simulated rides, Hz.
    static let rideRates = [20.0, 50.0, 200.0]

    /// One simulated ride of 180 s and a 40 s walk off, accelerometer only: its samples, truth,
    /// pedometer events and the time the ride ends.
    static func ride(_ kind: Segment.Kind, holding: DeviceHolding, mount: DeviceHolding, seed: UInt64, rate: Double)
        -> (samples: [MotionSample], truth: GroundTruth, events: [PedometerEvent], rideEnd: Double) {
        var options = SimulationOptions()
        options.seed = seed
        options.sampleRateHz = rate
        options.includeGyroscope = false
        options.barometerRateHz = nil
        let segments = [Segment(kind, seconds: 180, holding: holding),
                        Segment(.walk, seconds: 40, cadence: 1.7, amplitude: 0.22, holding: holding == mount || holding == .faceUp ? .inHand : holding)]
        let (samples, truth) = Simulator.generate(Scenario(name: "ride", segments: segments), options: options)
        let (_, events) = count(samples, capabilities: options.capabilities)
        let rideEnd = truth.segments.first { $0.activity == "vehicle" }?.end ?? 0
        return (samples, truth, events, rideEnd)
    }

    /// The city bus on `seeds` (`cityBusTunedSeeds` or `cityBusCheckSeeds`): false steps per seed
    /// over its five placements and three rates.
    static func cityBus(seeds: [UInt64], label: String, placements: [(String, DeviceHolding)], mount: DeviceHolding) {
        var perSeed: [String] = []
        var total = 0, rides = 0, withSteps = 0
        for seed in seeds {
            var falseSteps = 0
            for (_, holding) in placements {
                for rate in rideRates {
                    let (_, _, events, rideEnd) = ride(.ride(.cityBus), holding: holding, mount: mount, seed: seed, rate: rate)
                    let n = events.filter { if case .step(let t) = $0 { t < rideEnd } else { false } }.count
                    falseSteps += n
                    rides += 1
                    if n > 0 { withSteps += 1 }
                }
            }
            total += falseSteps
            perSeed.append("\(seed): \(falseSteps)")
        }
        let tuned = seeds == cityBusTunedSeeds ? "tuned on" : "not tuned on"
        print("city bus, \(label) (\(tuned)), false steps per seed over 5 placements x 3 rates:", perSeed.joined(separator: ", "))
        print("figure: simulated city bus, \(label):", "seeds \(seeds.first!)-\(seeds.last!) (\(tuned)): \(total) false steps in \(rides) rides (\(withSteps) rides with any)")
    }
}
