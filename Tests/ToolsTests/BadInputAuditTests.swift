import Foundation
import OffPool
import Testing

/// The tools tried with bad input as a new user would (issue: bad-input audit of the tools):
/// output that cannot be written, files that cannot be read, text that must not reach a terminal raw.
@Suite(.offPool) struct BadInputAuditTests {
    /// A command prefix that drops root's privileges to nobody's (uid and gid 65534, no
    /// supplementary groups: root reads every file) when this test runs as root: util-linux's
    /// `setpriv`, else `runuser`; nothing when the test already runs unprivileged; nil when the
    /// permission check cannot be made here.
    static func unprivileged() -> String? {
        guard getuid() == 0 else { return "" }
        let fm = FileManager.default
        if let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first(where: fm.isExecutableFile) {
            return "\(setpriv) --reuid=65534 --regid=65534 --clear-groups "
        }
        return ["/usr/sbin/runuser", "/sbin/runuser"].first(where: fm.isExecutableFile).map { "\($0) -u nobody -- " }
    }

    /// Runs `command` (a tool and its arguments) as a user who may not write in the directory
    /// `ro` beside it; nil (skipped, with a message) when that cannot be arranged here.
    static func inReadOnlyDirectory(_ command: String) throws -> ToolResult? {
        guard let user = unprivileged() else { print("skipped: setpriv or runuser (util-linux) is needed to test as a user other than root"); return nil }
        return try ShellRunner.run("mkdir ro && chmod 555 ro && \(user)\"$BIN\"/\(command)", directory: try scratchDirectory())
    }

    /// The file type bits of `path` itself (lstat: a link is a link).
    static func kind(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    // MARK: Output that does not arrive

    @Test func versionOnAFullDiskIsAFailure() throws {
        let r = try ShellRunner.run("\"$BIN/imu-steps\" --version > /dev/full")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("No space left on device"), "stderr: \(r.stderr)")
    }

    @Test func aPlotRefusedByStandardOutputIsNotClaimedWritten() throws {
        let r = try ShellRunner.run("\"$BIN/imu-plot\" --simulate walk -o - > /dev/full")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("wrote"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("No space left on device"), "stderr: \(r.stderr)")
    }

    /// `-o` naming a FIFO or a symbolic link writes through it: renaming the plot over it would
    /// replace the node (as root, `-o /dev/null` replaced /dev/null with a regular file).
    @Test func aPlotIsWrittenThroughAFIFOAndALinkNotOverThem() throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            mkfifo p && ln -s target.svg link.svg && echo old > target.svg &&
            { cat p > got & } && "$BIN/imu-plot" --simulate walk -o p && wait &&
            "$BIN/imu-plot" --simulate walk -o link.svg
            """, directory: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(Self.kind(dir + "/p") == S_IFIFO)
        #expect(try String(contentsOfFile: dir + "/got", encoding: .utf8).contains("<svg"))
        #expect(Self.kind(dir + "/link.svg") == S_IFLNK)
        #expect(try String(contentsOfFile: dir + "/target.svg", encoding: .utf8).contains("<svg"))
    }

    @Test func aPlotThatMayNotBeWrittenExits3InPlainWords() throws {
        guard let r = try Self.inReadOnlyDirectory("imu-plot --simulate walk -o ro/x.svg") else { return }
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write ro/x.svg: Permission denied"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("NSPOSIXErrorDomain"), "stderr: \(r.stderr)")
    }

    @Test func aPlotSaysWhichSamplesItDroppedForARepeatedTime() throws {
        let path = try ToolRunner.temporaryFile("rep.csv", "t,ax,ay,az\n1,0,0,1\n1,0,0,1\n2,0,0,1\n")
        let r = try ToolRunner.run("imu-plot", ["--replay", path, "-o", path + ".svg"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("dropped 1 sample whose t repeated"), "stderr: \(r.stderr)")
    }

    @Test func aPlotsNotesAreEscaped() throws {
        let dir = try scratchDirectory()
        let r = try ToolRunner.run("imu-plot", ["--simulate", "walk", "-o", dir + "/a\u{1B}[31m.svg"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}"), "raw ESC on stderr: \(r.stderr.debugDescription)")
        #expect(r.stderr.contains(#"\x1B[31m"#), "stderr: \(r.stderr)")
    }

    // MARK: Recordings that cannot be opened or created

    @Test func anUnreadableRecordingExits3WithTheFix() throws {
        guard let user = Self.unprivileged() else { print("skipped: setpriv or runuser (util-linux) is needed to test as a user other than root"); return }
        let dir = try scratchDirectory()
        for tool in ["imu-steps --replay", "imu-plot -o x.svg --replay", "imu-calibrate -6 --from-recording", "imu-record -o - --replay"] {
            let r = try ShellRunner.run("printf 't,ax,ay,az\\n' > secret.csv && chmod 600 secret.csv && \(user)\"$BIN\"/\(tool) secret.csv", directory: dir)
            #expect(r.status == 3, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("secret.csv: cannot open recording: Permission denied"), "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("fix: give yourself read access"), "\(tool): \(r.stderr)")
        }
    }

    @Test func aRecordingThatMayNotBeCreatedExits3WithTheFix() throws {
        guard let r = try Self.inReadOnlyDirectory("imu-record --simulate walk -d 1 -o ro/x.csv") else { return }
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot create recording: Permission denied"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: record where you may write"), "stderr: \(r.stderr)")
    }

    @Test func aDirectoryIsNamedNotRead() throws {
        let dir = try scratchDirectory()
        let r = try ToolRunner.run("imu-steps", ["--replay", dir, "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(dir): is a directory, not a recording"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: name a file inside it"), "stderr: \(r.stderr)")
        let w = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "--force", "-o", dir])
        #expect(w.status == 2, "stderr: \(w.stderr)")
        #expect(w.stderr.contains("is a directory"), "stderr: \(w.stderr)")
        #expect(!w.stderr.contains("everything before this point"), "stderr: \(w.stderr)")
    }
}

/// The bad-input audit, second part: counters that said zero, keys and file text on a terminal.
@Suite(.offPool) struct BadInputAuditCountTests {
    /// The JSON summary said `"dropped_time_not_increasing":0` (and imu-record "dropped 0") while
    /// the reader had dropped samples for a repeated t: the count now comes from the reader.
    @Test func samplesDroppedForARepeatedTimeAreCountedInTheSummaries() throws {
        let path = try ToolRunner.temporaryFile("rep.csv", "t,ax,ay,az\n1,0,0,1\n1,0,0,1\n2,0,0,1\n2,0,0,1\n3,0,0,1\n")
        for extra in [[], ["--realtime", "--speed", "100"]] {
            let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"] + extra)
            #expect(r.status == 0, "stderr: \(r.stderr)")
            let summary = try #require(try jsonObjects(r).last)
            #expect(summary["dropped_time_not_increasing"] as? Int == 2, "\(extra): \(summary)")
            #expect(summary["dropped_samples"] as? Int == 2, "\(extra): \(summary)")
        }
        let w = try ToolRunner.run("imu-record", ["--replay", path, "-o", path + ".out.csv"])
        #expect(w.status == 0, "stderr: \(w.stderr)")
        #expect(w.stderr.contains("dropped 2 (time not increasing 2)"), "stderr: \(w.stderr)")
    }

    @Test func aCalibrationKeyAndASavedFilesTextAreEscaped() throws {
        let dir = try scratchDirectory()
        let env = ["XDG_CONFIG_HOME": dir]
        let missing = try ToolRunner.run("imu-calibrate", ["--show", "--key", "\u{1B}[31mred"], environment: env)
        #expect(missing.status == 1)
        #expect(!missing.stderr.contains("\u{1B}"), "raw ESC: \(missing.stderr.debugDescription)")
        let reset = try ToolRunner.run("imu-calibrate", ["--reset", "--key", "\u{1B}[31mred"], environment: env)
        #expect(!reset.stdout.contains("\u{1B}"), "raw ESC: \(reset.stdout.debugDescription)")
        // One field, one line: a newline in the file's "created" does not start a fake line.
        try FileManager.default.createDirectory(atPath: dir + "/imukit/calibration", withIntermediateDirectories: true)
        try #"{"version":1,"accel_bias_g":[0,0,0],"accel_scale":[1,1,1],"created":"x\n  accelerometer bias   fake"}"#
            .write(toFile: dir + "/imukit/calibration/k.json", atomically: true, encoding: .utf8)
        let shown = try ToolRunner.run("imu-calibrate", ["--show", "--key", "k"], environment: env)
        #expect(shown.status == 0, "stderr: \(shown.stderr)")
        #expect(shown.stdout.contains(#"x\n  accelerometer bias   fake"#), "stdout: \(shown.stdout)")
    }

    @Test func anUnreadableConfigExits3() throws {
        guard let user = BadInputAuditTests.unprivileged() else { print("skipped: setpriv or runuser (util-linux) is needed to test as a user other than root"); return }
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("echo 'rate = 100' > c.conf && chmod 600 c.conf && \(user)\"$BIN/imu-stepd\" --config c.conf", directory: dir)
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("c.conf: cannot be read: Permission denied"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: sudo chmod 0644 c.conf"), "stderr: \(r.stderr)")
    }
}

/// The bad-input audit, third part: options that were ignored or named nothing.
@Suite(.offPool) struct BadInputAuditOptionTests {
    /// `--rate`/`--mount` with `--replay`, `--mount` with the simulator: ignored without a word.
    @Test func optionsASourceWouldIgnoreAreRefused() throws {
        let path = try ToolRunner.temporaryFile("w.csv", "t,ax,ay,az\n1,0,0,1\n2,0,0,1\n")
        for args in [["--replay", path, "--rate", "50"], ["--replay", path, "--mount", "0,1,0;-1,0,0;0,0,1"],
                     ["--simulate", "walk", "--mount", "0,1,0;-1,0,0;0,0,1"]] {
            let r = try ToolRunner.run("imu-steps", args + ["--json"])
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("goes with a sensor"), "\(args): \(r.stderr)")
        }
    }

    /// A zero matrix was taken and scaled gravity away: 0 steps without a word.
    @Test func aMountThatIsNoRotationIsAUsageError() throws {
        let r = try ToolRunner.run("imu-steps", ["--source", "i2c:/dev/i2c-99", "--mount", "0,0,0;0,0,0;0,0,0", "--json"])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("is not a rotation"), "stderr: \(r.stderr)")
    }

    @Test func emptyAndTwiceGivenValuesAreUsageErrors() throws {
        let empty = try ToolRunner.run("imu-steps", ["--replay", "", "--json"])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--replay needs a value (FILE), got an empty one"), "stderr: \(empty.stderr)")
        let twice = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "-o", "a.csv", "-o", "b.csv"])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("--out given twice"), "stderr: \(twice.stderr)")
    }
}

extension BadInputAuditOptionTests {
    /// imu-record's summary line printed the --out name raw.
    @Test func imuRecordsSummaryEscapesTheFileName() throws {
        let dir = try scratchDirectory()
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk", "-d", "1", "-o", dir + "/\u{1B}[2J.csv"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("\u{1B}"), "raw ESC: \(r.stderr.debugDescription)")
        #expect(r.stderr.contains(#"\x1B[2J.csv"#), "stderr: \(r.stderr)")
    }
}

extension BadInputAuditOptionTests {
    /// `-o -` on a full disk was reported as "-: write failed … is on disk".
    @Test func imuRecordNamesStandardOutputWhenItFills() throws {
        let r = try ShellRunner.run("\"$BIN/imu-record\" --simulate walk -d 5 -o - > /dev/full")
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-record: standard output: write failed: No space left on device"), "stderr: \(r.stderr)")
    }
}

extension BadInputAuditOptionTests {
    /// A spreadsheet's "Unicode text" export was "binary data (a NUL byte at offset 3)".
    @Test func aUTF16FileIsNamedWithTheConversion() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for u in "t,ax,ay,az\n1,0,0,1\n".utf16 { bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let path = try ToolRunner.temporaryFile("u16.csv", "")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("this is UTF-16 text"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("iconv -f UTF-16 -t UTF-8"), "stderr: \(r.stderr)")
    }
}
