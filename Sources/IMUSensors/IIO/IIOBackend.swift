/// Kernel IIO devices through libiio: scheme "iio", specs per `IIOSourceSpec`
/// (`iio:local:`, `iio:ip:HOST[:PORT]`, `…/DEVICE[+DEVICE]`, `?resume=S&trigger=T&mode=polled`).
public struct IIOBackend: SensorBackend {
    public let scheme = "iio"
    /// The context `inventory()` and `openDefault` look at.
    public let defaultSpec: IIOSourceSpec

    public init(defaultSpec: IIOSourceSpec = IIOSourceSpec()) { self.defaultSpec = defaultSpec }

    public func inventory() -> [InventoryItem] { Self.inventory(defaultSpec) }

    /// Inventory of the context a spec names (`imu-info --source iio:ip:HOST`).
    public func inventory(spec: String) -> [InventoryItem] {
        do { return Self.inventory(try IIOSourceSpec(parsing: spec)) } catch {
            return [Self.problem(error, location: "iio:" + spec)]
        }
    }

    public func openDefault(options: SourceOptions) throws -> (any SampleSource)? {
        do {
            let source = try IIOSource(spec: defaultSpec, options: options)
            // Found automatically, a source must have an accelerometer: a lone barometer (or a
            // laptop's light sensor) is no pedometer. Named with --source, anything goes.
            return source.info.capabilities.accelerometer ? source : nil
        } catch IIOError.noContext(uri: _, errno: _) where !defaultSpec.uri.hasPrefix("ip:") {
            return nil  // no IIO on this machine: not an error, another backend may have a sensor
        } catch IIOError.noDevice(uri: _, name: nil, found: _) {
            return nil
        } catch IIOError.libraryMissing {
            return nil  // no libiio0: another backend may have a sensor; imu-info lists the problem
        }
    }

    public func checkSpec(_ spec: String) throws { _ = try IIOSourceSpec(parsing: spec) }

    public func open(spec: String, options: SourceOptions) throws -> any SampleSource {
        try IIOSource(spec: try IIOSourceSpec(parsing: spec), options: options)
    }

    static func inventory(_ spec: IIOSourceSpec) -> [InventoryItem] {
        let devices: [IIODeviceDescription]
        do {
            devices = try IIOContext(uri: spec.uri).describe()
        } catch IIOError.noContext(uri: _, errno: _) where spec.uri == "local:" {
            return []  // no IIO devices here; nothing to list
        } catch {
            return [problem(error, location: "iio:" + spec.uri)]
        }
        var items: [InventoryItem] = []
        for d in devices where !d.isTrigger {
            let set = IIODiscovery.select(from: devices, names: [IIODiscovery.stem(d.name)])
            let own = set.all.filter { $0.deviceID == d.id }
            guard !own.isEmpty else { continue }
            let mode = IIOCaptureMode.choose(set, devices: devices, spec: spec)
            var details: [(String, String)] = [("driver", d.name)]
            details.append(("quantities", own.map { "\($0.quantity.rawValue) (\($0.quantity.kernelUnit) → \($0.quantity.projectUnit))" }
                                              .joined(separator: ", ")))
            if own.contains(where: { $0.quantity == .acceleration || $0.quantity == .angularRate }) {
                details.append(("mode", mode.kind.rawValue))
                details.append(("reason", mode.reason))
            } else {
                details.append(("mode", "polled"))
                details.append(("reason", "barometer/thermometer: polled at \(Int(IIOSource.slowRateHz)) Hz"))
            }
            if let partner = set.all.first(where: { $0.deviceID != d.id && ($0.quantity == .acceleration || $0.quantity == .angularRate) }) {
                details.append(("paired_with", partner.deviceName))
            }
            for s in own where s.quantity.isVector {
                details.append(("\(s.quantity.rawValue)_mount_matrix", "\(s.mountMatrix) (\(s.mountMatrixSource))"))
            }
            for s in own {
                let c = s.channels[0]
                details.append(("\(s.quantity.rawValue)_conversion",
                                c.attribute == "raw" ? "(raw + \(c.offset)) × \(c.scale) \(s.quantity.kernelUnit)"
                                                     : "input \(s.quantity.kernelUnit)"))
            }
            if let f = d.attributes["sampling_frequency"], !f.isEmpty { details.append(("sampling_frequency_hz", f)) }
            if let t = d.currentTrigger { details.append(("trigger", t)) }
            items.append(InventoryItem(kind: .iioDevice, name: d.name, location: "\(spec.uri) \(d.id)", details: details))
        }
        return items
    }

    static func problem(_ error: any Error, location: String) -> InventoryItem {
        let d = error as? any DiagnosableError
        return InventoryItem(kind: .problem, name: "iio", location: location,
                             details: [("error", d?.description ?? "\(error)")], fix: d?.fix)
    }
}
