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
    /// FIFO_CTRL / FIFO_STATUS on the LPS22HB (0x14 / 0x26, FSS[5:0]); nil = FIFO not used (LPS25H:
    /// how its FIFO pops through the output registers is not modelled here).
    var fifoRegisters: (control: UInt8, status: UInt8)?

    static let lps22hb = LPSVariant(name: "lps22hb", whoAmI: 0xB1, control1: 0x10, control2: 0x11, control1Flags: 0x0A,
                                    control2Flags: 0x10, rates: [(1, 1), (10, 2), (25, 3), (50, 4), (75, 5)],
                                    burstAddress: LPSRegister.pressureXL, temperatureDivisor: 100, temperatureOffset: 0,
                                    fifoRegisters: (0x14, 0x26))
    static let lps25h = LPSVariant(name: "lps25h", whoAmI: 0xBD, control1: 0x20, control2: 0x21, control1Flags: 0x84,
                                   control2Flags: 0x00, rates: [(1, 1), (7, 2), (12.5, 3), (25, 4)],
                                   burstAddress: LPSRegister.pressureXL | 0x80, temperatureDivisor: 480, temperatureOffset: 42.5,
                                   fifoRegisters: nil)
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
    /// One FIFO entry: pressure (3 bytes) and temperature (2); 32 entries deep.
    static let entryBytes = 5
}

public final class STLPSDriver: ChipDriver, @unchecked Sendable {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: LPSVariant
    public private(set) var outputRateHz = 0.0
    /// LPS22HB only: a burst of 5 × n bytes from PRESS_OUT_XL drains n entries (the address rolls
    /// back from TEMP_OUT_H to PRESS_OUT_XL in FIFO mode).
    public private(set) var usesFIFO = false

    init(model: ChipModel, device: I2CDevice, variant: LPSVariant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(variant.control2, LPSRegister.softReset)
        try poll(variant.control2, mask: LPSRegister.softReset, until: 0, what: "soft reset did not complete")
        usesFIFO = useFIFO && variant.fifoRegisters != nil
        let control2 = variant.control2Flags | (usesFIFO ? LPSRegister.fifoEnable : 0)
        if control2 != 0 { try device.writeByte(variant.control2, control2) }
        if usesFIFO, let fifo = variant.fifoRegisters { try device.writeByte(fifo.control, LPSRegister.fifoStream) }
        let (rate, code) = Raw.nearest(variant.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(variant.control1, variant.control1Flags | code << 4)
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        if usesFIFO, let fifo = variant.fifoRegisters {
            let entries = Int(try device.readByte(fifo.status) & 0x3F)
            guard entries > 0 else { return [] }
            let b = try device.read(variant.burstAddress, count: entries * LPSRegister.entryBytes,
                                    walk: .fifoPort(wordBytes: LPSRegister.entryBytes))
            var out: [ChipReading] = []
            for e in 0..<entries { out.append(try decode(b, at: e * LPSRegister.entryBytes)) }
            return out
        }
        let b = try device.read(variant.burstAddress, count: 5)
        guard b.contains(where: { $0 != 0 }) else { return [] }   // all zero: no conversion since reset
        return [try decode(b, at: 0)]
    }

    /// Pressure (24-bit two's complement, little endian) then temperature (16-bit).
    private func decode(_ b: [UInt8], at i: Int) throws(I2CError) -> ChipReading {
        let raw = Int32(bitPattern: UInt32(b[i + 2]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i]) << 8) >> 8
        let t = Double(Raw.int16(b[i + 4], b[i + 3])) / variant.temperatureDivisor + variant.temperatureOffset
        return try plausible(pressure: Double(raw) / LPSRegister.pressureLSBPerHPa, temperature: t)
    }
}

extension ChipModel {
    static func lps(_ v: LPSVariant) -> ChipModel {
        ChipModel(name: v.name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x5C, 0x5D], idRegister: LPSRegister.whoAmI, idValue: v.whoAmI, hasFIFO: v.fifoRegisters != nil,
                  makeDriver: { STLPSDriver(model: .lps(v), device: $0, variant: v) })
    }
}
