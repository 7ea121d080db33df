/// Bosch BMP388 and BMP390 barometers. Datasheets BST-BMP388-DS001 rev 1.6 and BST-BMP390-DS002
/// rev 1.4, register map §5; compensation §9 (floating point, Appendix "Compensation formula").
enum BMP3Register {
    static let chipID: UInt8 = 0x00              // CHIP_ID: 0x50 BMP388, 0x60 BMP390
    static let error: UInt8 = 0x02               // ERR_REG: conf_err bit 2, cmd_err bit 1, fatal_err bit 0
    static let pressureXLSB: UInt8 = 0x04        // DATA_0…5: pressure then temperature, 24-bit little endian
    static let powerControl: UInt8 = 0x1B        // PWR_CTRL: mode[5:4], temp_en 1, press_en 0
    static let oversampling: UInt8 = 0x1C        // OSR: osr_t[5:3], osr_p[2:0]
    static let outputRate: UInt8 = 0x1D          // ODR: odr_sel[4:0]
    static let config: UInt8 = 0x1F              // CONFIG: iir_filter[3:1]
    static let calibration: UInt8 = 0x31         // NVM_PAR_T1 … NVM_PAR_P11: 21 bytes
    static let command: UInt8 = 0x7E             // CMD: 0xB6 soft reset

    static let softReset: UInt8 = 0xB6
    /// Normal mode (11 << 4) with pressure and temperature enabled.
    static let normalBoth: UInt8 = 0x33
    /// osr_p ×4 (010), osr_t ×1 (000): "standard resolution" (§3.5 Table 9).
    static let standardOversampling: UInt8 = 0x02
    /// IIR coefficient 3 (010 << 1) (§3.4.3).
    static let filter3: UInt8 = 0x04
}

/// Compensation parameters, floating point, from the NVM words (§9.1, Table "memory map of
/// calibration data"): each is the stored integer divided (or multiplied) by a power of two.
public struct BMP3Calibration: Sendable {
    public var t1, t2, t3, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11: Double

    public init(bytes b: [UInt8]) {
        func u16(_ i: Int) -> Double { Double(UInt16(b[i + 1]) << 8 | UInt16(b[i])) }
        func s16(_ i: Int) -> Double { Double(Int16(bitPattern: UInt16(b[i + 1]) << 8 | UInt16(b[i]))) }
        func s8(_ i: Int) -> Double { Double(Int8(bitPattern: b[i])) }
        func pow2(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }
        t1 = u16(0) / pow2(-8); t2 = u16(2) / pow2(30); t3 = s8(4) / pow2(48)
        p1 = (s16(5) - pow2(14)) / pow2(20); p2 = (s16(7) - pow2(14)) / pow2(29)
        p3 = s8(9) / pow2(32); p4 = s8(10) / pow2(37); p5 = u16(11) / pow2(-3); p6 = u16(13) / pow2(6)
        p7 = s8(15) / pow2(8); p8 = s8(16) / pow2(15); p9 = s16(17) / pow2(48); p10 = s8(19) / pow2(48); p11 = s8(20) / pow2(65)
    }

    /// Temperature in °C from the raw 24-bit value (§9.2).
    public func temperature(raw: Double) -> Double {
        let d = raw - t1
        return d * t2 + d * d * t3
    }

    /// Pressure in Pa from the raw 24-bit value and the compensated temperature (§9.3).
    public func pressure(raw: Double, temperature t: Double) -> Double {
        let out1 = p5 + p6 * t + p7 * t * t + p8 * t * t * t
        let out2 = raw * (p1 + p2 * t + p3 * t * t + p4 * t * t * t)
        let out3 = raw * raw * (p9 + p10 * t) + raw * raw * raw * p11
        return out1 + out2 + out3
    }
}

public final class BoschBMP3Driver: ChipDriver, @unchecked Sendable {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    /// The chip's FIFO is not used: at ≤50 Hz one 6-byte read per sample is cheap (docs/i2c-budget.md).
    public var usesFIFO: Bool { false }
    private(set) var calibration: BMP3Calibration?

    /// odr_sel codes (§4.3.20): 50 Hz = 2 … 1.5 Hz = 7. Faster rates do not fit ×4 oversampling.
    static let rates: [(Double, UInt8)] = [(50, 2), (25, 3), (12.5, 4), (6.25, 5), (3.1, 6), (1.5, 7)]
    /// Power-on/soft-reset start-up, 2 ms (Table 2).
    static let startSeconds = 0.002

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(BMP3Register.command, BMP3Register.softReset)
        wait(seconds: Self.startSeconds)
        calibration = BMP3Calibration(bytes: try device.read(BMP3Register.calibration, count: 21))
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(BMP3Register.oversampling, BMP3Register.standardOversampling)
        try device.writeByte(BMP3Register.outputRate, code)
        try device.writeByte(BMP3Register.config, BMP3Register.filter3)
        try device.writeByte(BMP3Register.powerControl, BMP3Register.normalBoth)
        let err = try device.readByte(BMP3Register.error)
        guard err & 0x07 == 0 else {
            throw I2CError(kind: .io, bus: device.bus.path, address: device.address, operation: "\(model.name) rejected its configuration (ERR_REG \(I2CAddress.hex(err)))")
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        let b = try device.read(BMP3Register.pressureXLSB, count: 6)
        guard let cal = calibration else {
            throw I2CError(kind: .io, bus: device.bus.path, address: device.address, operation: "\(model.name) read before configure")
        }
        let rawP = Double(UInt32(b[2]) << 16 | UInt32(b[1]) << 8 | UInt32(b[0]))
        let rawT = Double(UInt32(b[5]) << 16 | UInt32(b[4]) << 8 | UInt32(b[3]))
        guard rawP != 0 || rawT != 0 else { return [] }   // no conversion yet
        let t = cal.temperature(raw: rawT)
        return [ChipReading(pressure: cal.pressure(raw: rawP, temperature: t) / Units.pascalsPerHectopascal, temperature: t)]
    }
}

extension ChipModel {
    static func bmp3(name: String, id: UInt8) -> ChipModel {
        ChipModel(name: name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x76, 0x77], idRegister: BMP3Register.chipID, idValue: id, hasFIFO: false,
                  makeDriver: { BoschBMP3Driver(model: .bmp3(name: name, id: id), device: $0) })
    }
}
