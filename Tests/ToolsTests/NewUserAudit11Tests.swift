import Foundation
import OffPool
import Testing

/// Defects the session-11 audit found, each tried on the built tools as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool, .serialized) struct NewUserAudit11Tests {
    /// `imu-steps --replay - --json` called standard input "standard input" in its messages and
    /// "recording -" in the summary's `source`: one thing, two names. Both now say "standard input".
    @Test func theSummaryNamesStandardInputAsTheMessagesDo() throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<500 { text += String(format: "%.2f,0,0,1\n", Double(i) * 0.02) }   // 10 s lying still at 50 Hz
        try text.write(toFile: dir + "/still.csv", atomically: true, encoding: .utf8)
        let r = try ShellRunner.run(#""$BIN/imu-steps" --replay - --json < still.csv"#, directory: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let summary = try #require(try jsonObjects(r).last)
        #expect(summary["source"] as? String == "recording standard input", "\(summary)")
        let bad = try ShellRunner.run(#"printf 't,ax,ay,az\n0,0,0,1\n0.02,0,x,1\n' | "$BIN/imu-steps" --replay - --json"#, directory: dir)
        #expect(bad.status == 2 && bad.stderr.contains("imu-steps: standard input:3: "), "stderr: \(bad.stderr)")
    }

    /// Every shipped tool parses with the one parser, so each decides a repeated option the same
    /// way: a flag twice is what it is once (`--help --help`), a value given twice with different
    /// values is a usage error naming both (which one was meant cannot be known).
    @Test func everyToolRefusesAValueGivenTwiceAndTakesAFlagTwice() throws {
        let tools = ShippedTools.names
        #expect(tools.count >= 6, "make print-tools: \(tools)")
        for tool in tools {
            let help = try ToolRunner.run(tool, ["--help"])
            let valued = help.stdout.firstMatch(of: /\n  (?:-\S, | {4})--([a-z0-9-]+) [A-Z]/).map { String($0.1) }
            let option = try #require(valued, "\(tool) --help lists no option with a value")
            let r = try ToolRunner.run(tool, ["--\(option)", "first", "--\(option)=second"], timeout: 30)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("\(tool): --\(option) given twice ('first' and 'second'); give it once"), "\(tool): \(r.stderr)")
            let twice = try ToolRunner.run(tool, ["--help", "-h"], timeout: 30)
            #expect(twice.status == 0 && twice.stdout == help.stdout, "\(tool): \(twice.stderr)")
        }
    }

    /// A recording with a header and no sample: imu-steps said "FILE: the recording has no
    /// samples", imu-plot said it without naming the file, and imu-record replayed it as
    /// "recorded 0 samples", exit 0, leaving a recording of nothing at --out. All three now name
    /// the file (or standard input) and exit 2; imu-record leaves nothing behind.
    @Test func aHeaderOnlyRecordingIsNamedByEveryTool() throws {
        let dir = try scratchDirectory()
        try "# imukit recording\nt,ax,ay,az\n".write(toFile: dir + "/header.csv", atomically: true, encoding: .utf8)
        let runs: [(String, [String], String)] = [
            ("imu-steps", ["--replay", "header.csv", "--json"], "count"),
            ("imu-plot", ["--replay", "header.csv", "-o", "p.svg"], "plot"),
            ("imu-record", ["--replay", "header.csv", "--speed", "max", "-o", "copy.csv"], "record"),
        ]
        for (tool, args, purpose) in runs {
            let r = try ToolRunner.run(executable: ToolRunner.path(tool), args, directory: dir)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.hasPrefix("\(tool): header.csv: the recording has no samples (only a header): there is nothing to \(purpose)\n  fix: "),
                    "\(tool): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/copy.csv") && !FileManager.default.fileExists(atPath: dir + "/p.svg"))
        let piped = try ShellRunner.run(#"printf 't,ax,ay,az\n' | "$BIN/imu-plot" --replay - -o p.svg"#, directory: dir)
        #expect(piped.status == 2 && piped.stderr.contains("imu-plot: standard input: the recording has no samples"), "\(piped.stderr)")
    }

    /// `imu-record -o /dev/null` (a trial that keeps nothing) was refused as "already exists; add
    /// --force", and with --force, like `-o FIFO`, failed after the last sample with "fsync failed:
    /// Invalid argument" (exit 1): neither has anything to synchronise. A FIFO's reader gets
    /// every line; /dev/full still says the disk is full (exit 1). A disk or other device still
    /// needs --force.
    @Test func imuRecordWritesToDevNullAndAFIFO() throws {
        let dir = try scratchDirectory()
        let null = try ToolRunner.run("imu-record", ["--simulate", "walk:5", "--speed", "max", "-o", "/dev/null"])
        #expect(null.status == 0 && null.stderr.contains("recorded 500 samples"), "\(null.stderr)")
        var st = stat()
        #expect(stat("/dev/null", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR, "/dev/null is still the device")
        let fifo = try ShellRunner.run(#"""
            mkfifo pipe && { cat pipe > got.csv & } && "$BIN/imu-record" --simulate walk:2 --speed max -q -o pipe; status=$?; wait; echo $status
            """#, directory: dir)
        #expect(fifo.stdout == "0\n", "\(fifo.stderr)")
        let got = try String(contentsOfFile: dir + "/got.csv", encoding: .utf8)
        #expect(got.split(separator: "\n").filter { $0.first?.isNumber == true }.count == 200, "every sample of 2 s at 100 Hz")
        let full = try ToolRunner.run("imu-record", ["--simulate", "walk:5", "--speed", "max", "-o", "/dev/full"])
        #expect(full.status == 1 && full.stderr.contains("/dev/full: write failed: No space left on device"), "\(full.stderr)")
    }

    /// A spreadsheet set to a decimal comma exports "t;ax;ay;az" and "0,5;0,1"; other tools write
    /// tabs. Both were "header has no 't' column (found: t;ax;ay;az)" with the fix "add a first
    /// line naming the columns", which the file has. Now the separator is named, and the command
    /// the fix gives converts the file into one every tool reads.
    @Test(arguments: [("t;ax;ay;az\n0;0;0,5;1\n0,02;0;0,5;1\n", "';'"), ("t\tax\tay\taz\n0\t0\t0.5\t1\n0.02\t0\t0.5\t1\n", "tabs")])
    func anotherSeparatorIsNamedAndItsFixRuns(_ text: String, _ separator: String) throws {
        let dir = try scratchDirectory()
        try text.write(toFile: dir + "/my export.csv", atomically: true, encoding: .utf8)
        for tool in ["imu-steps", "imu-plot"] {
            let args = ["--replay", "my export.csv"] + (tool == "imu-plot" ? ["-o", "p.svg"] : [])
            let r = try ToolRunner.run(executable: ToolRunner.path(tool), args, directory: dir)
            #expect(r.status == 2 && r.stderr.contains("my export.csv:1: columns are separated by \(separator), not commas"), "\(tool): \(r.stderr)")
        }
        let r = try ToolRunner.run(executable: ToolRunner.path("imu-steps"), ["--replay", "my export.csv"], directory: dir)
        let command = try #require(r.stderr.components(separatedBy: "e.g. ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let fixed = try ShellRunner.run(command + #" && "$BIN/imu-steps" --replay fixed.csv --json"#, directory: dir)
        #expect(fixed.status == 0, "\(command): \(fixed.stderr)")
        #expect(try jsonObjects(fixed).last?["duration_s"] as? Double == 0.02, "\(fixed.stdout)")
    }

    /// `imu-plot -o /dev/full` was told to "choose a writable place with -o": the place was
    /// writable, the space was missing. Exit 1 with the fix that fits; since session 21 that fix
    /// says /dev/full is a device (it said "free space on the disk", which a device has none of;
    /// a file on a full disk still gets that one).
    @Test func imuPlotOnAFullDiskSaysSpace() throws {
        let r = try ToolRunner.run("imu-plot", ["--simulate", "walk:10", "-o", "/dev/full"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr == "imu-plot: cannot write /dev/full: No space left on device\n"
                    + "  fix: /dev/full is a character device, not a file on disk: write the plot to a file with -o, e.g. -o /tmp/plot.svg\n",
                "\(r.stderr)")
    }
}
