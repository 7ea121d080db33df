import Foundation
import OffPool
import LoopbackListener
import Testing

/// The tools tried by a new user and a hostile reviewer (session 3's audit): each test runs the
/// built tool as a process with input that crashed it, hung it, or got an answer that was no answer.
@Suite(.offPool) struct NewUserAuditTests {
    /// `--simulate walk:1e300` trapped converting the seconds to an Int; `walk:10@1e300` planned
    /// steps forever and ignored SIGTERM; `@1000` and `*1e300` ran and counted 0 steps.
    @Test(arguments: ["walk:1e300", "walk:99999999999999999999", "walk:10@1e300", "walk:10@1000",
                      "walk:10*1e300", "stairs-up:100000"])
    func aCompositionBeyondItsRangesIsAUsageError(_ scenario: String) throws {
        for tool in [["imu-steps", "--json"], ["imu-plot", "-o", "-"]] {
            let r = try ToolRunner.run(tool[0], ["--simulate", scenario] + tool.dropFirst(), timeout: 30)
            #expect(r.status == 2, "\(tool[0]) \(scenario): \(r.stderr)")
            #expect(r.stderr.contains("bad scenario item '\(scenario)'"), "\(tool[0]) \(scenario): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error"), "\(tool[0]) \(scenario): \(r.stderr)")
        }
    }
}

extension NewUserAuditTests {
    /// A live run with `--json > /dev/full` played on to its end (for a sensor: until Ctrl-C),
    /// writing nothing, and only then said so; it now stops at the first write that fails.
    @Test func aLiveRunStopsWhenItsOutputCannotBeWritten() throws {
        let started = Date()
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --simulate walk:90 --json > /dev/full", timeout: 80)
        let seconds = Date().timeIntervalSince(started)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write to standard output: No space left on device"), "stderr: \(r.stderr)")
        // The walk plays in real time for 90 s; its first output is flushed within about 10 s.
        #expect(seconds < 45, "ran \(seconds) s after its output was lost")
    }

    /// A descriptor that is not full got "fix: free space on the disk".
    @Test func aClosedStandardOutputIsNotCalledAFullDisk() throws {
        let path = try ToolRunner.temporaryFile("w.csv", "t,ax,ay,az\n1,0,0,1\n2,0,0,1\n")
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --replay '\(path)' --json >&-")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        // Dispatch's epoll descriptor took number 1 before ToolMain could see it closed: "Invalid argument".
        #expect(r.stderr.contains("cannot write to standard output: it is closed"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("free space"), "stderr: \(r.stderr)")
    }

    /// `--replay -` with standard input closed read Dispatch's descriptor: "-:1: read failed: Invalid argument".
    @Test func aClosedStandardInputIsNamed() throws {
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --replay - --json <&-")
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("--replay -: standard input is closed"), "stderr: \(r.stderr)")
    }
}

extension NewUserAuditTests {
    /// A recording with a header and no samples was "0 steps", exit 0, with and without --json.
    @Test func aRecordingWithoutSamplesIsNotZeroSteps() throws {
        let path = try ToolRunner.temporaryFile("hdr.csv", "# sensor: test\nt,ax,ay,az\n")
        for extra in [["--json"], []] {
            let r = try ToolRunner.run("imu-steps", ["--replay", path] + extra)
            #expect(r.status == 2, "\(extra): \(r.stderr)")
            #expect(r.stderr.contains("hdr.csv: the recording has no samples"), "\(extra): \(r.stderr)")
            #expect(!r.stdout.contains("\"steps\":0"), "\(extra): \(r.stdout)")
        }
        let one = try ToolRunner.temporaryFile("one.csv", "t,ax,ay,az\n1,0,0,1\n")
        #expect(try ToolRunner.run("imu-steps", ["--replay", one, "--json"]).status == 0)
        // imu-plot said so already, with a fix about --from/--to.
        let plot = try ToolRunner.run("imu-plot", ["--replay", path, "-o", path + ".svg"])
        #expect(plot.status == 2)
        #expect(!plot.stderr.contains("--from"), "stderr: \(plot.stderr)")
    }
}

extension NewUserAuditTests {
    /// A non-UTF-8 file name reached the tools with U+FFFD in place of its bytes: `--replay` looked
    /// for another file, and `imu-record -o` wrote one of another name.
    @Test func aNonUTF8ArgumentIsRefusedNotReplaced() throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            name=$(printf 'a\\376.csv'); printf 't,ax,ay,az\\n1,0,0,1\\n' > "$name" &&
            "$BIN/imu-steps" --replay "$name" --json; echo "steps=$?" >&2
            "$BIN/imu-record" --simulate walk -d 1 -o "$(printf 'b\\376.csv')"; echo "record=$?" >&2; ls | wc -l
            """, directory: dir)
        #expect(r.stderr.contains("steps=2"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("record=2"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains(#"argument 'a\xFE.csv' is not UTF-8 text"#), "stderr: \(r.stderr)")
        #expect(r.stderr.contains(#"argument 'b\xFE.csv' is not UTF-8 text"#), "stderr: \(r.stderr)")
        // Only the recording made above: none written under another name.
        #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "files: \(r.stdout)")
    }
}

extension NewUserAuditTests {
    /// `imu-info --source iio:ip:` listed the malformed spec as a "problem" and ended with exit 3
    /// (no sensor); imu-steps says exit 2 (bad address) for the same text, as CONTRACTS §4 does.
    @Test(arguments: ["iio:ip:", "iio:bogus", "iio:ip:host:99999"])
    func imuInfoCallsAMalformedIIOSpecAUsageError(_ source: String) throws {
        let r = try ToolRunner.run("imu-info", ["--no-gps", "--source", source])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("bad IIO source"), "stderr: \(r.stderr)")
    }
}

extension NewUserAuditTests {
    /// imu-stepd took `source = <typo>` and `simulate = walk:1e300` as they were, started serving,
    /// then reported "sensor lost … retrying" (a typo never fixes itself) or trapped; and of a
    /// setting given twice the later line silently won. All are now config errors naming the line.
    @Test(arguments: [
        ("source = \u{1B}[31mx", "c.conf:1: source = '\\x1B[31mx': a source needs SCHEME:WHERE"),
        ("source = sim:nonesuch", "c.conf:1: source = 'sim:nonesuch': simulator: unknown scenario 'nonesuch'"),
        ("source = iio:ip:", "c.conf:1: source = 'iio:ip:': bad IIO source"),
        ("source = foo:bar", "unknown source type 'foo:'"),
        ("simulate = walk:1e300", "c.conf:1: simulate = 'walk:1e300': simulator: bad scenario item"),
        ("rate = 100\nrate = 200", "c.conf:2: rate is set twice (lines 1 and 2)"),
    ])
    func imuStepdChecksItsSourceAndRepeatedSettingsWhenItReadsTheConfig(_ text: String, _ expected: String) throws {
        let dir = try scratchDirectory()
        try (text + "\nbus = unix:path=\(dir)/no-bus\nstate_directory = \(dir)/state\n")
            .write(toFile: dir + "/c.conf", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run(executable: ToolRunner.path("imu-stepd"), ["--config", "c.conf"], directory: dir, timeout: 30)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains(expected), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}"), "raw ESC: \(r.stderr.debugDescription)")
    }
}

extension NewUserAuditTests {
    /// `--walked 100` on a walk with no steps said it could not give a pace, and exited 0.
    @Test func walkedWithoutAPaceIsAFailure() throws {
        let path = try ToolRunner.temporaryFile("still.csv", "t,ax,ay,az\n1,0,0,1\n2,0,0,1\n3,0,0,1\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--walked", "100", "--json"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("--walked cannot give a pace"), "stderr: \(r.stderr)")
        #expect(try jsonObjects(r).last?["type"] as? String == "summary", "the summary is still written")
    }
}

extension NewUserAuditTests {
    /// A state directory imu-stepd may not write (or create) exited 1, a file named as one too;
    /// CONTRACTS §4 says 3 for permission denied and 2 for a bad setting.
    @Test func imuStepdsStateDirectoryProblemsHaveTheContractsExitCodes() throws {
        let dir = try scratchDirectory()
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        func run(_ state: String, as user: String = "") throws -> ToolResult {
            try ShellRunner.run("""
                printf 'bus = unix:path=%s/no-bus\\nstate_directory = %s\\nsimulate = walk\\n' "$PWD" '\(state)' > c.conf && chmod 644 c.conf &&
                \(user)"$BIN/imu-stepd" --config "$PWD/c.conf"
                """, directory: dir, timeout: 30)
        }
        let file = try run(dir + "/file")
        #expect(file.status == 2, "stderr: \(file.stderr)")
        #expect(file.stderr.contains("is not a directory"), "stderr: \(file.stderr)")
        guard let user = BadInputAuditTests.unprivileged(), !user.isEmpty else { print("skipped: runuser and root are needed to test as another user"); return }
        try FileManager.default.createDirectory(atPath: dir + "/ro", withIntermediateDirectories: true)
        chmod(dir, 0o755)
        chmod(dir + "/ro", 0o755)
        for state in [dir + "/ro", dir + "/ro/sub"] {
            let r = try run(state, as: user)
            #expect(r.status == 3, "\(state): \(r.stderr)")
            #expect(r.stderr.contains("sudo install -d -o imu-stepd"), "\(state): \(r.stderr)")
        }
    }
}

extension NewUserAuditTests {
    /// `imu-record --replay F -o -` copied F's comment lines and F's name raw into the recording it
    /// wrote to standard output: a terminal ran their escape sequences (retitled, recoloured).
    @Test func aReRecordingsCommentsCarryNoEscapeSequences() throws {
        let dir = try scratchDirectory()
        let input = dir + "/in\u{1B}[31m.csv"
        try "# sensor: \u{1B}]0;pwned\u{07}\nt,ax,ay,az\n1,0,0,1\n2,0,0,1\n".write(toFile: input, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", input, "-o", "-"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("\u{1B}") && !r.stdout.contains("\u{07}"), "raw control characters: \(r.stdout.debugDescription)")
        #expect(r.stdout.contains(#"# sensor: \x1B]0;pwned\x07"#), "stdout: \(r.stdout)")
        #expect(r.stdout.contains(#"in\x1B[31m.csv"#), "stdout: \(r.stdout)")
        #expect(r.stdout.hasSuffix("t,ax,ay,az\n1.000000,0.00000,0.00000,1.00000\n2.000000,0.00000,0.00000,1.00000\n"), "stdout: \(r.stdout)")
    }
}

extension NewUserAuditTests {
    /// `imu-plot -o plot.png` wrote SVG under a PNG name, `--day -o day.svg` HTML under an SVG
    /// name, and `-o DIR` ended as an I/O error (exit 1) once the plot was drawn.
    @Test func imuPlotRefusesAnOutputNameItCannotHonour() throws {
        let dir = try scratchDirectory()
        for (args, message) in [(["--simulate", "walk:5", "-o", dir + "/p.png"], "imu-plot writes SVG, not .png (it writes .svg for --replay and --simulate, .html for --day)\n  fix: name it .svg: -o \(dir)/p.svg, then for a .png: rsvg-convert -f png -o \(dir)/p.png \(dir)/p.svg"),
                                (["--day", "--history", dir + "/none.sqlite", "-o", dir + "/d.svg"], "imu-plot writes an HTML page, not .svg"),
                                (["--simulate", "walk:5", "-o", dir], "is a directory\n  fix: name a file inside it, e.g. -o \(dir)/plot.svg")] {
            let r = try ToolRunner.run("imu-plot", args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
        #expect(try ToolRunner.run("imu-plot", ["--simulate", "walk:5", "-o", dir + "/plot"]).status == 0, "no extension is taken as given")
    }
}

extension NewUserAuditTests {
    /// CONTRACTS §2 allows |gx,gy,gz| ≤ 87.3 rad/s; the reader's bound was 5000 °/s = 87.27 rad/s,
    /// so 87.3 itself was "beyond ±87.3 rad/s". Every bound the contract writes is accepted at the
    /// bound and refused just beyond it.
    @Test func theContractsRangeLimitsAreInclusive() throws {
        let path = try ToolRunner.temporaryFile("lim.csv", "t,ax,ay,az,gx,gy,gz,p,temp,gnss_speed\n"
            + "1,-500,500,0,87.3,-87.3,0,250,-100,515\n2,0,0,1,0,0,0,1300,150,0\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let beyond = try ToolRunner.temporaryFile("over.csv", "t,ax,ay,az,gx,gy,gz\n1,0,0,1,87.31,0,0\n")
        let o = try ToolRunner.run("imu-steps", ["--replay", beyond, "--json"])
        #expect(o.status == 2 && o.stderr.contains("over.csv:2: field 'gx' is 87.31 rad/s"), "stderr: \(o.stderr)")
    }
}

extension NewUserAuditTests {
    /// `imu-info --gpsd HOST:PORT` naming a listener that is not gpsd (it accepts and never speaks)
    /// said "ground_speed=available fix=no"; gpsd greets every client with a VERSION report at once.
    @Test func aListenerThatIsNotGpsdIsNotCalledAvailable() throws {
        let listener = try #require(LoopbackListener(backlog: 4))
        let port = listener.port
        let r = try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(port)"], timeout: 60)
        let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("gps ") } ?? ""
        #expect(line.contains("ground_speed=unavailable"), "stdout: \(r.stdout)")
        #expect(line.contains("sent nothing within 2 s: it is not gpsd"), "stdout: \(r.stdout)")
        withExtendedLifetime(listener) {}
    }
}
