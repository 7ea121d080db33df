/// The history's schema: an application id that marks the file as IMUKit's, and numbered
/// migrations. `PRAGMA user_version` holds the number of the last migration applied; opening a
/// file applies the missing ones in order, each in its own transaction.
enum Schema {
    /// `PRAGMA application_id` of every IMUKit history: "IMUH" in ASCII. A SQLite file with another
    /// id, or with id 0 and tables of its own, belongs to another program and is refused.
    static let applicationID: Int64 = 0x494D_5548

    /// Migration n (1-based) brings the schema from version n-1 to n. Never edit a published one;
    /// append a new one.
    static let migrations: [String] = [
        // 1: minute bins (UTC minutes since 1970), activity segments, pause/resume markers, and the
        // minutes recorded before the wall clock was synchronised, kept by boot id and boot minute.
        // Units: distance in mm and active time in ms, as integers (2-3 bytes each in SQLite's
        // record format instead of 8 for a REAL).
        """
        CREATE TABLE minutes(
            minute INTEGER PRIMARY KEY,
            steps INTEGER NOT NULL CHECK(steps >= 0),
            distance_mm INTEGER NOT NULL CHECK(distance_mm >= 0),
            floors_up INTEGER NOT NULL CHECK(floors_up >= 0),
            floors_down INTEGER NOT NULL CHECK(floors_down >= 0),
            active_ms INTEGER NOT NULL CHECK(active_ms >= 0));
        CREATE TABLE activities(
            start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
            activity TEXT NOT NULL, confidence TEXT NOT NULL);
        CREATE INDEX activities_by_end ON activities(end_ms);
        CREATE TABLE markers(time_ms INTEGER NOT NULL, kind TEXT NOT NULL);
        CREATE INDEX markers_by_time ON markers(time_ms);
        CREATE TABLE unplaced_minutes(
            boot_id TEXT NOT NULL, boot_minute INTEGER NOT NULL,
            steps INTEGER NOT NULL, distance_mm INTEGER NOT NULL, floors_up INTEGER NOT NULL,
            floors_down INTEGER NOT NULL, active_ms INTEGER NOT NULL,
            PRIMARY KEY(boot_id, boot_minute)) WITHOUT ROWID;
        CREATE TABLE unplaced_events(
            boot_id TEXT NOT NULL, kind TEXT NOT NULL, start_boot REAL NOT NULL, end_boot REAL NOT NULL,
            activity TEXT, confidence TEXT);
        """,
        // 2: hourly sums beside the minutes, so that a year's query reads 8 760 hour rows plus at
        // most 118 edge minutes instead of 525 600 minutes (docs/history.md, "Queries").
        """
        CREATE TABLE hours(
            hour INTEGER PRIMARY KEY,
            steps INTEGER NOT NULL, distance_mm INTEGER NOT NULL, floors_up INTEGER NOT NULL,
            floors_down INTEGER NOT NULL, active_ms INTEGER NOT NULL);
        INSERT INTO hours SELECT minute / 60, sum(steps), sum(distance_mm), sum(floors_up), sum(floors_down),
            sum(active_ms) FROM minutes GROUP BY minute / 60;
        """,
    ]

    static var version: Int { migrations.count }

    /// Tables every IMUKit history has from version 1 on (to tell an unmarked foreign file apart).
    static let firstTables: Set<String> = ["minutes", "activities", "markers", "unplaced_minutes", "unplaced_events"]
}
