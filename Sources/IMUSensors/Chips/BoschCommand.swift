/// Command codes Bosch gives the same value on each of its chips here.
enum BoschCommand {
    /// Soft reset: written to the BMI160's CMD (0x7E, §2.11.38), the BMP280/BME280's reset
    /// register (0xE0) and the BMP388/390's CMD (0x7E).
    static let softReset: UInt8 = 0xB6
    /// fifo_flush: clears the FIFO, through CMD on the BMI160 (§2.11.38) and the BMP388/390.
    static let fifoFlush: UInt8 = 0xB0
}
