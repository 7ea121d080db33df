// imu-bench-iio: figures for the IIO source (samples/s sustained, CPU time per sample and wake-ups
// per sample, polled and buffered, and buffered against iio_readdev on the same device). It prints
// numbers and never asserts timings. Wake-ups are voluntary context switches of this process's
// threads from /proc (`ProcSample`, as imu-bench-power counts them), beside an anchor thread in the
// same window that sleeps one poll period at a time: the floor of one wake-up per poll. `--inventory` and `--dump N` print what the source finds and reads, as JSON
// lines, for the kernel test ring.
import Foundation
import IMUCLI
import IMUSensors
import ProcFiles
#if canImport(Glibc)
import Glibc
#endif

let spec = CommandSpec(
    name: "imu-bench-iio",
    summary: "measure the IIO source: samples per second and CPU time per sample, polled and buffered",
    usage: ["[--source] [--seconds] [--rate]", "--source --inventory", "--source --dump [--mount]"],
    options: [
        OptionSpec("source", value: .text("SPEC"), help: "IIO source, e.g. iio:local: or iio:ip:127.0.0.1:30431/bmi160 (default iio:local:)"),
        OptionSpec("seconds", value: .number("S"), help: "seconds per measurement (default 5)"),
        OptionSpec("rate", value: .number("HZ"), help: "requested rate in Hz (default 1000: as fast as the source goes)"),
        OptionSpec("inventory", help: "print the context's devices as JSON lines and exit"),
        OptionSpec("dump", value: .integer("N"), help: "print N samples as JSON lines and exit"),
        OptionSpec("mount", value: .text("MATRIX"), help: "with --dump: chip-to-device matrix instead of the kernel's, e.g. \"0,1,0; -1,0,0; 0,0,1\""),
    ],
    examples: [
        ("imu-bench-iio --source iio:ip:127.0.0.1:30431/bmi160?trigger=imukit-tick --seconds 5", "polled vs buffered vs iio_readdev"),
        ("imu-bench-iio --source iio:local:/mpu6050 --dump 10", "ten converted samples as JSON lines"),
    ])

/// User + system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) * 1e-6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) * 1e-6
}

/// What one run of a source measured: samples, wall and CPU seconds, and the wake-ups of this
/// process's threads (the anchor thread's apart), by thread name.
struct Run {
    var samples: Int
    var wall: Double
    var cpu: Double
    var wakeups: Int64
    var threads: [(name: String, wakeups: Int64, cpuSeconds: Double)]
    /// The anchor thread's wake-ups in the same window.
    var anchorWakeups: Int64
    var wakeupsPerSecond: Double { wall > 0 ? Double(wakeups) / wall : 0 }
    var anchorPerSecond: Double { wall > 0 ? Double(anchorWakeups) / wall : 0 }
}

/// Runs a source for `seconds` and measures it from its second batch on (the first is the warm-up),
/// beside an anchor thread that sleeps `anchorPeriod` seconds at a time.
func measure(_ source: any SampleSource, seconds: Double, anchorPeriod: Double) async throws -> Run {
    let anchor = try AnchorThread(periodSeconds: anchorPeriod)
    defer { anchor.finish() }
    var count = 0
    var started: Double?
    var cpu0 = 0.0
    var proc0: ProcSample?, proc1: ProcSample?
    for try await batch in source.batches() {
        if started == nil { started = BootClock.nowSeconds(); cpu0 = cpuSeconds(); proc0 = ProcSample.read(pid: getpid()); continue }
        count += batch.count
        // Read before the stream ends: the capture thread ends with it, and /proc forgets it.
        if BootClock.nowSeconds() - started! >= seconds { proc1 = ProcSample.read(pid: getpid()); break }
    }
    let wall = BootClock.nowSeconds() - (started ?? BootClock.nowSeconds()), cpu = cpuSeconds() - cpu0
    // The capture thread has released the device (its buffer) before the next run opens it.
    _ = await CaptureThread.drained()
    guard let proc0, let proc1 else {
        return Run(samples: count, wall: wall, cpu: cpu, wakeups: 0, threads: [], anchorWakeups: 0)
    }
    let all = proc1.byName(since: proc0)
    let threads = all.filter { $0.name != AnchorThread.name }
    return Run(samples: count, wall: wall, cpu: cpu, wakeups: threads.map(\.wakeups).reduce(0, +), threads: threads,
               anchorWakeups: all.first { $0.name == AnchorThread.name }?.wakeups ?? 0)
}

func report(_ label: String, _ r: Run) {
    let rate = r.wall > 0 ? Double(r.samples) / r.wall : 0
    let perSample = r.samples > 0 ? r.cpu / Double(r.samples) * 1e6 : 0
    print(String(format: "%-34@ %8d samples in %6.2f s = %9.1f samples/s, CPU %8.1f µs/sample", label as NSString, r.samples, r.wall, rate, perSample))
    let perWake = r.samples > 0 ? Double(r.wakeups) / Double(r.samples) : 0
    let byThread = r.threads.filter { $0.wakeups > 0 }.prefix(6).map { "\($0.name) \($0.wakeups)" }.joined(separator: ", ")
    print(String(format: "%-34@ %8lld wake-ups = %9.1f /s, %.2f per sample (%@); anchor thread %.1f /s", "" as NSString, r.wakeups,
                 r.wakeupsPerSecond, perWake, byThread as NSString, r.anchorPerSecond))
}

/// The anchor: a thread that sleeps one period at a time and does nothing else, in the same window
/// as the capture it is printed beside (its wake-ups are read from /proc by its name): the floor of
/// one wake-up per poll, or per block.
final class AnchorThread: Sendable {
    static let name = "imukit-anchor"
    private let stop = StopSignal()

    init(periodSeconds: Double) throws {
        try OwnThread.start(name: Self.name) { [stop] in
            while !stop.isSet { stop.sleep(seconds: periodSeconds) }
        }
    }

    func finish() { stop.set() }
}

/// Runs iio_readdev for the same device and channels and counts what it delivers in `seconds`.
func readdevRate(uri: String, device: String, trigger: String?, channels: [String], seconds: Double, rate: Double) -> Double? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/iio_readdev")
    var args = ["-u", uri, "-b", String(max(4, Int(rate / 10)))]
    if let trigger { args += ["-t", trigger] }
    p.arguments = args + [device] + channels
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return nil }
    var bytes = 0
    var started: Double?
    let handle = pipe.fileHandleForReading
    while true {
        // nil at end of file; a read error ends the count as end of file does.
        guard let chunk = try? handle.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
        if started == nil { started = BootClock.nowSeconds(); continue }
        bytes += chunk.count
        if BootClock.nowSeconds() - started! >= seconds { break }
    }
    p.terminate()
    p.waitUntilExit()
    guard let s = started else { return nil }
    return Double(bytes) / (BootClock.nowSeconds() - s)
}

func body(_ args: ParsedArguments) async throws -> ExitStatus {
    var text = args.string("source") ?? "iio:local:"
    if text.hasPrefix("iio:") { text.removeFirst(4) }
    let backend = IIOBackend()
    let seconds = try args.double("seconds", in: 0.5...600) ?? 5
    let rate = try args.double("rate", in: 1...10_000) ?? 1000

    if args.flag("inventory") {
        for item in backend.inventory(spec: text) {
            var line = JSONLine(type: item.kind.rawValue)
            line.add("name", item.name); line.add("location", item.location)
            for (k, v) in item.details { line.add(k, v) }
            if let fix = item.fix { line.add("fix", fix) }
            print(line.text)
        }
        return .success
    }
    if let n = try args.integer("dump", in: 1...1_000_000) {
        var options = SourceOptions(rateHz: try args.double("rate", in: 1...10_000))
        if let m = args.string("mount") {
            guard let matrix = MountMatrix(kernelText: m) else {
                throw UsageError("--mount needs three rows of three numbers, e.g. \"0,1,0; -1,0,0; 0,0,1\", got '\(m)'", command: spec.name)
            }
            options.mountMatrix = matrix
        }
        let source = try backend.open(spec: text, options: options)
        var line = JSONLine(type: "source")
        line.add("name", source.info.name)
        if let s = source as? IIOSource { line.add("mode", s.mode.kind.rawValue); line.add("reason", s.mode.reason) }
        print(line.text)
        var left = n
        for try await batch in source.batches() {
            for s in batch where left > 0 {
                var l = JSONLine(type: "sample")
                l.add("t", s.time, decimals: 6)
                if let a = s.acceleration { l.add("accel_g", [a.x, a.y, a.z]) }
                if let g = s.rotationRate { l.add("gyro_rad_s", [g.x, g.y, g.z]) }
                if let p = s.pressure { l.add("pressure_hpa", p) }
                if let t = s.temperature { l.add("temperature_c", t) }
                print(l.text)
                left -= 1
            }
            if left == 0 { break }
        }
        return .success
    }

    let parsed = try IIOSourceSpec(parsing: text)
    print("imu-bench-iio: \(parsed.uri), \(seconds) s per run, requested \(rate) Hz")
    var polledSpec = parsed
    polledSpec.forcePolled = true
    let polled: IIOSource
    do {
        polled = try IIOSource(spec: polledSpec, options: SourceOptions(rateHz: rate))
    } catch let e as IIOError where args.string("source") == nil {
        // `make bench` runs every benchmark without arguments; a machine without IIO sensors has
        // nothing to measure here, which is not a failure.
        print("skipped: \(e.description)")
        print("  measure a board with --source iio:ip:HOST, or the test ring (docs/testing-kernel.md)")
        return .success
    }
    let polledRun = try await measure(polled, seconds: seconds, anchorPeriod: 1 / rate)
    report("polled (\(polled.info.name))", polledRun)
    let perPoll = polledRun.samples > 0 ? Double(polledRun.wakeups) / Double(polledRun.samples) : 0
    print(String(format: "figure: IIO polled capture on %@ at %.0f Hz: wake-ups = %.1f /s, %.2f per poll | anchor: a thread waking once per poll period = %.1f /s",
                 parsed.uri as NSString, rate, polledRun.wakeupsPerSecond, perPoll, polledRun.anchorPerSecond))
    let auto = try IIOSource(spec: parsed, options: SourceOptions(rateHz: rate))
    guard auto.mode.kind == .buffered else {
        print("buffered: not available (\(auto.mode.reason))")
        return .success
    }
    let r = try await measure(auto, seconds: seconds, anchorPeriod: HandOver.seconds)
    report("buffered (\(auto.mode.reason))", r)
    // iio_readdev on the same device and channels: bytes/s ÷ scan bytes = scans/s.
    if let device = auto.spec.devices.first ?? auto.info.name.split(separator: "/").last.map(String.init),
       let bytesPerSecond = readdevRate(uri: parsed.uri, device: device, trigger: auto.mode.attachTrigger,
                                        channels: auto.scanChannels,
                                        seconds: seconds, rate: rate) {
        let scanBytes = auto.scanBytes ?? 0
        if scanBytes > 0 {
            let readdev = bytesPerSecond / Double(scanBytes)
            let ours = r.wall > 0 ? Double(r.samples) / r.wall : 0
            print(String(format: "iio_readdev (same device, channels)  %9.1f samples/s; IIOSource / iio_readdev = %.2f", readdev, readdev > 0 ? ours / readdev : 0))
            print(String(format: "figure: IIO buffered capture = %.1f samples/s | anchor: iio_readdev on the same device and channels = %.1f samples/s", ours, readdev))
        }
    } else {
        print("iio_readdev: could not run it")
    }
    return .success
}

await ToolMain.run(spec) { args in try await body(args) }
