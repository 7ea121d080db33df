/// Bosch BMP280 and BME280 barometers. Datasheets BST-BMP280-DS001 rev 1.26 and BST-BME280-DS002
/// rev 1.6, memory map §4.2 / §5.3. Compensation: the datasheets' 32/64-bit integer formulas
/// (BMP280 §3.11.3 and §8.2; BME280 §4.2.3 and §8.2). BME280 humidity is not used.
enum BMP280Register {
    static let calibration: UInt8 = 0x88         // dig_T1 … dig_P9: 24 bytes little endian (§3.11.2 Table 17)
    static let id: UInt8 = 0xD0                  // id: 0x58 BMP280, 0x60 BME280
    static let reset: UInt8 = 0xE0               // reset: write BoschCommand.softReset
    static let controlHumidity: UInt8 = 0xF2     // BME280 ctrl_hum: must be written before ctrl_meas (§5.4.3)
    static let controlMeasure: UInt8 = 0xF4      // ctrl_meas: osrs_t[7:5], osrs_p[4:2], mode[1:0]
    static let config: UInt8 = 0xF5              // config: t_sb[7:5], filter[4:2]
    static let pressureMSB: UInt8 = 0xF7         // press_msb … temp_xlsb: 6 bytes, 20-bit values (§4.3.6–4.3.7)

    /// osrs_t ×1 (001), osrs_p ×4 (011), normal mode (11): "standard resolution" (§3.4 Table 7).
    static let measureStandard: UInt8 = 0b001_011_11
    /// IIR filter coefficient 4 (010 << 2) (§3.3.3).
    static let filter4: UInt8 = 0b010 << 2
    /// The ADC's value when a measurement was skipped (0x80000: no data yet after reset).
    static let skipped: Int32 = 0x80000
}

/// Factory calibration words (§3.11.2 Table 17).
public struct BMP280Calibration: Sendable, Equatable {
    public var t1: UInt16, t2: Int16, t3: Int16
    public var p1: UInt16, p2: Int16, p3: Int16, p4: Int16, p5: Int16, p6: Int16, p7: Int16, p8: Int16, p9: Int16

    public init(bytes b: [UInt8]) {
        func u(_ i: Int) -> UInt16 { UInt16(b[i + 1]) << 8 | UInt16(b[i]) }
        func s(_ i: Int) -> Int16 { Int16(bitPattern: u(i)) }
        t1 = u(0); t2 = s(2); t3 = s(4)
        p1 = u(6); p2 = s(8); p3 = s(10); p4 = s(12); p5 = s(14); p6 = s(16); p7 = s(18); p8 = s(20); p9 = s(22)
    }

    /// A blank (all 0x00) or unprogrammed (all 0xFF) block, or zero in T1/P1 (they divide): not a
    /// calibration any genuine part carries.
    public var isPlausible: Bool {
        let words = [Int(t1), Int(t2), Int(t3), Int(p1), Int(p2), Int(p3), Int(p4), Int(p5), Int(p6), Int(p7), Int(p8), Int(p9)]
        return t1 != 0 && p1 != 0 && !words.allSatisfy { $0 == 0 } && !(t1 == 0xFFFF && p1 == 0xFFFF && words.dropFirst().allSatisfy { $0 == -1 || $0 == 0xFFFF })
    }

    /// Temperature in 0.01 °C and t_fine (§3.11.3, 32-bit integer formula). Wrapping arithmetic:
    /// a genuine calibration never overflows 32 bits, and a corrupt one must give a wrong number
    /// (rejected by range checks), never a trap.
    public func temperature(adcT: Int32) -> (centiCelsius: Int32, tFine: Int32) {
        let t = Int32(t1), a = adcT
        let var1 = (((a >> 3) &- (t &<< 1)) &* Int32(t2)) >> 11
        let d = (a >> 4) &- t
        let var2 = (((d &* d) >> 12) &* Int32(t3)) >> 14
        let tFine = var1 &+ var2
        return ((tFine &* 5 &+ 128) >> 8, tFine)
    }

    /// Pressure in Pa as Q24.8 (1/256 Pa) (§3.11.3, 64-bit integer formula); nil when the
    /// calibration would divide by zero (a corrupt or all-zero calibration block).
    public func pressure(adcP: Int32, tFine: Int32) -> UInt32? {
        var var1 = Int64(tFine) &- 128000
        var var2 = var1 &* var1 &* Int64(p6)
        var2 = var2 &+ ((var1 &* Int64(p5)) &<< 17)
        var2 = var2 &+ (Int64(p4) &<< 35)
        var1 = ((var1 &* var1 &* Int64(p3)) >> 8) &+ ((var1 &* Int64(p2)) &<< 12)
        var1 = (((Int64(1) << 47) &+ var1) &* Int64(p1)) >> 33
        guard var1 != 0 else { return nil }
        var p = Int64(1_048_576) &- Int64(adcP)
        p = (((p &<< 31) &- var2) &* 3125) / var1
        var1 = (Int64(p9) &* (p >> 13) &* (p >> 13)) >> 25
        var2 = (Int64(p8) &* p) >> 19
        p = ((p &+ var1 &+ var2) >> 8) &+ (Int64(p7) &<< 4)
        return UInt32(truncatingIfNeeded: p)
    }
}

struct BMP280Variant: Sendable {
    var name: String
    var id: UInt8
    var hasHumidity: Bool
    /// Standby times t_sb in ms for codes 0…7 (BMP280 §3.6.3 Table 11; BME280 §7.4.6 Table 27: codes 6/7 = 10/20 ms).
    var standbyMs: [Double]

    static let bmp280 = BMP280Variant(name: "bmp280", id: 0x58, hasHumidity: false, standbyMs: [0.5, 62.5, 125, 250, 500, 1000, 2000, 4000])
    static let bme280 = BMP280Variant(name: "bme280", id: 0x60, hasHumidity: true, standbyMs: [0.5, 62.5, 125, 250, 500, 1000, 10, 20])
}

public final class BoschBMP280Driver: ChipDriver {
    public let model: ChipModel
    public let device: I2CDevice
    let variant: BMP280Variant
    public private(set) var outputRateHz = 0.0
    public var usesFIFO: Bool { false }
    /// The BMP280 and BME280 have no FIFO: nothing to overflow.
    public var fifoCapacitySets: Int { 0 }
    public var fifoOverflows: Int { 0 }
    private(set) var calibration: BMP280Calibration?
    /// Reads that found the "skipped" value since the last real conversion.
    private var skippedReads = 0
    private var sawConversion = false
    /// Reads allowed to find no conversion yet after configuring: 10 polls at ~13 Hz ≈ 0.7 s, ten
    /// times what the first conversion takes (standby 62.5 ms + 11.5 ms).
    static let startupReads = 10

    /// Measurement time with osrs_t ×1, osrs_p ×4, in ms: 1 + 2·1 + (2·4 + 0.5) = 11.5 (§9.1, typical).
    static let measurementMs = 11.5
    /// Start-up time after reset, 2 ms (Table 2).
    static let startSeconds = 0.002

    init(model: ChipModel, device: I2CDevice, variant: BMP280Variant) {
        self.model = model
        self.device = device
        self.variant = variant
    }

    public func configure(rateHz: Double, useFIFO: Bool) throws(I2CError) {
        try verifyIdentity()
        try device.writeByte(BMP280Register.reset, BoschCommand.softReset)
        wait(seconds: Self.startSeconds)
        let cal = BMP280Calibration(bytes: try device.read(BMP280Register.calibration, count: 24))
        guard cal.isPlausible else { throw badResponse("calibration block 0x88…0x9F is blank or unprogrammed") }
        calibration = cal
        // skippedReads is kept: a chip that never converts gets one start-up allowance in all, so
        // reconfiguring it cannot postpone the error for ever.
        sawConversion = false
        let table = variant.standbyMs.enumerated().map { (1000 / ($0.element + Self.measurementMs), UInt8($0.offset)) }
        let (rate, code) = Raw.nearest(table, to: rateHz)
        outputRateHz = rate
        if variant.hasHumidity { try device.writeByte(BMP280Register.controlHumidity, 0x00) }   // humidity skipped
        try device.writeByte(BMP280Register.config, code << 5 | BMP280Register.filter4)
        try device.writeByte(BMP280Register.controlMeasure, BMP280Register.measureStandard)
    }

    public func readBatch() throws(I2CError) -> [ChipReading] {
        let b = try device.read(BMP280Register.pressureMSB, count: 6)
        let adcP = Int32(b[0]) << 12 | Int32(b[1]) << 4 | Int32(b[2]) >> 4
        let adcT = Int32(b[3]) << 12 | Int32(b[4]) << 4 | Int32(b[5]) >> 4
        guard let cal = calibration else { throw badResponse("read before configure") }
        if adcT == BMP280Register.skipped || adcP == BMP280Register.skipped {
            // 0x80000 = "measurement skipped": normal until the first conversion completes; after
            // that (or for too long) the chip was reset or put to sleep behind our back.
            skippedReads += 1
            guard sawConversion || skippedReads > Self.startupReads else { return [] }
            throw badResponse("measurements read as skipped (0x80000): the chip is asleep or was reset; reconfigure it")
        }
        sawConversion = true
        skippedReads = 0
        let (centi, tFine) = cal.temperature(adcT: adcT)
        guard let q248 = cal.pressure(adcP: adcP, tFine: tFine) else { throw badResponse("calibration block is invalid (dig_P1 = 0)") }
        return [ChipReading(pressure: Double(q248) / 256 / Units.pascalsPerHectopascal, temperature: Double(centi) / 100)]
    }
}

extension ChipModel {
    static func bmp280(_ v: BMP280Variant) -> ChipModel {
        ChipModel(name: v.name, kind: .barometer,
                  capabilities: SensorCapabilities(accelerometer: false, barometer: true, thermometer: true),
                  addresses: [0x76, 0x77], idRegister: BMP280Register.id, idValue: v.id, hasFIFO: false,
                  makeDriver: { BoschBMP280Driver(model: .bmp280(v), device: $0, variant: v) })
    }
}
