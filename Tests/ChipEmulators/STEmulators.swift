import Foundation
import IMUSensors

/// LSM6DS3 / LSM6DSL / LSM6DSO (ST datasheets): little-endian data, IF_INC (CTRL3_C bit 2) governs
/// auto-increment, SW_RESET self-clears after one read, pattern FIFO (DS3/DSL) or tagged FIFO (DSO).
public final class LSM6DSEmulator: EmulatedChip {
    public let whoAmI: UInt8
    let temperatureLSB: Double
    var tagged: Bool { whoAmI == 0x6C }
    var resetPending = false
    /// Words popped from the pattern FIFO (for FIFO_STATUS3/4's pattern index).
    var wordsPopped = 0
    /// ODR code → Hz (CTRL1_XL).
    static let rates: [UInt8: Double] = [1: 12.5, 2: 26, 3: 52, 4: 104, 5: 208, 6: 416, 7: 833, 8: 1666]
    /// FS_XL → mg/LSB: 00 ±2 g, 01 ±16 g, 10 ±4 g, 11 ±8 g.
    static let accelMgPerLSB: [Double] = [0.061, 0.488, 0.122, 0.244]
    /// FS_G → m°/s per LSB: 250, 500, 1000, 2000 °/s.
    static let gyroMdpsPerLSB: [Double] = [8.75, 17.5, 35, 70]

    public init(whoAmI: UInt8 = 0x69, motion: @escaping MotionScript = Motions.still) {
        self.whoAmI = whoAmI
        temperatureLSB = whoAmI == 0x69 ? 16 : 256
        super.init(motion: motion)
    }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x0F] = whoAmI
        registers[0x12] = 0x04   // CTRL3_C: IF_INC
        wordsPopped = 0
    }

    public override var outputRateHz: Double { Self.rates[registers[0x10] >> 4] ?? 0 }
    public override var fifoCapacity: Int { 4096 }
    public override func autoIncrements(_ register: UInt8) -> Bool { registers[0x12] & 0x04 != 0 }
    /// FIFO output registers roll back: 0x3F → 0x3E (DS3/DSL), 0x7E → 0x78 (DSO).
    public override func nextRegister(after register: UInt8) -> UInt8 {
        if !tagged && register == 0x3F { return 0x3E }
        if tagged && register == 0x7E { return 0x78 }
        return register &+ 1
    }

    var fifoOn: Bool { registers[0x0A] & 0x07 == 0x06 }

    public override func produce(_ truth: MotionTruth) {
        let a = truth.acceleration * (1000 / Self.accelMgPerLSB[Int(registers[0x10] >> 2 & 3)])
        let g = truth.rotationRate * degreesPerRadian * (1000 / Self.gyroMdpsPerLSB[Int(registers[0x11] >> 2 & 3)])
        putLE(0x20, Self.int16((truth.temperature - 25) * temperatureLSB))
        for (i, v) in [g.x, g.y, g.z, a.x, a.y, a.z].enumerated() { putLE(0x22 + 2 * i, Self.int16(v)) }
        guard fifoOn else { return }
        if tagged {
            guard registers[0x09] != 0 else { return }
            push(fifo: [0x01 << 3] + Array(registers[0x22...0x27]))
            push(fifo: [0x02 << 3] + Array(registers[0x28...0x2D]))
        } else {
            guard registers[0x0A] >> 3 != 0 else { return }
            push(fifo: Array(registers[0x22...0x2D]))   // pattern: gyro X,Y,Z then accel X,Y,Z
        }
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register {
        case 0x12:
            let v = registers[0x12]
            if resetPending { resetPending = false; registers[0x12] &= ~0x01 }   // SW_RESET clears after it was seen once
            return v
        case 0x3A:
            return UInt8((tagged ? fifo.count / 7 : fifo.count / 2) & 0xFF)
        case 0x3B:
            return UInt8((tagged ? fifo.count / 7 : fifo.count / 2) >> 8)
        case 0x3C where !tagged: return UInt8((wordsPopped % 6) & 0xFF)
        case 0x3D where !tagged: return 0
        case 0x3E, 0x3F:
            guard !tagged else { return nil }
            if !fifo.isEmpty && fifo.count % 2 == 1 { wordsPopped += 1 }
            return popFIFO()
        case 0x78...0x7E:
            return tagged ? popFIFO() : nil
        default: return nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if register == 0x12 && value & 0x01 != 0 {
            powerOnReset()
            registers[0x12] = 0x05
            resetPending = true
            return
        }
        if register == 0x0A && value & 0x07 == 0 { fifo = []; wordsPopped = 0 }   // bypass mode empties the FIFO
        super.writeRegister(register, value)
    }
}

/// LSM9DS1 accel/gyro (DocID025715): gyro at 0x18, accel at 0x28, temperature at 0x15, IF_ADD_INC in CTRL_REG8.
public final class LSM9DS1Emulator: EmulatedChip {
    var resetPending = false
    static let rates: [UInt8: Double] = [1: 14.9, 2: 59.5, 3: 119, 4: 238, 5: 476, 6: 952]
    static let gyroMdpsPerLSB: [Double] = [8.75, 17.5, 0, 70]     // FS_G 10 is not available
    static let accelMgPerLSB: [Double] = [0.061, 0.732, 0.122, 0.244]

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x0F] = 0x68
        registers[0x22] = 0x04
        sets = []
    }
    public override var outputRateHz: Double { Self.rates[registers[0x10] >> 5] ?? 0 }
    public override func autoIncrements(_ register: UInt8) -> Bool { registers[0x22] & 0x04 != 0 }
    /// FIFO sets (gyro 6 bytes + accel 6 bytes), 32 deep.
    var sets: [[UInt8]] = []
    var fifoOn: Bool { registers[0x23] & 0x02 != 0 && registers[0x2E] >> 5 != 0 }

    /// With the FIFO on, a burst from OUT_X_L_G pops the next set into the output registers; the
    /// accel burst that follows reads the same set.
    public override func read(register: UInt8, count: Int) -> [UInt8] {
        if fifoOn, register == 0x18, !sets.isEmpty {
            let set = sets.removeFirst()
            for i in 0..<6 { registers[0x18 + i] = set[i]; registers[0x28 + i] = set[6 + i] }
        }
        return super.read(register: register, count: count)
    }

    public override func produce(_ truth: MotionTruth) {
        let gScale = Self.gyroMdpsPerLSB[Int(registers[0x10] >> 3 & 3)]
        let a = truth.acceleration * (1000 / Self.accelMgPerLSB[Int(registers[0x20] >> 3 & 3)])
        let g = truth.rotationRate * degreesPerRadian * (gScale > 0 ? 1000 / gScale : 0)
        putLE(0x15, Self.int16((truth.temperature - 25) * 16))
        for (i, v) in [g.x, g.y, g.z].enumerated() { putLE(0x18 + 2 * i, Self.int16(v)) }
        for (i, v) in [a.x, a.y, a.z].enumerated() { putLE(0x28 + 2 * i, Self.int16(v)) }
        if fifoOn {
            sets.append(Array(registers[0x18...0x1D]) + Array(registers[0x28...0x2D]))
            if sets.count > 32 { sets.removeFirst() }
        }
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        if register == 0x2F { return UInt8(min(sets.count, 32)) | (sets.count >= 32 ? 0x40 : 0) }
        guard register == 0x22 else { return nil }
        let v = registers[0x22]
        if resetPending { resetPending = false; registers[0x22] &= ~0x01 }
        return v
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if register == 0x22 && value & 0x01 != 0 {
            powerOnReset()
            registers[0x22] = value
            resetPending = true
            return
        }
        super.writeRegister(register, value)
    }
}

/// LPS22HB (WHO_AM_I 0xB1) and LPS25H (0xBD). The LPS25H auto-increments only when bit 7 of the
/// sub-address is set; the LPS22HB when IF_ADD_INC (CTRL_REG2 bit 4) is set (its reset value).
public final class LPSEmulator: EmulatedChip {
    public let whoAmI: UInt8
    var is25H: Bool { whoAmI == 0xBD }
    var control1: Int { is25H ? 0x20 : 0x10 }
    var control2: Int { is25H ? 0x21 : 0x11 }
    var resetPending = false

    public init(whoAmI: UInt8 = 0xB1, motion: @escaping MotionScript = Motions.still) {
        self.whoAmI = whoAmI
        super.init(motion: motion)
    }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x0F] = whoAmI
        if !is25H { registers[0x11] = 0x10 }
    }

    public override var outputRateHz: Double {
        let code = Int(registers[control1] >> 4 & 0x07)
        if is25H {
            guard registers[0x20] & 0x80 != 0 else { return 0 }   // PD: powered down
            return [0, 1, 7, 12.5, 25][min(code, 4)]
        }
        return [0, 1, 10, 25, 50, 75][min(code, 5)]
    }

    public override func autoIncrements(_ register: UInt8) -> Bool {
        is25H ? register & 0x80 != 0 : registers[0x11] & 0x10 != 0
    }
    /// FIFO_CTRL: LPS22HB 0x14, LPS25H 0x2E; F_MODE[7:5] (000 bypass, 001 FIFO, 010 stream).
    var fifoControl: Int { is25H ? 0x2E : 0x14 }
    /// The FIFO runs with CTRL_REG2 FIFO_EN (bit 6) and a mode other than bypass.
    var fifoOn: Bool { registers[control2] & 0x40 != 0 && registers[fifoControl] >> 5 != 0 }
    /// A slot: LPS22HB pressure + temperature (5 bytes); LPS25H pressure only (3 bytes, AN4450 §5.1).
    var slotBytes: Int { is25H ? 3 : 5 }
    /// The last register of a slot, after which a burst rolls back to PRESS_OUT_XL in FIFO mode.
    var slotEnd: UInt8 { is25H ? 0x2A : 0x2C }
    /// 32 slots.
    public override var fifoCapacity: Int { 32 * slotBytes }
    /// Unread slots, for tests.
    public var fifoSlots: Int { fifo.count / slotBytes }
    public override func nextRegister(after register: UInt8) -> UInt8 {
        fifoOn && register == slotEnd ? 0x28 : register &+ 1
    }
    public override func read(register: UInt8, count: Int) -> [UInt8] {
        guard is25H else { return super.read(register: register, count: count) }
        // The MSB of the sub-address only asks for auto-increment; the register is the low 7 bits.
        let increments = register & 0x80 != 0
        var r = register & 0x7F
        var out: [UInt8] = []
        for _ in 0..<count {
            out.append(readComputed(r) ?? registers[Int(r)])
            if increments { r = nextRegister(after: r) }
        }
        return out
    }

    public override func produce(_ truth: MotionTruth) {
        let p = Int32((truth.pressure * 4096).rounded())
        registers[0x28] = UInt8(p & 0xFF); registers[0x29] = UInt8(p >> 8 & 0xFF); registers[0x2A] = UInt8(p >> 16 & 0xFF)
        let t = is25H ? (truth.temperature - 42.5) * 480 : truth.temperature * 100
        putLE(0x2B, Self.int16(t))
        guard fifoOn else { return }
        // FIFO mode (001) stops when full; stream mode (010) drops the oldest slot (push does that).
        if registers[fifoControl] >> 5 == 1 && fifoSlots == 32 { return }
        push(fifo: Array(registers[0x28...Int(slotEnd)]))
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        if fifoOn {
            if !is25H && register == 0x26 { return UInt8(fifoSlots) }   // FSS[5:0]
            if is25H && register == 0x2F {
                // FSS[4:0] cannot say 32: FULL_FIFO (bit 6) does; EMPTY_FIFO is bit 5.
                return UInt8(fifoSlots & 0x1F) | (fifoSlots == 32 ? 0x40 : 0) | (fifoSlots == 0 ? 0x20 : 0)
            }
            if (0x28...slotEnd).contains(register) { return popFIFO() }
        }
        guard Int(register) == control2 else { return nil }
        let v = registers[control2]
        if resetPending { resetPending = false; registers[control2] &= ~0x04 }
        return v
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if Int(register) == control2 && value & 0x04 != 0 {
            powerOnReset()
            registers[control2] |= 0x04
            resetPending = true
            return
        }
        if Int(register) == fifoControl && value >> 5 == 0 { fifo = [] }   // bypass mode empties the FIFO
        super.writeRegister(register, value)
    }
}
