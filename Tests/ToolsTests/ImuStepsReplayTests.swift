import Foundation
import OffPool
import Testing
import IMUCore
import IMUSimulation

@Suite(.offPool, .serialized) struct ImuStepsReplayTests {
    /// One case per malformed-recording rule of docs/CONTRACTS.md §2: exit 2 and FILE:LINE on stderr.
    @Test(arguments: [
        ("nan.csv", "t,ax,ay,az\n0.00,0,0,1\n0.01,NaN,0,1\n", 3),
        ("text.csv", "# c\nt,ax,ay,az\n0.00,0,0,1\n0.01,0,zero,1\n", 4),
        ("short.csv", "t,ax,ay,az\n0.00,0,0,1\n0.01,0,0\n", 3),
        ("backwards.csv", "t,ax,ay,az\n0.00,0,0,1\n0.02,0,0,1\n0.01,0,0,1\n", 4),
        ("noheader.csv", "0.00,0,0,1\n0.01,0,0,1\n", 1),
    ])
    func malformedRecordingExitsTwoWithFileAndLine(name: String, text: String, line: Int) throws {
        let path = try ToolRunner.temporaryFile(name, text)
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("\(path):\(line):"), "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("\"summary\""), "no summary for a file that could not be read")
    }

    @Test func missingFileAndBadFlagsAreUsageErrors() throws {
        let missing = try ToolRunner.run("imu-steps", ["--replay", "/nonexistent/walk.csv", "--json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/walk.csv"))
        #expect(try ToolRunner.run("imu-steps", ["--no-such-flag"]).status == 2)
        #expect(try ToolRunner.run("imu-steps", ["--simulate", "moonwalk"]).status == 2)
        #expect(try ToolRunner.run("imu-steps", ["--replay", "a.csv", "--simulate", "walk"]).status == 2)
        let help = try ToolRunner.run("imu-steps", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--replay FILE"))
    }

    /// A simulator recording replayed through the tool: events per CONTRACTS §3, steps within 10 % of truth.
    @Test func simulatorRecordingCountsWithinTenPercent() throws {
        let (samples, truth) = Simulator.generate(Scenario.named("walk")!, options: SimulationOptions())
        let path = try ToolRunner.temporaryFile("walk.csv", "")
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true)))
        for s in samples { try writer.write(s) }
        try writer.close()

        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let objects = try jsonObjects(r)
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        let steps = try #require(summary["steps"] as? Int)
        #expect(objects.filter { $0["type"] as? String == "step" }.count == steps)
        #expect(truth.steps > 50)
        #expect(abs(Double(steps - truth.steps)) <= 0.10 * Double(truth.steps), "counted \(steps), truth \(truth.steps)")
        for key in ["distance_m", "floors_ascended", "floors_descended", "duration_s"] { #expect(summary[key] != nil, "summary lacks \(key)") }
        let times = objects.compactMap { $0["type"] as? String == "step" ? $0["t"] as? Double : nil }
        #expect(times == times.sorted())
        #expect((times.first ?? 0) >= samples[0].time && (times.last ?? .infinity) <= samples.last!.time)
    }

    /// Numbers parse the same in any locale: a French LC_ALL must not turn 1.5 into an error.
    @Test(.enabled(if: frenchLocaleInstalled(), "fr_FR.UTF-8 is not generated: `make test` (scripts/ensure-deps.sh test) generates it"))
    func frenchLocaleReadsTheSameNumbers() throws {
        var text = "t,ax,ay,az\n"
        for i in 0..<500 { text += "\(1.5 + Double(i) * 0.02),0.0,0.0,\(1.0 + 0.3 * sin(Double(i) * 0.02 * 2 * .pi * 1.8))\n" }
        let path = try ToolRunner.temporaryFile("fr.csv", text)
        let plain = try ToolRunner.run("imu-steps", ["--replay", path, "--json"], environment: ["LC_ALL": "C"])
        let french = try ToolRunner.run("imu-steps", ["--replay", path, "--json"], environment: ["LC_ALL": "fr_FR.UTF-8"])
        #expect(french.status == 0, "stderr: \(french.stderr)")
        #expect(french.stdout == plain.stdout)
        #expect(french.stdout.contains("\"duration_s\":9.98"))
    }
}

/// Is fr_FR.UTF-8 generated on this machine (`locale -a` lists it as fr_FR.utf8)?
func frenchLocaleInstalled() -> Bool {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/locale")
    p.arguments = ["-a"]
    let pipe = Pipe()
    p.standardOutput = pipe
    guard (try? p.run()) != nil else { return false }
    // A list that cannot be read counts as no French locale (the tests that need one say so).
    let data = try? pipe.fileHandleForReading.readToEnd() ?? Data()
    p.waitUntilExit()
    return String(decoding: data ?? Data(), as: UTF8.self).lowercased().contains("fr_fr.utf8")
}

@Suite(.offPool, .serialized) struct ImuStepsCalibrationTests {
    /// imu-steps applies the calibration saved for its sensor and says so; --raw skips it.
    @Test func savedCalibrationIsAppliedAndAnnounced() throws {
        let root = try scratchDirectory()
        let env = ["XDG_CONFIG_HOME": root + "/config", "IMUKIT_SYSTEM_CONFIG_DIR": root + "/etc"]
        let session = root + "/six.csv"
        var r = try ToolRunner.run("imu-record", ["--simulate", "six-position", "--speed", "max", "--raw", "-q", "-o", session], environment: env)
        #expect(r.status == 0, "imu-record: \(r.stderr)")
        r = try ToolRunner.run("imu-calibrate", ["-6", "--from-recording", session, "--key", "sim:walk", "--json", "--save"], environment: env)
        #expect(r.status == 0, "imu-calibrate: \(r.stderr)")

        let applied = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--json"], environment: env)
        #expect(applied.status == 0)
        #expect(applied.stderr.contains("using calibration for sim:walk from \(root)/config/imukit"), "stderr: \(applied.stderr)")
        let raw = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--json", "--raw"], environment: env)
        #expect(raw.status == 0)
        #expect(!raw.stderr.contains("using calibration"))
    }
}

@Suite(.offPool) struct ImuStepsRealtimeReplayTests {
    /// `--replay FILE --realtime` goes through the live view's pacing path and ends with the same count as a fast replay.
    @Test func realtimeReplayMatchesFastReplay() throws {
        let (samples, _) = Simulator.generate(Scenario.named("walk")!, options: SimulationOptions())
        let path = try ToolRunner.temporaryFile("walk-rt.csv", "")
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: SensorCapabilities(accelerometer: true, gyroscope: true, barometer: true)))
        for s in samples { try writer.write(s) }
        try writer.close()
        let fast = try jsonObjects(try ToolRunner.run("imu-steps", ["--replay", path, "--json"]))
        // 200× real time: a ~2 minute walk in well under a second of pacing.
        let paced = try ToolRunner.run("imu-steps", ["--replay", path, "--realtime", "--speed", "200", "--json"])
        #expect(paced.status == 0, "stderr: \(paced.stderr)")
        let pacedObjects = try jsonObjects(paced)
        #expect(pacedObjects.last?["steps"] as? Int == fast.last?["steps"] as? Int)
        #expect((fast.last?["steps"] as? Int ?? 0) > 50)
        let human = try ToolRunner.run("imu-steps", ["--replay", path, "--realtime", "--speed", "200"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("Summary"))
    }
}

@Suite(.offPool) struct ImuStepsSensorLossTests {
    /// A sensor lost mid-run: exit 1 with the reason on stderr, and the totals so far still end the JSON output.
    @Test func lostSensorKeepsTheTotalsAndExitsOne() throws {
        let r = try ToolRunner.run("imu-steps", ["--source", "sim:walk?speed=max&fail=30", "--json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("sensor lost after 30.0 s"), "stderr: \(r.stderr)")
        let objects = try jsonObjects(r)
        let summary = try #require(objects.last)
        #expect(summary["type"] as? String == "summary")
        let steps = try #require(summary["steps"] as? Int)
        #expect(steps > 20)
        #expect(objects.filter { $0["type"] as? String == "step" }.count == steps)
    }
}

@Suite(.offPool) struct ImuStepsStrideTests {
    /// The two-pace stride calibration from the command line: `--walked` measures a pace over a
    /// known distance, `--stride` takes two of them, and the distance follows.
    @Test func walkedMeasuresAPaceAndStrideUsesTwo() throws {
        // The simulator's walk: 151.6 m in 216 steps at 1.8 steps/s (its ground truth).
        let walked = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--walked", "151.6", "--json"])
        #expect(walked.status == 0)
        #expect(walked.stderr.contains("1.8 steps/s, 0.702 m per step"), "stderr: \(walked.stderr)")
        #expect(walked.stderr.contains("--stride 1.8:0.702,"), "stderr: \(walked.stderr)")

        func distance(_ extra: [String]) throws -> Double {
            let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--json"] + extra)
            #expect(r.status == 0, "\(extra): \(r.stderr)")
            return try #require(try jsonObjects(r).last?["distance_m"] as? Double)
        }
        // Calibrated on this walk and a run: 151.6 m within 1%; a 1.6 m person's default stride is shorter.
        let calibrated = try distance(["--stride", "1.8:0.702,2.81:1.091"])
        #expect(abs(calibrated - 151.6) < 1.5, "\(calibrated) m")
        #expect(try distance(["--height", "1.6"]) < calibrated - 5)
    }

    /// `--remember` keeps the stride (or height, or floor height) for later runs; a damaged
    /// profile is a clear usage error naming the file.
    @Test func rememberedProfileIsUsedUntilReplaced() throws {
        let home = NSTemporaryDirectory() + "imukit-profile-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let env = ["HOME": home, "XDG_CONFIG_HOME": ""]
        func run(_ extra: [String]) throws -> ToolResult {
            try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--json"] + extra, environment: env)
        }
        func distance(_ r: ToolResult) throws -> Double { try #require(try jsonObjects(r).last?["distance_m"] as? Double) }

        let plain = try distance(try run([]))
        #expect(try run(["--remember"]).status == 2)
        let saved = try run(["--stride", "1.8:0.702,2.81:1.091", "--floor-height", "3.5", "--remember"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr.contains("saved your profile"), "\(saved.stderr)")
        let path = home + "/.config/imukit/profile.json"
        #expect(FileManager.default.fileExists(atPath: path))

        let later = try run([])
        #expect(later.stderr.contains("using your profile from \(path)"), "\(later.stderr)")
        #expect(abs(try distance(later) - 151.6) < 1.5)
        #expect(abs(try distance(later) - plain) > 3)

        // A height replaces the saved stride line.
        #expect(try run(["--height", "1.6", "--remember"]).status == 0)
        let byHeight = try distance(try run([]))
        #expect(byHeight < plain - 3, "\(byHeight) vs \(plain)")

        try Data("{\"height_m\": 9}".utf8).write(to: URL(fileURLWithPath: path))
        let damaged = try run([])
        #expect(damaged.status == 2)
        #expect(damaged.stderr.contains(path) && damaged.stderr.contains("not a walker profile"), "\(damaged.stderr)")
    }

    /// Issue #10 item 17: a pace --stride would refuse is not suggested.
    @Test func walkedNeverSuggestsARefusedStride() throws {
        // 216 steps over "1500 m" is 6.9 m per step.
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--walked", "1500", "--json"])
        #expect(r.status == 1, "no pace was given (NewUserAuditTests.walkedWithoutAPaceIsAFailure)")
        #expect(!r.stderr.contains("use --stride"), "stderr: \(r.stderr)")
        #expect(r.stderr.contains("cannot be used for --stride"), "stderr: \(r.stderr)")
    }

    @Test(arguments: ["1.8", "1.8:0.7", "1.8:0.7,1.85:0.75", "1.8:0.7,x:0.9", "9:0.7,1.5:0.6", "1.8:0.7,2.1:7", "1.8:0.7,1.9:1.6"])
    func badStrideIsAUsageError(text: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk", "--speed", "max", "--stride", text])
        #expect(r.status == 2, "--stride \(text): \(r.stderr)")
        #expect(r.stderr.contains("--stride"), "--stride \(text): \(r.stderr)")
    }
}
