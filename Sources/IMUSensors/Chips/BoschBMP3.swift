/// Bosch BMP388 and BMP390 barometers. Datasheets BST-BMP388-DS001 rev 1.6 and BST-BMP390-DS002
/// rev 1.4, register map §5; compensation §9 (floating point, Appendix "Compensation formula").
enum BMP3Register {
    static let chipID: UInt8 = 0x00              // CHIP_ID: 0x50 BMP388, 0x60 BMP390
    static let error: UInt8 = 0x02               // ERR_REG: conf_err bit 2, cmd_err bit 1, fatal_err bit 0
    static let pressureXLSB: UInt8 = 0x04        // DATA_0…5: pressure then temperature, 24-bit little endian
    static let fifoLength: UInt8 = 0x12          // FIFO_LENGTH_0/1: bytes, 9 bits
    static let fifoData: UInt8 = 0x14            // FIFO_DATA
    static let fifoConfig1: UInt8 = 0x17         // FIFO_CONFIG_1: fifo_temp_en 4, fifo_press_en 3, fifo_mode 0
    static let fifoConfig2: UInt8 = 0x18         // FIFO_CONFIG_2: data_select[4:3], fifo_subsampling[2:0]
    static let powerControl: UInt8 = 0x1B        // PWR_CTRL: mode[5:4], temp_en 1, press_en 0
    static let oversampling: UInt8 = 0x1C        // OSR: osr_t[5:3], osr_p[2:0]
    static let outputRate: UInt8 = 0x1D          // ODR: odr_sel[4:0]
    static let config: UInt8 = 0x1F              // CONFIG: iir_filter[3:1]
    static let calibration: UInt8 = 0x31         // NVM_PAR_T1 … NVM_PAR_P11: 21 bytes
    static let command: UInt8 = 0x7E             // CMD: BoschCommand.softReset, .fifoFlush

    /// FIFO on, pressure and temperature stored (§4.3.x FIFO_CONFIG_1).
    static let fifoPressureTemperature: UInt8 = 0x19
    /// data_select = 01: filtered data (through the IIR), no subsampling.
    static let fifoFiltered: UInt8 = 0x08
    /// Frame headers (§3.6.x): temperature + pressure (6 data bytes, temperature first), temperature
    /// or pressure alone (3), sensor time (3), configuration change/error (1). The empty-FIFO
    /// header (0x80) ends a read at the parser's `default`.
    static let frameTemperaturePressure: UInt8 = 0x94
    static let frameTemperature: UInt8 = 0x90
    static let framePressure: UInt8 = 0x84
    static let frameSensorTime: UInt8 = 0xA0
    static let frameConfigChange: UInt8 = 0x48
    static let frameConfigError: UInt8 = 0x44
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

public final class BoschBMP3Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    /// The FIFO holds 512 bytes (§3.6): 73 frames of 7 bytes.
    static let fifoBytes = 512
    /// Pressure + temperature frames of 7 bytes the FIFO holds.
    public var fifoCapacitySets: Int { usesFIFO ? Self.fifoBytes / 7 : 0 }
    public private(set) var fifoOverflows = 0
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
        try device.writeByte(BMP3Register.command, BoschCommand.softReset)
        wait(seconds: Self.startSeconds)
        calibration = BMP3Calibration(bytes: try device.read(BMP3Register.calibration, count: 21))
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(BMP3Register.oversampling, BMP3Register.standardOversampling)
        try device.writeByte(BMP3Register.outputRate, code)
        try device.writeByte(BMP3Register.config, BMP3Register.filter3)
        usesFIFO = useFIFO
        if useFIFO {
            try device.writeByte(BMP3Register.fifoConfig1, BMP3Register.fifoPressureTemperature)
            try device.writeByte(BMP3Register.fifoConfig2, BMP3Register.fifoFiltered)
            try device.writeByte(BMP3Register.command, BoschCommand.fifoFlush)
        }
        try device.writeByte(BMP3Register.powerControl, BMP3Register.normalBoth)
        let err = try device.readByte(BMP3Register.error)
        guard err & 0x07 == 0 else {
            throw I2CError(kind: .io, bus: device.bus.path, address: device.address, operation: "\(model.name) rejected its configuration (ERR_REG \(I2CAddress.hex(err)))")
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard let cal = calibration else { throw badResponse("read before configure") }
        func u24(_ b: [UInt8], _ i: Int) -> Double { Double(UInt32(b[i + 2]) << 16 | UInt32(b[i + 1]) << 8 | UInt32(b[i])) }
        func reading(rawP: Double, rawT: Double) -> ChipReading {
            let t = cal.temperature(raw: rawT)
            return ChipReading(pressure: cal.pressure(raw: rawP, temperature: t) / Units.pascalsPerHectopascal, temperature: t)
        }
        guard usesFIFO else {
            let b = try device.read(BMP3Register.pressureXLSB, count: 6)
            let rawP = u24(b, 0), rawT = u24(b, 3)
            guard rawP != 0 || rawT != 0 else { return [] }   // no conversion yet
            return [reading(rawP: rawP, rawT: rawT)]
        }
        let l = try device.read(BMP3Register.fifoLength, count: 2)
        let available = min((Int(l[1]) << 8 | Int(l[0])) & 0x01FF, Self.fifoBytes)
        // fifo_stop_on_full is off: a full FIFO overwrites its oldest frames (§3.6).
        if available >= Self.fifoBytes / 7 * 7 { fifoOverflows += 1 }
        guard available > 0 else { return [] }
        let b = try device.read(BMP3Register.fifoData, count: available, walk: .fifoPort(wordBytes: 7))
        var out: [ChipReading] = []
        var i = 0
        // Frames by header; anything unknown means the stream is misaligned: stop there.
        parsing: while i < b.count {
            let payload: Int
            switch b[i] {
            case BMP3Register.frameTemperaturePressure:
                guard i + 7 <= b.count else { break parsing }
                out.append(reading(rawP: u24(b, i + 4), rawT: u24(b, i + 1)))
                payload = 6
            case BMP3Register.frameTemperature, BMP3Register.framePressure, BMP3Register.frameSensorTime: payload = 3
            case BMP3Register.frameConfigChange, BMP3Register.frameConfigError: payload = 1
            default: break parsing   // empty-FIFO frame or misaligned data
            }
            i += 1 + payload
        }
        return out
    }
}

extension ChipModel {
    static func bmp3(name: String, id: UInt8) -> ChipModel {
        ChipModel(name: name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x76, 0x77], idRegister: BMP3Register.chipID, idValue: id, hasFIFO: true,
                  makeDriver: { BoschBMP3Driver(model: .bmp3(name: name, id: id), device: $0) })
    }
}
