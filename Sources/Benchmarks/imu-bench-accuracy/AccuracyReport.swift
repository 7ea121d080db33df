import Foundation
import Pedometer

enum AccuracyReport {
    /// Counts steps in each recording and prints name, truth, counted, error; then MAPE and worst.
    static func run(title: String, _ recordings: [LabelledRecording]) {
        print("== \(title): \(recordings.count) recordings")
        print("recording".padding(toLength: 36, withPad: " ", startingAt: 0), " truth counted  error%")
        var errors: [Double] = []
        for recording in recordings {
            var pedometer = Pedometer(capabilities: recording.capabilities)
            var events: [PedometerEvent] = []
            events.reserveCapacity(4096)
            for sample in recording.samples { pedometer.process(sample, into: &events) }
            pedometer.finish(into: &events)
            let counted = pedometer.snapshot.steps
            let error = Double(counted - recording.trueSteps) / Double(recording.trueSteps) * 100
            errors.append(abs(error))
            print(recording.name.padding(toLength: 36, withPad: " ", startingAt: 0),
                  String(format: "%6d %7d %+7.2f", recording.trueSteps, counted, error))
        }
        guard !errors.isEmpty else { return }
        let mape = errors.reduce(0, +) / Double(errors.count)
        print(String(format: "MAPE %.2f%%  worst %.2f%%  (targets: MAPE ≤ 1.5%%, worst ≤ 4%%)", mape, errors.max()!))
    }
}
