import Foundation
import OffPool
import Testing

/// Session 19's sweep of the service-side tools (imu-stepd, its clients, the history, MQTT, gpsd)
/// as a new user meets them: each case here fell short of the project's standard (a clear message
/// naming the thing and the fix, exit codes per docs/CONTRACTS.md §4).
@Suite(.offPool) struct BadInputSweep20Tests {
    /// A malformed `--gpsd` said only "GPS address 'my host:2947' is not HOST:PORT": the user had
    /// to guess which part was wrong. Each names it, the option, and an example of a good value.
    @Test(arguments: [
        ("my host:2947", "the host 'my host' holds a space"),
        ("[::1", "the '[' of an IPv6 address is not closed by ']'"),
        ("[]:2947", "no address between '[' and ']'"),
        ("[::1]2947", "only ':PORT' may follow the ']'"),
        ("::1", "it holds 2 ':' where HOST:PORT has one; an IPv6 address goes in brackets"),
        ("http://pi:2947", "it holds 2 ':'"),
        ("pi/gps:2947", "the host 'pi/gps' holds a '/'"),
        (":", "no port after ':'"),
        ("host:99999", "the port 99999 is outside 1–65535"),
        ("host:+2947", "the port '+2947' is not a number"),
        ("[::1]:0", "the port 0 is outside 1–65535"),
        ("host:gps", "the port 'gps' is not a number"),
        ("host:", "no port after ':'"),
    ])
    func aMalformedGPSDAddressSaysWhatIsWrong(address: String, problem: String) throws {
        let r = try ToolRunner.run("imu-steps", ["--gpsd", address, "--simulate", "walk:1", "--json"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-steps: --gpsd: GPS address '\(address)': \(problem)"), "\(r.stderr)")
        #expect(!r.stderr.contains("is not HOST:PORT"), "the generic message: \(r.stderr)")
        #expect(r.stderr.contains("  fix: write it as HOST:PORT, e.g. --gpsd localhost:2947"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "it ran: \(r.stdout.prefix(200))")
    }

    /// `imu-bench-history --writer` without its path said "unknown argument '--writer':
    /// imu-bench-history takes no arguments".
    @Test(arguments: [["--writer"], ["--writer", ""], ["--writer", "a.sqlite", "b.sqlite"]])
    func theHistoryWriterNeedsAPath(arguments: [String]) throws {
        let r = try ToolRunner.run("imu-bench-history", arguments, timeout: 60)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("imu-bench-history: --writer "), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: give one file, e.g. imu-bench-history --writer /tmp/writer.sqlite"), "\(r.stderr)")
        #expect(!r.stderr.contains("takes no arguments"), "\(r.stderr)")
        #expect(r.stdout.isEmpty, "it ran: \(r.stdout.prefix(200))")
    }

    /// The history's messages end as every other tool's do: no full stop after the message or the fix.
    @Test func aHistoryMessageEndsAsTheOthersDo() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let notes = dir + "/notes.txt"
        try "shopping: milk\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-plot", ["--day", "--history", notes, "-o", dir + "/day.html"])
        #expect(r.status == 2, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("imu-plot: \(notes) is not an IMUKit history") && lines[1].hasPrefix("  fix: "),
                "\(r.stderr)")
        #expect(lines.allSatisfy { !$0.hasSuffix(".") }, "\(r.stderr)")
    }

    /// A file named as imu-stepd's state directory was given the fix "sudo install -d -o
    /// imu-stepd FILE", which fails (or, for /dev/null, means nothing).
    @Test func aFileNamedAsTheStateDirectoryGetsAFixThatWorks() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "x".write(toFile: dir + "/file", atomically: true, encoding: .utf8)
        let config = dir + "/c.conf"
        try "bus = unix:path=\(dir)/no-bus\nstate_directory = \(dir)/file\nsimulate = walk\n".write(toFile: config, atomically: true, encoding: .utf8)
        let r = try ToolRunner.run("imu-stepd", ["--config", config], timeout: 30)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("imu-stepd: state directory \(dir)/file: is not a directory\n"), "\(r.stderr)")
        #expect(r.stderr.contains("  fix: set state_directory in \(config) to a directory (imu-stepd's own is /var/lib/imu-stepd)"), "\(r.stderr)")
        #expect(!r.stderr.contains("install -d"), "\(r.stderr)")
    }

    /// A state directory on a read-only file system was "not writable by this user" (exit 3, as
    /// for permission denied) with a chown as the fix, which no user can make work. Runs on a
    /// read-only tmpfs, which needs root; skipped with a message otherwise.
    @Test func aStateDirectoryOnAReadOnlyFileSystemIsNamed() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mount = try ShellRunner.run("mkdir ro && mount -t tmpfs -o size=64k,ro tmpfs ro", directory: dir)
        guard mount.status == 0 else { print("skipped: cannot mount a read-only tmpfs here (needs root): \(mount.stderr)"); return }
        defer { _ = try? ShellRunner.run("umount ro", directory: dir) }
        for state in [dir + "/ro", dir + "/ro/sub"] {
            let config = dir + "/c.conf"
            try "bus = unix:path=\(dir)/no-bus\nstate_directory = \(state)\nsimulate = walk\n".write(toFile: config, atomically: true, encoding: .utf8)
            let r = try ToolRunner.run("imu-stepd", ["--config", config], timeout: 30)
            #expect(r.status == 1, "\(state): \(r.stderr)")
            #expect(r.stderr.contains("imu-stepd: state directory \(state): ") && r.stderr.contains("file system mounted read-only\n"), "\(state): \(r.stderr)")
            #expect(r.stderr.contains("  fix: set state_directory in \(config) to a directory on a writable file system, or remount it read-write"),
                    "\(state): \(r.stderr)")
        }
    }
}
