import Foundation
import IMUCore
import Pedometer
import IMUSimulation

/// imu-bench-core: recording-reader throughput (lines/s) and full replay throughput (samples/s),
/// each on a generated one-hour 100 Hz recording. Prints figures; asserts nothing.

/// One hour at 100 Hz (the reference load).
let seconds = 3600.0, rateHz = 100.0

func machineLine() -> String {
    let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
        .split(separator: "\n").first(where: { $0.hasPrefix("model name") })?
        .split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    #if DEBUG
    let mode = "debug"
    #else
    let mode = "release"
    #endif
    return "machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; build: \(mode); one thread, CPU time of that thread"
}

/// Writes the simulator's one-hour mixed-activity scenario ("hour": walks, a bus ride, stairs,
/// standing) at 100 Hz with gyro and a 25 Hz barometer, and returns its path and true step count.
func makeRecording() throws -> (path: String, truthSteps: Int) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-\(getpid()).csv").path
    var options = SimulationOptions()
    options.sampleRateHz = rateHz
    var simulator = Simulator(scenario: Scenario.named("hour")!, options: options)
    let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .gx, .gy, .gz, .p],
                                     comments: ["sensor: simulated hour, 100 Hz (imu-bench-core)"])
    while let s = simulator.next() { try writer.write(s) }
    try writer.close()
    return (path, simulator.truth.steps)
}

/// CPU seconds this thread has used (CLOCK_THREAD_CPUTIME_ID): "on one core" without counting
/// time the scheduler gave to other processes on a shared machine.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func measure(_ body: () throws -> Int) rethrows -> (count: Int, seconds: Double) {
    let start = threadCPUSeconds()
    let count = try body()
    return (count, threadCPUSeconds() - start)
}

print(machineLine())
let (path, truthSteps) = try makeRecording()
defer { try? FileManager.default.removeItem(atPath: path) }
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print("recording: simulated hour, \(truthSteps) true steps, \(Int(seconds * rateHz)) lines, \(bytes / 1_000_000) MB, t,ax,ay,az,gx,gy,gz,p")

// Best of three runs, so a cold page cache does not count.
var best = Double.infinity, lines = 0
for _ in 0..<3 {
    let r = try measure {
        let reader = try RecordingReader(path: path)
        var n = 0
        while try reader.next() != nil { n += 1 }
        return n
    }
    lines = r.count
    best = min(best, r.seconds)
}
print(String(format: "reader: %d lines in %.3f s = %.2f million lines/s (target >= 2)", lines, best, Double(lines) / best / 1e6))

// Full replay: reader + pedometer, as `imu-steps --replay FILE` runs it (without JSON output).
var bestReplay = Double.infinity, replayed = 0, counted = 0
for _ in 0..<3 {
    let r = try measure {
        let reader = try RecordingReader(path: path)
        var pedometer = Pedometer(capabilities: reader.capabilities)
        var events: [PedometerEvent] = []
        var n = 0
        while let s = try reader.next() {
            pedometer.process(s, into: &events)
            if events.count > 1024 { events.removeAll(keepingCapacity: true) }
            n += 1
        }
        pedometer.finish(into: &events)
        counted = pedometer.snapshot.steps
        return n
    }
    replayed = r.count
    bestReplay = min(bestReplay, r.seconds)
}
print(String(format: "replay (reader + pedometer): %d samples in %.3f s = %.2f million samples/s (%d steps counted, truth %d)",
             replayed, bestReplay, Double(replayed) / bestReplay / 1e6, counted, truthSteps))

// The tool itself, end to end: `imu-steps --replay FILE --json` (parse, pedometer, JSON out), CPU
// time of the child process from getrusage(RUSAGE_CHILDREN).
let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("imu-steps")
if FileManager.default.isExecutableFile(atPath: tool.path) {
    var before = rusage(), after = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &before)
    let process = Process()
    process.executableURL = tool
    process.arguments = ["--replay", path, "--json"]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    getrusage(RUSAGE_CHILDREN.rawValue, &after)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    let cpu = seconds(after.ru_utime) - seconds(before.ru_utime) + seconds(after.ru_stime) - seconds(before.ru_stime)
    print(String(format: "imu-steps --replay --json (whole process): %d samples in %.3f s CPU = %.2f million samples/s, exit %d",
                 replayed, cpu, Double(replayed) / cpu / 1e6, process.terminationStatus))
} else {
    print("imu-steps --replay: skipped, \(tool.path) is not built")
}
