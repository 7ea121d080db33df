/// A 7-bit I²C address (0x03…0x77 are the usable ones, I²C-bus specification UM10204 §3.1.12).
public typealias I2CAddress = UInt16

/// What a chip driver needs from a bus. Implemented by `LinuxI2CBus` over /dev/i2c-N and by
/// the register-level emulators in the tests.
///
/// Every method is one bus transaction (the counter says so), so a driver that reads all axes
/// with one `read(register:count:)` gets an untorn sample.
public protocol I2CBus: AnyObject, Sendable {
    /// Human name: "/dev/i2c-1", "emulated".
    var name: String { get }
    /// Transactions completed so far (for tests and the bus-budget benchmark).
    var transactionCount: Int { get }
    /// Writes `register` then `bytes` in one transaction (register auto-increment is the chip's business).
    func write(address: I2CAddress, register: UInt8, bytes: [UInt8]) throws(I2CError)
    /// Writes the register address, then reads `count` bytes after a repeated start: one transaction.
    func read(address: I2CAddress, register: UInt8, count: Int) throws(I2CError) -> [UInt8]
}

extension I2CBus {
    /// Writes one register.
    public func write(address: I2CAddress, register: UInt8, value: UInt8) throws(I2CError) {
        try write(address: address, register: register, bytes: [value])
    }

    /// Reads one register.
    public func readByte(address: I2CAddress, register: UInt8) throws(I2CError) -> UInt8 {
        let bytes = try read(address: address, register: register, count: 1)
        return bytes[0]
    }
}
