import CI2C
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// /dev/i2c-N through the kernel's i2c-dev (Documentation/i2c/dev-interface.rst).
///
/// Burst reads use one I2C_RDWR transfer (write register, repeated START, read N bytes), so all
/// axes of a sample come from one transaction. Adapters without plain I²C (I2C_FUNCS lacks
/// I2C_FUNC_I2C, e.g. SMBus-only controllers and i2c-stub) get SMBus I2C-block reads of ≤32 bytes.
public final class LinuxI2CBus: I2CBus {
    public let path: String
    /// I2C_FUNCS bits (linux/i2c.h).
    public let functionality: UInt
    private let fd: Int32
    private struct State { var claimed: UInt8?; var transactions = 0; var closed = false }
    private let state = Mutex(State())
    /// Where sysfs lives (tests point this elsewhere).
    private let sysfsRoot: String

    /// Opens the adapter. Throws `.permissionDenied` (EACCES) with the group/udev fix, or `.adapterGone`.
    public init(path: String, sysfsRoot: String = "/sys") throws(I2CError) {
        self.path = path
        self.sysfsRoot = sysfsRoot
        let r = ci2c_open(path)
        guard r >= 0 else { throw I2CError(errno: -r, bus: path, address: nil, operation: "open") }
        fd = r
        var funcs: UInt = 0
        let f = ci2c_functionality(fd, &funcs)
        functionality = f == 0 ? funcs : 0
    }

    deinit { _ = ci2c_close(fd) }

    /// Does the adapter do plain I²C messages (I2C_RDWR)?
    public var supportsCombinedTransfers: Bool { functionality & UInt(CI2C_FUNC_I2C) != 0 }
    /// Does it do SMBus I2C-block reads (≤32 bytes)?
    public var supportsBlockReads: Bool { functionality & UInt(CI2C_FUNC_SMBUS_READ_I2C_BLOCK) != 0 }

    public var transactionCount: Int { state.withLock { $0.transactions } }
    /// The largest I2C_RDWR message i2c-dev accepts, in bytes (drivers/i2c/i2c-dev.c answers a
    /// longer one with EINVAL).
    public static let maximumMessageBytes = 8192
    /// I2C_SMBUS_BLOCK_MAX: bytes per SMBus block transfer (include/uapi/linux/i2c.h, from the
    /// SMBus specification).
    static let smbusBlockMaxBytes = 32

    public func claim(_ address: UInt8) throws(I2CError) {
        try exclusive(address) { _ in .success(()) }
    }

    /// Claims `address` and runs `transfer` in one critical section, so no other thread can
    /// claim another address between the claim and the transfer on this file descriptor.
    private func exclusive<T>(_ address: UInt8, _ transfer: (inout State) -> Result<T, I2CError>) throws(I2CError) -> T {
        let outcome: Result<T, I2CError> = state.withLock { s in
            if s.claimed != address {
                let r = ci2c_set_address(fd, UInt16(address))
                guard r == 0 else {
                    return .failure(I2CError(errno: -r, bus: path, address: address, operation: "claim address (I2C_SLAVE)"))
                }
                s.claimed = address
            }
            return transfer(&s)
        }
        switch outcome {
        case .success(let value): return value
        case .failure(var e):
            if e.kind == .ownedByKernel, let bus = I2CAddress.busNumber(path) {
                let owner = SysfsI2C(root: sysfsRoot).owner(bus: bus, address: address)
                e.kernelDriver = owner.driver
                e.iioDevice = owner.iioDevice
            }
            throw e
        }
    }

    public func write(_ address: UInt8, _ bytes: [UInt8]) throws(I2CError) {
        let what = "write \(bytes.count - 1) byte(s) to \(I2CAddress.hex(bytes.first ?? 0))"
        let combined = supportsCombinedTransfers
        try exclusive(address) { s in
            let r: Int32
            if combined {
                s.transactions += 1
                r = bytes.withUnsafeBufferPointer { ci2c_write_read(fd, UInt16(address), $0.baseAddress, UInt16($0.count), nil, 0) }
            } else {
                // SMBus write byte data, one register at a time (i2c-stub and SMBus-only adapters).
                var result: Int32 = 0
                for (i, value) in bytes.dropFirst().enumerated() where result == 0 {
                    s.transactions += 1
                    result = ci2c_smbus_write_byte(fd, bytes[0] &+ UInt8(i), value)
                }
                r = result
            }
            return r >= 0 ? .success(()) : .failure(I2CError(errno: -r, bus: path, address: address, operation: what))
        }
    }

    public func read(_ address: UInt8, register: UInt8, count n: Int, walk: RegisterWalk) throws(I2CError) -> [UInt8] {
        let what = "read \(n) byte(s) from \(I2CAddress.hex(register))"
        guard n > 0 else { return [] }
        // i2c-dev refuses I2C_RDWR messages over 8192 bytes (drivers/i2c/i2c-dev.c); no chip here needs more.
        guard n <= Self.maximumMessageBytes else {
            throw I2CError(kind: .unsupported, bus: path, address: address, operation: what + ": more than \(Self.maximumMessageBytes) bytes in one message")
        }
        let combined = supportsCombinedTransfers, blocks = supportsBlockReads
        return try exclusive(address) { s in
            var out = [UInt8](repeating: 0, count: n)
            if combined {
                var reg = register
                s.transactions += 1
                let r = out.withUnsafeMutableBufferPointer { buf in ci2c_write_read(fd, UInt16(address), &reg, 1, buf.baseAddress, UInt16(n)) }
                return r >= 0 ? .success(out) : .failure(I2CError(errno: -r, bus: path, address: address, operation: what))
            }
            if blocks {
                // At most `smbusBlockMaxBytes` per SMBus block transfer.
                var offset = 0
                while offset < n {
                    let chunk: Int
                    let start: UInt8
                    switch walk {
                    case .incrementing:
                        chunk = min(Self.smbusBlockMaxBytes, n - offset)
                        start = register &+ UInt8(truncatingIfNeeded: offset)
                    case .fifoPort(let word):
                        chunk = min(max(word, Self.smbusBlockMaxBytes / max(word, 1) * word), n - offset)
                        start = register
                    }
                    s.transactions += 1
                    let r = out.withUnsafeMutableBufferPointer { buf in ci2c_smbus_read_block(fd, start, UInt8(chunk), buf.baseAddress! + offset) }
                    guard r >= 0 else { return .failure(I2CError(errno: -r, bus: path, address: address, operation: what)) }
                    guard Int(r) == chunk else {
                        return .failure(I2CError(kind: .io, bus: path, address: address, operation: what + ": short block read (\(r) of \(chunk))"))
                    }
                    offset += chunk
                }
                return .success(out)
            }
            // Byte-data reads only: one transaction per byte.
            for i in 0..<n {
                let reg: UInt8
                if case .incrementing = walk { reg = register &+ UInt8(truncatingIfNeeded: i) } else { reg = register }
                s.transactions += 1
                let r = ci2c_smbus_read_byte(fd, reg)
                guard r >= 0 else { return .failure(I2CError(errno: -r, bus: path, address: address, operation: what)) }
                out[i] = UInt8(r)
            }
            return .success(out)
        }
    }
}
