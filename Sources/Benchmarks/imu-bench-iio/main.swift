// imu-bench-iio: figures for the IIO source (samples/s sustained, CPU time per sample, polled and
// buffered, and buffered against iio_readdev on the same device). It prints numbers and never
// asserts timings. `--inventory` and `--dump N` print what the source finds and reads, as JSON
// lines, for the kernel test ring.
import Foundation
import IMUCLI
import IMUSensors
#if canImport(Glibc)
import Glibc
#endif

let spec = CommandSpec(
    name: "imu-bench-iio",
    summary: "measure the IIO source: samples per second and CPU time per sample, polled and buffered",
    usage: ["[--source iio:SPEC] [--seconds S] [--rate HZ]", "--source iio:SPEC --inventory", "--source iio:SPEC --dump N"],
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

/// Runs a source for `seconds` and returns (samples, wall seconds, CPU seconds).
func measure(_ source: any SampleSource, seconds: Double) async throws -> (Int, Double, Double) {
    var count = 0
    var started: Double?
    var cpu0 = 0.0
    for try await batch in source.batches() {
        if started == nil { started = BootClock.nowSeconds(); cpu0 = cpuSeconds(); continue }  // first batch: warm-up
        count += batch.count
        if BootClock.nowSeconds() - started! >= seconds { break }
    }
    return (count, BootClock.nowSeconds() - (started ?? BootClock.nowSeconds()), cpuSeconds() - cpu0)
}

func report(_ label: String, _ r: (Int, Double, Double)) {
    let (n, wall, cpu) = r
    let rate = wall > 0 ? Double(n) / wall : 0
    let perSample = n > 0 ? cpu / Double(n) * 1e6 : 0
    print(String(format: "%-34@ %8d samples in %6.2f s = %9.1f samples/s, CPU %8.1f µs/sample", label as NSString, n, wall, rate, perSample))
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
        let chunk = handle.availableData
        if chunk.isEmpty { break }
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
    report("polled (\(polled.info.name))", try await measure(polled, seconds: seconds))
    let auto = try IIOSource(spec: parsed, options: SourceOptions(rateHz: rate))
    guard auto.mode.kind == .buffered else {
        print("buffered: not available (\(auto.mode.reason))")
        return .success
    }
    let r = try await measure(auto, seconds: seconds)
    report("buffered (\(auto.mode.reason))", r)
    // iio_readdev on the same device and channels: bytes/s ÷ scan bytes = scans/s.
    if let device = auto.spec.devices.first ?? auto.info.name.split(separator: "/").last.map(String.init),
       let bytesPerSecond = readdevRate(uri: parsed.uri, device: device, trigger: auto.mode.attachTrigger,
                                        channels: auto.scanChannels,
                                        seconds: seconds, rate: rate) {
        let scanBytes = auto.scanBytes ?? 0
        if scanBytes > 0 {
            let readdev = bytesPerSecond / Double(scanBytes)
            let ours = r.1 > 0 ? Double(r.0) / r.1 : 0
            print(String(format: "iio_readdev (same device, channels)  %9.1f samples/s; IIOSource / iio_readdev = %.2f", readdev, readdev > 0 ? ours / readdev : 0))
            print(String(format: "figure: IIO buffered capture = %.1f samples/s | anchor: iio_readdev on the same device and channels = %.1f samples/s", ours, readdev))
        }
    } else {
        print("iio_readdev: could not run it")
    }
    return .success
}

await ToolMain.run(spec) { args in try await body(args) }
