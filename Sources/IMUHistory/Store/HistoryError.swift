import FoundationEssentials
import IMUCore

/// Why a history file could not be opened or written. Every case names the file and the fix;
/// none of them ever leads to the file being overwritten.
public enum HistoryError: DiagnosableError, Equatable {
    /// The file exists but is not a SQLite database (wrong header).
    case notADatabase(path: String)
    /// A SQLite database of another program (its application id or tables are not IMUKit's).
    case foreignDatabase(path: String, detail: String)
    /// An IMUKit history that SQLite reports as damaged.
    case corrupt(path: String, detail: String)
    /// A row of `table` (minutes or hours) keyed `key` (minutes or hours since 1970, UTC) holds in
    /// `column` a value no write of IMUKit makes (`value` as SQL text: negative, above 10¹², or no
    /// integer): a hand-edited or damaged file. Reported, never clamped into a total.
    case implausibleValue(path: String, table: String, key: Int64, column: String, value: String)
    /// Minutes of boot `bootID` held for the wall clock that cannot be placed on a date when it
    /// became known: a boot minute more than 2⁴⁰ minutes from boot, or a value no minute can hold
    /// (a hand-edited or damaged file). Left in the file, in no total; never thrown, it
    /// is reported (imu-stepd's journal).
    case unplaceableMinutes(path: String, bootID: String, count: Int, firstBootMinute: Int64)
    /// Written by a newer IMUKit (schema version above what this build knows).
    case newerSchema(path: String, found: Int, supported: Int)
    /// A read-only open found an older schema that needs the writer to migrate it first.
    case needsMigration(path: String, found: Int, supported: Int)
    /// The file or its directory cannot be opened (permission, missing directory, a directory at the path).
    case cannotOpen(path: String, detail: String)
    /// The path names a FIFO, a device or a socket (`kind`), not a file: opening a FIFO waited
    /// forever for a writer, and `/dev/zero` was offered the fix "mv /dev/zero …".
    case notAFile(path: String, kind: String)
    /// The disk is full: the minutes stay buffered in memory and the next commit retries; nil
    /// when nothing was buffered because the history could not even be opened (at start).
    case diskFull(path: String, bufferedMinutes: Int?)
    /// Any other SQLite failure while reading or writing.
    case io(path: String, detail: String)
    /// Another process writes this history (its lock file is held).
    case inUse(path: String)
    /// A retention of zero or fewer days.
    case invalidRetention(days: Int)
    /// SQLite (libsqlite3.so.0, loaded on first use) cannot be loaded: the loader's reason.
    case libraryMissing(detail: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path.escapedOnOneLine) is not an IMUKit history: it is not a SQLite database; it was left untouched"
        case .foreignDatabase(let path, let detail):
            "\(path.escapedOnOneLine) is a SQLite database of another program (\(detail.escapedValue)); it was left untouched"
        case .corrupt(let path, let detail):
            "the history \(path.escapedOnOneLine) is damaged (\(detail.escapedValue)); it was left untouched"
        case .implausibleValue(let path, let table, let key, let column, let value):
            "the history \(path.escapedOnOneLine) is damaged: the \(Self.rowName(table, key)) holds \(column) = \(value.escapedValue), "
                + "which no minute or hour can hold (0 to 10¹²); it was left untouched"
        case .unplaceableMinutes(let path, _, let count, let first):
            "the history \(path.escapedOnOneLine) holds \(counted(count, "minute")) counted before the wall clock was set that cannot be placed on a date "
                + "(the first: boot minute \(first) of this boot; a minute no date holds, or a value no minute can hold): "
                + "\(count == 1 ? "it is" : "they are") in no total and left in the file"
        case .newerSchema(let path, let found, let supported):
            "the history \(path.escapedOnOneLine) has schema version \(found); this IMUKit reads up to version \(supported)"
        case .needsMigration(let path, 0, _):
            // An empty file (or a database without tables): "schema version 0; start imu-stepd
            // once: it migrates the file in place" sent the user of `--history notes.txt` to a
            // daemon that would never touch that file.
            "\(path.escapedOnOneLine) holds no history: it is empty (no IMUKit writer has made its tables); nothing was read or changed"
        case .needsMigration(let path, let found, let supported):
            "the history \(path.escapedOnOneLine) has schema version \(found); reading needs version \(supported)"
        case .cannotOpen(let path, let detail):
            "cannot open the history \(path.escapedOnOneLine): \(detail.escapedValue)"
        case .notAFile(let path, let kind):
            "\(path.escapedOnOneLine) is \(kind), not a history file; nothing was read or changed"
        case .diskFull(let path, let buffered?):
            "the disk holding \(path.escapedOnOneLine) is full: \(counted(buffered, "minute")) \(buffered == 1 ? "is" : "are") kept in memory and written when space returns"
        case .diskFull(let path, nil):
            // It said "0 minutes are kept in memory and written when space returns" as imu-stepd exited.
            "the disk holding \(path.escapedOnOneLine) is full: SQLite cannot open or create the history there, so nothing is counted into it; nothing was changed"
        case .io(let path, let detail):
            "cannot read or write the history \(path.escapedOnOneLine): \(detail.escapedValue)"
        case .inUse(let path):
            "the history \(path.escapedOnOneLine) is being written by another process (its lock \(path.escapedOnOneLine).lock is held); two writers would count every step twice"
        case .libraryMissing(let detail):
            "cannot load SQLite for the history: \(detail.escapedValue)"
        case .invalidRetention(let days):
            "a history retention of \(days) days is not possible: keep at least 1 day, or leave it unset to keep everything"
        }
    }

    public var fix: String? {
        switch self {
        case .notADatabase(let path), .foreignDatabase(let path, _):
            "move it away (mv \(path.escapedOnOneLine) \(path.escapedOnOneLine).not-imukit) or configure another history path; a new history is created there"
        case .corrupt(let path, _):
            "move it aside (mv \(path.escapedOnOneLine) \(path.escapedOnOneLine).damaged) and restart to begin a new history; "
                + "`sqlite3 \(path.escapedOnOneLine).damaged .recover | sqlite3 \(path.escapedOnOneLine)` may rescue most minutes first"
        case .implausibleValue(let path, let table, let key, _, _):
            "stop its writer (sudo systemctl stop imu-stepd), then remove the row and rebuild its hour from the minutes: sqlite3 \(path.escapedOnOneLine) \""
                + (table == "minutes" ? "DELETE FROM minutes WHERE minute = \(key); " : "")
                + Self.rebuildHour(table == "minutes" ? HistoryStore.floorDivide(key, HistoryTime.minutesPerHour) : key)
                + "\"; or move the file aside (mv \(path.escapedOnOneLine) \(path.escapedOnOneLine).damaged) to begin a new history"
        case .unplaceableMinutes(let path, let bootID, _, _):
            "look at them (sqlite3 \(path.escapedOnOneLine) \"SELECT * FROM unplaced_minutes WHERE boot_id = '\(bootID.escapedOnOneLine)'\"); "
                + "with the writer stopped, remove them: sqlite3 \(path.escapedOnOneLine) \"DELETE FROM unplaced_minutes WHERE boot_id = '\(bootID.escapedOnOneLine)'\""
        case .newerSchema:
            "update IMUKit to the version that wrote it, or move the file aside to begin a new history"
        case .needsMigration(_, 0, _):
            "name imu-stepd's history (it keeps it as /var/lib/imu-stepd/history.sqlite) or a copy of it; a history path just configured gets its tables when imu-stepd starts"
        case .needsMigration:
            "start imu-stepd (or any writer) once: it migrates the file in place"
        case .notAFile:
            "name the history file itself (imu-stepd keeps it as /var/lib/imu-stepd/history.sqlite)"
        case .cannotOpen(let path, let detail) where detail == "permission denied":
            "give this user access to it (ls -l \(path.escapedOnOneLine); sudo chmod a+r \(path.escapedOnOneLine) to read it), or name a copy of it that this user owns"
        case .cannotOpen(let path, let detail) where detail == "it is a directory":
            "name the history file inside it (e.g. \(path.escapedOnOneLine)/history.sqlite), not the directory"
        case .cannotOpen(let path, let detail) where detail == HistoryError.readOnlyFileSystem:
            "give the history a path on a writable file system (imu-stepd: database = or state_directory = in stepd.conf), "
                + "or remount it read-write (findmnt -T \(HistoryError.directory(of: path).escapedOnOneLine) shows how it is mounted)"
        case .cannotOpen(let path, _):
            "check that the directory of \(path.escapedOnOneLine) exists and is writable by this user (for imu-stepd: StateDirectory)"
        case .diskFull(_, _?):
            "free some space on that file system"
        case .diskFull(let path, nil):
            "free some space on the file system of \(path.escapedOnOneLine) (df \(HistoryError.directory(of: path).escapedOnOneLine)), then start again (imu-stepd: sudo systemctl restart imu-stepd)"
        case .io:
            nil
        case .inUse:
            "stop the other writer first (systemctl stop imu-stepd), or give this one another history path"
        case .invalidRetention:
            "set the retention to 1 or more days"
        case .libraryMissing:
            "install it: sudo apt install libsqlite3-0"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .notADatabase, .foreignDatabase, .corrupt, .implausibleValue, .unplaceableMinutes, .newerSchema, .needsMigration, .invalidRetention, .notAFile: .usage
        // Permission denied is 3, as docs/CONTRACTS.md §4 says (it was 1).
        case .cannotOpen(_, let detail) where detail == "permission denied": .noSensor
        // A directory named as the history is a bad file, 2 like a FIFO or a device (it was 1).
        case .cannotOpen(_, let detail) where detail == "it is a directory": .usage
        case .cannotOpen, .diskFull, .io, .inUse, .libraryMissing: .runtimeFailure
        }
    }

    /// The `cannotOpen` detail for a history on a file system mounted read-only (EROFS).
    static let readOnlyFileSystem = "its file system is mounted read-only"

    /// "minute 2026-12-01T07:05:00Z (minutes row minute = 29412345)", or the hour's. A key a
    /// damaged file holds may be any Int64, Int64.min included (`abs` would trap on it): it is
    /// dated only when its minute is inside `datedMinutes`, by magnitude.
    static func rowName(_ table: String, _ key: Int64) -> String {
        let (minutes, overflow) = table == "minutes" ? (key, false) : key.multipliedReportingOverflow(by: HistoryTime.minutesPerHour)
        let when = !overflow && minutes.magnitude < HistoryTime.datedMinutes.magnitude
            ? Date(timeIntervalSince1970: Double(minutes) * HistoryTime.secondsPerMinute).formatted(.iso8601) + " " : ""
        return table == "minutes" ? "minute \(when)(minutes row minute = \(key))" : "hour \(when)(hours row hour = \(key))"
    }

    /// The directory part of `path` ("." for a bare name).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// SQL that recomputes the hour sums of `hour` from its minutes.
    static func rebuildHour(_ hour: Int64) -> String {
        "DELETE FROM hours WHERE hour = \(hour); INSERT INTO hours SELECT minute / 60, sum(steps), sum(distance_mm), "
            + "sum(floors_up), sum(floors_down), sum(active_ms) FROM minutes WHERE minute / 60 = \(hour) GROUP BY 1"
    }
}
