/// ST LIS3DH accelerometer (the common Adafruit/SparkFun breakout). Datasheet DocID17530,
/// register map and register descriptions; the Linux driver (drivers/iio/accel/st_accel_core.c,
/// WHO_AM_I 0x33 entry) reads it the same way: 12-bit left-justified channels, ODR in CTRL_REG1
/// bits 7:4, full scale in CTRL_REG4 bits 5:4, bit 7 of the register address for multi-byte reads.
enum LIS3DHRegister {
    static let whoAmI: UInt8 = 0x0F              // WHO_AM_I = 0x33
    static let control1: UInt8 = 0x20            // CTRL_REG1: ODR[7:4], LPen bit 3, Zen/Yen/Xen bits 2:0
    static let control4: UInt8 = 0x23            // CTRL_REG4: BDU bit 7, BLE bit 6, FS[5:4], HR bit 3
    static let control5: UInt8 = 0x24            // CTRL_REG5: BOOT bit 7, FIFO_EN bit 6
    static let outXLow: UInt8 = 0x28             // OUT_X_L … OUT_Z_H, little endian, left-justified
    static let fifoControl: UInt8 = 0x2E         // FIFO_CTRL_REG: FM[7:6] (00 bypass, 01 FIFO, 10 stream)
    static let fifoSource: UInt8 = 0x2F          // FIFO_SRC_REG: WTM bit 7, OVRN_FIFO bit 6, EMPTY bit 5, FSS[4:0]

    /// A multi-byte read advances the register address only when bit 7 of the sub-address is set
    /// (the I²C interface section; the kernel's `multi_read_bit`).
    static let autoIncrement: UInt8 = 0x80
    /// All three axes on, normal power (LPen = 0).
    static let axesOn: UInt8 = 0x07
    /// BDU (bit 7) | FS = ±8 g (10 << 4) | HR (bit 3): 12-bit readings of 4 mg each.
    static let range8gHighResolution: UInt8 = 0x80 | 0x20 | 0x08
    static let fifoEnable: UInt8 = 0x40
    /// FM = 10: stream mode, the oldest entry is overwritten when the 32 are full.
    static let fifoStream: UInt8 = 0x80
    static let fifoBypass: UInt8 = 0x00
    /// FIFO_SRC_REG: set when all 32 entries are unread (FSS has five bits, so counts only to 31).
    static let fifoOverrun: UInt8 = 0x40
    static let fifoDepth = 32
}

public final class LIS3DHDriver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    public var fifoCapacitySets: Int { usesFIFO ? LIS3DHRegister.fifoDepth : 0 }

    /// CTRL_REG1 ODR codes in normal and high-resolution mode: 1.344 kHz is code 9; code 8
    /// (1.62 kHz) exists in low-power mode only.
    static let rates: [(Double, UInt8)] = [(1, 0x1), (10, 0x2), (25, 0x3), (50, 0x4), (100, 0x5), (200, 0x6),
                                           (400, 0x7), (1344, 0x9)]
    /// 4 mg per 12-bit digit at ±8 g (datasheet sensitivity table; the kernel's gain 4000 µg).
    static let gPerDigit = 0.004
    /// 12-bit two's complement: −2048…2047 are the converter's limits.
    static let rawLimit: Int16 = 2047

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        // No reboot: power down, then every register this driver relies on is written.
        try device.writeByte(LIS3DHRegister.control1, 0x00)
        try device.writeByte(LIS3DHRegister.control4, LIS3DHRegister.range8gHighResolution)
        usesFIFO = useFIFO
        try device.writeByte(LIS3DHRegister.control5, useFIFO ? LIS3DHRegister.fifoEnable : 0)
        // Bypass first: passing through bypass mode is what empties the FIFO.
        try device.writeByte(LIS3DHRegister.fifoControl, LIS3DHRegister.fifoBypass)
        if useFIFO { try device.writeByte(LIS3DHRegister.fifoControl, LIS3DHRegister.fifoStream) }
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(LIS3DHRegister.control1, code << 4 | LIS3DHRegister.axesOn)
    }

    /// With the FIFO, each entry is read as its own 6-byte burst from OUT_X_L, as on the ADXL345:
    /// the FIFO spares missed samples, not transactions (a burst rolling over to the next entry
    /// is not relied on).
    public func readBatch() throws(I2CError) -> [ChipReading] {
        let data = LIS3DHRegister.outXLow | LIS3DHRegister.autoIncrement
        guard usesFIFO else { return [decode(try device.read(data, count: Raw.vectorBytes))] }
        let status = try device.readByte(LIS3DHRegister.fifoSource)
        let overrun = status & LIS3DHRegister.fifoOverrun != 0
        if overrun { fifoOverflows += 1 }
        let entries = overrun ? LIS3DHRegister.fifoDepth : Int(status & 0x1F)
        var out: [ChipReading] = []
        for _ in 0..<entries { out.append(decode(try device.read(data, count: Raw.vectorBytes))) }
        return out
    }

    func decode(_ b: [UInt8]) -> ChipReading {
        let v = Raw.vectorLE(b, 0)
        // Left-justified: the 12-bit reading is the top of each 16-bit word.
        var saturated: [String] = []
        let a = Raw.acceleration((v.0 >> 4, v.1 >> 4, v.2 >> 4), gPerLSB: Self.gPerDigit, limit: Self.rawLimit, saturated: &saturated)
        return ChipReading(acceleration: a, saturatedAxes: saturated)
    }
}

extension ChipModel {
    static var lis3dh: ChipModel {
        ChipModel(
        name: "lis3dh", kind: .accelerometer,
        capabilities: SensorCapabilities(accelerometer: true),
        addresses: [0x18, 0x19], idRegister: LIS3DHRegister.whoAmI, idValue: 0x33, hasFIFO: true,
        makeDriver: { LIS3DHDriver(model: .lis3dh, device: $0) })
    }
}
