import IMUCore
import Pedometer

/// Runs `samples` through a fresh pedometer to the end: the final snapshot and every event.
func count(_ samples: [MotionSample], capabilities: SensorCapabilities,
           configuration: PedometerConfiguration = .init()) -> (snapshot: PedometerSnapshot, events: [PedometerEvent]) {
    var pedometer = Pedometer(configuration: configuration, capabilities: capabilities)
    var events: [PedometerEvent] = []
    events.reserveCapacity(4096)
    for sample in samples { pedometer.process(sample, into: &events) }
    pedometer.finish(into: &events)
    return (pedometer.snapshot, events)
}
