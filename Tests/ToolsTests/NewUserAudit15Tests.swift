import Foundation
import OffPool
import Testing

/// The session-15 new-user audit: each tool tried with bad input as a process (off the pool:
/// each test waits for tool processes).
@Suite(.offPool) struct NewUserAudit15Tests {
    /// A real-time replay (`--speed 1000` here) of a recording with a pause in `t` sat silent for
    /// the pause (`imu-record -d` counts the recording's time, so it waited it out too). The
    /// first long pause is said once, as it starts, with the escaped file name and a way out.
    @Test func aLongPauseInAPacedReplayIsSaidOnce() throws {
        var text = "t,ax,ay,az\n"
        for start in [0.0, 6000, 12_000] {
            for i in 0...10 { text += String(format: "%.2f,0,0,1\n", start + Double(i) / 100) }
        }
        let path = try ToolRunner.temporaryFile("pause\u{1B}[2J.csv", text)
        let out = try scratchDirectory() + "/out.csv"
        let tool = try ToolProcess("imu-record", ["--replay", path, "--speed", "1000", "-o", out])
        let said = "pause\\x1B[2J.csv: t jumps from 0.100 s to 6000.000 s, a pause in the recording: played at its pace × 1000, nothing comes for 6 s (said once); "
            + "a higher --speed shortens it, and a replay without --realtime or --speed reads the file at once"
        // Said as the wait starts, not after it (6 s).
        #expect(tool.waitUntil(timeout: 4) { tool.stderr.contains(said) }, "stderr: \(tool.stderr)")
        #expect(tool.wait(timeout: 60) == 0, "stderr: \(tool.stderr)")
        #expect(tool.stderr.components(separatedBy: "t jumps").count == 2, "once, not at the second pause: \(tool.stderr)")
        #expect(tool.stderr.contains("recorded 33 samples"), "stderr: \(tool.stderr)")
    }

    /// Fix lines that said only "see '… --help'" where the right command is known: a recording
    /// given to imu-calibrate without --six-position, no mode at all, one pace of the two
    /// --stride needs, --realtime with a simulation.
    @Test(arguments: [
        ("imu-calibrate", ["--from-recording", "six.csv"],
         "imu-calibrate: --from-recording goes with --six-position, the calibration it computes\n  fix: imu-calibrate --six-position --from-recording six.csv\n"),
        ("imu-calibrate", [],
         "  fix: imu-calibrate --six-position calibrates (guided), --show prints what is saved, --reset deletes it\n"),
        ("imu-steps", ["--stride", "1.78:0.702"],
         "  fix: measure a second pace, brisker or slower: imu-steps --walked 100 while you walk 100 m, then give both, --stride 1.78:0.702,C:M\n"),
        ("imu-steps", ["--since", "2026-02-30"],
         "imu-steps: --since 2026-02-30 names no date: February 2026 has 28 days\n  fix: give one that exists, e.g. --since 2026-02-28\n"),
        ("imu-plot", ["--day", "2026-13-01", "-o", "/tmp/never-written.html"],
         "imu-plot: --day 2026-13-01 names no date: there is no month 13\n  fix: give one that exists, e.g. --day 2026-12-01\n"),
        ("imu-steps", ["--simulate", "walk:3", "--height", "180"],
         "imu-steps: --height is in metres; 180 would be 180 m\n  fix: give it in metres: --height 1.8\n"),
        ("imu-steps", ["--simulate", "walk:3", "--floor-height", "300"],
         "imu-steps: --floor-height is in metres; 300 would be 300 m\n  fix: give it in metres: --floor-height 3\n"),
        ("imu-steps", ["--simulate", "walk:3", "--remember"],
         "  fix: give what to save with it, e.g. imu-steps --height 1.75 --remember\n"),
        ("imu-steps", ["--simulate", "walk", "--realtime"],
         "  fix: leave it out: a simulation plays in real time already (--speed N changes its pace)\n"),
    ])
    func usageErrorsNameTheCommandThatFixesThem(tool: String, arguments: [String], said: String) throws {
        let r = try ToolRunner.run(tool, arguments)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains(said) && !r.stderr.contains("--help'"), "stderr: \(r.stderr)")
    }

    /// A recorded session missing faces got the live session's fix, "let the device rest still
    /// ... on each missing face", which no one can do to a file: it names the file and says to
    /// record the session again, with the seconds a face needs (1 s settling + 5 s averaged).
    @Test func aRecordedSessionMissingFacesSaysToRecordAgain() throws {
        var text = "t,ax,ay,az\n"
        for i in 0..<800 { text += "\(Double(i) / 100),0.004,-0.006,1.015\n" }
        let file = try scratchDirectory() + "/flat.csv"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", file, "--json"],
                                   environment: ["XDG_CONFIG_HOME": try scratchDirectory()])
        #expect(r.status == 2, "a bad file for a calibration (it was 1): \(r.stderr)")
        #expect(r.stderr.contains("\(file): the recording does not rest still on every face; missing: -z +y -y +x -x"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: record the session again with the device still for 6 s or more on each face (imu-record --raw -o six.csv)"),
                "stderr: \(r.stderr)")
    }

    /// `--walked` over a distance that gives no plausible pace printed the quotients whole
    /// ("pace 2.0881240264075367:0.17761989342806395"): now as --walked and --stride write them.
    @Test func anImplausibleWalkedPaceIsRounded() throws {
        let dir = try scratchDirectory()
        #expect(try ToolRunner.run("imu-record", ["--simulate", "walk:30", "--speed", "max", "-q", "-o", dir + "/walk.csv"]).status == 0)
        let r = try ToolRunner.run("imu-steps", ["--replay", dir + "/walk.csv", "--walked", "2"],
                                   environment: ["XDG_CONFIG_HOME": dir])
        #expect(r.status != 0, "stderr: \(r.stderr)")
        #expect(r.stderr.contains(try Regex(#"over 2 m: pace \d\.\d\d:0\.0\d\d \(steps/s:metres per step\) is outside"#)), "stderr: \(r.stderr)")
    }

    /// `imu-calibrate --show` (or `--reset`) with no sensor connected said only "no sensor found;
    /// run imu-info": the calibrations saved are what --key takes, and the fix now names them.
    @Test func showWithoutASensorNamesTheSavedKeys() throws {
        let dir = try scratchDirectory()
        let env = ["XDG_CONFIG_HOME": dir + "/config", "IMUKIT_SYSTEM_CONFIG_DIR": dir + "/system"]
        #expect(try ToolRunner.run("imu-calibrate", ["-6", "--simulate", "six-position", "--speed", "max"], environment: env, timeout: 120).status == 0)
        let r = try ToolRunner.run("imu-calibrate", ["--show"], environment: env, timeout: 60)
        guard r.status == 3 else { print("skipped: a sensor is connected here (\(r.status))"); return }
        #expect(r.stderr.contains("fix: name a saved calibration with --key: 'sim:six-position' (imu-calibrate --show --key 'sim:six-position')"),
                "stderr: \(r.stderr)")
        let shown = try ToolRunner.run("imu-calibrate", ["--show", "--key", "sim:six-position"], environment: env)
        #expect(shown.status == 0, "the key the fix names is one --show takes: \(shown.stderr)")
    }

    /// `imu-info > /dev/full` on a machine without sensors said "each 'problem' line above names
    /// a fix" when no line had been written: it now says they were not, before the reason.
    @Test func noSensorWithALostListingDoesNotPointAbove() throws {
        let r = try ShellRunner.run("\"$BIN\"/imu-info --bus 1023 --no-gps > /dev/full", timeout: 60)
        guard r.status == 3 else { print("skipped: /dev/i2c-1023 exists here (\(r.status))"); return }
        #expect(r.stderr.contains("imu-info: no motion sensor found; the 'problem' lines, each with its fix, were not written (below)\n"
                                  + "imu-info: cannot write to standard output: No space left on device"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("above"), "stderr: \(r.stderr)")
    }

    /// A composed simulation was announced as "SIMULATED data (simulated custom)" (and so in
    /// imu-stepd's journal and a recording's sensor: line): it is named as written.
    @Test func aComposedSimulationIsNamedAsWritten() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "still:1,walk:2", "--speed", "max"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        // The banner is part of the summary view (StatusDisplay), whichever stream carries it.
        #expect((r.stdout + r.stderr).contains("SIMULATED data (simulated still:1,walk:2)"), "stdout: \(r.stdout)\nstderr: \(r.stderr)")
    }
}
