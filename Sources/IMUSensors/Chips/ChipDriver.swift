/// What a chip measures.
public struct ChipKind: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let accelerometer = ChipKind(rawValue: 1)
    public static let gyroscope = ChipKind(rawValue: 2)
    public static let barometer = ChipKind(rawValue: 4)
    public static let thermometer = ChipKind(rawValue: 8)
}

/// One identification probe: read `register` at `address`; the chip is present when the byte
/// (masked by `mask`) equals `expected`. Probing never writes.
public struct IdentityProbe: Sendable, Hashable {
    public var register: UInt8
    public var expected: UInt8
    public var mask: UInt8
    public init(register: UInt8, expected: UInt8, mask: UInt8 = 0xFF) {
        self.register = register
        self.expected = expected
        self.mask = mask
    }
}

/// Static facts about a chip model: name, what it measures, where it can live, how to recognise it.
public struct ChipDescriptor: Sendable, Hashable {
    /// Short lowercase name as the kernel uses it: "mpu6050", "bmp280".
    public var name: String
    public var kind: ChipKind
    /// The addresses the chip can strap to (datasheet).
    public var addresses: [I2CAddress]
    /// All probes must match.
    public var probes: [IdentityProbe]
    /// Datasheet used, for the record (document number and revision).
    public var datasheet: String

    public init(name: String, kind: ChipKind, addresses: [I2CAddress], probes: [IdentityProbe], datasheet: String) {
        self.name = name
        self.kind = kind
        self.addresses = addresses
        self.probes = probes
        self.datasheet = datasheet
    }
}

/// One reading in the CHIP's own axes (the source applies the mount matrix), already in
/// physical units: g, rad/s, hPa, °C. `nil` = not measured by this chip or not in this read.
public struct ChipReading: Sendable, Equatable {
    /// Acceleration in g (specific force, chip axes).
    public var acceleration: Vector3?
    /// Angular rate in rad/s (chip axes).
    public var rotationRate: Vector3?
    /// Pressure in hPa.
    public var pressure: Double?
    /// Temperature in °C.
    public var temperature: Double?
    /// Axes that hit the end of the configured range (the value is then a lower bound).
    public var saturated: Bool

    public init(acceleration: Vector3? = nil, rotationRate: Vector3? = nil, pressure: Double? = nil,
                temperature: Double? = nil, saturated: Bool = false) {
        self.acceleration = acceleration
        self.rotationRate = rotationRate
        self.pressure = pressure
        self.temperature = temperature
        self.saturated = saturated
    }
}

/// Settings a driver applies in `configure`.
public struct ChipConfiguration: Sendable, Equatable {
    /// Output data rate wanted, in Hz; the driver picks the nearest the chip supports.
    public var rateHz: Double
    /// Accelerometer full scale in g (±), e.g. 4 for walking (peaks reach ~3 g at a run).
    public var accelerometerRangeG: Double
    /// Gyroscope full scale in degrees/s (±).
    public var gyroscopeRangeDegreesPerSecond: Double
    /// Use the FIFO when the chip has one.
    public var useFIFO: Bool

    public init(rateHz: Double = 100, accelerometerRangeG: Double = 4, gyroscopeRangeDegreesPerSecond: Double = 500, useFIFO: Bool = true) {
        self.rateHz = rateHz
        self.accelerometerRangeG = accelerometerRangeG
        self.gyroscopeRangeDegreesPerSecond = gyroscopeRangeDegreesPerSecond
        self.useFIFO = useFIFO
    }
}

/// A driver for one chip family. One file per family under Chips/, register maps as named
/// constants with datasheet section references, variants as data tables.
public protocol ChipDriver: AnyObject {
    /// Every model this driver handles (variants of one family).
    static var models: [ChipDescriptor] { get }
    /// The model identified on the bus.
    var model: ChipDescriptor { get }
    var address: I2CAddress { get }
    /// Binds to an identified chip. Must not write.
    init(bus: any I2CBus, address: I2CAddress, model: ChipDescriptor)
    /// Resets the chip and sets range, output data rate, low-pass filter and FIFO. Returns the
    /// output data rate actually set, in Hz.
    func configure(_ configuration: ChipConfiguration) throws(I2CError) -> Double
    /// Reads what is available: one sample set (one burst transaction) without FIFO, or every
    /// sample in the FIFO (one transaction per batch). Oldest first.
    func read() throws(I2CError) -> [ChipReading]
}
