import Foundation
import OffPool
import Testing
import IMUCore

/// A closed pipe (BRIEF "Bad input"): the program reading a tool's standard output has ended
/// (`| head -1` that has its line, `| false`). The tools used to die from SIGPIPE with status 141
/// and no word; now the write fails with EPIPE, the tool stops, says so on standard error with
/// the fix, and exits 1 (docs/CONTRACTS.md §4). What goes to a file is kept whole.
@Suite(.offPool, .serialized) struct ClosedPipeTests {
    struct Outcome {
        var status: Int32
        /// Ended by a signal (SIGPIPE: 13, a trap: 4 or 5) rather than by exit.
        var signalled: Bool
        var stderr: String
        var failure: String { "status \(status)\(signalled ? " (signal)" : ""), stderr: \(stderr)" }
    }

    /// Runs `tool` with standard output on a pipe whose read end is closed before it starts, so
    /// its first write meets a reader that has gone; standard error goes to a file, or to the same
    /// pipe (`stderrToo`: then nothing can be said, and the tool must still neither die nor lose
    /// what it writes to files).
    static func runWithReaderGone(_ tool: String, _ arguments: [String], environment: [String: String] = [:],
                                  stderrToo: Bool = false, timeout: Double = 120) throws -> Outcome {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ToolTimeout(tool: "pipe(2) failed", seconds: 0) }
        close(fds[0])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ToolRunner.path(tool))
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let errPath = NSTemporaryDirectory() + "tool-err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let writeEnd = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
        process.standardOutput = writeEnd
        process.standardError = stderrToo ? writeEnd : try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try writeEnd.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw ToolTimeout(tool: tool, seconds: timeout)
        }
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
                       stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// A walk recording of `seconds` at 100 Hz from the simulator, in `directory`.
    static func walk(_ directory: String, seconds: Int = 60, name: String = "walk.csv") throws -> String {
        let path = directory + "/" + name
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk:\(seconds)", "--speed", "max", "-q", "-o", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        return path
    }

    static func samples(_ path: String) throws -> Int {
        let reader = try RecordingReader(path: path)
        var count = 0
        while try reader.next() != nil { count += 1 }
        return count
    }

    /// "stopped after writing N lines" / "N samples" (into the pipe): the count the tool printed.
    static func written(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: "stopped after writing ") else { return nil }
        return Int(stderr[range.upperBound...].prefix { $0.isNumber })
    }

    /// The words say what is known: what was written into the pipe, and that the reader closed
    /// it. They used to say the lines "had been written to it" after "the program reading it
    /// ended", which read as lines the reader had: a pipe holds 64 KiB it may never have read.
    func expectReaderGoneMessage(_ r: Outcome, tool: String, written: Int? = 0) {
        #expect(!r.signalled && r.status == 1, "\(r.failure)")
        #expect(r.stderr.contains("\(tool): standard output closed: the program reading the pipe (e.g. head) closed its end"), "\(r.failure)")
        #expect(r.stderr.contains("into the pipe (the reader may not have read them all)"), "\(r.failure)")
        #expect(r.stderr.contains("  fix: "), "\(r.failure)")
        if let written { #expect(Self.written(r.stderr) == written, "\(r.failure)") }
    }

    // MARK: Every tool that writes to standard output

    @Test(arguments: [
        ["imu-steps", "--replay", "WALK", "--json"],
        ["imu-steps", "--replay", "WALK"],
        ["imu-steps", "--simulate", "walk", "--speed", "max", "--json"],
        ["imu-steps", "--help"],
        ["imu-record", "--version"],
        ["imu-info", "--help"],
        ["imu-calibrate", "--help"],
        ["imu-plot", "--replay", "WALK", "-o", "-"],
        ["imu-stepd", "--version"],
    ])
    func aToolWhoseReaderIsGoneSaysSoAndExitsOne(command: [String]) throws {
        let dir = try scratchDirectory()
        let walk = command.contains("WALK") ? try Self.walk(dir) : ""
        let r = try Self.runWithReaderGone(command[0], command.dropFirst().map { $0 == "WALK" ? walk : $0 })
        expectReaderGoneMessage(r, tool: command[0])
    }

    @Test func imuCalibrateJSONWithItsReaderGoneExitsOne() throws {
        let dir = try scratchDirectory()
        let six = dir + "/six.csv"
        let rec = try ToolRunner.run("imu-record", ["--simulate", "six-position", "--speed", "max", "--raw", "-q", "-o", six])
        #expect(rec.status == 0, "stderr: \(rec.stderr)")
        let r = try Self.runWithReaderGone("imu-calibrate", ["-6", "--from-recording", six, "--json"])
        expectReaderGoneMessage(r, tool: "imu-calibrate")
    }

    /// imu-info with no sensor here exits 3 (no sensor found); with its reader gone it still does
    /// (the more specific failure wins), and says that the output was lost.
    @Test func imuInfoKeepsItsOwnFailureAndSaysTheOutputWasLost() throws {
        let normal = try ToolRunner.run("imu-info", ["--no-gps"])
        let r = try Self.runWithReaderGone("imu-info", ["--no-gps"])
        #expect(!r.signalled && r.status == (normal.status == 0 ? 1 : normal.status), "normal status \(normal.status); \(r.failure)")
        #expect(r.stderr.contains("imu-info: standard output closed"), "\(r.failure)")
    }

    /// `imu-record -o -` whose reader has gone stops at once (not after the whole duration), in
    /// the reader-gone words, not the full-disk ones.
    @Test func aRecordingToStandardOutputStopsWhenItsReaderGoes() throws {
        let started = Date()
        let r = try Self.runWithReaderGone("imu-record", ["--simulate", "walk", "--speed", "1", "-d", "600", "-o", "-"], timeout: 60)
        expectReaderGoneMessage(r, tool: "imu-record")
        #expect(!r.stderr.contains("free space"), "\(r.failure)")
        #expect(Date().timeIntervalSince(started) < 30, "it ran on after its reader had gone")
    }

    /// A live run (the simulator at real speed, which never ends by itself) stops as after Ctrl-C
    /// when its reader goes, instead of running on and writing into nothing.
    @Test func aLiveRunStopsWhenItsReaderGoes() throws {
        let started = Date()
        let r = try Self.runWithReaderGone("imu-steps", ["--simulate", "walk:3600", "--speed", "1", "--json"], timeout: 60)
        expectReaderGoneMessage(r, tool: "imu-steps")
        #expect(Date().timeIntervalSince(started) < 30, "it ran on after its reader had gone")
    }

    /// The guided calibration (`imu-calibrate --six-position`) waits for a person to turn the
    /// device: with its reader gone nobody reads the prompts (or, with `--json`, would get the
    /// result). It used to prompt on until the session ended by itself (here a device left on
    /// one face for 120 s, at real speed); now it stops at its next batch, computes and saves
    /// nothing (no calibration directory appears), and exits 1 in the reader-gone words.
    @Test(arguments: [false, true])
    func aGuidedCalibrationStopsWhenItsReaderGoes(json: Bool) throws {
        let dir = try scratchDirectory()
        let started = Date()
        let r = try Self.runWithReaderGone("imu-calibrate", ["--six-position", "--simulate", "still:120", "--speed", "1"]
                                               + (json ? ["--json", "--save"] : []),
                                           environment: ["XDG_CONFIG_HOME": dir + "/config", "HOME": dir], timeout: 60)
        expectReaderGoneMessage(r, tool: "imu-calibrate")
        #expect(r.stderr.contains("imu-calibrate: session stopped with 0 of 6 faces captured: nothing computed or saved"), "\(r.failure)")
        #expect(r.stderr.components(separatedBy: "standard output closed").count == 2, "said once: \(r.failure)")
        #expect(Date().timeIntervalSince(started) < 30, "it ran on after its reader had gone")
        #expect(!FileManager.default.fileExists(atPath: dir + "/config"), "something was saved")
    }

    // MARK: `| head -1`: the reader takes its line, then goes

    /// More output than a pipe holds (64 KiB), so the tool meets the closed pipe part-way: the
    /// first line arrives whole, the tool stops with the count of lines written, exit 1.
    @Test func headTakesTheFirstLineAndTheToolStopsPartWay() throws {
        let dir = try scratchDirectory()
        let full = try ToolRunner.run("imu-steps", ["--simulate", "walk:3600", "--speed", "max", "--json"])
        #expect(full.status == 0, "stderr: \(full.stderr)")
        #expect(full.stdout.utf8.count > 2 * 65_536, "the walk must overflow a pipe: \(full.stdout.utf8.count) bytes")
        let r = try ShellRunner.run("""
            { "$BIN/imu-steps" --simulate walk:3600 --speed max --json 2>err.txt; echo $? > status.txt; } | head -1
            """, directory: dir)
        let status = try String(contentsOfFile: dir + "/status.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
        #expect(status == "1", "stderr: \(stderr)")
        #expect(r.lines.count == 1 && r.lines.first == full.lines.first, "stdout: \(r.stdout)")
        let written = try #require(Self.written(stderr), "stderr: \(stderr)")
        #expect(written >= 1 && written < full.lines.count, "stderr: \(stderr)")
    }

    /// The same for `imu-record -o - | head -1`: the summary says how many samples of how many
    /// reached the reader, the error says the reader went.
    @Test func headTakesTheFirstLineOfARecording() throws {
        let dir = try scratchDirectory()
        let r = try ShellRunner.run("""
            { "$BIN/imu-record" --simulate walk:600 --speed max -o - 2>err.txt; echo $? > status.txt; } | head -1
            """, directory: dir)
        let status = try String(contentsOfFile: dir + "/status.txt", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let stderr = try String(contentsOfFile: dir + "/err.txt", encoding: .utf8)
        #expect(status == "1", "stderr: \(stderr)")
        #expect(r.stdout == "# imukit recording (format: docs/file-formats.md)\n", "stdout: \(r.stdout)")
        #expect(stderr.contains("imu-record: standard output closed"), "stderr: \(stderr)")
        let written = try #require(Self.written(stderr), "stderr: \(stderr)")
        #expect(stderr.contains("recorded \(written) of "), "stderr: \(stderr)")
        #expect(written < 60_000, "stderr: \(stderr)")
    }

    // MARK: Files are kept

    /// imu-record to a file with both standard output and standard error on a closed pipe
    /// (`imu-record -o f.csv 2>&1 | head -1`): the gap lines it prints mid-run cannot be shown,
    /// but the recording is whole, renamed into place, and the tool exits 0.
    @Test func aRecordingToAFileIsWholeWhenStandardOutputAndErrorAreGone() throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<3000 {
            let t = 10 + Double(i) * 0.01 + (i >= 1500 ? 2.0 : 0)   // a 2 s gap halfway: a line on stderr
            text += "\(t),0.0,0.0,\(1.0 + 0.3 * sin(t * 2 * .pi * 1.8))\n"
        }
        let input = dir + "/in.csv", output = dir + "/out.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try Self.runWithReaderGone("imu-record", ["--replay", input, "-o", output], stderrToo: true)
        #expect(!r.signalled && r.status == 0, "\(r.failure)")
        #expect(try Self.samples(output) == 3000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".imukit-") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    /// imu-steps remembering a stride (`--remember` writes the walker profile after the run):
    /// kept although the reader of its output is gone.
    @Test func theWalkerProfileIsSavedWhenTheReaderIsGone() throws {
        let dir = try scratchDirectory()
        let walk = try Self.walk(dir)
        let r = try Self.runWithReaderGone("imu-steps", ["--replay", walk, "--json", "--stride", "1.78:0.70,2.05:0.79", "--remember"],
                                           environment: ["XDG_CONFIG_HOME": dir + "/config"])
        expectReaderGoneMessage(r, tool: "imu-steps")
        let profile = try String(contentsOfFile: dir + "/config/imukit/profile.json", encoding: .utf8)
        #expect(profile.contains("0.79"), "profile: \(profile)")
    }

    // MARK: The step daemon

    /// imu-stepd's own log lines go to standard error when systemd's journal is not there; a
    /// closed pipe there must neither kill it (SIGPIPE, 141) nor crash it (FileHandle traps on
    /// EPIPE): it ends with its own exit status and the reason it would have logged.
    @Test func theDaemonWithItsLogReaderGoneEndsNormally() throws {
        let dir = try scratchDirectory()
        let config = dir + "/stepd.conf"
        try "bus = unix:path=\(dir)/no-bus\nstate_directory = \(dir)/state\nreplay = \(dir)/missing.csv\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let r = try Self.runWithReaderGone("imu-stepd", ["--config", config], environment: ["IMUKIT_LOG_STDERR": "1"],
                                           stderrToo: true, timeout: 60)
        #expect(!r.signalled, "\(r.failure)")
        let logged = try ToolRunner.run("imu-stepd", ["--config", config], environment: ["IMUKIT_LOG_STDERR": "1"], timeout: 60)
        #expect(r.status == logged.status, "with a log reader: \(logged.status) \(logged.stderr); \(r.failure)")
    }
}
