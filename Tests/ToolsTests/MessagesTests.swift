import Foundation
import OffPool
import Testing
import IMUCore
import IMUSimulation

/// Issue #10 "Messages": text from files is escaped, compressed and binary files are named,
/// replayed event times start at the first sample, and the small defects of item 17.
@Suite(.offPool, .serialized) struct MessagesTests {
    // MARK: 15. Text from files is shown escaped.

    @Test func escapeSequencesFromAFileNeverReachTheTerminal() throws {
        let path = try ToolRunner.temporaryFile("esc.csv", "t,ax,ay,az\n1,0,0,1\n2,\u{1B}]0;owned\u{07}\u{1B}[31mred,0,1\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 2)
        #expect(!r.stderr.contains("\u{1B}"), "raw ESC on stderr: \(r.stderr.debugDescription)")
        #expect(r.stderr.contains(#"\x1B[31mred"#), "stderr: \(r.stderr)")
    }

    @Test func aByteOrderMarkBeforeTheHeaderIsAccepted() throws {
        let path = try ToolRunner.temporaryFile("bom.csv", "\u{FEFF}t,ax,ay,az\n1,0,0,1\n2,0,0,1\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
    }

    @Test func aByteOrderMarkElsewhereIsNamed() throws {
        let path = try ToolRunner.temporaryFile("bom2.csv", "\u{FEFF}\u{FEFF}t,ax,ay,az\n1,0,0,1\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("byte-order mark"), "stderr: \(r.stderr)")
    }

    @Test func aGzipFileIsNamedNotDumped() throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<200 { text += "\(Double(i) * 0.01),0,0,1\n" }
        try text.write(toFile: dir + "/w.csv", atomically: true, encoding: .utf8)
        let gz = try ShellRunner.run("gzip w.csv", directory: dir)
        try #require(gz.status == 0, "gzip: \(gz.stderr)")
        let r = try ToolRunner.run("imu-steps", ["--replay", dir + "/w.csv.gz", "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("gzip-compressed"), "stderr: \(r.stderr)")
        #expect(r.stderr.unicodeScalars.allSatisfy { $0.value >= 0x20 || $0 == "\n" }, "binary on stderr: \(r.stderr.debugDescription)")
        // And the hint works.
        let piped = try ShellRunner.run("zcat w.csv.gz | \"$BIN/imu-steps\" --replay - --json", directory: dir)
        #expect(piped.status == 0, "stderr: \(piped.stderr)")
    }

    // MARK: 16. Replayed events before the first status update: elapsed times.

    /// A recording on a boot clock (t from 61 000 s = 16:56:40) with stairs in its first seconds:
    /// every event time printed is elapsed from the first sample, within the recording's length.
    @Test func replayedEventTimesStartAtTheFirstSample() throws {
        let (samples, truth) = Simulator.generate(try Scenario.resolve("still:3,stairs-up:2,walk:30"), options: SimulationOptions())
        #expect(truth.floorsAscended >= 1)
        let path = try ToolRunner.temporaryFile("stairs.csv", "")
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true)))
        for var s in samples { s.time += 61_000; try writer.write(s) }
        try writer.close()
        let r = try ToolRunner.run("imu-steps", ["--replay", path])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let length = samples.last!.time - samples.first!.time
        let times = r.stdout.split(separator: "\n").flatMap { line -> [Double] in
            guard line.hasPrefix("floor") || line.hasPrefix("walking") || line.hasPrefix("stationary") else { return [] }
            return line.matches(of: /([0-9]+):([0-9]{2})/).map { Double($0.1)! * 60 + Double($0.2)! }
        }
        #expect(r.stdout.contains("floor up at"), "stdout: \(r.stdout)")
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 <= length + 1 }, "times \(times) beyond the recording's \(length) s: \(r.stdout)")
    }

    // MARK: 17. Small defects.

    @Test func aRunDoesNotStartWithResumed() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("resumed at 0:00"), "stdout: \(r.stdout)")
    }

    @Test func imuInfoSaysWhenNoIIODeviceIsFound() throws {
        guard !FileManager.default.fileExists(atPath: "/sys/bus/iio/devices/iio:device0") else { return }   // this machine has one
        let named = try ToolRunner.run("imu-info", ["--source", "iio:local:"])
        #expect(named.status == 3)
        #expect(named.stdout.contains("no IIO devices"), "stdout: \(named.stdout)")
        let plain = try ToolRunner.run("imu-info", [])
        #expect(plain.stdout.contains("no IIO devices"), "stdout: \(plain.stdout)")
        if plain.status == 3 { #expect(plain.stderr.contains("no motion sensor found")) }
    }

    @Test func aRecordingWithoutAccelerometerSaysSo() throws {
        let path = try ToolRunner.temporaryFile("tp.csv", "t,p\n1,1000\n2,1000.1\n")
        let r = try ToolRunner.run("imu-steps", ["--replay", path])
        #expect(r.stdout.contains("no accelerometer"), "stdout: \(r.stdout)")
        #expect(!r.stdout.contains("no barometer"), "stdout: \(r.stdout)")
    }

    @Test func lowRateIsNotBlamedOnABarometer() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--rate", "20", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("barometer rate"))
    }

    @Test func speedInfIsRefused() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "inf"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--speed"))
    }

    @Test func unsetHomeGivesAClearRememberMessage() throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--height", "1.7", "--remember", "--json"],
                                   environment: ["HOME": "", "XDG_CONFIG_HOME": ""])
        #expect(r.status == 2)
        #expect(r.stderr.contains("neither HOME nor XDG_CONFIG_HOME is set"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("fix: set HOME"))
    }

    @Test func sourceErrorsNameARealCommand() throws {
        let r = try ToolRunner.run("imu-record", ["--source", "nonsense", "-o", "-"])
        #expect(r.status == 2)
        #expect(!r.stderr.contains("'source --help'"), "stderr: \(r.stderr)")
        // The fix is the form itself now, not a help text to look it up in.
        #expect(r.stderr.contains("fix: e.g. i2c:/dev/i2c-1@0x68 (a chip on a bus), iio:local: (the kernel's sensors) or sim:walk"), "stderr: \(r.stderr)")
    }

    @Test func termDumbGetsNoEscapeSequences() throws {
        let (raw, status) = try PseudoTerminal().runImuSteps(["--simulate", "walk", "--speed", "max"],
                                                             environment: ["TERM": "dumb", "NO_COLOR": nil])
        #expect(status == 0)
        #expect(raw.contains("Summary"))
        #expect(!raw.contains("\u{1B}"), "escape sequences with TERM=dumb")
    }

    /// Ctrl-\ stops like Ctrl-C: the summary, exit 0, no crash report and no 30 s wait.
    @Test func ctrlBackslashStopsCleanly() throws {
        let tool = try ToolProcess("imu-steps", ["--simulate", "walk", "--json"])
        Thread.sleep(forTimeInterval: 1.5)
        let sent = Date()
        tool.send(SIGQUIT)
        let status = tool.wait()
        #expect(Date().timeIntervalSince(sent) < 10)
        #expect(status == 0, "stderr: \(tool.stderr)")
        #expect(!tool.stderr.contains("crashed"))
        #expect(tool.stdout.contains("\"type\":\"summary\""))
    }

    @Test func ctrlBackslashQuitsAToolWithoutATrap() throws {
        let tool = try ToolProcess("imu-info", ["--source", "sim:walk", "--read", "1000000"])
        Thread.sleep(forTimeInterval: 1.5)
        let sent = Date()
        tool.send(SIGQUIT)
        _ = tool.wait()
        #expect(Date().timeIntervalSince(sent) < 10)
        #expect(!tool.stderr.contains("crashed"), "stderr: \(tool.stderr)")
    }
}
