/// ST LSM6DS3, LSM6DSL, LSM6DSO / LSM6DSOX. Register maps: LSM6DS3 datasheet DocID026899 §8–9,
/// LSM6DSL DocID030013 §8–9, LSM6DSO DS12140 §8–9. The data and control registers used here share
/// addresses across the family; the FIFO differs (pattern FIFO on DS3/DSL, tagged FIFO on DSO/DSOX).
enum LSM6DSRegister {
    static let fifoControl3: UInt8 = 0x08        // DS3/DSL FIFO_CTRL3: DEC_FIFO_GYRO[5:3], DEC_FIFO_XL[2:0]
    static let fifoControl3DSO: UInt8 = 0x09     // DSO FIFO_CTRL3: BDR_GY[7:4], BDR_XL[3:0]
    static let fifoControl5: UInt8 = 0x0A        // DS3/DSL FIFO_CTRL5: ODR_FIFO[6:3], FIFO_MODE[2:0]; DSO FIFO_CTRL4: FIFO_MODE[2:0]
    static let whoAmI: UInt8 = 0x0F
    static let control1Accel: UInt8 = 0x10       // CTRL1_XL: ODR_XL[7:4], FS_XL[3:2]
    static let control2Gyro: UInt8 = 0x11        // CTRL2_G: ODR_G[7:4], FS_G[3:2]
    static let control3: UInt8 = 0x12            // CTRL3_C: BOOT 7, BDU 6, IF_INC 2, SW_RESET 0
    static let temperatureLow: UInt8 = 0x20      // OUT_TEMP_L, then OUTX_L_G (0x22), OUTX_L_XL (0x28): 14 bytes little endian
    static let fifoStatus1: UInt8 = 0x3A         // FIFO_STATUS1..4 (DS3/DSL: DIFF_FIFO in words, then pattern index)
    static let fifoDataOut: UInt8 = 0x3E         // DS3/DSL FIFO_DATA_OUT_L/H
    static let fifoDataOutTag: UInt8 = 0x78      // DSO FIFO_DATA_OUT_TAG + 6 data bytes

    static let softReset: UInt8 = 0x01
    /// BDU (bit 6): output registers not updated until both bytes are read; IF_INC (bit 2): burst
    /// reads auto-increment the register address (the default, set explicitly after reset).
    static let bduAutoIncrement: UInt8 = 0x44
    /// FIFO_MODE = 110: continuous (new samples overwrite the oldest).
    static let fifoContinuous: UInt8 = 0x06
    /// DS3/DSL: no decimation for gyro (001 << 3) and accel (001).
    static let noDecimation: UInt8 = 0x09
}

struct LSM6DSVariant: Sendable {
    enum FIFOFormat: Sendable {
        /// DS3/DSL: 16-bit words in a repeating gyro XYZ, accel XYZ pattern; DIFF_FIFO mask.
        case pattern(diffMask: Int)
        /// DSO/DSOX: 7-byte words (tag, 6 data bytes); tag 0x01 gyro, 0x02 accel (DS12140 §9.x, Table 9.y).
        case tagged
    }
    var name: String
    var whoAmI: UInt8
    /// LSB per °C around 25 °C: DS3 16, DSL and DSO 256 (datasheets Table 5 "temperature sensor").
    var temperatureLSBPerC: Double
    var fifo: FIFOFormat
    /// Gyro + accel sets the FIFO holds: half the kernel's st_lsm6dsx max_size (1365, 682, 512
    /// entries of 6 bytes, one per sensor).
    var fifoSets: Int

    static let lsm6ds3 = LSM6DSVariant(name: "lsm6ds3", whoAmI: 0x69, temperatureLSBPerC: 16, fifo: .pattern(diffMask: 0x0FFF), fifoSets: 682)
    static let lsm6dsl = LSM6DSVariant(name: "lsm6dsl", whoAmI: 0x6A, temperatureLSBPerC: 256, fifo: .pattern(diffMask: 0x07FF), fifoSets: 341)
    /// LSM6DSO and LSM6DSOX share WHO_AM_I 0x6C and the accel/gyro/FIFO registers used here.
    static let lsm6dso = LSM6DSVariant(name: "lsm6dso", whoAmI: 0x6C, temperatureLSBPerC: 256, fifo: .tagged, fifoSets: 256)
}

public final class STLSM6DSDriver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: LSM6DSVariant
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? variant.fifoSets : 0 }
    private var pendingGyro: (Vector3, [String])?
    private var pendingAccel: (Vector3, [String])?

    /// ODR codes for CTRL1_XL/CTRL2_G (and DSO BDR, DS3 ODR_FIFO): 12.5 Hz = 1 … 1666 Hz = 8.
    static let rates: [(Double, UInt8)] = [(12.5, 1), (26, 2), (52, 3), (104, 4), (208, 5), (416, 6), (833, 7), (1666, 8)]
    /// ±8 g: FS_XL = 11 → 0.244 mg/LSB (Table 3).
    static let accelRangeBits: UInt8 = 0x0C
    static let accelGPerLSB = 0.000244
    /// ±1000 °/s: FS_G = 10 → 35 m°/s per LSB (Table 3).
    static let gyroRangeBits: UInt8 = 0x08
    static let gyroDpsPerLSB = 0.035
    static let temperatureOffsetC = 25.0
    /// Words per pattern (gyro XYZ, accel XYZ). The FIFO holds 8 KiB on the DS3, 4 KiB on the DSL and
    /// 3 KiB on the DSO (kernel st_lsm6dsx max_size 1365, 682 and 512 sets of 6 bytes); the source
    /// drains it when half full, at most every 0.5 s (6 KiB at 104 Hz).
    static let patternWords = 6
    static let taggedWordBytes = 7

    init(model: ChipModel, device: I2CDevice, variant: LSM6DSVariant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(LSM6DSRegister.control3, LSM6DSRegister.softReset)
        // SW_RESET self-clears when the reset is done (about 50 µs, CTRL3_C description).
        try poll(LSM6DSRegister.control3, mask: LSM6DSRegister.softReset, until: 0, what: "soft reset did not complete")
        try device.writeByte(LSM6DSRegister.control3, LSM6DSRegister.bduAutoIncrement)
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(LSM6DSRegister.control1Accel, code << 4 | Self.accelRangeBits)
        try device.writeByte(LSM6DSRegister.control2Gyro, code << 4 | Self.gyroRangeBits)
        usesFIFO = useFIFO
        pendingGyro = nil
        pendingAccel = nil
        guard useFIFO else { return }
        switch variant.fifo {
        case .pattern:
            try device.writeByte(LSM6DSRegister.fifoControl3, LSM6DSRegister.noDecimation)
            try device.writeByte(LSM6DSRegister.fifoControl5, code << 3 | LSM6DSRegister.fifoContinuous)
        case .tagged:
            try device.writeByte(LSM6DSRegister.fifoControl3DSO, code << 4 | code)
            try device.writeByte(LSM6DSRegister.fifoControl5, LSM6DSRegister.fifoContinuous)
        }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard usesFIFO else {
            let b = try device.read(LSM6DSRegister.temperatureLow, count: 14)
            var saturated: [String] = []
            let g = Raw.rotationRate(Raw.vectorLE(b, 2), dpsPerLSB: Self.gyroDpsPerLSB, saturated: &saturated)
            let a = Raw.acceleration(Raw.vectorLE(b, 8), gPerLSB: Self.accelGPerLSB, saturated: &saturated)
            let t = Double(Raw.int16(b[1], b[0])) / variant.temperatureLSBPerC + Self.temperatureOffsetC
            return [ChipReading(acceleration: a, rotationRate: g, temperature: t, saturatedAxes: saturated)]
        }
        switch variant.fifo {
        case .pattern(let mask): return try readPatternFIFO(diffMask: mask)
        case .tagged: return try readTaggedFIFO()
        }
    }

    /// DS3/DSL: FIFO_STATUS1..4 give unread words and the pattern index of the next word.
    private func readPatternFIFO(diffMask: Int) throws(I2CError) -> [ChipReading] {
        let s = try device.read(LSM6DSRegister.fifoStatus1, count: 4)
        var words = (Int(s[1]) << 8 | Int(s[0])) & diffMask
        let index = (Int(s[3]) << 8 | Int(s[2])) % Self.patternWords
        var skip = index == 0 ? 0 : Self.patternWords - index
        skip = min(skip, words)
        words -= skip
        let sets = words / Self.patternWords
        // Continuous mode overwrites the oldest pattern once the FIFO is full.
        if sets >= variant.fifoSets { fifoOverflows += 1 }
        guard sets > 0 else {
            if skip > 0 { _ = try device.read(LSM6DSRegister.fifoDataOut, count: skip * 2, walk: .fifoPort(wordBytes: 2)) }
            return []
        }
        let b = try device.read(LSM6DSRegister.fifoDataOut, count: (skip + sets * Self.patternWords) * 2, walk: .fifoPort(wordBytes: 2))
        return (0..<sets).map { n in
            let i = skip * 2 + n * 12
            var saturated: [String] = []
            let g = Raw.rotationRate(Raw.vectorLE(b, i), dpsPerLSB: Self.gyroDpsPerLSB, saturated: &saturated)
            let a = Raw.acceleration(Raw.vectorLE(b, i + 6), gPerLSB: Self.accelGPerLSB, saturated: &saturated)
            return ChipReading(acceleration: a, rotationRate: g, saturatedAxes: saturated)
        }
    }

    /// DSO/DSOX: FIFO_STATUS1/2 DIFF_FIFO[9:0] words; each word is a tag byte and 6 data bytes.
    private func readTaggedFIFO() throws(I2CError) -> [ChipReading] {
        let s = try device.read(LSM6DSRegister.fifoStatus1, count: 2)
        let words = (Int(s[1]) << 8 | Int(s[0])) & 0x03FF
        if words >= 2 * variant.fifoSets { fifoOverflows += 1 }
        guard words > 0 else { return [] }
        let b = try device.read(LSM6DSRegister.fifoDataOutTag, count: words * Self.taggedWordBytes,
                                walk: .fifoPort(wordBytes: Self.taggedWordBytes))
        var out: [ChipReading] = []
        for w in 0..<words {
            let i = w * Self.taggedWordBytes
            var saturated: [String] = []
            switch b[i] >> 3 {
            case 0x01:
                let g = Raw.rotationRate(Raw.vectorLE(b, i + 1), dpsPerLSB: Self.gyroDpsPerLSB, saturated: &saturated)
                pendingGyro = (g, saturated)
            case 0x02:
                let a = Raw.acceleration(Raw.vectorLE(b, i + 1), gPerLSB: Self.accelGPerLSB, saturated: &saturated)
                pendingAccel = (a, saturated)
            default:
                continue   // temperature, timestamp and sensor-hub words are not used
            }
            if let (g, gyroSaturated) = pendingGyro, let (a, accelSaturated) = pendingAccel {
                out.append(ChipReading(acceleration: a, rotationRate: g, saturatedAxes: accelSaturated + gyroSaturated))
                pendingGyro = nil
                pendingAccel = nil
            }
        }
        return out
    }
}

extension ChipModel {
    static func lsm6ds(_ v: LSM6DSVariant) -> ChipModel {
        ChipModel(name: v.name, kind: .imu,
                  capabilities: SensorCapabilities(accelerometer: true, gyroscope: true, thermometer: true),
                  addresses: [0x6A, 0x6B], idRegister: LSM6DSRegister.whoAmI, idValue: v.whoAmI, hasFIFO: true,
                  makeDriver: { STLSM6DSDriver(model: .lsm6ds(v), device: $0, variant: v) })
    }
}
