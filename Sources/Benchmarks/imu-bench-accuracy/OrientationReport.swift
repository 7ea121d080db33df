import Foundation
import IMUSimulation
import Pedometer

/// What the gyro-aided orientation buys (issue 14, part 3): every recording that has a gyroscope
/// is counted twice, as recorded and with the gyroscope removed (the accelerometer-only gravity),
/// and the two runs are compared: steps, and the activity label every 0.5 s.
enum OrientationReport {
    struct Case {
        var name: String
        var samples: [MotionSample]
        var capabilities: SensorCapabilities
        var trueSteps: Int
        /// The simulator's truth, to score the labels against (nil for recordings).
        var truth: GroundTruth? = nil
    }

    static func withoutGyro(_ c: Case) -> Case {
        var out = c
        out.capabilities.gyroscope = false
        out.samples = c.samples.map { s in var s = s; s.rotationRate = nil; return s }
        return out
    }

    /// Seconds (sampled every 0.5 s) whose activity labels differ between two runs, and the time compared.
    static func labelDifference(_ a: [PedometerEvent], _ b: [PedometerEvent], from start: Double, to end: Double) -> (differ: Double, total: Double) {
        func segments(_ events: [PedometerEvent]) -> [ActivitySegment] {
            events.compactMap { if case .activity(let s) = $0 { s } else { nil } }
        }
        let sa = segments(a), sb = segments(b)
        var t = start + 0.25, differ = 0.0, total = 0.0
        while t < end {
            let la = sa.first { $0.start <= t && t < $0.end }?.activity
            let lb = sb.first { $0.start <= t && t < $0.end }?.activity
            total += 0.5
            if la != lb { differ += 0.5 }
            t += 0.5
        }
        return (differ, total)
    }

    static func run() {
        var cases: [Case] = []
        let directory = RealDevReport.directory()
        for r in RealDevReport.load(prefixes: ["gait_lowerback", "car_", "ipin"], directory: directory) where r.capabilities.gyroscope {
            cases.append(Case(name: r.name, samples: r.samples, capabilities: r.capabilities, trueSteps: r.trueSteps))
        }
        for name in SimulatorReport.scenarios {
            guard let scenario = Scenario.named(name) else { continue }
            let options = SimulationOptions()
            let (samples, truth) = Simulator.generate(scenario, options: options)
            cases.append(Case(name: "sim " + name, samples: samples, capabilities: options.capabilities, trueSteps: truth.steps, truth: truth))
        }
        for seed in UInt64(1)...6 {
            var options = SimulationOptions()
            options.seed = seed
            let (samples, truth) = Simulator.generate(DailyLifeReport.scenario(holdingOffset: Int(seed)), options: options)
            cases.append(Case(name: "sim daily-life seed \(seed)", samples: samples, capabilities: options.capabilities, trueSteps: truth.steps, truth: truth))
        }
        print("== orientation: every recording with a gyroscope, counted as recorded and with the gyroscope removed (accelerometer-only gravity)")
        print("recording".padding(toLength: 44, withPad: " ", startingAt: 0), " truth  gyro  no gyro   labels differ s / of s   labels right (simulator) gyro / no gyro")
        var gyroErrors: [Double] = [], plainErrors: [Double] = [], differ = 0.0, total = 0.0, changedCounts = 0
        var rightGyro = 0.0, rightPlain = 0.0, scored = 0
        for c in cases {
            let (gyro, gyroEvents) = count(c.samples, capabilities: c.capabilities)
            let (plain, plainEvents) = count(withoutGyro(c).samples, capabilities: withoutGyro(c).capabilities)
            let start = c.samples.first?.time ?? 0, end = c.samples.last?.time ?? 0
            let d = labelDifference(gyroEvents, plainEvents, from: start, to: end)
            differ += d.differ; total += d.total
            if gyro.steps != plain.steps { changedCounts += 1 }
            if c.trueSteps > 0 {
                gyroErrors.append(abs(Double(gyro.steps - c.trueSteps)) / Double(c.trueSteps) * 100)
                plainErrors.append(abs(Double(plain.steps - c.trueSteps)) / Double(c.trueSteps) * 100)
            }
            var right = ""
            if let truth = c.truth {
                let g = SimulatorReport.agreement(gyroEvents, truth: truth), p = SimulatorReport.agreement(plainEvents, truth: truth)
                rightGyro += g; rightPlain += p; scored += 1
                right = String(format: "   %6.1f%% / %5.1f%%", g * 100, p * 100)
            }
            print(c.name.padding(toLength: 44, withPad: " ", startingAt: 0),
                  String(format: "%6d %5d %8d   %8.1f / %.0f", c.trueSteps, gyro.steps, plain.steps, d.differ, d.total), right)
        }
        let n = Double(max(gyroErrors.count, 1))
        print(String(format: "orientation: %d recordings; step counts changed in %d; MAPE %.2f%% gyro-aided, %.2f%% accelerometer-only (%d with steps); activity labels differ in %.1f of %.0f s (%.2f%%)",
                     cases.count, changedCounts, gyroErrors.reduce(0, +) / n, plainErrors.reduce(0, +) / n, gyroErrors.count,
                     differ, total, total > 0 ? differ / total * 100 : 0))
        if scored > 0 {
            print(String(format: "orientation: simulator activity labels right %.2f%% gyro-aided, %.2f%% accelerometer-only (mean of %d scenarios)",
                         rightGyro / Double(scored) * 100, rightPlain / Double(scored) * 100, scored))
        }
    }
}
