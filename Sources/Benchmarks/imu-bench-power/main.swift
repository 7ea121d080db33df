// imu-bench-power: what live capture costs between batches: CPU (% of one core), wake-ups a
// second (voluntary context switches) and resident memory, read from /proc for every thread
// (/proc/PID/task/*: schedstat for CPU, voluntary_ctxt_switches for wake-ups) over one steady
// window in which everything runs side by side:
// - `imu-steps --replay F --realtime` (100 Hz phone walk paced like a sensor, one batch per
//   hand-over, `HandOver.seconds`) and `imu-steps` on an emulated chip with a FIFO (issue 11);
// - the step daemon `imu-stepd` on the same recording replayed in real time (issue 16: <= 0.3 %
//   of one core, <= 10 wake-ups/s), on a private dbus-daemon, with `imu-steps --replay
//   --realtime` of the same file as its anchor (the same source read by a minimal loop), and
//   `imu-stepd` on the simulator (`simulate =`, the same hand-overs);
// - anchors: the recording replayed as fast as possible (the pipeline's own work per second of
//   data), a thread that wakes once per hand-over and does nothing (the floor of that cadence),
//   and /bin/sleep (a C process's memory).
// Every process's wake-ups are also printed per thread name (the capture thread "imukit-capture",
// the engine, the bus, Swift's pool and libdispatch's threads), so a new periodic waker shows.
// With an IIO accelerometer (IMU_POWER_IIO_SOURCE=iio:…, e.g. the kernel ring's
// iio:ip:127.0.0.1:PORT/bmi160?trigger=imukit-tick), the daemon's buffered capture and its polled
// fallback (what it does while iio-sensor-proxy holds the buffer) are measured one after the other,
// each beside the hand-over thread; without either, the kernel ring's guest is booted for its bmi160
// when qemu is installed (Tests/kernel/vm.sh). `--iio-only` measures just that, `--no-iio` all
// but that. Prints figures; asserts nothing.
import ChipEmulators
import Foundation
import IMUCLI
import BenchArguments
import IMUSensors
import Pedometer
import ProcFiles
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
    // The anchor: one thread that sleeps one hand-over at a time, the cadence the sources use.
    while true { usleep(useconds_t(HandOver.seconds * 1e6)) }
}

// MARK: Parent

BenchArguments.acceptNone("imu-bench-power", summary: "CPU time and wake-ups of the live pipeline on emulated chips and IIO, beside anchors from the same run",
                          flags: [("--iio-only", "only the IIO runs"), ("--no-iio", "no IIO runs")])


let window = Double(ProcessInfo.processInfo.environment["IMU_POWER_SECONDS"] ?? "") ?? 20
/// Seconds before the window: start-up (the daemon opens its store, claims its name, the
/// pedometer settles) is not the steady state.
let warmup = 5.0
let recording = ProcessInfo.processInfo.environment["IMU_POWER_RECORDING"]
    ?? "Tests/PedometerTests/Fixtures/samsung-jamie-hard-inhand-1.csv"
let chip = "lsm6ds3"
let iioOnly = arguments.contains("--iio-only")
let noIIO = arguments.contains("--no-iio")
/// "1 s": the hand-over every source uses (`HandOver.seconds`), for labels.
let handOver = "\(num(HandOver.seconds, HandOver.seconds < 1 ? 1 : 0)) s"
let work = NSTemporaryDirectory() + "imukit-bench-power-\(getpid())"
try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }

func launch(_ path: String, _ args: [String], log: String? = nil, environment: [String: String] = [:]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = log.flatMap { FileManager.default.createFile(atPath: $0, contents: nil) ? FileHandle(forWritingAtPath: $0) : nil }
        ?? FileHandle.nullDevice
    var env = ProcessInfo.processInfo.environment
    env["IMUKIT_LOG_STDERR"] = "1"
    env.merge(environment) { $1 }
    p.environment = env
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

/// A private dbus-daemon for one imu-stepd (each daemon claims the same name, so one bus each).
final class PrivateBus {
    let address: String
    let process: Process
    init(_ dir: String) throws {
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        address = "unix:path=\(dir)/bus"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>\(address)</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """.write(toFile: dir + "/bus.conf", atomically: true, encoding: .utf8)
        process = try launch("/usr/bin/dbus-daemon", ["--config-file=\(dir)/bus.conf", "--nofork", "--nopidfile"])
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: dir + "/bus") { usleep(20_000) }
    }
    func stop() { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
}

/// Starts imu-stepd with `settings` (source lines) on a bus of its own under `work/name`.
func startDaemon(_ name: String, _ settings: String, beforeStart: (PrivateBus) throws -> Void = { _ in }) throws -> (Process, PrivateBus) {
    let dir = work + "/" + name
    let bus = try PrivateBus(dir)
    try beforeStart(bus)
    try (settings + "\nbus = \(bus.address)\nstate_directory = \(dir)/state\nclock = trust\ncalibration = no\n")
        .write(toFile: dir + "/stepd.conf", atomically: true, encoding: .utf8)
    return (try launch(binDir + "/imu-stepd", ["--config", dir + "/stepd.conf"], log: dir + "/stepd.log"), bus)
}

/// The last lines the daemon `name` logged (why it ended early, say).
func daemonLog(_ name: String) -> String {
    let text = (try? String(contentsOfFile: work + "/\(name)/stepd.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").suffix(3).joined(separator: " | ")
}

struct Rates { var cpu: Double; var wakeups: Double; var rssKiB: Int; var ended: Int; var statCPU: Double
    var threads: [(name: String, wakeups: Int64, cpuSeconds: Double)]; var span: Double }

/// Samples every process at the start and end of one window after the warm-up.
func measure(_ processes: [Process]) -> [Rates?] {
    usleep(useconds_t(warmup * 1e6))
    let first = processes.map { ProcSample.read(pid: $0.processIdentifier) }
    usleep(useconds_t(window * 1e6))
    let last = processes.map { ProcSample.read(pid: $0.processIdentifier) }
    return zip(first, last).map { a, b in
        guard let a, let b else { return nil }
        let d = b.since(a)
        let span = b.time - a.time
        return Rates(cpu: d.cpuSeconds / span, wakeups: Double(d.wakeups) / span, rssKiB: b.rssKiB, ended: d.threadsEnded,
                     statCPU: (b.processCPUSeconds - a.processCPUSeconds) / span, threads: b.byName(since: a), span: span)
    }
}

func endedNote(_ r: Rates) -> String {
    (r.ended > 0 ? " (\(r.ended) thread(s) ended in the window, their share missed; " : " (")
        + "whole process from /proc/PID/stat in 10 ms ticks: \(pct(r.statCPU)))"
}

/// "imukit-engine 1.0/s, imukit-bus 0.9/s, …": which threads wake.
func threadLine(_ r: Rates) -> String {
    r.threads.filter { $0.wakeups > 0 }.prefix(8).map { "\($0.name) \(num(Double($0.wakeups) / r.span))/s" }.joined(separator: ", ")
}

let stepsPath = binDir + "/imu-steps"
let stepdPath = binDir + "/imu-stepd"
guard FileManager.default.isExecutableFile(atPath: stepsPath) else {
    print("imu-bench-power: \(stepsPath) is not built; run: swift build -c release")
    exit(1)
}
let haveRecording = FileManager.default.fileExists(atPath: recording)
let haveDaemon = FileManager.default.isExecutableFile(atPath: stepdPath) && FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
var buses: [PrivateBus] = []
defer { for b in buses { b.stop() } }

if !iioOnly {
    if !haveRecording { print("imu-bench-power: \(recording) not found (run from the repository, or set IMU_POWER_RECORDING): replay figures skipped") }
    if !haveDaemon { print("imu-bench-power: imu-stepd is not built or dbus-daemon is not installed (apt-get install dbus): daemon figures skipped") }

    // Anchor: the same recording as fast as possible, alone (its CPU per second of data).
    var fastCPUPerDataSecond: Double?
    if haveRecording, let seconds = recordingSeconds(recording) {
        let before = childrenCPU()
        let p = try launch(stepsPath, ["--replay", recording, "--json"])
        p.waitUntilExit()
        fastCPUPerDataSecond = (childrenCPU() - before) / seconds
    }

    // Everything live, side by side over the same window.
    let replayLabel = "imu-steps --replay --realtime (100 Hz)"
    let daemonReplayLabel = "imu-stepd on the recording replayed in real time (100 Hz, \(handOver) batches)"
    let daemonSimLabel = "imu-stepd on the simulator in real time (100 Hz, \(handOver) batches)"
    var live: [(String, Process)] = []
    if haveRecording { live.append((replayLabel, try launch(stepsPath, ["--replay", recording, "--realtime", "--json"]))) }
    live.append(("imu-steps pipeline on emulated \(chip) FIFO (104 Hz)", try launch(selfPath, ["--emulated", chip])))
    if haveDaemon {
        if haveRecording {
            let path = URL(fileURLWithPath: recording).standardizedFileURL.path
            let (d, bus) = try startDaemon("replay", "replay = \(path)\nspeed = 1\nrate = 100")
            buses.append(bus)
            live.append((daemonReplayLabel, d))
        }
        let (d, bus) = try startDaemon("simulate", "simulate = walk:7200\nspeed = 1\nrate = 100")
        buses.append(bus)
        live.append((daemonSimLabel, d))
    }
    let idle = try launch(selfPath, ["--idle"])
    let sleeper = try launch("/bin/sleep", ["600"])
    let everyone = live.map(\.1) + [idle, sleeper]
    let rates = measure(everyone)
    let breakdown = live.first.map { rssByMapping(pid: $0.1.processIdentifier) } ?? []
    for p in everyone where p.isRunning { p.terminate() }
    for p in everyone { p.waitUntilExit() }

    print("imu-bench-power: \(num(window, 0)) s window after \(num(warmup, 0)) s warm-up, every thread: /proc/PID/task/*/schedstat (CPU) and voluntary_ctxt_switches (wake-ups), VmRSS")
    let anchorIdle = rates[live.count], anchorSleep = rates[live.count + 1]
    let replayAnchor = live.firstIndex { $0.0 == replayLabel }.flatMap { rates[$0] }
    for (i, (label, _)) in live.enumerated() {
        guard let r = rates[i] else {
            print("figure: \(label): the process ended early" + (label.hasPrefix("imu-stepd") ? ": \(daemonLog(label == daemonSimLabel ? "simulate" : "replay"))" : ""))
            continue
        }
        if label.hasPrefix("imu-stepd") {
            let anchor = replayAnchor.map { "imu-steps --replay --realtime of the same recording = \(pct($0.cpu))" } ?? "n/a"
            print("figure: \(label) CPU = \(pct(r.cpu)) of one core | target <= 0.300 % | anchor: \(anchor)" + endedNote(r))
            print("figure: \(label) wake-ups = \(num(r.wakeups)) /s | target <= 10 /s | anchor: imu-steps --replay --realtime = "
                  + (replayAnchor.map { num($0.wakeups) } ?? "n/a") + " /s, a thread waking every \(handOver) = " + (anchorIdle.map { num($0.wakeups) } ?? "n/a") + " /s")
            print("  threads of \(label): \(threadLine(r))")
            continue
        }
        print("figure: \(label) CPU = \(pct(r.cpu)) of one core | target <= 0.200 % | anchor: fast replay of the same data "
              + (fastCPUPerDataSecond.map { pct($0) + " per second of data" } ?? "n/a") + endedNote(r))
        print("figure: \(label) wake-ups = \(num(r.wakeups)) /s | target <= 10 /s | anchor: a thread waking every \(handOver) = "
              + (anchorIdle.map { num($0.wakeups) } ?? "n/a") + " /s")
        print("  threads of \(label): \(threadLine(r))")
        print("figure: \(label) RSS = \(mib(r.rssKiB)) | target <= 15 MB | anchor: /bin/sleep = "
              + (anchorSleep.map { mib($0.rssKiB) } ?? "n/a") + ", idle Swift bench process = " + (anchorIdle.map { mib($0.rssKiB) } ?? "n/a"))
    }
    if !breakdown.isEmpty {
        let total = breakdown.map(\.1).reduce(0, +)
        print("")
        print("where the RSS of \(live[0].0) goes (\(mib(total)), /proc/PID/smaps by mapping):")
        for (name, kib) in breakdown.prefix(12) { print("  " + String(format: "%7.1f MB  ", Double(kib) / 1024) + name) }
    }
}

// The daemon on a real IIO accelerometer: buffered, then forced to poll at the fallback rate (what
// it does while iio-sensor-proxy holds the buffer), each window beside the hand-over thread.
let localIIO = ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/bus/iio/devices")) ?? []).contains { name in
    ((try? FileManager.default.contentsOfDirectory(atPath: "/sys/bus/iio/devices/\(name)")) ?? []).contains { $0.hasPrefix("in_accel") }
}
print("")
/// Boots the kernel ring's guest (Tests/kernel/vm.sh, from the repository, with qemu installed)
/// for a real bmi160 driver with a buffer; returns its source, its command shell's port and how to
/// stop it.
func bootKernelRing() -> (source: String, shellPort: UInt16?, stop: () -> Void)? {
    let vm = "Tests/kernel/vm.sh"
    guard FileManager.default.isExecutableFile(atPath: vm),
          let qemu = ["/usr/bin/qemu-system-x86_64", "/usr/local/bin/qemu-system-x86_64"].first(where: FileManager.default.isExecutableFile),
          !qemu.isEmpty else { return nil }
    print("imu-bench-power: booting the kernel ring's guest for an IIO accelerometer (Tests/kernel/vm.sh start) …")
    fflush(nil)  // what is measured so far shows before the boot (a minute or more)
    // system(3), not Process: qemu stays running in the background with the script's descriptors,
    // and Foundation's Process did not see the script end then.
    let outPath = work + "/vm-start.out"
    setenv("IMU_BIN", binDir, 1)
    let status = system("\(vm) start > '\(outPath)' 2>/dev/null")
    let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let stop = { _ = system("\(vm) stop > /dev/null 2>&1") }
    guard status == 0, let port = text.split(separator: " ").first(where: { $0.hasPrefix("IIOD_PORT=") })?.dropFirst(10) else {
        print("imu-bench-power: the guest did not start (see Tests/kernel/work/console.log)")
        stop()
        return nil
    }
    let shell = text.split(separator: " ").first(where: { $0.hasPrefix("SHELL_PORT=") }).flatMap { UInt16($0.dropFirst(11)) }
    return ("iio:ip:127.0.0.1:\(port)/bmi160?trigger=imukit-tick", shell, stop)
}
var ring: (source: String, shellPort: UInt16?, stop: () -> Void)?
if ProcessInfo.processInfo.environment["IMU_POWER_IIO_SOURCE"] == nil, !localIIO, haveDaemon, !noIIO { ring = bootKernelRing() }
defer { ring?.stop() }
let iioSource = noIIO ? nil : ProcessInfo.processInfo.environment["IMU_POWER_IIO_SOURCE"] ?? (localIIO ? "iio:local:" : ring?.source)
if let iioSource, haveDaemon {
    let fallbackHz = 50  // polled_fallback_hz's default (docs/service.md)
    // The polled window is the daemon yielding to iio-sensor-proxy: dbus-test-tool (dbus-tests)
    // owns net.hadess.SensorProxy on the daemon's bus before it starts, so the daemon polls the
    // buffered source and watches the name (docs/service.md, Sharing). Without dbus-test-tool,
    // the same polled capture forced with ?mode=polled.
    let testTool = "/usr/bin/dbus-test-tool"
    let yielding = FileManager.default.isExecutableFile(atPath: testTool)
    let polledSpec = yielding ? iioSource : iioSource + (iioSource.contains("?") ? "&" : "?") + "mode=polled"
    var figures: [(String, Rates?)] = []
    for (name, source) in [("iio-buffered", iioSource), ("iio-polled", polledSpec)] {
        let rate = name == "iio-polled" ? fallbackHz : 100
        var owner: Process?
        let (d, bus) = try startDaemon(name, "source = \(source)\nrate = \(rate)\npolled_fallback_hz = \(fallbackHz)") { bus in
            guard name == "iio-polled", yielding else { return }
            owner = try launch(testTool, ["black-hole", "--session", "--name=net.hadess.SensorProxy"],
                               environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            usleep(300_000)  // the name is owned before the daemon looks
        }
        let idle = try launch(selfPath, ["--idle"])
        let r = measure([d, idle])
        for p in [d, idle] where p.isRunning { p.terminate() }
        if let owner { kill(owner.processIdentifier, SIGKILL) }
        for p in [d, idle] + [owner].compactMap({ $0 }) { p.waitUntilExit() }
        bus.stop()
        let log = (try? String(contentsOfFile: work + "/\(name)/stepd.log", encoding: .utf8)) ?? ""
        let wanted = name == "iio-polled" ? "(polled)" : "(buffered)"
        if !log.contains(wanted) { print("imu-bench-power: imu-stepd on \(source) did not capture \(wanted): \(daemonLog(name))") }
        figures.append((name, log.contains(wanted) ? r[0] : nil))
        if r[0] == nil { print("imu-bench-power: imu-stepd on \(source) ended early: \(daemonLog(name))") }
        if let a = r[1] { print("  anchor in the \(name) window: a thread waking every \(handOver) = \(pct(a.cpu)), \(num(a.wakeups)) /s") }
    }
    if let b = figures[0].1, let p = figures[1].1 {
        print("figure: imu-stepd polled fallback at \(fallbackHz) Hz\(yielding ? " (yielding to iio-sensor-proxy's bus name)" : " (mode=polled)") on \(iioSource) CPU = \(pct(p.cpu)) of one core, wake-ups \(num(p.wakeups)) /s | anchor: buffered capture at 100 Hz of the same device = \(pct(b.cpu)), \(num(b.wakeups)) /s (ratio \(num(p.cpu / max(b.cpu, 1e-9), 1))x)")
        print("  threads, buffered: \(threadLine(b))")
        print("  threads, polled: \(threadLine(p))")
        if iioSource.contains("ip:") {
            print("  (through iiod every polled read is a network round trip per channel, and buffered blocks travel whole: an upper bound of a local sysfs poll on a phone)")
        }
    }
} else {
    print("imu-bench-power: polled fallback vs buffered: skipped: " + (noIIO ? "--no-iio" : "no IIO accelerometer here, IMU_POWER_IIO_SOURCE unset and no kernel ring guest (qemu-system-x86 and a run from the repository)") + (haveDaemon ? "" : "; imu-stepd or dbus-daemon missing"))
}

// The polled fallback where a phone's daemon runs it: on the guest's own `local:` context (sysfs),
// not through iiod. imu-bench-iio in the guest polls the bmi160 at the fallback rate through the
// same IIOSource the daemon uses, and prints its wake-ups per poll beside a thread of its own that
// wakes once per poll period in the same window.
if let port = ring?.shellPort {
    let command = "imu-bench-iio --source 'iio:local:/bmi160?trigger=imukit-tick' --rate 50 --seconds 10"
    print("imu-bench-power: in the kernel ring's guest: \(command)")
    if let (status, output) = GuestShell.run(command, port: port) {
        for line in output.split(separator: "\n") {
            let text = String(line).escapedForTerminal
            print(text.hasPrefix("figure:") ? text.replacing("figure: ", with: "figure: in the guest: ") : "  " + text)
        }
        if status != 0 { print("imu-bench-power: imu-bench-iio in the guest exited with \(status)") }
    } else {
        print("imu-bench-power: the guest's shell on port \(port) did not answer: local polled figures skipped")
    }
}
