import Testing
import IMUSensors
import ChipEmulators

/// The emulators model the datasheets' addressing quirks, so a driver that forgot them fails.
@Suite("Emulator quirks and FIFO overflow")
struct ChipsEmulatorQuirkTests {
    @Test("ST IF_INC off: a burst re-reads one register (CTRL3_C bit 2)")
    func stAutoIncrementOff() throws {
        let bus = EmulatedI2CBus()
        EmulatorCatalog.attach("lsm6ds3", to: bus)
        try bus.write(0x6A, [0x12, 0x40])   // BDU only, IF_INC cleared
        #expect(try bus.read(0x6A, register: 0x0F, count: 3) == [0x69, 0x69, 0x69])
        try bus.write(0x6A, [0x12, 0x44])
        #expect(try bus.read(0x6A, register: 0x0F, count: 2) == [0x69, 0x00])
    }

    @Test("LPS25H: bit 7 of the sub-address asks for auto-increment")
    func lps25hSubAddress() throws {
        let clock = EmulatorClock(start: 1)
        let bus = EmulatedI2CBus(clock: clock)
        let address = EmulatorCatalog.attach("lps25h", to: bus)
        try bus.write(address, [0x20, 0xC0])   // PD, 25 Hz
        clock.advance(0.1)
        let plain = try bus.read(address, register: 0x28, count: 3)
        let burst = try bus.read(address, register: 0xA8, count: 3)
        let registers = try bus.withChip(at: address) { $0.registers }
        #expect(plain == [registers[0x28], registers[0x28], registers[0x28]])
        #expect(burst == Array(registers[0x28...0x2A]))
        #expect(burst != plain)
    }

    @Test("MPU-6050 FIFO overflow: the FIFO is reset, nothing misaligned is returned, reading resumes")
    func mpuOverflow() throws {
        let rig = try ChipRig("mpu6050", motion: Motions.walk)
        try rig.driver.configure(rateHz: 100, useFIFO: true)
        let configured = rig.clock.now
        rig.clock.advance(2.005)   // 200 frames × 14 bytes > 1024 (half a period off the sample instants)
        #expect(try rig.driver.readBatch().isEmpty)
        #expect(rig.bus.writes(to: rig.address).last == [0x6A, 0x44])
        rig.clock.advance(0.1)
        let next = try rig.driver.readBatch()
        #expect(next.count == 10)
        for (k, r) in next.enumerated() {
            // Frames 201…210 since configuration; 1…200 were dropped with the overflowed FIFO.
            #expect(abs(r.acceleration!.z - Motions.walk(configured + Double(201 + k) * 0.01).acceleration.z) < 0.01)
        }
    }

    @Test("LSM6DS3 pattern FIFO read from mid-pattern: the partial set is skipped, sets stay aligned")
    func lsm6ds3MidPattern() throws {
        let rig = try ChipRig("lsm6ds3", motion: Motions.walk)
        try rig.driver.configure(rateHz: 104, useFIFO: true)
        rig.clock.advance(0.1)
        _ = try rig.bus.read(rig.address, register: 0x3E, count: 4, walk: .fifoPort(wordBytes: 2))   // someone popped 2 words
        let readings = try rig.driver.readBatch()
        #expect(try readings.count == rig.samplesProduced - 1)
        let start = rig.clock.now - 0.1
        for (k, r) in readings.enumerated() {
            let truth = Motions.walk(start + Double(k + 2) / 104)
            #expect(abs(r.acceleration!.z - truth.acceleration.z) < 0.01, "set \(k)")
            #expect(abs(r.rotationRate!.z - truth.rotationRate.z) < 0.01, "set \(k)")
        }
    }
}
