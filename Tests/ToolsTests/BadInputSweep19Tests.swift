import Foundation
import OffPool
import Testing

/// Session 19's sweep of bad input (files and flags of imu-plot, imu-steps, imu-record,
/// imu-calibrate and the benchmarks): each case here fell short of the project's standard (a
/// clear message naming the thing and the fix, nothing lost, exit codes per docs/CONTRACTS.md §4).
@Suite(.offPool) struct BadInputSweep19Tests {
    /// `imu-plot -o x.txt` wrote SVG under a .txt name (only picture extensions were refused): a
    /// script or an editor expecting text got markup. imu-plot has one format per input, so any
    /// other extension is refused, naming the ones it writes and the name to use.
    @Test(arguments: [
        (["--simulate", "walk:5"], "x.txt", "imu-plot writes SVG, not .txt (it writes .svg for --replay and --simulate, .html for --day)", "name it .svg: -o DIR/x.svg\n"),
        (["--simulate", "walk:5"], "x.svg.tmp", "imu-plot writes SVG, not .tmp", "name it .svg: -o DIR/x.svg\n"),
        (["--day", "--history", "DIR/none.sqlite"], "d.txt", "imu-plot writes an HTML page, not .txt", "name it .html: -o DIR/d.html\n"),
    ])
    func imuPlotRefusesAnExtensionItDoesNotWrite(input: [String], name: String, message: String, fix: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-plot", input.map { $0.replacing("DIR", with: dir) } + ["-o", dir + "/" + name])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("-o \(dir)/\(name): \(message)"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: " + fix.replacing("DIR", with: dir)), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing written")
        // The extensions it writes are taken, in any case.
        let svg = try ToolRunner.run("imu-plot", ["--simulate", "walk:5", "-o", dir + "/x.SVG"])
        #expect(svg.status == 0, "\(svg.stderr)")
    }

    /// `imu-plot -o nodir/x.svg` drew the whole plot, then failed as an I/O error (exit 1) with the
    /// fix "-o /tmp/plot.svg"; imu-record calls the same path a usage error with mkdir as the fix.
    /// Refused first, exit 2, the directory named, shell-quoted in the fix.
    @Test func imuPlotIntoAMissingDirectoryIsRefusedFirst() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-plot", ["--simulate", "walk:5", "-o", dir + "/my plots/x.svg"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("-o \(dir)/my plots/x.svg: the directory \(dir)/my plots does not exist\n"
                                  + "  fix: create it first (mkdir -p '\(dir)/my plots') or choose another place"), "\(r.stderr)")
        #expect(FileManager.default.createFile(atPath: dir + "/file", contents: Data()))
        let file = try ToolRunner.run("imu-plot", ["--simulate", "walk:5", "-o", dir + "/file/x.svg"])
        #expect(file.status == 2, "\(file.stderr)")
        #expect(file.stderr.contains("\(dir)/file is not a directory"), "\(file.stderr)")
    }

    /// The fixes of a recording that cannot be created or opened gave the directory as it is:
    /// `mkdir -p my walks` makes two directories, and a name holding ESC was shown as \x1B, which
    /// the shell reads as letters. They are shell words now, as the other fixes' are.
    @Test func aRecordingPathInAFixIsAShellWord() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "-o", dir + "/my walks/x.csv"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("  fix: create its directory first (mkdir -p '\(dir)/my walks') or choose another place"), "\(r.stderr)")
        let escape = try ToolRunner.run("imu-steps", ["--replay", dir + "/e\u{1B}[2J/x.csv"])
        #expect(escape.status == 2, "\(escape.stderr)")
        #expect(escape.stderr.contains("(ls $'\(dir)/e\\x1B[2J')"), "\(escape.stderr)")
        #expect(!escape.stderr.contains("\u{1B}"), "\(escape.stderr)")
    }

    /// `imu-calibrate --from-recording` of a recording without an accelerometer, or one recorded
    /// calibrated, said what was wrong with no fix line.
    @Test(arguments: [("t,gx,gy,gz\n0,0,0,0\n", "no accelerometer columns (ax, ay, az) in the header\n  fix: record the six-position session from a sensor with an accelerometer"),
                      ("# calibration: applied, for x\nt,ax,ay,az\n0,0,0,1\n", "recorded with a calibration applied; record the session again with imu-record --raw\n  fix: a calibration is fitted to raw readings")])
    func aRecordingThatHoldsNoSessionHasAFix(text: String, message: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/s.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", dir + "/s.csv", "--json"], environment: ["XDG_CONFIG_HOME": dir])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir)/s.csv: \(message)"), "\(r.stderr)")
    }

    /// Text in another encoding piped in was told to run `iconv … 'standard input' > recording.csv`
    /// (a file of that name); a gzip file's command named the file unquoted, inside the message,
    /// with no fix line.
    @Test func aConversionFixFitsWhereTheRecordingCameFrom() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let piped = try ShellRunner.run("printf 't,ax,ay,az\\n0,0,0,\\351\\n' | \"$BIN/imu-steps\" --replay -", directory: dir)
        #expect(piped.status == 2, "\(piped.stderr)")
        #expect(piped.stderr.contains("text in another encoding converts with … | iconv -f LATIN1 -t UTF-8 | imu-steps --replay - (in the pipe, before the tool)"), "\(piped.stderr)")
        #expect(!piped.stderr.contains("'standard input' >"), "\(piped.stderr)")
        try Data([0x1F, 0x8B, 8, 0, 0, 0]).write(to: URL(fileURLWithPath: dir + "/my walk.csv.gz"))
        let gz = try ToolRunner.run("imu-steps", ["--replay", dir + "/my walk.csv.gz"])
        #expect(gz.status == 2, "\(gz.stderr)")
        #expect(gz.stderr.contains("my walk.csv.gz:1: this is a gzip-compressed file, not a CSV recording\n"
                                   + "  fix: decompress it first: zcat '\(dir)/my walk.csv.gz' > recording.csv"), "\(gz.stderr)")
    }

    /// `imu-record -o DIR` was told "DIR already exists; … add --force to replace it", and --force
    /// then failed on the directory: it is refused as a directory, with or without --force.
    @Test(arguments: [[String](), ["--force"]])
    func imuRecordIntoADirectoryIsNamedAsOne(force: [String]) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "-o", dir] + force)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("\(dir): is a directory, not a recording\n  fix: name a file inside it, e.g. \(dir)/walk.csv"), "\(r.stderr)")
        #expect(!r.stderr.contains("--force"), "\(r.stderr)")
    }

    /// A benchmark's refusal of an argument holding a newline printed the rest as a line of its
    /// own: `$'a\n  fix: rm -rf ~'` made a "fix" line. The message and fix are one line each.
    @Test(arguments: ["imu-bench-core", "imu-bench-accuracy"])
    func aBenchmarkArgumentCannotForgeAFixLine(bench: String) throws {
        let r = try ToolRunner.run(bench, ["a\n  fix: rm -rf ~"], environment: ["IMU_OXFORD_DIR": "/nonexistent", "IMU_REALDEV_DIR": "/nonexistent"], timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("unknown argument 'a\\n  fix: rm -rf ~'"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 2, "\(r.stderr)")
    }

    /// `imu-record -o walk.svg` (or .json, .gz) wrote CSV text under a name of another format, as
    /// imu-plot wrote SVG under .txt: refused before recording, with the .csv name to use.
    @Test(arguments: [("walk.svg", "not .svg", "name it .csv: -o DIR/walk.csv; then draw it with imu-plot --replay DIR/walk.csv -o plot.svg"),
                      ("walk.csv.gz", "not .gz", "name it .csv: -o DIR/walk.csv; then compress it afterwards"),
                      ("walk.JSON", "not .json", "name it .csv: -o DIR/walk.csv;")])
    func imuRecordRefusesANameOfAnotherFormat(name: String, message: String, fix: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "-o", dir + "/" + name])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("-o \(dir)/\(name): imu-record writes a CSV recording (plain text), \(message)\n  fix: \(fix.replacing("DIR", with: dir))"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing written")
        let text = try ToolRunner.run("imu-record", ["--simulate", "walk", "--speed", "max", "-d", "1", "-q", "-o", dir + "/walk.txt"])
        #expect(text.status == 0, "a text name is taken: \(text.stderr)")
    }
}
