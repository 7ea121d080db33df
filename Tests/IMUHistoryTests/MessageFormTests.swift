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
