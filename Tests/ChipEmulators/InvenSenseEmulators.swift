import Foundation
import IMUSensors

let degreesPerRadian = 180.0 / Double.pi

/// MPU-6050 / 9150 / 6500 / 9250 (RM-MPU-6000A-00, RM-MPU-6500A-00): big-endian data at 0x3B,
/// sleep after power-on (PWR_MGMT_1 = 0x40), FIFO of 1024 (6050) or 512 (6500) bytes popped at FIFO_R_W.
public final class MPUEmulator: EmulatedChip {
    public let whoAmI: UInt8
    let temperatureDivisor: Double
    let temperatureOffset: Double
    let capacity: Int

    public init(whoAmI: UInt8 = 0x68, motion: @escaping MotionScript = Motions.still) {
        self.whoAmI = whoAmI
        let is6500 = whoAmI == 0x70 || whoAmI == 0x71
        temperatureDivisor = is6500 ? 333.87 : 340
        temperatureOffset = is6500 ? 21 : 36.53
        capacity = is6500 ? 512 : 1024
        super.init(motion: motion)
    }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x75] = whoAmI
        registers[0x6B] = 0x40   // SLEEP
    }

    public override var outputRateHz: Double {
        guard registers[0x6B] & 0x40 == 0 else { return 0 }
        let dlpf = registers[0x1A] & 0x07
        let base = (1...6).contains(dlpf) ? 1000.0 : 8000.0
        return base / Double(1 + Int(registers[0x19]))
    }
    public override var fifoCapacity: Int { capacity }
    /// FIFO_R_W does not auto-increment: a burst there drains the FIFO (RM §4.31).
    public override func autoIncrements(_ register: UInt8) -> Bool { register != 0x74 }

    public override func produce(_ truth: MotionTruth) {
        let accelLSB = 16384.0 / Double(1 << Int((registers[0x1C] >> 3) & 3))
        let gyroLSB = 131.0 / Double(1 << Int((registers[0x1B] >> 3) & 3))
        let a = truth.acceleration * accelLSB
        let g = truth.rotationRate * degreesPerRadian * gyroLSB
        let values = [a.x, a.y, a.z, (truth.temperature - temperatureOffset) * temperatureDivisor, g.x, g.y, g.z]
        for (i, v) in values.enumerated() { putBE(0x3B + 2 * i, Self.int16(v)) }
        // FIFO order follows register order: accel (FIFO_EN bit 3), temperature (bit 7), gyro X/Y/Z (bits 6…4).
        guard registers[0x6A] & 0x40 != 0 else { return }
        let en = registers[0x23]
        var frame: [UInt8] = []
        if en & 0x08 != 0 { frame += Array(registers[0x3B...0x40]) }
        if en & 0x80 != 0 { frame += Array(registers[0x41...0x42]) }
        if en & 0x40 != 0 { frame += Array(registers[0x43...0x44]) }
        if en & 0x20 != 0 { frame += Array(registers[0x45...0x46]) }
        if en & 0x10 != 0 { frame += Array(registers[0x47...0x48]) }
        push(fifo: frame)
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register {
        case 0x72: return UInt8(fifo.count >> 8)
        case 0x73: return UInt8(fifo.count & 0xFF)
        case 0x74: return popFIFO()
        default: return nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x6B where value & 0x80 != 0: powerOnReset()   // DEVICE_RESET
        case 0x6A:
            if value & 0x04 != 0 { fifo = [] }              // FIFO_RESET, self-clearing
            registers[0x6A] = value & ~0x04
        default: super.writeRegister(register, value)
        }
    }
}

/// The AK8975 magnetometer inside an MPU-9150: reachable at 0x0C only while the MPU's
/// INT_PIN_CFG I2C_BYPASS_EN (bit 1) is set. WIA (0x00) = 0x48.
public final class AK8975Emulator: EmulatedChip {
    let host: MPUEmulator
    public init(host: MPUEmulator) {
        self.host = host
        super.init(motion: Motions.still)
    }
    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x00] = 0x48
    }
    public override var isReachable: Bool { host.registers[0x37] & 0x02 != 0 }
}

/// ICM-42688-P (DS-000347): big-endian data at 0x1D, sensors off after reset, 16-byte FIFO packets.
public final class ICM42688Emulator: EmulatedChip {
    /// ODR code → Hz (§14.37).
    static let rates: [UInt8: Double] = [6: 1000, 15: 500, 7: 200, 8: 100, 9: 50, 10: 25, 11: 12.5]

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x75] = 0x47
        registers[0x4F] = 0x06   // GYRO_CONFIG0 reset: ±2000 °/s, 1 kHz
        registers[0x50] = 0x06   // ACCEL_CONFIG0 reset: ±16 g, 1 kHz
    }

    public override var outputRateHz: Double {
        guard registers[0x4E] & 0x03 == 0x03 else { return 0 }   // accel not in low-noise mode
        return Self.rates[registers[0x50] & 0x0F] ?? 0
    }
    public override var fifoCapacity: Int { 2048 }
    /// FIFO_DATA does not auto-increment: bursts there drain the FIFO.
    public override func autoIncrements(_ register: UInt8) -> Bool { register != 0x30 }

    public override func produce(_ truth: MotionTruth) {
        let accelLSB = 2048.0 * Double(1 << Int(registers[0x50] >> 5))
        let gyroLSB = 16.4 * Double(1 << Int(registers[0x4F] >> 5))
        let a = truth.acceleration * accelLSB
        let g = truth.rotationRate * degreesPerRadian * gyroLSB
        putBE(0x1D, Self.int16((truth.temperature - 25) * 132.48))
        for (i, v) in [a.x, a.y, a.z, g.x, g.y, g.z].enumerated() { putBE(0x1F + 2 * i, Self.int16(v)) }
        guard registers[0x16] & 0xC0 != 0, registers[0x5F] & 0x03 == 0x03 else { return }
        // Packet 3: header (accel 6, gyro 5, timestamp 3), accel, gyro, temperature (1 byte), timestamp (2).
        let temp = UInt8(bitPattern: Int8(max(-128, min(127, ((truth.temperature - 25) * 2.07).rounded()))))
        push(fifo: [0x68] + Array(registers[0x1F...0x2A]) + [temp, UInt8(samplesProduced >> 8 & 0xFF), UInt8(samplesProduced & 0xFF)])
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register {
        case 0x2E: return UInt8(fifo.count >> 8)
        case 0x2F: return UInt8(fifo.count & 0xFF)
        case 0x30: return popFIFO(empty: 0x80)   // empty marker header
        default: return nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        switch register {
        case 0x11 where value & 0x01 != 0: powerOnReset()
        case 0x4B:
            if value & 0x02 != 0 { fifo = [] }
        default: super.writeRegister(register, value)
        }
    }
}
