import OffPool
import Testing
import Foundation
import IMUCore

/// imu-record under signals: what is on disk after SIGKILL, SIGTERM and SIGINT. The tool runs
/// the simulated walk in real time (100 Hz), as a sensor would deliver it.
@Suite(.offPool, .serialized) struct ImuRecordSignalTests {
    /// Every sample in `path`, read with the project's strict reader (throws on any bad line).
    func readAll(_ path: String) throws -> [MotionSample] {
        let reader = try RecordingReader(path: path)
        var samples: [MotionSample] = []
        while let s = try reader.next() { samples.append(s) }
        return samples
    }

    /// Lines of samples in `path` so far (comment and header lines left out).
    static func dataLines(_ path: String) -> Int {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        return text.split(separator: "\n").filter { $0.first.map { $0 == "-" || $0.isNumber } ?? false }.count
    }

    func endsWithNewline(_ path: String) throws -> Bool {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.last == UInt8(ascii: "\n")
    }

    @Test func sigkillLosesAtMostAboutOneSecondAndLeavesNoPartialLine() throws {
        let out = try scratchDirectory() + "/killed.csv"
        let tool = try ToolProcess("imu-record", ["--simulate", "walk", "--out", out, "--raw"])
        let started = Date()
        Thread.sleep(forTimeInterval: 3)
        tool.send(SIGKILL)
        let killedAfter = Date().timeIntervalSince(started)
        #expect(tool.wait() == 128 + SIGKILL || tool.process.terminationReason == .uncaughtSignal)
        let samples = try readAll(out)
        #expect(try endsWithNewline(out))
        let span = samples.last!.time - samples.first!.time
        // Samples are released in real time from the moment the tool starts; allow 0.5 s for
        // process start-up on a loaded machine, plus the 1 s the issue allows.
        #expect(span >= killedAfter - 1.5, "only \(span) s recorded of \(killedAfter) s")
        #expect(samples.count >= Int(span * 100) - 5)   // and no hole inside
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func stopSignalFlushesEverythingAndSummarises(signal: Int32) throws {
        let out = try scratchDirectory() + "/stopped.csv"
        let tool = try ToolProcess("imu-record", ["--simulate", "walk", "--out", out, "--raw"])
        // More than 100 samples on disk, however slowly a loaded machine starts the tool: they
        // arrive at 100 Hz and are written once a second (HandOver.seconds), so about 2-3 s on
        // an idle machine; 60 s only bounds a tool that never writes.
        let written = tool.waitUntil { Self.dataLines(out) > 100 }
        #expect(written, "no 100 samples on disk within 60 s; stderr: \(tool.stderr)")
        tool.send(signal)
        #expect(tool.wait() == 0)
        let samples = try readAll(out)
        #expect(try endsWithNewline(out))
        #expect(samples.count > 100)
        // The summary counts exactly what is in the file: nothing held back in a buffer.
        #expect(tool.stderr.contains("recorded \(samples.count) samples"), "stderr: \(tool.stderr)")
        #expect(tool.stderr.contains("dropped 0"))
    }

    @Test func durationStopsOnTimeWithHeaderComments() throws {
        let out = try scratchDirectory() + "/timed.csv"
        let tool = try ToolProcess("imu-record", ["--simulate", "walk", "--speed", "50", "-d", "20", "-o", out])
        #expect(tool.wait() == 0)
        let reader = try RecordingReader(path: out)
        #expect(reader.comments.contains { $0.contains("sensor: simulated walk") })
        #expect(reader.comments.contains { $0.contains("calibration-key: sim:walk") })
        #expect(reader.comments.contains { $0.contains("calibration:") })
        // The clock line comes with the first batch, still before the column line.
        #expect(reader.comments.contains("clock: seconds on the simulator's timeline"), "\(reader.comments)")
        let samples = try readAll(out)
        let span = samples.last!.time - samples.first!.time
        #expect(span < 20 && span > 19.9)
        #expect(abs(samples.count - 2000) <= 2)
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let out = try scratchDirectory() + "/exists.csv"
        try "keep me\n".write(toFile: out, atomically: true, encoding: .utf8)
        let tool = try ToolProcess("imu-record", ["--simulate", "walk", "-d", "1", "-o", out])
        #expect(tool.wait() == 2)
        #expect(tool.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "keep me\n")
    }

    @Test func fullDiskIsARuntimeFailureWithTheFix() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let r = try ToolRunner.run("imu-record", ["--simulate", "walk", "--speed", "max", "-d", "5", "-o", "/dev/full", "-f"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("/dev/full: write failed") && r.stderr.contains("fix:"))
    }

    @Test func gapsInTheSourceAreReportedFromTimestamps() throws {
        // 100 Hz with 0.5 s missing after t = 3 s: a gap of 0.51 s, 50 samples missing.
        var text = "t,ax,ay,az\n"
        for i in 0..<600 where !(301...350).contains(i) { text += "\(Double(i) / 100),0,0,1\n" }
        let dir = try scratchDirectory()
        try text.write(toFile: dir + "/gap.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", dir + "/gap.csv", "-o", dir + "/copy.csv"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("gap of 0.510 s before t=3.510 (≈50 samples missing from the source)"), "\(r.stderr)")
        #expect(r.stderr.contains("recorded 550 samples") && r.stderr.contains("gaps 1"))
        #expect(try readAll(dir + "/copy.csv").count == 550)
    }

    @Test func manyGapsAreCountedNotFlooded() throws {
        // Two of every five samples missing after the first 0.4 s: 191 gaps of 0.03 s (the last two
        // missing samples end the file, so no gap closes there), 10 listed, all counted.
        var text = "t,ax,ay,az\n"
        for i in 0..<1000 where i % 5 < 3 || i < 40 { text += "\(Double(i) / 100),0,0,1\n" }
        let dir = try scratchDirectory()
        try text.write(toFile: dir + "/gappy.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", dir + "/gappy.csv", "-o", dir + "/copy.csv"])
        #expect(r.status == 0)
        #expect(r.stderr.components(separatedBy: "gap of ").count - 1 == 10)
        #expect(r.stderr.contains("more gaps: counted in the summary, not listed"))
        #expect(r.stderr.contains("gaps 191,"), "\(r.stderr)")
    }
}
