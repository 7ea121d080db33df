import CSQLite
import FoundationEssentials
import IMUCore
#if canImport(Glibc)
import Glibc
#endif

/// The persistent pedometer history: totals per wall-clock minute (UTC), activity segments and
/// pause/resume markers in one SQLite file (docs/history.md).
///
/// The owner calls `record` after each batch of samples and `commit` at least every 10 s; a
/// SIGKILL or power cut loses only what was not committed. Queries include what is recorded but
/// not committed yet. Not Sendable: one thread or actor owns a store (`HistoryReader` wraps one
/// for async queries).
public final class HistoryStore {
    public let path: String
    /// Days of minutes kept; nil keeps everything.
    public let retentionDays: Int?
    /// The boot whose clock `record` receives (see `BootID`).
    public let bootID: String

    private let db: SQLiteConnection
    /// Held while this store may write (nil for a read-only store); declared after `db`, so it is
    /// released after the database is closed.
    private let writerLock: WriterLock?
    private(set) lazy var statements = Statements(db)
    private var apportioner = EventApportioner()
    private(set) var pending = PendingHistory()
    /// The mapping of this boot, once one was given (kept when a later call passes nil).
    public private(set) var mapping: BootTimeMapping?
    /// Whether the file may hold unplaced minutes of this boot that wait for a mapping.
    private var storedUnplaced = false
    /// Boot second of the last batch recorded (for retention, which counts from "now").
    private var lastBootSeconds: Double?
    private var lastPruneBootSeconds: Double?
    /// The error of the last failed commit, nil once a commit succeeds (for status reports).
    public private(set) var lastCommitError: HistoryError?
    /// Minutes of this boot held for the wall clock that the last placing left in the file, not
    /// yet taken by `takeUnplaceableReport`.
    private var unplaceableReport: HistoryError?

    /// Wall-clock dates before this are not believed: IMUKit did not exist before 2024, so a mapping
    /// that puts "now" earlier comes from a clock that was never set (1970 on a Raspberry Pi
    /// without RTC or fake-hwclock), and is treated like no mapping.
    public static let earliestPlausibleDate = Date(timeIntervalSince1970: 1_704_067_200)   // 2024-01-01T00:00:00Z

    /// The first local day a history can hold, the one containing `earliestPlausibleDate`, in this
    /// process's zone (`LocalTime`: TZ, else /etc/localtime): 2024-01-01 in UTC and east of it,
    /// 2023-12-31 west of it. Its midnight (s since 1970) and its date as YYYY-MM-DD, which the
    /// tools name when they refuse an earlier time (imu-steps --since, imu-plot --day).
    public static func earliestPlausibleDay() -> (start: Double, text: String) {
        let start = LocalTime.startOfDay(containing: earliestPlausibleDate.timeIntervalSince1970)
        return (start, LocalTime.isoDate(start))
    }

    /// Opens or creates the history at `path` (WAL, schema version with migrations). Refuses a
    /// corrupt or foreign file without touching it. `retentionDays` nil keeps everything.
    public convenience init(path: String, retentionDays: Int? = nil) throws {
        try self.init(path: path, retentionDays: retentionDays, bootID: BootID.current())
    }

    /// As `init(path:retentionDays:)`, for the boot `bootID` (tests simulate reboots with it).
    public convenience init(path: String, retentionDays: Int? = nil, bootID: String) throws {
        try self.init(path: path, retentionDays: retentionDays, bootID: bootID, schemaVersion: Schema.version)
    }

    /// Opens the file migrated only up to `schemaVersion` (tests make old files with it).
    init(path: String, retentionDays: Int?, bootID: String, schemaVersion: Int) throws {
        if let days = retentionDays, days < 1 { throw HistoryError.invalidRetention(days: days) }
        self.path = path
        self.retentionDays = retentionDays
        self.bootID = bootID
        let lock = try WriterLock(historyPath: path)
        let existing = [path, path + "-wal", path + "-shm"].filter { FileManager.default.fileExists(atPath: $0) }
        do { db = try HistoryFile.open(path: path, readOnly: false, upTo: schemaVersion) } catch {
            // An open that made the file and then failed (a full disk) left an empty file behind
            // while its message said "nothing was changed": what it made goes with the lock.
            if !existing.contains(path) { Self.removeIfMadeEmpty(path, keeping: existing) }
            lock.abandon()
            throw error
        }
        writerLock = lock
        storedUnplaced = try guarded { try statements.countUnplaced().bind(.text(bootID)).scalar() ?? 0 > 0 }
    }

    /// Removes `path` and its `-wal` and `-shm` files, except those in `keeping` (there before),
    /// when `path` holds nothing (0 bytes): what a failed open created. Never a file with data.
    static func removeIfMadeEmpty(_ path: String, keeping: [String]) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 else { return }
        for name in [path + "-wal", path + "-shm", path] where !keeping.contains(name) { unlink(name) }
    }

    /// Opens an existing history for queries only (never creates or migrates it).
    public init(readingFrom path: String) throws {
        self.path = path
        retentionDays = nil
        bootID = BootID.current()
        db = try HistoryFile.open(path: path, readOnly: true)
        writerLock = nil
    }

    // MARK: Recording

    /// Buffers what the pedometer emitted since the last call (boot-clock times) with its snapshot
    /// afterwards. `mapping` nil means the wall clock is not synchronised yet (`WallClockSync`):
    /// minutes are held by boot time and placed once a mapping arrives, so none is stored under
    /// 1970 or a wrong day. After a first mapping, nil keeps using it.
    public func record(_ events: [PedometerEvent], snapshot: PedometerSnapshot, mapping: BootTimeMapping?) {
        let current = adopt(mapping, at: snapshot.time)
        var pending = self.pending
        apportioner.apportion(events, snapshot: snapshot) { time, totals in pending.add(totals, at: time, current) }
        for event in events {
            switch event {
            case .activity(let segment):
                pending.add(.init(start: segment.start, end: segment.end, kind: "activity",
                                  activity: segment.activity, confidence: segment.confidence), current)
            case .pause(let time):
                pending.add(.init(start: time, end: time, kind: HistoryMarker.Kind.walkingPaused.rawValue), current)
            case .resume(let time):
                pending.add(.init(start: time, end: time, kind: HistoryMarker.Kind.walkingResumed.rawValue), current)
            case .step, .floor:
                break
            }
        }
        self.pending = pending
        lastBootSeconds = snapshot.time
    }

    /// Records that counting was paused on request at boot second `bootSeconds`.
    public func recordPause(bootSeconds: Double) { mark(.countingPaused, bootSeconds) }

    /// Records that counting resumed on request at boot second `bootSeconds`.
    public func recordResume(bootSeconds: Double) { mark(.countingResumed, bootSeconds) }

    private func mark(_ kind: HistoryMarker.Kind, _ bootSeconds: Double) {
        pending.add(.init(start: bootSeconds, end: bootSeconds, kind: kind.rawValue), adopt(nil, at: bootSeconds))
    }

    /// Takes `offered` as this boot's mapping when it is plausible; places what waited for one.
    private func adopt(_ offered: BootTimeMapping?, at bootSeconds: Double) -> BootTimeMapping? {
        if let offered, offered.date(bootSeconds: bootSeconds) >= Self.earliestPlausibleDate {
            mapping = offered
        }
        if let mapping, !pending.unplaced.isEmpty || !pending.unplacedEvents.isEmpty { pending.place(mapping) }
        return mapping
    }

    /// The minutes that could not be placed when the wall clock became known (once: nil after),
    /// for the owner's log. They are in no total and left in the file.
    public func takeUnplaceableReport() -> HistoryError? {
        defer { unplaceableReport = nil }
        return unplaceableReport
    }

    /// Minutes of earlier boots that ended before their wall clock was known: they can never be
    /// placed on a date, so they are in no total (kept in the file, `unplaced_minutes`).
    public func strandedMinuteCount() throws -> Int {
        try guarded { Int(try statements.countStranded().bind(.text(bootID)).scalar() ?? 0) }
    }

    /// Minutes recorded but not committed yet.
    public var bufferedMinuteCount: Int { pending.minuteCount }

    // MARK: Committing

    /// Writes the buffered minutes in one transaction (cheap when nothing is buffered: no I/O).
    /// On a full disk it throws `HistoryError.diskFull` and KEEPS the buffer: the next commit
    /// retries. Any other failure keeps it too.
    public func commit() throws {
        let placeStored = storedUnplaced && mapping != nil
        let prune = pruneCutoff()
        guard !pending.isEmpty || placeStored || prune != nil else { return }
        var batch = pending
        var unplaceable: HistoryError?
        do {
            try db.execute("BEGIN IMMEDIATE")
            if placeStored, let mapping { unplaceable = try takeStoredUnplaced(into: &batch, mapping) }
            try write(batch)
            if let prune { try deleteBefore(minute: prune) }
            try db.execute("COMMIT")
        } catch let failure {
            if db.inTransaction { try? db.execute("ROLLBACK") }
            var error = HistoryFile.classify(failure, path: path)
            if case .diskFull = error { error = .diskFull(path: path, bufferedMinutes: pending.minuteCount) }
            lastCommitError = error
            throw error
        }
        pending = PendingHistory()
        if let unplaceable { unplaceableReport = unplaceable }
        if placeStored { storedUnplaced = false }
        if !batch.unplaced.isEmpty || !batch.unplacedEvents.isEmpty { storedUnplaced = true }
        if prune != nil { lastPruneBootSeconds = lastBootSeconds }
        lastCommitError = nil
    }

    private func write(_ batch: PendingHistory) throws(SQLiteFailure) {
        var hours: [Int64: MinuteTotals] = [:]
        for (minute, totals) in batch.placed {
            try statements.upsertMinute().bind([.integer(minute)] + totals.columns).run()
            hours[Self.floorDivide(minute, HistoryTime.minutesPerHour), default: MinuteTotals()] += totals
        }
        for (hour, totals) in hours {
            try statements.upsertHour().bind([.integer(hour)] + totals.columns).run()
        }
        for (bootMinute, totals) in batch.unplaced {
            try statements.upsertUnplaced().bind([.text(bootID), .integer(bootMinute)] + totals.columns).run()
        }
        for event in batch.placedEvents {
            let start = Milliseconds.of(event.start), end = Milliseconds.of(event.end)
            if event.kind == "activity" {
                try statements.insertActivity().bind(.integer(start), .integer(end), .text((event.activity ?? .unknown).rawValue),
                                                   .text((event.confidence ?? .low).rawValue)).run()
            } else {
                try statements.insertMarker().bind(.integer(start), .text(event.kind)).run()
            }
        }
        for event in batch.unplacedEvents {
            try statements.insertUnplacedEvent().bind(.text(bootID), .text(event.kind), .real(event.start), .real(event.end),
                                                    .text(event.activity?.rawValue ?? ""), .text(event.confidence?.rawValue ?? "")).run()
        }
    }

    /// Moves this boot's stored unplaced minutes and events into `batch`, placed with `mapping`.
    /// A minute that cannot be placed stays where it is, counted: returns the report of them, or
    /// nil (`HistoryError.unplaceableMinutes`).
    private func takeStoredUnplaced(into batch: inout PendingHistory, _ mapping: BootTimeMapping) throws(SQLiteFailure) -> HistoryError? {
        let minutes = try statements.selectUnplaced().bind(.text(bootID))
        var placedKeys: [Int64] = [], left: [Int64] = []
        while try minutes.step() {
            let bootMinute = minutes.int64(0)
            // Values were clamped into the totals, and a boot minute far out trapped converting
            // its wall minute: such a row is left in the file and reported instead.
            guard minutes.int64(6) == 0, PendingHistory.isPlaceable(bootMinute: bootMinute) else {
                left.append(bootMinute)
                continue
            }
            batch.placed[PendingHistory.wallMinute(ofBootMinute: bootMinute, mapping), default: MinuteTotals()] += Self.totals(minutes, from: 1)
            placedKeys.append(bootMinute)
        }
        let events = try statements.selectUnplacedEvents().bind(.text(bootID))
        while try events.step() {
            batch.add(.init(start: events.double(1), end: events.double(2), kind: events.text(0) ?? "",
                            activity: ActivityClass(rawValue: events.text(3) ?? ""),
                            confidence: ActivityConfidence(rawValue: events.text(4) ?? "")), mapping)
        }
        if left.isEmpty {
            try statements.deleteUnplaced().bind(.text(bootID)).run()
        } else {
            for key in placedKeys { try statements.deleteUnplacedMinute().bind(.text(bootID), .integer(key)).run() }
        }
        try statements.deleteUnplacedEvents().bind(.text(bootID)).run()
        return left.min().map { .unplaceableMinutes(path: path, bootID: bootID, count: left.count, firstBootMinute: $0) }
    }

    /// The first minute to keep when retention is due (at most once an hour of boot time), else nil.
    private func pruneCutoff() -> Int64? {
        guard let days = retentionDays, let mapping, let now = lastBootSeconds else { return nil }
        if let last = lastPruneBootSeconds, now - last < HistoryTime.secondsPerHour { return nil }
        let keepFrom = WallMinute.index(of: mapping.date(bootSeconds: now)) - Int64(days) * HistoryTime.minutesPerDay
        // Whole hours, so minutes and hour sums stay equal.
        return Self.floorDivide(keepFrom, HistoryTime.minutesPerHour) * HistoryTime.minutesPerHour
    }

    private func deleteBefore(minute: Int64) throws(SQLiteFailure) {
        try statements.pruneMinutes().bind(.integer(minute)).run()
        try statements.pruneHours().bind(.integer(minute / HistoryTime.minutesPerHour)).run()
        try statements.pruneActivities().bind(.integer(minute * Milliseconds.perMinute)).run()
        try statements.pruneMarkers().bind(.integer(minute * Milliseconds.perMinute)).run()
    }

    /// The largest value a stored count may hold: 10¹² is 20 000 years of steps at 100 a minute,
    /// or a million km in mm. Queries report a row beyond it as damage (`HistoryError.implausibleValue`).
    static let largestValue: Int64 = 1_000_000_000_000

    /// Reads steps, distance (mm), floors up, floors down and active time (ms) from columns
    /// `first ...`. Each value is clamped to 0…`largestValue` before use, so a tampered file can
    /// neither make a total negative nor overflow the sums (queries report such rows before this).
    static func totals(_ row: SQLiteStatement, from first: Int32) -> MinuteTotals {
        func value(_ column: Int32) -> Int64 { min(max(row.int64(column), 0), largestValue) }
        return MinuteTotals(steps: Int(value(first)), distanceMeters: Double(value(first + 1)) / Milliseconds.perUnit,
                            floorsAscended: Int(value(first + 2)), floorsDescended: Int(value(first + 3)),
                            activeSeconds: Double(value(first + 4)) / Milliseconds.perUnit)
    }

    /// Runs a read, turning a SQLite failure into a `HistoryError`.
    func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let failure as SQLiteFailure {
            throw HistoryFile.classify(failure, path: path)
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

private extension MinuteTotals {
    /// The stored columns in table order: steps, distance_mm, floors_up, floors_down, active_ms.
    var columns: [SQLiteValue] {
        [.integer(Int64(steps)), .integer(Milliseconds.of(max(0, distanceMeters))), .integer(Int64(floorsAscended)),
         .integer(Int64(floorsDescended)), .integer(Milliseconds.of(max(0, activeSeconds)))]
    }
}

/// Thousandths as integers (ms from s, mm from m), rounded, without trapping on NaN or overflow.
enum Milliseconds {
    /// 1e15 thousandths: 31 700 years of milliseconds or a million km in mm, far beyond any real value.
    static let limit = 1e15
    /// Thousandths per unit (SI milli: ms per s, mm per m), as the stored columns count them.
    static let perUnit = 1000.0
    /// Milliseconds per minute (60 s × 1000), from a minute index to the events' ms columns.
    static let perMinute: Int64 = 60_000

    static func of(_ value: Double) -> Int64 {
        guard value.isFinite else { return 0 }
        return Int64(min(max(value * perUnit, -limit), limit).rounded())
    }
}

/// The calendar arithmetic of the minute and hour tables (UTC minutes since 1970: no leap
/// seconds, as POSIX time counts them).
enum HistoryTime {
    /// Minutes per hour, from a minute index to its hours row.
    static let minutesPerHour: Int64 = 60
    /// Minutes per day (24 × 60), for retention in days.
    static let minutesPerDay: Int64 = 1440
    /// Seconds per minute, from a boot or wall minute index to seconds.
    static let secondsPerMinute = 60.0
    /// Seconds per hour: retention runs at most once an hour of boot time.
    static let secondsPerHour = 3600.0
    /// Minutes a stored key may lie from 0 and still be read as a date: 2⁴⁰ minutes (two million
    /// years) converts to seconds and to an integer wall minute without overflow.
    static let datedMinutes: Int64 = 1 << 40
}
