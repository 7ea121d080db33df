import Testing
import IMUCore
@testable import Pedometer

@Suite struct BatchInputTests {
    /// `process(contentsOf:)` reads each sample in place; it must give exactly what feeding the
    /// samples one by one gives: the same events in the same order and the same totals.
    @Test func batchesMatchSampleBySample() {
        let sim = simulate("day")
        var single = Pedometer(capabilities: sim.options.capabilities)
        var singleEvents: [PedometerEvent] = []
        for sample in sim.samples { single.process(sample, into: &singleEvents) }
        single.finish(into: &singleEvents)

        var batched = Pedometer(capabilities: sim.options.capabilities)
        var batchedEvents: [PedometerEvent] = []
        var start = 0
        while start < sim.samples.count {   // uneven batches, as a reader hands them over
            let end = min(sim.samples.count, start + 1000 + start % 37)
            batched.process(contentsOf: Array(sim.samples[start..<end]), into: &batchedEvents)
            start = end
        }
        batched.process(contentsOf: [], into: &batchedEvents)
        batched.finish(into: &batchedEvents)

        #expect(single.snapshot.steps > 0, "the day scenario walks")
        #expect(batchedEvents == singleEvents)
        #expect(batched.snapshot == single.snapshot)
    }
}
