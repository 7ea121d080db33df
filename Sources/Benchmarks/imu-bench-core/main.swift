import Foundation
import IMUCore
import Pedometer

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
    return "machine: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; build: \(mode); one thread"
}

/// Writes a one-hour accelerometer + gyro + barometer (25 Hz) recording and returns its path.
func makeRecording() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-\(getpid()).csv").path
    let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .gx, .gy, .gz, .p],
                                     comments: ["sensor: imu-bench-core synthetic walk, 100 Hz"])
    let n = Int(seconds * rateHz)
    for i in 0..<n {
        let t = 1000 + Double(i) / rateHz
        let phase = 2 * Double.pi * 1.8 * t   // 1.8 steps/s bounce
        let s = MotionSample(time: t,
                             acceleration: Vector3(0.05 * sin(phase / 2), 0.02 * cos(phase), 1 + 0.25 * sin(phase)),
                             rotationRate: Vector3(0.1 * sin(phase / 2), 0.05 * cos(phase / 2), 0.01),
                             pressure: i % 4 == 0 ? 1013.25 - 0.0001 * Double(i) / 100 : nil)
        try writer.write(s)
    }
    try writer.close()
    return path
}

func measure(_ body: () throws -> Int) rethrows -> (count: Int, seconds: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let count = try body()
    return (count, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

print(machineLine())
let path = try makeRecording()
defer { try? FileManager.default.removeItem(atPath: path) }
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print("recording: \(Int(seconds * rateHz)) lines, \(bytes / 1_000_000) MB, t,ax,ay,az,gx,gy,gz,p")

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
print(String(format: "replay (reader + pedometer): %d samples in %.3f s = %.2f million samples/s (%d steps counted)",
             replayed, bestReplay, Double(replayed) / bestReplay / 1e6, counted))
