import Testing
import IMUSensors
import ChipEmulators

/// The exact bytes each driver writes to set a chip up (register, value), checked against the datasheets.
@Suite("Init transcripts")
struct ChipsTranscriptTests {
    func transcript(_ name: String, rate: Double, fifo: Bool) throws -> [[UInt8]] {
        let rig = try ChipRig(name)
        rig.bus.clearTranscript()
        try rig.driver.configure(rateHz: rate, useFIFO: fifo)
        return rig.bus.writes(to: rig.address)
    }

    @Test("MPU-6050: reset, PLL clock, DLPF 44 Hz, 100 Hz, ±1000 °/s, ±8 g, FIFO with temperature")
    func mpu6050() throws {
        #expect(try transcript("mpu6050", rate: 100, fifo: true) == [
            [0x6B, 0x80], [0x6B, 0x01], [0x1A, 0x03], [0x19, 0x09], [0x1B, 0x10], [0x1C, 0x10],
            [0x6A, 0x04], [0x23, 0xF8], [0x6A, 0x40],
        ])
    }

    @Test("MPU-6500 also sets the accelerometer's own low-pass (ACCEL_CONFIG2)")
    func mpu6500() throws {
        #expect(try transcript("mpu6500", rate: 200, fifo: false) == [
            [0x6B, 0x80], [0x6B, 0x01], [0x1A, 0x02], [0x1D, 0x02], [0x19, 0x04], [0x1B, 0x10], [0x1C, 0x10],
        ])
    }

    @Test("LSM6DS3: SW_RESET, BDU + IF_INC, 104 Hz ±8 g, 104 Hz ±1000 °/s, continuous FIFO at 104 Hz")
    func lsm6ds3() throws {
        #expect(try transcript("lsm6ds3", rate: 100, fifo: true) == [
            [0x12, 0x01], [0x12, 0x44], [0x10, 0x4C], [0x11, 0x48], [0x08, 0x09], [0x0A, 0x26],
        ])
    }

    @Test("LSM6DSO: tagged FIFO with batch rates for gyro and accel")
    func lsm6dso() throws {
        #expect(try transcript("lsm6dso", rate: 52, fifo: true) == [
            [0x12, 0x01], [0x12, 0x44], [0x10, 0x3C], [0x11, 0x38], [0x09, 0x33], [0x0A, 0x06],
        ])
    }

    @Test("BMP280: reset, standby 62.5 ms + IIR 4, osrs_t ×1 osrs_p ×4 normal mode")
    func bmp280() throws {
        #expect(try transcript("bmp280", rate: 10, fifo: false) == [[0xE0, 0xB6], [0xF5, 0x28], [0xF4, 0x2F]])
    }

    @Test("BME280 writes ctrl_hum before ctrl_meas (datasheet §5.4.3)")
    func bme280() throws {
        #expect(try transcript("bme280", rate: 10, fifo: false) == [[0xE0, 0xB6], [0xF2, 0x00], [0xF5, 0x28], [0xF4, 0x2F]])
    }

    @Test("BMI160: soft reset, ODR and range for both, normal mode commands, headerless FIFO, flush")
    func bmi160() throws {
        #expect(try transcript("bmi160", rate: 100, fifo: true) == [
            [0x7E, 0xB6], [0x40, 0x28], [0x41, 0x08], [0x42, 0x28], [0x43, 0x01], [0x7E, 0x11], [0x7E, 0x15],
            [0x47, 0xC0], [0x7E, 0xB0],
        ])
    }

    @Test("LPS25H: reset, then PD + 12.5 Hz + BDU; the burst address has bit 7 set")
    func lps25h() throws {
        let rig = try ChipRig("lps25h")
        rig.bus.clearTranscript()
        try rig.driver.configure(rateHz: 10, useFIFO: false)
        #expect(rig.bus.writes(to: rig.address) == [[0x21, 0x04], [0x20, 0xB4]])
        rig.clock.advance(0.5)
        rig.bus.clearTranscript()
        _ = try rig.driver.readBatch()
        #expect(rig.bus.transcript == [.read(address: rig.address, register: 0xA8, count: 5)])
    }

    @Test("the drivers write only to the chip they identified, never elsewhere", arguments: EmulatorCatalog.names)
    func writesStayAtTheChip(name: String) throws {
        let rig = try ChipRig(name)
        rig.bus.clearTranscript()
        try rig.driver.configure(rateHz: 50, useFIFO: rig.driver.model.hasFIFO)
        for event in rig.bus.transcript {
            switch event {
            case .write(let a, _), .read(let a, _, _): #expect(a == rig.address)
            }
        }
    }
}

@Suite("Compensation formulas")
struct ChipsCompensationTests {
    @Test("BMP280 integer compensation reproduces the datasheet example (25.08 °C, 100653.27 Pa)")
    func bmp280Example() throws {
        var bytes: [UInt8] = []
        for c in bmp280ExampleCalibration { let u = UInt16(truncatingIfNeeded: c); bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        let cal = BMP280Calibration(bytes: bytes)
        let (centi, tFine) = cal.temperature(adcT: 519888)
        #expect(centi == 2508)
        let p = try #require(cal.pressure(adcP: 415148, tFine: tFine))
        // The datasheet's floating-point result is 100653.27 Pa; the integer path's Q24.8 result
        // truncates at each shift and lands within 1/32 Pa of it (the kernel reads 100.653 kPa too).
        #expect(abs(Double(p) / 256 - 100653.27) < 1.0 / 32)
        #expect(p / 256 == 100653)
    }

    func bmp280Driver(calibration: [Int]) -> (EmulatedI2CBus, any ChipDriver) {
        let bus = EmulatedI2CBus()
        bus.attach(at: 0x76) { BMP280Emulator(calibration: calibration) }
        return (bus, ChipCatalog.model(named: "bmp280")!.makeDriver(I2CDevice(bus: bus, address: 0x76, retry: EmulatorCatalog.noSleep)))
    }

    @Test("a BMP280 calibration block that is blank, unprogrammed or has dig_P1 = 0 is refused at configure", arguments: [0, 1, 2])
    func bmp280BadCalibration(kind: Int) throws {
        var cal = [Int](bmp280ExampleCalibration)
        switch kind {
        case 0: cal = [Int](repeating: 0, count: 12)
        case 1: cal = [Int](repeating: 0xFFFF, count: 12)
        default: cal[3] = 0
        }
        let (_, driver) = bmp280Driver(calibration: cal)
        do {
            try driver.configure(rateHz: 10, useFIFO: false)
            Issue.record("configure should refuse calibration \(kind)")
        } catch {
            #expect(error.kind == .badResponse)
            #expect(error.description.contains("bmp280: calibration block"))
            #expect(error.fix != nil)
        }
    }

    @Test("BMP280 compensation never traps, whatever the calibration words and ADC values")
    func bmp280NoTrap() {
        var state: UInt64 = 0x9E3779B97F4A7C15   // fixed seed: a reproducible spread of garbage blocks
        func next() -> UInt8 { state = state &* 6364136223846793005 &+ 1442695040888963407; return UInt8(state >> 56) }
        var finite = 0
        for _ in 0..<2000 {
            let cal = BMP280Calibration(bytes: (0..<24).map { _ in next() })
            let adcT = Int32(next()) << 12 | Int32(next()) << 4, adcP = Int32(next()) << 12 | Int32(next()) << 4
            let (_, tFine) = cal.temperature(adcT: adcT)
            if cal.pressure(adcP: adcP, tFine: tFine) != nil { finite += 1 }
        }
        #expect(finite > 0)
    }

    @Test("BMP280 'skipped' (0x80000): nothing during start-up, an error once it had converted, or when it never does")
    func bmp280SkippedAfterConversion() throws {
        let rig = try ChipRig("bmp280")
        try rig.driver.configure(rateHz: 10, useFIFO: false)
        rig.clock.advance(0.5)
        #expect(try rig.driver.readBatch().count == 1)
        try rig.chip(as: BMP280Emulator.self) { $0.setADC(pressure: 0x80000, temperature: 0x80000) }
        do {
            _ = try rig.driver.readBatch()
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .badResponse)
            #expect(error.description.contains("reconfigure it"))
        }
        // Never converting (asleep from the start): a clear error after the start-up allowance.
        let stuck = try ChipRig("bmp280")
        try stuck.driver.configure(rateHz: 10, useFIFO: false)
        try stuck.bus.write(stuck.address, [0xF4, 0x00])   // sleep mode behind the driver's back
        var failed = false
        for _ in 0..<30 where !failed {
            do { #expect(try stuck.driver.readBatch().isEmpty) } catch { failed = error.kind == .badResponse }
        }
        #expect(failed)
    }

    /// The driver decodes what the registers hold; the poller decides what reaches a sample
    /// (`BarometerRange`, BarometerRangeTests): one reading read mid-update is no chip failure.
    @Test("a pressure outside every supported sensor's range is decoded as read, not thrown")
    func impossiblePressure() throws {
        let rig = try ChipRig("lps22hb", motion: { _ in MotionTruth(pressure: 1900) })
        try rig.driver.configure(rateHz: 10, useFIFO: false)
        rig.clock.advance(0.5)
        #expect(try rig.driver.readBatch().map(\.pressure) == [1900])
    }

    @Test("DPS310 coefficients unpack from their 12/20/16-bit fields")
    func dps310Coefficients() throws {
        let chip = DPS310Emulator()
        let c = DPS310Coefficients(bytes: Array(chip.registers[0x10..<0x22]))
        #expect([c.c0, c.c1, c.c00, c.c10, c.c01, c.c11, c.c20, c.c21, c.c30].map(Int.init) == DPS310Emulator.coefficients)
    }
}
