import Foundation
import IMUSimulation
import Pedometer

/// Distance = steps × stride, against the simulator's true distance: with the default stride
/// (from a 1.75 m height), with the line through two calibrated paces, and with one stride
/// calibrated on one walk (the pedometer seed's comparison: −37% at a run).
enum DistanceReport {
    /// What a user does to calibrate: walk a known distance and read the steps and the time.
    /// Returns (cadence steps/s, metres per step).
    static func calibrationPace(_ name: String) -> (cadence: Double, stride: Double)? {
        let options = SimulationOptions()
        let (samples, truth) = Simulator.generate(Scenario.named(name)!, options: options)
        let s = count(samples, capabilities: options.capabilities).snapshot
        guard s.steps > 0, s.activeDuration > 0 else { return nil }
        return (Double(s.steps) / s.activeDuration, truth.distanceMeters / Double(s.steps))
    }

    static func run() {
        print("== distance (simulator, seed 1): steps × stride against the true distance")
        guard let walk = calibrationPace("walk"), let run = calibrationPace("run"),
              let twoPaces = StrideModel(calibratedFrom: walk, run) else {
            print("distance: the calibration walks counted no steps")
            return
        }
        print(String(format: "calibration walks: walk %.3f steps/s, %.3f m per step; run %.3f steps/s, %.3f m per step",
                     walk.cadence, walk.stride, run.cadence, run.stride))
        let models: [(String, StrideModel?)] = [
            ("height 1.75 m", nil), ("two paces", twoPaces), ("one stride (walk)", StrideModel(intercept: walk.stride, slope: 0)),
        ]
        print("scenario      true m " + models.map { $0.0.padding(toLength: 18, withPad: " ", startingAt: 0) }.joined(separator: " "))
        var worst = [Double](repeating: 0, count: models.count)
        for name in ["stroll", "walk", "run", "day"] {
            let options = SimulationOptions()
            let (samples, truth) = Simulator.generate(Scenario.named(name)!, options: options)
            var line = name.padding(toLength: 12, withPad: " ", startingAt: 0) + String(format: "%7.1f", truth.distanceMeters)
            for (k, model) in models.enumerated() {
                var configuration = PedometerConfiguration()
                configuration.strideCalibration = model.1
                let distance = count(samples, capabilities: options.capabilities, configuration: configuration).snapshot.distanceMeters
                let error = (distance / truth.distanceMeters - 1) * 100
                worst[k] = max(worst[k], abs(error))
                line += String(format: "  %7.1f m %+6.1f%%", distance, error)
            }
            print(line)
        }
        print("worst |error|: " + zip(models, worst).map { String(format: "%@ %.1f%%", $0.0.0, $0.1) }.joined(separator: ", ")
              + "  (the seed: one stride −37% at a run, two paces within about 6%)")
    }
}
