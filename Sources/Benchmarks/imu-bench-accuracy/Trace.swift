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
                print(pedometer.lastWindow, "|", pedometer.lastPedalling)
            }
        }
        pedometer.finish(into: &events)
        print("counted \(pedometer.snapshot.steps)")
        // The bouts' edges, seconds from the first sample: where steps are won or lost.
        let origin = recording.samples.first?.time ?? 0
        var steps: [Double] = []
        for event in events {
            switch event {
            case .step(let t): steps.append(t - origin)
            case .activity(let a): print(String(format: "activity %@ %.1f-%.1f s", a.activity.rawValue, a.start - origin, a.end - origin))
            case .resume(let t): print(String(format: "resume at %.2f s", t - origin))
            case .pause(let t):
                print(String(format: "pause at %.2f s; first steps %@ … last %@", t - origin,
                             listed(steps.prefix(4)), listed(steps.suffix(4))))
                printSteps(steps)
                steps.removeAll()
            default: break
            }
        }
        printSteps(steps)
    }

    /// Every step time of one bout, s from the first sample: where a walk's steps fall against
    /// the recording's own strikes (docs/accuracy.md, session 23).
    private static func printSteps(_ steps: [Double]) {
        guard !steps.isEmpty else { return }
        print("steps " + listed(steps))
    }

    /// Times in s, two decimals, space-separated.
    private static func listed(_ times: some Sequence<Double>) -> String {
        times.map { String(format: "%.2f", $0) }.joined(separator: " ")
    }
}
