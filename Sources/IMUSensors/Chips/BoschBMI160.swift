/// Bosch BMI160. Datasheet BST-BMI160-DS000 rev 0.9 §2.11 (register map §2.11.1).
enum BMI160Register {
    static let chipID: UInt8 = 0x00              // CHIP_ID = 0xD1 (§2.11.1)
    static let gyroXLow: UInt8 = 0x0C            // DATA_8…19: gyro X/Y/Z then accel X/Y/Z, little endian (§2.11.4)
    static let temperatureLow: UInt8 = 0x20      // TEMPERATURE_0/1 (§2.11.8)
    static let fifoLength: UInt8 = 0x22          // FIFO_LENGTH_0/1: bytes, 11 bits (§2.11.9)
    static let fifoData: UInt8 = 0x24            // FIFO_DATA (§2.11.10)
    static let accelConfig: UInt8 = 0x40         // ACC_CONF: acc_bwp[6:4], acc_odr[3:0] (§2.11.11)
    static let accelRange: UInt8 = 0x41          // ACC_RANGE (§2.11.12)
    static let gyroConfig: UInt8 = 0x42          // GYR_CONF: gyr_bwp[5:4], gyr_odr[3:0] (§2.11.13)
    static let gyroRange: UInt8 = 0x43           // GYR_RANGE (§2.11.14)
    static let fifoConfig1: UInt8 = 0x47         // FIFO_CONFIG_1: gyr_en 7, acc_en 6, header_en 4 (§2.11.16)
    static let command: UInt8 = 0x7E             // CMD (§2.11.38)

    /// CMD codes (§2.11.38): acc_set_pmu_mode and gyr_set_pmu_mode to normal; the soft reset and
    /// FIFO flush are `BoschCommand`'s.
    static let accelNormalMode: UInt8 = 0x11
    static let gyroNormalMode: UInt8 = 0x15
    /// Normal filter mode: acc_bwp = 010 (§2.11.11), gyr_bwp = 10 (§2.11.13): 3 dB cut-off ≈ 0.4 × ODR.
    static let accelNormalFilter: UInt8 = 0x20
    static let gyroNormalFilter: UInt8 = 0x20
    /// Headerless FIFO with gyro and accel: 12-byte frames, gyro first (§2.5.3).
    static let fifoGyroAccel: UInt8 = 0xC0
}

public final class BoschBMI160Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? Self.fifoBytes / Self.frameBytes : 0 }

    /// ODR codes (§2.11.11/13): 25 Hz = 6 … 1600 Hz = 12. The gyro's lowest rate is 25 Hz.
    static let rates: [(Double, UInt8)] = [(25, 6), (50, 7), (100, 8), (200, 9), (400, 10), (800, 11), (1600, 12)]
    /// ±8 g: ACC_RANGE = 0b1000, 4096 LSB/g (Table 2).
    static let accelRangeCode: UInt8 = 0x08
    static let accelLSBPerG = 4096.0
    /// ±1000 °/s: GYR_RANGE = 1, 32.8 LSB/(°/s) (Table 3).
    static let gyroRangeCode: UInt8 = 0x01
    static let gyroLSBPerDps = 32.8
    /// 0x0000 = 23 °C, 2⁻⁹ K/LSB (§2.11.8).
    static let temperatureLSBPerC = 512.0
    static let temperatureOffsetC = 23.0
    /// Direct read: gyro, accel (12 bytes), sensor time 3, status 1, interrupt status 4, temperature 2 = 22 bytes.
    static let burstBytes = 22
    /// A headerless gyro + accel frame: two 6-byte triples (`fifoGyroAccel`).
    static let frameBytes = 2 * Raw.vectorBytes
    /// The FIFO's size, bytes (§2.5: 1024 bytes).
    static let fifoBytes = 1024
    /// Waits (kernel bmi160_core and §1.2 Table 1): soft reset 1 ms, accel normal 3.8 ms, gyro normal 80 ms.
    static let resetSeconds = 0.001
    static let accelStartSeconds = 0.0038
    static let gyroStartSeconds = 0.080

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(BMI160Register.command, BoschCommand.softReset)
        wait(seconds: Self.resetSeconds)
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(BMI160Register.accelConfig, BMI160Register.accelNormalFilter | code)
        try device.writeByte(BMI160Register.accelRange, Self.accelRangeCode)
        try device.writeByte(BMI160Register.gyroConfig, BMI160Register.gyroNormalFilter | code)
        try device.writeByte(BMI160Register.gyroRange, Self.gyroRangeCode)
        try device.writeByte(BMI160Register.command, BMI160Register.accelNormalMode)
        wait(seconds: Self.accelStartSeconds)
        try device.writeByte(BMI160Register.command, BMI160Register.gyroNormalMode)
        wait(seconds: Self.gyroStartSeconds)
        usesFIFO = useFIFO
        if useFIFO {
            try device.writeByte(BMI160Register.fifoConfig1, BMI160Register.fifoGyroAccel)
            try device.writeByte(BMI160Register.command, BoschCommand.fifoFlush)
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard usesFIFO else {
            let b = try device.read(BMI160Register.gyroXLow, count: Self.burstBytes)
            var r = decode(b, at: 0)
            r.temperature = Double(Raw.int16(b[21], b[20])) / Self.temperatureLSBPerC + Self.temperatureOffsetC
            return [r]
        }
        let l = try device.read(BMI160Register.fifoLength, count: 2)
        let available = min((Int(l[1]) << 8 | Int(l[0])) & 0x07FF, Self.fifoBytes)
        let frames = available / Self.frameBytes
        // A full FIFO overwrites its oldest frames (stream mode, §2.5.3).
        if frames >= Self.fifoBytes / Self.frameBytes { fifoOverflows += 1 }
        guard frames > 0 else { return [] }
        let b = try device.read(BMI160Register.fifoData, count: frames * Self.frameBytes, walk: .fifoPort(wordBytes: Self.frameBytes))
        return (0..<frames).map { decode(b, at: $0 * Self.frameBytes) }
    }

    /// Gyro X/Y/Z then accel X/Y/Z, little endian.
    func decode(_ b: [UInt8], at i: Int) -> ChipReading {
        var saturated: [String] = []
        let g = Raw.rotationRate(Raw.vectorLE(b, i), dpsPerLSB: 1 / Self.gyroLSBPerDps, saturated: &saturated)
        let a = Raw.acceleration(Raw.vectorLE(b, i + 6), gPerLSB: 1 / Self.accelLSBPerG, saturated: &saturated)
        return ChipReading(acceleration: a, rotationRate: g, saturatedAxes: saturated)
    }
}

extension ChipModel {
    static var bmi160: ChipModel {
        ChipModel(
        name: "bmi160", kind: .imu,
        capabilities: SensorCapabilities(accelerometer: true, gyroscope: true, thermometer: true),
        addresses: [0x68, 0x69], idRegister: BMI160Register.chipID, idValue: 0xD1, hasFIFO: true,
        makeDriver: { BoschBMI160Driver(model: .bmi160, device: $0) })
    }
}
