/// One thing found while looking for sensors, as `imu-info` lists it.
public struct InventoryItem: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// An I²C adapter (/dev/i2c-N) or IIO context.
        case adapter
        /// A chip this project reads directly.
        case chip
        /// A chip a kernel driver owns; read it through IIO instead.
        case kernelOwned = "kernel-owned"
        /// A kernel IIO device.
        case iioDevice = "iio-device"
        /// Something that stops a sensor from being used (permission, missing module, …).
        case problem
    }
    public var kind: Kind
    /// Short name: chip or device name, adapter path.
    public var name: String
    /// Where it is: "/dev/i2c-1 @0x68", "iio:device0", "ip:192.0.2.1".
    public var location: String
    /// Extra facts as ordered key/value pairs (id, driver, mode, units, …).
    public var details: [(String, String)]
    /// The fix, for problems: the exact command or rule to install.
    public var fix: String?

    public init(kind: Kind, name: String, location: String, details: [(String, String)] = [], fix: String? = nil) {
        self.kind = kind
        self.name = name
        self.location = location
        self.details = details
        self.fix = fix
    }

    public static func == (a: InventoryItem, b: InventoryItem) -> Bool {
        a.kind == b.kind && a.name == b.name && a.location == b.location && a.fix == b.fix
            && a.details.map { $0.0 + "=" + $0.1 } == b.details.map { $0.0 + "=" + $0.1 }
    }
}

/// Options every backend honours when opening a source.
public struct SourceOptions: Sendable {
    /// Requested output rate in Hz; nil = the backend's default (100 Hz for IMUs).
    public var rateHz: Double?
    /// Overrides the chip-to-device axis mapping (a `--mount` flag or the config file).
    public var mountMatrix: MountMatrix?
    public init(rateHz: Double? = nil, mountMatrix: MountMatrix? = nil) {
        self.rateHz = rateHz
        self.mountMatrix = mountMatrix
    }
}

/// A family of sources: "i2c" (chips on /dev/i2c-N), "iio" (kernel IIO through libiio),
/// "sim" (the built-in simulator). Tools discover sensors by asking each backend in turn.
public protocol SensorBackend: Sendable {
    /// The prefix of `--source` specs this backend opens, e.g. "i2c" for `i2c:/dev/i2c-1@0x68`.
    var scheme: String { get }
    /// Everything found, including problems with their fixes, for `imu-info`.
    func inventory() -> [InventoryItem]
    /// Opens the best source this backend can find automatically; nil when it finds none.
    /// Throws a `DiagnosableError` (exit 3 with the fix) when a sensor exists but cannot be opened.
    func openDefault(options: SourceOptions) throws -> (any SampleSource)?
    /// Opens the source named by `spec` (the text after "scheme:"). Throws a `DiagnosableError`.
    func open(spec: String, options: SourceOptions) throws -> any SampleSource
    /// Parses `spec` as `open(spec:options:)` does, opening nothing, and throws the error it would
    /// throw for the text (a config file is checked so when it is read).
    func checkSpec(_ spec: String) throws
}
