import Foundation
import IMUSensors

/// BMI160 (BST-BMI160-DS000): little-endian gyro at 0x0C and accel at 0x12, sensors suspended until
/// CMD 0x11/0x15, headerless FIFO frames (gyro, accel) popped at FIFO_DATA (no auto-increment there).
public final class BMI160Emulator: EmulatedChip {
    var accelOn = false
    var gyroOn = false

    public override init(motion: @escaping MotionScript = Motions.still) { super.init(motion: motion) }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x00] = 0xD1
        registers[0x40] = 0x28; registers[0x41] = 0x03; registers[0x42] = 0x28; registers[0x43] = 0x00
        accelOn = false
        gyroOn = false
    }
    public override var outputRateHz: Double {
        guard accelOn else { return 0 }
        return 100 * pow(2, Double(Int(registers[0x40] & 0x0F) - 8))   // code 8 = 100 Hz, ×2 per step
    }
    public override var fifoCapacity: Int { 1024 }
    public override func autoIncrements(_ register: UInt8) -> Bool { register != 0x24 }

    public override func produce(_ truth: MotionTruth) {
        let accelLSB: Double = [3: 16384, 5: 8192, 8: 4096, 12: 2048][registers[0x41]] ?? 16384
        let gyroLSB = 16.4 * Double(1 << Int(registers[0x43] & 0x07))
        let a = truth.acceleration * accelLSB
        let g = gyroOn ? truth.rotationRate * degreesPerRadian * gyroLSB : .zero
        for (i, v) in [g.x, g.y, g.z, a.x, a.y, a.z].enumerated() { putLE(0x0C + 2 * i, Self.int16(v)) }
        putLE(0x20, Self.int16((truth.temperature - 23) * 512))
        if registers[0x47] & 0xC0 == 0xC0 && registers[0x47] & 0x10 == 0 { push(fifo: Array(registers[0x0C...0x17])) }
    }

    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register {
        case 0x22: return UInt8(fifo.count & 0xFF)
        case 0x23: return UInt8(fifo.count >> 8)
        case 0x24: return popFIFO(empty: 0x80)
        default: return nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        guard register == 0x7E else { return super.writeRegister(register, value) }
        switch value {
        case 0xB6: powerOnReset()
        case 0x11: accelOn = true
        case 0x15: gyroOn = true
        case 0xB0: fifo = []
        default: break
        }
    }
}

/// The datasheet's example calibration (BMP280 §3.12): T1=27504, T2=26435, T3=−1000, P1=36477,
/// P2=−10685, P3=3024, P4=2855, P5=140, P6=−7, P7=15500, P8=−14600, P9=6000.
public let bmp280ExampleCalibration: [Int] = [27504, 26435, -1000, 36477, -10685, 3024, 2855, 140, -7, 15500, -14600, 6000]

/// BMP280 (id 0x58) / BME280 (0x60): calibration at 0x88, 20-bit ADC values at 0xF7 that the
/// emulator finds by inverting the datasheet's floating-point compensation (§8.1), so the driver's
/// integer path (§8.2) is checked against an independent formula.
public final class BMP280Emulator: EmulatedChip {
    public let id: UInt8
    public var calibration: [Int]

    public init(id: UInt8 = 0x58, calibration: [Int] = bmp280ExampleCalibration, motion: @escaping MotionScript = Motions.still) {
        self.id = id
        self.calibration = calibration
        super.init(motion: motion)
    }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0xD0] = id
        for (i, c) in calibration.enumerated() { putLE(0x88 + 2 * i, Int16(truncatingIfNeeded: c)) }
        // Reset values: press_msb 0x80, temp_msb 0x80 → the 0x80000 "skipped" value.
        registers[0xF7] = 0x80; registers[0xFA] = 0x80
    }

    public override var outputRateHz: Double {
        guard registers[0xF4] & 0x03 == 0x03 else { return 0 }
        let osT = [0, 1, 2, 4, 8, 16, 16, 16][Int(registers[0xF4] >> 5)]
        let osP = [0, 1, 2, 4, 8, 16, 16, 16][Int(registers[0xF4] >> 2 & 7)]
        let tMeas = 1 + 2 * Double(osT) + (osP > 0 ? 2 * Double(osP) + 0.5 : 0)
        let standby = id == 0x60 ? [0.5, 62.5, 125, 250, 500, 1000, 10, 20] : [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000]
        return 1000 / (tMeas + standby[Int(registers[0xF5] >> 5)])
    }

    /// Datasheet §8.1 floating-point temperature (°C) and t_fine.
    func floatTemperature(_ adcT: Int) -> (Double, Double) {
        let c = calibration.map(Double.init)
        let v1 = (Double(adcT) / 16384 - c[0] / 1024) * c[1]
        let d = Double(adcT) / 131072 - c[0] / 8192
        let tFine = v1 + d * d * c[2]
        return (tFine / 5120, tFine)
    }
    /// Datasheet §8.1 floating-point pressure (Pa).
    func floatPressure(_ adcP: Int, tFine: Double) -> Double {
        let c = calibration.map(Double.init)
        var v1 = tFine / 2 - 64000
        var v2 = v1 * v1 * c[8] / 32768
        v2 += v1 * c[7] * 2
        v2 = v2 / 4 + c[6] * 65536
        v1 = (c[5] * v1 * v1 / 524288 + c[4] * v1) / 524288
        v1 = (1 + v1 / 32768) * c[3]
        var p = 1048576 - Double(adcP)
        p = (p - v2 / 4096) * 6250 / v1
        return p + (c[11] * p * p / 2147483648 + p * c[10] / 32768 + c[9]) / 16
    }

    public override func produce(_ truth: MotionTruth) {
        let adcT = Self.invert(truth.temperature, in: 0...0xFFFFF) { floatTemperature($0).0 }
        let tFine = floatTemperature(adcT).1
        let adcP = Self.invert(truth.pressure * 100, in: 0...0xFFFFF) { floatPressure($0, tFine: tFine) }
        for (base, v) in [(0xF7, adcP), (0xFA, adcT)] {
            registers[base] = UInt8(v >> 12 & 0xFF); registers[base + 1] = UInt8(v >> 4 & 0xFF); registers[base + 2] = UInt8((v & 0x0F) << 4)
        }
    }

    /// Sets the raw ADC registers directly (the datasheet example values, the skipped sentinel).
    public func setADC(pressure: Int, temperature: Int) {
        for (base, v) in [(0xF7, pressure), (0xFA, temperature)] {
            registers[base] = UInt8(v >> 12 & 0xFF); registers[base + 1] = UInt8(v >> 4 & 0xFF); registers[base + 2] = UInt8((v & 0x0F) << 4)
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if register == 0xE0 {
            if value == 0xB6 { powerOnReset() }
            return
        }
        super.writeRegister(register, value)
    }
}

/// BMP388 (0x50) / BMP390 (0x60): 24-bit little-endian raw values at 0x04, NVM calibration at 0x31.
/// Raw values come from inverting the datasheet §9 compensation with this emulator's own code.
public final class BMP3Emulator: EmulatedChip {
    public let id: UInt8
    /// NVM words T1, T2, T3, P1 … P11: plausible factory values for a BMP388.
    public static let nvm: [Int] = [27281, 19200, -7, -1053, -2925, 35, 1, 25474, 30413, 3, -6, 16167, 16, -60]

    public init(id: UInt8 = 0x50, motion: @escaping MotionScript = Motions.still) {
        self.id = id
        super.init(motion: motion)
    }

    public override func powerOnReset() {
        super.powerOnReset()
        registers[0x00] = id
        registers[0x1D] = 0x00
        // Layout (§9.1): T1 u16, T2 u16, T3 s8, P1 s16, P2 s16, P3 s8, P4 s8, P5 u16, P6 u16, P7 s8, P8 s8, P9 s16, P10 s8, P11 s8.
        let sizes = [2, 2, 1, 2, 2, 1, 1, 2, 2, 1, 1, 2, 1, 1]
        var r = 0x31
        for (v, n) in zip(Self.nvm, sizes) {
            registers[r] = UInt8(truncatingIfNeeded: v)
            if n == 2 { registers[r + 1] = UInt8(truncatingIfNeeded: v >> 8) }
            r += n
        }
    }

    public override var outputRateHz: Double {
        guard registers[0x1B] & 0x30 == 0x30, registers[0x1B] & 0x03 == 0x03 else { return 0 }
        return 200 / pow(2, Double(registers[0x1D] & 0x1F))
    }

    func compensated(rawT: Int, rawP: Int) -> (Double, Double) {
        let n = Self.nvm.map(Double.init)
        let t1 = n[0] * 256, t2 = n[1] / 1073741824, t3 = n[2] / 281474976710656
        let d = Double(rawT) - t1
        let t = d * t2 + d * d * t3
        let p1 = (n[3] - 16384) / 1048576, p2 = (n[4] - 16384) / 536870912, p3 = n[5] / 4294967296, p4 = n[6] / 137438953472
        let p5 = n[7] * 8, p6 = n[8] / 64, p7 = n[9] / 256, p8 = n[10] / 32768
        let p9 = n[11] / 281474976710656, p10 = n[12] / 281474976710656, p11 = n[13] / 36893488147419103232
        let u = Double(rawP)
        let p = (p5 + p6 * t + p7 * t * t + p8 * t * t * t) + u * (p1 + p2 * t + p3 * t * t + p4 * t * t * t)
            + u * u * (p9 + p10 * t) + u * u * u * p11
        return (t, p)
    }

    public override func produce(_ truth: MotionTruth) {
        let rawT = Self.invert(truth.temperature, in: 0...0xFFFFFF) { compensated(rawT: $0, rawP: 0).0 }
        let rawP = Self.invert(truth.pressure * 100, in: 0...0xFFFFFF) { compensated(rawT: rawT, rawP: $0).1 }
        for (base, v) in [(0x04, rawP), (0x07, rawT)] {
            registers[base] = UInt8(v & 0xFF); registers[base + 1] = UInt8(v >> 8 & 0xFF); registers[base + 2] = UInt8(v >> 16 & 0xFF)
        }
        // FIFO (fifo_mode with pressure and temperature): header 0x94, temperature then pressure.
        if registers[0x17] & 0x19 == 0x19 { push(fifo: [0x94] + Array(registers[0x07...0x09]) + Array(registers[0x04...0x06])) }
    }

    public override var fifoCapacity: Int { 512 }
    public override func autoIncrements(_ register: UInt8) -> Bool { register != 0x14 }
    public override func readComputed(_ register: UInt8) -> UInt8? {
        switch register {
        case 0x12: return UInt8(fifo.count & 0xFF)
        case 0x13: return UInt8(fifo.count >> 8)
        case 0x14: return popFIFO(empty: 0x80)
        default: return nil
        }
    }

    public override func writeRegister(_ register: UInt8, _ value: UInt8) {
        if register == 0x7E {
            if value == 0xB6 { powerOnReset() }
            if value == 0xB0 { fifo = [] }
            return
        }
        super.writeRegister(register, value)
        // ODR faster than the oversampling allows sets conf_err (ERR_REG bit 2, §4.3.2).
        if register == 0x1D && value & 0x1F == 0 && registers[0x1C] & 0x07 >= 2 { registers[0x02] |= 0x04 }
    }
}
