import Foundation
import Testing
@testable import IMUHistory

/// The async query API on a file a writer keeps open.
@Suite struct ReaderTests {
    let boot = mapping(boot0: "2026-06-15T08:00:00Z")

    @Test func readerSeesEachCommitOfARunningWriter() async throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let writer = try HistoryStore(path: path, bootID: "b")
        var pedometer = FakePedometer()
        let walk = ActivitySegment(start: 60, end: 120, activity: .walking, confidence: .medium)
        writer.record(pedometer.steps([61, 62], extra: [.activity(walk)]), snapshot: pedometer.snapshot, mapping: boot)
        try writer.commit()
        let reader = try HistoryReader(path: path)
        let from = date("2026-06-15T00:00:00Z"), to = date("2026-06-16T00:00:00Z")
        #expect(try await reader.totals(from: from, to: to).steps == 2)
        writer.record(pedometer.steps([63]), snapshot: pedometer.snapshot, mapping: boot)
        #expect(try await reader.totals(from: from, to: to).steps == 2, "not committed yet")
        try writer.commit()
        #expect(try await reader.totals(from: from, to: to).steps == 3)
        #expect(try await reader.days(from: from, to: to, timeZone: TimeZone(identifier: "UTC")!).map(\.steps) == [3])
        #expect(try await reader.activities(from: from, to: to).map(\.activity) == [.walking])
        let data = try await reader.pedometerData(from: from, to: to)
        #expect(data.numberOfSteps == 3 && abs((data.distance ?? 0) - 3 * FakePedometer.stride) < 0.001)
        // Many queries at once are served one after another, none lost.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await reader.totals(from: from, to: to).steps } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 3, count: 20))
    }

    @Test func readerNamesAMissingFileAndNeverCreatesIt() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("none.sqlite")
        #expect(throws: HistoryError.cannotOpen(path: path, detail: "there is no history file there")) { try HistoryReader(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// After the writer closed (its WAL checkpointed and removed), the file still reads.
    @Test func readerOpensAClosedHistory() async throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let writer = try HistoryStore(path: path, bootID: "b")
            var pedometer = FakePedometer()
            writer.record(pedometer.steps([61, 62, 63, 64]), snapshot: pedometer.snapshot, mapping: boot)
            try writer.commit()
        }
        let reader = try HistoryReader(path: path)
        #expect(try await reader.totals(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T09:00:00Z")).steps == 4)
    }
}

/// The store for async code: calls keep their order, blocking I/O stays off the cooperative pool.
@Suite struct WriterTests {
    @Test func recordsCommitsAndQueriesInOrder() async throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let boot = mapping(boot0: "2026-06-15T08:00:00Z")
        let writer = try HistoryWriter(path: path)
        let from = date("2026-06-15T00:00:00Z"), to = date("2026-06-16T00:00:00Z")
        // 40 tasks each record one step (their own pedometer-like snapshot: totals only grow).
        var pedometer = FakePedometer()
        var batches: [([PedometerEvent], PedometerSnapshot)] = []
        for i in 0..<40 { batches.append((pedometer.steps([60 + Double(i)]), pedometer.snapshot)) }
        for (events, snapshot) in batches { writer.record(events, snapshot: snapshot, mapping: boot) }
        writer.recordPause(bootSeconds: 200)
        #expect(try await writer.totals(from: from, to: to).steps == 40, "a query sees every record made before it")
        #expect(try await writer.status() == HistoryStatus(lastCommitError: nil, bufferedMinutes: 1, unplacedMinutes: 0))
        try await writer.commit()
        #expect(try await writer.status().bufferedMinutes == 0)
        let reader = try HistoryReader(path: path)
        #expect(try await reader.totals(from: from, to: to).steps == 40)
        #expect(try await reader.markers(from: from, to: to).map(\.kind) == [.countingPaused])
        #expect(try await writer.days(from: from, to: to, timeZone: TimeZone(identifier: "UTC")!).map(\.steps) == [40])
    }
}
