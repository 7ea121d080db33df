import CSQLite
import Foundation
import IMUSimulation
import Testing
@testable import IMUHistory

/// The wall clock: not synchronised yet, jumping, and suspend (the boot clock runs on).
@Suite struct ClockTests {
    let boot = mapping(boot0: "2026-06-15T08:00:00Z")

    /// A Pi without RTC: minutes counted before NTP are kept by boot time (also across a restart
    /// of the daemon) and placed on the right date once the clock is synchronised.
    @Test func minutesBeforeTheClockIsSynchronisedArePlacedLater() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        let epoch = BootTimeMapping(wallTimeAtBoot: Date(timeIntervalSince1970: 0))   // an unset clock
        var pedometer = FakePedometer()
        do {
            let store = try HistoryStore(path: path, bootID: "this-boot")
            store.record(pedometer.steps([61, 62, 63]), snapshot: pedometer.snapshot, mapping: nil)
            store.record(pedometer.steps([70]), snapshot: pedometer.snapshot, mapping: epoch)   // implausible: held too
            store.recordPause(bootSeconds: 80)
            try store.commit()
            #expect(try store.unplacedMinuteCount() == 1)
            #expect(try store.totals(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 86_400)).steps == 0)
            #expect(try store.totals(from: date("2026-06-14T00:00:00Z"), to: date("2026-06-16T00:00:00Z")).steps == 0)
        }
        // An earlier boot that ended before its clock was set: its minutes can never be placed.
        do {
            let old = try HistoryStore(path: path, bootID: "earlier-boot")
            var other = FakePedometer()
            old.record(other.steps([5, 6]), snapshot: other.snapshot, mapping: nil)
            try old.commit()
        }
        let store = try HistoryStore(path: path, bootID: "this-boot")   // the daemon restarted, clock still unset
        var restarted = FakePedometer()
        store.record(restarted.steps([130, 131]), snapshot: restarted.snapshot, mapping: nil)
        #expect(try store.unplacedMinuteCount() == 3)
        // NTP sets the clock.
        store.record(restarted.steps([200]), snapshot: restarted.snapshot, mapping: boot)
        try store.commit()
        #expect(try store.unplacedMinuteCount() == 1, "the earlier boot's minute stays unplaced")
        let day = try store.totals(from: date("2026-06-15T00:00:00Z"), to: date("2026-06-16T00:00:00Z"))
        #expect(day.steps == 7)
        // Boot minute 1 (60…120 s) is placed at the wall minute of its middle, 08:01:30.
        #expect(try store.totals(from: date("2026-06-15T08:01:00Z"), to: date("2026-06-15T08:02:00Z")).steps == 4)
        #expect(try store.totals(from: date("2026-06-15T08:02:00Z"), to: date("2026-06-15T08:04:00Z")).steps == 3)
        #expect(try store.markers(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T09:00:00Z"))
                == [HistoryMarker(date: date("2026-06-15T08:01:20Z"), kind: .countingPaused)])
        // A later nil (the NTP client lost its server) keeps this boot's mapping.
        store.record(restarted.steps([300]), snapshot: restarted.snapshot, mapping: nil)
        #expect(try store.totals(from: date("2026-06-15T08:05:00Z"), to: date("2026-06-15T08:06:00Z")).steps == 1)
    }

    /// The wall clock stepped forwards and backwards by hours: minutes already stored never move,
    /// a minute hit twice adds up, and every step is stored exactly once.
    @Test func wallClockJumpsDoNotCorruptMinutes() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var pedometer = FakePedometer()
        func minute(_ text: String) throws -> Int {
            let start = date(text)
            return try store.totals(from: start, to: start.addingTimeInterval(60)).steps
        }
        store.record(pedometer.steps(Array(stride(from: 60.0, to: 70, by: 1))), snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let forward = mapping(boot0: "2026-06-15T11:00:00Z")
        store.record(pedometer.steps([120, 121, 122, 123, 124]), snapshot: pedometer.snapshot, mapping: forward)
        try store.commit()
        store.record(pedometer.steps([180, 181, 182, 183, 184]), snapshot: pedometer.snapshot, mapping: boot)
        let backFiveHours = mapping(boot0: "2026-06-15T03:00:00Z")
        store.record(pedometer.steps([240, 241, 242, 243, 244]), snapshot: pedometer.snapshot, mapping: backFiveHours)
        let ontoStored = mapping(boot0: "2026-06-15T07:56:00Z")   // boot 250 s lands in 08:00:10
        store.record(pedometer.steps([250]), snapshot: pedometer.snapshot, mapping: ontoStored)
        store.record(pedometer.steps([310]), snapshot: pedometer.snapshot, mapping: ontoStored)  // 08:01:10
        try store.commit()
        #expect(try minute("2026-06-15T08:01:00Z") == 11)
        #expect(try minute("2026-06-15T08:00:00Z") == 1)
        #expect(try minute("2026-06-15T11:02:00Z") == 5)
        #expect(try minute("2026-06-15T08:03:00Z") == 5)
        #expect(try minute("2026-06-15T03:04:00Z") == 5)
        #expect(try store.totals(from: date("2026-06-15T00:00:00Z"), to: date("2026-06-16T00:00:00Z")).steps == pedometer.snapshot.steps)
    }

    /// Suspend: no samples for two hours, while CLOCK_BOOTTIME runs on. The real pedometer counts
    /// no steps in the gap and the walk after it lands two hours later on the wall clock.
    @Test func suspendInventsNoSteps() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let store = try HistoryStore(path: dir.path("h.sqlite"), bootID: "b")
        var options = SimulationOptions()
        options.startTime = 1000
        let before = Simulator(scenario: Scenario.named("walk")!, options: options)
        options.startTime = 1000 + before.duration + 7200
        let after = Simulator(scenario: Scenario.named("walk")!, options: options)
        var pedometer = Pedometer(capabilities: SensorCapabilities(accelerometer: true))
        var events: [PedometerEvent] = []
        var lastRecorded = 0.0
        for var simulator in [before, after] {
            while let sample = simulator.next() {
                pedometer.process(sample, into: &events)
                if sample.time - lastRecorded >= 1 {
                    store.record(events, snapshot: pedometer.snapshot, mapping: boot)
                    events = []
                    lastRecorded = sample.time
                }
            }
        }
        pedometer.finish(into: &events)
        store.record(events, snapshot: pedometer.snapshot, mapping: boot)
        try store.commit()
        let start = boot.date(bootSeconds: 1000)
        let gapStart = boot.date(bootSeconds: 1000 + before.duration + 60), gapEnd = boot.date(bootSeconds: options.startTime - 60)
        #expect(try store.totals(from: gapStart, to: gapEnd).steps == 0)
        let all = try store.totals(from: start.addingTimeInterval(-60), to: gapEnd.addingTimeInterval(3600))
        #expect(all.steps == pedometer.snapshot.steps)
        let afterGap = try store.totals(from: gapEnd, to: gapEnd.addingTimeInterval(3600)).steps
        // Each walk is counted by itself: within 5 % of its true steps (the pedometer's own
        // accuracy on the simulator, docs/accuracy.md), so the gap took none and moved none.
        let truth = Double(after.truth.steps)
        #expect(abs(Double(afterGap) - truth) <= 0.05 * truth, "after the gap: \(afterGap) of \(after.truth.steps)")
    }
}

/// Minutes held for the wall clock that cannot be placed when it becomes known: their values were
/// clamped into the totals without a word (steps = -5 counted as 0, 10¹⁵ as 10¹²), and a boot
/// minute far out trapped. They are left in the file, out of every total, counted and reported.
@Suite struct UnplaceableMinuteTests {
    let boot = mapping(boot0: "2026-06-15T08:00:00Z")

    @Test(arguments: ["UPDATE unplaced_minutes SET steps = -5 WHERE boot_minute = 2",
                      "UPDATE unplaced_minutes SET steps = 1000000000000000 WHERE boot_minute = 2",
                      "UPDATE unplaced_minutes SET boot_minute = 9000000000000000000 WHERE boot_minute = 2"])
    func aMinuteThatCannotBePlacedIsReportedAndLeftInTheFile(_ damage: String) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        var pedometer = FakePedometer()
        do {
            let store = try HistoryStore(path: path, bootID: "this-boot")
            store.record(pedometer.steps([61, 62, 130, 131, 132]), snapshot: pedometer.snapshot, mapping: nil)   // boot minutes 1 and 2
            try store.commit()
        }
        do {
            let db = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            try db.execute(damage)
        }
        let store = try HistoryStore(path: path, bootID: "this-boot")
        #expect(store.takeUnplaceableReport() == nil)
        store.record(pedometer.steps([200]), snapshot: pedometer.snapshot, mapping: boot)   // the clock is set
        try store.commit()
        let report = try #require(store.takeUnplaceableReport())
        guard case .unplaceableMinutes(path, "this-boot", 1, _) = report else { Issue.record("\(report)"); return }
        #expect(report.description.contains("holds 1 minute counted before the wall clock was set that cannot be placed"), "\(report)")
        #expect(report.fix?.contains("DELETE FROM unplaced_minutes WHERE boot_id = 'this-boot'") == true)
        #expect(store.takeUnplaceableReport() == nil, "reported once")
        // Minute 1 (2 steps) and the new step are placed; the damaged minute is in no total and stays in the file.
        #expect(try store.totals(from: date("2026-06-15T00:00:00Z"), to: date("2026-06-16T00:00:00Z")).steps == 3)
        #expect(try store.unplacedMinuteCount() == 1)
    }

    @Test func minutesOfAnEarlierBootAreCounted() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let old = try HistoryStore(path: path, bootID: "earlier-boot")
            var p = FakePedometer()
            old.record(p.steps([5, 70, 130]), snapshot: p.snapshot, mapping: nil)
            try old.commit()
        }
        #expect(try HistoryStore(path: path, bootID: "this-boot").strandedMinuteCount() == 3)
        #expect(try HistoryStore(path: path, bootID: "earlier-boot").strandedMinuteCount() == 0)
    }
}
