import Foundation
@_spi(Diagnostics) import Pedometer

/// `--trace NAME`: prints every analysis window of one recording, for tuning.
enum Trace {
    static func run(_ recording: LabelledRecording) {
        print("== trace \(recording.name): truth \(recording.trueSteps)")
        var pedometer = Pedometer(capabilities: recording.capabilities)
        var events: [PedometerEvent] = []
        var seen = 0
        for sample in recording.samples {
            pedometer.process(sample, into: &events)
            if pedometer.windowCount != seen {
                seen = pedometer.windowCount
                print(pedometer.lastWindow)
            }
        }
        pedometer.finish(into: &events)
        print("counted \(pedometer.snapshot.steps)")
    }
}
