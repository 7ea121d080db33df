import Foundation
@_spi(Diagnostics) import Pedometer

/// One pass of a pedometer over samples with optional ground-speed readings merged in time order
/// (`Pedometer.process(contentsOf:speeds:into:)`, as the tools do):
/// the final snapshot and the activity of every second (label of the segment in progress).
struct ActivityRun {
    var steps = 0
    /// Activity per whole second from the first sample, as the pedometer reported it then (live).
    var perSecond: [ActivityClass] = []
    /// Activity per whole second from the first sample in the finished segments (the history, as
    /// Core Motion's `queryActivityStarting` returns it: a segment starts where its activity began,
    /// not where the hysteresis confirmed it).
    var history: [ActivityClass] = []
    var finalSegments: [ActivitySegment] = []
    /// Time of every step counted.
    var stepTimes: [Double] = []

    /// Share of the time GPS reports were requested (with `onDemand`).
    var dutyCycle = 1.0

    /// With `onDemand`, readings reach the pedometer only while `GPSDemand` asks for them.
    init(samples: [MotionSample], capabilities: SensorCapabilities, speeds: [GroundSpeed], onDemand: Bool = false) {
        var demand = GPSDemand()
        var wanted = true
        var pedometer = Pedometer(capabilities: capabilities)
        var events: [PedometerEvent] = []
        var next = 0
        guard let first = samples.first?.time else { return }
        var second = 0
        let trace = ProcessInfo.processInfo.environment["IMU_TRACE"] != nil
        var windows = 0
        // Batches of a second of samples, as the tools hand them over (`HandOver`), each ending
        // with the first sample of the next whole second, when the activity of the second is read.
        var start = 0
        while start < samples.count {
            var end = start
            while end < samples.count - 1, samples[end].time - first < Double(second + 1) { end += 1 }
            let batch = Array(samples[start...end])
            let last = samples[end].time
            var readings: [GroundSpeed] = []
            while next < speeds.count, speeds[next].time <= last {
                if wanted { readings.append(speeds[next]) }
                next += 1
            }
            let before = events.count
            pedometer.process(contentsOf: batch, speeds: readings, into: &events)
            if trace, pedometer.windowCount != windows {
                windows = pedometer.windowCount
                let stepsNow = events[before...].filter { if case .step = $0 { return true } else { return false } }.count
                print(pedometer.lastWindow.description, pedometer.snapshot.activity.rawValue, pedometer.lastPedalling, stepsNow > 0 ? "+\(stepsNow)" : "")
            }
            while last - first >= Double(second + 1) {
                let snapshot = pedometer.snapshot
                perSecond.append(snapshot.activity)
                second += 1
                if onDemand { wanted = demand.update(time: last, activity: snapshot.activity, confidence: snapshot.confidence) }
            }
            start = end + 1
        }
        pedometer.finish(into: &events)
        if onDemand { dutyCycle = demand.dutyCycle }
        steps = pedometer.snapshot.steps
        for event in events {
            switch event {
            case .activity(let segment): finalSegments.append(segment)
            case .step(let time): stepTimes.append(time)
            default: break
            }
        }
        var k = 0
        for i in 0..<perSecond.count {
            let middle = first + Double(i) + 0.5
            while k + 1 < finalSegments.count, finalSegments[k].end <= middle { k += 1 }
            history.append(finalSegments.isEmpty ? .unknown : finalSegments[k].activity)
        }
    }

    /// Seconds spent in each class.
    func share(of activity: ActivityClass) -> Double {
        perSecond.isEmpty ? 0 : Double(perSecond.filter { $0 == activity }.count) / Double(perSecond.count)
    }
}
