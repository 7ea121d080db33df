import BenchArguments
import Foundation
import IMUCore
import Pedometer
import IMUSimulation

BenchArguments.acceptNone("imu-bench-core", summary: "the recording reader and the pedometer core, each beside an anchor from the same run")

/// imu-bench-core (issue #11 parts 3, 4 and 6): the recording reader and the pedometer core, each
/// on one thread, each beside an anchor measured in the same run (the machine is shared; compare
/// ratios). Prints `figure:` lines for `make bench`'s summary; asserts nothing.
///
/// - reader: `RecordingReader.read(into:maximum:)` on a one-hour 100 Hz recording (lines/s).
/// - core: `Pedometer.process` on pre-loaded samples of the simulator's "hour" scenario (walks, a
///   bus ride, stairs, standing; accelerometer, gyroscope, 25 Hz barometer) at 25 Hz and at 100 Hz
///   input. Targets (issue #11 part 4): ≥ 8 M samples/s at 25 Hz, ≥ 20 M/s at 100 Hz.
///   Anchor: `MinimalPedometer` below, the textbook detector (low-pass of |a|, peak above a
///   threshold), on the same samples: the cost of merely looking at every sample.
/// - gyroscope input: the 100 Hz core with and without the gyroscope; the difference is what a
///   gyroscope column costs per sample (it was the orientation filter's cost until that was removed).
/// The samples go in as `Pedometer.process(contentsOf:)`, as the tools feed their batches.

/// One hour (the reference load).
let seconds = 3600.0

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

/// The simulator's one-hour mixed-activity scenario at `rateHz`, with gyroscope and barometer.
func hour(rateHz: Double) -> (samples: [MotionSample], capabilities: SensorCapabilities, truthSteps: Int) {
    var options = SimulationOptions()
    options.sampleRateHz = rateHz
    let (samples, truth) = Simulator.generate(Scenario.named("hour")!, options: options)
    return (samples, options.capabilities, truth.steps)
}

/// CPU seconds this thread has used (CLOCK_THREAD_CPUTIME_ID): "on one core" without counting
/// time the scheduler gave to other processes on a shared machine.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Best (least) CPU time of three runs of `body`, which returns how many items it handled.
func best(_ body: () throws -> Int) rethrows -> (count: Int, seconds: Double) {
    var fastest = Double.infinity, count = 0
    for _ in 0..<3 {
        let start = threadCPUSeconds()
        count = try body()
        fastest = min(fastest, threadCPUSeconds() - start)
    }
    return (count, fastest)
}

/// The anchor: the classic step detector (a 3 Hz one-pole low-pass of |a| − 1 g, a step at each
/// peak above 0.1 g at least 0.25 s after the previous one). No resampling, no gait analysis.
func minimalPedometer(_ samples: [MotionSample]) -> Int {
    var smooth = 0.0, previous = 0.0, rising = false, last = -Double.infinity, steps = 0
    let alpha = 0.17   // 1 − e^(−2π·3 Hz·0.01 s): a 3 Hz corner at 100 Hz input
    for s in samples {
        guard let a = s.acceleration else { continue }
        smooth += alpha * ((a * a).sum().squareRoot() - 1 - smooth)
        if rising && smooth < previous && previous > 0.1 && s.time - last >= 0.25 { steps += 1; last = s.time }
        rising = smooth > previous
        previous = smooth
    }
    return steps
}

/// Samples per CPU second through `Pedometer.process` (repeated to at least two million samples)
/// and through the anchor, on the same samples.
/// Samples each timed run feeds at least: two million (about a third of a second of the core), or
/// `IMU_BENCH_CORE_SAMPLES` (fewer make an instruction count under `valgrind --tool=callgrind`
/// quicker: docs/replay-speed.md).
let minimumSamples = ProcessInfo.processInfo.environment["IMU_BENCH_CORE_SAMPLES"].flatMap(Int.init).map { max(1, $0) } ?? 2_000_000

func core(_ samples: [MotionSample], _ capabilities: SensorCapabilities) -> (core: Double, anchor: Double, steps: Int) {
    let repeats = max(1, minimumSamples / max(1, samples.count))
    var steps = 0
    let timed = best {
        var events: [PedometerEvent] = []
        events.reserveCapacity(1 << 16)
        for _ in 0..<repeats {
            var pedometer = Pedometer(capabilities: capabilities)
            pedometer.process(contentsOf: samples, into: &events)
            pedometer.finish(into: &events)
            steps = pedometer.snapshot.steps
            events.removeAll(keepingCapacity: true)
        }
        return repeats * samples.count
    }
    var anchorSteps = 0
    let anchor = best {
        for _ in 0..<repeats { anchorSteps &+= minimalPedometer(samples) }
        return repeats * samples.count
    }
    precondition(anchorSteps >= 0)
    return (Double(timed.count) / timed.seconds, Double(anchor.count) / anchor.seconds, steps)
}

func m(_ x: Double) -> String { String(format: "%.2f M samples/s", x / 1e6) }
func r(_ x: Double) -> String { String(format: "%.2f", x) }

// Profiling (not part of `make bench`): IMU_BENCH_CORE_ONLY=25 (or 100) runs only the core at that
// input rate, so `perf record` sees nothing else: perf record -g .build/release/imu-bench-core.
if let rate = ProcessInfo.processInfo.environment["IMU_BENCH_CORE_ONLY"].flatMap(Double.init), rate > 0 {
    let input = hour(rateHz: rate)
    let run = core(input.samples, input.capabilities)
    print("core, \(rate) Hz input only: \(m(run.core)) (\(run.steps) steps, truth \(input.truthSteps)); anchor \(m(run.anchor))")
    exit(0)
}

print(machineLine())

// MARK: reader
let fast = hour(rateHz: 100)
let path = FileManager.default.temporaryDirectory.appendingPathComponent("imukit-bench-\(getpid()).csv").path
defer { try? FileManager.default.removeItem(atPath: path) }
do {
    let writer = try RecordingWriter(path: path, columns: [.t, .ax, .ay, .az, .gx, .gy, .gz, .p],
                                     comments: ["sensor: simulated hour, 100 Hz (imu-bench-core)"])
    for s in fast.samples { try writer.write(s) }
    try writer.close()
}
let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
print("recording: simulated hour, \(fast.truthSteps) true steps, \(fast.samples.count) lines, \(bytes / 1_000_000) MB, t,ax,ay,az,gx,gy,gz,p")
let reading = try best {
    let reader = try RecordingReader(path: path)
    var batch: [MotionSample] = []
    batch.reserveCapacity(1024)
    var n = 0
    while true {
        batch.removeAll(keepingCapacity: true)
        let got = try reader.read(into: &batch, maximum: 1024)
        if got == 0 { break }
        n += got
    }
    return n
}
print(String(format: "reader: %d lines in %.3f s = %.2f million lines/s (target >= 2; imu-bench-replay compares it with the C parser)",
             reading.count, reading.seconds, Double(reading.count) / reading.seconds / 1e6))

// MARK: core
let slow = hour(rateHz: 25)
let at25 = core(slow.samples, slow.capabilities)
let at100 = core(fast.samples, fast.capabilities)
var accelerometerOnly = fast.capabilities
accelerometerOnly.gyroscope = false
let withoutGyro = fast.samples.map { s in var s = s; s.rotationRate = nil; return s }
let at100NoGyro = core(withoutGyro, accelerometerOnly)

print("core, 25 Hz input:  \(m(at25.core)) (\(at25.steps) steps, truth \(slow.truthSteps)); anchor \(m(at25.anchor))")
print("core, 100 Hz input: \(m(at100.core)) (\(at100.steps) steps, truth \(fast.truthSteps)); anchor \(m(at100.anchor))")
print("core, 100 Hz input without the gyroscope: \(m(at100NoGyro.core)) (\(at100NoGyro.steps) steps)")
print("figure: pedometer core, 25 Hz input = \(m(at25.core)) | target >= 8 | anchor: minimal low-pass peak detector on the same samples = "
      + "\(m(at25.anchor)) | ratio \(r(at25.core / at25.anchor))")
print("figure: pedometer core, 100 Hz input = \(m(at100.core)) | target >= 20 | anchor: minimal low-pass peak detector on the same samples = "
      + "\(m(at100.anchor)) | ratio \(r(at100.core / at100.anchor))")
// The gyro-aided orientation filter was removed (docs/steps.md) and the resampler no longer
// averages the gyroscope; what a gyroscope column still costs (wider samples to read) is the
// difference between these two runs.
let gyroNanoseconds = 1e9 / at100.core - 1e9 / at100NoGyro.core
print("figure: gyroscope input (orientation filter removed, docs/steps.md) = " + String(format: "%+.1f ns per 100 Hz sample", gyroNanoseconds)
      + String(format: " (%+.0f %% of the core)", 100 * gyroNanoseconds * at100.core / 1e9)
      + " | anchor: the same core without the gyroscope = \(m(at100NoGyro.core))")
