import Foundation
import OffPool
import Testing

/// Left-overs of the session-11 audit, each tried on the built tools as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool, .serialized) struct NewUserAudit12Tests {
    /// `imu-record -o /dev/full` said "everything before this point is on disk": a device keeps
    /// no file, and free space would not help /dev/full. It now says what went where, and the fix
    /// is a file. A file on a full disk keeps its words (imuPlotOnAFullDiskSaysSpace's sibling).
    @Test func aFullDeviceIsNotCalledADisk() throws {
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk:5", "--speed", "max", "-o", "/dev/full"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("on disk, in whole lines") && !r.stderr.contains("free space"), "\(r.stderr)")
        #expect(r.stderr.contains("/dev/full: write failed: No space left on device; /dev/full is a device or pipe, not a file on disk: 0 samples went to it before this point, in whole lines\n  fix: record to a file (--out FILE)\n"),
                "\(r.stderr)")
    }

    /// An empty file (0 bytes) given as a recording was "FILE:1: missing header line" with the fix
    /// "add a first line naming the columns": there is no line 1, and a header alone is still no
    /// recording. Every tool that reads recordings (one shared reader) now names the file as
    /// empty, exit 2, with the fix: record one or check the path.
    @Test func anEmptyFileIsCalledEmptyByEveryTool() throws {
        let dir = try scratchDirectory()
        #expect(FileManager.default.createFile(atPath: dir + "/walk.csv", contents: Data()))
        let runs: [(String, [String])] = [
            ("imu-steps", ["--replay", "walk.csv", "--json"]),
            ("imu-plot", ["--replay", "walk.csv", "-o", "p.svg"]),
            ("imu-record", ["--replay", "walk.csv", "--speed", "max", "-o", "copy.csv"]),
            ("imu-calibrate", ["-6", "--from-recording", "walk.csv"]),
        ]
        for (tool, args) in runs {
            let r = try ToolRunner.run(executable: ToolRunner.path(tool), args, directory: dir)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("walk.csv: the file is empty: it holds no recording"), "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("fix: record one (imu-record -d 60 -o walk.csv), or check the path"), "\(tool): \(r.stderr)")
            #expect(!r.stderr.contains("missing header line") && !r.stderr.contains("walk.csv:1"), "\(tool): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/copy.csv") && !FileManager.default.fileExists(atPath: dir + "/p.svg"))
    }

    /// `--rate 50 --rate 50.0` (a wrapper's default and the user's choice) was refused as "given
    /// twice ('50' and '50.0')": one rate. Two different rates are still refused naming both.
    @Test func oneRateInTwoSpellingsRuns() throws {
        let same = try ToolRunner.run("imu-steps", ["--simulate", "walk:2", "--speed", "max", "--rate", "50", "--rate", "50.0", "--json"])
        #expect(same.status == 0, "\(same.stderr)")
        let different = try ToolRunner.run("imu-steps", ["--simulate", "walk:2", "--speed", "max", "--rate", "50", "--rate", "100"])
        #expect(different.status == 2 && different.stderr.contains("imu-steps: --rate given twice ('50' and '100'); give it once"), "\(different.stderr)")
    }
}
