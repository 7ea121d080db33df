import Testing
import IMUSensors
import ChipEmulators

/// The LPS25H and DPS310 FIFOs: their entries pop differently from the other chips', so each has
/// its own transaction count, overflow rule and empty case.
@Suite("LPS25H and DPS310 FIFOs")
struct ChipsBarometerFIFOTests {
    /// Checks readings k = 0… against the walk script at start + (k + 1 + offset) / ODR.
    func expectInOrder(_ readings: [ChipReading], rig: ChipRig, start: Double, offset: Int = 0,
                       temperatureTolerance: Double = Tolerance.temperatureC) throws {
        let rateHz = try rig.chipRateHz
        for (k, r) in readings.enumerated() {
            let truth = Motions.walk(start + Double(k + 1 + offset) / rateHz)
            let p = try #require(r.pressure)
            #expect(abs(p - truth.pressure) < Tolerance.pressureHPa, "\(rig.driver.model.name) reading \(k): \(p) vs \(truth.pressure) hPa")
            #expect(abs(try #require(r.temperature) - truth.temperature) < temperatureTolerance)
        }
    }

    // MARK: LPS25H

    @Test("LPS25H configure: reset, FIFO_EN, stream mode, then PD + 25 Hz + BDU")
    func lps25hConfigure() throws {
        let rig = try ChipRig("lps25h")
        rig.bus.clearTranscript()
        try rig.driver.configure(rateHz: 25, useFIFO: true)
        #expect(rig.driver.usesFIFO)
        #expect(rig.bus.writes(to: rig.address) == [[0x21, 0x04], [0x21, 0x40], [0x2E, 0x40], [0x20, 0xC4]])
    }

    @Test("LPS25H FIFO: every pressure slot in order, in hPa and °C; FIFO_STATUS, one burst, TEMP_OUT per batch")
    func lps25hBatch() throws {
        let rig = try ChipRig("lps25h", motion: Motions.walk)
        try rig.driver.configure(rateHz: 25, useFIFO: true)
        let start = rig.clock.now
        let (all, transactions) = try rig.drain(batches: 4, every: 1)
        let produced = try rig.samplesProduced
        #expect(all.count == produced && all.count >= 99, "\(all.count) of \(produced)")
        #expect(transactions == 12, "3 per batch, got \(transactions)")
        // One temperature per batch (the FIFO holds pressure only): at most 1 s, 0.1 °C, old.
        try expectInOrder(all, rig: rig, start: start)
        rig.clock.advance(0.2)
        rig.bus.clearTranscript()
        let five = try rig.driver.readBatch()
        #expect(five.count == 5)
        #expect(rig.bus.transcript == [.read(address: rig.address, register: 0x2F, count: 1),
                                       .read(address: rig.address, register: 0xA8, count: 15),
                                       .read(address: rig.address, register: 0xAB, count: 2)])
    }

    @Test("empty FIFO: [] after one status read, before the first conversion", arguments: ["lps25h", "dps310"])
    func empty(name: String) throws {
        let rig = try ChipRig(name, motion: Motions.walk)
        try rig.driver.configure(rateHz: 8, useFIFO: true)
        rig.clock.advance(0.1)   // less than one period (LPS25H 7 Hz, DPS310 8 Hz)
        let before = rig.bus.transactionCount
        #expect(try rig.driver.readBatch().isEmpty)
        #expect(rig.bus.transactionCount - before == 1)
    }

    @Test("LPS25H overflow: stream mode keeps the 32 newest, in order; FULL_FIFO says 32 where FSS cannot")
    func lps25hOverflow() throws {
        let rig = try ChipRig("lps25h", motion: Motions.walk)
        try rig.driver.configure(rateHz: 25, useFIFO: true)
        let start = rig.clock.now
        rig.clock.advance(4)   // 100 conversions into 32 slots
        let status = try rig.bus.read(rig.address, register: 0x2F, count: 1)[0]
        #expect(status & 0x40 != 0 && status & 0x1F == 0, "FULL_FIFO with FSS 0, got \(status)")
        let newest = try rig.driver.readBatch()
        #expect(newest.count == 32)
        try expectInOrder(newest, rig: rig, start: start, offset: rig.samplesProduced - 32)
        rig.clock.advance(0.4)
        let next = try rig.driver.readBatch()
        #expect(next.count == 10)
        try expectInOrder(next, rig: rig, start: start, offset: rig.samplesProduced - 10)
        #expect(try rig.chip(as: LPSEmulator.self) { $0.fifoSlots } == 0)
    }

    // MARK: DPS310

    @Test("DPS310 configure: FIFO_EN, FIFO_FLUSH, then continuous pressure and temperature")
    func dps310Configure() throws {
        let rig = try ChipRig("dps310")
        rig.bus.clearTranscript()
        try rig.driver.configure(rateHz: 8, useFIFO: true)
        #expect(rig.driver.usesFIFO)
        #expect(Array(rig.bus.writes(to: rig.address).suffix(3)) == [[0x09, 0x02], [0x0C, 0x80], [0x08, 0x07]])
    }

    @Test("DPS310 FIFO: every pressure in order, in hPa and °C; status + one read per result + the empty word")
    func dps310Batch() throws {
        let rig = try ChipRig("dps310", motion: Motions.walk)
        try rig.driver.configure(rateHz: 8, useFIFO: true)
        let start = rig.clock.now
        let (all, transactions) = try rig.drain(batches: 4, every: 1)
        let produced = try rig.samplesProduced
        #expect(all.count == produced && all.count == 32, "\(all.count) of \(produced)")
        // 8 conversions a second, each a temperature and a pressure result: 16 results per batch.
        #expect(transactions == 4 * (1 + 16 + 1), "got \(transactions)")
        try expectInOrder(all, rig: rig, start: start)
        #expect(try rig.chip(as: DPS310Emulator.self) { $0.entries.isEmpty })
    }

    @Test("DPS310 overflow: a full FIFO holds stale results, so it is flushed and reading resumes in order")
    func dps310Overflow() throws {
        let rig = try ChipRig("dps310", motion: Motions.walk)
        try rig.driver.configure(rateHz: 8, useFIFO: true)
        let start = rig.clock.now
        rig.clock.advance(3)   // 48 results for 32 entries: the last 16 were dropped
        rig.bus.clearTranscript()
        #expect(try rig.driver.readBatch().isEmpty)
        #expect(rig.bus.writes(to: rig.address) == [[0x0C, 0x80]])
        #expect(try rig.chip(as: DPS310Emulator.self) { $0.entries.isEmpty })
        rig.clock.advance(0.5)
        let resumed = try rig.driver.readBatch()
        #expect(resumed.count == 4)
        try expectInOrder(resumed, rig: rig, start: start, offset: rig.samplesProduced - 4)
    }

    @Test("DPS310 FIFO words: bit 0 tells pressure (1) from temperature (0); empty reads 0x800000")
    func dps310Words() throws {
        let rig = try ChipRig("dps310", motion: Motions.walk)
        try rig.driver.configure(rateHz: 8, useFIFO: true)
        rig.clock.advance(0.125)
        let t = try rig.bus.read(rig.address, register: 0x00, count: 3)
        let p = try rig.bus.read(rig.address, register: 0x00, count: 3)
        let empty = try rig.bus.read(rig.address, register: 0x00, count: 3)
        #expect(t[2] & 1 == 0 && p[2] & 1 == 1)
        #expect(empty == [0x80, 0x00, 0x00])
    }
}
