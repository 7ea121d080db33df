import Foundation
import OffPool
import Testing

/// Session 20's sweep: six bad inputs that earlier sweeps noticed and left. Each now gets a message
/// that names the thing and the fix, with the exit code of docs/CONTRACTS.md §4, and no silent zero.
@Suite(.offPool) struct BadInputSweep21Tests {
    /// `imu-stepd --config FIFO` (no writer) and `--config /dev/null` were read as an empty file:
    /// the daemon ran on defaults without a word. /dev/zero was "larger than 65536 bytes".
    @Test(arguments: [("fifo", "a named pipe (FIFO)"), ("/dev/null", "a character device"), ("/dev/zero", "a character device")])
    func aConfigThatIsNoRegularFileIsRefused(path: String, kind: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #require(mkfifo(dir + "/fifo", 0o600) == 0)
        let config = path.hasPrefix("/") ? path : dir + "/" + path
        // A FIFO without a writer must not block: the 30 s timeout would end the run with no status 2.
        let r = try ToolRunner.run("imu-stepd", ["--config", config], timeout: 30)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-stepd: \(config): is \(kind), not a regular file: the config must be a regular file\n"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: point --config at a file on disk"), "\(r.stderr)")
        #expect(!r.stderr.contains("warning"), "it ran on defaults: \(r.stderr)")
    }

    /// A DBUS_SYSTEM_BUS_ADDRESS that names a bus nobody listens at: imu-steps said "imu-stepd is
    /// not running (no system D-Bus to ask it on)" and imu-stepd "cannot connect to the system
    /// D-Bus", neither naming the variable that sent them there nor its value.
    @Test(arguments: [
        (["imu-steps", "--today"], "imu-steps: cannot ask the step daemon imu-stepd: no D-Bus answers at unix:path=/nonexistent/imukit-bus, the bus DBUS_SYSTEM_BUS_ADDRESS names\n",
         "  fix: correct DBUS_SYSTEM_BUS_ADDRESS (the bus imu-stepd was started on), or unset it"),
        (["imu-steps", "--history", "7d"], "imu-steps: cannot ask the step daemon imu-stepd: no D-Bus answers at unix:path=/nonexistent/imukit-bus, the bus DBUS_SYSTEM_BUS_ADDRESS names\n",
         "  fix: correct DBUS_SYSTEM_BUS_ADDRESS"),
        (["imu-stepd"], "imu-stepd: cannot connect to the system D-Bus at unix:path=/nonexistent/imukit-bus (from DBUS_SYSTEM_BUS_ADDRESS): ",
         "  fix: is a dbus-daemon listening there? correct DBUS_SYSTEM_BUS_ADDRESS, or unset it"),
    ])
    func anUnreachableSystemBusNamesItsVariable(command: [String], message: String, fix: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var arguments = Array(command.dropFirst())
        if command[0] == "imu-stepd" {
            try "bus = system\nsimulate = walk\nyield_to = no\nclock = trust\nstate_directory = \(dir)/state\n"
                .write(toFile: dir + "/c.conf", atomically: true, encoding: .utf8)
            arguments = ["--config", dir + "/c.conf"]
        }
        let r = try ToolRunner.run(command[0], arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/imukit-bus"], timeout: 60)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stderr.contains(fix), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "\(r.stdout)")
    }

    /// `--since 0001-01-01` was asked of the daemon as it came. Times before the first day a
    /// history can hold (2024-01-01: HistoryStore.earliestPlausibleDate) and in the future are
    /// refused, naming the range; the first day itself is accepted (it goes on to the absent bus).
    @Test(arguments: [("0001-01-01", "is before 2024-01-01, the first day a step history can hold"),
                      ("1969-12-31", "is before 2024-01-01"), ("1970-01-01T00:00", "is before 2024-01-01"),
                      ("2023-12-31T23:59", "is before 2024-01-01"),
                      ("2999-01-01", "is in the future"), ("9999-12-31T23:59", "is in the future")])
    func aTimeOutsideTheHistorysRangeIsRefused(text: String, problem: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--since", text], environment: SinceParsingTests.environment)
        #expect(r.status == 2, "\(text): \(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-steps: --since \(text) \(problem)"), "\(r.stderr)")
        #expect(r.stderr.contains("--since takes a time from 2024-01-01 to now\n"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "\(r.stdout)")
        let first = try ToolRunner.run("imu-steps", ["--since", "2024-01-01"], environment: SinceParsingTests.environment)
        #expect(first.status == 1 && first.stderr.contains("DBUS_SYSTEM_BUS_ADDRESS"), "\(first.stderr)")
    }

    /// imu-plot --day drew a page "no history for …" for 9999-12-31 and 1970-01-01, which no
    /// history can fill, and told 0001-01-01 its form was wrong. Refused before any history is
    /// opened (none exists at the path given), naming the range.
    @Test(arguments: [("9999-12-31", "is in the future"), ("1970-01-01", "is before 2024-01-01"),
                      ("0001-01-01", "is before 2024-01-01"), ("2023-12-31", "is before 2024-01-01")])
    func aDayOutsideTheHistorysRangeIsRefused(day: String, problem: String) throws {
        let r = try ToolRunner.run("imu-plot", ["--day", day, "--history", "/nonexistent/h.sqlite", "-o", "/tmp/never-written.html"],
                                   environment: SinceParsingTests.environment)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-plot: --day \(day) \(problem); --day takes a day from 2024-01-01, the first a step history can hold, to today\n"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.html"))
        let first = try ToolRunner.run("imu-plot", ["--day", "2024-01-01", "--history", "/nonexistent/h.sqlite", "-o", "/tmp/never-written.html"],
                                       environment: SinceParsingTests.environment)
        #expect(first.status == 2 && first.stderr.contains("no history file at /nonexistent/h.sqlite"), "the first day goes on: \(first.stderr)")
    }

    /// A walker profile path that is a directory was told "imu-calibrate --reset removes a
    /// calibration", which removes no directory and no profile.
    @Test func aProfileThatIsADirectoryIsNamedAsOne() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let profile = dir + "/imukit/profile.json"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let r = try ToolRunner.run("imu-steps", ["--simulate", "walk:2", "--json"], environment: ["XDG_CONFIG_HOME": dir])
        #expect(r.status == 2, "a bad file (docs/CONTRACTS.md §4; it was 1): \(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-steps: cannot read \(profile): it is a directory, where imukit keeps your walker profile as one small JSON file\n"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: remove the directory (rmdir \(profile), when it is empty) or move it away"), "\(r.stderr)")
        #expect(r.stderr.contains("or set XDG_CONFIG_HOME to another directory"), "\(r.stderr)")
        #expect(!r.stderr.contains("--reset"), "\(r.stderr)")
    }

    /// A jump in `t` before the gap detector had its median (16 intervals) was "gaps 0", even one
    /// of 317 years. Every jump past 2 s (twice the period at 1 Hz, the slowest --rate) counts.
    @Test(arguments: [
        ("t,ax,ay,az\n-5000000000,0,0,1\n-4999999999.99,0,0,1\n4999999999,0,0,1\n4999999999.01,0,0,1\n", 1, "≈"),
        ("t,ax,ay,az\n0,0,0,1\n3,0,0,1\n", 1, "how many is unknown"),
        ("t,ax,ay,az\n0,0,0,1\n0.01,0,0,1\n5,0,0,1\n5.01,0,0,1\n900,0,0,1\n", 2, "≈"),
        ("t,ax,ay,az\n0,0,0,1\n1.5,0,0,1\n3,0,0,1\n", 0, ""),
    ])
    func aJumpBeforeTheRateIsKnownIsAGap(text: String, gaps: Int, missing: String) throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try text.write(toFile: dir + "/jump.csv", atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-record", ["--replay", dir + "/jump.csv", "-o", dir + "/out.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains(", gaps \(gaps)"), "\(r.stderr)")
        let listed = r.stderr.split(separator: "\n").filter { $0.hasPrefix("gap of ") }
        #expect(listed.count == gaps, "\(r.stderr)")
        #expect(listed.allSatisfy { $0.contains(missing) }, "\(r.stderr)")
    }

    /// One sample is a single instant: the JSON summary said "steps":0, "duration_s":0 with no key
    /// telling that nothing could be counted, and the text output said nothing either.
    @Test(arguments: [("t,ax,ay,az\n1.0,0,0,1\n", 1, true), ("t,ax,ay,az\n1.0,0,0,1\n1.01,0,0,1\n", 2, false)])
    func aOneSampleRecordingSaysItHoldsTooFew(text: String, samples: Int, tooFew: Bool) throws {
        let path = try ToolRunner.temporaryFile("few.csv", text)
        let r = try ToolRunner.run("imu-steps", ["--replay", path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try #require(r.stdout.split(separator: "\n").last.map(String.init))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "summary" && object["samples"] as? Int == samples, "\(summary)")
        #expect(object["too_few_samples"] as? Bool == tooFew, "\(summary)")
        let text = try ToolRunner.run("imu-steps", ["--replay", path])
        #expect(text.stderr.contains("gave only 1 sample, a single instant: too few to count steps") == tooFew, "\(text.stderr)")
    }
}
