import Foundation
import OffPool
import Testing

/// The session-16 new-user audit: each tool tried as a new user would, as a process (off the
/// pool: each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit16Tests {
    static let tools = ["imu-steps", "imu-record", "imu-info", "imu-calibrate", "imu-plot", "imu-stepd"]

    /// imu-record's usage line lacked --force, --quiet, --mount, --speed and --realtime: every
    /// option in a tool's Options table is now on one of its Usage lines, with its value name.
    @Test(arguments: tools) func everyOptionIsOnAUsageLine(tool: String) throws {
        let help = try ToolRunner.run(tool, ["--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let parts = help.stdout.components(separatedBy: "\nOptions:\n")
        try #require(parts.count == 2, "\(help.stdout)")
        let usage = parts[0], table = parts[1].components(separatedBy: "\n\n")[0]
        for row in table.split(separator: "\n") {
            // "  -o, --out FILE   where…" or "      --raw   do not…": the option and its value name.
            let left = row.drop { $0 == " " }.components(separatedBy: "  ")[0]
            let option = left.hasPrefix("--") ? left : String(left.drop { $0 != " " }.dropFirst())
            guard option.hasPrefix("--"), !["--help", "--version"].contains(option) else { continue }
            // "-o, --out FILE" may stand in the usage as "-o FILE".
            let short = left.hasPrefix("--") ? nil : String(left.prefix(2)) + option.drop { $0 != " " }
            #expect(usage.contains(option) || short.map(usage.contains) == true, "\(tool): \(option) is missing from the usage:\n\(usage)")
        }
        for line in usage.components(separatedBy: "Usage:\n").last!.split(separator: "\n") {
            #expect(line.count <= 79, "\(tool): usage line wider than 79 columns: \(line)")
        }
    }

    /// An unknown option that shares no three letters with one got only "see --help", in every
    /// tool: the shared parser names the nearest option now.
    @Test(arguments: [("imu-steps", "--josn", "--json"), ("imu-record", "--output", "--out"), ("imu-info", "--no-fifi", "--no-fifo"),
                      ("imu-calibrate", "--sohw", "--show"), ("imu-plot", "--widht", "--width"), ("imu-stepd", "--cofnig", "--config"),
                      ("imu-record", "-duration", "--duration")])
    func aTypoNamesTheNearestOption(tool: String, typo: String, meant: String) throws {
        let r = try ToolRunner.run(tool, [typo, "1"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("\(tool): unknown option \(typo) (did you mean \(meant)?)\n"), "\(r.stderr)")
    }

    /// `replay =` naming a missing file, a directory, or one the service cannot read was found only
    /// once the daemon was up, as a lost sensor retried for ever: now refused as the config is
    /// read, with the file, the line and the fix, before anything else starts.
    @Test func aReplaySettingThatCannotBeOpenedIsRefusedAtStart() throws {
        let dir = try scratchDirectory()
        let config = dir + "/stepd.conf"
        for (replay, said, status) in [("\(dir)/missing\u{1B}[2J.csv", "replay = '\(dir)/missing\\x1B[2J.csv' cannot be opened: No such file or directory", Int32(2)),
                                       (dir, "replay = '\(dir)' is a directory, not a recording", 2)] {
            try "bus = unix:path=\(dir)/no-bus\nreplay = \(replay)\nstate_directory = \(dir)/state\n".write(toFile: config, atomically: true, encoding: .utf8)
            let r = try ToolRunner.run("imu-stepd", ["--config", config], environment: ["IMUKIT_LOG_STDERR": "1"], timeout: 60)
            #expect(r.status == status, "\(r.stderr)")
            #expect(r.stderr.contains("\(config):2: \(said)"), "\(r.stderr)")
            #expect(r.stderr.contains("fix: name a recording that exists and is readable by the service"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/state"), "nothing started: \(r.stderr)")
        }
    }

    /// `--from 10 --to 5` said only "see --help": the two swapped is the likely slip, so the fix
    /// gives them swapped; equal times ask for a later --to.
    @Test func aViewEndingBeforeItStartsGivesTheSwap() throws {
        let swapped = try ToolRunner.run("imu-plot", ["--simulate", "walk", "-o", "/tmp/never-written.svg", "--from", "1:00", "--to", "30"])
        #expect(swapped.status == 2)
        #expect(swapped.stderr == "imu-plot: --to must come after --from (got --from 1:00 --to 30)\n  fix: swap them: --from 30 --to 1:00\n", "\(swapped.stderr)")
        let equal = try ToolRunner.run("imu-plot", ["--simulate", "walk", "-o", "/tmp/never-written.svg", "--from", "30", "--to", "0:30"])
        #expect(equal.stderr.contains("fix: give --to a time after --from 30, or leave --to out"), "\(equal.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.svg"))
    }

    /// A file name over 255 bytes, a path through a file, and a line over 64 KiB were refused with
    /// no fix line at all.
    @Test func pathAndLineLimitsGiveAFix() throws {
        let dir = try scratchDirectory()
        let long = dir + "/" + String(repeating: "a", count: 300) + ".csv"
        let record = try ToolRunner.run("imu-record", ["--simulate", "walk:2", "--speed", "max", "-q", "-o", long])
        #expect(record.status == 2 && record.stderr.contains("File name too long\n  fix: choose a shorter name: Linux takes at most 255 bytes"), "\(record.stderr)")
        try "t,ax,ay,az\n0,0,0,1\n".write(toFile: dir + "/walk.csv", atomically: true, encoding: .utf8)
        let through = try ToolRunner.run("imu-steps", ["--replay", dir + "/walk.csv/x.csv"])
        #expect(through.status == 2 && through.stderr.contains("  fix: a part of the path before the file name is a file, not a directory"), "\(through.stderr)")
        try String(repeating: "1", count: 70_000).write(toFile: dir + "/blob.csv", atomically: true, encoding: .utf8)
        let blob = try ToolRunner.run("imu-steps", ["--replay", dir + "/blob.csv"])
        #expect(blob.status == 2 && blob.stderr.contains("blob.csv:1: line longer than 65536 bytes; this is not a recording\n  fix: name a CSV recording"), "\(blob.stderr)")
        try ("t,ax,ay,az\n0,0,0,1\n" + String(repeating: "1", count: 2_100_000) + "\n").write(toFile: dir + "/damaged.csv", atomically: true, encoding: .utf8)
        let damaged = try ToolRunner.run("imu-steps", ["--replay", dir + "/damaged.csv"])
        #expect(damaged.status == 2 && damaged.stderr.contains("damaged.csv:3: line longer than 65536 bytes; this is not a recording\n  fix: mend line 3 of"), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("sed -i '3d'"), "\(damaged.stderr)")
    }

    /// A usage line wrapped in --help went into the man page's SYNOPSIS as a line of its own
    /// with its first characters cut (packaging/man.py took off the tool's name it lacks): the
    /// wrapped line is one synopsis line again, with its last options.
    @Test func aWrappedUsageLineIsOneSynopsisLine() throws {
        guard let pages = try ManPageTests.buildPages() else { return }
        let page = try String(contentsOfFile: pages + "/imu-record.1", encoding: .utf8)
        let synopsis = page.components(separatedBy: ".SH SYNOPSIS\n")[1].components(separatedBy: "\n.SH")[0]
        #expect(synopsis.split(separator: "\n").count == 1, "\(synopsis)")
        #expect(synopsis.hasPrefix("\\fBimu\\-record\\fR [\\-\\-out FILE]") && synopsis.hasSuffix("[\\-\\-mount MATRIX]"), "\(synopsis)")
    }

    /// XDG_CONFIG_HOME naming a file: --remember said to move "FILE/imukit" out of the way, a
    /// path that cannot exist; the file in the way is named now.
    @Test func aConfigHomeThatIsAFileIsNamed() throws {
        let dir = try scratchDirectory()
        try "t,ax,ay,az\n0,0,0,1\n".write(toFile: dir + "/walk.csv", atomically: true, encoding: .utf8)
        try "notes\n".write(toFile: dir + "/notes", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-steps", ["--replay", dir + "/walk.csv", "--height", "1.8", "--remember"],
                                   environment: ["XDG_CONFIG_HOME": dir + "/notes"])
        #expect(r.status == 2, "a path through a file is a bad path (docs/CONTRACTS.md §4; it was 1): \(r.stderr)")
        #expect(r.stderr.contains("  fix: \(dir)/notes is a file where a directory is needed: move it out of the way, or set XDG_CONFIG_HOME"), "\(r.stderr)")
    }

    /// Fix lines that said only "see --help" where the fix is known: a stride out of range or
    /// two equal paces, --mount with the simulator, --rate with a recording.
    @Test(arguments: [
        (["--stride", "0:0,0:0", "--simulate", "walk:1"], "  fix: give two paces you walked, e.g. --stride 1.8:0.72,2.1:0.85: imu-steps --walked 100 measures each while you walk 100 m\n"),
        (["--stride", "1.8:0.7,1.8:0.7", "--simulate", "walk:1"], "  fix: give two paces you walked, e.g. --stride 1.8:0.72,2.1:0.85"),
        (["--mount", "0,1,0; -1,0,0; 0,0,1", "--simulate", "walk:1"], "  fix: leave out --mount with the simulator, or give a sensor: --source i2c:/dev/i2c-1@0x68 --mount …\n"),
        (["--rate", "50", "--replay", "walk.csv"], "  fix: leave out --rate with --replay, or read the sensor itself: --source SPEC --rate …\n"),
    ])
    func knownFixesAreGiven(arguments: [String], fix: String) throws {
        let r = try ToolRunner.run("imu-steps", arguments)
        #expect(r.status == 2 && r.stderr.contains(fix) && !r.stderr.contains("see 'imu-steps --help'"), "\(r.stderr)")
    }

    /// More fix lines that said only "see --help": a --since in the future, a malformed --gpsd.
    @Test(arguments: [
        ("imu-steps", ["--since", "2099-01-01"], "  fix: give a time that has passed: --since 00:00 counts from midnight"),
        ("imu-info", ["--gpsd", "[::1"], "  fix: write it as HOST:PORT, e.g. --gpsd localhost:2947 or --gpsd [::1]:2947\n"),
        ("imu-record", ["--gpsd", "host:0", "--simulate", "walk:1", "-o", "-"], "  fix: write it as HOST:PORT, e.g. --gpsd localhost:2947"),
    ])
    func moreKnownFixesAreGiven(tool: String, arguments: [String], fix: String) throws {
        let r = try ToolRunner.run(tool, arguments)
        #expect(r.status == 2 && r.stderr.contains(fix) && !r.stderr.contains("--help'"), "\(r.stderr)")
    }

    /// A recording with no calibration-key line, given without --key: the fix is the command.
    @Test func aRecordingThatNamesNoSensorGetsTheCommand() throws {
        let dir = try scratchDirectory()
        let six = dir + "/six.csv"
        let made = try ToolRunner.run("imu-record", ["--raw", "--simulate", "six-position", "--speed", "max", "-q", "-o", six])
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: six, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("# calibration-key:") }.joined(separator: "\n")
        try text.write(toFile: six, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", ["--six-position", "--from-recording", six, "--save"])
        #expect(r.status == 2 && r.stderr.contains("  fix: name the sensor it was recorded from, as imu-info lists it: imu-calibrate --six-position --from-recording \(six) --key i2c:/dev/i2c-1@0x68 --save\n"), "\(r.stderr)")
    }

    /// `--replay - < DIR` ended "standard input:1: read failed: Is a directory" with no fix, and
    /// `imu-record -o - >&-` told the user to free space on a disk.
    @Test func standardStreamsThatCannotServeAreNamed() throws {
        for tool in ["imu-steps", "imu-plot"] {
            let extra = tool == "imu-plot" ? ["-o", "/tmp/never-written.svg"] : []
            let r = try ShellRunner.run("\"$BIN/\(tool)\" --replay - \(extra.joined(separator: " ")) < /")
            #expect(r.status == 2 && r.stderr.contains("--replay -: standard input is a directory, not a recording\n  fix: pipe or redirect a recording into it"), "\(tool): \(r.stderr)")
        }
        let closed = try ShellRunner.run("\"$BIN/imu-record\" --simulate walk:1 --speed max -o - >&-")
        #expect(closed.status == 1 && closed.stderr.contains("  fix: run it with standard output open (no >&-), or record to a file (--out FILE)\n"), "\(closed.stderr)")
    }

    /// imu-info --rate 50 or --no-fifo without --read listed the sensors and ignored the option.
    @Test(arguments: [(["--rate", "50"], "  fix: add --read, e.g. imu-info --read 10 --rate 50, or leave --rate out\n"),
                      (["--no-fifo", "--json"], "  fix: add --read, e.g. imu-info --read 10 --no-fifo, or leave --no-fifo out\n")])
    func anOptionForReadWithoutReadIsRefused(arguments: [String], fix: String) throws {
        let r = try ToolRunner.run("imu-info", arguments)
        #expect(r.status == 2 && r.stderr.contains("goes with --read N") && r.stderr.contains(fix) && r.stdout.isEmpty, "\(r.stderr)")
    }

    /// imu-calibrate --show --save, --show --seconds 3 and --reset --json ran and ignored the option.
    @Test(arguments: [(["--show", "--key", "k", "--save"], "--save goes with --six-position, not --show"),
                      (["--show", "--key", "k", "--seconds", "3"], "--seconds goes with --six-position, not --show"),
                      (["--reset", "--key", "k", "--json"], "--json goes with --six-position, not --reset")])
    func aSessionOptionWithShowOrResetIsRefused(arguments: [String], said: String) throws {
        let r = try ToolRunner.run("imu-calibrate", arguments, environment: ["XDG_CONFIG_HOME": try scratchDirectory()])
        #expect(r.status == 2 && r.stderr.hasPrefix("imu-calibrate: \(said)\n  fix: leave out"), "\(r.stderr)")
    }
}
