// imu-bench-memory: the resident memory of a live imu-steps (issue 11 part 5, docs/memory.md).
// Runs `imu-steps --simulate demo` and `--replay F --realtime` (real-time pace, like a sensor) as
// this build made them (`swift build`: the Swift runtime and Foundation as shared libraries) and,
// when built, as `make build`, `make install` and the .deb build them (linked in, lld; `make bench`
// builds it in .build/static), beside anchors run at the same time: /bin/sleep (a C process) and
// this bench idle (a Swift process that has used Foundation). Reads VmRSS and Pss from /proc after
// a warm-up and again at the end of the window (flat, or growing?), then shows where each live
// process's RSS goes by mapping, and for the static build by module. Prints figures; asserts nothing.
import BenchArguments
import Foundation
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "--idle" {
    // The anchor: a Swift process that has used Foundation once and then sleeps.
    _ = ProcessInfo.processInfo.environment.count + Int(Date().timeIntervalSince1970) % 2
    while true { usleep(500_000) }
}

BenchArguments.acceptNone("imu-bench-memory", summary: "resident memory of a live imu-steps, by mapping, beside anchors from the same run")

let environment = ProcessInfo.processInfo.environment
let selfPath = URL(fileURLWithPath: arguments[0]).resolvingSymlinksInPath().path
let binDir = URL(fileURLWithPath: selfPath).deletingLastPathComponent().path
let otherSteps = environment["IMU_MEMORY_OTHER_BIN"] ?? ".build/static/release/imu-steps"
let recording = environment["IMU_MEMORY_RECORDING"] ?? "Tests/PedometerTests/Fixtures/samsung-jamie-hard-inhand-1.csv"
let warmup = 5.0
let window = Double(environment["IMU_MEMORY_SECONDS"] ?? "") ?? 15

func launch(_ path: String, _ args: [String]) throws -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    return p
}

func mb(_ kib: Int) -> String { String(format: "%.1f MB", Double(kib) / 1024) }

let dynamicSteps = binDir + "/imu-steps"
guard FileManager.default.isExecutableFile(atPath: dynamicSteps) else {
    print("imu-bench-memory: \(dynamicSteps) is not built; run: swift build -c release")
    exit(1)
}
var builds = [dynamicSteps]
if FileManager.default.isExecutableFile(atPath: otherSteps) {
    builds.append(otherSteps)
} else {
    print("imu-bench-memory: \(otherSteps) is not built (make bench builds it; or set IMU_MEMORY_OTHER_BIN): measuring one build only")
}
var modes = [("--simulate demo", ["--simulate", "demo", "--json"])]
if FileManager.default.fileExists(atPath: recording) {
    modes.append(("--replay --realtime", ["--replay", recording, "--realtime", "--json"]))
} else {
    print("imu-bench-memory: \(recording) not found (run from the repository, or set IMU_MEMORY_RECORDING): replay skipped")
}

var live: [(label: String, process: Process)] = []
for path in builds {
    for (modeLabel, args) in modes { live.append(("imu-steps \(modeLabel)", try launch(path, args))) }
}
let sleeper = try launch("/bin/sleep", ["600"])
let idle = try launch(selfPath, ["--idle"])
let everyone = live.map(\.process) + [sleeper, idle]

usleep(useconds_t(warmup * 1e6))
let early = everyone.map { MemoryMap.read(pid: $0.processIdentifier) }
usleep(useconds_t(window * 1e6))
let late = everyone.map { MemoryMap.read(pid: $0.processIdentifier) }
/// Whether the process mapped the Swift runtime as a shared library (nil: it had ended).
func sharedRuntime(_ m: MemoryMap?) -> Bool? { m.map { $0.mappings.contains { $0.path.hasSuffix("/libswiftCore.so") } } }
// The executable of a static build is one mapping: its resident pages charged to the modules that
// own the symbols on them show what Foundation costs there (read while the processes still run).
let residentModules = live.indices.map { i in
    sharedRuntime(late[i]) == false ? ResidentSymbols.byModule(pid: live[i].process.processIdentifier) : nil
}
for p in everyone where p.isRunning { p.terminate() }
for p in everyone { p.waitUntilExit() }

var stackLimit = rlimit()
getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &stackLimit)
// Unlimited (RLIM_INFINITY, all ones) falls back to glibc's 8 MiB default for thread stacks.
let stackKiB = stackLimit.rlim_cur >= 1 << 40 ? 8192 : Int(stackLimit.rlim_cur / 1024)

print("imu-bench-memory: VmRSS and Pss from /proc after \(Int(warmup)) s and after \(Int(warmup + window)) s; mappings from /proc/PID/smaps")
for i in live.indices {
    guard let shared = sharedRuntime(late[i] ?? early[i]) else { continue }
    live[i].label += shared ? ", Swift runtime as shared libraries (swift build)" : ", Swift runtime linked in (make build, make deb)"
}
let anchorSleep = late[live.count], anchorIdle = late[live.count + 1]
let anchors = "anchors: /bin/sleep = " + (anchorSleep.map { mb($0.rssKiB) } ?? "n/a")
    + ", idle Swift process that used Foundation (this bench, runtime " + (sharedRuntime(anchorIdle) == true ? "shared" : "linked in") + ") = " + (anchorIdle.map { mb($0.rssKiB) } ?? "n/a")
for (i, entry) in live.enumerated() {
    guard let a = early[i], let b = late[i] else { print("figure: \(entry.label): the process ended early"); continue }
    print("figure: \(entry.label) RSS = \(mb(b.rssKiB)) (Pss \(mb(b.pssKiB)), anonymous \(mb(b.anonymousKiB)), "
          + "\(mb(a.rssKiB)) at \(Int(warmup)) s) | target <= 15 MB | \(anchors)")
}
for (i, entry) in live.enumerated() {
    guard let m = late[i] else { continue }
    let iio = m.byKind(stackKiB: stackKiB).first { $0.kind == MemoryMap.libiioKind }?.rssKiB ?? 0
    print("figure: \(entry.label): libiio and what only it loads resident = \(mb(iio)) (loaded on the first IIO source, "
          + "which none of these processes opens) | anchor: the whole process = \(mb(m.rssKiB))")
}
for (i, entry) in live.enumerated() {
    guard let m = late[i] else { continue }
    print("")
    print("where the RSS of \(entry.label) goes (\(mb(m.rssKiB)), \(m.threads) threads):")
    for k in m.byKind(stackKiB: stackKiB) where k.rssKiB > 0 || k.kind.hasPrefix("thread") {
        let count = k.kind.hasPrefix("thread") || k.kind.hasPrefix("malloc") ? " (\(k.count) of them)" : ""
        print("  " + String(format: "%7.2f MB  ", Double(k.rssKiB) / 1024) + k.kind + count)
    }
}

for (i, entry) in live.enumerated() where sharedRuntime(late[i]) == false {
    guard let modules = residentModules[i] else {
        print("\n(no symbol breakdown for \(entry.label): nm or /proc/PID/pagemap unavailable)")
        continue
    }
    print("")
    print("resident bytes of the executable of \(entry.label), by the module owning each symbol (nm -S, /proc/PID/pagemap):")
    for m in modules.prefix(14) { print("  " + String(format: "%7.2f MB of %6.1f MB linked  ", Double(m.residentKiB) / 1024, Double(m.linkedKiB) / 1024) + m.module) }
    let kib = { (names: [String]) in modules.filter { names.contains($0.module) }.map(\.residentKiB).reduce(0, +) }
    print("figure: \(entry.label): Foundation, CoreFoundation and ICU code and data resident = \(mb(kib(["Foundation", "CoreFoundation", "ICU", "FoundationInternationalization"]))) "
          + "| anchor: the Swift runtime and standard library in the same process = \(mb(kib(["Swift"]))), FoundationEssentials = \(mb(kib(["FoundationEssentials"])))")
}
