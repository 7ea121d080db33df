import Synchronization

/// The simulator as a `SampleSource`: plays a scenario in (scaled) real time, as if from a sensor.
///
/// Batches hold `HandOver.seconds` of simulated samples, as every live source hands them over,
/// and are released when the wall clock reaches their last sample's time divided by `speed`, by
/// a thread of its own that sleeps until then (`PacedStream`). `speed` = `.infinity` or 0 plays
/// as fast as the consumer reads. Timestamps keep the simulator's own timeline; with `loop`, each repetition
/// continues the timeline and uses the next seed. Cancelling the consuming task stops it.
public struct SimulatedSource: SampleSource {
    public let scenario: Scenario
    public let options: SimulationOptions
    /// Playback speed relative to real time (2 = twice as fast); infinity or 0 = unpaced.
    public let speed: Double
    public let loop: Bool
    /// Simulated seconds after which the stream fails with `SimulatedSensorLost` (nil = never), to
    /// exercise a tool's handling of a sensor that disappears mid-run (exit status 1).
    public let failAfter: Double?
    public let info: SourceInfo
    public var timing: SampleTiming? { .simulated }

    public init(scenario: Scenario, options: SimulationOptions = .init(), speed: Double = 1, loop: Bool = false,
                failAfter: Double? = nil) {
        self.failAfter = failAfter
        self.scenario = scenario
        self.options = options
        self.speed = speed
        self.loop = loop
        info = SourceInfo(name: "simulated \(scenario.name)", calibrationKey: "sim:\(scenario.name)",
                          capabilities: options.capabilities, nominalRateHz: options.sampleRateHz, isSimulated: true)
    }

    /// True when playback is not tied to the wall clock.
    public var isUnpaced: Bool { !(speed.isFinite && speed > 0) }

    public func batches() -> AsyncThrowingStream<[MotionSample], any Error> {
        // Options a user typed (a --rate flag, say) may be out of range: fail the stream, never crash.
        do { try options.validate() } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        let player = Player(source: self)
        guard isUnpaced else { return PacedStream.make(source: info.name) { try player.nextBatch() } }
        return AsyncThrowingStream(unfolding: {
            guard !Task.isCancelled, let next = try player.nextBatch() else { return nil }
            return next.batch
        })
    }

    /// The playback state, shared by the stream's producer closure.
    private final class Player: Sendable {
        private struct State: Sendable {
            var simulator: Simulator
            var repetition: UInt64 = 0
            var pace: PaceClock
        }
        private let state: Mutex<State>
        private let source: SimulatedSource

        init(source: SimulatedSource) {
            self.source = source
            state = Mutex(State(simulator: Simulator(scenario: source.scenario, options: source.options), pace: PaceClock(speed: source.speed)))
        }

        /// The next batch and when it is due, boot-clock ns (nil = now); nil at the end.
        func nextBatch() throws -> (batch: [MotionSample], dueNs: Int64?)? {
            try state.withLock { s in
                let count = HandOver.samples(atHz: source.options.sampleRateHz)
                var batch: [MotionSample] = []
                batch.reserveCapacity(count)
                while batch.count < count {
                    if s.simulator.next(into: &batch, maximum: count - batch.count) > 0 { continue }
                    guard source.loop, s.simulator.duration > 0 else { break }
                    // Next repetition: continue the timeline, vary the random numbers.
                    s.repetition += 1
                    var options = source.options
                    options.startTime += s.simulator.duration * Double(s.repetition)
                    options.seed &+= s.repetition
                    s.simulator = Simulator(scenario: source.scenario, options: options)
                }
                guard let last = batch.last else { return nil }
                if let failAfter = source.failAfter, last.time - source.options.startTime >= failAfter {
                    throw SimulatedSensorLost(name: source.info.name, seconds: failAfter)
                }
                guard !source.isUnpaced else { return (batch, nil) }
                return (batch, s.pace.dueNs(first: batch[0].time, last: last.time))
            }
        }
    }
}

/// The simulated sensor vanished (requested with `failAfter` / `fail=` in a `sim:` spec).
public struct SimulatedSensorLost: DiagnosableError, Equatable {
    /// The source's name ("simulated walk").
    public var name: String
    /// Simulated seconds after which it was lost.
    public var seconds: Double
    public var description: String { "\(name): sensor lost after \(seconds) s (simulated failure)" }
    public var exitStatus: ExitStatus { .runtimeFailure }
    public var fix: String? { "this failure was requested with fail= in the sim: source; remove it" }
}
