import Foundation
import OffPool
import Testing
import IMUCore

/// Issue #10 "Data loss and hangs": pipes and FIFOs, writing over the input, a full disk,
/// write errors on standard output, a bad line in a re-recorded file, file values that would
/// overflow an integer conversion.
@Suite(.offPool, .serialized) struct DataLossTests {
    /// A 20 s walk-like accelerometer recording, `lines` samples at 50 Hz.
    func walkFile(_ directory: String, lines: Int = 1000, name: String = "walk.csv") throws -> String {
        var text = "# sensor: test walk\nt,ax,ay,az\n"
        for i in 0..<lines {
            let t = 1.5 + Double(i) * 0.02
            text += "\(t),0.0,0.0,\(1.0 + 0.3 * sin(t * 2 * .pi * 1.8))\n"
        }
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Samples in a recording, read with the project's strict reader (throws on any bad line).
    func sampleCount(_ path: String) throws -> Int {
        let reader = try RecordingReader(path: path)
        var count = 0
        while try reader.next() != nil { count += 1 }
        return count
    }

    func summary(_ r: ToolResult) throws -> [String: Any] {
        let last = try #require(try jsonObjects(r).last)
        #expect(last["type"] as? String == "summary")
        return last
    }

    // MARK: 1. Pipes and FIFOs: every input is read once.

    @Test(arguments: ["cat walk.csv | timeout 30 \"$BIN/imu-steps\" --replay /dev/stdin --json",
                      "cat walk.csv | timeout 30 \"$BIN/imu-steps\" --replay - --json",
                      "mkfifo fifo && (cat walk.csv > fifo &) && timeout 30 \"$BIN/imu-steps\" --replay fifo --json"])
    func replayReadsPipesAndFIFOs(script: String) throws {
        let dir = try scratchDirectory()
        let file = try walkFile(dir)
        let direct = try summary(try ToolRunner.run("imu-steps", ["--replay", file, "--json"]))
        let r = try ShellRunner.run(script, directory: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let piped = try summary(r)
        #expect(piped["steps"] as? Int == direct["steps"] as? Int)
        #expect(piped["duration_s"] as? Double == direct["duration_s"] as? Double)
    }

    @Test func imuRecordReplaysStandardInput() throws {
        let dir = try scratchDirectory()
        _ = try walkFile(dir)
        let r = try ShellRunner.run("cat walk.csv | timeout 30 \"$BIN/imu-record\" --replay /dev/stdin -q -o out.csv", directory: dir)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(try sampleCount(dir + "/out.csv") == 1000)
    }

    // MARK: 2. The output is never the input, and replaces a file only once written.

    @Test func imuRecordRefusesToWriteOverItsInput() throws {
        let dir = try scratchDirectory()
        let file = try walkFile(dir)
        let before = try String(contentsOfFile: file, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", file, "-o", file, "--force", "-q"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("is the recording being replayed"), "stderr: \(r.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
        // Also through another name for the same file (a hard link).
        let link = dir + "/link.csv"
        #expect(link.withCString { l in file.withCString { Glibc.link($0, l) } } == 0)
        let linked = try ToolRunner.run("imu-record", ["--replay", link, "-o", file, "--force", "-q"])
        #expect(linked.status == 2)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    }

    @Test func aFailedRecordingLeavesTheOldFileAlone() throws {
        let dir = try scratchDirectory()
        let old = dir + "/old.csv"
        try "precious\n".write(toFile: old, atomically: true, encoding: .utf8)
        // A replay whose header is fine but whose first sample is bad: nothing recorded.
        let bad = dir + "/bad.csv"
        try "t,ax,ay,az\n0,x,0,1\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", bad, "-o", old, "--force", "-q"])
        #expect(r.status == 2)
        let after = try String(contentsOfFile: old, encoding: .utf8)
        #expect(after == "precious\n", "a recording of nothing replaced the old file: \(after)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains(".imukit-") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    // MARK: 3. A full disk leaves whole lines.

    /// `ulimit -f` makes write(2) stop part-way through a line, as a full
    /// disk does; SIGXFSZ is ignored so the write fails with EFBIG instead of killing the tool.
    @Test func fullDiskCutsBackToTheLastWholeLine() throws {
        let dir = try scratchDirectory()
        _ = try walkFile(dir, lines: 20_000)
        let r = try ShellRunner.run("trap '' XFSZ; ulimit -f 64; exec \"$BIN/imu-record\" --replay walk.csv -q -o out.csv", directory: dir)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("write failed"), "stderr: \(r.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out.csv"))
        #expect(data.count > 10_000 && data.count <= 64 * 1024)   // 512-byte blocks in dash, 1024 in bash
        #expect(data.last == UInt8(ascii: "\n"))
        #expect(try sampleCount(dir + "/out.csv") > 100)
    }

    // MARK: 4. Write errors on standard output.

    @Test(arguments: [
        "\"$BIN/imu-steps\" --replay walk.csv --json > /dev/full",
        "\"$BIN/imu-steps\" --replay walk.csv > /dev/full",
        "\"$BIN/imu-steps\" --replay walk.csv --json >&-",
        "\"$BIN/imu-steps\" --replay walk.csv >&-",
        "\"$BIN/imu-steps\" --help > /dev/full",
    ])
    func lostStandardOutputExitsOne(script: String) throws {
        let dir = try scratchDirectory()
        _ = try walkFile(dir)
        let r = try ShellRunner.run(script, directory: dir)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write to standard output"), "stderr: \(r.stderr)")
    }

    @Test func imuCalibrateJSONOnAFullDiskExitsOne() throws {
        let dir = try scratchDirectory()
        var r = try ToolRunner.run("imu-record", ["--simulate", "six-position", "--speed", "max", "--raw", "-q", "-o", dir + "/six.csv"])
        #expect(r.status == 0)
        r = try ShellRunner.run("\"$BIN/imu-calibrate\" -6 --from-recording six.csv --json > /dev/full", directory: dir)
        #expect(r.status == 1, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot write to standard output"))
    }

    // MARK: 5. A bad line in a replayed file: keep what was read, name the line, exit 2.

    @Test func imuRecordKeepsTheSamplesBeforeABadLine() throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<100 { text += "\(Double(i) * 0.01),0,0,1\n" }
        text += "1.0,NaN,0,1\n"
        let input = dir + "/nan.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", input, "-o", dir + "/out.csv"])
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("\(input):102:"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("free space"))
        #expect(try sampleCount(dir + "/out.csv") == 100)
    }

    // MARK: 8. A re-recorded recording keeps its origin.

    @Test func reRecordingKeepsTheOriginalHeaderLines() throws {
        let dir = try scratchDirectory()
        var text = "# imukit recording (format: docs/file-formats.md)\n# sensor: mpu6050 on /dev/i2c-1 @0x68\n# rate: 100.0 Hz nominal\n"
            + "# calibration-key: i2c-1-0x68-mpu6050\n# calibration: applied, for i2c-1-0x68-mpu6050 from /x.json\n"
            + "# clock: seconds on CLOCK_BOOTTIME\n# started: 2026-11-30T18:47:21Z\nt,ax,ay,az\n"
        for i in 0..<200 { text += "\(Double(i) * 0.01),0,0,1\n" }
        let input = dir + "/in.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", input, "-q", "-o", dir + "/out.csv"],
                                   environment: ["XDG_CONFIG_HOME": dir + "/config", "IMUKIT_SYSTEM_CONFIG_DIR": dir + "/etc"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let comments = try RecordingReader(path: dir + "/out.csv").comments
        for line in ["sensor: mpu6050 on /dev/i2c-1 @0x68", "rate: 100.0 Hz nominal", "calibration-key: i2c-1-0x68-mpu6050",
                     "calibration: applied, for i2c-1-0x68-mpu6050 from /x.json", "started: 2026-11-30T18:47:21Z",
                     "clock: seconds on CLOCK_BOOTTIME"] {
            #expect(comments.contains(line), "lost '\(line)': \(comments)")
        }
        #expect(comments.filter { $0.hasPrefix("clock:") }.count == 1, "the clock line once: \(comments)")
        #expect(!comments.contains { $0.hasPrefix("calibration-key: replay:") })
        #expect(comments.contains { $0.hasPrefix("re-recorded from \(input)") })
        // So imu-calibrate still refuses the corrected data.
        let cal = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", dir + "/out.csv", "--json"])
        #expect(cal.status == 2)
        #expect(cal.stderr.contains("recorded with a calibration applied"), "stderr: \(cal.stderr)")
    }

    // MARK: 10. Values from files that would trap an integer conversion.

    @Test(arguments: ["imu-steps", "imu-record"])
    func hugeTimeIsAUsageErrorNotACrash(tool: String) throws {
        let dir = try scratchDirectory()
        var text = "t,ax,ay,az\n"
        for i in 0..<300 { text += "\(i),0,0,1\n" }
        text += "1e19,0,0,1\n1.00000000000001e19,0,0,1\n"
        let (r, input) = try replayRefused(tool, text, in: dir)
        #expect(r.stderr.contains("\(input):302:"), "stderr: \(r.stderr)")
    }

    /// Replays `text` with `tool` (imu-record into `out.csv`), expecting exit 2; the result and the input's path.
    func replayRefused(_ tool: String, _ text: String, in dir: String) throws -> (ToolResult, String) {
        let input = dir + "/input.csv"
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let args = tool == "imu-steps" ? ["--replay", input, "--json"] : ["--replay", input, "-q", "-o", dir + "/out.csv"]
        let r = try ToolRunner.run(tool, args)
        #expect(r.status == 2, "stderr: \(r.stderr)")
        return (r, input)
    }

    /// A sensor value no sensor gives (RecordingLimits): FILE:LINE, the column, the value, the fix;
    /// imu-record keeps the samples before it.
    @Test(arguments: [("imu-steps", "az", "1e300"), ("imu-record", "gx", "1e30"), ("imu-steps", "p", "-5"), ("imu-record", "gnss_speed", "1e9")])
    func implausibleSensorValueIsAUsageError(tool: String, column: String, value: String) throws {
        let dir = try scratchDirectory()
        let header = ["t", "ax", "ay", "az", "gx", "gy", "gz", "p", "gnss_speed"]
        var text = header.joined(separator: ",") + "\n"
        for i in 0..<300 { text += "\(Double(i) * 0.01),0,0,1,0,0,0,1000,1\n" }
        var bad = ["3", "0", "0", "1", "0", "0", "0", "1000", "1"]
        bad[header.firstIndex(of: column)!] = value
        text += bad.joined(separator: ",") + "\n"
        let (r, input) = try replayRefused(tool, text, in: dir)
        #expect(r.stderr.contains("\(input):302: field '\(column)' is \(value) "), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("  fix: "), "stderr: \(r.stderr)")
        if tool == "imu-record" { #expect(try sampleCount(dir + "/out.csv") == 300) }
    }
}
