import Foundation
import GPSFake
import IMUCore
import IMUSimulation
import OffPool
import Testing

/// The tools with Debian's gpsd, fed by gpsfake with a simulated NMEA log while the tool reads
/// the simulator or a recording in real time: `imu-steps --gps`, `imu-record`'s gnss_speed
/// column, `imu-info`'s gps line, and gpsd absent, refused, malformed or killed mid-run
/// (docs/gps.md). No mock gpsd.
@Suite(.offPool) struct GPSToolTests {
    /// A log of `seconds` fixes at `speed` m/s, one a second (gpsfake plays it at 0.5 s per sentence).
    static func log(speed: Double, seconds: Int) -> String {
        NMEAWriter.log((0..<seconds).map { GNSSFix(time: Double($0), speed: speed, accuracy: 0.3) })
    }

    static func skipReason() -> String? {
        GPSFake.unavailable.map { "GPSToolTests: skipped, \($0)" }
    }

    /// Seconds of each activity in the tool's activity events.
    static func activitySeconds(_ objects: [[String: Any]]) -> [String: Double] {
        var seconds: [String: Double] = [:]
        for o in objects where o["type"] as? String == "activity" {
            guard let a = o["activity"] as? String, let s = o["start"] as? Double, let e = o["end"] as? Double else { continue }
            seconds[a, default: 0] += e - s
        }
        return seconds
    }

    static func summary(_ objects: [[String: Any]]) throws -> [String: Any] {
        let last = try #require(objects.last)
        #expect(last["type"] as? String == "summary")
        return last
    }

    /// Runs `body` beside a gpsfake playing `log`, on a thread of its own: tool runs last tens of
    /// seconds in real time and must not hold the test runner's cooperative threads meanwhile.
    static func besideGPSD<T: Sendable>(log: String, cycle: Double = 0.5, _ body: @escaping @Sendable (GPSFake) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let fake = try GPSFake(log: log, cycle: cycle)
                    defer { fake.stop() }
                    return try body(fake)
                })
            }.start()
        }
    }

    /// `imu-steps ARGUMENTS --gpsd … --json` beside a gpsfake playing `speed` m/s for `seconds`:
    /// its summary and seconds per activity, after checking it ran to a clean end.
    static func stepsBesideGPSD(_ arguments: [String], speed: Double, seconds: Int) async throws
        -> (summary: [String: Any], activity: [String: Double]) {
        let r = try await besideGPSD(log: log(speed: speed, seconds: seconds)) { fake in
            try ToolRunner.run("imu-steps", arguments + ["--gpsd", "127.0.0.1:\(fake.port)", "--json"], timeout: Double(seconds) + 30)
        }
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let objects = try jsonObjects(r)
        return (try summary(objects), activitySeconds(objects))
    }

    /// Ground truth of a simulated scenario.
    static func truth(_ scenario: String) throws -> GroundTruth {
        Simulator.generate(try Scenario.resolve(scenario), options: SimulationOptions()).1
    }

    /// The seed's treadmill: a walk on the spot, GPS 0 m/s. The steps count in full and the
    /// activity is walking: ground speed never outvotes steps. The IMU comes from a recording
    /// replayed in real time, beside gpsd's reports.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func treadmillWalkCountsStepsAtGPSZero() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let scenario = "walk:30"
        let (samples, truth) = Simulator.generate(try Scenario.resolve(scenario), options: SimulationOptions())
        let path = try ToolRunner.temporaryFile("treadmill.csv", "")
        let writer = try RecordingWriter(path: path, columns: RecordingColumn.columns(for: SensorCapabilities(accelerometer: true, gyroscope: true)))
        for s in samples { try writer.write(s) }
        try writer.close()

        let (summary, seconds) = try await Self.stepsBesideGPSD(["--replay", path, "--realtime"], speed: 0, seconds: 60)
        let steps = try #require(summary["steps"] as? Int)
        #expect(abs(Double(steps - truth.steps)) <= 0.10 * Double(truth.steps), "counted \(steps), truth \(truth.steps)")
        // gpsd was read: the activity is unknown at the start, which asks for reports.
        #expect((summary["gnss_speed_readings"] as? Int ?? 0) >= 5, "\(summary)")
        #expect(summary["gnss_state"] as? String == "connected")
        let total = seconds.values.reduce(0, +)
        #expect((seconds["walking"] ?? 0) >= 0.8 * total, "\(seconds)")
        #expect(seconds["stationary"] == nil && seconds["vehicle"] == nil, "\(seconds)")
    }

    /// The seed's underground car park: a fix for 10 s, then gpsd reports without one. The walk
    /// counts in full from the IMU, the no-fix reports are counted, and nothing is an error.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func walkIntoACarParkWithoutAFixCountsFromTheIMU() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let scenario = "walk:30"
        let truth = try Self.truth(scenario)
        let fixes = (0..<10).map { GNSSFix(time: Double($0), speed: 1.4, accuracy: 0.3) }
        let log = NMEAWriter.log(fixes, noFixAt: (10..<70).map(Double.init))
        let r = try await Self.besideGPSD(log: log) { fake in
            try ToolRunner.run("imu-steps", ["--simulate", scenario, "--gpsd", "127.0.0.1:\(fake.port)", "--json"], timeout: 60)
        }
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "only the connection line: \(r.stderr)")
        let objects = try jsonObjects(r)
        let summary = try Self.summary(objects)
        #expect((summary["gnss_no_fix_reports"] as? Int ?? 0) >= 5, "\(summary)")
        #expect(summary["gnss_state"] as? String == "connected")
        let steps = try #require(summary["steps"] as? Int)
        #expect(abs(Double(steps - truth.steps)) <= 0.10 * Double(truth.steps), "counted \(steps), truth \(truth.steps)")
        let seconds = Self.activitySeconds(objects)
        #expect((seconds["walking"] ?? 0) >= 0.8 * seconds.values.reduce(0, +), "\(seconds)")
    }

    /// A drive at road speed (the simulator's bus ride, GPS 25 m/s): vehicle, no steps. From the
    /// IMU alone the same ride reads as stationary (the control run), so the label is the fusion's.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func driveAtRoadSpeedIsAVehicleNotAWalk() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let scenario = "bus:40"
        let control = try jsonObjects(try ToolRunner.run("imu-steps", ["--simulate", scenario, "--speed", "max", "--json"]))
        let imuOnly = Self.activitySeconds(control)
        #expect((imuOnly["vehicle"] ?? 0) < 0.5 * imuOnly.values.reduce(0, +),
                "the IMU alone already calls it a vehicle (\(imuOnly)): the test would not show the fusion")

        let (summary, seconds) = try await Self.stepsBesideGPSD(["--simulate", scenario, "--gps"], speed: 25, seconds: 80)
        #expect(summary["steps"] as? Int == 0)
        #expect((summary["gnss_speed_readings"] as? Int ?? 0) >= 10, "\(summary)")
        let total = seconds.values.reduce(0, +)
        // The first seconds, before the first window and the first fix, may read otherwise.
        #expect((seconds["vehicle"] ?? 0) >= 0.75 * total, "\(seconds)")
        #expect(seconds["walking"] == nil && seconds["running"] == nil, "\(seconds)")
    }

    /// GPSDemand end to end: a long walk at medium or high confidence needs no receiver, so
    /// reports are requested for the first minute (unknown at the start, then the minimum on-time)
    /// and not after it. The simulator runs at twice real time: 80 s of walk in 40 s.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func aSettledWalkStopsAskingForReports() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let summary = try await Self.stepsBesideGPSD(["--simulate", "walk:80", "--speed", "2"], speed: 1.4, seconds: 80).summary
        let requested = try #require(summary["gnss_requested_s"] as? Double)
        let duration = try #require(summary["duration_s"] as? Double)
        // 60 s: GPSDemand.minimumOnSeconds; a batch's granularity and the first windows add a little.
        #expect(requested >= 59 && requested <= 66, "requested \(requested) s of \(duration) s")
        #expect(duration > 75)
        // Readings arrive at most one per real second while requested (30 s real at --speed 2),
        // none after (40 s real in all).
        let readings = try #require(summary["gnss_speed_readings"] as? Int)
        #expect(readings >= 1 && readings <= 34, "\(readings) readings")
    }

    /// Privacy: gpsd's feed carries a position (67°54.321' S 150°12.345' W, chosen so that no
    /// sample, time or pressure can spell it); the recording, the JSON and every message carry
    /// the speed only. The recorded column then reproduces the fusion on replay.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func positionsAreNeverRecordedOrPrintedAndTheColumnReplays() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        // A 20 s loop (gpsfake plays its log over and over): 14 s with a fix at 25 m/s, then 6 s
        // without one (a tunnel). Any 20 s of it, as recorded below, holds both.
        let drive = NMEAWriter.log((0..<14).map { GNSSFix(time: Double($0), speed: 25, accuracy: 0.3) },
                                   noFixAt: (14..<20).map(Double.init))
        let located = GPSFake.relocate(drive, latitude: "6754.321,S", longitude: "15012.345,W")
        #expect(located.contains("6754.321,S,15012.345,W"))
        let out = try scratchDirectory() + "/drive.csv"
        let (record, live) = try await Self.besideGPSD(log: located) { fake in
            (try ToolRunner.run("imu-record", ["--simulate", "still:20", "--gps", "--gpsd", "127.0.0.1:\(fake.port)", "-o", out], timeout: 60),
             try ToolRunner.run("imu-steps", ["--simulate", "still:8", "--gpsd", "127.0.0.1:\(fake.port)", "--json"], timeout: 60))
        }
        #expect(record.status == 0, "stderr: \(record.stderr)")
        #expect(live.status == 0, "stderr: \(live.stderr)")
        let file = try String(contentsOfFile: out, encoding: .utf8)
        for text in [file, record.stderr, live.stdout, live.stderr] {
            // NMEA's degrees-and-minutes and decimal degrees (67.90535, 150.20575).
            for form in ["6754.321", "15012.345", "67.905", "150.205"] {
                #expect(!text.contains(form), "a position (\(form)) leaked: \(text.prefix(400))")
            }
        }
        let header = file.split(separator: "\n").first { !$0.hasPrefix("#") } ?? ""
        #expect(header == "t,ax,ay,az,gx,gy,gz,p,gnss_speed", "columns: \(header)")

        // The speed is there: m/s, the log's 25 m/s to NMEA's 0.01 knot.
        let reader = try RecordingReader(path: out)
        var speeds: [Double?] = []
        while let s = try reader.next() { speeds.append(s.gnssSpeed) }
        let present = speeds.compactMap { $0 }
        #expect(present.count >= speeds.count / 2, "\(present.count) of \(speeds.count) rows have a speed")
        #expect(present.allSatisfy { abs($0 - 25) < 0.01 }, "\(Set(present))")
        #expect(present.count < speeds.count, "the rows recorded without a fix are empty")
        // The summary counts them.
        #expect(record.stderr.contains("gnss_speed on \(present.count) of \(speeds.count) samples"), "\(record.stderr)")

        // Replay, as fast as possible, without gpsd: the column reproduces the fusion.
        let replay = try jsonObjects(try ToolRunner.run("imu-steps", ["--replay", out, "--json"]))
        let seconds = Self.activitySeconds(replay)
        #expect((seconds["vehicle"] ?? 0) >= 0.5 * seconds.values.reduce(0, +), "\(seconds)")
        #expect(try Self.summary(replay)["gnss_speed_available"] as? Bool == true)
    }

    /// gpsd killed mid-run: one message naming it and what to check, the run goes on from the
    /// IMU (every step counted), exit 0, the summary says it was lost.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func gpsdKilledMidRunIsOneMessageAndNothingLost() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let scenario = "walk:20"
        let truth = try Self.truth(scenario)
        let (status, port, stdout, stderr) = try await Self.besideGPSD(log: Self.log(speed: 1.4, seconds: 60)) { fake in
            let tool = try ToolProcess("imu-steps", ["--simulate", scenario, "--gpsd", "127.0.0.1:\(fake.port)", "--json"])
            Thread.sleep(forTimeInterval: 7)
            fake.stop()
            return (tool.wait(timeout: 60), fake.port, tool.stdout, tool.stderr)
        }
        #expect(status == 0, "stderr: \(stderr)")
        let lost = stderr.split(separator: "\n").filter { $0.contains("lost gpsd at 127.0.0.1:\(port)") }
        #expect(lost.count == 1, "stderr: \(stderr)")
        #expect(lost.first?.contains("systemctl status gpsd") == true)
        let objects = try jsonObjects(ToolResult(status: 0, stdout: stdout, stderr: ""))
        let summary = try Self.summary(objects)
        #expect(summary["gnss_lost"] as? Int == 1)
        #expect(summary["gnss_state"] as? String == "lost")
        let steps = try #require(summary["steps"] as? Int)
        #expect(abs(Double(steps - truth.steps)) <= 0.10 * Double(truth.steps), "counted \(steps), truth \(truth.steps)")
    }

    /// Nothing listens at the address: one message that names it and the fix; the IMU counts.
    @Test func refusedConnectionIsOneMessageAndTheIMUCounts() throws {
        let scenario = "walk:20"
        let truth = try Self.truth(scenario)
        let port = GPSFake.freePort()
        let r = try ToolRunner.run("imu-steps", ["--simulate", scenario, "--speed", "10", "--gpsd", "127.0.0.1:\(port)", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(r.stderr)")
        let line = String(lines.first ?? "")
        #expect(line.contains("gpsd at 127.0.0.1:\(port) is not reachable"), "\(line)")
        #expect(line.contains("systemctl start gpsd") && line.contains("--gpsd HOST:PORT") && line.contains("IMU alone"), "\(line)")
        let summary = try Self.summary(try jsonObjects(r))
        #expect(summary["gnss_speed_available"] as? Bool == false)
        #expect(summary["gnss_state"] as? String == "unreachable")
        let steps = try #require(summary["steps"] as? Int)
        #expect(abs(Double(steps - truth.steps)) <= 0.10 * Double(truth.steps), "counted \(steps), truth \(truth.steps)")
    }

    /// Bad GPS flags are usage errors (exit 2) that say what is wrong and how to write it.
    @Test func badGPSFlagsAreUsageErrors() throws {
        for (tool, args, words) in [
            ("imu-steps", ["--simulate", "still:2", "--gpsd", "localhost:notaport"], ["--gpsd", "localhost:notaport", "HOST:PORT"]),
            ("imu-steps", ["--simulate", "still:2", "--gpsd", "a:b:c"], ["--gpsd", "HOST:PORT"]),
            ("imu-record", ["--simulate", "still:2", "--gpsd", "host:70000", "-o", "-"], ["--gpsd", "HOST:PORT"]),
            ("imu-steps", ["--replay", "/dev/null", "--gps"], ["--gps", "--realtime"]),
            ("imu-record", ["--simulate", "still:2", "--gps", "--no-gps", "-o", "-"], ["--no-gps", "--gps"]),
            ("imu-info", ["--gpsd", "x:y"], ["--gpsd", "HOST:PORT"]),
        ] {
            let r = try ToolRunner.run(tool, args)
            #expect(r.status == 2, "\(tool) \(args): \(r.status) \(r.stderr)")
            for w in words { #expect(r.stderr.contains(w), "\(tool) \(args): \(r.stderr)") }
        }
    }

    /// imu-info's capability line: ground speed available with a fix, unavailable without gpsd;
    /// gpsd is optional, so it does not change the exit status.
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func imuInfoSaysWhetherGroundSpeedIsAvailable() async throws {
        let baseline = try ToolRunner.run("imu-info", ["--json", "--no-gps"])
        #expect(!baseline.stdout.contains("\"gps\""))
        let port = GPSFake.freePort()
        let absent = try ToolRunner.run("imu-info", ["--json", "--gpsd", "127.0.0.1:\(port)"])
        #expect(absent.status == baseline.status)
        let line = try #require(try jsonObjects(absent).first { $0["type"] as? String == "gps" })
        #expect(line["ground_speed_available"] as? Bool == false)
        #expect((line["problem"] as? String)?.contains("systemctl start gpsd") == true)

        if let reason = Self.skipReason() { print(reason); return }
        let present = try await Self.besideGPSD(log: Self.log(speed: 5, seconds: 60)) { fake in
            try fake.addWatchingClient()   // a gpsd in use: its receiver reports (imu-info waits 2 s, not a cold start)
            return (try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(fake.port)"]), fake.port)
        }
        #expect(present.0.status == baseline.status)
        let gps = present.0.lines.first { $0.hasPrefix("gps ") } ?? ""
        #expect(gps.contains("127.0.0.1:\(present.1)") && gps.contains("ground_speed=available") && gps.contains("fix=yes"), "\(present.0.stdout)")
    }

    /// A receiver whose every speed is impossible (400 m/s, past `GroundSpeed.isPlausible`'s
    /// 150; gpsd passes it on as it came): imu-info counts them and says so, where it said
    /// "fix=no (no receiver, or no satellites in view)".
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func imuInfoSaysTheSpeedsWereImplausible() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let run = try await Self.besideGPSD(log: Self.log(speed: 400, seconds: 60)) { fake in
            try fake.addWatchingClient()   // the receiver reports within imu-info's 2 s
            return (try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(fake.port)"]),
                    try ToolRunner.run("imu-info", ["--json", "--gpsd", "127.0.0.1:\(fake.port)"]))
        }
        let gps = run.0.lines.first { $0.hasPrefix("gps ") } ?? ""
        #expect(gps.contains("ground_speed=available") && gps.contains("fix=no ("), "\(run.0.stdout)")
        #expect(gps.contains("within 2 s, every one with a ground speed no receiver on the ground measures (first 400.0"), "\(run.0.stdout)")
        #expect(!gps.contains("no satellites in view"), "\(run.0.stdout)")
        let line = try #require(try jsonObjects(run.1).first { $0["type"] as? String == "gps" })
        #expect(line["fix"] as? Bool == false)
        // One name for the count, as in imu-steps' summary (it was `implausible_speeds`, sweep28).
        #expect((line["gnss_speed_ignored"] as? Int ?? 0) >= 1, "\(run.1.stdout)")
        #expect(line["implausible_speeds"] == nil, "\(run.1.stdout)")
    }

    /// A receiver that sends impossible speeds (400 m/s) and plausible ones (5 m/s) between them:
    /// imu-info counted the ignored ones only when no plausible fix followed, so a run that met
    /// some and then a good fix printed `fix=yes` and no count (sweep29). The count is printed
    /// whenever any speed was ignored. gpsfake plays three 400s then a 5, a fix every 0.5 s
    /// (2 s a round, imu-info's wait); where in the round a run starts is gpsfake's, so runs are
    /// repeated until one met an ignored speed before its fix (a quarter start at the 5: all 6
    /// runs do with a chance of 1 in 4096).
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func imuInfoCountsIgnoredSpeedsBeforeAFix() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        let round = [400.0, 400, 400, 5]
        let fixes = (0..<80).map { GNSSFix(time: Double($0), speed: round[$0 % round.count], accuracy: 0.3) }
        // 0.25 s a sentence, two sentences a fix: a fix every 0.5 s.
        let runs = try await Self.besideGPSD(log: NMEAWriter.log(fixes), cycle: 0.25) { fake in
            try fake.addWatchingClient()   // the receiver reports within imu-info's 2 s
            var json: ToolResult?, plain: String?
            for _ in 0..<6 where json == nil {
                let run = try ToolRunner.run("imu-info", ["--json", "--gpsd", "127.0.0.1:\(fake.port)"])
                let line = try jsonObjects(run).first { $0["type"] as? String == "gps" }
                if line?["fix"] as? Bool == true, line?["gnss_speed_ignored"] != nil { json = run }
            }
            for _ in 0..<6 where plain == nil {
                let gps = try ToolRunner.run("imu-info", ["--gpsd", "127.0.0.1:\(fake.port)"]).lines.first { $0.hasPrefix("gps ") }
                if let gps, gps.contains("fix=yes"), gps.contains("gnss_speed_ignored=") { plain = gps }
            }
            return (json, plain)
        }
        let run = try #require(runs.0, "no --json run printed gnss_speed_ignored beside a fix")
        let json = try #require(try jsonObjects(run).first { $0["type"] as? String == "gps" })
        // 1 to 3 ignored before the fix (three 400s a round), the first 400 m/s.
        #expect((1...3).contains(json["gnss_speed_ignored"] as? Int ?? 0), "\(run.stdout)")
        #expect((json["note"] as? String)?.contains("before it with a ground speed no receiver on the ground measures (first 400.") == true,
                "\(run.stdout)")
        let plain = try #require(runs.1, "no plain run printed gnss_speed_ignored beside fix=yes")
        #expect(plain.contains("ground_speed=available") && plain.contains("gnss_speed_ignored=") && plain.contains("(first 400."), "\(plain)")
    }

    /// A ground speed not used is counted under one key, `gnss_speed_ignored`, whatever its source.
    /// gpsd's implausible fixes (400 m/s, past `GroundSpeed.fastestLandSpeed`'s 150) were counted
    /// in `gnss_implausible_readings` alone, while `gnss_speed_ignored` said 0 beside it: the
    /// recording column's count (Sweep27Tests) and the live feed's were two keys for one idea.
    /// The old key stays, the same count (docs/CONTRACTS.md §3: a summary gains keys, never loses them).
    @Test(.timeLimitAfterGate(.seconds(4 * 60))) func liveImplausibleSpeedsAreCountedAsIgnored() async throws {
        if let reason = Self.skipReason() { print(reason); return }
        // 15 s still: reports are requested from the start (the activity is unknown), gpsd's
        // receiver reports one fix a second, every one at 400 m/s.
        let summary = try await Self.stepsBesideGPSD(["--simulate", "still:15", "--gps"], speed: 400, seconds: 60).summary
        let ignored = try #require(summary["gnss_speed_ignored"] as? Int, "\(summary)")
        // At least a few of the 15 one-second fixes, on a loaded machine; never more than one a second.
        #expect(ignored >= 3 && ignored <= 16, "\(summary)")
        #expect(summary["gnss_implausible_readings"] as? Int == ignored, "\(summary)")
        #expect(summary["gnss_speed_readings"] as? Int == 0, "\(summary)")
    }
}
