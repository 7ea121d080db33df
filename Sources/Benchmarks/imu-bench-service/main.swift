import Foundation

/// imu-bench-service: what imu-stepd costs while it counts at 100 Hz in real time.
///
/// Runs the built daemon on a private dbus-daemon with the simulator paced at real time (speed 1,
/// 100 Hz), and reads from /proc over a window: CPU time (utime + stime of all threads, in % of one
/// core) and wake-ups (voluntary context switches of all threads, per second). Anchors measured in
/// the same run: an idle `sleep` process (the floor), and a minimal 100 Hz poll loop (one
/// nanosleep per sample, what a naive per-sample reader costs). Target (issue #16): ≤ 0.3 % of one
/// core and ≤ 10 wake-ups a second. Prints figures; never fails on a number.

let window = Double(ProcessInfo.processInfo.environment["IMUKIT_BENCH_SECONDS"] ?? "") ?? 20
let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()

struct Usage {
    var cpuSeconds: Double
    var voluntarySwitches: Int
}

/// Sums CPU time and voluntary switches over every thread of `pid` (/proc/PID/task/*).
func usage(_ pid: Int32) -> Usage? {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
    var u = Usage(cpuSeconds: 0, voluntarySwitches: 0)
    for t in tasks {
        if let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/stat", encoding: .utf8),
           let close = stat.lastIndex(of: ")") {
            // Fields after "comm)": state is field 3; utime and stime are fields 14 and 15 (proc(5)).
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 13, let ut = Double(fields[11]), let st = Double(fields[12]) { u.cpuSeconds += (ut + st) / ticks }
        }
        if let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(t)/status", encoding: .utf8),
           let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
           let n = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") {
            u.voluntarySwitches += n
        }
    }
    return u
}

func start(_ path: String, _ args: [String], env: [String: String] = [:]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    var e = ProcessInfo.processInfo.environment
    for (k, v) in env { e[k] = v }
    p.environment = e
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

/// CPU % of one core and wake-ups per second of `pid` over `seconds`.
func measure(_ pids: [String: Int32], seconds: Double) -> [String: (cpu: Double, wakeups: Double)] {
    let before = pids.mapValues { usage($0) }
    let t0 = Date()
    Thread.sleep(forTimeInterval: seconds)
    let elapsed = Date().timeIntervalSince(t0)
    var out: [String: (Double, Double)] = [:]
    for (name, pid) in pids {
        guard let a = before[name] ?? nil, let b = usage(pid) else { continue }
        out[name] = (100 * (b.cpuSeconds - a.cpuSeconds) / elapsed, Double(b.voluntarySwitches - a.voluntarySwitches) / elapsed)
    }
    return out
}

guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") else {
    print("imu-bench-service: skipped: dbus-daemon is not installed (apt-get install dbus)")
    exit(0)
}
let dir = NSTemporaryDirectory() + "imukit-bench-service-\(getpid())"
try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: dir) }
let busConfig = """
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=\(dir)/bus</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
"""
try busConfig.write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
let bus = try start("/usr/bin/dbus-daemon", ["--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"])
defer { kill(bus.processIdentifier, SIGKILL) }
while !FileManager.default.fileExists(atPath: dir + "/bus") { usleep(20_000) }

try """
simulate = walk:7200
speed = 1
rate = 100
bus = unix:path=\(dir)/bus
state_directory = \(dir)/state
clock = trust
""".write(toFile: dir + "/stepd.conf", atomically: true, encoding: .utf8)
let daemon = try start(bin.appendingPathComponent("imu-stepd").path, ["--config", dir + "/stepd.conf"], env: ["IMUKIT_LOG_STDERR": "1"])
defer { kill(daemon.processIdentifier, SIGTERM); daemon.waitUntilExit() }
let idle = try start("/bin/sleep", ["3600"])
defer { kill(idle.processIdentifier, SIGKILL) }
// The 100 Hz anchor: one sleep per sample in a process of its own (what a naive per-sample reader
// costs in wake-ups before it does any work).
let loop = try start("/usr/bin/python3", ["-c", "import time\nwhile True: time.sleep(0.01)"])
defer { kill(loop.processIdentifier, SIGKILL) }

Thread.sleep(forTimeInterval: 5)  // start-up (store open, pedometer warm-up) is not the steady state
let figures = measure(["imu-stepd": daemon.processIdentifier, "sleep": idle.processIdentifier,
                       "poll-100Hz": loop.processIdentifier], seconds: window)
print("imu-stepd at 100 Hz, simulated walk paced in real time, \(Int(window)) s window (issue #16 target: ≤ 0.3 % CPU, ≤ 10 wake-ups/s)")
for name in ["imu-stepd", "sleep", "poll-100Hz"] {
    guard let f = figures[name] else { print("  \(name): not measured (process ended)"); continue }
    print("  \(name.padding(toLength: 11, withPad: " ", startingAt: 0)) CPU \(String(format: "%6.2f", f.cpu)) % of one core   wake-ups \(String(format: "%7.1f", f.wakeups)) /s")
}
if let d = figures["imu-stepd"], let p = figures["poll-100Hz"], p.cpu > 0 {
    print("  ratio imu-stepd / 100 Hz poll loop: CPU \(String(format: "%.2f", d.cpu / p.cpu)), wake-ups \(String(format: "%.2f", d.wakeups / max(p.wakeups, 1)))")
    print(String(format: "figure: imu-stepd at 100 Hz = %.2f %% of one core, %.1f wake-ups/s | target <= 0.3 %%, <= 10 /s | anchor: a 100 Hz poll loop = %.2f %%, %.1f /s",
                 d.cpu, d.wakeups, p.cpu, p.wakeups))
}

// The polled fallback (iio-sensor-proxy holds the buffer): the same daemon forced to poll an IIO
// accelerometer at 50 Hz. Needs one: the local machine's, or IMUKIT_BENCH_POLLED_SOURCE (e.g. the
// kernel ring's iio:ip:127.0.0.1:PORT/mpu6050).
let localIIO = ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/bus/iio/devices")) ?? []).contains { name in
    ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/bus/iio/devices/\(name)")) ?? []).contains { $0.hasPrefix("in_accel") }
}
let polledSource = ProcessInfo.processInfo.environment["IMUKIT_BENCH_POLLED_SOURCE"] ?? (localIIO ? "iio:local:?mode=polled" : nil)
if let polledSource {
    kill(daemon.processIdentifier, SIGTERM)
    daemon.waitUntilExit()
    let spec = polledSource.contains("mode=") ? polledSource : polledSource + (polledSource.contains("?") ? "&" : "?") + "mode=polled"
    try """
    source = \(spec)
    rate = 50
    bus = unix:path=\(dir)/bus
    state_directory = \(dir)/state-polled
    clock = trust
    calibration = no
    """.write(toFile: dir + "/polled.conf", atomically: true, encoding: .utf8)
    let polled = try start(bin.appendingPathComponent("imu-stepd").path, ["--config", dir + "/polled.conf"], env: ["IMUKIT_LOG_STDERR": "1"])
    defer { kill(polled.processIdentifier, SIGTERM); polled.waitUntilExit() }
    Thread.sleep(forTimeInterval: 5)
    let f = measure(["polled": polled.processIdentifier, "poll-100Hz": loop.processIdentifier], seconds: window)
    if let p = f["polled"], let a = f["poll-100Hz"] {
        print("  polled fallback at 50 Hz (\(spec)): CPU \(String(format: "%.2f", p.cpu)) % of one core, wake-ups \(String(format: "%.1f", p.wakeups)) /s; anchor 100 Hz loop: CPU \(String(format: "%.2f", a.cpu)) %, \(String(format: "%.1f", a.wakeups)) /s")
    } else {
        print("  polled fallback: the daemon ended (no sensor at \(spec)?)")
    }
} else {
    print("  polled fallback: skipped: no IIO accelerometer here (set IMUKIT_BENCH_POLLED_SOURCE=iio:ip:HOST/DEVICE to measure one)")
}
