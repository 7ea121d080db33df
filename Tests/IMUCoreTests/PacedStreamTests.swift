import Foundation
import Synchronization
import Testing
@testable import IMUCore

/// A recording played in real time (`RecordingSource` with a finite speed) and the thread that
/// paces it (`PacedStream`).
@Suite struct PacedStreamTests {
    /// `seconds` of a 100 Hz recording (accelerometer only), starting at t = 1000 s.
    static func recording(seconds: Double, extraLines: [String] = []) throws -> String {
        var lines = ["t,ax,ay,az"]
        for i in 0..<Int(seconds * 100) { lines.append(String(format: "%.3f,0.01,0.02,1.0", 1000 + Double(i) / 100)) }
        return try temporaryRecording((lines + extraLines).joined(separator: "\n") + "\n")
    }

    @Test func pacedReplayHandsOverOneHandOverAtATimeOnTime() async throws {
        let path = try Self.recording(seconds: 3.5)
        let speed = 4.0
        let start = BootClock.nowSeconds()
        var batches: [[MotionSample]] = []
        var lateness: [Double] = []
        for try await batch in try RecordingSource(path: path, speed: speed).batches() {
            batches.append(batch)
            // Due when the wall clock has run (last − first sample time) / speed since the start.
            lateness.append(BootClock.nowSeconds() - start - (batch.last!.time - 1000) / speed)
        }
        let all = batches.flatMap { $0 }
        #expect(all.map(\.time) == (try readAll(path)).map(\.time))
        // 3.5 s in hand-overs of HandOver.seconds: full ones, then the rest.
        #expect(batches.count == Int((3.5 / HandOver.seconds).rounded(.up)))
        for b in batches.dropLast() {
            #expect(abs(b.last!.time - b.first!.time - HandOver.seconds) < 0.011)
        }
        // Never early (1 ms: poll(2) rounds up to whole milliseconds, the clocks are read apart).
        #expect(lateness.allSatisfy { $0 > -0.001 }, "lateness \(lateness)")
    }

    @Test func aBadLineEndsTheStreamAfterTheSamplesBeforeIt() async throws {
        let path = try Self.recording(seconds: 1.5, extraLines: ["1001.6,x,0,1"])
        var received = 0
        do {
            for try await batch in try RecordingSource(path: path, speed: 100).batches() { received += batch.count }
            Issue.record("the malformed line was not reported")
        } catch let error as RecordingError {
            #expect(error.description.contains(path))
        }
        #expect(received == 150)
    }

    @Test func cancellingWakesTheThreadFromItsSleep() async throws {
        // The first batch at once, the second due in 1000 s: the thread sleeps; cancelling the
        // consumer must end it at once. Judged on the thread (it drops `next`, whose capture says
        // so), not on when the test's tasks run: parallel tests can starve Swift's pool.
        let calls = Atomic<Int>(0)
        let gone = Flag()
        let startNs = BootClock.nowNanoseconds()
        let stream = PacedStream.make(source: "test") { [probe = DeinitProbe { gone.set() }] in
            withExtendedLifetime(probe) {}
            let n = calls.add(1, ordering: .relaxed).newValue
            return ([MotionSample(time: Double(n))], n == 1 ? nil : startNs + 1_000_000_000_000)
        }
        let task = Task { for try await _ in stream {} }
        let deadline = BootClock.nowSeconds() + 120
        while calls.load(ordering: .relaxed) < 2, BootClock.nowSeconds() < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(calls.load(ordering: .relaxed) == 2, "the thread never reached its sleep")
        task.cancel()
        try await task.value
        let stopDeadline = BootClock.nowSeconds() + 10
        while !gone.isSet, BootClock.nowSeconds() < stopDeadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(gone.isSet, "the thread slept on through the cancel")
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func aConsumerThatDoesNotReadHoldsTheThreadBack() async throws {
        let made = Atomic<Int>(0)
        do {
            let stream = PacedStream.make(source: "test") {
                made.add(1, ordering: .relaxed)
                return ([MotionSample(time: 1)], nil)
            }
            try await Task.sleep(for: .milliseconds(300))
            // Batches waiting plus the one the thread holds while it waits for room.
            #expect(made.load(ordering: .relaxed) <= PacedStream.ahead + 1)
            var it = stream.makeAsyncIterator()
            #expect(try await it.next()?.count == 1)
        }
        // The stream is gone: the thread stops (it makes at most the batch it held).
        try await Task.sleep(for: .milliseconds(200))
        let afterDrop = made.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(300))
        #expect(made.load(ordering: .relaxed) == afterDrop)
    }

    /// A batch is due (last − first sample time) / speed after the first batch was made; a gap
    /// of centuries is capped at 10⁹ s instead of overflowing.
    @Test func thePaceClockCountsFromTheFirstBatch() {
        var pace = PaceClock(speed: 2)
        let before = BootClock.nowNanoseconds()
        let first = pace.dueNs(first: 1000, last: 1000.5)
        let after = BootClock.nowNanoseconds()
        // The first batch: 0.5 s of samples at 2× is due 0.25 s after the clock started.
        #expect(first >= before + 250_000_000 && first <= after + 250_000_000)
        let start = first - 250_000_000
        #expect(pace.dueNs(first: 1000.5, last: 1001) == start + 500_000_000)
        #expect(pace.dueNs(first: 1001, last: 1e300) == start + 1_000_000_000 * 1_000_000_000)
    }
}

/// A flag another thread sets.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

/// Calls `onDeinit` when the last reference to it goes: the pacing thread has dropped its producer.
private final class DeinitProbe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
