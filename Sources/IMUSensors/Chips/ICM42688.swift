/// TDK InvenSense ICM-42688-P. Register map: datasheet DS-000347 rev 1.x §14 (bank 0).
enum ICM42688Register {
    static let deviceConfig: UInt8 = 0x11     // DEVICE_CONFIG: SOFT_RESET_CONFIG bit 0, §14.3
    static let fifoConfig: UInt8 = 0x16       // FIFO_CONFIG: FIFO_MODE[7:6], 01 = stream, §14.6
    static let temperatureHigh: UInt8 = 0x1D  // TEMP_DATA1: then ACCEL_DATA_X1…Z0 (0x1F), GYRO_DATA_X1…Z0 (0x25), big endian, §14.8–14.20
    static let fifoCountHigh: UInt8 = 0x2E    // FIFO_COUNTH/L: bytes, big endian (INTF_CONFIG0 defaults), §14.27
    static let fifoData: UInt8 = 0x30         // FIFO_DATA, §14.29
    static let signalPathReset: UInt8 = 0x4B  // SIGNAL_PATH_RESET: FIFO_FLUSH bit 1, §14.33
    static let powerManagement0: UInt8 = 0x4E // PWR_MGMT0: GYRO_MODE[3:2], ACCEL_MODE[1:0], §14.36
    static let gyroConfig0: UInt8 = 0x4F      // GYRO_CONFIG0: GYRO_FS_SEL[7:5], GYRO_ODR[3:0], §14.37
    static let accelConfig0: UInt8 = 0x50     // ACCEL_CONFIG0: ACCEL_FS_SEL[7:5], ACCEL_ODR[3:0], §14.38
    static let gyroAccelConfig0: UInt8 = 0x52 // GYRO_ACCEL_CONFIG0: UI filter bandwidths, §14.40
    static let fifoConfig1: UInt8 = 0x5F      // FIFO_CONFIG1: TEMP_EN bit 2, GYRO_EN bit 1, ACCEL_EN bit 0, §14.45
    static let whoAmI: UInt8 = 0x75           // WHO_AM_I = 0x47, §14.49

    static let softReset: UInt8 = 0x01
    static let fifoFlush: UInt8 = 0x02
    /// Gyro and accelerometer in low-noise mode (0b11 each).
    static let lowNoiseBoth: UInt8 = 0x0F
    static let fifoStream: UInt8 = 0x40
    /// Accel + gyro + temperature: FIFO packet 3, 16 bytes (§6.1).
    static let fifoPacket3: UInt8 = 0x07
    /// Both UI filters at bandwidth ODR/2 (value 0 in each nibble, §14.40).
    static let filterODRHalf: UInt8 = 0x00
}

public final class ICM42688Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? Self.fifoBytes / Self.packetBytes : 0 }

    /// ODR codes (§14.37/14.38): 1 kHz = 6, 200 Hz = 7, 100 Hz = 8, 50 Hz = 9, 25 Hz = 10, 12.5 Hz = 11, 500 Hz = 15.
    static let rates: [(Double, UInt8)] = [(1000, 6), (500, 15), (200, 7), (100, 8), (50, 9), (25, 10), (12.5, 11)]
    /// ±8 g (ACCEL_FS_SEL = 1): 4096 LSB/g (§3.2).
    static let accelRangeBits: UInt8 = 1 << 5
    static let accelLSBPerG = 4096.0
    /// ±1000 °/s (GYRO_FS_SEL = 1): 32.8 LSB/(°/s) (§3.1).
    static let gyroRangeBits: UInt8 = 1 << 5
    static let gyroLSBPerDps = 32.8
    /// Temperature: data registers T = raw/132.48 + 25; FIFO byte T = raw/2.07 + 25 (§14.8, §6.1).
    static let temperatureLSBPerC = 132.48
    static let fifoTemperatureLSBPerC = 2.07
    static let temperatureOffsetC = 25.0
    /// FIFO packet 3: header, accel 6, gyro 6, temperature 1, timestamp 2 (§6.1).
    static let packetBytes = 16
    /// FIFO size in bytes (§6.1: 2 KiB).
    static let fifoBytes = 2048
    /// After soft reset wait 1 ms (§14.3); after enabling the gyro wait 45 ms before reading (§12.9).
    static let resetSeconds = 0.001
    static let gyroStartSeconds = 0.045

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(ICM42688Register.deviceConfig, ICM42688Register.softReset)
        wait(seconds: Self.resetSeconds)
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(ICM42688Register.gyroConfig0, Self.gyroRangeBits | code)
        try device.writeByte(ICM42688Register.accelConfig0, Self.accelRangeBits | code)
        try device.writeByte(ICM42688Register.gyroAccelConfig0, ICM42688Register.filterODRHalf)
        usesFIFO = useFIFO
        if useFIFO {
            try device.writeByte(ICM42688Register.fifoConfig1, ICM42688Register.fifoPacket3)
            try device.writeByte(ICM42688Register.fifoConfig, ICM42688Register.fifoStream)
        }
        try device.writeByte(ICM42688Register.powerManagement0, ICM42688Register.lowNoiseBoth)
        wait(seconds: Self.gyroStartSeconds)
        if useFIFO { try device.writeByte(ICM42688Register.signalPathReset, ICM42688Register.fifoFlush) }
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard usesFIFO else {
            let b = try device.read(ICM42688Register.temperatureHigh, count: 14)
            var saturated: [String] = []
            let a = Raw.acceleration(Raw.vectorBE(b, 2), gPerLSB: 1 / Self.accelLSBPerG, saturated: &saturated)
            let g = Raw.rotationRate(Raw.vectorBE(b, 8), dpsPerLSB: 1 / Self.gyroLSBPerDps, saturated: &saturated)
            let t = Double(Raw.int16(b[0], b[1])) / Self.temperatureLSBPerC + Self.temperatureOffsetC
            return [ChipReading(acceleration: a, rotationRate: g, temperature: t, saturatedAxes: saturated)]
        }
        let c = try device.read(ICM42688Register.fifoCountHigh, count: 2)
        let available = min(Int(c[0]) << 8 | Int(c[1]), Self.fifoBytes)
        let packets = available / Self.packetBytes
        // Stream-to-FIFO mode: a full FIFO drops new packets (§6.1).
        if packets >= Self.fifoBytes / Self.packetBytes { fifoOverflows += 1 }
        guard packets > 0 else { return [] }
        let b = try device.read(ICM42688Register.fifoData, count: packets * Self.packetBytes, walk: .fifoPort(wordBytes: Self.packetBytes))
        var out: [ChipReading] = []
        for p in 0..<packets {
            let i = p * Self.packetBytes
            // Header bit 7 set = empty FIFO marker; bits 6 and 5 say accel and gyro are present (§6.2).
            let header = b[i]
            guard header & 0x80 == 0, header & 0x60 == 0x60 else { continue }
            var saturated: [String] = []
            let a = Raw.acceleration(Raw.vectorBE(b, i + 1), gPerLSB: 1 / Self.accelLSBPerG, saturated: &saturated)
            let g = Raw.rotationRate(Raw.vectorBE(b, i + 7), dpsPerLSB: 1 / Self.gyroLSBPerDps, saturated: &saturated)
            let t = Double(Int8(bitPattern: b[i + 13])) / Self.fifoTemperatureLSBPerC + Self.temperatureOffsetC
            out.append(ChipReading(acceleration: a, rotationRate: g, temperature: t, saturatedAxes: saturated))
        }
        return out
    }
}

extension ChipModel {
    static var icm42688: ChipModel {
        ChipModel(
        name: "icm42688", kind: .imu,
        capabilities: SensorCapabilities(accelerometer: true, gyroscope: true, thermometer: true),
        addresses: [0x68, 0x69], idRegister: ICM42688Register.whoAmI, idValue: 0x47, hasFIFO: true,
        makeDriver: { ICM42688Driver(model: .icm42688, device: $0) })
    }
}
