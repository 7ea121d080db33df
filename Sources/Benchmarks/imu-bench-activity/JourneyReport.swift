import Foundation
import IMUSimulation
import Pedometer

/// The activity seed's scenarios and rides in every placement, simulated (`JourneyCatalogue`):
/// a confusion matrix of the per-second activity against the simulator's truth, without and
/// with GPS, and the steps counted while riding or driving (all false).
enum JourneyReport {
    static let classes = ActivityClass.allCases

    static func run(seeds: [UInt64] = [1, 2, 3]) {
        print("== simulated journeys (seeds \(seeds.map(String.init).joined(separator: ", ")), 100 Hz, accelerometer only; GPS 1 Hz, ±0.3 m/s, 5 % missed, 2 % multipath)")
        var pooled = [false: (0, 0), true: (0, 0)]
        var rideSteps = [false: 0, true: 0]
        var demandAgree = 0, demandTotal = 0, demandOn = 0.0, demandSeconds = 0.0
        let only = ProcessInfo.processInfo.environment["IMU_JOURNEY"]
        for journey in JourneyCatalogue.all where only.map({ journey.name.contains($0) }) ?? true {
            var matrices = [false: [[Int]](repeating: [Int](repeating: 0, count: classes.count), count: classes.count),
                            true: [[Int]](repeating: [Int](repeating: 0, count: classes.count), count: classes.count)]
            var falseSteps = [false: 0, true: 0]
            var trueSteps = 0, walkedSteps = [false: 0, true: 0]
            for seed in seeds {
                let sim = JourneySimulation.simulate(journey, seed: seed)
                let speeds = sim.fixes.map { GroundSpeed(time: $0.time, metersPerSecond: $0.speed, accuracy: $0.accuracy) }
                for gps in [false, true] {
                    let run = ActivityRun(samples: sim.samples, capabilities: SensorCapabilities(accelerometer: true),
                                          speeds: gps ? speeds : [])
                    for (i, label) in run.perSecond.prefix(sim.truth.count).enumerated() {
                        guard let truth = ActivityClass(rawValue: sim.truth[i]) else { continue }
                        matrices[gps]![index(truth)][index(label)] += 1
                    }
                    for (leg, range) in zip(journey.legs, sim.legTimes) {
                        let counted = run.stepTimes.filter { range.contains($0) }.count
                        switch leg.kind {
                        case .cycle, .drive: falseSteps[gps]! += counted
                        default: walkedSteps[gps]! += counted
                        }
                    }
                }
                trueSteps += sim.legSteps.reduce(0, +)
                // The power policy: GPS reports only while `GPSDemand` asks for them.
                let run = ActivityRun(samples: sim.samples, capabilities: SensorCapabilities(accelerometer: true),
                                      speeds: speeds, onDemand: true)
                for (i, label) in run.perSecond.prefix(sim.truth.count).enumerated() where sim.truth[i] == label.rawValue {
                    demandAgree += 1
                }
                demandTotal += min(run.perSecond.count, sim.truth.count)
                demandOn += run.dutyCycle * Double(run.perSecond.count)
                demandSeconds += Double(run.perSecond.count)
            }
            print("-- \(journey.name): the seed expects \(journey.expectation)")
            for gps in [false, true] {
                let m = matrices[gps]!
                let total = m.joined().reduce(0, +)
                let agree = (0..<classes.count).reduce(0) { $0 + m[$1][$1] }
                pooled[gps]!.0 += agree
                pooled[gps]!.1 += total
                rideSteps[gps]! += falseSteps[gps]!
                print(String(format: "   %@: agreement %5.1f %%  steps on foot %d of %d, while riding or driving %d",
                             gps ? "with GPS   " : "without GPS", 100 * Double(agree) / Double(max(total, 1)),
                             walkedSteps[gps]!, trueSteps, falseSteps[gps]!))
                print("      truth \\ reported " + classes.map { pad($0.rawValue, 10) }.joined(separator: ""))
                for (r, row) in m.enumerated() where row.reduce(0, +) > 0 {
                    print("      " + pad(classes[r].rawValue, 16) + row.map { pad(String($0), 10) }.joined(separator: ""))
                }
            }
        }
        print(String(format: "GPS on demand (GPSDemand): reports requested %.1f %% of the time, agreement %.1f %% of %d s",
                     100 * demandOn / max(demandSeconds, 1), 100 * Double(demandAgree) / Double(max(demandTotal, 1)), demandTotal))
        for gps in [false, true] {
            let (agree, total) = pooled[gps]!
            print(String(format: "per-second activity agreement %@: %.1f %% of %d s (target %@); steps while riding or driving: %d",
                         gps ? "with GPS" : "without GPS", 100 * Double(agree) / Double(max(total, 1)), total,
                         gps ? ">= 95 %" : ">= 90 %", rideSteps[gps]!))
        }
    }

    static func index(_ c: ActivityClass) -> Int { classes.firstIndex(of: c)! }
}
