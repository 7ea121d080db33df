import Testing
import IMUSensors
import ChipEmulators

@Suite("Chip identification")
struct ChipsIdentificationTests {
    @Test("every emulated chip is identified as itself", arguments: EmulatorCatalog.names)
    func identifiesEveryChip(name: String) throws {
        let bus = EmulatedI2CBus()
        let address = EmulatorCatalog.attach(name, to: bus)
        guard case .identified(let model, let id) = I2CProber(bus: bus).probe(address) else {
            Issue.record("\(name) not identified")
            return
        }
        #expect(model.name == name)
        #expect(id == model.idValue)
    }

    @Test("probing never writes to an unidentified device")
    func unidentifiedIsUntouched() throws {
        let bus = EmulatedI2CBus()
        bus.attach(at: 0x68) {
            let stranger = EmulatedChip(motion: Motions.still)
            stranger.registers[0x75] = 0x12   // not an MPU/ICM WHO_AM_I
            return stranger
        }
        guard case .unidentified(let readings) = I2CProber(bus: bus).probe(0x68) else {
            Issue.record("expected unidentified")
            return
        }
        #expect(readings.contains { $0.0 == 0x75 && $0.1 == 0x12 })
        #expect(bus.writes(to: 0x68).isEmpty)
        #expect(try bus.withChip(at: 0x68) { $0.writes.isEmpty })
    }

    @Test("MPU-6050 and MPU-9150 share WHO_AM_I 0x68; the AK8975 behind the bypass tells them apart")
    func mpu9150VersusMpu6050() throws {
        let bus6050 = EmulatedI2CBus()
        EmulatorCatalog.attach("mpu6050", to: bus6050)
        let bus9150 = EmulatedI2CBus()
        EmulatorCatalog.attach("mpu9150", to: bus9150)
        guard case .identified(let a, _) = I2CProber(bus: bus6050).probe(0x68),
              case .identified(let b, _) = I2CProber(bus: bus9150).probe(0x68) else {
            Issue.record("not identified")
            return
        }
        #expect(a.name == "mpu6050")
        #expect(b.name == "mpu9150")
        // The bypass bit was restored.
        #expect(try bus9150.withChip(at: 0x68) { $0.registers[0x37] } & 0x02 == 0)
    }

    @Test("BME280 (0xD0 = 0x60) and BMP390 (0x00 = 0x60) at 0x77 are told apart by which register holds 0x60")
    func bme280VersusBmp390() throws {
        for (name, expected) in [("bme280", "bme280"), ("bmp390", "bmp390")] {
            let bus = EmulatedI2CBus()
            EmulatorCatalog.attach(name, to: bus, address: 0x77)
            guard case .identified(let m, _) = I2CProber(bus: bus).probe(0x77) else {
                Issue.record("\(name) not identified")
                continue
            }
            #expect(m.name == expected)
        }
        // A device where both registers read 0x60 is ambiguous: left untouched.
        let bus = EmulatedI2CBus()
        bus.attach(at: 0x77) {
            let both = EmulatedChip(motion: Motions.still)
            both.registers[0x00] = 0x60
            both.registers[0xD0] = 0x60
            return both
        }
        guard case .unidentified = I2CProber(bus: bus).probe(0x77) else {
            Issue.record("an ambiguous device must not be identified")
            return
        }
        #expect(try bus.withChip(at: 0x77) { $0.writes.isEmpty })
    }

    @Test("an absent address costs one transaction and is not reported")
    func absentAddress() {
        let bus = EmulatedI2CBus()
        guard case .absent = I2CProber(bus: bus).probe(0x68) else {
            Issue.record("expected absent")
            return
        }
        #expect(bus.transactionCount == 1)
        #expect(I2CProber(bus: bus).scan().isEmpty)
    }

    @Test("a kernel-owned address is reported with its driver and IIO device, and not read")
    func kernelOwned() {
        let bus = EmulatedI2CBus()
        EmulatorCatalog.attach("mpu6050", to: bus)
        bus.setKernelOwned(0x68, driver: "inv-mpu6050-i2c", iioDevice: "iio:device0 (mpu6050)")
        guard case .kernelOwned(let driver, let iio) = I2CProber(bus: bus).probe(0x68) else {
            Issue.record("expected kernel-owned")
            return
        }
        #expect(driver == "inv-mpu6050-i2c")
        #expect(iio == "iio:device0 (mpu6050)")
        #expect(bus.transactionCount == 0)
    }

    @Test("a scan finds an IMU and a barometer on one bus")
    func scanFindsBoth() {
        let bus = EmulatedI2CBus()
        EmulatorCatalog.attach("mpu6050", to: bus)
        EmulatorCatalog.attach("bmp280", to: bus)
        let found = I2CProber(bus: bus).scan()
        let names = found.compactMap { if case .identified(let m, _) = $0.outcome { return m.name }; return nil }
        #expect(names == ["mpu6050", "bmp280"])
        #expect(bus.transcript.allSatisfy { if case .write = $0 { return $0 == .write(address: 0x68, bytes: [0x37, 0x02]) || $0 == .write(address: 0x68, bytes: [0x37, 0x00]) }; return true })
    }
}
