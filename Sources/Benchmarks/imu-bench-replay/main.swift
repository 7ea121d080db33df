import BenchArguments
import Foundation

BenchArguments.acceptNone("imu-bench-replay", summary: "end-to-end imu-steps --replay beside a minimal C parser of the same file (IMU_BENCH_REPLAY_HOURS sets the length)")

/// imu-bench-replay (issue #11 part 3): end-to-end replay, `imu-steps --replay FILE --json` as a
/// whole process, beside its anchor measured in the same run on the same file: `replay-c-parser`,
/// a minimal C reader that parses and sums every field (Sources/Benchmarks/replay-c-parser).
/// Target: replay at 50 % or more of the C parser's speed. Prints figures; asserts nothing.
///
/// The recording is the simulator's (`imu-record --simulate … --raw`): 100 Hz, accelerometer,
/// gyroscope and a 25 Hz barometer, IMU_BENCH_REPLAY_HOURS hours long (default 1, issue #11's
/// load). Process start-up counts: it is measured on a one-sample recording and printed beside
/// the ratio.
///
/// Two builds of `imu-steps` are measured, both release: the one beside this bench (`swift build
/// -c release`, the Swift runtime as shared libraries), and the one `make
/// build`/`make install` and the Debian package ship (`.build/static`, the Swift runtime linked in:
/// `STATIC_STDLIB` in the Makefile), when it is there (`make bench` builds it). The headline
/// ratio is the shipped build's; the other is printed beside it.

let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
let hours = Double(ProcessInfo.processInfo.environment["IMU_BENCH_REPLAY_HOURS"] ?? "") ?? 1
/// Runs of each program; the median is reported (the machine is shared and noisy). IMU_BENCH_REPLAY_RUNS changes it.
let runs = max(1, Int(ProcessInfo.processInfo.environment["IMU_BENCH_REPLAY_RUNS"] ?? "") ?? 5)

struct Run {
    var wall: Double
    var cpu: Double
    var output: String
}

/// Runs `tool` to completion; wall time, CPU time (user + system of the child and its threads,
/// from `wait4`: that child's own, not the sum over all children so far), stdout. Started with
/// `posix_spawn` (glibc: a vfork-like clone, nothing run in the child but the file actions).
func run(_ tool: String, _ arguments: [String], in directory: URL = binDirectory) throws -> Run {
    let path = directory.appendingPathComponent(tool).path
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    let start = Date()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    close(fds[1])
    defer { close(fds[0]) }
    guard spawned == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))") }
    // The JSON lines are read as a consumer would (and kept small: only the last 4 KiB are kept).
    var last: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }
        last += chunk[0..<n]
        if last.count > 4096 { last.removeFirst(last.count - 4096) }
    }
    var status: Int32 = 0, usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Date().timeIntervalSince(start)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    let cpu = s(usage.ru_utime) + s(usage.ru_stime)
    // Exited normally with status 0 (wait(2)'s encoding: low 7 bits 0 = exited, status in bits 8–15).
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        throw BenchError("\(tool) \(arguments.joined(separator: " ")) ended with wait status \(status)")
    }
    return Run(wall: wall, cpu: cpu, output: String(decoding: last, as: UTF8.self))
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
func f(_ x: Double, _ d: Int) -> String { String(format: "%.\(d)f", x) }

for tool in ["imu-record", "imu-steps", "replay-c-parser"] where !FileManager.default.isExecutableFile(atPath: binDirectory.appendingPathComponent(tool).path) {
    print("imu-bench-replay: skipped, \(tool) is not built in \(binDirectory.path) (swift build -c release)")
    exit(0)
}

// A mixed day-like sequence of activities, repeated to the requested length.
let block = "walk:900,still:300,bus:600,walk:600,stairs-up:2,run:300,stroll:600,stairs-down:2,still:240"
let blockSeconds: Double = 3620   // the segments' seconds, plus about 40 s for the two flights of stairs
let blocks = max(1, Int((hours * 3600 / blockSeconds).rounded()))
let scenario = Array(repeating: block, count: blocks).joined(separator: ",")
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-replay-\(getpid())")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }
let file = directory.appendingPathComponent("replay.csv").path
_ = try run("imu-record", ["--simulate", scenario, "--speed", "max", "--raw", "-q", "-o", file])
let size = ((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? Int) ?? 0

let tiny = directory.appendingPathComponent("one-sample.csv").path
try "t,ax,ay,az\n0,0,0,1\n".write(toFile: tiny, atomically: true, encoding: .utf8)

/// The shipped build (`make build`: the Swift runtime linked statically), next to this build's
/// directory as the Makefile lays it out (`.build/static/release`), or IMU_BENCH_REPLAY_SHIPPED_BIN.
let shippedDirectory: URL? = {
    let given = ProcessInfo.processInfo.environment["IMU_BENCH_REPLAY_SHIPPED_BIN"].map { URL(fileURLWithPath: $0) }
    let directory = given ?? binDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("static/release")
    let tool = directory.appendingPathComponent("imu-steps").path
    guard FileManager.default.isExecutableFile(atPath: tool) else {
        print("shipped build: not measured, \(tool) is absent (make build, or make bench, builds it)")
        return nil
    }
    let modified = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date }
    if let shipped = modified(tool), let here = modified(binDirectory.appendingPathComponent("imu-steps").path), shipped < here {
        print("shipped build: warning, \(tool) is older than this build's imu-steps (make build refreshes it)")
    }
    return directory
}()

/// One build's figures: whole runs, and start-up runs on the one-sample recording.
struct Replay {
    var label: String
    var directory: URL
    var runs: [Run] = []
    var startup: [Run] = []
}
var replays = [Replay(label: "shipped build: make build, Swift runtime linked in", directory: shippedDirectory ?? binDirectory),
               Replay(label: "swift build -c release: Swift runtime as shared libraries", directory: binDirectory)]
if shippedDirectory == nil { replays.removeFirst() }
/// A third build to compare in the same runs (another commit's `make build`, say), when given.
if let other = ProcessInfo.processInfo.environment["IMU_BENCH_REPLAY_OTHER_BIN"], !other.isEmpty {
    replays.append(Replay(label: "other build: IMU_BENCH_REPLAY_OTHER_BIN", directory: URL(fileURLWithPath: other)))
}

/// The anchor: the C parser built by `make bench` with the C compiler alone (`.build/replay-c-parser-cc`,
/// or IMU_BENCH_REPLAY_C_PARSER), a plain C process; else SwiftPM's build of the same source, which
/// swiftc links with libswiftCore and libstdc++ (a slower start, so a ratio flattered by about 1.5 ms).
let cParser: (directory: URL, tool: String) = {
    let given = ProcessInfo.processInfo.environment["IMU_BENCH_REPLAY_C_PARSER"].map { URL(fileURLWithPath: $0) }
    let plain = given ?? binDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("replay-c-parser-cc")
    if FileManager.default.isExecutableFile(atPath: plain.path) { return (plain.deletingLastPathComponent(), plain.lastPathComponent) }
    print("anchor: \(plain.path) is absent (make bench builds it); using SwiftPM's replay-c-parser, which links libswiftCore")
    return (binDirectory, "replay-c-parser")
}()
var c: [Run] = [], cStartup: [Run] = []
for _ in 0..<runs {   // interleaved, so all see the same machine load
    c.append(try run(cParser.tool, [file], in: cParser.directory))
    cStartup.append(try run(cParser.tool, [tiny], in: cParser.directory))
    for k in replays.indices {
        replays[k].runs.append(try run("imu-steps", ["--replay", file, "--json"], in: replays[k].directory))
        replays[k].startup.append(try run("imu-steps", ["--replay", tiny, "--json"], in: replays[k].directory))
    }
}
let samples = Double(c[0].output.split(separator: " ").first.flatMap { Int($0) } ?? 0)
let cWall = median(c.map(\.wall)), cCPU = median(c.map(\.cpu))
print("recording: \(Int(samples)) samples (\(f(samples / 360_000, 2)) h at 100 Hz), \(size / 1_000_000) MB, t,ax,ay,az,gx,gy,gz,p; median of \(runs) interleaved runs")
let cStart = median(cStartup.map(\.cpu))
print("anchor  \(cParser.tool) (parse + sum, C):  \(f(samples / cWall / 1e6, 2)) M samples/s wall, \(f(samples / cCPU / 1e6, 2)) M/s per CPU second")
print("        its start-up on the one-sample recording: \(f(cStart * 1000, 2)) ms CPU")
var figures: [String] = []
for replay in replays {
    let summary = replay.runs[0].output.split(separator: "\n").last.map(String.init) ?? ""
    let steps = summary.firstMatch(of: /"steps":([0-9]+)/).map { String($0.1) } ?? "?"
    let sWall = median(replay.runs.map(\.wall)), sCPU = median(replay.runs.map(\.cpu))
    let start = median(replay.startup.map(\.cpu))
    print("replay  imu-steps --replay --json, \(replay.label) (\(replay.directory.path)):")
    print("        \(f(samples / sWall / 1e6, 2)) M samples/s wall, \(f(samples / sCPU / 1e6, 2)) M/s per CPU second (\(steps) steps)")
    print("        start-up on a one-sample recording: \(f(start * 1000, 1)) ms CPU (the C parser's: \(f(cStart * 1000, 2)) ms); without it the ratio would be "
          + "\(f(cCPU / max(sCPU - start, 1e-9), 2)) by CPU")
    print("        ratio replay / C parser: \(f(cWall / sWall, 2)) wall, \(f(cCPU / sCPU, 2)) CPU (target >= 0.50)")
    figures.append("\(replay.label.prefix { $0 != ":" }) \(f(cCPU / sCPU, 2)) by CPU (\(f(samples / sCPU / 1e6, 2)) M samples/s per CPU s, "
                   + "start-up \(f(start * 1000, 1)) ms), \(f(cWall / sWall, 2)) by wall")
}
let summaries = Set(replays.map { $0.runs[0].output.split(separator: "\n").last.map(String.init) ?? "" })
if summaries.count > 1 { print("warning: the builds' summaries differ (a stale shipped build?):\n  " + summaries.sorted().joined(separator: "\n  ")) }
print("figure: replay `imu-steps --replay F --json` / anchor replay-c-parser on the same file (\(f(samples / cCPU / 1e6, 2)) M samples/s "
      + "per CPU s), target >= 0.50 by CPU: " + figures.joined(separator: "; "))
