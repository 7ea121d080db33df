import Synchronization
import Testing
@testable import OffPool

/// `.timeLimitAfterGate` counts a test's time from when `OffPoolGate` admits it: Swift Testing's
/// `.timeLimit` counted the wait for a slot too (365 s in a full parallel run), and tests failed on
/// their limit alone. The limit still fires for a test that runs past it once admitted.
///
/// The suite runs off the pool itself (`.offPool`): on the cooperative pool, which a full
/// `swift test --parallel` starves, the sleeps these tests time woke up to 80 s late, and the
/// test body and the limit raced on which was given a thread first (session 26).
@Suite(.offPool) struct OffPoolTimeLimitTests {
    /// A one-slot gate held for 12 s, then a test that returns at once under a 10 s limit: 12 s
    /// from its arrival, nothing from its admission. No issue. Counted from its arrival, the limit
    /// would fire while the test still waits at the gate. The margins are wide on purpose: in a
    /// full parallel run under ASan a 0.1 s sleep against a 1 s limit overran (CI, session 26).
    @Test func theWaitAtTheGateIsNotCounted() async throws {
        let gate = OffPoolGate(width: 1)
        await gate.enter()
        let overran = Box<Bool>(false)
        async let admitted: Void = OffPool.run(at: gate, within: .seconds(10), {}, exceeded: { _ in overran.set(true) })
        try await Task.sleep(for: .seconds(12))
        gate.leave()
        try await admitted
        #expect(!overran.value, "the 12 s at the gate were counted against the 10 s limit")
    }

    /// A test that runs 1 s past admission under a 0.2 s limit is reported, and awaited to its end.
    @Test func aTestThatRunsPastItsLimitIsReported() async throws {
        let gate = OffPoolGate(width: 1)
        let overran = Box<Duration?>(nil)
        let ended = Box<Bool>(false)
        try await OffPool.run(at: gate, within: .milliseconds(200), {
            // Not cancellable, as a test blocked in a tool's run is not.
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .seconds(1) { try? await Task.sleep(for: .milliseconds(50)) }
            ended.set(true)
        }, exceeded: { limit in overran.set(limit) })
        #expect(overran.value == .milliseconds(200))
        #expect(ended.value, "the test was left running")
    }

    /// A value the test's closures set from other threads.
    final class Box<Value: Sendable>: Sendable {
        private let state: Mutex<Value>
        init(_ value: Value) { state = Mutex(value) }
        func set(_ value: Value) { state.withLock { $0 = value } }
        var value: Value { state.withLock { $0 } }
    }
}
