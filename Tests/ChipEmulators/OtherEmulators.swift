import Foundation
import IMUSensors

/// ADXL345 (rev. G): DEVID 0xE5, little-endian data at 0x32 that pops one FIFO entry per burst from
/// 0x32, full-resolution 3.9 mg/LSB with 10…13-bit limits, FIFO of 32 entries.
public final class ADXL345Emulator: EmulatedChip {
    var entries: [[UInt8]] = []

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x00] = 0xE5
        registers[0x2C] = 0x0A
        entries = []
    }
    public override var outputRateHz: Double {
        guard registers[0x2D] & 0x08 != 0 else { return 0 }
        return 3200 / pow(2, Double(15 - Int(registers[0x2C] & 0x0F)))   // code 15 = 3200 Hz, halving per step
    }

    public override func produce(_ truth: MotionTruth) {
        let range = Int(registers[0x31] & 0x03)
        let fullRes = registers[0x31] & 0x08 != 0
        let lsbPerG = fullRes ? 256.0 : 256.0 / Double(1 << range)
        let limit = fullRes ? 512 << range : 512
        let raw = [truth.acceleration.x, truth.acceleration.y, truth.acceleration.z].map {
            Int16(max(Double(-limit), min(Double(limit - 1), ($0 * lsbPerG).rounded())))
        }
        let bytes = raw.flatMap { Self.le($0) }
        if registers[0x38] & 0xC0 != 0 {
            entries.append(bytes)
            if entries.count > 32 { entries.removeFirst() }
        } else {
            for (i, b) in bytes.enumerated() { registers[0x32 + i] = b }
        }
    }

    public override func read(register: UInt8, count: Int) -> [UInt8] {
        if register == 0x32, !entries.isEmpty {
            let e = entries.removeFirst()
            for (i, b) in e.enumerated() { registers[0x32 + i] = b }
        }
        return super.read(register: register, count: count)
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        register == 0x39 ? UInt8(entries.count) : nil
    }
}

/// LIS3DH (DocID17530): WHO_AM_I 0x33 at 0x0F; registers 0x00–0x3F, a multi-byte access
/// advancing only with bit 7 of the sub-address set; little-endian left-justified data at 0x28
/// (12 bits in high-resolution mode, 10 in normal mode; 1/2/4/12 mg per 12-bit digit at
/// ±2/4/8/16 g); a 32-entry FIFO that pops one entry per read from OUT_X_L, counted in
/// FIFO_SRC_REG (FSS[4:0], OVRN_FIFO when all 32 are unread).
public final class LIS3DHEmulator: EmulatedChip {
    var entries: [[UInt8]] = []

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x0F] = 0x33
        registers[0x20] = 0x07
        entries = []
    }

    /// CTRL_REG1 ODR codes 1…9 (code 8 is low-power only; 9 is 1.344 kHz in normal mode).
    static let rates: [Double] = [0, 1, 10, 25, 50, 100, 200, 400, 1620, 1344]
    public override var outputRateHz: Double {
        let code = Int(registers[0x20] >> 4)
        return code < Self.rates.count ? Self.rates[code] : 0
    }

    public override func produce(_ truth: MotionTruth) {
        let mgPerDigit = [1.0, 2.0, 4.0, 12.0][Int(registers[0x23] >> 4 & 0x03)]
        let highResolution = registers[0x23] & 0x08 != 0
        let raw = [truth.acceleration.x, truth.acceleration.y, truth.acceleration.z].map { g -> Int16 in
            var digits = Int((g * 1000 / mgPerDigit).rounded())
            digits = max(-2048, min(2047, digits))
            if !highResolution { digits &= ~0x3 }   // normal mode: 10 significant bits
            return Int16(digits << 4)
        }
        let bytes = raw.flatMap { Self.le($0) }
        if registers[0x24] & 0x40 != 0, registers[0x2E] & 0xC0 != 0 {
            entries.append(bytes)
            if entries.count > 32 { entries.removeFirst() }
        } else {
            for (i, b) in bytes.enumerated() { registers[0x28 + i] = b }
        }
    }

    public override func autoIncrements(_ register: UInt8) -> Bool { register & 0x80 != 0 }

    public override func read(register: UInt8, count: Int) -> [UInt8] {
        let base = register & 0x7F
        if base == 0x28, !entries.isEmpty {
            let e = entries.removeFirst()
            for (i, b) in e.enumerated() { registers[0x28 + i] = b }
        }
        return super.read(register: register, count: count)
    }

    public override func nextRegister(after register: UInt8) -> UInt8 { (register & 0x80) | ((register &+ 1) & 0x7F) }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register & 0x7F {
        case 0x2F:
            let n = entries.count
            return (n >= 32 ? 0x40 : 0) | (n == 0 ? 0x20 : 0) | UInt8(min(n, 31))
        default:
            // The data and configuration live at the address without the increment bit.
            return register & 0x80 != 0 ? registers[Int(register & 0x7F)] : nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        let r = register & 0x7F
        // Passing through bypass mode empties the FIFO.
        if r == 0x2E, value & 0xC0 == 0 { entries = [] }
        registers[Int(r)] = value
    }
}

/// DPS310 (v01_02): product ID 0x10 at 0x0D, 24-bit big-endian raw values scaled by the
/// configured oversampling's kP/kT, coefficients packed at 0x10 (12/20/16-bit fields).
public final class DPS310Emulator: EmulatedChip {
    /// c0, c1, c00, c10, c01, c11, c20, c21, c30: plausible factory values.
    public static let coefficients: [Int] = [204, -261, 80469, -54769, -2430, 1311, -10432, 232, -1284]
    /// kP/kT by PM_PRC / TMP_PRC (§4.9.3 Table 9).
    static let scale: [Double] = [524288, 1572864, 3670016, 7864320, 253952, 516096, 1040384, 2088960]

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x0D] = 0x10
        registers[0x08] = 0xC0   // COEF_RDY | SENSOR_RDY
        registers[0x28] = 0x80   // coefficients made with the external (MEMS) temperature sensor
        entries = []
        let c = Self.coefficients.map { UInt32(bitPattern: Int32($0)) }
        let packed: [UInt8] = [
            UInt8(c[0] >> 4 & 0xFF), UInt8((c[0] & 0x0F) << 4 | c[1] >> 8 & 0x0F), UInt8(c[1] & 0xFF),
            UInt8(c[2] >> 12 & 0xFF), UInt8(c[2] >> 4 & 0xFF), UInt8((c[2] & 0x0F) << 4 | c[3] >> 16 & 0x0F),
            UInt8(c[3] >> 8 & 0xFF), UInt8(c[3] & 0xFF),
        ] + c[4...].flatMap { [UInt8($0 >> 8 & 0xFF), UInt8($0 & 0xFF)] }
        for (i, b) in packed.enumerated() { registers[0x10 + i] = b }
    }

    public override var outputRateHz: Double {
        guard registers[0x08] & 0x07 == 0x07 else { return 0 }
        return pow(2, Double(registers[0x06] >> 4 & 0x07))
    }

    public override func produce(_ truth: MotionTruth) {
        let c = Self.coefficients.map(Double.init)
        let kP = Self.scale[Int(registers[0x06] & 0x0F) & 7], kT = Self.scale[Int(registers[0x07] & 0x07)]
        let tRaw = Self.invert(truth.temperature, in: -0x800000...0x7FFFFF) { c[0] * 0.5 + c[1] * Double($0) / kT }
        let ts = Double(tRaw) / kT
        let pRaw = Self.invert(truth.pressure * 100, in: Int(-kP)...Int(kP / 2)) { raw in
            let p = Double(raw) / kP
            return c[2] + p * (c[3] + p * (c[6] + p * c[8])) + ts * c[4] + ts * p * (c[5] + p * c[7])
        }
        if fifoOn {
            // Temperature then pressure, bit 0 flagging the kind (1 pressure, 0 temperature). A full
            // FIFO stores nothing more.
            for word in [tRaw & ~1, pRaw | 1] where entries.count < 32 { entries.append(Self.be24(word)) }
            return
        }
        for (base, v) in [(0x00, pRaw), (0x03, tRaw)] {
            for (i, b) in Self.be24(v).enumerated() { registers[base + i] = b }
        }
    }

    /// FIFO results (3 bytes, big endian), oldest first; at most 32.
    public private(set) var entries: [[UInt8]] = []
    /// CFG_REG FIFO_EN (bit 1).
    var fifoOn: Bool { registers[0x09] & 0x02 != 0 }

    static func be24(_ v: Int) -> [UInt8] {
        let u = UInt32(bitPattern: Int32(v))
        return [UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
    }

    /// With the FIFO on, a read from PSR_B2 pops the oldest result into PSR_B2…B0, or 0x800000 when
    /// the FIFO is empty.
    public override func read(register: UInt8, count: Int) -> [UInt8] {
        if fifoOn, register == 0x00 {
            let e = entries.isEmpty ? [0x80, 0x00, 0x00] : entries.removeFirst()
            for (i, b) in e.enumerated() { registers[i] = b }
        }
        return super.read(register: register, count: count)
    }

    /// FIFO_STS: FIFO_FULL bit 1, FIFO_EMPTY bit 0.
    public override func readComputed(_ register: UInt8) -> UInt8? {
        guard register == 0x0B else { return nil }
        return (entries.count >= 32 ? 0x02 : 0) | (entries.isEmpty ? 0x01 : 0)
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if register == 0x0C {
            if value & 0x80 != 0 { entries = [] }   // FIFO_FLUSH
            if value & 0x0F == 0x09 { powerOnReset() }
            return
        }
        if register == 0x08 {   // only MEAS_CTRL is writable; the ready bits stay
            registers[0x08] = registers[0x08] & 0xF8 | value & 0x07
            return
        }
        super.writeRegister(register, value)
    }
}
