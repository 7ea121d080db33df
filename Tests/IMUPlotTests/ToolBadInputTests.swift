import Foundation
import OffPool
import Testing

/// Bad input to imu-plot: a clear message, the contract's exit code (docs/CONTRACTS.md §4), and
/// never an empty or half-written file.
@Suite(.offPool) struct ToolBadInputTests {
    @Test func anEmptyRecordingIsAClearErrorAndWritesNothing() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let csv = dir.appendingPathComponent("empty.csv").path
        try "# imukit recording\nt,ax,ay,az\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let svg = dir.appendingPathComponent("empty.svg").path
        let r = try BuiltTool.run("imu-plot", ["--replay", csv, "-o", svg], environment: Recordings.cleanEnvironment(dir))
        #expect(r.status == 2)
        #expect(r.stderr.contains("no samples"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg))
    }

    @Test func aMalformedRecordingNamesFileAndLineAndKeepsTheOldPlot() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let csv = dir.appendingPathComponent("bad.csv").path
        try "t,ax,ay,az\n0.00,0,0,1\n0.01,0,zero,1\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let svg = dir.appendingPathComponent("old.svg").path
        try "<svg/>".write(toFile: svg, atomically: true, encoding: .utf8)
        let r = try BuiltTool.run("imu-plot", ["--replay", csv, "-o", svg], environment: Recordings.cleanEnvironment(dir))
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(csv):3:"), "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8) == "<svg/>", "the previous file is untouched")
    }

    @Test(arguments: [
        (["--replay", "x.csv"], "-o FILE"),
        (["-o", "x.svg"], "--replay FILE, --simulate NAME or --day"),
        (["--simulate", "walk", "-o", "x.svg", "--width", "12"], "--width"),
        (["--simulate", "walk", "-o", "x.svg", "--from", "2:75"], "--from"),
        (["--simulate", "walk", "-o", "x.svg", "--from", "60", "--to", "30"], "--to must come after --from"),
        (["--simulate", "moonwalk", "-o", "x.svg"], "moonwalk"),
        (["--replay", "/nonexistent/walk.csv", "-o", "x.svg"], "/nonexistent/walk.csv"),
        (["--replay", "a.csv", "--simulate", "walk", "-o", "x.svg"], "cannot be used together"),
    ])
    func usageErrorsExitTwo(arguments: [String], mention: String) throws {
        let dir = try BuiltTool.temporaryDirectory()
        let r = try BuiltTool.run("imu-plot", arguments, environment: Recordings.cleanEnvironment(dir))
        #expect(r.status == 2, "status \(r.status), stderr: \(r.stderr)")
        #expect(r.stderr.contains(mention), "stderr: \(r.stderr)")
    }

    @Test func aViewAfterTheEndIsAUsageError() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let svg = dir.appendingPathComponent("late.svg").path
        let r = try BuiltTool.run("imu-plot", ["--simulate", "wave", "--from", "10:00", "-o", svg], environment: Recordings.cleanEnvironment(dir))
        #expect(r.status == 2)
        #expect(r.stderr.contains("after the recording's end"), "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: svg))
    }

    /// A full device (/dev/full) is a runtime failure (exit 1) with the fix, which since session
    /// 21 says it is a device, not a disk to free space on; a missing directory is a bad path,
    /// refused before drawing (exit 2, as imu-record refuses it; it was exit 1 once drawn).
    @Test func anUnwritableOutputIsARuntimeFailureWithTheFix() throws {
        let dir = try BuiltTool.temporaryDirectory()
        let r = try BuiltTool.run("imu-plot", ["--simulate", "wave", "-o", "/dev/full"], environment: Recordings.cleanEnvironment(dir))
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot write /dev/full: No space left on device"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: /dev/full is a character device, not a file on disk"), "stderr: \(r.stderr)")
        let missing = try BuiltTool.run("imu-plot", ["--simulate", "wave", "-o", "/nonexistent-dir/plot.svg"], environment: Recordings.cleanEnvironment(dir))
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("-o /nonexistent-dir/plot.svg: the directory /nonexistent-dir does not exist"), "stderr: \(missing.stderr)")
        #expect(missing.stderr.contains("fix: create it first (mkdir -p /nonexistent-dir)"), "stderr: \(missing.stderr)")
    }

    @Test func helpListsTheOptionsAndExamples() throws {
        let r = try BuiltTool.run("imu-plot", ["--help"])
        #expect(r.status == 0)
        for word in ["--replay FILE", "--simulate NAME", "--from", "--to", "--width", "Examples:"] { #expect(r.stdout.contains(word)) }
    }
}
