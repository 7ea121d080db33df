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

/// The batch path holds the resampler's ticks and hands them to the stages a stretch at a time
/// (`TickBatch`, session 25): at 25 Hz (two ticks a sample), across gaps that are bridged and
/// gaps that start a segment, a clock that steps back, a repeated sample, and recorded ground speeds between the
/// samples, it must still give exactly what feeding the samples one by one gives.
@Suite struct TickBatchInputTests {
    @Test func batchesMatchSampleBySampleAcrossGapsAndSpeeds() {
        let sim = simulate("day") { $0.sampleRateHz = 25 }
        var samples: [MotionSample] = []
        var shift = 0.0
        for (i, var sample) in sim.samples.enumerated() {
            let t = sample.time
            // A bridged gap (0.3 s), a segment's gap (2 s), and a clock stepped back by 5 s.
            if t > 600 && t < 600.3 || t > 1200 && t < 1202 { continue }
            if i == sim.samples.count / 2 { shift = -5 }
            sample.time = t + shift
            // A recorded ground speed on every 20th sample, changing every 100th (new readings).
            if i % 20 == 0 { sample.gnssSpeed = Double(i / 100 % 7) }
            samples.append(sample)
            // A repeated sample (its time does not increase): dropped, on both paths.
            if i == sim.samples.count / 3 { samples.append(sample) }
        }
        var single = Pedometer(capabilities: sim.options.capabilities)
        var singleEvents: [PedometerEvent] = []
        for sample in samples { single.process(sample, into: &singleEvents) }
        single.finish(into: &singleEvents)

        var batched = Pedometer(capabilities: sim.options.capabilities)
        var batchedEvents: [PedometerEvent] = []
        var start = 0
        while start < samples.count {   // uneven batches, up to several hops of ticks each
            let end = min(samples.count, start + 1 + start % 301)
            batched.process(contentsOf: Array(samples[start..<end]), into: &batchedEvents)
            start = end
        }
        batched.finish(into: &batchedEvents)

        #expect(single.snapshot.steps > 0, "the day scenario walks")
        #expect(single.droppedSamples > 0, "the repeated sample is dropped")
        #expect(batchedEvents == singleEvents)
        #expect(batched.snapshot == single.snapshot)
        #expect(batched.droppedSamples == single.droppedSamples)
    }
}
