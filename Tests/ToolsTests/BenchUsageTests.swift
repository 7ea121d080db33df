import Foundation
import OffPool
import Testing

/// The benchmarks' command lines (`BenchArguments`): `--help` prints the usage, a bad argument is a
/// usage error that names its fix (exit 2, docs/CONTRACTS.md §4). Before, the benchmarks without
/// options ignored every argument (`imu-bench-core --help` ran the whole bench), imu-bench-history
/// printed a usage line without a fix, and imu-bench-accuracy's errors ended in "try --help".
@Suite(.offPool) struct BenchUsageTests {
    static let argumentless = ["imu-bench-core", "imu-bench-i2c", "imu-bench-activity", "imu-bench-plot",
                               "imu-bench-replay", "imu-bench-history", "imu-bench-memory"]

    @Test(arguments: argumentless)
    func aBenchmarkRefusesAnArgumentWithTheFix(bench: String) throws {
        let r = try ToolRunner.run(bench, ["--fast"], timeout: 60)
        #expect(r.status == 2, "\(bench): \(r.stderr)")
        #expect(r.stderr.contains("\(bench): unknown argument '--fast': \(bench) takes no arguments\n  fix: run it alone: \(bench)"),
                "\(bench): \(r.stderr)")
        #expect(r.stdout.isEmpty, "\(bench) ran: \(r.stdout.prefix(200))")
    }

    /// imu-bench-power's flags pass; anything beside them is refused with the form.
    @Test func imuBenchPowerNamesItsFlags() throws {
        let r = try ToolRunner.run("imu-bench-power", ["--no-iio", "--iio"], timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("unknown argument '--iio': imu-bench-power takes only --iio-only and --no-iio\n"
                                  + "  fix: run it as imu-bench-power [--iio-only] [--no-iio]"), "\(r.stderr)")
        let help = try ToolRunner.run("imu-bench-power", ["--help"], timeout: 60)
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: imu-bench-power [--iio-only] [--no-iio]\n"), "\(help.stdout)")
    }

    @Test(arguments: argumentless)
    func aBenchmarkPrintsItsUsageForHelp(bench: String) throws {
        let r = try ToolRunner.run(bench, ["--help"], timeout: 60)
        #expect(r.status == 0, "\(bench): \(r.stderr)")
        #expect(r.stdout.hasPrefix("usage: \(bench)") && r.stdout.contains("akes no"), "\(bench): \(r.stdout.prefix(300))")
    }

    @Test(arguments: [
        (["--foo"], "unknown argument '--foo'", "imu-bench-accuracy takes --oxford DIR, --only SET, --rate HZ and --trace NAME, e.g. imu-bench-accuracy --only realdev"),
        (["--only", "realdv"], "--only realdv names no set", "write one of oxford, realdev, shortwalks, daily, fixtures, simulator, floors, speed, e.g. --only realdev"),
        (["--only"], "--only needs a set name", "write one of oxford,"),
        (["--rate", "inf"], "--rate needs a sample rate in Hz from 1 to 8000, got 'inf'", "e.g. --rate 100"),
        (["--rate", "0"], "--rate needs a sample rate in Hz from 1 to 8000, got '0'", "e.g. --rate 100"),
        (["--oxford"], "--oxford needs a directory", "name the Oxford step-counting data set's directory"),
        // A given directory that is missing printed "skipped" and exited 0 (session 19).
        (["--oxford", "/nonexistent-oxford", "--only", "oxford"], "--oxford /nonexistent-oxford: no such directory", "or leave out --oxford"),
        (["--oxford", "/dev/null"], "--oxford /dev/null: not a directory", "name the directory holding"),
        (["--trace"], "--trace needs a recording or scenario name", "e.g. --trace walk"),
        (["--trace", "no-such-name-zz"], "--trace no-such-name-zz matched no recording, trial or scenario", "e.g. --trace walk:60"),
    ])
    func theAccuracyBenchNamesTheFix(arguments: [String], message: String, fix: String) throws {
        // No data sets at run time: a usage error needs none (the project must not depend on /work/shared).
        let r = try ToolRunner.run("imu-bench-accuracy", arguments,
                                   environment: ["IMU_OXFORD_DIR": "/nonexistent", "IMU_REALDEV_DIR": "/nonexistent"], timeout: 60)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("imu-bench-accuracy: \(message)") && lines[1].hasPrefix("  fix: ")
                    && lines[1].contains(fix), "\(arguments): \(r.stderr)")
        #expect(!r.stderr.contains("try --help"), "\(r.stderr)")
    }

    /// IMU_OXFORD_DIR naming a file ended in Foundation's "Error Domain=NSCocoaErrorDomain …", exit 1.
    @Test func anOxfordPlaceThatIsAFileIsAUsageError() throws {
        let r = try ToolRunner.run("imu-bench-accuracy", ["--only", "oxford"],
                                   environment: ["IMU_OXFORD_DIR": "/dev/null", "IMU_REALDEV_DIR": "/nonexistent"], timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-bench-accuracy: the Oxford data set's place /dev/null is a file, not a directory\n  fix: point IMU_OXFORD_DIR"), "\(r.stderr)")
    }

    /// An --oxford directory without one labelled recording printed "0 recordings" and MAPE
    /// 0.00 % (exit 0): a silent zero.
    @Test func anOxfordDirectoryWithoutRecordingsIsNamed() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "t,ax,ay,az\n0,0,0,1\n".write(toFile: dir + "/no-truth.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-bench-accuracy", ["--oxford", dir, "--only", "oxford"], environment: ["IMU_REALDEV_DIR": "/nonexistent"], timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-bench-accuracy: \(dir) holds no Oxford recording: no NAME.csv with a NAME.truth.json beside it\n  fix: "), "\(r.stderr)")
        #expect(!r.stdout.contains("MAPE"), "\(r.stdout)")
    }

    /// `--trace NAME` printed a walk's first and last four steps only, so where its other steps
    /// fall against the recording could not be read (session 23). Each bout's line `steps …`
    /// lists them all: as many as the counter counted, in order, inside the recording.
    @Test func theAccuracyTraceListsEveryStepOfAnOxfordRecording() throws {
        let fixtures = ToolRunner.packageRoot.appendingPathComponent("Tests/PedometerTests/Fixtures").path
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixtures + "/samsung-jamie-hard-inhand-1.truth.json")))
        let seconds = try #require((truth as? [String: Any])?["duration_s"] as? Double)
        let r = try ToolRunner.run("imu-bench-accuracy", ["--oxford", fixtures, "--trace", "samsung-jamie-hard-inhand-1"],
                                   environment: ["IMU_REALDEV_DIR": "/nonexistent"], timeout: 120)
        #expect(r.status == 0, "\(r.stderr)")
        let counted = r.lines.first { $0.hasPrefix("counted ") }.flatMap { Int($0.dropFirst(8)) }
        let times = r.lines.filter { $0.hasPrefix("steps ") }.flatMap { $0.dropFirst(6).split(separator: " ").compactMap { Double($0) } }
        #expect(counted.map { $0 > 0 } == true, "\(r.stdout.prefix(300))")
        #expect(times.count == counted, "steps listed \(times.count), counted \(String(describing: counted))")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "step times out of order")
        #expect(times.allSatisfy { $0 >= 0 && $0 <= seconds }, "a step outside the recording: \(times.prefix(3)) … \(times.suffix(3))")
    }

    /// A malformed recording in a set the bench reads exited 1 (Oxford's) while a bad flag exits 2;
    /// a bad file is a usage error for every tool (docs/CONTRACTS.md §4): FILE:LINE, the fix, exit 2.
    /// A truth file without a step count left its recording out of the figures without a word.
    @Test(arguments: [
        ("t,ax,ay,az\n0,0,0,1\n0.01,0,zero,1\n", #"{"steps": 1}"#, "bad.csv:3: field 'ay' is not a finite number: 'zero'", "mend line 3 of "),
        ("t,ax,ay,az\n0,0,0,1\n", #"{"steps": "many"}"#, "bad.truth.json: no step count", "write it as e.g. {\"steps\": 120}"),
    ])
    func theAccuracyBenchStopsAtAMalformedRecording(csv: String, truth: String, message: String, fix: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try csv.write(toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        try truth.write(toFile: dir + "/bad.truth.json", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-bench-accuracy", ["--oxford", dir, "--only", "oxford"],
                                   environment: ["IMU_REALDEV_DIR": "/nonexistent"], timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-bench-accuracy: \(dir)/\(message)"), "\(r.stderr)")
        #expect(r.stderr.contains("\n  fix: \(fix)"), "\(r.stderr)")
    }
}
