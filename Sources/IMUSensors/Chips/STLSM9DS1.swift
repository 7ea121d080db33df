/// ST LSM9DS1 accelerometer + gyroscope (Sense HAT, Librem 5). Datasheet DocID025715 §7.
/// The magnetometer (its own address, 0x1C/0x1E) is not used.
enum LSM9DS1Register {
    static let whoAmI: UInt8 = 0x0F              // WHO_AM_I = 0x68 (§7.11)
    static let control1Gyro: UInt8 = 0x10        // CTRL_REG1_G: ODR_G[7:5], FS_G[4:3] (§7.12)
    static let temperatureLow: UInt8 = 0x15      // OUT_TEMP_L: temperature, STATUS, gyro (0x18), …, accel (0x28): 25 bytes
    static let control6Accel: UInt8 = 0x20       // CTRL_REG6_XL: ODR_XL[7:5], FS_XL[4:3] (§7.24)
    static let control8: UInt8 = 0x22            // CTRL_REG8: BOOT 7, BDU 6, IF_ADD_INC 2, SW_RESET 0 (§7.26)
    static let control9: UInt8 = 0x23            // CTRL_REG9: FIFO_EN bit 1 (§7.27)
    static let gyroXLow: UInt8 = 0x18            // OUT_X_L_G: gyro X/Y/Z, little endian
    static let accelXLow: UInt8 = 0x28           // OUT_X_L_XL: accel X/Y/Z, little endian
    static let fifoControl: UInt8 = 0x2E         // FIFO_CTRL: FMODE[7:5], FTH[4:0] (§7.34)
    static let fifoSource: UInt8 = 0x2F          // FIFO_SRC: FTH 7, OVRN 6, FSS[5:0] unread sets (§7.35)
    static let fifoEnable: UInt8 = 0x02
    /// FMODE = 110: continuous (overwrites the oldest).
    static let fifoContinuous: UInt8 = 0xC0

    static let softReset: UInt8 = 0x05           // SW_RESET with IF_ADD_INC kept
    static let bduAutoIncrement: UInt8 = 0x44
    /// Offsets in the 25-byte burst from 0x15.
    static let gyroOffset = 0x18 - 0x15
    static let accelOffset = 0x28 - 0x15
    static let burstBytes = 0x2E - 0x15
}

public final class STLSM9DS1Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    /// With the FIFO, each set pops through the ordinary output registers: a gyro burst (0x18) and an
    /// accel burst (0x28), two transactions per set plus one status read per batch, against one
    /// 25-byte burst per set without it (docs/i2c-budget.md). It keeps samples a late reader would miss.
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    /// The FIFO holds 32 sets of gyro and accel (§3.4 / FIFO_SRC FSS[5:0]).
    static let fifoSets = 32
    public var fifoCapacitySets: Int { usesFIFO ? Self.fifoSets : 0 }

    /// Gyro ODR codes (§7.12 Table 46); with the gyro on, the accelerometer runs at the gyro's rate.
    static let rates: [(Double, UInt8)] = [(14.9, 1), (59.5, 2), (119, 3), (238, 4), (476, 5), (952, 6)]
    /// ±2000 °/s (FS_G = 11): 70 m°/s per LSB (Table 3). The chip has no ±1000 range.
    static let gyroRangeBits: UInt8 = 0x18
    static let gyroDpsPerLSB = 0.070
    /// ±8 g (FS_XL = 11): 0.244 mg/LSB (Table 3).
    static let accelRangeBits: UInt8 = 0x18
    static let accelGPerLSB = 0.000244
    /// 16 LSB/°C, 0 LSB = 25 °C (Table 5).
    static let temperatureLSBPerC = 16.0
    static let temperatureOffsetC = 25.0

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(LSM9DS1Register.control8, LSM9DS1Register.softReset)
        try poll(LSM9DS1Register.control8, mask: 0x01, until: 0, what: "soft reset did not complete")
        try device.writeByte(LSM9DS1Register.control8, LSM9DS1Register.bduAutoIncrement)
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(LSM9DS1Register.control6Accel, code << 5 | Self.accelRangeBits)
        try device.writeByte(LSM9DS1Register.control1Gyro, code << 5 | Self.gyroRangeBits)
        usesFIFO = useFIFO
        if useFIFO {
            try device.writeByte(LSM9DS1Register.control9, LSM9DS1Register.fifoEnable)
            try device.writeByte(LSM9DS1Register.fifoControl, LSM9DS1Register.fifoContinuous)
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        if usesFIFO {
            let sets = Int(try device.readByte(LSM9DS1Register.fifoSource) & 0x3F)
            // Continuous mode overwrites the oldest set once all 32 are full.
            if sets >= Self.fifoSets { fifoOverflows += 1 }
            var out: [ChipReading] = []
            for _ in 0..<sets {
                var saturated: [String] = []
                let g = Raw.rotationRate(Raw.vectorLE(try device.read(LSM9DS1Register.gyroXLow, count: Raw.vectorBytes), 0),
                                         dpsPerLSB: Self.gyroDpsPerLSB, saturated: &saturated)
                let a = Raw.acceleration(Raw.vectorLE(try device.read(LSM9DS1Register.accelXLow, count: Raw.vectorBytes), 0),
                                         gPerLSB: Self.accelGPerLSB, saturated: &saturated)
                out.append(ChipReading(acceleration: a, rotationRate: g, saturatedAxes: saturated))
            }
            return out
        }
        let b = try device.read(LSM9DS1Register.temperatureLow, count: LSM9DS1Register.burstBytes)
        var saturated: [String] = []
        let g = Raw.rotationRate(Raw.vectorLE(b, LSM9DS1Register.gyroOffset), dpsPerLSB: Self.gyroDpsPerLSB, saturated: &saturated)
        let a = Raw.acceleration(Raw.vectorLE(b, LSM9DS1Register.accelOffset), gPerLSB: Self.accelGPerLSB, saturated: &saturated)
        let t = Double(Raw.int16(b[1], b[0])) / Self.temperatureLSBPerC + Self.temperatureOffsetC
        return [ChipReading(acceleration: a, rotationRate: g, temperature: t, saturatedAxes: saturated)]
    }
}

extension ChipModel {
    static var lsm9ds1: ChipModel {
        ChipModel(
        name: "lsm9ds1", kind: .imu,
        capabilities: SensorCapabilities(accelerometer: true, gyroscope: true, thermometer: true),
        addresses: [0x6A, 0x6B], idRegister: LSM9DS1Register.whoAmI, idValue: 0x68, hasFIFO: true,
        makeDriver: { STLSM9DS1Driver(model: .lsm9ds1, device: $0) })
    }
}
