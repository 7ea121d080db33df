import Foundation
import IMUSimulation
import Pedometer

/// The activity seed's scenarios and rides in every placement, simulated (`JourneyCatalogue`):
/// a confusion matrix of the per-second activity against the simulator's truth, without and
/// with GPS, and the steps counted while riding or driving (all false).
///
/// Two views of the per-second activity, both printed:
/// - history: the finished segments (what `PedometerHistory` keeps and Core Motion's
///   `queryActivityStarting` returns): a segment starts where its activity began;
/// - live: the activity of the segment in progress at each second, as an app watching live
///   updates sees it, a few seconds behind every change (window centre plus hysteresis).
enum JourneyReport {
    static let classes = ActivityClass.allCases

    /// One confusion matrix (truth rows, reported columns) and its agreement.
    struct Matrix {
        var cells = [[Int]](repeating: [Int](repeating: 0, count: JourneyReport.classes.count), count: JourneyReport.classes.count)
        mutating func add(truth: [String], reported: [ActivityClass]) {
            for (i, label) in reported.prefix(truth.count).enumerated() {
                guard let t = ActivityClass(rawValue: truth[i]) else { continue }
                cells[index(t)][index(label)] += 1
            }
        }
        var total: Int { cells.joined().reduce(0, +) }
        var agree: Int { (0..<classes.count).reduce(0) { $0 + cells[$1][$1] } }
        var share: Double { 100 * Double(agree) / Double(max(total, 1)) }
        func print(indent: String) {
            Swift.print(indent + "truth \\ reported " + classes.map { pad($0.rawValue, 11) }.joined())
            for (r, row) in cells.enumerated() where row.reduce(0, +) > 0 {
                Swift.print(indent + pad(classes[r].rawValue, 16) + " " + row.map { pad(String($0), 11) }.joined())
            }
        }
    }

    static func run(seeds: [UInt64] = [1, 2, 3]) {
        print("== simulated journeys (seeds \(seeds.map(String.init).joined(separator: ", ")), 100 Hz, accelerometer only; GPS 1 Hz, ±0.3 m/s, 5 % missed, 2 % multipath)")
        var pooled = [false: (history: Matrix(), live: Matrix()), true: (history: Matrix(), live: Matrix())]
        var cyclingSteps = [false: 0, true: 0], drivingSteps = [false: 0, true: 0]
        var demandAgree = 0, demandTotal = 0, demandOn = 0.0, demandSeconds = 0.0
        let only = ProcessInfo.processInfo.environment["IMU_JOURNEY"]
        // Diagnostics: truth, live and history one letter a second, and where steps fall.
        let labels = ProcessInfo.processInfo.environment["IMU_LABELS"] != nil
        for journey in JourneyCatalogue.all where only.map({ journey.name.contains($0) }) ?? true {
            var matrices = [false: (history: Matrix(), live: Matrix()), true: (history: Matrix(), live: Matrix())]
            var pedalled = [false: 0, true: 0], driven = [false: 0, true: 0]
            var trueSteps = 0, walkedSteps = [false: 0, true: 0]
            for seed in seeds {
                let sim = JourneySimulation.simulate(journey, seed: seed)
                let speeds = sim.fixes.map { GroundSpeed(time: $0.time, metersPerSecond: $0.speed, accuracy: $0.accuracy) }
                for gps in [false, true] {
                    let run = ActivityRun(samples: sim.samples, capabilities: SensorCapabilities(accelerometer: true),
                                          speeds: gps ? speeds : [])
                    if labels {
                        // Diagnostics: truth, live and history, one letter a second (s w r c v u).
                        func letters(_ a: [String]) -> String { a.map { String($0.prefix(1)) }.joined() }
                        print("seed \(seed) gps \(gps)\n  truth   " + letters(sim.truth) + "\n  live    " + letters(run.perSecond.map(\.rawValue))
                              + "\n  history " + letters(run.history.map(\.rawValue)))
                    }
                    matrices[gps]!.history.add(truth: sim.truth, reported: run.history)
                    matrices[gps]!.live.add(truth: sim.truth, reported: run.perSecond)
                    for (leg, range) in zip(journey.legs, sim.legTimes) {
                        let counted = run.stepTimes.filter { range.contains($0) }.count
                        switch leg.kind {
                        case .cycle:
                            pedalled[gps]! += counted
                            if labels, counted > 0 {
                                // Diagnostics: where the steps counted while pedalling fall, s into the ride.
                                print("  steps while pedalling, s into the ride: " + run.stepTimes.filter { range.contains($0) }
                                    .map { String(format: "%.1f", $0 - range.lowerBound) }.joined(separator: " "))
                            }
                        case .drive: driven[gps]! += counted
                        default:
                            walkedSteps[gps]! += counted
                            if labels {
                                // Diagnostics: each leg on foot, counted against its truth, and its last steps.
                                let leg = sim.legTimes.firstIndex(of: range) ?? 0
                                print("  leg \(leg): counted \(counted) of \(sim.legSteps[leg]); last steps, s before its end: "
                                      + run.stepTimes.filter { range.contains($0) }.suffix(6)
                                        .map { String(format: "%.1f", range.upperBound - $0) }.joined(separator: " ")
                                      + "; first, s after its start: " + run.stepTimes.filter { range.contains($0) }.prefix(6)
                                        .map { String(format: "%.1f", $0 - range.lowerBound) }.joined(separator: " "))
                            }
                        }
                    }
                }
                trueSteps += sim.legSteps.reduce(0, +)
                // The power policy: GPS reports only while `GPSDemand` asks for them.
                let run = ActivityRun(samples: sim.samples, capabilities: SensorCapabilities(accelerometer: true),
                                      speeds: speeds, onDemand: true)
                for (i, label) in run.history.prefix(sim.truth.count).enumerated() where sim.truth[i] == label.rawValue {
                    demandAgree += 1
                }
                demandTotal += min(run.history.count, sim.truth.count)
                demandOn += run.dutyCycle * Double(run.perSecond.count)
                demandSeconds += Double(run.perSecond.count)
            }
            print("-- \(journey.name): the seed expects \(journey.expectation)")
            for gps in [false, true] {
                let m = matrices[gps]!
                pooled[gps]!.history.cells = zip(pooled[gps]!.history.cells, m.history.cells).map { zip($0, $1).map(+) }
                pooled[gps]!.live.cells = zip(pooled[gps]!.live.cells, m.live.cells).map { zip($0, $1).map(+) }
                cyclingSteps[gps]! += pedalled[gps]!
                drivingSteps[gps]! += driven[gps]!
                print(String(format: "   %@: agreement history %5.1f %%, live %5.1f %%; steps on foot %d of %d, while cycling %d, while driving %d",
                             gps ? "with GPS   " : "without GPS", m.history.share, m.live.share,
                             walkedSteps[gps]!, trueSteps, pedalled[gps]!, driven[gps]!))
                m.history.print(indent: "      ")
            }
        }
        print(String(format: "GPS on demand (GPSDemand): reports requested %.1f %% of the time, agreement (history) %.1f %% of %d s",
                     100 * demandOn / max(demandSeconds, 1), 100 * Double(demandAgree) / Double(max(demandTotal, 1)), demandTotal))
        // Anchor: the truth's most common class answered for every second.
        let columnTotals = pooled[false]!.history.cells.map { $0.reduce(0, +) }
        let majority = 100 * Double(columnTotals.max() ?? 0) / Double(max(pooled[false]!.history.total, 1))
        var walkedTruth = 0
        for journey in JourneyCatalogue.all where only.map({ journey.name.contains($0) }) ?? true {
            for seed in seeds { walkedTruth += JourneySimulation.simulate(journey, seed: seed).legSteps.reduce(0, +) }
        }
        for gps in [false, true] {
            let (history, live) = pooled[gps]!
            print(String(format: "figure: simulated journeys, per-second activity agreement %@ = %.1f %% (history), %.1f %% (live) | target %@ | anchor: the most common true class every second = %.1f %%",
                         gps ? "with GPS" : "without GPS", history.share, live.share, gps ? ">= 95 %" : ">= 90 %", majority))
        }
        print("figure: simulated rides, steps while cycling = \(cyclingSteps[false]!) without GPS, \(cyclingSteps[true]!) with | target 0 | anchor: true steps on foot in the same journeys = \(walkedTruth)")
        for gps in [false, true] {
            let (history, live) = pooled[gps]!
            print(String(format: "per-second activity agreement %@: history %.1f %%, live %.1f %% of %d s (target %@); steps while cycling %d, while driving %d",
                         gps ? "with GPS" : "without GPS", history.share, live.share, history.total,
                         gps ? ">= 95 %" : ">= 90 %", cyclingSteps[gps]!, drivingSteps[gps]!))
            history.print(indent: "   ")
            print("   live (the segment in progress at each second):")
            live.print(indent: "   ")
        }
    }

    static func index(_ c: ActivityClass) -> Int { classes.firstIndex(of: c)! }
}
