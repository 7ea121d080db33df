import IMUCLI
import IMULocation
import IMUSensors

let spec = CommandSpec(
    name: "imu-info",
    summary: "list I²C adapters, the motion sensors on them, kernel-owned chips and what stops a sensor from being used",
    usage: ["[--json] [--bus] [--gpsd | --no-gps]", "[--json] --source [--read]", "[--json] --read [--rate] [--no-fifo]"],
    options: [
        OptionSpec("json", help: "JSON Lines: one object per item, each with a \"type\" key"),
        OptionSpec("bus", value: .integer("N"), help: "look only at /dev/i2c-N"),
        OptionSpec("source", value: .text("SPEC"), help: "list only what SPEC names (i2c:1@0x68,0x76, iio:ip:HOST); with --read, open it"),
        OptionSpec("read", value: .integer("N"), help: "also read N samples from the source (or the first sensor found) and print them"),
        OptionSpec("rate", value: .number("HZ"), help: "sample rate for --read (default 100)"),
        OptionSpec("no-fifo", help: "read data registers every sample instead of batching through the chip's FIFO"),
        OptionSpec("gpsd", value: .text("ADDRESS"), help: "gpsd to ask whether ground speed is available, HOST:PORT (default localhost:2947)"),
        OptionSpec("no-gps", help: "do not ask gpsd"),
    ],
    examples: [
        ("imu-info", "everything found, one greppable line per item"),
        ("imu-info --bus 1 | grep ^chip", "the chips this project can read on /dev/i2c-1"),
        ("imu-info --json --bus 0", "the same as JSON Lines"),
        ("imu-info --source iio:ip:192.168.1.20", "the IIO devices of a board running iiod"),
        ("imu-info --source i2c:1@0x68,0x76 --read 10", "identify an MPU-6050 and a BMP280 and print 10 merged samples"),
        ("imu-info --gpsd 192.168.1.20:2947", "also whether that gpsd gives ground speed (docs/gps.md)"),
    ])

/// The thread that probes buses and opens sources (ioctls, sysfs, an `ip:` context's network):
/// blocking calls never run on the Swift concurrency pool (docs/concurrency.md).
enum OpenThread { static let name = "imukit-open" }

/// What `--source SPEC` lists without `--read`: the backend's inventory of that context or bus;
/// nil for backends that can only open a source (imu-info then prints the source it opened).
func inventory(of backend: any SensorBackend, spec: String) throws -> [InventoryItem]? {
    if let iio = backend as? IIOBackend { return iio.inventory(spec: spec) }
    if let i2c = backend as? I2CBackend { return try i2c.inventory(spec: spec) }
    return nil
}

await ToolMain.run(spec) { args in
    try args.exclusive(["bus", "source"])
    try args.exclusive(["gpsd", "no-gps"])
    let gpsd = try GPSSelection.address(from: args)
    let json = args.flag("json")
    let bus = try args.integer("bus", in: 0...1023)
    let readCount = try args.integer("read", in: 1...1_000_000)
    let rate = try args.double("rate", in: 1...2000)
    // Both shape the samples --read prints; without it they were ignored without a word.
    if readCount == nil, let given = ["rate", "no-fifo"].first(where: { args.string($0) != nil }) {
        throw UsageError("--\(given) goes with --read N: imu-info reads no samples without it", command: spec.name,
                         fix: "add --read, e.g. imu-info --read 10 --\(given)\(given == "rate" ? " \(args.string("rate")!)" : ""), or leave --\(given) out")
    }
    let printer = InventoryPrinter(json: json)
    let i2c = I2CBackend(buses: bus.map { [$0] }, useFIFO: !args.flag("no-fifo"))
    var backends: [any SensorBackend] = Backends.all.map { $0.scheme == "i2c" ? i2c : $0 }
    if bus != nil { backends = [i2c] }

    var source: (any SampleSource)?
    if let text = args.string("source") {
        guard let colon = text.firstIndex(of: ":") else {
            throw UsageError("--source needs SCHEME:WHERE, got '\(text.escapedValue)'", command: spec.name,
                             fix: "name a sensor as i2c:BUS@ADDRESS (e.g. i2c:/dev/i2c-1@0x68 or i2c:1@0x68), i2c:BUS to scan a bus, or iio:local: / iio:ip:HOST")
        }
        let scheme = String(text[..<colon])
        guard let backend = backends.first(where: { $0.scheme == scheme }) else {
            let known = backends.map(\.scheme).joined(separator: ", ")
            // sim: and a recording are what imu-steps plays; imu-info only looks at hardware.
            let fix = scheme == "sim" ? "imu-info looks at sensors only (\(known)); play a simulation with imu-steps --simulate NAME"
                : "name a sensor as i2c:BUS@ADDRESS or iio:local: / iio:ip:HOST (imu-info --help)"
            throw UsageError("unknown source scheme '\(scheme)' (known: \(known))", command: spec.name, fix: fix)
        }
        let rest = String(text[text.index(after: colon)...])
        // A malformed IIO spec is a usage error (2), as imu-steps says; listed as a "problem" it ended as "no sensor" (3).
        if backend is IIOBackend { _ = try IIOSourceSpec(parsing: rest) }
        if readCount == nil, let found = try await OwnThread.run(name: OpenThread.name, { try inventory(of: backend, spec: rest) }) {
            let items = found.isEmpty ? [nothingFound(by: backend, location: text)] : found
            items.forEach(printer.print)
            return items.contains { [.chip, .kernelOwned, .iioDevice].contains($0.kind) } ? .success : await noSensor()
        }
        source = try await OwnThread.run(name: OpenThread.name) { try backend.open(spec: rest, options: SourceOptions(rateHz: rate)) }
        printer.print(source: source!.info)
    } else {
        var found = false
        for backend in backends {
            var items = try await OwnThread.run(name: OpenThread.name) { backend.inventory() }
            if items.isEmpty { items = [nothingFound(by: backend, location: backend.scheme + ":")] }
            items.forEach(printer.print)
            found = found || items.contains { [.chip, .kernelOwned, .iioDevice].contains($0.kind) }
        }
        await printGPS(args, address: gpsd, printer: printer)
        guard found else { return await noSensor() }
        if readCount != nil {
            for backend in backends where source == nil {
                source = try await OwnThread.run(name: OpenThread.name) { try backend.openDefault(options: SourceOptions(rateHz: rate)) }
            }
            guard let s = source else { return await noSensor() }
            printer.print(source: s.info)
        }
    }
    if let n = readCount, let s = source {
        try await SampleReader(printer: printer).read(n, from: s)
    }
    return .success
}

/// The ground-speed capability: one `gps` line in the full listing (not with `--bus N`, a
/// question about one bus, unless `--gpsd` asks), never with `--no-gps`. gpsd is optional, so an
/// unreachable one is a note, not a problem that changes the exit status.
func printGPS(_ args: ParsedArguments, address: (host: String, port: String), printer: InventoryPrinter) async {
    guard !args.flag("no-gps"), args.string("bus") == nil || args.string("gpsd") != nil else { return }
    let availability = await GPSProbe.check(host: address.host, port: address.port)
    printer.print(gps: availability, address: GPSDClient.display(host: address.host, port: address.port))
}

/// The line for a backend that found nothing at all, so an empty result is never silent.
func nothingFound(by backend: any SensorBackend, location: String) -> InventoryItem {
    switch backend.scheme {
    case "iio":
        return InventoryItem(kind: .problem, name: "no IIO devices", location: location,
                             fix: "a kernel driver must bind the chip (e.g. a device-tree overlay on a Pi; docs/getting-started-pinephone.md), "
                                + "or read the chip over I²C directly: imu-info --bus N")
    default:
        return InventoryItem(kind: .problem, name: "nothing found", location: location, fix: "check the sensor is wired and powered, or name it: imu-info --source i2c:BUS@ADDRESS (e.g. i2c:1@0x68) or iio:ip:HOST")
    }
}

/// Exit 3 with one line saying so on standard error (the listing on standard output has the details).
/// When the listing could not be written (`> /dev/full`, a closed pipe), no line is "above":
/// the line says where the fixes went, and `ToolMain.finish` says why they did not arrive.
func noSensor() async -> ExitStatus {
    await Terminal.standardOutput.written()
    let listed = Terminal.standardOutput.failure == nil
    Terminal.standardError.write("imu-info: no motion sensor found; "
                                 + (listed ? "each 'problem' line above names a fix\n" : "the 'problem' lines, each with its fix, were not written (below)\n"))
    Terminal.standardError.flush()
    return .noSensor
}
