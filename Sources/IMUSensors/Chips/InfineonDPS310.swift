/// Infineon DPS310 barometer. Datasheet v01_02 §7 (register map) and §4.9 (compensation).
enum DPS310Register {
    static let pressureB2: UInt8 = 0x00          // PSR_B2…B0, TMP_B2…B0: 24-bit two's complement, big endian
    static let pressureConfig: UInt8 = 0x06      // PRS_CFG: PM_RATE[6:4], PM_PRC[3:0]
    static let temperatureConfig: UInt8 = 0x07   // TMP_CFG: TMP_EXT 7, TMP_RATE[6:4], TMP_PRC[2:0]
    static let measureConfig: UInt8 = 0x08       // MEAS_CFG: COEF_RDY 7, SENSOR_RDY 6, MEAS_CTRL[2:0]
    static let config: UInt8 = 0x09              // CFG_REG: T_SHIFT, P_SHIFT (needed only above ×8 oversampling), FIFO_EN bit 1
    static let fifoStatus: UInt8 = 0x0B          // FIFO_STS: FIFO_FULL bit 1, FIFO_EMPTY bit 0
    static let reset: UInt8 = 0x0C              // RESET: FIFO_FLUSH bit 7, SOFT_RST[3:0] = 1001
    static let productID: UInt8 = 0x0D           // Product and revision ID = 0x10
    static let coefficients: UInt8 = 0x10        // COEF: 18 bytes c0 … c30
    static let coefficientSource: UInt8 = 0x28   // COEF_SRCE: TMP_COEF_SRCE bit 7

    static let softReset: UInt8 = 0x09
    /// RESET FIFO_FLUSH (bit 7): empties the FIFO.
    static let fifoFlush: UInt8 = 0x80
    /// CFG_REG FIFO_EN (bit 1).
    static let fifoEnable: UInt8 = 0x02
    static let fifoFull: UInt8 = 0x02
    static let fifoEmpty: UInt8 = 0x01
    /// What PSR_B2…B0 read as when the FIFO is empty (datasheet v01_02, "FIFO operation").
    static let emptyFIFOWord: UInt32 = 0x80_0000
    /// FIFO depth in results, pressure and temperature together.
    static let fifoEntries = 32
    static let ready: UInt8 = 0xC0
    /// MEAS_CTRL = 111: continuous pressure and temperature.
    static let continuousBoth: UInt8 = 0x07
}

/// Calibration coefficients (§8.11): c0, c1 12-bit; c00, c10 20-bit; the rest 16-bit; two's complement.
public struct DPS310Coefficients: Sendable, Equatable {
    public var c0, c1, c00, c10, c01, c11, c20, c21, c30: Int32

    public init(bytes b: [UInt8]) {
        func signed(_ v: Int32, bits: Int32) -> Int32 { v & (1 << (bits - 1)) != 0 ? v - (1 << bits) : v }
        let r = b.map { Int32($0) }
        c0 = signed(r[0] << 4 | r[1] >> 4, bits: 12)
        c1 = signed((r[1] & 0x0F) << 8 | r[2], bits: 12)
        c00 = signed(r[3] << 12 | r[4] << 4 | r[5] >> 4, bits: 20)
        c10 = signed((r[5] & 0x0F) << 16 | r[6] << 8 | r[7], bits: 20)
        c01 = signed(r[8] << 8 | r[9], bits: 16)
        c11 = signed(r[10] << 8 | r[11], bits: 16)
        c20 = signed(r[12] << 8 | r[13], bits: 16)
        c21 = signed(r[14] << 8 | r[15], bits: 16)
        c30 = signed(r[16] << 8 | r[17], bits: 16)
    }
}

public final class InfineonDPS310Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    public private(set) var outputRateHz = 0.0
    /// With the FIFO (datasheet v01_02, "FIFO operation"), each result, pressure or temperature, is popped by a 3-byte read of
    /// PSR_B2…B0; bit 0 of the 24-bit word says which (1 pressure, 0 temperature) and costs that
    /// value its LSB. The datasheet gives no fill level and does not say that a longer burst would
    /// pop the next entry (the address runs on into TMP_B2), so a batch is FIFO_STS, one read per
    /// result and one read that returns the empty word: results + 2 transactions. At the usual 8 Hz
    /// pressure + 8 Hz temperature, drained once a second: 16 results, 18 transactions, 9 per pressure
    /// reading's two results — more than the 1 of a direct read; the FIFO only helps a reader that
    /// wakes rarely. A full FIFO stops storing (new results are dropped: Infineon's own library says
    /// "it won't save any new measurement results"), so its content is an
    /// unknown time old: the driver flushes it and returns [] rather than mis-time stale readings.
    public private(set) var usesFIFO = false
    public private(set) var fifoOverflows = 0
    /// Pressure readings the FIFO holds: 32 results, a pressure and a temperature each.
    public var fifoCapacitySets: Int { usesFIFO ? DPS310Register.fifoEntries / 2 : 0 }
    private(set) var coefficients: DPS310Coefficients?
    /// The latest temperature from the FIFO (scaled raw value, §4.9.2 T_raw_sc), for pressure entries
    /// read before the next temperature arrives.
    private var lastScaledTemperature: Double?
    /// Scaled raw pressures (P_raw_sc) still waiting for a temperature.
    private var pendingPressures: [Double] = []

    /// PM_RATE / TMP_RATE codes: 2^code measurements per second (§8.3).
    static let rates: [(Double, UInt8)] = [(1, 0), (2, 1), (4, 2), (8, 3), (16, 4), (32, 5)]
    /// Pressure ×4 oversampling (PM_PRC = 2), scale factor kP = 3670016; temperature single (0), kT = 524288 (§4.9.3 Table 9).
    static let pressurePrecision: UInt8 = 2
    static let pressureScale = 3_670_016.0
    static let temperatureScale = 524_288.0
    /// Coefficients ready ~40 ms after reset (§5.3 "start-up sequence").
    static let startSeconds = 0.040

    init(model: ChipModel, device: I2CDevice) {
        self.model = model
        self.device = device
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(DPS310Register.reset, DPS310Register.softReset)
        wait(seconds: Self.startSeconds)
        try poll(DPS310Register.measureConfig, mask: DPS310Register.ready, until: DPS310Register.ready, interval: 0.010,
                 what: "coefficients never became ready")
        coefficients = DPS310Coefficients(bytes: try device.read(DPS310Register.coefficients, count: 18))
        // The temperature sensor the coefficients were made with (§8.12): write it back as TMP_EXT.
        let source = try device.readByte(DPS310Register.coefficientSource) & 0x80
        let (rate, code) = Raw.nearest(Self.rates, to: rateHz)
        outputRateHz = rate
        try device.writeByte(DPS310Register.pressureConfig, code << 4 | Self.pressurePrecision)
        try device.writeByte(DPS310Register.temperatureConfig, source | code << 4)
        usesFIFO = useFIFO
        lastScaledTemperature = nil
        pendingPressures = []
        try device.writeByte(DPS310Register.config, usesFIFO ? DPS310Register.fifoEnable : 0x00)
        if usesFIFO { try device.writeByte(DPS310Register.reset, DPS310Register.fifoFlush) }
        try device.writeByte(DPS310Register.measureConfig, DPS310Register.continuousBoth)
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        guard let c = coefficients else {
            throw I2CError(kind: .io, bus: device.bus.path, address: device.address, operation: "dps310 read before configure")
        }
        if usesFIFO { return try readFIFO(c) }
        let b = try device.read(DPS310Register.pressureB2, count: 6)
        guard b.contains(where: { $0 != 0 }) else { return [] }   // all zero: no conversion since reset
        return [compensate(Double(Self.signed24(b, at: 0)) / Self.pressureScale,
                               Double(Self.signed24(b, at: 3)) / Self.temperatureScale, c)]
    }

    /// Pops results until the empty word; pairs each pressure with the nearest temperature in the stream.
    private func readFIFO(_ c: DPS310Coefficients) throws(I2CError) -> [ChipReading] {
        let status = try device.readByte(DPS310Register.fifoStatus)
        if status & DPS310Register.fifoEmpty != 0 { return [] }
        if status & DPS310Register.fifoFull != 0 {
            fifoOverflows += 1
            try device.writeByte(DPS310Register.reset, DPS310Register.fifoFlush)
            pendingPressures = []
            return []
        }
        var out: [ChipReading] = []
        // At most a full FIFO plus the empty word; results arriving meanwhile wait for the next batch.
        for _ in 0...DPS310Register.fifoEntries {
            let b = try device.read(DPS310Register.pressureB2, count: 3)
            let word = UInt32(b[0]) << 16 | UInt32(b[1]) << 8 | UInt32(b[2])
            if word == DPS310Register.emptyFIFOWord { break }
            let value = Double(Self.signed24(b, at: 0))
            if word & 1 == 1 {
                pendingPressures.append(value / Self.pressureScale)
            } else {
                lastScaledTemperature = value / Self.temperatureScale
            }
            // A pressure is compensated with the latest temperature; the first ones wait for one.
            if let t = lastScaledTemperature {
                for p in pendingPressures { out.append(compensate(p, t, c)) }
                pendingPressures = []
            }
        }
        return out
    }

    /// §4.9.1 and §4.9.2: compensated pressure and temperature from scaled raw values.
    private func compensate(_ p: Double, _ t: Double, _ c: DPS310Coefficients) -> ChipReading {
        let celsius = Double(c.c0) * 0.5 + Double(c.c1) * t
        let pa = Double(c.c00) + p * (Double(c.c10) + p * (Double(c.c20) + p * Double(c.c30)))
            + t * Double(c.c01) + t * p * (Double(c.c11) + p * Double(c.c21))
        return ChipReading(pressure: pa / Units.pascalsPerHectopascal, temperature: celsius)
    }

    /// 24-bit two's complement, big endian, at `b[i...]`.
    static func signed24(_ b: [UInt8], at i: Int) -> Int32 {
        Int32(bitPattern: UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8) >> 8
    }
}

extension ChipModel {
    static var dps310: ChipModel {
        ChipModel(name: "dps310", kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x77, 0x76], idRegister: DPS310Register.productID, idValue: 0x10, hasFIFO: true,
                  makeDriver: { InfineonDPS310Driver(model: .dps310, device: $0) })
    }
}
