#if canImport(Glibc)
import Glibc
#endif

/// The "i2c" backend: chips read directly through /dev/i2c-N.
/// `--source i2c:/dev/i2c-1@0x68`, `i2c:1@0x68,0x76` (IMU + barometer), `i2c:1` (scan bus 1), `i2c:` (scan all).
public struct I2CBackend: SensorBackend {
    /// An identified chip at its address; its driver is made only for the source.
    typealias Pick = (model: ChipModel, device: I2CDevice)

    public var scheme: String { "i2c" }
    /// Only these bus numbers (imu-info --bus N); nil = all.
    public var buses: [Int]?
    public var environment: I2CEnvironment
    /// Batch through chip FIFOs where there is one (false: read the data registers every sample).
    public var useFIFO: Bool
    /// The mount-matrix file consulted when no `--mount` is given (`MountConfig`).
    public var mountConfigPath: String

    public init(buses: [Int]? = nil, environment: I2CEnvironment = .linux(), useFIFO: Bool = true,
                mountConfigPath: String = MountConfig.defaultPath) {
        self.buses = buses
        self.environment = environment
        self.useFIFO = useFIFO
        self.mountConfigPath = mountConfigPath
    }

    private var adapterPaths: [String] {
        let all = environment.adapters()
        guard let buses else { return all }
        return all.filter { p in I2CAddress.busNumber(p).map(buses.contains) ?? false }
    }

    // MARK: Inventory

    /// The one problem line when no adapter is scanned: the `--bus` numbers asked for (or every
    /// `/dev/i2c-*`) in the location column; the adapters that do exist in the fix, when some do.
    private func missingAdapter() -> InventoryItem {
        let enable = "sudo modprobe i2c-dev; on a Raspberry Pi: " + I2CFixes.enableI2C
        guard let buses else {
            return InventoryItem(kind: .problem, name: "no I²C adapter", location: "/dev/i2c-*", fix: enable)
        }
        let asked = buses.map { "/dev/i2c-\($0)" }.joined(separator: ", ")
        let present = environment.adapters()
        guard let first = present.first.flatMap(I2CAddress.busNumber) else {
            return InventoryItem(kind: .problem, name: "no such I²C adapter", location: asked, fix: enable)
        }
        return InventoryItem(kind: .problem, name: "no such I²C adapter", location: asked,
                             fix: "this machine has \(present.joined(separator: ", ")): name one, e.g. --bus \(first), or leave out --bus to scan them all")
    }

    public func inventory() -> [InventoryItem] {
        let paths = adapterPaths
        guard !paths.isEmpty else { return [missingAdapter()] }
        var items: [InventoryItem] = []
        for path in paths {
            let bus: any I2CBus
            do {
                bus = try environment.open(path)
            } catch {
                items.append(InventoryItem(kind: .problem, name: error.kind.rawValue, location: path,
                                           details: [("errno", String(error.errno))], fix: error.fix))
                continue
            }
            var adapterDetails: [(String, String)] = [("transfers", environment.transferMode(bus))]
            if let name = environment.adapterName(path) { adapterDetails.insert(("adapter", name), at: 0) }
            items.append(InventoryItem(kind: .adapter, name: environment.adapterName(path) ?? "i2c adapter", location: path, details: adapterDetails))
            let found = I2CProber(bus: bus).scan()
            var sensors = 0
            for (address, outcome) in found {
                let location = "\(path) @\(I2CAddress.hex(address))"
                switch outcome {
                case .identified(let model, let id):
                    sensors += 1
                    items.append(InventoryItem(kind: .chip, name: model.name, location: location,
                                               details: [("id", I2CAddress.hex(id)), ("driver", model.driverName),
                                                         ("kind", model.kind.rawValue), ("fifo", model.hasFIFO ? "yes" : "no")]))
                case .kernelOwned(let driver, let iio):
                    sensors += 1
                    var d: [(String, String)] = [("driver", driver ?? "unknown")]
                    if let iio { d.append(("iio", iio)) }
                    items.append(InventoryItem(kind: .kernelOwned, name: driver ?? "kernel driver", location: location, details: d,
                                               fix: I2CFixes.readThroughIIO(iio)))
                case .unidentified(let readings):
                    let d = readings.map { ("reg" + I2CAddress.hex($0.0), I2CAddress.hex($0.1)) }
                    items.append(InventoryItem(kind: .problem, name: "unidentified device", location: location, details: d,
                                               fix: "not a supported chip (see imu-info --help); it was left untouched"))
                case .failed(let error):
                    items.append(InventoryItem(kind: .problem, name: error.kind.rawValue, location: location,
                                               details: [("errno", String(error.errno))], fix: error.fix))
                case .absent:
                    break
                }
            }
            if sensors == 0 && !found.contains(where: { if case .failed = $0.outcome { return true }; return false }) {
                items.append(InventoryItem(kind: .problem, name: "no sensor answers", location: path, fix: I2CFixes.emptyBus))
            }
        }
        return items
    }

    /// The inventory of what `spec` names (`imu-info --source i2c:1@0x68`): its bus, and only the
    /// given addresses when there are any (an address with nothing there is reported as a problem).
    public func inventory(spec: String) throws -> [InventoryItem] {
        let parsed = try I2CSpec(parsing: spec)
        guard let path = parsed.busPath, let n = I2CAddress.busNumber(path) else { return inventory() }
        var scoped = self
        scoped.buses = [n]
        let items = scoped.inventory()
        guard !parsed.addresses.isEmpty, items.contains(where: { $0.kind == .adapter }) else { return items }
        let wanted = parsed.addresses.map { "\(path) @\(I2CAddress.hex($0))" }
        var out = items.filter { $0.kind == .adapter || wanted.contains($0.location) || ($0.kind == .problem && $0.location == path && $0.name != "no sensor answers") }
        for location in wanted where !out.contains(where: { $0.location == location }) {
            out.append(InventoryItem(kind: .problem, name: "nothing answers", location: location,
                                     fix: "check wiring and the address: i2cdetect -y \(n)"))
        }
        return out
    }

    // MARK: Opening

    public func openDefault(options: SourceOptions) throws -> (any SampleSource)? {
        var permission: I2CError?
        for path in adapterPaths {
            do {
                let bus = try environment.open(path)
                if let source = try openScanned(bus: bus, options: options, required: false) { return source }
            } catch let e as I2CError where e.kind == .permissionDenied {
                permission = permission ?? e
            }
        }
        if let permission { throw permission }
        return nil
    }

    public func checkSpec(_ spec: String) throws { _ = try I2CSpec(parsing: spec) }

    public func open(spec: String, options: SourceOptions) throws -> any SampleSource {
        let parsed = try I2CSpec(parsing: spec)
        guard let path = parsed.busPath else {
            if let s = try openDefault(options: options) { return s }
            throw I2CSourceError(.noSensor, "no supported chip found on any I²C adapter", fix: I2CFixes.emptyBus)
        }
        let bus = try environment.open(path)
        if parsed.addresses.isEmpty {
            return try openScanned(bus: bus, options: options, required: true)!
        }
        var imu: Pick?
        var baro: Pick?
        let prober = I2CProber(bus: bus)
        for address in parsed.addresses {
            let location = "\(path) @\(I2CAddress.hex(address))"
            switch prober.probe(address) {
            case .identified(let model, _):
                let driver = (model, I2CDevice(bus: bus, address: address))
                if model.kind == .barometer {
                    guard baro == nil else { throw I2CSourceError(.badSpec, "two barometers given (\(location))", fix: "give one IMU and one barometer address") }
                    baro = driver
                } else {
                    guard imu == nil else { throw I2CSourceError(.badSpec, "two IMUs given (\(location))", fix: "give one IMU and one barometer address") }
                    imu = driver
                }
            case .kernelOwned(let driver, let iio):
                var e = I2CError(kind: .ownedByKernel, bus: path, address: address, operation: "claim address (I2C_SLAVE)", errno: EBUSY)
                e.kernelDriver = driver
                e.iioDevice = iio
                throw e
            case .absent:
                throw I2CSourceError(.noSensor, "nothing answers at \(location)", fix: "check wiring and the address: i2cdetect -y \(I2CAddress.busNumber(path) ?? 1)")
            case .unidentified(let readings):
                let r = readings.map { "\(I2CAddress.hex($0.0))=\(I2CAddress.hex($0.1))" }.joined(separator: " ")
                throw I2CSourceError(.unsupported, "the device at \(location) is not a supported chip (\(r)); it was left untouched",
                                     fix: "run imu-info to see which chips are supported and found")
            case .failed(let error):
                throw error
            }
        }
        return try makeSource(imu: imu, barometer: baro, options: options)
    }

    /// Scans one bus and opens the best IMU (gyro over accelerometer-only) and the first barometer.
    private func openScanned(bus: any I2CBus, options: SourceOptions, required: Bool) throws -> (any SampleSource)? {
        var imu: Pick?
        var baro: Pick?
        var owned: [String] = []
        for (address, outcome) in I2CProber(bus: bus).scan() {
            switch outcome {
            case .identified(let model, _):
                let device = I2CDevice(bus: bus, address: address)
                if model.kind == .barometer {
                    if baro == nil { baro = (model, device) }
                } else if imu == nil || (imu!.model.kind == .accelerometer && model.kind == .imu) {
                    imu = (model, device)
                }
            case .kernelOwned(let driver, let iio):
                owned.append("\(driver ?? "a kernel driver") owns \(I2CAddress.hex(address))" + (iio.map { " (\($0))" } ?? ""))
            default:
                break
            }
        }
        guard imu != nil || baro != nil else {
            guard required else { return nil }
            let extra = owned.isEmpty ? "" : "; " + owned.joined(separator: ", ") + ": use --source iio:…"
            throw I2CSourceError(.noSensor, "no supported chip answers on \(bus.path)\(extra)", fix: I2CFixes.emptyBus)
        }
        return try makeSource(imu: imu, barometer: baro, options: options)
    }

    /// Makes the drivers and moves them into the source, which hands them to its capture thread.
    private func makeSource(imu pickedIMU: Pick?, barometer pickedBarometer: Pick?, options: SourceOptions) throws -> any SampleSource {
        let imu = pickedIMU.map { $0.model.makeDriver($0.device) }
        let barometer = pickedBarometer.map { $0.model.makeDriver($0.device) }
        // --mount wins; else ~/.config/imukit/mount.conf by source key, chip name or "default".
        let lead = imu ?? barometer
        let keys = lead.map { [I2CSampleSource.calibrationKey($0), $0.model.name] } ?? []
        let mount = try options.mountMatrix ?? MountConfig.load(path: mountConfigPath).matrix(for: keys) ?? .identity
        let poller = I2CPoller(imu: imu, barometer: barometer, mount: mount)
        try poller.configure(imuRateHz: options.rateHz ?? IIOSource.defaultRateHz, useFIFO: useFIFO)
        return I2CSampleSource(poller: poller)
    }
}
