/// Where the I²C backend finds adapters and how it opens them: the real machine, or emulated buses in tests.
public struct I2CEnvironment: Sendable {
    /// Adapter paths, e.g. ["/dev/i2c-0", "/dev/i2c-1"].
    public var adapters: @Sendable () -> [String]
    /// The adapter's name ("SMBus stub driver"), for `imu-info`.
    public var adapterName: @Sendable (String) -> String?
    /// Opens an adapter; throws `.permissionDenied` or `.adapterGone`.
    public var open: @Sendable (String) throws(I2CError) -> any I2CBus
    /// How the bus transfers bursts, for `imu-info` ("i2c" = I2C_RDWR, "smbus-block", "smbus-byte").
    public var transferMode: @Sendable (any I2CBus) -> String

    public init(adapters: @escaping @Sendable () -> [String], adapterName: @escaping @Sendable (String) -> String?,
                open: @escaping @Sendable (String) throws(I2CError) -> any I2CBus,
                transferMode: @escaping @Sendable (any I2CBus) -> String = { _ in "i2c" }) {
        self.adapters = adapters
        self.adapterName = adapterName
        self.open = open
        self.transferMode = transferMode
    }

    /// /dev/i2c-* through i2c-dev, names from sysfs.
    public static func linux(sysfs: SysfsI2C = SysfsI2C()) -> I2CEnvironment {
        I2CEnvironment(
            adapters: { sysfs.adapterNumbers().map { "\(sysfs.devRoot)/i2c-\($0)" } },
            adapterName: { path in I2CAddress.busNumber(path).flatMap { sysfs.adapterName(bus: $0) } },
            open: { path throws(I2CError) in try LinuxI2CBus(path: path, sysfsRoot: sysfs.root) },
            transferMode: { bus in
                guard let l = bus as? LinuxI2CBus else { return "i2c" }
                return l.supportsCombinedTransfers ? "i2c" : (l.supportsBlockReads ? "smbus-block" : "smbus-byte")
            })
    }
}
