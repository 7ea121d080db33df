import Testing
@testable import IMUHistory

/// ToolMain escapes a message for the terminal but keeps its newlines: a history path with a
/// newline (from --history or stepd.conf) printed a fake "  fix:" line. Every case shows its path
/// (and the file's boot id) escaped on one line, as ConfigError does (`escapedOnOneLine`).
@Suite struct HistoryPathOneLineTests {
    @Test func everyCaseNamesThePathOnOneLine() {
        let path = "/tmp/h\n  fix: rm -rf ~.sqlite"
        let errors: [HistoryError] = [
            .notADatabase(path: path), .foreignDatabase(path: path, detail: "x"), .corrupt(path: path, detail: "x"),
            .implausibleValue(path: path, table: "minutes", key: 29_412_345, column: "steps", value: "-1"),
            .unplaceableMinutes(path: path, bootID: "b\nc", count: 2, firstBootMinute: 1 << 41),
            .newerSchema(path: path, found: 9, supported: 1), .needsMigration(path: path, found: 0, supported: 1),
            .needsMigration(path: path, found: 1, supported: 2), .cannotOpen(path: path, detail: "permission denied"),
            .cannotOpen(path: path, detail: "it is a directory"), .cannotOpen(path: path, detail: HistoryError.readOnlyFileSystem),
            .cannotOpen(path: path, detail: "x"), .notAFile(path: path, kind: "a character device"),
            .diskFull(path: path, bufferedMinutes: 3), .diskFull(path: path, bufferedMinutes: nil), .io(path: path, detail: "x"),
            .inUse(path: path),
        ]
        for error in errors {
            #expect(!error.description.contains("\n") && error.fix?.contains("\n") != true, "\(error.description)\n\(error.fix ?? "")")
            #expect(error.description.contains("/tmp/h\\n  fix: rm -rf ~.sqlite"), "\(error.description)")
        }
    }
}
