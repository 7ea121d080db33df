// imu-bench-power: what a live imu-steps costs between batches: CPU (% of one core), wake-ups a
// second (voluntary context switches) and resident memory, read from /proc over a steady window.
// Measured on `imu-steps --replay F --realtime` (100 Hz phone walk, paced like a sensor) and on
// an emulated chip with a FIFO read live, each beside anchors run at the same time: the same
// recording replayed as fast as possible (the pipeline's own work per second of data), a thread
// that wakes twice a second and does nothing (the floor of a 0.5 s cadence), and /bin/sleep
// (a C process's memory). Prints figures; asserts nothing (issue 11, parts 2 and 5).
import ChipEmulators
import Foundation
import IMUCLI
import IMUSensors
import Pedometer
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
let selfPath = URL(fileURLWithPath: arguments[0]).resolvingSymlinksInPath().path
let binDir = URL(fileURLWithPath: selfPath).deletingLastPathComponent().path

// MARK: Child modes

if arguments.count >= 3, arguments[1] == "--emulated" {
    // A live pipeline on an emulated chip following the boot clock, until SIGTERM.
    let bus = EmulatedI2CBus(clock: .boot())
    let address = EmulatorCatalog.attach(arguments[2], to: bus, motion: Motions.walk)
    let environment = I2CEnvironment(adapters: { ["/dev/i2c-1"] }, adapterName: { _ in "emulated" },
                                     open: { _ throws(I2CError) in bus })
    let backend = I2CBackend(environment: environment, mountConfigPath: "/nonexistent/mount.conf")
    let source = try backend.open(spec: "1@\(I2CAddress.hex(address))", options: SourceOptions(rateHz: 100))
    _ = try await PedometerRunner(configuration: PedometerConfiguration(), json: true, display: nil).run(source)
    exit(0)
}
if arguments.count >= 2, arguments[1] == "--idle" {
    // The anchor: one thread that sleeps half a second at a time, the cadence the sources use.
    while true { usleep(500_000) }
}

// MARK: Parent

let window = Double(ProcessInfo.processInfo.environment["IMU_POWER_SECONDS"] ?? "") ?? 20
let warmup = 3.0
let recording = ProcessInfo.processInfo.environment["IMU_POWER_RECORDING"]
    ?? "Tests/PedometerTests/Fixtures/samsung-jamie-hard-inhand-1.csv"
let chip = "lsm6ds3"

func launch(_ path: String, _ args: [String]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

func childrenCPU() -> Double {
    var u = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) * 1e-6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) * 1e-6
}

/// Seconds of data in a recording: last `t` minus first (the first column of data rows).
func recordingSeconds(_ path: String) -> Double? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let rows = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
    guard let first = rows.first?.split(separator: ",").first.flatMap({ Double($0) }),
          let last = rows.last?.split(separator: ",").first.flatMap({ Double($0) }) else { return nil }
    return last - first
}

func pct(_ x: Double) -> String { String(format: "%.3f %%", x * 100) }
func num(_ x: Double, _ d: Int = 1) -> String { String(format: "%.\(d)f", x) }
func mib(_ kib: Int) -> String { String(format: "%.1f MB", Double(kib) / 1024) }

let stepsPath = binDir + "/imu-steps"
guard FileManager.default.isExecutableFile(atPath: stepsPath) else {
    print("imu-bench-power: \(stepsPath) is not built; run: swift build -c release")
    exit(1)
}
let haveRecording = FileManager.default.fileExists(atPath: recording)
if !haveRecording { print("imu-bench-power: \(recording) not found (run from the repository, or set IMU_POWER_RECORDING): replay figures skipped") }

// Anchor 1: the same recording as fast as possible, alone (its CPU per second of data).
var fastCPUPerDataSecond: Double?
if haveRecording, let seconds = recordingSeconds(recording) {
    let before = childrenCPU()
    let p = try launch(stepsPath, ["--replay", recording, "--json"])
    p.waitUntilExit()
    fastCPUPerDataSecond = (childrenCPU() - before) / seconds
}

// The live children and the anchors, side by side over the same window.
var live: [(String, Process)] = []
if haveRecording { live.append(("imu-steps --replay --realtime (100 Hz)", try launch(stepsPath, ["--replay", recording, "--realtime", "--json"]))) }
live.append(("imu-steps pipeline on emulated \(chip) FIFO (104 Hz)", try launch(selfPath, ["--emulated", chip])))
let idle = try launch(selfPath, ["--idle"])
let sleeper = try launch("/bin/sleep", ["600"])
let everyone = live.map(\.1) + [idle, sleeper]

usleep(useconds_t(warmup * 1e6))
let first = everyone.map { ProcSample.read(pid: $0.processIdentifier) }
usleep(useconds_t(window * 1e6))
let last = everyone.map { ProcSample.read(pid: $0.processIdentifier) }
let breakdown = live.first.map { rssByMapping(pid: $0.1.processIdentifier) } ?? []
for p in everyone where p.isRunning { p.terminate() }
for p in everyone { p.waitUntilExit() }

func rates(_ i: Int) -> (cpu: Double, wakeups: Double, rssKiB: Int, ended: Int, statCPU: Double)? {
    guard let a = first[i], let b = last[i] else { return nil }
    let d = b.since(a)
    let span = b.time - a.time
    return (d.cpuSeconds / span, Double(d.wakeups) / span, b.rssKiB, d.threadsEnded,
            (b.processCPUSeconds - a.processCPUSeconds) / span)
}

print("imu-bench-power: \(num(window, 0)) s window after \(num(warmup, 0)) s warm-up, /proc/PID/task/*/schedstat (CPU) and voluntary_ctxt_switches (wake-ups), VmRSS")
let anchorIdle = rates(live.count)
let anchorSleep = rates(live.count + 1)
for (i, (label, _)) in live.enumerated() {
    guard let r = rates(i) else { print("figure: \(label): the process ended early (see its output)"); continue }
    let ended = (r.ended > 0 ? " (\(r.ended) thread(s) ended in the window, their share missed; " : " (")
        + "whole process from /proc/PID/stat in 10 ms ticks: \(pct(r.statCPU)))"
    print("figure: \(label) CPU = \(pct(r.cpu)) of one core | target <= 0.200 % | anchor: fast replay of the same data "
          + (fastCPUPerDataSecond.map { pct($0) + " per second of data" } ?? "n/a") + ended)
    print("figure: \(label) wake-ups = \(num(r.wakeups)) /s | target <= 10 /s | anchor: a thread waking every 0.5 s = "
          + (anchorIdle.map { num($0.wakeups) } ?? "n/a") + " /s")
    print("figure: \(label) RSS = \(mib(r.rssKiB)) | target <= 15 MB | anchor: /bin/sleep = "
          + (anchorSleep.map { mib($0.rssKiB) } ?? "n/a") + ", idle Swift bench process = " + (anchorIdle.map { mib($0.rssKiB) } ?? "n/a"))
}
if !breakdown.isEmpty {
    let total = breakdown.map(\.1).reduce(0, +)
    print("")
    print("where the RSS of \(live[0].0) goes (\(mib(total)), /proc/PID/smaps by mapping):")
    for (name, kib) in breakdown.prefix(12) { print("  " + String(format: "%7.1f MB  ", Double(kib) / 1024) + name) }
}
