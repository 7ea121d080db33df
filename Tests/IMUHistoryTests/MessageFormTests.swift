import Testing
@testable import IMUHistory

/// The history's messages are formed as every other tool's: `TOOL: message` and `  fix: …`, with
/// no full stop at the end of either and no second sentence (". It was left untouched."): they
/// ended in "." unlike the recording's, the sensors' and the options' messages.
@Suite struct MessageFormTests {
    static let path = "/var/lib/imu-stepd/history.sqlite"
    static let every: [HistoryError] = [
        .notADatabase(path: path), .foreignDatabase(path: path, detail: "tables contacts"),
        .corrupt(path: path, detail: "database disk image is malformed"),
        .implausibleValue(path: path, table: "minutes", key: 29_412_345, column: "steps", value: "-5"),
        .implausibleValue(path: path, table: "hours", key: 490_205, column: "steps", value: "1e13"),
        .unplaceableMinutes(path: path, bootID: "b", count: 2, firstBootMinute: 1 << 41),
        .newerSchema(path: path, found: 9, supported: 2), .needsMigration(path: path, found: 0, supported: 2),
        .needsMigration(path: path, found: 1, supported: 2), .cannotOpen(path: path, detail: "permission denied"),
        .cannotOpen(path: path, detail: "it is a directory"), .cannotOpen(path: path, detail: "no such file or directory"),
        .notAFile(path: path, kind: "a FIFO"), .diskFull(path: path, bufferedMinutes: 3), .diskFull(path: path, bufferedMinutes: nil),
        .io(path: path, detail: "disk I/O error"), .inUse(path: path), .invalidRetention(days: 0),
        .libraryMissing(detail: "libsqlite3.so.0: cannot open shared object file"),
    ]

    @Test(arguments: every)
    func noMessageOrFixEndsInAFullStop(error: HistoryError) {
        #expect(!error.description.hasSuffix("."), "\(error.description)")
        #expect(!error.description.contains(". "), "a second sentence: \(error.description)")
        if let fix = error.fix { #expect(!fix.hasSuffix("."), "fix: \(fix)") }
    }
}

/// A damaged row's key is shown as it is, whatever Int64 the file holds: `abs(Int64.min)` trapped
/// in `rowName`, so a history whose minutes row held -9223372036854775808 crashed the tool that
/// meant to name it.
@Suite struct RowNameRangeTests {
    @Test(arguments: [("minutes", Int64.min), ("minutes", Int64.max), ("hours", Int64.min), ("hours", Int64.max),
                      ("hours", HistoryTime.datedMinutes / HistoryTime.minutesPerHour + 1)])
    func anyKeyIsNamedWithoutADate(table: String, key: Int64) {
        let name = HistoryError.rowName(table, key)
        #expect(name.hasSuffix("= \(key))"), "\(name)")
        #expect(!name.contains("T"), "a key outside the dated range got a date: \(name)")
    }

    @Test func aPlausibleMinuteIsDated() {
        #expect(HistoryError.rowName("minutes", 29_412_345) == "minute 2025-12-03T05:45:00Z (minutes row minute = 29412345)")
    }
}
