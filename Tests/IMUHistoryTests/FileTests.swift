import CSQLite
import Foundation
import Testing
@testable import IMUHistory

/// What is not a healthy IMUKit history is refused, named with the fix, and never written to.
@Suite struct FileTests {
    /// A history on a file system mounted read-only was sent to "check that the directory exists
    /// and is writable by this user", which no chmod changes. Runs on a read-only tmpfs, which
    /// needs root; skipped with a message otherwise.
    @Test func aReadOnlyFileSystemIsNamedWithItsFix() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        guard let mountPoint = try mountedTmpfs("size=64k,ro", named: "ro", in: dir) else { return }
        defer { run("/bin/umount", [mountPoint]) }
        let path = mountPoint + "/h.sqlite"
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path, bootID: "b") }
        #expect(error.description == "cannot open the history \(path): its file system is mounted read-only", "\(error)")
        #expect(error.fix?.hasPrefix("give the history a path on a writable file system") == true && error.fix?.contains("findmnt -T \(mountPoint)") == true,
                "\(error.fix ?? "no fix")")
        #expect(error.exitStatus == .runtimeFailure)
    }

    @Test func aTextFileIsRefusedAndLeftAlone() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("notes.txt")
        try "shopping: milk\n".write(toFile: path, atomically: true, encoding: .utf8)
        let before = contents(path)
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
        #expect(error == .notADatabase(path: path))
        #expect(error.description.contains(path) && error.fix?.contains("mv \(path)") == true)
        #expect(contents(path) == before)
    }

    /// An empty file (made by `touch`, or by an installer) becomes a new history.
    @Test func anEmptyFileBecomesAHistory() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        let store = try HistoryStore(path: path, bootID: "b")
        var pedometer = FakePedometer()
        store.record(pedometer.steps([61]), snapshot: pedometer.snapshot, mapping: mapping(boot0: "2026-06-15T08:00:00Z"))
        try store.commit()
        let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
        #expect(try raw.integer("PRAGMA application_id") == Schema.applicationID)
        #expect(try raw.integer("SELECT sum(steps) FROM minutes") == 1)
    }

    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("other.sqlite")
        do {
            let other = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try other.execute("CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('Ada')")
        }
        let before = contents(path)
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path) }
        guard case .foreignDatabase(let named, let detail) = error else { Issue.record("got \(error)"); return }
        #expect(named == path && detail.contains("contacts"))
        #expect(contents(path) == before)
        // Names from the file reach a terminal without their control characters.
        let hostile = dir.path("hostile.sqlite")
        do {
            let other = try SQLiteConnection(path: hostile, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try other.execute("CREATE TABLE \"x\u{1B}[2Jy\"(a)")
        }
        let hostileError = try #require(throws: HistoryError.self) { try HistoryStore(path: hostile) }
        #expect(!hostileError.description.unicodeScalars.contains("\u{1B}") && hostileError.description.contains(#"x\x1B[2Jy"#))
        // Marked with another application id.
        let marked = dir.path("marked.sqlite")
        do {
            let other = try SQLiteConnection(path: marked, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            try other.execute("PRAGMA application_id = 1234; CREATE TABLE minutes(x)")
        }
        #expect(throws: HistoryError.foreignDatabase(path: marked, detail: "application id 0x000004D2")) { try HistoryStore(path: marked) }
    }

    @Test func aDamagedHistoryIsRefusedAndLeftAlone() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let store = try HistoryStore(path: path, bootID: "b")
            var pedometer = FakePedometer()
            // Three days of minutes: about 30 pages of 4 KiB.
            store.record(pedometer.steps(Array(stride(from: 0.0, to: 3 * 86_400, by: 60))), snapshot: pedometer.snapshot,
                         mapping: mapping(boot0: "2026-06-15T00:00:00Z"))
            try store.commit()
        }
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 6 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let before = contents(path)
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path, bootID: "b") }
        guard case .corrupt(let named, _) = error else { Issue.record("got \(error)"); return }
        #expect(named == path && error.fix?.contains(".recover") == true)
        #expect(contents(path) == before)
    }

    @Test func aNewerSchemaIsRefused() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        _ = try HistoryStore(path: path, bootID: "b")
        do {
            let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            try raw.execute("PRAGMA user_version = 99")
        }
        let before = contents(path)
        #expect(throws: HistoryError.newerSchema(path: path, found: 99, supported: Schema.version)) { try HistoryStore(path: path) }
        #expect(contents(path) == before)
    }

    @Test func aDirectoryOrAMissingDirectoryIsNamed() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        #expect(throws: HistoryError.cannotOpen(path: dir.url.path, detail: "it is a directory")) { try HistoryStore(path: dir.url.path) }
        let missing = dir.path("no/such/dir/h.sqlite")
        let error = try #require(throws: HistoryError.self) { try HistoryStore(path: missing) }
        guard case .cannotOpen(let named, _) = error else { Issue.record("got \(error)"); return }
        #expect(named == missing && error.fix?.contains("exists and is writable") == true)
    }

    /// A file of schema version 1 (no hour sums) is migrated in place: the hour sums are built
    /// from its minutes and queries agree with them.
    @Test func versionOneIsMigrated() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            _ = try HistoryStore(path: path, retentionDays: nil, bootID: "b", schemaVersion: 1)
            let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            #expect(try raw.integer("PRAGMA user_version") == 1)
            #expect(try raw.texts("PRAGMA journal_mode") == ["wal"])
            // 600 minutes from 2026-06-15T00:00Z with 10 steps each.
            let first = WallMinute.index(of: date("2026-06-15T00:00:00Z"))
            try raw.execute("""
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 599)
                INSERT INTO minutes SELECT \(first) + i, 10, 7000, 0, 0, 5000 FROM n
                """)
        }
        let store = try HistoryStore(path: path, bootID: "b")
        let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READONLY)
        #expect(try raw.integer("PRAGMA user_version") == Int64(Schema.version))
        #expect(try raw.integer("SELECT count(*) FROM hours") == 10)
        let day = try store.totals(from: date("2026-06-15T00:00:00Z"), to: date("2026-06-16T00:00:00Z"))
        #expect(day.steps == 6000 && abs(day.distanceMeters - 4200) < 1e-6 && abs(day.activeSeconds - 3000) < 1e-6)
        #expect(try store.totals(from: date("2026-06-15T01:30:00Z"), to: date("2026-06-15T03:10:00Z")).steps == 1000)
    }
}

@Suite struct WriterLockTests {
    /// Two writers at once would count every step twice: the second is refused, readers are not,
    /// and the lock goes with the first writer.
    @Test func aSecondWriterIsRefused() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let first = try HistoryStore(path: path, bootID: "b")
            let error = try #require(throws: HistoryError.self) { try HistoryStore(path: path, bootID: "b") }
            #expect(error == .inUse(path: path) && error.fix?.contains("systemctl stop imu-stepd") == true)
            _ = try HistoryReader(path: path)
            _ = first
        }
        _ = try HistoryStore(path: path, bootID: "b")
    }

    /// A refused file gets no lock file left beside it.
    @Test func aRefusedFileLeavesNoLockFile() throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("notes.txt")
        try "not a database\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: HistoryError.notADatabase(path: path)) { try HistoryStore(path: path) }
        #expect(!FileManager.default.fileExists(atPath: path + ".lock"))
    }
}

/// Values no write makes (a hand-edited file) are damage, named with the row, not clamped.
@Suite struct ImplausibleValueTests {
    /// Two minutes near 2⁶³ made sum() fail with "integer overflow" (reported as an I/O error);
    /// one of 10¹⁵ steps was clamped to 10¹² and counted.
    @Test(arguments: [("steps = 1000000000000000", "steps = 1000000000000000"), ("distance_mm = 9223372036854775000", "distance_mm = 9223372036854775000")])
    func anAbsurdMinuteIsDamageWithItsRow(_ assignment: String, _ shown: String) throws {
        let dir = try TempDir(); defer { dir.cleanUp() }
        let path = dir.path("h.sqlite")
        do {
            let store = try HistoryStore(path: path, bootID: "b")
            var pedometer = FakePedometer()
            store.record(pedometer.steps([10, 70, 130]), snapshot: pedometer.snapshot, mapping: mapping(boot0: "2026-06-15T08:00:00Z"))
            try store.commit()
        }
        do {
            let raw = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE)
            try raw.execute("PRAGMA ignore_check_constraints = 1; UPDATE minutes SET \(assignment)")
        }
        let store = try HistoryStore(readingFrom: path)
        let firstMinute = WallMinute.index(of: date("2026-06-15T08:00:00Z"))
        // 08:00 to 08:03: three minutes, no whole hour, so the minutes are summed.
        let error = try #require(throws: HistoryError.self) {
            try store.totals(from: date("2026-06-15T08:00:00Z"), to: date("2026-06-15T08:03:00Z"))
        }
        #expect(error == .implausibleValue(path: path, table: "minutes", key: firstMinute, column: String(shown.prefix { $0 != " " }),
                                           value: String(shown.split(separator: " ").last!)))
        #expect(error.description.contains("minute 2026-06-15T08:00:00Z (minutes row minute = \(firstMinute)) holds \(shown)"), "\(error)")
        #expect(error.fix?.contains("DELETE FROM minutes WHERE minute = \(firstMinute); DELETE FROM hours WHERE hour = \(firstMinute / 60)") == true, "\(error.fix ?? "")")
        #expect(error.exitStatus == .usage)
    }
}

/// Text a history file or SQLite gives goes through the project's one escaper (IMUCore's
/// `escapedValue`): an escape sequence is shown as `\x1B`, the same as in every other message
/// (HistoryError had an escaper of its own that printed "?").
@Suite struct HistoryErrorTextTests {
    @Test func fileTextIsEscapedAsEverywhereElse() {
        let error = HistoryError.foreignDatabase(path: "/tmp/h.sqlite", detail: "table \u{1B}]0;owned\u{7}x")
        #expect(error.description.contains(#"table \x1B]0;owned\x07x"#))
        let long = HistoryError.corrupt(path: "/tmp/h.sqlite", detail: String(repeating: "d", count: 500))
        #expect(long.description.contains(String(repeating: "d", count: String.quotedValueLimit) + "…)"))
    }
}
