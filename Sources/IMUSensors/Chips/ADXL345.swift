/// Analog Devices ADXL345 accelerometer. Datasheet rev. G, register map Table 19.
enum ADXL345Register {
    static let deviceID: UInt8 = 0x00            // DEVID = 0xE5
    static let rate: UInt8 = 0x2C                // BW_RATE: LOW_POWER bit 4, Rate[3:0] (Table 7)
    static let powerControl: UInt8 = 0x2D        // POWER_CTL: Measure bit 3
    static let dataFormat: UInt8 = 0x31          // DATA_FORMAT: FULL_RES bit 3, Range[1:0]
    static let dataXLow: UInt8 = 0x32            // DATAX0…DATAZ1, little endian
    static let fifoControl: UInt8 = 0x38         // FIFO_CTL: FIFO_MODE[7:6], Samples[4:0]
    static let fifoStatus: UInt8 = 0x39          // FIFO_STATUS: Entries[5:0]

    static let standby: UInt8 = 0x00
    static let measure: UInt8 = 0x08
    /// Full resolution (bit 3) at ±16 g (Range = 11): 3.9 mg/LSB on every range (Table 1, "scale factor").
    static let fullResolution16g: UInt8 = 0x0B
    /// Stream mode (10 << 6); watermark 16 entries.
    static let fifoStream: UInt8 = 0x80 | 16
}

public final class ADXL345Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    /// The FIFO holds 32 entries of one XYZ set (datasheet, "FIFO").
    static let fifoEntries = 32
    public var fifoCapacitySets: Int { usesFIFO ? Self.fifoEntries : 0 }

    /// Rate codes (Table 7): 12.5 Hz = 0x7 … 800 Hz = 0xD.
    static let rates: [(Double, UInt8)] = [(12.5, 0x7), (25, 0x8), (50, 0x9), (100, 0xA), (200, 0xB), (400, 0xC), (800, 0xD)]
    /// 3.9 mg/LSB in full resolution = 1/256 g (Table 1 typical).
    static let gPerLSB = 1.0 / 256
    /// Full resolution at ±16 g gives 13-bit values: −4096…4095 are the converter's limits.
    static let rawLimit: Int16 = 4095

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        // No soft reset: standby first, then every register this driver relies on is written.
        try device.writeByte(ADXL345Register.powerControl, ADXL345Register.standby)
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(ADXL345Register.rate, code)
        try device.writeByte(ADXL345Register.dataFormat, ADXL345Register.fullResolution16g)
        usesFIFO = useFIFO
        try device.writeByte(ADXL345Register.fifoControl, useFIFO ? ADXL345Register.fifoStream : 0)
        try device.writeByte(ADXL345Register.powerControl, ADXL345Register.measure)
    }

    /// With FIFO, each entry must still be read as its own 6-byte burst from DATAX0 (the address
    /// does not wrap back, §"Retrieving data from FIFO"): the FIFO spares missed samples, not transactions.
    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard usesFIFO else { return [decode(try device.read(ADXL345Register.dataXLow, count: Raw.vectorBytes))] }
        let entries = Int(try device.readByte(ADXL345Register.fifoStatus) & 0x3F)
        // Stream mode overwrites the oldest entry once all 32 are full.
        if entries >= Self.fifoEntries { fifoOverflows += 1 }
        var out: [ChipReading] = []
        for _ in 0..<entries { out.append(decode(try device.read(ADXL345Register.dataXLow, count: Raw.vectorBytes))) }
        return out
    }

    func decode(_ b: [UInt8]) -> ChipReading {
        var saturated: [String] = []
        let a = Raw.acceleration(Raw.vectorLE(b, 0), gPerLSB: Self.gPerLSB, limit: Self.rawLimit, saturated: &saturated)
        return ChipReading(acceleration: a, saturatedAxes: saturated)
    }
}

extension ChipModel {
    static var adxl345: ChipModel {
        ChipModel(
        name: "adxl345", kind: .accelerometer,
        capabilities: SensorCapabilities(accelerometer: true),
        addresses: [0x53, 0x1D], idRegister: ADXL345Register.deviceID, idValue: 0xE5, hasFIFO: true,
        makeDriver: { ADXL345Driver(model: .adxl345, device: $0) })
    }
}
