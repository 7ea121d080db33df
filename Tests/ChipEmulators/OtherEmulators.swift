import Foundation
import IMUSensors

/// ADXL345 (rev. G): DEVID 0xE5, little-endian data at 0x32 that pops one FIFO entry per burst from
/// 0x32, full-resolution 3.9 mg/LSB with 10…13-bit limits, FIFO of 32 entries.
public final class ADXL345Emulator: EmulatedChip, @unchecked Sendable {
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

/// DPS310 (v01_02): product ID 0x10 at 0x0D, 24-bit big-endian raw values scaled by the
/// configured oversampling's kP/kT, coefficients packed at 0x10 (12/20/16-bit fields).
public final class DPS310Emulator: EmulatedChip, @unchecked Sendable {
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
