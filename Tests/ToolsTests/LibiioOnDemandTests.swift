import Foundation
import OffPool
import Testing

/// libiio is loaded with dlopen by the first IIO context (Sources/CLibIIO), not at process start
/// (issue #11 parts 3 and 5: start-up time and memory, docs/memory.md).
@Suite(.offPool, .serialized) struct LibiioOnDemandTests {
    /// libiio's file as the loader finds it (`ldconfig -p`), symlinks resolved; nil when libiio0
    /// is not installed.
    static let libiioFile: String? = {
        guard let r = try? runCommand("/sbin/ldconfig", ["-p"]), r.status == 0 else { return nil }
        let line = r.lines.first { $0.contains("libiio.so.0 ") && $0.contains("=> ") }
        guard let path = line?.components(separatedBy: "=> ").last else { return nil }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }()

    /// The shared objects the loader opened, from its own trace (LD_DEBUG=files, on stderr).
    static func opened(_ r: ToolResult) -> [String] {
        r.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "file=").map { String(line[$0.upperBound...].prefix { !$0.isWhitespace }) }
        }
    }

    @Test func replayNeverLoadsLibiioAndAnIIOSourceDoes() throws {
        guard Self.libiioFile != nil else { print("LibiioOnDemandTests: skipped, libiio0 is not installed"); return }
        let recording = try ToolRunner.temporaryFile("libiio-replay.csv", "t,ax,ay,az\n0.00,0,0,1\n0.01,0,0,1\n")
        let replay = try ToolRunner.run("imu-steps", ["--replay", recording, "--json"], environment: ["LD_DEBUG": "files"])
        #expect(replay.status == 0, "stderr: \(replay.stderr.suffix(500))")
        #expect(replay.stdout.contains("\"summary\""))
        let replayed = Self.opened(replay)
        #expect(replayed.contains { $0.hasPrefix("libc.so") }, "the loader's trace lists the libraries: \(replayed)")
        #expect(!replayed.contains { $0.hasPrefix("libiio") || $0.hasPrefix("libxml2") }, "opened: \(replayed)")
        // The same trace shows libiio once an IIO context is opened: imu-info lists local: (whether
        // or not this machine has IIO devices).
        let info = try ToolRunner.run("imu-info", [], environment: ["LD_DEBUG": "files"], timeout: 60)
        #expect(Self.opened(info).contains { $0.hasPrefix("libiio.so.0") }, "stderr: \(info.stderr.suffix(500))")
    }

    /// Without a loadable libiio (its file hidden under /dev/null in a private mount namespace) an
    /// IIO source fails with exit 3, the loader's reason and the fix; a replay still works.
    @Test func missingLibiioIsNamedWithItsFixAndReplayStillWorks() throws {
        guard let library = Self.libiioFile else { print("LibiioOnDemandTests: skipped, libiio0 is not installed"); return }
        func hidden(_ tool: String, _ arguments: [String]) throws -> ToolResult {
            try Self.hiding(library, tool, arguments)
        }
        let probe = try hidden("imu-steps", ["--version"])
        guard probe.status == 0 else {
            print("LibiioOnDemandTests: missing-library case skipped, no private mount namespace here (needs root): \(probe.stderr)")
            return
        }
        let live = try hidden("imu-steps", ["--source", "iio:local:", "--json"])
        #expect(live.status == 3, "stderr: \(live.stderr)")
        #expect(live.stderr.contains("cannot load libiio"), "stderr: \(live.stderr)")
        #expect(live.stderr.contains("apt install libiio0"), "stderr: \(live.stderr)")
        let recording = try ToolRunner.temporaryFile("libiio-hidden.csv", "t,ax,ay,az\n0.00,0,0,1\n0.01,0,0,1\n")
        let replay = try hidden("imu-steps", ["--replay", recording, "--json"])
        #expect(replay.status == 0, "stderr: \(replay.stderr)")
        #expect(replay.stdout.contains("\"summary\""))
        let info = try hidden("imu-info", [])
        #expect(info.stdout.contains("cannot load libiio") || info.stderr.contains("cannot load libiio"), "imu-info: \(info.stdout)")
    }

    /// Runs `tool` with the file `library` hidden under /dev/null in a private mount namespace.
    static func hiding(_ library: String, _ tool: String, _ arguments: [String]) throws -> ToolResult {
        try runCommand("/usr/bin/unshare", ["-m", "/bin/sh", "-c", "mount --bind /dev/null \"$0\" && exec \"$@\"",
                                            library, ToolRunner.path(tool)] + arguments)
    }

    /// SQLite is loaded on first use too (Sources/CSQLite): without it the daemon names the
    /// loader's reason and the package to install, instead of blaming the state directory.
    @Test func missingSQLiteIsNamedWithItsFix() throws {
        guard let r = try? runCommand("/sbin/ldconfig", ["-p"]), r.status == 0,
              let line = r.lines.first(where: { $0.contains("libsqlite3.so.0 ") && $0.contains("=> ") }),
              let path = line.components(separatedBy: "=> ").last else {
            print("LibiioOnDemandTests: skipped, libsqlite3-0 is not installed"); return
        }
        let library = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard (try Self.hiding(library, "imu-steps", ["--version"])).status == 0 else {
            print("LibiioOnDemandTests: missing-SQLite case skipped, no private mount namespace here (needs root)"); return
        }
        let state = try scratchDirectory()
        let config = state + "/stepd.conf"
        try "simulate = walk\nstate_directory = \(state)/s\nbus = session\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try Self.hiding(library, "imu-stepd", ["--config", config])
        #expect(daemon.status == 1, "stderr: \(daemon.stderr)")
        #expect(daemon.stderr.contains("cannot load SQLite"), "stderr: \(daemon.stderr)")
        #expect(daemon.stderr.contains("apt install libsqlite3-0"), "stderr: \(daemon.stderr)")
    }
}
