extension I2CError {
    /// Does this error on a probe mean "nothing at this address"? No ACK, or ENODEV from an adapter
    /// that reports absent addresses that way (i2c-stub's transfer function does).
    var isAbsence: Bool { kind == .noAcknowledge || kind == .adapterGone }
}

/// What one known address turned out to hold.
public enum ProbeOutcome: Sendable {
    /// A supported chip, with the ID value read.
    case identified(ChipModel, id: UInt8)
    /// A kernel driver owns the address (I2C_SLAVE gave EBUSY).
    case kernelOwned(driver: String?, iioDevice: String?)
    /// Nothing acknowledged the address.
    case absent
    /// Something answered but matched no model, or matched two: it is left untouched.
    /// `readings` are the (register, value) pairs read.
    case unidentified(readings: [(UInt8, UInt8)])
    /// The probe failed in a way that is not "absent" (stuck bus, EIO after retries).
    case failed(I2CError)
}

/// Identifies chips by reading (address, register, expected value) triples from the catalog.
/// It only reads, except for the MPU-9150 check, which runs after WHO_AM_I identified an MPU and
/// restores the register it touches. It never writes to an unidentified device.
public struct I2CProber: Sendable {
    public let bus: any I2CBus
    public var catalog: [ChipModel]

    public init(bus: any I2CBus, catalog: [ChipModel] = ChipCatalog.all) {
        self.bus = bus
        self.catalog = catalog
    }

    /// Probes every known address, ascending; returns only addresses that are not absent.
    public func scan(addresses: [UInt8]? = nil) -> [(address: UInt8, outcome: ProbeOutcome)] {
        let list = addresses ?? Array(Set(catalog.flatMap(\.addresses))).sorted()
        return list.compactMap { a in
            let o = probe(a)
            if case .absent = o { return nil }
            return (a, o)
        }
    }

    public func probe(_ address: UInt8) -> ProbeOutcome {
        do {
            try bus.claim(address)
        } catch {
            if error.kind == .ownedByKernel { return .kernelOwned(driver: error.kernelDriver, iioDevice: error.iioDevice) }
            if error.isAbsence { return .absent }
            return .failed(error)
        }
        let candidates = catalog.filter { $0.addresses.contains(address) }
        // One read per distinct ID register; no retries, so an absent chip costs one transaction.
        let device = I2CDevice(bus: bus, address: address, retry: .none)
        var readings: [(UInt8, UInt8)] = []
        var registers: [UInt8] = []
        for m in candidates where !registers.contains(m.idRegister) { registers.append(m.idRegister) }
        for r in registers {
            do {
                readings.append((r, try device.readByte(r)))
            } catch {
                if error.isAbsence && readings.isEmpty { return .absent }
                return .failed(error)
            }
        }
        let matches = candidates.filter { m in readings.contains { $0.0 == m.idRegister && $0.1 == m.idValue } }
        guard matches.count == 1, let model = matches.first else { return .unidentified(readings: readings) }
        if model.name == "mpu6050" {
            let full = I2CDevice(bus: bus, address: address, retry: .standard)
            if InvenSenseMPUDriver.hasMagnetometer(full), let m9150 = ChipCatalog.model(named: "mpu9150") {
                return .identified(m9150, id: model.idValue)
            }
        }
        return .identified(model, id: model.idValue)
    }
}
