/// How a burst read walks the chip's registers, which matters when a long read must be split into
/// SMBus block reads of at most 32 bytes (I2C_SMBUS_BLOCK_MAX, linux/i2c.h).
public enum RegisterWalk: Sendable {
    /// Each byte comes from the next register (auto-increment): chunk N starts at register + 32·N.
    case incrementing
    /// Every read comes from the same FIFO data port (the chip rolls the address back): every chunk
    /// starts at the register, and holds whole FIFO words of `wordBytes` so none is split.
    case fifoPort(wordBytes: Int)
}

/// An I²C adapter seen from user space: the Linux i2c-dev adapter, or an emulated one in tests.
///
/// Every call is one bus transaction or a counted series of them; `transactionCount` lets tests and
/// benchmarks assert "one transaction per sample set".
public protocol I2CBus: AnyObject, Sendable {
    /// "/dev/i2c-1", or a test bus's name.
    var path: String { get }
    /// Bus transactions (START … STOP) performed so far.
    var transactionCount: Int { get }
    /// Claims `address` for this file descriptor (ioctl I2C_SLAVE, never I2C_SLAVE_FORCE).
    /// Throws `.ownedByKernel` (EBUSY) when a kernel driver is bound to it.
    func claim(_ address: UInt8) throws(I2CError)
    /// Writes `bytes` (register first, then values) in one transaction.
    func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError)
    /// Writes `register`, repeated START, reads `count` bytes: one combined transaction when the
    /// adapter can (I2C_RDWR), else SMBus block reads of ≤32 bytes each.
    func read(_ address: UInt8, register: UInt8, count: Int, walk: RegisterWalk) throws(I2CError) -> [UInt8]
}

extension I2CBus {
    public func read(_ address: UInt8, register: UInt8, count: Int) throws(I2CError) -> [UInt8] {
        try read(address, register: register, count: count, walk: .incrementing)
    }
}
