import Foundation
import IMUSimulation
import Pedometer

/// Runs the simulator's scenarios through the core and compares with their ground truth.
enum SimulatorReport {
    static let scenarios = ["still", "stroll", "walk", "run", "stairs-up", "stairs-down", "elevator",
                            "bus", "wave", "day", "day-extended", "demo"]

    struct Result {
        var steps: Int
        var cadenceError: Double?   // median |estimated − true| steps/s while walking
        var cadenceErrorP90: Double?
        var ascended: Int
        var descended: Int
        var activityAgreement: Double   // share of time whose activity label matches the truth
    }

    /// Share of the scenario's time (sampled every 0.5 s) where our segment's class is the true one.
    static func agreement(_ events: [PedometerEvent], truth: GroundTruth) -> Double {
        let ours = events.compactMap { if case .activity(let s) = $0 { s } else { nil } }
        var t = truth.startTime + 0.25, hits = 0, total = 0
        while t < truth.endTime {
            if let real = truth.segments.first(where: { $0.start <= t && t < $0.end }) {
                total += 1
                if ours.first(where: { $0.start <= t && t < $0.end })?.activity.rawValue == real.activity { hits += 1 }
            }
            t += 0.5
        }
        return total > 0 ? Double(hits) / Double(total) : 0
    }

    /// Feeds `samples` through a pedometer, sampling its live cadence once per second.
    static func run(_ samples: [MotionSample], capabilities: SensorCapabilities, truth: GroundTruth) -> Result {
        var pedometer = Pedometer(capabilities: capabilities)
        var events: [PedometerEvent] = []
        var nextCheck = (samples.first?.time ?? 0) + 1
        var cadenceErrors: [Double] = []
        var truthIndex = 0
        let stepTimes = truth.stepTimes
        for sample in samples {
            pedometer.process(sample, into: &events)
            guard sample.time >= nextCheck else { continue }
            nextCheck += 1
            guard let cadence = pedometer.snapshot.currentCadence else { continue }
            // True cadence over the 4 s analysis window ending now: (n − 1) intervals over their span.
            while truthIndex < stepTimes.count, stepTimes[truthIndex] < sample.time - 4 { truthIndex += 1 }
            var last = truthIndex
            while last < stepTimes.count, stepTimes[last] <= sample.time { last += 1 }
            let n = last - truthIndex
            guard n >= 5, let first = stepTimes[safe: truthIndex], let end = stepTimes[safe: last - 1],
                  end - first > 3 else { continue }
            cadenceErrors.append(abs(cadence - Double(n - 1) / (end - first)))
        }
        pedometer.finish(into: &events)
        let s = pedometer.snapshot
        let sorted = cadenceErrors.sorted()
        let median = sorted.isEmpty ? nil : sorted[sorted.count / 2]
        let p90 = sorted.isEmpty ? nil : sorted[min(sorted.count - 1, sorted.count * 9 / 10)]
        return Result(steps: s.steps, cadenceError: median, cadenceErrorP90: p90,
                      ascended: s.floorsAscended, descended: s.floorsDescended,
                      activityAgreement: agreement(events, truth: truth))
    }

    static func run() {
        print("== simulator scenarios (seed 1, 100 Hz, gyro + barometer with drift and noise)")
        print("scenario        truth counted  error%  cadence |err| median / p90 (steps/s)  floors up/down (truth)  activity agreement  seed²")
        var errors: [Double] = []
        for name in scenarios {
            guard let scenario = Scenario.named(name) else { print("\(name): unknown scenario"); continue }
            var options = SimulationOptions()
            options.doorSlams = [3]
            let (samples, truth) = Simulator.generate(scenario, options: options)
            let result = run(samples, capabilities: options.capabilities, truth: truth)
            let error = truth.steps > 0 ? Double(result.steps - truth.steps) / Double(truth.steps) * 100 : nil
            if let error { errors.append(abs(error)) }
            print(name.padding(toLength: 14, withPad: " ", startingAt: 0),
                  String(format: "%6d %7d", truth.steps, result.steps),
                  error.map { String(format: "%+7.2f", $0) } ?? "      -",
                  result.cadenceError.map { String(format: "  %.4f / %.4f  ", $0, result.cadenceErrorP90 ?? 0) } ?? "         -         ",
                  "  \(result.ascended)/\(result.descended) (\(truth.floorsAscended)/\(truth.floorsDescended))",
                  String(format: "             %5.1f%%", result.activityAgreement * 100),
                  String(format: "%8d", SeedBaseline.count(samples)))
        }
        if !errors.isEmpty {
            print(String(format: "MAPE over scenarios with steps %.2f%%  (target: day ≤ 0.5%%, cadence ≤ 0.01 steps/s, floors exact)",
                         errors.reduce(0, +) / Double(errors.count)))
        }
        print("² steps the pedometer seed's peaks + rhythm gate count on the same samples (SeedBaseline)")
        variants()
        DistanceReport.run()
        shortBouts()
        floorRobustness()
        corpus()
    }

    /// The simulator's standard labelled corpus (every gait in every holding, days, traps, awkward
    /// sensor conditions; seeds 1-3): a line per case, then MAPE and the false steps of the traps.
    static func corpus() {
        let cases = SimulationCorpus.standard()
        print("== SimulationCorpus.standard(): \(cases.count) cases")
        print("case".padding(toLength: 44, withPad: " ", startingAt: 0), " truth counted  error%  floors (truth)")
        var errors: [Double] = []
        var falseSteps = 0, trapCases = 0, floorsExact = 0, floorCases = 0
        for item in cases {
            let (samples, truth) = Simulator.generate(item.scenario, options: item.options)
            let result = run(samples, capabilities: item.options.capabilities, truth: truth)
            var errorText = "      -"
            if truth.steps > 0 {
                let error = Double(result.steps - truth.steps) / Double(truth.steps) * 100
                errors.append(abs(error))
                errorText = String(format: "%+7.2f", error)
            } else {
                falseSteps += result.steps
                trapCases += 1
            }
            if item.options.barometerRateHz != nil {
                floorCases += 1
                if result.ascended == truth.floorsAscended, result.descended == truth.floorsDescended { floorsExact += 1 }
            }
            print(item.name.padding(toLength: 44, withPad: " ", startingAt: 0),
                  String(format: "%6d %7d", truth.steps, result.steps), errorText,
                  " \(result.ascended)/\(result.descended) (\(truth.floorsAscended)/\(truth.floorsDescended))")
        }
        if !errors.isEmpty {
            print(String(format: "corpus: MAPE %.2f%% over %d cases with steps, worst %.2f%%; %d false steps in %d cases without steps; floors exact in %d of %d",
                         errors.reduce(0, +) / Double(errors.count), errors.count, errors.max() ?? 0,
                         falseSteps, trapCases, floorsExact, floorCases))
        }
    }

    /// Short walks between stops (the seed's rhythm gate loses about a quarter of such steps).
    static var shortBoutScenario: Scenario {
        var segments: [Segment] = [Segment(.still, seconds: 5, holding: .faceUp)]
        for (i, seconds) in [3.0, 5, 2.5, 8, 4, 3.5, 6].enumerated() {
            let holding: DeviceHolding = [.inHand, .frontPocket, .backPocket][i % 3]
            segments.append(Segment(.walk, seconds: seconds, holding: holding))
            segments.append(Segment(.still, seconds: 4, holding: holding))
        }
        return Scenario(name: "short-bouts", segments: segments)
    }

    static func shortBouts() {
        print("== short walks: 7 bouts of 2.5 to 8 s with 4 s stops, hand/front/back pocket, seeds 1-5")
        var truthTotal = 0, countedTotal = 0
        for seed in UInt64(1)...5 {
            var options = SimulationOptions()
            options.seed = seed
            let (samples, truth) = Simulator.generate(shortBoutScenario, options: options)
            let result = run(samples, capabilities: options.capabilities, truth: truth)
            truthTotal += truth.steps
            countedTotal += result.steps
            print(String(format: "seed %d: truth %d counted %d (%+.1f%%)", seed, truth.steps, result.steps,
                         Double(result.steps - truth.steps) / Double(truth.steps) * 100))
        }
        print(String(format: "short walks total: truth %d counted %d (%+.1f%%)", truthTotal, countedTotal,
                     Double(countedTotal - truthTotal) / Double(truthTotal) * 100))
    }

    /// Floors under weather drift, noise and door slams, over several seeds: counted vs truth.
    static func floorRobustness() {
        print("== floors under drift, noise and door slams (day-extended: 3 up, 2 down on foot; elevators 2 up, 3 down)")
        var exact = 0, runs = 0
        for seed in UInt64(1)...5 {
            for drift in [0.5, -0.5, 1.0, -1.0] {
                var options = SimulationOptions()
                options.seed = seed
                options.weatherDriftHPaPerHour = drift
                options.doorSlams = [30, 400, 500, 560]
                options.doorSlamHPa = 0.8
                let (samples, truth) = Simulator.generate(Scenario.named("day-extended")!, options: options)
                let result = run(samples, capabilities: options.capabilities, truth: truth)
                runs += 1
                let ok = result.ascended == truth.floorsAscended && result.descended == truth.floorsDescended
                if ok { exact += 1 }
                if !ok { print(String(format: "seed %d drift %+.1f hPa/h: floors %d/%d (truth %d/%d)  WRONG", seed, drift,
                             result.ascended, result.descended, truth.floorsAscended, truth.floorsDescended)) }
            }
        }
        print("floors exactly right in \(exact) of \(runs) runs (seeds 1-5, drift ±0.5 and ±1 hPa/h, four 0.8 hPa door slams)")
    }

    /// The synthetic day under harder conditions: other rates, no gyro, no barometer, gaps.
    static func variants() {
        print("== synthetic day variants")
        let day = Scenario.named("day")!
        let cases: [(String, (inout SimulationOptions) -> Void)] = [
            ("25 Hz", { $0.sampleRateHz = 25 }),
            ("400 Hz", { $0.sampleRateHz = 400 }),
            ("1 kHz", { $0.sampleRateHz = 1000 }),
            ("accel only", { $0.includeGyroscope = false; $0.barometerRateHz = nil }),
            ("jitter 3 ms", { $0.timestampJitterSeconds = 0.003 }),
            ("gap 2 s", { $0.gaps = [50...52] }),
            ("seed 2", { $0.seed = 2 }),
            ("seed 3", { $0.seed = 3 }),
            ("seed 4", { $0.seed = 4 }),
            ("seed 5", { $0.seed = 5 }),
            ("seed 7", { $0.seed = 7 }),
        ]
        for (label, change) in cases {
            var options = SimulationOptions()
            change(&options)
            let (samples, truth) = Simulator.generate(day, options: options)
            let result = run(samples, capabilities: options.capabilities, truth: truth)
            let error = Double(result.steps - truth.steps) / Double(truth.steps) * 100
            print(label.padding(toLength: 14, withPad: " ", startingAt: 0),
                  String(format: "%6d %7d %+7.2f", truth.steps, result.steps, error),
                  result.cadenceError.map { String(format: "  %8.4f", $0) } ?? "")
        }
    }

    /// Samples for the throughput figure when no recordings are at hand.
    static func speedCorpus(rateHz: Double) -> [LabelledRecording] {
        var options = SimulationOptions()
        options.sampleRateHz = rateHz
        let (samples, truth) = Simulator.generate(Scenario.named("day-extended")!, options: options)
        return [LabelledRecording(name: "day-extended", samples: samples, capabilities: options.capabilities,
                                  trueSteps: truth.steps)]
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
