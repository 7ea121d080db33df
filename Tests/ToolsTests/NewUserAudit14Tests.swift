import Foundation
import GPSFake
import OffPool
import Testing

/// The session-14 new-user audit: each tool tried with bad input as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit14Tests {
    /// `imu-info 2>&1` on a machine without sensors printed "no motion sensor found; each
    /// 'problem' line above names a fix" first and the problem lines after it: standard error was
    /// handed to the writer while standard output's lines were still collected. Now they keep the
    /// order they were written in.
    @Test func anErrorComesAfterTheLinesItFollowsOnOnePipe() throws {
        let r = try ShellRunner.run("\"$BIN\"/imu-info --bus 1023 --no-gps 2>&1", timeout: 60)
        guard r.status == 3 else { print("skipped: /dev/i2c-1023 exists here (\(r.status))"); return }
        let lines = r.lines
        let problem = try #require(lines.firstIndex { $0.hasPrefix("problem") }, "\(lines)")
        let verdict = try #require(lines.firstIndex { $0.hasPrefix("imu-info: no motion sensor found") }, "\(lines)")
        #expect(problem < verdict, "\(lines)")
    }

    /// imu-info's gps line told a user without gpsd to "run without --gps", an option imu-info
    /// does not have (it asks gpsd unless --no-gps): the note now names imu-info's own options.
    @Test func imuInfoNamesItsOwnGPSOptions() throws {
        let port = GPSFake.freePort()
        let r = try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(port)"], timeout: 60)
        let line = try #require(r.lines.first { $0.hasPrefix("gps") }, "stdout: \(r.stdout)")
        #expect(line.contains("gpsd at 127.0.0.1:\(port) is not reachable"), "\(line)")
        #expect(line.contains("check the address (--gpsd HOST:PORT), or leave gpsd out (--no-gps)"), "\(line)")
        #expect(!line.contains("without --gps"), "\(line)")
    }

    /// Binary data with no NUL in its first 512 bytes (random bytes, one time in eight) was
    /// "header has no 't' column (found: <a row of U+FFFD>)" with the fix to add a header; text
    /// in Latin-1 the same. Now the first byte that is no UTF-8 is named, with the fix; a NUL
    /// byte's message gets a fix line too.
    @Test func bytesThatAreNoUTF8AreNotARecording() throws {
        let path = try ToolRunner.temporaryFile("latin1.csv", "")
        // "t,ax,ay,az" with an é in Latin-1 (0xE9) in a comment line, then a sample.
        try Data([UInt8]("# sensor: caf".utf8) + [0xE9] + [UInt8]("\nt,ax,ay,az\n0,0,0,1\n".utf8)).write(to: URL(fileURLWithPath: path))
        for tool in [["imu-steps", "--replay", path], ["imu-plot", "-o", path + ".svg", "--replay", path]] {
            let r = try ToolRunner.run(tool[0], Array(tool.dropFirst()))
            #expect(r.status == 2, "\(tool[0]): \(r.stderr)")
            #expect(r.stderr.contains("\(path):1: byte 0xE9 at offset 13 is not UTF-8 text: this is binary data or text in another encoding, not a CSV recording"), "\(tool[0]): \(r.stderr)")
            #expect(r.stderr.contains("fix: name a CSV recording (imu-record writes one; docs/file-formats.md); text in another encoding converts with iconv -f LATIN1 -t UTF-8 \(path) > recording.csv"), "\(tool[0]): \(r.stderr)")
        }
        let r = try ToolRunner.run("imu-steps", ["--replay", "/dev/zero"])
        #expect(r.status == 2 && r.stderr.contains("/dev/zero:1: binary data (a NUL byte at offset 0), not a CSV recording\n  fix: name a CSV recording"), "\(r.stderr)")
    }

    /// `--remember` with a config directory that cannot be made (XDG_CONFIG_HOME=/proc) said
    /// "cannot create directory /proc/imukit: No such file or directory" and no fix.
    @Test func aProfileThatCannotBeSavedNamesWhereToSaveIt() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk:3", "--speed", "max", "--height", "1.8", "--remember"],
                                   environment: ["XDG_CONFIG_HOME": "/proc"])
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-steps: cannot create directory /proc/imukit: No such file or directory\n"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: set XDG_CONFIG_HOME to a directory you own on a writable disk"), "stderr: \(r.stderr)")
    }

    /// imu-record refusing to overwrite a recording gave "fix: see 'imu-record --help'".
    @Test func anExistingRecordingIsKeptAndTheFixSaysHowToReplaceIt() throws {
        let path = try ToolRunner.temporaryFile("kept.csv", "t,ax,ay,az\n0,0,0,1\n")
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk:1", "--speed", "max", "-o", path])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-record: \(path) already exists; it is left as it is\n  fix: choose another name (--out FILE), or add --force to replace it"), "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "t,ax,ay,az\n0,0,0,1\n")
    }

    /// A replay's note on standard error ("FILE: dropped 1 sample whose t repeated …") wrote the
    /// file name as it was: a name holding ESC [2J cleared the terminal under imu-steps and
    /// imu-record (imu-plot escaped it). Now every note and capture warning is escaped.
    @Test func aReplayNoteEscapesTheFileName() throws {
        let directory = try scratchDirectory()
        let name = "e\u{1B}[2Jvil.csv"
        try "t,ax,ay,az\n0,0,0,1\n0,0,0,1\n0.01,0,0,1\n".write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        for tool in [["imu-steps", "--replay", name], ["imu-record", "--replay", name, "-o", "out.csv"]] {
            let r = try ToolRunner.run(executable: ToolRunner.path(tool[0]), Array(tool.dropFirst()), directory: directory)
            #expect(r.status == 0, "\(tool[0]): \(r.stderr)")
            #expect(r.stderr.contains("e\\x1B[2Jvil.csv: dropped 1 sample whose t repeated"), "\(tool[0]): \(r.stderr)")
            #expect(!r.stderr.contains("\u{1B}"), "\(tool[0]): \(r.stderr)")
        }
    }

    /// A state directory that cannot be made said Foundation's "(The operation could not be
    /// completed. The file doesn't exist.)" and told the user to edit /etc/imukit/stepd.conf,
    /// whatever file --config named. Now the errno's words and the file given.
    @Test func aStateDirectoryThatCannotBeMadeNamesTheConfigGiven() throws {
        let config = try ToolRunner.temporaryFile("stepd.conf", "simulate = walk\nstate_directory = /proc/imukit-state\n")
        let r = try ToolRunner.run("imu-stepd", ["--config", config], timeout: 30)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-stepd: state directory /proc/imukit-state: does not exist and cannot be created (No such file or directory)\n"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("or set state_directory in \(config);"), "stderr: \(r.stderr)")
    }

    /// A recording whose t jumps (a pause of 10⁷ s, or a damaged line) replayed in real time
    /// held the samples before the jump in one batch with the sample after it: imu-record wrote
    /// none of them, even when stopped with Ctrl-C ("recorded 0 samples"). They are now due at
    /// their own time and recorded; the replay then waits out the pause, as real time asks.
    @Test func samplesBeforeAPauseAreDeliveredInRealTime() throws {
        let directory = try scratchDirectory()
        try "t,ax,ay,az\n0,0,0,1\n0.01,0,0,1\n10000000,0,0,1\n".write(toFile: directory + "/paused.csv", atomically: true, encoding: .utf8)
        // Ctrl-C after 5 s: the samples are due 0.01 s after the start (the file is created at the end).
        let r = try ShellRunner.run("""
            "$BIN"/imu-record --replay paused.csv --realtime -o out.csv & pid=$!
            sleep 5; kill -INT $pid; wait $pid
            """, directory: directory, timeout: 60)
        #expect(r.stderr.contains("recorded 2 samples"), "stderr: \(r.stderr)")
        let lines = try String(contentsOfFile: directory + "/out.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.suffix(2) == ["0.000000,0.00000,0.00000,1.00000", "0.010000,0.00000,0.00000,1.00000"], "\(lines)")
    }

    /// Three headers a spreadsheet or an old editor writes were refused with the fix to add a
    /// header that is there: CR-only line ends ("header names column '0' twice"), quoted names
    /// and upper-case names ("header has no 't' column"). Each is now named, and the fix's
    /// command, run as given, makes a recording that replays.
    @Test(arguments: [
        ("t,ax,ay,az\r0,0,0,1\r0.01,0,0,1\r", "lines end in a carriage return alone (old Mac text), so the whole file reads as one line",
         "convert the line ends: tr '\\r' '\\n' < in.csv > fixed.csv"),
        ("\"t\",\"ax\",\"ay\",\"az\"\n\"0\",\"0\",\"0\",\"1\"\n", "column names are in quotes (found: \"t\",\"ax\",\"ay\",\"az\"); recordings have no quotes",
         "remove them: tr -d '\"' < in.csv > fixed.csv"),
        ("T,AX,AY,AZ\n0,0,0,1\n", "column names are lower case: t, not T (found: T,AX,AY,AZ)", "write line 1 in lower case, e.g. t,ax,ay,az"),
    ])
    func aHeaderWrittenByAnotherToolIsNamed(text: String, message: String, fix: String) throws {
        let directory = try scratchDirectory()
        try text.write(toFile: directory + "/in.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run(executable: ToolRunner.path("imu-steps"), ["--replay", "in.csv"], directory: directory)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("in.csv:1: \(message)\n  fix: \(fix)"), "stderr: \(r.stderr)")
        guard fix.contains("fixed.csv") else { return }
        let command = String(fix[fix.range(of: ": ")!.upperBound...])
        let mended = try ShellRunner.run(command + " && \"$BIN\"/imu-steps --replay fixed.csv --json", directory: directory)
        #expect(mended.status == 0 && mended.stdout.contains("\"type\":\"summary\""), "\(command): \(mended.stderr)")
    }

    /// `imu-info --source sim:walk` (what imu-steps takes) said "unknown source scheme 'sim'"
    /// and "fix: see 'imu-info --help'"; the fix now says where a simulation plays.
    @Test func imuInfoSaysWhereASimulationPlays() throws {
        let r = try ToolRunner.run("imu-info", ["--source", "sim:walk", "--read", "3"])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-info: unknown source scheme 'sim' (known: i2c, iio)\n  fix: imu-info looks at sensors only (i2c, iio); play a simulation with imu-steps --simulate NAME"), "stderr: \(r.stderr)")
        let other = try ToolRunner.run("imu-info", ["--source", "usb:1"])
        #expect(other.status == 2 && other.stderr.contains("fix: name a sensor as i2c:BUS@ADDRESS or iio:local: / iio:ip:HOST"), "stderr: \(other.stderr)")
    }

    /// A board named by a host name that does not resolve: libiio tried Avahi and printed
    /// "ERROR: Unable to create Avahi DNS-SD client :Daemon not running" twice, then the tool said
    /// "No such device or address" and "start iiod on the board". Now the tool says it cannot look
    /// the name up, names it, and the fix; libiio is not asked (.invalid never resolves, RFC 6761).
    @Test func anUnknownHostIsSaidAsSuchWithoutAvahiNoise() throws {
        let r = try ToolRunner.run("imu-steps", ["--source", "iio:ip:imukit-board.invalid"], timeout: 60)
        guard !r.stderr.contains("cannot load libiio") else { print("skipped: libiio0 is not installed"); return }
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("imu-steps: no IIO context at ip:imukit-board.invalid: cannot look up the host name 'imukit-board.invalid' ("), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: check the board's name and that this machine's DNS answers, or give the board's address, e.g. iio:ip:192.168.1.20"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Avahi") && !r.stderr.contains("start iiod"), "stderr: \(r.stderr)")
    }

    /// A `.local` name goes to libiio's Avahi lookup only while avahi-daemon runs; without it
    /// libiio could only print "Unable to create Avahi DNS-SD client" twice. The fix says what
    /// a .local name needs.
    @Test func aLocalNameWithoutAvahiIsSaidAsSuch() throws {
        guard access("/run/avahi-daemon/socket", F_OK) != 0 else { print("skipped: avahi-daemon runs here"); return }
        let r = try ToolRunner.run("imu-steps", ["--source", "iio:ip:imukit-board.local"], timeout: 60)
        guard !r.stderr.contains("cannot load libiio") else { print("skipped: libiio0 is not installed"); return }
        #expect(r.status == 3, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot look up the host name 'imukit-board.local'"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: a .local name needs multicast DNS: start avahi-daemon"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("Avahi DNS-SD"), "stderr: \(r.stderr)")
    }
}
