import Foundation
import Testing
import IMUSimulation
@testable import Pedometer

@Suite struct StepTests {
    @Test(arguments: [25.0, 100.0, 400.0])
    func walkCountsAtAnyRate(rate: Double) {
        let sim = simulate("walk") { $0.sampleRateHz = rate }
        let (_, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(relativeError(snapshot.steps, sim.truth.steps) <= 0.01, "\(snapshot.steps) vs \(sim.truth.steps) at \(rate) Hz")
    }

    /// Every step event carries the time of a true step (within a quarter step), although it is
    /// only committed seconds later.
    @Test(arguments: [25.0, 400.0])
    func stepEventsCarryTheStepsOwnTime(rate: Double) {
        let sim = simulate("walk") { $0.sampleRateHz = rate }
        var pedometer = Pedometer(capabilities: sim.options.capabilities)
        var events: [PedometerEvent] = []
        var maximumDelay = 0.0
        for sample in sim.samples {
            let before = events.count
            pedometer.process(sample, into: &events)
            for case .step(let t) in events[before...] {
                #expect(t <= sample.time)
                maximumDelay = max(maximumDelay, sample.time - t)
            }
        }
        pedometer.finish(into: &events)
        #expect(maximumDelay > 1, "steps are committed late, after the rhythm check")
        let truth = sim.truth.stepTimes
        let period = 1 / 1.8
        var matched = 0
        for t in stepTimes(events) {
            let nearest = truth.min { abs($0 - t) < abs($1 - t) } ?? .infinity
            if abs(nearest - t) < period / 4 { matched += 1 }
        }
        #expect(Double(matched) >= 0.95 * Double(stepTimes(events).count), "\(matched) of \(stepTimes(events).count) near a true step")
        // Events are in time order.
        let times = stepTimes(events)
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 > $1 })
    }

    /// A step event is stamped at the foot strike, not at a filter-delayed peak. The counter
    /// reads the gait signal through zero-phase stages only (the resampler's box average is
    /// centred on its tick; the strike is the highest tick within a quarter step), so its
    /// events lag the simulator's foot contacts by the heel-strike spike's own lag behind
    /// contact (0.3 rad of step phase: 0.027 s at 1.8 steps/s, `GroundTruth.stepTimes`) and by
    /// at most one internal tick (0.02 s) either way. A causal filter of the 3 to 5 Hz kind a
    /// step detector would use delays by 0.05 to 0.1 s and would fall outside.
    @Test(arguments: [25.0, 100.0, 400.0])
    func stepEventsAreNotDelayedByFiltering(rate: Double) {
        let sim = simulate("walk") { $0.sampleRateHz = rate }
        let (events, _) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        let truth = sim.truth.stepTimes
        let period = 1 / 1.8
        var offsets: [Double] = []
        for t in stepTimes(events) {
            guard let nearest = truth.min(by: { abs($0 - t) < abs($1 - t) }), abs(nearest - t) < period / 2 else { continue }
            offsets.append(t - nearest)
        }
        #expect(offsets.count >= 200, "\(offsets.count) matched steps")
        let median = offsets.sorted()[offsets.count / 2]
        let spikeLag = 0.3 / (2 * Double.pi) * period
        let tick = 0.02
        #expect(abs(median - spikeLag) <= tick, "median step time − foot contact \(median) s at \(rate) Hz; the spike lags contact by \(spikeLag) s")
    }

    @Test func syntheticDayWithinOnePercent() {
        let sim = simulate("day")
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(relativeError(snapshot.steps, sim.truth.steps) <= 0.01, "\(snapshot.steps) vs \(sim.truth.steps)")
        #expect(stepTimes(events).count == snapshot.steps)
        // No steps while on the bus or waving.
        for segment in sim.truth.segments where segment.activity == "vehicle" || segment.activity == "unknown" {
            let inside = stepTimes(events).filter { $0 > segment.start + 1 && $0 < segment.end - 1 }
            #expect(inside.isEmpty, "\(inside.count) steps during \(segment.activity)")
        }
    }

    @Test func accelerometerOnlySourceCounts() {
        let sim = simulate("day") { $0.includeGyroscope = false; $0.barometerRateHz = nil }
        #expect(!sim.options.capabilities.gyroscope)
        let (_, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(relativeError(snapshot.steps, sim.truth.steps) <= 0.01, "\(snapshot.steps) vs \(sim.truth.steps)")
        let caps = Pedometer.capabilities(for: sim.options.capabilities)
        #expect(caps.isStepCountingAvailable && caps.isCadenceAvailable && !caps.isFloorCountingAvailable)
    }

    /// A 3 s hole in the timestamps in the middle of a walk: the steps inside it are lost (there
    /// is no data), none are invented, and counting resumes after it.
    @Test func gapInTimestampsNeitherInventsNorLosesSteps() {
        let sim = simulate("walk") { $0.gaps = [60...63] }
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        let gapStart = 1000 + 60.0, gapEnd = 1000 + 63.0
        #expect(!stepTimes(events).contains { $0 > gapStart + 0.3 && $0 < gapEnd - 0.3 })
        let truthOutside = sim.truth.stepTimes.filter { $0 < gapStart || $0 > gapEnd }.count
        #expect(relativeError(snapshot.steps, truthOutside) <= 0.03, "\(snapshot.steps) vs \(truthOutside) outside the gap")
        #expect(stepTimes(events).contains { $0 > gapEnd + 5 })
    }

    @Test func pauseAndResumeBracketTheWalks() {
        let sim = simulate("day")
        let (events, _) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        let marks = events.compactMap { event -> (Bool, Double)? in
            switch event {
            case .resume(let t): (true, t)
            case .pause(let t): (false, t)
            default: nil
            }
        }
        #expect(marks.count >= 4)
        // They alternate, starting with a resume.
        for (i, mark) in marks.enumerated() { #expect(mark.0 == (i % 2 == 0)) }
    }

    /// Seven walks of 2.5 to 8 s between 4 s stops, in hand and in pockets: the seed's rhythm gate
    /// loses about a quarter of such steps; back-filled bouts keep them.
    @Test func shortWalksCount() {
        var segments: [Segment] = [Segment(.still, seconds: 5, holding: .faceUp)]
        for (i, seconds) in [3.0, 5, 2.5, 8, 4, 3.5, 6].enumerated() {
            let holding: DeviceHolding = [.inHand, .frontPocket, .backPocket][i % 3]
            segments.append(Segment(.walk, seconds: seconds, holding: holding))
            segments.append(Segment(.still, seconds: 4, holding: holding))
        }
        var truthTotal = 0, countedTotal = 0
        for seed in UInt64(1)...3 {
            let (events, snapshot, truth) = simulateAndCount(segments, seed: seed)
            truthTotal += truth.steps
            countedTotal += snapshot.steps
            // Every walk of 3 s or more is heard (a 2 s walk of four steps that ramp up from rest
            // and back down is not always regular enough to tell from handling the phone).
            for walk in truth.segments where walk.activity == "walking" && walk.end - walk.start >= 3 {
                #expect(stepTimes(events).contains { $0 >= walk.start - 0.5 && $0 <= walk.end + 0.5 },
                        "seed \(seed): no step in the walk at \(walk.start)")
            }
        }
        #expect(relativeError(countedTotal, truthTotal) <= 0.05, "\(countedTotal) vs \(truthTotal)")
    }

    /// Walking off straight after waving the phone: the first window that holds both is still
    /// at the waving's rhythm, and must not start the walk early at that rhythm (it back-filled a
    /// step into the waving before). No step may land in the waving, and the walk counts to
    /// within one step, for five seeds; also when the walk keeps the waving's own rhythm (2 Hz),
    /// where the walk is only confirmed once its windows no longer hold the waving.
    @Test(arguments: [1.6, 2.0])
    func walkAfterWavingStartsWithTheWalk(cadence: Double) {
        let segments = [Segment(.still, seconds: 5, holding: .faceUp), Segment(.wave, seconds: 15, holding: .inHand),
                        Segment(.walk, seconds: 30, cadence: cadence, amplitude: 0.18, holding: .frontPocket)]
        for seed in UInt64(1)...5 {
            let (events, snapshot, truth) = simulateAndCount(segments, seed: seed)
            // The waving's rhythm started the walk 0.38 s before the walk itself in seeds 3 to 5.
            let walkStart = truth.segments.first { $0.activity == "walking" }?.start ?? 0
            let early = stepTimes(events).filter { $0 < walkStart - 0.25 }
            #expect(early.isEmpty, "seed \(seed): steps \(early) before the walk starts at \(walkStart)")
            #expect(abs(snapshot.steps - truth.steps) <= 1, "seed \(seed): \(snapshot.steps) vs \(truth.steps)")
        }
    }

    /// Waving the phone straight after a walk: inside a walk the gate skips its harmonic and
    /// vibration tests (a soft or 25 Hz walk fails them mid-walk), so the waving must end the
    /// walk by its pure-sine shape, at once and without crediting the tail. The newest 2 s of each
    /// window are checked too, so the walk ends before the whole window reads as waving: the last
    /// step lands at most about a second after the walk (before: 2.5 s, +5 steps; before that the
    /// turn grace and the tail added 4 to 5 s, +8 to +10).
    @Test(arguments: [100.0, 25.0])
    func wavingAfterAWalkEndsIt(rate: Double) {
        let segments = [Segment(.still, seconds: 5, holding: .faceUp),
                        Segment(.walk, seconds: 30, cadence: 1.9, holding: .inHand),
                        Segment(.wave, seconds: 15, holding: .inHand), Segment(.still, seconds: 5, holding: .faceUp)]
        for seed in UInt64(1)...5 {
            let (events, snapshot, truth) = simulateAndCount(segments, seed: seed, rate: rate)
            let walkEnd = truth.segments.first { $0.activity == "walking" }?.end ?? 0
            let late = stepTimes(events).filter { $0 > walkEnd + 1.5 }
            #expect(late.isEmpty, "seed \(seed) at \(rate) Hz: steps \(late) well after the walk ended at \(walkEnd)")
            #expect((-1...3).contains(snapshot.steps - truth.steps), "seed \(seed) at \(rate) Hz: \(snapshot.steps) vs \(truth.steps)")
        }
    }

    /// The waving memory: same rhythm within a window's length is still the waving; another
    /// rhythm, or the same one a window later, is not.
    @Test func wavingMemoryHoldsOneWindowAtOneRhythm() {
        var memory = WavingMemory()
        #expect(!memory.isWaving(cadence: 2.0, end: 100, window: 200))
        memory.noteSine(cadence: 2.0, end: 100)
        #expect(memory.isWaving(cadence: 2.06, end: 250, window: 200))
        #expect(!memory.isWaving(cadence: 1.6, end: 250, window: 200))
        #expect(!memory.isWaving(cadence: 2.0, end: 300, window: 200))
        memory.reset()
        #expect(!memory.isWaving(cadence: 2.0, end: 150, window: 200))
    }

    /// Bad samples (time going backwards, NaN readings) are dropped and counted, never poison
    /// the filters.
    @Test func badSamplesAreDroppedNotFatal() {
        let sim = simulate("walk")
        var samples = sim.samples
        samples.insert(MotionSample(time: samples[1000].time - 0.5, acceleration: Vector3(0, 0, 1)), at: 1001)
        samples[2000].acceleration = Vector3(.nan, 0, 1)
        samples[3000].rotationRate = Vector3(0, .infinity, 0)
        var pedometer = Pedometer(capabilities: sim.options.capabilities)
        var events: [PedometerEvent] = []
        for sample in samples { pedometer.process(sample, into: &events) }
        pedometer.finish(into: &events)
        #expect(pedometer.droppedSamples == 3)
        #expect(relativeError(pedometer.snapshot.steps, sim.truth.steps) <= 0.01)
        #expect(pedometer.snapshot.distanceMeters.isFinite)
    }

    @Test func stillnessCountsNothing() {
        let sim = simulate("still")
        let (events, snapshot) = runPedometer(sim.samples, capabilities: sim.options.capabilities)
        #expect(snapshot.steps == 0 && stepTimes(events).isEmpty)
        #expect(snapshot.activity == .stationary)
        #expect(snapshot.currentCadence == nil)
    }

    @Test func liveCadenceWhileWalking() throws {
        let sim = simulate("walk")
        var pedometer = Pedometer(capabilities: sim.options.capabilities)
        var events: [PedometerEvent] = []
        for sample in sim.samples where sample.time < 1060 { pedometer.process(sample, into: &events) }
        let cadence = try #require(pedometer.snapshot.currentCadence)
        #expect(abs(cadence - 1.8) < 0.1)
        #expect(pedometer.snapshot.activity == .walking)
        #expect(pedometer.snapshot.currentPace != nil)
    }

    /// Memory is constant in the recording length: the core's inline state does not grow. Its
    /// bound: a page (4096 bytes) of scalars and buffer references, plus the one buffer held
    /// inline on purpose, `PedallingAnalyser`'s hop of 100 ticks × SIMD4<Double> (3200 bytes,
    /// docs/replay-speed.md, session 23).
    @Test func stateSizeDoesNotDependOnTheStream() {
        let inlineHop = 100 * MemoryLayout<SIMD4<Double>>.stride
        #expect(MemoryLayout<Pedometer>.size < 4096 + inlineHop)
    }
}
