import Foundation
import OffPool
import Testing

/// A history whose rows were edited by hand to absurd values: the totals were clamped to 10¹²
/// (or summed with a negative hour) and drawn without a word. Now the file is named as damaged,
/// with the row and the fix, exit 2 like other damage (docs/CONTRACTS.md §4), and left untouched.
@Suite(.offPool, .serialized) struct DayHistoryDamageTests {
    @Test(arguments: ["steps = 1000000000000000", "steps = -5", "active_ms = 'lots'", "floors_up = 9223372036854775807"])
    func anImplausibleHourIsReportedAsDamage(_ assignment: String) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
            print("skipped: the sqlite3 command (Debian package sqlite3) is needed to tamper with the file"); return
        }
        let dir = try BuiltTool.temporaryDirectory()
        let (history, _) = try DayToolTests.makeHistory(dir)
        let edit = try BuiltTool.runExecutable("/usr/bin/sqlite3", [history, "UPDATE hours SET \(assignment); SELECT hour FROM hours ORDER BY hour LIMIT 1"], timeout: 60)
        #expect(edit.status == 0, "sqlite3: \(edit.stderr)")
        let hour = try #require(Int64(edit.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        let before = FileManager.default.contents(atPath: history)
        let page = dir.appendingPathComponent("day.html").path
        let r = try BuiltTool.run("imu-plot", ["--day", "2026-12-01", "--history", history, "-o", page], environment: DayToolTests.environment)
        #expect(r.status == 2, "imu-plot: \(r.stderr)")
        #expect(r.stderr.contains("the history \(history) is damaged: the hour "), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("(hours row hour = \(hour)) holds \(assignment), which no minute or hour can hold"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: stop its writer"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("DELETE FROM hours WHERE hour = \(hour); INSERT INTO hours SELECT"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page), "no page drawn from a damaged file")
        #expect(FileManager.default.contents(atPath: history) == before, "the file was left untouched")
        // The fix, run as given, mends the file: the day is drawn again with its true total.
        let fix = try #require(r.stderr.components(separatedBy: "sqlite3 \(history) \"").last?.components(separatedBy: "\"").first)
        let mended = try BuiltTool.runExecutable("/usr/bin/sqlite3", [history, fix], timeout: 60)
        #expect(mended.status == 0, "sqlite3: \(mended.stderr)")
        let again = try BuiltTool.run("imu-plot", ["--day", "2026-12-01", "--history", history, "-o", page], environment: DayToolTests.environment)
        #expect(again.status == 0, "imu-plot: \(again.stderr)")
    }
}
