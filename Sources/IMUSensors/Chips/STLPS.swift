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

    static let lps22hb = LPSVariant(name: "lps22hb", whoAmI: 0xB1, control1: 0x10, control2: 0x11, control1Flags: 0x0A,
                                    control2Flags: 0x10, rates: [(1, 1), (10, 2), (25, 3), (50, 4), (75, 5)],
                                    burstAddress: LPSRegister.pressureXL, temperatureDivisor: 100, temperatureOffset: 0)
    static let lps25h = LPSVariant(name: "lps25h", whoAmI: 0xBD, control1: 0x20, control2: 0x21, control1Flags: 0x84,
                                   control2Flags: 0x00, rates: [(1, 1), (7, 2), (12.5, 3), (25, 4)],
                                   burstAddress: LPSRegister.pressureXL | 0x80, temperatureDivisor: 480, temperatureOffset: 42.5)
}

enum LPSRegister {
    static let whoAmI: UInt8 = 0x0F
    /// PRESS_OUT_XL, _L, _H, TEMP_OUT_L, _H.
    static let pressureXL: UInt8 = 0x28
    /// CTRL_REG2 SWRESET (bit 2), self-clearing.
    static let softReset: UInt8 = 0x04
    static let pressureLSBPerHPa = 4096.0
}

public final class STLPSDriver: ChipDriver, @unchecked Sendable {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: LPSVariant
    public private(set) var outputRateHz = 0.0
    /// The FIFO is not used: a barometer at ≤75 Hz costs one 5-byte read per sample.
    public var usesFIFO: Bool { false }

    init(model: ChipModel, device: I2CDevice, variant: LPSVariant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(variant.control2, LPSRegister.softReset)
        try poll(variant.control2, mask: LPSRegister.softReset, until: 0, what: "soft reset did not complete")
        if variant.control2Flags != 0 { try device.writeByte(variant.control2, variant.control2Flags) }
        let (rate, code) = Raw.nearest(variant.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(variant.control1, variant.control1Flags | code << 4)
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        let b = try device.read(variant.burstAddress, count: 5)
        guard b.contains(where: { $0 != 0 }) else { return [] }   // all zero: no conversion since reset
        let raw = Int32(bitPattern: UInt32(b[2]) << 24 | UInt32(b[1]) << 16 | UInt32(b[0]) << 8) >> 8
        let t = Double(Raw.int16(b[4], b[3])) / variant.temperatureDivisor + variant.temperatureOffset
        return [ChipReading(pressure: Double(raw) / LPSRegister.pressureLSBPerHPa, temperature: t)]
    }
}

extension ChipModel {
    static func lps(_ v: LPSVariant) -> ChipModel {
        ChipModel(name: v.name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x5C, 0x5D], idRegister: LPSRegister.whoAmI, idValue: v.whoAmI, hasFIFO: false,
                  makeDriver: { STLPSDriver(model: .lps(v), device: $0, variant: v) })
    }
}
