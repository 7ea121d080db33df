import Foundation
import OffPool
import Testing

/// Session 18's sweep of bad input, as a careless user gives it: each case here fell short of the
/// project's standard (a clear message naming the thing and the fix, exit codes per
/// docs/CONTRACTS.md §4).
@Suite(.offPool) struct BadInputSweep18Tests {
    /// `imu-plot --day --history EMPTY`: an empty file said "schema version 0; reading needs
    /// version 2", fix "start imu-stepd once: it migrates the file in place" (imu-stepd never
    /// touches a file it is not configured with).
    @Test func anEmptyFileNamedAsTheHistoryIsCalledEmpty() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = dir + "/notes.txt"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let r = try ToolRunner.run("imu-plot", ["--day", "--history", empty, "-o", dir + "/day.html"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(empty) holds no history: it is empty"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: name imu-stepd's history (it keeps it as /var/lib/imu-stepd/history.sqlite) or a copy of it"), "\(r.stderr)")
        #expect(!r.stderr.contains("migrates"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/day.html"))
        #expect((try? Data(contentsOf: URL(fileURLWithPath: empty)))?.isEmpty == true, "the file was left untouched")
    }

    /// A directory named as the history is a bad file: exit 2, as a FIFO or a device is (it was 1,
    /// "runtime failure").
    @Test func aDirectoryNamedAsTheHistoryIsAUsageError() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-plot", ["--day", "--history", dir, "-o", dir + "/day.html"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("it is a directory") && r.stderr.contains("  fix: name the history file inside it"), "\(r.stderr)")
    }

    /// `--stride 1.8:1e400,2:0.8` (two pairs, one not two numbers) was told "write two pairs
    /// separated by a comma".
    @Test(arguments: [("1.8:1e400,2:0.8", "1.8:1e400"), ("1.8:0.7,fast:0.8", "fast:0.8"), ("1.8,2:0.8", "1.8")])
    func aStridePaceThatIsNotTwoNumbersIsNamed(stride: String, pair: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--stride", stride, "--simulate", "walk:1", "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--stride: '\(pair)' is not CADENCE:METRES (two plain numbers, steps/s and metres per step)"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: write that pace as two numbers, e.g. 1.8:0.72"), "\(r.stderr)")
        #expect(!r.stderr.contains("separated by a comma"), "\(r.stderr)")
    }

    /// A header of known columns without `t` was told "add a first line naming the columns" though
    /// it has one; a time column named as phone apps name it ("time", "timestamp") was not named.
    @Test(arguments: [
        ("time,ax,ay,az\n0,0,0,1\n", "the time column is named 'time', not t", "rename 'time' to t in line 1; t is in seconds"),
        ("# phone\nTimestamp,ax,ay,az\n0,0,0,1\n", "the time column is named 'Timestamp', not t", "rename 'Timestamp' to t in line 2"),
        ("ax,ay,az\n0,0,1\n", "header has no 't' column (found: ax,ay,az)", "add t, each sample's time in seconds, to line 1 and to every row"),
    ])
    func aHeaderWithoutTNamesTheFix(text: String, message: String, fix: String) throws {
        let path = try ToolRunner.temporaryFile("phone.csv", text)
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: \(fix)"), "\(r.stderr)")
        #expect(!r.stderr.contains("add a first line"), "\(r.stderr)")
    }

    /// A non-UTF-8 argument was always told "rename the file", even when it was an option
    /// (`--\xffjson`) or a scenario (`--simulate $'walk:\xff'`), and `--replay=\xff.csv` was told
    /// to `mv -- $'--replay=\xFF.csv'`, a file of another name.
    @Test func aNonUTF8ArgumentsFixFitsWhatItIs() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ShellRunner.run("""
            "$BIN/imu-steps" --simulate "$(printf 'walk:\\377')" --json; echo "value=$?" >&2
            "$BIN/imu-steps" "$(printf -- '--\\377json')"; echo "option=$?" >&2
            "$BIN/imu-steps" "$(printf -- '--replay=\\377.csv')"; echo "equals=$?" >&2
            """, directory: dir)
        for status in ["value=2", "option=2", "equals=2"] { #expect(r.stderr.contains(status), "\(r.stderr)") }
        #expect(r.stderr.contains("  fix: retype the value of --simulate as UTF-8 text"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: retype the option: options are plain ASCII (e.g. --json); 'imu-steps --help' lists them"), "\(r.stderr)")
        #expect(r.stderr.contains(#"mv -- $'\xFF.csv' new-name"#), "\(r.stderr)")
        #expect(!r.stderr.contains("mv -- $'--"), "\(r.stderr)")
        #expect(r.stderr.components(separatedBy: "rename the file").count == 2, "only the file is to be renamed: \(r.stderr)")
    }

    /// `imu-plot --to 0` (no --from) drew a plot of no time and said "wrote x.svg"; `--from 20
    /// --to 20` was already refused.
    @Test(arguments: ["0", "0:00"])
    func aPlotEndingAtTheFirstSampleIsRefused(to: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-plot", ["--simulate", "walk:5", "--to", to, "-o", dir + "/x.svg"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--to \(to) is the first sample: the view would hold no time"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: give --to a time after the start"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.svg"))
    }

    /// `imu-calibrate --reset --key A --source B` deleted A's calibration and ignored B (the usage
    /// says `[--key KEY | --source SPEC]`): refused before anything is removed.
    @Test(arguments: ["--reset", "--show"])
    func showOrResetWithKeyAndSourceIsRefused(mode: String) throws {
        let home = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let saved = home + "/.config/imukit/calibration/a.json"
        try FileManager.default.createDirectory(atPath: home + "/.config/imukit/calibration", withIntermediateDirectories: true)
        try "{}".write(toFile: saved, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", [mode, "--key", "a", "--source", "i2c:1@0x68"],
                                   environment: ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("--key and --source cannot be used together"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: keep one: --key KEY or --source SPEC"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: saved), "the calibration of key a is kept")
    }

    /// A recording whose t was written in milliseconds (10 ms read as 10 s) gave 0 steps without a
    /// word: a silent zero. The note names the rate and the likely unit slip; a 25 Hz recording,
    /// the slowest the contract names, gets no note.
    @Test func aRecordingTooSlowForStepsIsSaid() throws {
        var ms = "t,ax,ay,az\n", hz25 = "t,ax,ay,az\n"
        for i in 0..<300 {
            ms += "\(i * 10),0,0,1\n"
            hz25 += "\(Double(i) * 0.04),0,0,1\n"
        }
        let slow = try ToolRunner.run("imu-steps", ["--replay", try ToolRunner.temporaryFile("ms.csv", ms), "--json"])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stderr.contains("ms.csv: its samples are 10 s apart on average (0.1 Hz), too far apart to see a step"), "\(slow.stderr)")
        #expect(slow.stderr.contains("if it was written in milliseconds, divide it by 1000"), "\(slow.stderr)")
        let fine = try ToolRunner.run("imu-steps", ["--replay", try ToolRunner.temporaryFile("hz25.csv", hz25), "--json"])
        #expect(fine.status == 0 && !fine.stderr.contains("apart on average"), "\(fine.stderr)")
    }
}
