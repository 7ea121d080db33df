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
        // A gap of 1000 s after the first second: the thread sleeps; cancelling must end it at once.
        let path = try Self.recording(seconds: 1.2, extraLines: ["2200.0,0,0,1", "2201.5,0,0,1"])
        let received = Atomic<Int>(0)
        let task = Task {
            for try await batch in try RecordingSource(path: path, speed: 1).batches() {
                received.add(batch.count, ordering: .relaxed)
            }
        }
        // The first hand-over (1 s of samples), then the thread sleeps for the gap.
        let waitStart = BootClock.nowSeconds()
        while received.load(ordering: .relaxed) == 0, BootClock.nowSeconds() - waitStart < 60 {
            try await Task.sleep(for: .milliseconds(20))
        }
        let cancelled = BootClock.nowSeconds()
        task.cancel()
        try await task.value
        #expect(BootClock.nowSeconds() - cancelled < 10, "the thread slept on through the cancel")
        // Exactly the first hand-over (t 1000.00 to 1001.00), none of the samples after the gap.
        #expect(received.load(ordering: .relaxed) == Int(100 * HandOver.seconds) + 1)
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
}
