/// InvenSense MPU-6050 / MPU-9150 (PinePhone), MPU-6500 (PinePhone Pro), MPU-9250.
/// Register map: RM-MPU-6000A-00 rev 4.2 (6050/9150) and RM-MPU-6500A-00 rev 2.1 (6500/9250);
/// the registers used here sit at the same addresses in both.
enum MPURegister {
    static let sampleRateDivider: UInt8 = 0x19   // SMPLRT_DIV, RM §4.2
    static let config: UInt8 = 0x1A              // CONFIG: DLPF_CFG[2:0], RM §4.3
    static let gyroConfig: UInt8 = 0x1B          // GYRO_CONFIG: FS_SEL[4:3], RM §4.4
    static let accelConfig: UInt8 = 0x1C         // ACCEL_CONFIG: AFS_SEL[4:3], RM §4.5
    static let accelConfig2: UInt8 = 0x1D        // ACCEL_CONFIG2 (6500/9250 only): A_DLPF_CFG[2:0]
    static let fifoEnable: UInt8 = 0x23          // FIFO_EN, RM §4.7
    static let intPinConfig: UInt8 = 0x37        // INT_PIN_CFG: I2C_BYPASS_EN = bit 1, RM §4.15
    static let accelXHigh: UInt8 = 0x3B          // ACCEL_XOUT_H: accel, temp, gyro, 14 bytes big endian, RM §4.17–4.19
    static let userControl: UInt8 = 0x6A         // USER_CTRL: FIFO_EN bit 6, FIFO_RESET bit 2, RM §4.27
    static let powerManagement1: UInt8 = 0x6B    // PWR_MGMT_1: DEVICE_RESET bit 7, SLEEP bit 6, CLKSEL[2:0], RM §4.28
    static let fifoCountHigh: UInt8 = 0x72       // FIFO_COUNTH/L, RM §4.30
    static let fifoData: UInt8 = 0x74            // FIFO_R_W, RM §4.31
    static let whoAmI: UInt8 = 0x75              // WHO_AM_I, RM §4.32

    static let deviceReset: UInt8 = 0x80
    /// CLKSEL = 1: PLL with X-axis gyro reference, recommended for stability (RM §4.28); SLEEP cleared.
    static let clockPLL: UInt8 = 0x01
    static let userFIFOEnable: UInt8 = 0x40
    static let userFIFOReset: UInt8 = 0x04
    /// FIFO_EN: TEMP (7), XG (6), YG (5), ZG (4), ACCEL (3). Frames then mirror 0x3B..0x48.
    static let fifoAllSensors: UInt8 = 0xF8
    /// AK8975/AK8963 magnetometer inside the MPU-9150/9250, reachable at 0x0C in bypass mode;
    /// its WIA register 0x00 reads 0x48 (AK8975 datasheet §8.3.1).
    static let magnetometerAddress: UInt8 = 0x0C
    static let magnetometerWIA: UInt8 = 0x48
}

/// What differs between MPU variants.
struct MPUVariant: Sendable {
    var name: String
    var whoAmI: UInt8
    /// T(°C) = raw / divisor + offset: 6050 PS §6.4 (340, 35 + 521/340 = 36.53); 6500 PS §3.4.2 (333.87, 21).
    var temperatureDivisor: Double
    var temperatureOffset: Double
    /// FIFO size in bytes (6050 PS §7.17: 1024; 6500 PS §4.17: 512).
    var fifoBytes: Int
    /// Has ACCEL_CONFIG2 for the accelerometer's own low-pass filter.
    var hasAccelConfig2: Bool

    static let mpu6050 = MPUVariant(name: "mpu6050", whoAmI: 0x68, temperatureDivisor: 340, temperatureOffset: 36.53, fifoBytes: 1024, hasAccelConfig2: false)
    static let mpu9150 = MPUVariant(name: "mpu9150", whoAmI: 0x68, temperatureDivisor: 340, temperatureOffset: 36.53, fifoBytes: 1024, hasAccelConfig2: false)
    static let mpu6500 = MPUVariant(name: "mpu6500", whoAmI: 0x70, temperatureDivisor: 333.87, temperatureOffset: 21, fifoBytes: 512, hasAccelConfig2: true)
    static let mpu9250 = MPUVariant(name: "mpu9250", whoAmI: 0x71, temperatureDivisor: 333.87, temperatureOffset: 21, fifoBytes: 512, hasAccelConfig2: true)
}

public final class InvenSenseMPUDriver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: MPUVariant
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? variant.fifoBytes / Self.frameBytes : 0 }

    /// ±8 g (AFS_SEL = 2): 4096 LSB/g (6050 PS §6.2). Room for running and jumps without clipping.
    static let accelRangeBits: UInt8 = 2 << 3
    static let accelLSBPerG = 4096.0
    /// ±1000 °/s (FS_SEL = 2): 32.8 LSB/(°/s) (6050 PS §6.1).
    static let gyroRangeBits: UInt8 = 2 << 3
    static let gyroLSBPerDps = 32.8
    /// Internal sample rate with the DLPF on (DLPF_CFG 1…6): 1 kHz (RM §4.2).
    static let internalRateHz = 1000.0
    /// Accelerometer bandwidth in Hz for DLPF_CFG 0…6 (RM §4.3 table).
    static let dlpfBandwidthHz: [Double] = [260, 184, 94, 44, 21, 10, 5]
    /// Bytes per frame: accel 6, temperature 2, gyro 6.
    static let frameBytes = 14
    /// After DEVICE_RESET: 100 ms (RM §4.28 reset sequence / kernel INV_MPU6050_POWER_UP_TIME).
    static let resetSeconds = 0.1

    init(model: ChipModel, device: I2CDevice, variant: MPUVariant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(MPURegister.powerManagement1, MPURegister.deviceReset)
        wait(seconds: Self.resetSeconds)
        try device.writeByte(MPURegister.powerManagement1, MPURegister.clockPLL)
        // Low-pass: the widest bandwidth not above half the output rate (Nyquist), at least DLPF_CFG 1.
        let rate = min(max(rateHz, 4), 1000)
        let cfg = Self.dlpfBandwidthHz.firstIndex { $0 <= rate / 2 } ?? 6
        let dlpf = UInt8(max(cfg, 1))
        try device.writeByte(MPURegister.config, dlpf)
        if variant.hasAccelConfig2 { try device.writeByte(MPURegister.accelConfig2, dlpf) }
        let divider = UInt8(max(0, min(255, Int((Self.internalRateHz / rate).rounded()) - 1)))
        try device.writeByte(MPURegister.sampleRateDivider, divider)
        outputRateHz = Self.internalRateHz / Double(1 + Int(divider))
        try device.writeByte(MPURegister.gyroConfig, Self.gyroRangeBits)
        try device.writeByte(MPURegister.accelConfig, Self.accelRangeBits)
        usesFIFO = useFIFO
        if useFIFO {
            try device.writeByte(MPURegister.userControl, MPURegister.userFIFOReset)
            try device.writeByte(MPURegister.fifoEnable, MPURegister.fifoAllSensors)
            try device.writeByte(MPURegister.userControl, MPURegister.userFIFOEnable)
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard usesFIFO else {
            return [decode(try device.read(MPURegister.accelXHigh, count: Self.frameBytes), at: 0)]
        }
        let countBytes = try device.read(MPURegister.fifoCountHigh, count: 2)
        let available = Int(countBytes[0]) << 8 | Int(countBytes[1])
        if available >= variant.fifoBytes {
            // Overflowed: the oldest frames are gone and the byte stream may be misaligned. Start again.
            fifoOverflows += 1
            try device.writeByte(MPURegister.userControl, MPURegister.userFIFOReset | MPURegister.userFIFOEnable)
            return []
        }
        let frames = available / Self.frameBytes
        guard frames > 0 else { return [] }
        let bytes = try device.read(MPURegister.fifoData, count: frames * Self.frameBytes, walk: .fifoPort(wordBytes: Self.frameBytes))
        return (0..<frames).map { decode(bytes, at: $0 * Self.frameBytes) }
    }

    /// One 14-byte frame: accel X/Y/Z, temperature, gyro X/Y/Z, all big endian.
    func decode(_ b: [UInt8], at i: Int) -> ChipReading {
        var saturated: [String] = []
        let a = Raw.acceleration(Raw.vectorBE(b, i), gPerLSB: 1 / Self.accelLSBPerG, saturated: &saturated)
        let g = Raw.rotationRate(Raw.vectorBE(b, i + 8), dpsPerLSB: 1 / Self.gyroLSBPerDps, saturated: &saturated)
        let t = Double(Raw.int16(b[i + 6], b[i + 7])) / variant.temperatureDivisor + variant.temperatureOffset
        return ChipReading(acceleration: a, rotationRate: g, temperature: t, saturatedAxes: saturated)
    }

    /// MPU-9150 vs MPU-6050 (both WHO_AM_I 0x68): the 9150 has an AK8975 behind the bypass mux.
    /// Called only after WHO_AM_I matched, so the one write goes to an identified chip, and the
    /// previous INT_PIN_CFG value is restored.
    static func hasMagnetometer(_ device: I2CDevice) -> Bool {
        guard let old = try? device.readByte(MPURegister.intPinConfig) else { return false }
        defer { try? device.writeByte(MPURegister.intPinConfig, old) }
        // INT_PIN_CFG bit 1 = I2C_BYPASS_EN: the auxiliary bus is joined to the main one.
        guard (try? device.writeByte(MPURegister.intPinConfig, old | 0x02)) != nil else { return false }
        let mag = I2CDevice(bus: device.bus, address: MPURegister.magnetometerAddress, retry: .none)
        guard (try? mag.bus.claim(mag.address)) != nil else { return false }
        return (try? mag.readByte(0x00)) == MPURegister.magnetometerWIA
    }
}

extension ChipModel {
    static func mpu(_ v: MPUVariant) -> ChipModel {
        ChipModel(name: v.name, kind: .imu,
                  capabilities: SensorCapabilities(accelerometer: true, gyroscope: true, thermometer: true),
                  addresses: [0x68, 0x69], idRegister: MPURegister.whoAmI, idValue: v.whoAmI, hasFIFO: true,
                  makeDriver: { InvenSenseMPUDriver(model: .mpu(v), device: $0, variant: v) })
    }
}
