/// The tables of totals: one row per minute, or per hour (the sums of its minutes).
enum HistoryTable: String {
    case minutes, hours
    /// The row's key column: minutes or hours since 1970-01-01T00:00Z.
    var key: String { self == .minutes ? "minute" : "hour" }
}

/// The history's prepared statements, compiled once per connection. Column order of every
/// totals row: steps, distance_mm, floors_up, floors_down, active_ms.
final class Statements {
    static let columnNames = ["steps", "distance_mm", "floors_up", "floors_down", "active_ms"]
    private static let columns = columnNames.joined(separator: ", ")
    /// The sums, then how many rows hold a value no minute or hour can hold (`implausible`).
    private static let sums = "sum(steps), sum(distance_mm), sum(floors_up), sum(floors_down), sum(active_ms), sum(\(implausible))"
    /// A row none of IMUKit's writes could make: a value that is no integer, below 0, or above
    /// `HistoryStore.largestValue` (only a hand-edited or damaged file holds one).
    private static let implausible = "NOT (" + columnNames
        .map { "(typeof(\($0)) = 'integer' AND \($0) BETWEEN 0 AND \(HistoryStore.largestValue))" }.joined(separator: " AND ") + ")"
    private static let addExcluded = """
        steps = steps + excluded.steps, distance_mm = distance_mm + excluded.distance_mm,
        floors_up = floors_up + excluded.floors_up, floors_down = floors_down + excluded.floors_down,
        active_ms = active_ms + excluded.active_ms
        """

    private let db: SQLiteConnection
    private var cache: [String: SQLiteStatement] = [:]

    init(_ db: SQLiteConnection) { self.db = db }

    /// The statement for `sql`, prepared at first use.
    private func statement(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        if let cached = cache[sql] { return cached }
        let made = try db.prepare(sql)
        cache[sql] = made
        return made
    }

    // Writing: upserts add to what a minute already holds, never overwrite it.
    func upsertMinute() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("INSERT INTO minutes(minute, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(minute) DO UPDATE SET \(Self.addExcluded)")
    }
    func upsertHour() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("INSERT INTO hours(hour, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(hour) DO UPDATE SET \(Self.addExcluded)")
    }
    func upsertUnplaced() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("INSERT INTO unplaced_minutes(boot_id, boot_minute, \(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?) "
                  + "ON CONFLICT(boot_id, boot_minute) DO UPDATE SET \(Self.addExcluded)")
    }
    func insertActivity() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("INSERT INTO activities(start_ms, end_ms, activity, confidence) VALUES (?, ?, ?, ?)")
    }
    func insertMarker() throws(SQLiteFailure) -> SQLiteStatement { try statement("INSERT INTO markers(time_ms, kind) VALUES (?, ?)") }
    func insertUnplacedEvent() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("INSERT INTO unplaced_events(boot_id, kind, start_boot, end_boot, activity, confidence) VALUES (?, ?, ?, ?, ?, ?)")
    }

    // Placing minutes that waited for the wall clock.
    func countUnplaced() throws(SQLiteFailure) -> SQLiteStatement { try statement("SELECT count(*) FROM unplaced_minutes WHERE boot_id = ?1") }
    func countAllUnplaced() throws(SQLiteFailure) -> SQLiteStatement { try statement("SELECT count(*) FROM unplaced_minutes") }
    func selectUnplaced() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("SELECT boot_minute, \(Self.columns), \(Self.implausible) FROM unplaced_minutes WHERE boot_id = ?")
    }
    func deleteUnplacedMinute() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("DELETE FROM unplaced_minutes WHERE boot_id = ? AND boot_minute = ?")
    }
    func countStranded() throws(SQLiteFailure) -> SQLiteStatement { try statement("SELECT count(*) FROM unplaced_minutes WHERE boot_id != ?1") }
    func selectUnplacedEvents() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("SELECT kind, start_boot, end_boot, activity, confidence FROM unplaced_events WHERE boot_id = ?")
    }
    func deleteUnplaced() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM unplaced_minutes WHERE boot_id = ?") }
    func deleteUnplacedEvents() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM unplaced_events WHERE boot_id = ?") }

    // Retention.
    func pruneMinutes() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM minutes WHERE minute < ?") }
    func pruneHours() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM hours WHERE hour < ?") }
    func pruneActivities() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM activities WHERE end_ms < ?") }
    func pruneMarkers() throws(SQLiteFailure) -> SQLiteStatement { try statement("DELETE FROM markers WHERE time_ms < ?") }

    // Queries (ranges inclusive).
    func sumMinutes() throws(SQLiteFailure) -> SQLiteStatement { try statement("SELECT \(Self.sums) FROM minutes WHERE minute BETWEEN ? AND ?") }
    func sumHours() throws(SQLiteFailure) -> SQLiteStatement { try statement("SELECT \(Self.sums) FROM hours WHERE hour BETWEEN ? AND ?") }
    /// The first row of `table` (minutes or hours) in a range whose values are implausible, with
    /// the values as SQLite holds them (`quote`: text stays text).
    func firstImplausible(in table: HistoryTable) throws(SQLiteFailure) -> SQLiteStatement {
        let values = Self.columnNames.map { "quote(\($0))" }.joined(separator: ", ")
        return try statement("SELECT \(table.key), \(values) FROM \(table.rawValue) WHERE \(table.key) BETWEEN ? AND ? AND \(Self.implausible) ORDER BY \(table.key) LIMIT 1")
    }
    func selectActivities() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("SELECT start_ms, end_ms, activity, confidence FROM activities WHERE end_ms > ?1 AND start_ms < ?2 ORDER BY start_ms")
    }
    func selectMarkers() throws(SQLiteFailure) -> SQLiteStatement {
        try statement("SELECT time_ms, kind FROM markers WHERE time_ms >= ?1 AND time_ms < ?2 ORDER BY time_ms")
    }
}
