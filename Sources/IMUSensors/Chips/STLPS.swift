/// ST LPS22HB and LPS25H barometers (Sense HAT has the LPS25H). Datasheets DocID027083 (LPS22HB) §9
/// and DocID023722 (LPS25H) §7. Pressure is 24-bit two's complement, 4096 LSB/hPa on both.
struct LPSVariant: Sendable {
    var name: String
    var whoAmI: UInt8
    /// CTRL_REG1 / CTRL_REG2 addresses: LPS22HB 0x10/0x11, LPS25H 0x20/0x21.
    var control1: UInt8
    var control2: UInt8
    /// CTRL_REG1 bits set besides ODR: LPS22HB EN_LPFP (bit 3, low-pass ODR/9) | BDU (bit 1);
    /// LPS25H PD (bit 7, active) | BDU (bit 2).
    var control1Flags: UInt8
    /// CTRL_REG2 after reset: LPS22HB IF_ADD_INC (bit 4); LPS25H none.
    var control2Flags: UInt8
    /// ODR codes, CTRL_REG1[6:4] (LPS22HB Table 17; LPS25H Table 20).
    var rates: [(Double, UInt8)]
    /// The register address used for the 5-byte burst: the LPS25H auto-increments only when the
    /// address's bit 7 is set (§5.2.1 "I²C operation"), the LPS22HB by IF_ADD_INC.
    var burstAddress: UInt8
    /// T(°C) = raw / divisor + offset: LPS22HB 100 LSB/°C; LPS25H 480 LSB/°C from 42.5 °C.
    var temperatureDivisor: Double
    var temperatureOffset: Double
    /// The FIFO, nil = not used.
    var fifo: LPSFIFO?

    static let lps22hb = LPSVariant(name: "lps22hb", whoAmI: 0xB1, control1: 0x10, control2: 0x11, control1Flags: 0x0A,
                                    control2Flags: 0x10, rates: [(1, 1), (10, 2), (25, 3), (50, 4), (75, 5)],
                                    burstAddress: LPSRegister.pressureXL, temperatureDivisor: 100, temperatureOffset: 0,
                                    fifo: .lps22hb)
    static let lps25h = LPSVariant(name: "lps25h", whoAmI: 0xBD, control1: 0x20, control2: 0x21, control1Flags: 0x84,
                                   control2Flags: 0x00, rates: [(1, 1), (7, 2), (12.5, 3), (25, 4)],
                                   burstAddress: LPSRegister.pressureXL | 0x80, temperatureDivisor: 480, temperatureOffset: 42.5,
                                   fifo: .lps25h)
}

/// How an LPS FIFO is laid out. Both hold 32 slots, are enabled by CTRL_REG2 FIFO_EN (bit 6) and
/// pop the oldest slot when PRESS_OUT_XL… is read in FIFO or stream mode.
struct LPSFIFO: Sendable {
    /// FIFO_CTRL and FIFO_STATUS addresses.
    var control: UInt8
    var status: UInt8
    /// FIFO_STATUS bits holding the number of unread slots (FSS).
    var levelMask: UInt8
    /// FIFO_STATUS bit that says all 32 slots are full, when FSS is too narrow to say 32; 0 = none needed.
    var fullBit: UInt8
    /// Bytes per slot, and whether temperature is in the slot or read once per batch from TEMP_OUT.
    var slotBytes: Int
    var temperatureInSlot: Bool

    /// LPS22HB (DocID027083 §9.6, §9.7, §6.2): FIFO_CTRL 0x14, FIFO_STATUS 0x26 with FSS[5:0] (32 fits);
    /// a slot is pressure and temperature, 5 bytes, and a burst rolls back from TEMP_OUT_H (0x2C) to
    /// PRESS_OUT_XL, so one burst drains the FIFO.
    static let lps22hb = LPSFIFO(control: 0x14, status: 0x26, levelMask: 0x3F, fullBit: 0, slotBytes: 5, temperatureInSlot: true)
    /// LPS25H (DocID023722 §7.12, §7.13; application note AN4450 §5.1): FIFO_CTRL 0x2E, FIFO_STATUS
    /// 0x2F with FSS[4:0] (0…31), FULL_FIFO bit 6, EMPTY_FIFO bit 5. The FIFO holds pressure only,
    /// 32 × 24 bits; AN4450 says temperature must be read separately and refers to the last
    /// pressure, and that the "auto-increment rounding" differs with FIFO_EN (its Figure 8, whose
    /// drawing we could not read). We take it as PRESS_OUT_H (0x2A) → PRESS_OUT_XL (0x28) with FIFO_EN
    /// set, as the LPS22HB does at its slot end, so one burst of 3 × n bytes drains n slots. UNVERIFIED
    /// on hardware: if the address ran on to TEMP_OUT instead, only the first slot of a burst would be
    /// right, and `slotBytes`-sized bursts (one per slot) would be the fix.
    static let lps25h = LPSFIFO(control: 0x2E, status: 0x2F, levelMask: 0x1F, fullBit: 0x40, slotBytes: 3, temperatureInSlot: false)

    /// Unread slots from a FIFO_STATUS value.
    func level(_ status: UInt8) -> Int {
        fullBit != 0 && status & fullBit != 0 ? LPSRegister.fifoSlots : Int(status & levelMask)
    }
}

enum LPSRegister {
    static let whoAmI: UInt8 = 0x0F
    /// PRESS_OUT_XL, _L, _H, TEMP_OUT_L, _H.
    static let pressureXL: UInt8 = 0x28
    /// CTRL_REG2 SWRESET (bit 2), self-clearing.
    static let softReset: UInt8 = 0x04
    static let pressureLSBPerHPa = 4096.0
    /// CTRL_REG2 FIFO_EN (bit 6).
    static let fifoEnable: UInt8 = 0x40
    /// FIFO_CTRL F_MODE = 010: stream (the oldest entry is overwritten), LPS22HB Table 19.
    static let fifoStream: UInt8 = 0x40
    /// TEMP_OUT_L, _H.
    static let temperatureL: UInt8 = 0x2B
    /// FIFO depth, both chips.
    static let fifoSlots = 32
}

public final class STLPSDriver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: LPSVariant
    public private(set) var outputRateHz = 0.0
    /// With the FIFO on, a batch is three transactions at most: FIFO_STATUS, one burst of all unread
    /// slots from PRESS_OUT_XL (the address rolls back in FIFO mode, see `LPSFIFO`) and, on the
    /// LPS25H, TEMP_OUT (2 bytes). The FIFO runs in stream mode: when the reader is late the oldest
    /// slots are overwritten and the 32 newest are returned, in order, still aligned.
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? LPSRegister.fifoSlots : 0 }

    init(model: ChipModel, device: I2CDevice, variant: LPSVariant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(variant.control2, LPSRegister.softReset)
        try poll(variant.control2, mask: LPSRegister.softReset, until: 0, what: "soft reset did not complete")
        // The reset leaves FIFO_CTRL in bypass mode, which empties the FIFO (the flush); AN4450 §5.1
        // asks for FIFO_EN to change only in bypass mode, so FIFO_EN first, then stream mode.
        usesFIFO = useFIFO && variant.fifo != nil
        let control2 = variant.control2Flags | (usesFIFO ? LPSRegister.fifoEnable : 0)
        if control2 != 0 { try device.writeByte(variant.control2, control2) }
        if usesFIFO, let fifo = variant.fifo { try device.writeByte(fifo.control, LPSRegister.fifoStream) }
        let (rate, code) = Raw.nearest(variant.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(variant.control1, variant.control1Flags | code << 4)
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        if usesFIFO, let fifo = variant.fifo { return try readFIFO(fifo) }
        let b = try device.read(variant.burstAddress, count: 5)
        guard b.contains(where: { $0 != 0 }) else { return [] }   // all zero: no conversion since reset
        return [decode(b, at: 0)]
    }

    /// All unread slots, oldest first.
    private func readFIFO(_ fifo: LPSFIFO) throws(I2CError) -> [ChipReading] {
        let slots = fifo.level(try device.readByte(fifo.status))
        guard slots > 0 else { return [] }
        // Stream mode overwrites the oldest slot once all are full.
        if slots >= LPSRegister.fifoSlots { fifoOverflows += 1 }
        let b = try device.read(variant.burstAddress, count: slots * fifo.slotBytes, walk: .fifoPort(wordBytes: fifo.slotBytes))
        var out: [ChipReading] = []
        if fifo.temperatureInSlot {
            for s in 0..<slots { out.append(decode(b, at: s * fifo.slotBytes)) }
            return out
        }
        // One temperature for the batch: the chip keeps no history of it (AN4450 §5.1).
        let t = try device.read(variant.burstAddress + (LPSRegister.temperatureL - LPSRegister.pressureXL), count: 2)
        let celsius = temperature(t, at: 0)
        for s in 0..<slots { out.append(ChipReading(pressure: pressure(b, at: s * fifo.slotBytes), temperature: celsius)) }
        return out
    }

    /// Pressure (24-bit two's complement, little endian) then temperature (16-bit).
    private func decode(_ b: [UInt8], at i: Int) -> ChipReading {
        ChipReading(pressure: pressure(b, at: i), temperature: temperature(b, at: i + 3))
    }

    /// hPa from PRESS_OUT_XL, _L, _H at `b[i...]`.
    private func pressure(_ b: [UInt8], at i: Int) -> Double {
        Double(Int32(bitPattern: UInt32(b[i + 2]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i]) << 8) >> 8) / LPSRegister.pressureLSBPerHPa
    }

    /// °C from TEMP_OUT_L, _H at `b[i...]`.
    private func temperature(_ b: [UInt8], at i: Int) -> Double {
        Double(Raw.int16(b[i + 1], b[i])) / variant.temperatureDivisor + variant.temperatureOffset
    }
}

extension ChipModel {
    static func lps(_ v: LPSVariant) -> ChipModel {
        ChipModel(name: v.name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x5C, 0x5D], idRegister: LPSRegister.whoAmI, idValue: v.whoAmI, hasFIFO: v.fifo != nil,
                  makeDriver: { STLPSDriver(model: .lps(v), device: $0, variant: v) })
    }
}
