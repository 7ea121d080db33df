import IMUCore
@_spi(Tuning) import Pedometer

/// Runs `samples` through a fresh pedometer to the end: the final snapshot and every event.
/// `tuning` changes the few thresholds a leave-one-person-out search varies (`LeaveOnePersonOut`).
func count(_ samples: [MotionSample], capabilities: SensorCapabilities,
           configuration: PedometerConfiguration = .init(),
           tuning: StepTuning? = nil) -> (snapshot: PedometerSnapshot, events: [PedometerEvent]) {
    var pedometer = tuning.map { Pedometer(configuration: configuration, capabilities: capabilities, tuning: $0) }
        ?? Pedometer(configuration: configuration, capabilities: capabilities)
    var events: [PedometerEvent] = []
    events.reserveCapacity(4096)
    for sample in samples { pedometer.process(sample, into: &events) }
    pedometer.finish(into: &events)
    return (pedometer.snapshot, events)
}
