#if canImport(Glibc)
import Glibc
#endif

/// Bounded retries with exponential backoff for transient bus errors (NACK bursts, EIO, a bus
/// that clears). Permission, a vanished adapter and a kernel-owned address are never retried.
public struct RetryPolicy: Sendable {
    /// Attempts in total, including the first.
    public var attempts: Int
    /// Wait before the first retry, in seconds; doubled after each retry.
    public var initialBackoffSeconds: Double
    /// How to wait (tests pass a recorder so no test sleeps).
    public var sleep: @Sendable (Double) -> Void

    /// 4 attempts, 1 ms then 2 ms then 4 ms: long enough for a chip finishing a soft reset
    /// (MPU-6050 ~100 ms needs the driver's own wait; a NACK burst during a write cycle is < 5 ms).
    public static let standard = RetryPolicy(attempts: 4, initialBackoffSeconds: 0.001, sleep: RetryPolicy.realSleep)
    /// No retries (probing: an absent chip must cost one transaction, not four).
    public static let none = RetryPolicy(attempts: 1, initialBackoffSeconds: 0, sleep: { _ in })

    public init(attempts: Int, initialBackoffSeconds: Double, sleep: @escaping @Sendable (Double) -> Void) {
        self.attempts = max(1, attempts)
        self.initialBackoffSeconds = initialBackoffSeconds
        self.sleep = sleep
    }

    public static let realSleep: @Sendable (Double) -> Void = { seconds in
        guard seconds > 0 else { return }
        usleep(useconds_t(seconds * 1_000_000))
    }

    /// Runs `body`, retrying transient `I2CError`s; the last error is rethrown.
    public func run<T>(_ body: () throws(I2CError) -> T) throws(I2CError) -> T {
        var backoff = initialBackoffSeconds
        var attempt = 1
        while true {
            do {
                return try body()
            } catch {
                guard error.isTransient, attempt < attempts else { throw error }
                sleep(backoff)
                backoff *= 2
                attempt += 1
            }
        }
    }
}

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
