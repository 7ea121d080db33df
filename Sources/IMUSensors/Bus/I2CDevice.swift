#if canImport(Glibc)
import Glibc
#endif

/// One chip on a bus: register reads and writes with retries. Chip drivers talk only to this.
public struct I2CDevice: Sendable {
    public let bus: any I2CBus
    public let address: UInt8
    public var retry: RetryPolicy

    public init(bus: any I2CBus, address: UInt8, retry: RetryPolicy = .standard) {
        self.bus = bus
        self.address = address
        self.retry = retry
    }

    /// "/dev/i2c-1 @0x68".
    public var location: String { "\(bus.path) @\(I2CAddress.hex(address))" }

    public func readByte(_ register: UInt8) throws(I2CError) -> UInt8 {
        try retry.run { () throws(I2CError) in try bus.read(address, register: register, count: 1)[0] }
    }

    /// A burst read in one transaction where the adapter allows.
    public func read(_ register: UInt8, count: Int, walk: RegisterWalk = .incrementing) throws(I2CError) -> [UInt8] {
        try retry.run { () throws(I2CError) in try bus.read(address, register: register, count: count, walk: walk) }
    }

    public func writeByte(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        try retry.run { () throws(I2CError) in try bus.write(address, [register, value]) }
    }

    /// Read-modify-write of the bits in `mask` (value already shifted into place).
    public func update(_ register: UInt8, mask: UInt8, value: UInt8) throws(I2CError) {
        let old = try readByte(register)
        try writeByte(register, (old & ~mask) | (value & mask))
    }
}
