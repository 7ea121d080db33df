import Foundation
import IMUServiceClient
import IMUSimulation
import Pedometer
import Synchronization
import OffPool
import Testing
@testable import IMUService

/// A wall clock a test can jump.
final class JumpingClock: WallClock {
    let offset = Mutex(0.0)
    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }
    func isSynchronized() -> Bool { true }
}

/// The engine thread with a memory store, fed the simulator's samples as fast as they come.
struct EngineHarness {
    let engine: StepEngine
    let faults = StoreFaults()
    let clock = JumpingClock()

    init(config: ServiceConfig = ServiceConfig()) async throws {
        var config = config
        config.commitSeconds = 0.5
        engine = StepEngine(board: StatusBoard(initial: ServiceStatus(today: StepTotals(start: Date(), end: Date())), wakeup: Wakeup()))
        let faults = self.faults
        try await engine.start(config: config, clock: clock, log: ServiceLog(environment: ["IMUKIT_LOG_STDERR": "1"]),
                               makeStore: { MemoryStepStore(faults: faults) }, onReset: {})
    }

    /// The simulator's batches for `scenario` (e.g. "walk:60").
    static func batches(_ scenario: String) async throws -> (SourceInfo, [[MotionSample]]) {
        let source = SimulatedSource(scenario: try Scenario.resolve(scenario), speed: .infinity)
        var out: [[MotionSample]] = []
        for try await batch in source.batches() { out.append(batch) }
        return (source.info, out)
    }

    /// Steps a fresh pedometer counts in these batches: what the engine must store, no more, no less.
    static func steps(in batches: some Sequence<[MotionSample]>, info: SourceInfo) -> Int {
        var p = Pedometer(capabilities: info.capabilities)
        var events: [PedometerEvent] = []
        for b in batches { for s in b { p.process(s, into: &events) } }
        p.finish(into: &events)
        return events.filter { if case .step = $0 { true } else { false } }.count
    }

    /// Plays `scenario` into the engine and waits until it has taken every batch.
    func play(_ scenario: String) async throws {
        let (info, batches) = try await Self.batches(scenario)
        engine.send(.sensor(.running(info, captureMode: "simulated")))
        for b in batches { engine.send(.samples(b)) }
        settle()
    }

    /// Waits until the engine has handled everything sent so far (messages are handled in order).
    func settle() { _ = ask(.activities(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 1))) }

    func status(waitingFor condition: (ServiceStatus) -> Bool, seconds: Double = 10) -> ServiceStatus {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let s = engine.board.current.status
            if condition(s) { return s }
            usleep(20_000)
        }
        return engine.board.current.status
    }

    func ask(_ q: EngineQuery) -> EngineAnswer {
        let answer = Mutex<EngineAnswer?>(nil)
        engine.send(.query(q, reply: { a in answer.withLock { $0 = a } }))
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let a = answer.withLock({ $0 }) { return a }
            usleep(10_000)
        }
        return .failure(name: "test", message: "no answer")
    }
}

@Suite(.offPool) struct EngineTests {
    @Test func aFullDiskKeepsCountingSaysSoAndWritesWhenSpaceReturns() async throws {
        let h = try await EngineHarness()
        h.faults.diskFull.withLock { $0 = true }
        try await h.play("walk:60")
        // A 60 s walk at 1.6–2.2 steps/s (the simulator's cadences) is counted in memory. The board
        // is published as the engine goes, so the first "full" it shows can be from before the walk's
        // end (29 steps once on a loaded machine): wait for both.
        let full = h.status { $0.storageState == "full" && $0.today.steps > 60 }
        #expect(full.storageState == "full", "\(full)")
        #expect(full.storageMessage.contains("disk"))
        #expect(full.today.steps > 60, "\(full.today)")
        h.faults.diskFull.withLock { $0 = false }
        let back = h.status { $0.storageState == "ok" }
        #expect(back.storageState == "ok")
        #expect(back.today.steps == full.today.steps, "nothing lost or doubled when the write succeeds")
        #expect(h.faults.commits.withLock { $0 } >= 1)
        #expect(h.engine.stop(waitingUpTo: 5))
    }

    @Test func wallClockJumpsNeitherLoseNorDoubleSteps() async throws {
        let h = try await EngineHarness()
        let (info, batches) = try await EngineHarness.batches("walk:90")
        let third = batches.count / 3
        h.engine.send(.sensor(.running(info, captureMode: "simulated")))
        for (i, b) in batches.enumerated() {
            if i == third { h.settle(); h.clock.offset.withLock { $0 = 3 * 3600 } }       // NTP: 3 h forward
            if i == 2 * third { h.settle(); h.clock.offset.withLock { $0 = -3 * 3600 } }  // … and 3 h back
            h.engine.send(.samples(b))
        }
        h.engine.send(.sensor(.ended))  // the pedometer finishes: its last steps are committed too
        h.settle()
        let counted = EngineHarness.steps(in: batches, info: info)
        #expect(counted > 100, "a 90 s walk")
        guard case let .totals(all) = h.ask(.totals(from: Date().addingTimeInterval(-86_400), to: Date().addingTimeInterval(86_400))) else {
            Issue.record("no totals"); return
        }
        // Every step is stored once, whichever hour the wall clock showed when it was taken.
        #expect(all.steps == counted, "stored \(all.steps), counted \(counted)")
        #expect(h.engine.stop(waitingUpTo: 5))
    }

    @Test func pausedEngineCountsNothing() async throws {
        let h = try await EngineHarness()
        let done = Mutex(false)
        h.engine.send(.control(.pause, reply: { _ in done.withLock { $0 = true } }))
        try await h.play("walk:30")
        let s = h.status { $0.paused }
        #expect(s.paused && s.today.steps == 0)
        #expect(done.withLock { $0 })
        #expect(h.engine.stop(waitingUpTo: 5))
    }
}
