import Foundation
import OffPool
import Testing

/// Defects the session-10 new-user audit found, each tried on the built tools as a process.
/// Off the pool and serialized: each test waits for tool processes (`.offPool` runs it on a
/// thread of its own, so a parallel run's other tasks keep the pool's threads).
@Suite(.offPool, .serialized) struct NewUserAudit10Tests {
    /// A malformed line named FILE:LINE and what was wrong, but no fix (CONTRACTS §2 asks for
    /// the file, the line and what was wrong; the brief for the fix too): every tool that reads a
    /// recording printed "t.csv:3: field 'ay' is not a finite number: 'zero'" alone.
    @Test(arguments: [("0.00,0,0,1\n0.01,0,zero,1\n", "field 'ay' is not a finite number", "mend line 3 of "),
                      ("0.00,0,0,1\n0.01,0,0\n", "short row", "mend line 3 of "),
                      ("0.00,0,0,1\n0.02,0,0,1\n0.01,0,0,1\n", "goes back", "if two recordings were joined, split the file before line 4"),
                      ("", "", ""), ("HEADER:t,ax,ay,\u{1B}[2Jaz\n0,0,0,1\n", "header must name all of ax,ay,az or none (found: t,ax,ay,\\x1B[2Jaz)", "name the missing az in line 1"),
                      ("HEADER:t,ax,ay,az,ax\n0,0,0,1,0\n", "header names column 'ax' twice", "rename or remove one of the two 'ax' columns in line 1")])
    func aMalformedLineGivesItsFix(_ rows: String, _ problem: String, _ fix: String) throws {
        let dir = try scratchDirectory()
        let (text, expectProblem, expectFix) = rows.isEmpty
            ? ("0.00,0,0,1\n", "missing header line", "add a first line naming the columns")
            : rows.hasPrefix("HEADER:") ? (String(rows.dropFirst(7)), problem, fix) : ("t,ax,ay,az\n" + rows, problem, fix)
        let path = dir + "/my walk.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for tool in ["imu-steps", "imu-plot"] {
            let args = tool == "imu-plot" ? ["--replay", path, "-o", dir + "/p.svg"] : ["--replay", path]
            let r = try ToolRunner.run(tool, args)
            #expect(r.status == 2, "\(tool): \(r.stderr)")
            #expect(r.stderr.contains(expectProblem), "\(tool): \(r.stderr)")
            #expect(r.stderr.contains("  fix: " + expectFix), "\(tool): \(r.stderr)")
        }
        if !rows.isEmpty && fix.hasPrefix("mend") {
            let r = try ToolRunner.run("imu-steps", ["--replay", path])
            #expect(r.stderr.contains("sed -i '3d' '\(path)'"), "the name with a space is quoted: \(r.stderr)")
        }
    }

    /// The fix's sed command works as given, also on a name with an escape sequence in it
    /// (shown escaped, so it is quoted as $'…', which bash reads back).
    @Test func theFixOfANameWithAnEscapeSequenceRunsAsGiven() throws {
        let dir = try scratchDirectory()
        let name = "evil\u{1B}]0;owned\u{07}.csv"
        try "t,ax,ay,az\n0.00,0,0,1\n0.01,0,zero,1\n".write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run(executable: ToolRunner.path("imu-steps"), ["--replay", name], directory: dir)
        #expect(!r.stderr.contains("\u{1B}"), "escaped: \(r.stderr)")
        let sed = try #require(r.stderr.components(separatedBy: "delete it: ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(sed == #"sed -i '3d' $'evil\x1B]0;owned\x07.csv'"#)
        try (sed + "\n").write(toFile: dir + "/fix.sh", atomically: true, encoding: .utf8)
        let run = try ShellRunner.run("bash fix.sh", directory: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOfFile: dir + "/" + name, encoding: .utf8) == "t,ax,ay,az\n0.00,0,0,1\n")
    }

    /// A tool's --help named flags the tool refuses: imu-plot's --stride said "see --walked"
    /// (imu-steps' flag; imu-plot --walked: unknown option), imu-calibrate's --speed spoke of
    /// "--simulate/--replay --realtime", which it does not take. Every --flag in a help text is the
    /// tool's own, unless another program's name comes first (imu-steps --walked, systemctl
    /// enable --now).
    @Test func everyFlagAHelpTextNamesIsTheToolsOwn() throws {
        let others: Set<String> = ["systemctl", "journalctl", "busctl", "sudo"]
        for tool in ShippedTools.names {
            let help = try ToolRunner.run(tool, ["--help"]).stdout
            let own = Set(help.matches(of: /(?m)^\s+(?:-\w, )?--([a-z0-9-]+)/).map { String($0.output.1) })
            #expect(!own.isEmpty, "\(tool) --help lists no options")
            for line in help.split(separator: "\n") {
                var foreign = false   // within another program's command line
                for token in line.split(separator: " ") {
                    let word = token.trimmingCharacters(in: CharacterSet(charactersIn: "()[],;|'\""))
                    if word == tool { foreign = false }
                    else if (word.hasPrefix("imu-") && !word.hasPrefix("imu-\(tool.dropFirst(4))")) || others.contains(word) { foreign = true }
                    else if word.hasPrefix("--") && !foreign {
                        // "--simulate/--replay" names two flags.
                        for flag in word.split(separator: "/") {
                            let name = String(flag.drop(while: { $0 == "-" }).prefix(while: { $0.isLetter || $0.isNumber || $0 == "-" }))
                            #expect(name.isEmpty || own.contains(name), "\(tool) --help names --\(name), which \(tool) does not take: \(line)")
                        }
                    }
                    if token.hasSuffix(";") || token.hasSuffix(")") { foreign = false }
                }
            }
        }
    }

    /// imu-stepd on a full disk at start said "0 minutes are kept in memory and written when
    /// space returns" as it exited 1: nothing was kept and nothing would be written.
    @Test func aHistoryThatCannotBeCreatedOnAFullDiskSaysSo() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            print("skipped: mounting a small tmpfs to fill needs root and unshare(1)"); return
        }
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            mkdir -p state && printf 'simulate = walk\nbus = session\nstate_directory = %s/state\n' "$PWD" > c.conf && unshare -m sh -c '
              mount -t tmpfs -o size=64k tmpfs state || exit 77
              dd if=/dev/zero of=state/fill bs=4k 2>/dev/null
              "$BIN/imu-stepd" --config c.conf
              echo "status=$?" >&2'
            """, directory: dir, timeout: 60)
        if r.stderr.contains("exit 77") || r.status == 77 { print("skipped: tmpfs cannot be mounted here: \(r.stderr)"); return }
        #expect(r.stderr.contains("status=1"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("state/history.sqlite is full: SQLite cannot open or create the history there"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("kept in memory"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: free some space on the file system of \(dir)/state/history.sqlite (df \(dir)/state)"), "stderr: \(r.stderr)")
    }

    /// imu-plot --day --history naming a recording said "fix: move it away (mv walk.csv
    /// walk.csv.not-imukit) or configure another history path; a new history is created there":
    /// the writer's fix, renaming the user's recording, from a tool that only reads.
    @Test func aHistoryThatIsARecordingGetsAReadersFix() throws {
        let dir = try scratchDirectory()
        try "t,ax,ay,az\n0,0,0,1\n".write(toFile: dir + "/walk.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-plot", ["--day", "--history", dir + "/walk.csv", "-o", dir + "/d.html"])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("walk.csv is not an IMUKit history"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: name imu-stepd's history with --history") && !r.stderr.contains("mv "), "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: dir + "/walk.csv", encoding: .utf8) == "t,ax,ay,az\n0,0,0,1\n")
        // A mistyped name got "fix: see 'imu-plot --help'", which says nothing of files.
        let missing = try ToolRunner.run("imu-plot", ["--day", "--history", dir + "/histroy.sqlite", "-o", dir + "/d.html"])
        #expect(missing.status == 2 && missing.stderr.contains("fix: check the name (ls \(dir)); imu-stepd keeps its history as /var/lib/imu-stepd/history.sqlite"),
                "stderr: \(missing.stderr)")
    }

    /// A guided calibration whose save failed (a full disk, a config directory that cannot be
    /// made) printed only the error: the six faces' result was lost. It is now shown, with the
    /// file content to save later, and the error still exits 1.
    @Test func aCalibrationThatCannotBeSavedIsShownNotLost() throws {
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--simulate", "six-position", "--speed", "max"],
                                   environment: ["XDG_CONFIG_HOME": "/dev/null/config"], timeout: 120)
        #expect(r.status != 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("/dev/null"), "the error names the place: \(r.stderr)")
        #expect(r.stdout.contains("Not saved (the error below). Once it can be written, put this in /dev/null/config/imukit/calibration/sim_six-position.json:"),
                "stdout: \(r.stdout)")
        let json = try #require(r.stdout.firstRange(of: "{").map { String(r.stdout[$0.lowerBound...]) })
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(object?["key"] as? String == "sim:six-position" && object?["accel_bias_g"] != nil, "stdout: \(r.stdout)")
    }

    /// imu-stepd with bus = session (or an address) that cannot be reached told the user to check
    /// the system bus and DBUS_SYSTEM_BUS_ADDRESS, which that bus never reads.
    @Test(arguments: [("session", "is there a session bus?"), ("unix:path=/nonexistent/bus", "is a dbus-daemon listening at unix:path=/nonexistent/bus?")])
    func anUnreachableBusGetsItsOwnFix(_ bus: String, _ fix: String) throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            printf 'simulate = walk\nbus = \(bus)\nyield_to = no\nstate_directory = %s/state\n' "$PWD" > c.conf
            env -u DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR=/nonexistent "$BIN/imu-stepd" --config c.conf
            """, directory: dir, timeout: 60)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot connect to the"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: " + fix) && !r.stderr.contains("DBUS_SYSTEM_BUS_ADDRESS"), "stderr: \(r.stderr)")
    }

    /// A recording without accelerometer columns (t,gnss_speed) gave "steps 0" and "steps":0 with
    /// nothing in the JSON to tell it from a day of rest: a silent zero.
    @Test func aRecordingWithoutAnAccelerometerSaysStepsAreNotAvailable() throws {
        let dir = try scratchDirectory()
        try "t,gnss_speed\n0,1\n1,2\n".write(toFile: dir + "/gps.csv", atomically: true, encoding: .utf8)
        let json = try ToolRunner.run("imu-steps", ["--replay", dir + "/gps.csv", "--json"])
        #expect(json.status == 0, "stderr: \(json.stderr)")
        #expect(json.stdout.contains("\"step_counting_available\":false"), "stdout: \(json.stdout)")
        let human = try ToolRunner.run("imu-steps", ["--replay", dir + "/gps.csv"])
        #expect(human.stdout.contains("steps      not available (no accelerometer)") && !human.stdout.contains("steps      0"), "stdout: \(human.stdout)")
        try "t,ax,ay,az\n0,0,0,1\n1,0,0,1\n".write(toFile: dir + "/still.csv", atomically: true, encoding: .utf8)
        let still = try ToolRunner.run("imu-steps", ["--replay", dir + "/still.csv", "--json"])
        #expect(still.stdout.contains("\"step_counting_available\":true"), "stdout: \(still.stdout)")
    }

    /// imu-plot --replay walk.csv -o walk.csv replaced the recording with its plot (exit 0): the
    /// input was lost. imu-record refused this already; imu-plot now does, through a link too.
    @Test func aPlotNeverReplacesItsInput() throws {
        let dir = try scratchDirectory()
        let recording = "t,ax,ay,az\n0,0,0,1\n0.01,0,0,1\n"
        try recording.write(toFile: dir + "/walk.csv", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.csv", withDestinationPath: dir + "/walk.csv")
        for input in ["walk.csv", "link.csv"] {
            let r = try ToolRunner.run("imu-plot", ["--replay", dir + "/" + input, "-o", dir + "/walk.csv"])
            #expect(r.status == 2, "stderr: \(r.stderr)")
            #expect(r.stderr.contains("is the recording being drawn: the plot would replace it") && r.stderr.contains("fix: name the plot apart"), "stderr: \(r.stderr)")
            #expect(try String(contentsOfFile: dir + "/walk.csv", encoding: .utf8) == recording)
        }
    }
}
