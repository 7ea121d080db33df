import CSQLite
import Foundation
import IMUSimulation
import Testing
@testable import IMUHistory

@Suite struct StoreTests {
    let boot = mapping(boot0: "2026-06-15T08:00:00Z")

    @Test func committedMinutesSurviveReopening() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("history.sqlite")
        var pedometer = FakePedometer()
        do {
            let store = try HistoryStore(path: path, bootID: "boot-a")
            // 3 steps in minute 08:01, 2 in 08:02 (boot 60…179 s), one floor up in 08:02.
            store.record(pedometer.steps([61, 62, 63, 121, 122], up: [150]), snapshot: pedometer.snapshot, mapping: boot)
            try store.commit()
        }
        let store = try HistoryStore(path: path, bootID: "boot-a")
        let all = try store.totals(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T09:00:00Z"))
        #expect(all.steps == 5)
        #expect(abs(all.distanceMeters - 5 * FakePedometer.stride) < 0.001)
        #expect(abs(all.activeSeconds - 5 * FakePedometer.activePerStep) < 0.001)
        #expect(all.floorsAscended == 1 && all.floorsDescended == 0)
        let second = try store.totals(from: date("2026-06-15T08:02:00Z"), to: date("2026-06-15T08:03:00Z"))
        #expect(second.steps == 2 && second.floorsAscended == 1)
        // A minute counts when it starts within [from, to): 08:01:30 … 08:02:00 holds none.
        #expect(try store.totals(from: date("2026-06-15T08:01:30Z"), to: date("2026-06-15T08:02:00Z")).steps == 0)
    }

    @Test func queriesIncludeWhatIsNotCommittedYet() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var pedometer = FakePedometer()
        store.record(pedometer.steps([10, 11, 12]), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        store.record(pedometer.steps([13, 14]), snapshot: pedometer.snapshot, mapping: boot)
        #expect(store.bufferedMinuteCount == 1)
        #expect(try store.totals(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T08:01:00Z")).steps == 5)
    }

    /// A restarted daemon (new store, new pedometer counting from zero) continues today's totals.
    @Test func restartContinuesTodaysTotals() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let today = LocalDay.interval(containing: date("2026-06-15T12:00:00Z"), in: TimeZone(identifier: "Europe/Berlin")!)
        do {
            var first = FakePedometer()
            let store = try HistoryStore(path: path, bootID: "b")
            store.record(first.steps(Array(stride(from: 100.0, to: 160, by: 0.5))), snapshot: first.snapshot, mapping: boot)
            try store.commit()
        }
        var second = FakePedometer()
        let store = try HistoryStore(path: path, bootID: "b")
        #expect(try store.totals(from: today.start, to: today.end).steps == 120)
        store.record(second.steps([500, 501, 502]), snapshot: second.snapshot, mapping: boot)
        try store.commit()
        let total = try store.totals(from: today.start, to: today.end)
        #expect(total.steps == 123)
        #expect(try store.today(until: date("2026-06-15T21:59:00Z"), in: TimeZone(identifier: "Europe/Berlin")!).steps == 123)
        #expect(try store.today(until: date("2026-06-15T22:00:00Z"), in: TimeZone(identifier: "Europe/Berlin")!).steps == 0,
                "a new local day (midnight in Berlin) starts from zero")
        #expect(abs(total.distanceMeters - 123 * FakePedometer.stride) < 0.01)
    }

    /// A pedometer restarted within one process (its totals drop) is measured from zero again.
    @Test func aNewPedometerInTheSameStoreKeepsDistance() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var first = FakePedometer(), second = FakePedometer()
        store.record(first.steps([1, 2, 3, 4]), snapshot: first.snapshot, mapping: boot)
        store.record(second.steps([10, 11]), snapshot: second.snapshot, mapping: boot)
        let total = try store.totals(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T08:01:00Z"))
        #expect(total.steps == 6)
        #expect(abs(total.distanceMeters - 6 * FakePedometer.stride) < 0.001)
    }

    /// Active time that grows in a batch without steps is kept, at the snapshot's time.
    @Test func activeTimeWithoutStepsIsKept() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var snapshot = PedometerSnapshot()
        snapshot.activeDuration = 3
        snapshot.time = 130
        store.record([], snapshot: snapshot, mapping: boot)
        let minute = try store.totals(from: date("2026-06-15T08:02:00Z"), to: date("2026-06-15T08:03:00Z"))
        #expect(minute.steps == 0 && abs(minute.activeSeconds - 3) < 1e-9)
    }

    /// Queries combine hour sums with edge minutes; they must equal the plain sum of minutes for
    /// any range, including ranges inside one hour and across many.
    @Test func hourSumsAndEdgeMinutesEqualTheMinuteSums() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var pedometer = FakePedometer()
        var generator = Xoshiro256StarStar(seed: 7)   // seeded: the same ranges every run
        var perMinute: [Int64: Int] = [:]
        var times: [Double] = []
        for _ in 0..<3000 {
            let t = Double(generator.next() % (3 * 86_400))
            times.append(t)
            perMinute[WallMinute.index(of: boot.date(bootSeconds: t)), default: 0] += 1
        }
        store.record(pedometer.steps(times.sorted()), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        for _ in 0..<200 {
            let a = Double(generator.next() % (3 * 86_400)), b = a + Double(generator.next() % 40_000)
            let from = boot.date(bootSeconds: a), to = boot.date(bootSeconds: b)
            let expected = WallMinute.starting(from: from, to: to).map { range in
                perMinute.filter { range.contains($0.key) }.values.reduce(0, +)
            } ?? 0
            #expect(try store.totals(from: from, to: to).steps == expected, "from \(from) to \(to)")
        }
    }

    @Test func activitiesAndMarkersAreStoredOnTheWallClock() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let store = try HistoryStore(path: path, bootID: "b")
            var pedometer = FakePedometer()
            let walk = ActivitySegment(start: 60, end: 300, activity: .walking, confidence: .high)
            store.record(pedometer.steps([61], extra: [.resume(time: 60), .activity(walk), .pause(time: 300)]),
                         snapshot: pedometer.snapshot, mapping: boot)
            store.recordPause(bootSeconds: 400)
            store.recordResume(bootSeconds: 500)
            try store.commit()
            let ride = ActivitySegment(start: 300, end: 900, activity: .vehicle, confidence: .medium)
            store.record([.activity(ride)], snapshot: pedometer.snapshot, mapping: boot)   // buffered only
        }
        let store = try HistoryStore(path: path, bootID: "b")
        let from = date("2026-06-15T08:00:00Z"), to = date("2026-06-15T09:00:00Z")
        let activities = try store.activities(from: from, to: to)
        #expect(activities == [HistoryActivity(start: date("2026-06-15T08:01:00Z"), end: date("2026-06-15T08:05:00Z"),
                                               activity: .walking, confidence: .high)])
        #expect(try store.markers(from: from, to: to).map(\.kind) == [.walkingResumed, .walkingPaused, .countingPaused, .countingResumed])
        #expect(try store.markers(from: from, to: to).map(\.date) == [date("2026-06-15T08:01:00Z"), date("2026-06-15T08:05:00Z"),
                                                                      date("2026-06-15T08:06:40Z"), date("2026-06-15T08:08:20Z")])
        // A segment overlapping the interval's start is returned whole.
        #expect(try store.activities(from: date("2026-06-15T08:04:00Z"), to: to).first?.start == date("2026-06-15T08:01:00Z"))
        #expect(try store.activities(from: date("2026-06-15T08:05:00Z"), to: to).isEmpty)
    }

    @Test func commitWithNothingBufferedWritesNothing() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let store = try HistoryStore(path: path, bootID: "b")
        var pedometer = FakePedometer()
        store.record(pedometer.steps([1]), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let wal = contents(path + "-wal")
        try store.commit()
        #expect(contents(path + "-wal") == wal)
        #expect(wal != nil, "WAL mode keeps a -wal file beside the database while it is open")
    }

    /// No query leaves a read transaction open: one would stop every checkpoint and let the WAL
    /// grow for as long as the daemon runs.
    @Test func queriesLeaveTheWALFreeToCheckpoint() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let store = try HistoryStore(path: path, bootID: "b")
        var pedometer = FakePedometer()
        store.record(pedometer.steps([61, 62], extra: [.pause(time: 70)]), snapshot: pedometer.snapshot, mapping: nil)
        try store.commit()
        store.record(pedometer.steps([121]), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let from = date("2026-06-15T00:00:00Z"), to = date("2026-06-16T00:00:00Z")
        _ = try store.totals(from: from, to: to)
        _ = try store.days(from: from, to: to, timeZone: TimeZone(identifier: "UTC")!)
        _ = try store.activities(from: from, to: to)
        _ = try store.markers(from: from, to: to)
        #expect(try store.unplacedMinuteCount() == 0)
        let other = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
        let checkpoint = try other.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try checkpoint.step() && checkpoint.int64(0) == 0, "the checkpoint was not blocked")
        #expect(contents(path + "-wal")?.count == 0)
    }

    @Test func retentionDropsOldMinutesAndDefaultKeepsAll() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        #expect(throws: HistoryError.invalidRetention(days: 0)) { try HistoryStore(path: dir.path("x.sqlite"), retentionDays: 0) }
        let times = (0..<5).map { Double($0) * 86_400 + 100 }   // one step on each of five days
        for retention in [nil, 2] as [Int?] {
            let store = try HistoryStore(path: dir.path("r\(retention ?? 0).sqlite"), retentionDays: retention, bootID: "b")
            var pedometer = FakePedometer()
            for t in times {
                let segment = ActivitySegment(start: t - 50, end: t + 10, activity: .walking, confidence: .high)
                store.record(pedometer.steps([t], extra: [.activity(segment), .pause(time: t + 10)]), snapshot: pedometer.snapshot, mapping: boot)
                try store.commit()
            }
            let month = (date("2026-06-01T00:00:00Z"), date("2026-07-01T00:00:00Z"))
            let all = try store.totals(from: month.0, to: month.1)
            #expect(try store.activities(from: month.0, to: month.1).count == (retention == nil ? 5 : 3))
            #expect(try store.markers(from: month.0, to: month.1).count == (retention == nil ? 5 : 3))
            // Two days back from the newest step (day 5, 08:01) keeps days 3 (from 08:00), 4 and 5.
            #expect(all.steps == (retention == nil ? 5 : 3))
        }
    }
}
