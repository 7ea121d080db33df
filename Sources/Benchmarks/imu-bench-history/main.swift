import BenchArguments
import CSQLite
import Foundation
import IMUHistory

/// imu-bench-history: the history's size for a year of minutes and its query and commit times,
/// each beside an anchor measured in the same run on the same file. Prints figures; asserts nothing.
/// `--writer PATH` runs the process the kill -9 test uses (Writer.swift).

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--writer" {
    // `--writer` alone was refused as "takes no arguments", which named neither the path it needs
    // nor the form; an empty path opened nothing the user could name.
    guard arguments.count == 3, !arguments[2].isEmpty else {
        BenchArguments.usageError("imu-bench-history", arguments.count > 3 ? "--writer takes one path, got \(arguments.count - 2) arguments"
                                                                            : "--writer needs the path of the history to write",
                                  fix: "give one file, e.g. imu-bench-history --writer /tmp/writer.sqlite (the process the kill -9 test runs)")
    }
    exit(runWriter(path: arguments[2]))
}
BenchArguments.acceptNone("imu-bench-history", summary: "the history's size for a year of minutes and its query and commit times", privateModes: ["--writer": 1])

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Median wall time in ms of `runs` calls (wall time: a query's cost includes its I/O).
func medianMs(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = monotonicSeconds()
        try body()
        times.append((monotonicSeconds() - start) * 1000)
    }
    return times.sorted()[runs / 2]
}

func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}

func f(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

#if DEBUG
print("build: debug (figures are for release: make bench)")
#endif

/// Builds the year, then prints every figure. Throws a `HistoryError` when the store refuses.
func benchmark() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-history-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("year.sqlite").path

    // A worst-case year: every minute of 2025 holds steps (a person walking around the clock, 100
    // steps/min at 0.7 m), a floor every 97th minute, an activity segment every 30 minutes. A real
    // year stores only the minutes with steps, a few percent of these.
    let year = DateInterval(start: ISO8601DateFormatter().date(from: "2025-01-01T00:00:00Z")!,
                            end: ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!)
    let minutes = Int(year.duration / 60)
    let mapping = BootTimeMapping(wallTimeAtBoot: year.start)
    var buildSeconds = 0.0
    do {
        let store = try HistoryStore(path: path, bootID: "bench")
        var snapshot = PedometerSnapshot()
        let start = monotonicSeconds()
        for minute in 0..<minutes {
            let t0 = Double(minute) * 60
            var events = (0..<100).map { PedometerEvent.step(time: t0 + 0.6 * Double($0)) }
            if minute % 97 == 0 { events.append(.floor(time: t0 + 30, direction: .up)) }
            if minute % 30 == 29 { events.append(.activity(ActivitySegment(start: t0 - 1740, end: t0 + 60, activity: .walking, confidence: .high))) }
            snapshot.steps += 100
            snapshot.distanceMeters += 70
            snapshot.activeDuration += 60
            snapshot.time = t0 + 59.4
            store.record(events, snapshot: snapshot, mapping: mapping)
            if minute % 1440 == 1439 { try store.commit() }   // a day per transaction: only to build faster
        }
        try store.commit()
        buildSeconds = monotonicSeconds() - start
    }   // closing the store checkpoints the WAL into the file

    // Anchor for the size: the same minutes in one plain SQLite table (no hour sums, no segments).
    let plainPath = dir.appendingPathComponent("plain.sqlite").path
    var plain: OpaquePointer?
    sqlite3_open(plainPath, &plain)
    sqlite3_exec(plain, """
        CREATE TABLE minutes(minute INTEGER PRIMARY KEY, steps INTEGER, distance_mm INTEGER, floors_up INTEGER,
                             floors_down INTEGER, active_ms INTEGER);
        ATTACH '\(path)' AS h; INSERT INTO minutes SELECT * FROM h.minutes; DETACH h;
        """, nil, nil, nil)
    let plainSize = fileSize(plainPath)
    let size = fileSize(path) + fileSize(path + "-wal")
    print("year of minutes: \(minutes) minutes (2025, every minute holding steps), built in \(f(buildSeconds)) s")
    print("figure: history size: \(f(Double(size) / 1e6, 2)) MB (target <= 30 MB; \(f(Double(size) / Double(minutes), 1)) bytes/minute)"
          + " | anchor: the same minutes in one plain table: \(f(Double(plainSize) / 1e6, 2)) MB")

    // Opening (with quick_check over every page) beside a bare sqlite3_open + one read; measured
    // before the queries open their store, since a file has one writer at a time.
    let openMs = try medianMs(5) { _ = try HistoryStore(path: path, bootID: "bench") }
    let bareOpenMs = medianMs(5) {
        var db: OpaquePointer?
        sqlite3_open(path, &db)
        sqlite3_exec(db, "SELECT count(*) FROM hours", nil, nil, nil)
        sqlite3_close(db)
    }
    let readerOpenMs = try medianMs(5) { _ = try HistoryReader(path: path) }
    print("open the year's file for writing (checks every page): \(f(openMs, 1)) ms; for reading: \(f(readerOpenMs, 2)) ms"
          + " | anchor: bare sqlite3_open + one read: \(f(bareOpenMs, 2)) ms")

    // Queries over the whole year: the store (hour sums + edge minutes) beside a raw SELECT sum over
    // the minutes table of the same file, interleaved so both see the same machine load.
    let store = try HistoryStore(path: path, bootID: "bench")
    var raw: OpaquePointer?
    sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(raw, "SELECT sum(steps), sum(distance_mm), sum(floors_up), sum(floors_down), sum(active_ms) FROM minutes WHERE minute BETWEEN ?1 AND ?2", -1, &statement, nil)
    let firstMinute = WallMinute.index(of: year.start), lastMinute = WallMinute.index(of: year.end) - 1
    var rawSteps: Int64 = 0
    func rawSum(_ statement: OpaquePointer?, _ first: Int64, _ last: Int64) -> Int64 {
        sqlite3_reset(statement)
        sqlite3_bind_int64(statement, 1, first)
        sqlite3_bind_int64(statement, 2, last)
        return sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1
    }
    // Off the hour at both ends, so the edge minutes are read too.
    let from = year.start.addingTimeInterval(17 * 60), to = year.end.addingTimeInterval(-23 * 60)
    var yearTotals = HistoryTotals(start: from, end: to)
    var storeTimes: [Double] = [], rawTimes: [Double] = [], dayTimes: [Double] = []
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    // The local year 2025 in Berlin: 365 days, two of them 23 and 25 hours long.
    var berlinCalendar = Calendar(identifier: .gregorian)
    berlinCalendar.timeZone = berlin
    let localYear = (berlinCalendar.date(from: DateComponents(year: 2025, month: 1, day: 1))!,
                     berlinCalendar.date(from: DateComponents(year: 2026, month: 1, day: 1))!)
    var dayCount = 0
    for _ in 0..<15 {
        storeTimes.append(try medianMs(1) { yearTotals = try store.totals(from: from, to: to) })
        rawTimes.append(medianMs(1) { rawSteps = rawSum(statement, firstMinute, lastMinute) })
        dayTimes.append(try medianMs(1) { dayCount = try store.days(from: localYear.0, to: localYear.1, timeZone: berlin).count })
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    print("figure: history query totals over a year: \(f(median(storeTimes), 2)) ms median of 15 (target <= 50 ms; \(yearTotals.steps) steps)"
          + " | anchor: raw SELECT sum over the year's minutes: \(f(median(rawTimes), 2)) ms (\(rawSteps) steps)")
    print("figure: history query per local day over a year (\(dayCount) Europe/Berlin days): \(f(median(dayTimes), 2)) ms median of 15"
          + " | anchor: the raw SELECT sum above, \(f(median(rawTimes), 2)) ms")

    // Commit: 10 s of walking (20 steps), the daemon's cadence, beside an empty BEGIN/COMMIT with the
    // same synchronous=FULL on the same file (the cost of one fsync'ed transaction; its table is
    // added to this throw-away copy only).
    var snapshot = PedometerSnapshot()
    var clock = Double(minutes) * 60 + 1000
    let commitMs = try medianMs(21) {
        let events = (0..<20).map { PedometerEvent.step(time: clock + 0.5 * Double($0)) }
        snapshot.steps += 20
        snapshot.distanceMeters += 14
        snapshot.time = clock + 10
        clock += 10
        store.record(events, snapshot: snapshot, mapping: mapping)
        try store.commit()
    }
    var anchorDB: OpaquePointer?
    sqlite3_open(path, &anchorDB)
    sqlite3_exec(anchorDB, "PRAGMA synchronous = FULL; CREATE TABLE bench_anchor(x INTEGER)", nil, nil, nil)
    var anchorResult = SQLITE_OK
    let emptyCommitMs = medianMs(21) {
        anchorResult = sqlite3_exec(anchorDB, "BEGIN IMMEDIATE; INSERT INTO bench_anchor VALUES (1); COMMIT", nil, nil, nil)
    }
    if anchorResult != SQLITE_OK { print("anchor transaction failed: \(String(cString: sqlite3_errmsg(anchorDB)))") }
    print("figure: history commit of 10 s of steps: \(f(commitMs, 2)) ms median of 21 | anchor: a one-row fsync'ed SQLite transaction on the same file: \(f(emptyCommitMs, 2)) ms")

    sqlite3_finalize(statement)
    sqlite3_close(raw)
    sqlite3_close(plain)
    sqlite3_close(anchorDB)
}

do { try benchmark() } catch {
    try? FileHandle.standardError.write(contentsOf: Data("imu-bench-history: \(error)\n".utf8))
    exit(1)
}
